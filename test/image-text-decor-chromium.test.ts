// Picture borders with rounded corners and circle masks, colour filters, and per-line text backgrounds
// against the same scene drawn by Chromium with CSS (border + border-radius, filter: …, an inline
// span's background with box-decoration-break: clone), with the same photo and font files.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { bundledFonts, FONTS_DIR } from '../src/text/fonts.js';
import { compareWithChromium } from './support/chromium.js';
import { designWith } from './support/scene.js';
import { toolsAvailable } from './support/tools.js';

const engine = new Engine();
const tmp = mkdtempSync(join(tmpdir(), 'imprint-decor-chromium-'));
const ASSETS = resolve('golden/assets');
const PHOTO = `file://${join(ASSETS, 'photo.jpg')}`;
const BG = '#eceff1';

async function ours(objects: unknown[], width: number, height: number): Promise<Buffer> {
  return (await engine.render({ format: 'png', design: designWith(objects, { width, height, background: { type: 'color', color: BG } }), baseDir: ASSETS }))
    .bytes;
}

const at = (x: number, y: number, w: number, h: number) => `position:absolute;left:${x}px;top:${y}px;width:${w}px;height:${h}px`;

describe.runIf(toolsAvailable(['chromium'], 'comparing with Chromium needs it'))('image borders, filters and text backgrounds against Chromium', () => {
  /**
   * Tolerance: 16 levels on 99 % of the pixels. Both scale the 600×400 photo down (Imprint with
   * Lanczos 3, Chromium with its own filter), which moves smooth areas by a level or two; anti-aliased
   * curve edges differ by a few pixels per corner. Measured: 0.26 % of the pixels over 16 levels
   * (worst 51, on the anti-aliased outer corners), the geometry of borders and corners identical.
   */
  it('borders on rounded photos, a radius below the width, and a circle avatar match CSS border + border-radius', async () => {
    const cases = [
      { x: 20, y: 20, w: 180, h: 120, r: 30, bw: 10, color: '#ffffff', mask: undefined },
      { x: 220, y: 20, w: 180, h: 120, r: 6, bw: 14, color: '#e53935', mask: undefined },
      { x: 20, y: 160, w: 180, h: 120, r: 0, bw: 8, color: '#1e88e5', mask: undefined },
      { x: 240, y: 160, w: 120, h: 120, r: 0, bw: 8, color: '#ffffff', mask: 'circle' },
    ];
    const objects = cases.map((c) => ({
      type: 'image',
      x: c.x,
      y: c.y,
      width: c.w,
      height: c.h,
      path: 'photo.jpg',
      ...(c.mask ? { mask: c.mask } : { corner_radius: c.r }),
      border: { width: c.bw, color: c.color },
    }));
    // The picture fills the rounded box and the border lies over it, inside the box (a border on the
    // <img> itself would shrink the picture into the content box instead).
    const html = cases
      .map((c) => {
        const radius = c.mask ? '50%' : `${c.r}px`;
        return `<div style="${at(c.x, c.y, c.w, c.h)};border-radius:${radius};overflow:hidden"><img src="${PHOTO}" style="display:block;width:100%;height:100%;object-fit:cover"><div style="position:absolute;inset:0;box-sizing:border-box;border:${c.bw}px solid ${c.color};border-radius:${radius}"></div></div>`;
      })
      .join('');
    const { off, share, worst, screenshot } = await compareWithChromium(await ours(objects, 420, 300), html, {
      width: 420,
      height: 300,
      background: BG,
      levels: 16,
      dir: tmp,
      name: 'borders',
    });
    expect(share, `${off} pixels differ by more than 16 levels (worst ${worst}); Chromium: ${screenshot}`).toBeLessThanOrEqual(0.01);
  }, 60_000);

  /**
   * Tolerance: 6 levels on 98.5 % of the pixels. Chromium applies these functions to the resampled
   * picture's sRGB values, as Imprint does (91 % of the pixels within 2 levels). Measured: 0.96 % over
   * 6 levels: the hills' sharp edges, which the two resamplers (Lanczos 3 here) draw a pixel apart
   * (worst 31), and up to 7 levels in the clipped highlight of the five-filter chain, where Chromium
   * rounds or clamps between its steps a little differently.
   */
  it('grayscale, sepia, brightness, contrast and saturate match CSS filter on an <img>', async () => {
    const sets = [
      { grayscale: 1 },
      { sepia: 1 },
      { grayscale: 0.5, sepia: 0.3 },
      { brightness: 1.4 },
      { brightness: 0.6, contrast: 1.5 },
      { contrast: 0.5 },
      { saturate: 2.5 },
      { saturate: 0.3, brightness: 1.1 },
      { grayscale: 0.2, sepia: 0.6, brightness: 1.2, contrast: 1.3, saturate: 1.4 },
    ];
    const w = 120;
    const h = 80;
    const cells = sets.map((f, i) => ({ f, x: 10 + (i % 3) * (w + 10), y: 10 + Math.floor(i / 3) * (h + 10) }));
    const objects = cells.map((c) => ({ type: 'image', x: c.x, y: c.y, width: w, height: h, path: 'photo.jpg', filters: c.f }));
    const css = (f: Record<string, number>) =>
      (['grayscale', 'sepia', 'brightness', 'contrast', 'saturate'] as const)
        .filter((k) => f[k] !== undefined)
        .map((k) => `${k}(${f[k]})`)
        .join(' ');
    const html = cells.map((c) => `<img src="${PHOTO}" style="${at(c.x, c.y, w, h)};object-fit:cover;filter:${css(c.f as Record<string, number>)}">`).join('');
    const width = 10 + 3 * (w + 10);
    const height = 10 + 3 * (h + 10);
    const { off, share, worst, screenshot } = await compareWithChromium(await ours(objects, width, height), html, {
      width,
      height,
      background: BG,
      levels: 6,
      dir: tmp,
      name: 'filters',
    });
    expect(share, `${off} pixels differ by more than 6 levels (worst ${worst}); Chromium: ${screenshot}`).toBeLessThanOrEqual(0.015);
  }, 60_000);

  /**
   * Per-line backgrounds, centred: one rounded box per line, as a CSS inline background with
   * box-decoration-break: clone. CSS sizes an inline box by the font's content area (hhea ascent +
   * descent, each rounded by Chromium), Imprint by the line box; the CSS padding makes up the
   * difference. The text is drawn in the background colour, so only the boxes are compared (glyphs are
   * compared in text-chromium.test.ts). Tolerance: 8 levels on 99.5 % of the pixels (anti-aliased
   * corners and half-pixel box edges). Measured: 0.29 %, all on the boxes' rounded corners.
   */
  it('line backgrounds of centred multi-line text match an inline span background with box-decoration-break: clone', async () => {
    const size = 32;
    const lineBox = 40;
    const inter = bundledFonts().face('Inter', 400);
    const content = Math.round(inter.ascent * size) + Math.round(inter.descent * size);
    const [px, py, radius] = [12, 4, 10];
    const text = 'Summer sale on everything, this week only';
    const objects = [
      {
        type: 'text',
        x: 40,
        y: 30,
        width: 320,
        height: 200,
        font_size: size,
        line_height: lineBox / size,
        text,
        color: '#e53935',
        text_align: 'center',
        config: { text_replacement_strategy_fit_valign: 'top' },
        background: { color: '#e53935', padding: { x: px, y: py }, corner_radius: radius },
      },
    ];
    const cssPadY = py + (lineBox - content) / 2;
    const html = `<style>@font-face { font-family: "Inter-test"; src: url("file://${resolve(FONTS_DIR, inter.file)}"); }</style><div style="${at(40, 30, 320, 200)};font-family:'Inter-test';font-size:${size}px;line-height:${lineBox}px;text-align:center;color:#e53935;font-synthesis:none"><span style="background:#e53935;padding:${cssPadY}px ${px}px;border-radius:${radius}px;-webkit-box-decoration-break:clone;box-decoration-break:clone">${text}</span></div>`;
    const { off, share, worst, screenshot } = await compareWithChromium(await ours(objects, 400, 260), html, {
      width: 400,
      height: 260,
      background: BG,
      levels: 8,
      dir: tmp,
      name: 'line-backgrounds',
    });
    expect(share, `${off} pixels differ by more than 8 levels (worst ${worst}); Chromium: ${screenshot}`).toBeLessThanOrEqual(0.005);
  }, 60_000);
});
