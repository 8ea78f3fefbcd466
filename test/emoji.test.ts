// Colour emoji from Noto Color Emoji (COLRv1): painted as vector in png (Skia) and pdf (clips, shadings,
// soft masks), in the font's own colours whatever the text colour, with the pdf's text extractable.
// Until per-character fallback picks the emoji font by itself, the text objects name it as their family,
// from a font set made here (the design schema bundles no emoji family).
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine, type DesignInput } from '../src/engine.js';
import { withoutTables, tableDirectory } from '../src/text/font-tables.js';
import { openFontFile } from '../src/text/faces.js';
import { FONTS_DIR, FontSet } from '../src/text/fonts.js';
import { chromiumScreenshot } from './support/chromium.js';
import { envelopeMismatch } from './support/envelope-diff.js';
import { assertGolden, REPO_ROOT } from './support/golden-compare.js';
import { run, toolsAvailable } from './support/tools.js';

const EMOJI_FONT = createRequire(import.meta.url).resolve('@expo-google-fonts/noto-color-emoji/400Regular/NotoColorEmoji_400Regular.ttf');
const LINE = '👍🏽 👩‍👩‍👧 🇯🇵 ❤️ 🎉 😀 🧑🏿‍🚀 #️⃣';

const dir = mkdtempSync(join(tmpdir(), 'imprint-emoji-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'manifest.json'),
  JSON.stringify({
    families: [
      { family: 'Inter', faces: [{ weight: 400, file: join(FONTS_DIR, 'Inter-Regular.ttf') }], license: join(FONTS_DIR, 'Inter-OFL.txt') },
      { family: 'Noto Color Emoji', faces: [{ weight: 400, file: EMOJI_FONT }], license: 'OFL' },
    ],
  }),
);
const engine = new Engine({ fonts: new FontSet(dir), threads: 0 });

type TextObject = { text: string; x: number; y: number; width: number; height: number; font_size: number; color?: string };
function design(width: number, height: number, texts: TextObject[]): DesignInput {
  return {
    schema: 'imprint/design@1' as const,
    width,
    height,
    background: { type: 'color', color: '#ffffff' },
    fonts: ['Inter', 'Noto Color Emoji'],
    objects: texts.map((t) => ({
      type: 'text',
      font_family: 'Noto Color Emoji',
      color: '#000000',
      ...t,
      config: { text_replacement_strategy_fit_valign: 'top' },
    })),
  };
}

/** The golden line at two sizes; the small line's text colour is red, which must not show. */
const LINE_DESIGN = design(640, 200, [
  { text: LINE, x: 10, y: 10, width: 620, height: 40, font_size: 24, color: '#ff0000' },
  { text: LINE, x: 10, y: 60, width: 620, height: 130, font_size: 56 },
]);
/** One 😀 at 100 px, origin of its box at (20, 20). */
const grin = (color: string) => design(160, 160, [{ text: '😀', x: 20, y: 20, width: 130, height: 130, font_size: 100, color }]);

async function pixels(png: Buffer): Promise<{ at(x: number, y: number): [number, number, number]; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at: (x, y) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)] as [number, number, number],
  };
}

/** Pixels that are neither white-ish nor grey: where colour was painted. */
async function colourfulPixels(png: Buffer): Promise<number> {
  const img = await pixels(png);
  let n = 0;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const [r, g, b] = img.at(x, y);
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) n++;
    }
  return n;
}

describe('the table directory', () => {
  it('drops the SVG table of Noto Color Emoji (25 MB → 5 MB) and keeps COLR, CPAL and glyf byte for byte', () => {
    const original = readFileSync(EMOJI_FONT);
    const stripped = withoutTables(original, ['SVG ']);
    expect(original.length).toBeGreaterThan(20e6);
    expect(stripped.length).toBeLessThan(6e6);
    const before = new Map(tableDirectory(original)!.map((t) => [t.tag, t]));
    const after = tableDirectory(stripped)!;
    expect(after.map((t) => t.tag)).toEqual([...before.keys()].filter((t) => t !== 'SVG '));
    for (const t of after) {
      const o = before.get(t.tag)!;
      const [kept, was] = [Buffer.from(stripped.subarray(t.offset, t.offset + t.length)), Buffer.from(original.subarray(o.offset, o.offset + o.length))];
      // head differs only in checkSumAdjustment (bytes 8-11), which covers the whole file.
      if (t.tag === 'head') for (const x of [kept, was]) x.fill(0, 8, 12);
      expect(kept.equals(was), t.tag).toBe(true);
    }
    // The whole-file checksum (head.checkSumAdjustment) is right again: the sum of every uint32 is the magic.
    let sum = 0;
    for (let o = 0; o < stripped.length; o += 4) sum = (sum + stripped.readUInt32BE(o)) >>> 0;
    expect(sum.toString(16)).toBe('b1b0afba');
  });

  it('a face opened from the emoji file keeps only the stripped bytes and knows its colour glyphs', async () => {
    const face = openFontFile(EMOJI_FONT, 'Noto Color Emoji', 400);
    expect(face.bytes.length).toBeLessThan(6e6);
    const [grinning] = face.shaper.layout('😀').glyphs;
    const glyph = face.colorGlyph!(grinning!.id)!;
    expect(glyph.ops.some((o) => o.op === 'radial')).toBe(true);
    expect(glyph.ops.filter((o) => o.op.startsWith('push')).length).toBe(glyph.ops.filter((o) => o.op.startsWith('pop')).length);
    // The zero-width VS16 glyph of ❤️ is no colour glyph; neither is any Inter glyph.
    const heart = face.shaper.layout('❤️').glyphs;
    expect(heart.map((g) => face.colorGlyph!(g.id) !== undefined)).toEqual([true, false]);
    const inter = new FontSet().face('Inter', 400);
    expect(inter.colorGlyph?.(inter.shaper.layout('A').glyphs[0]!.id)).toBeUndefined();
  });
});

describe('colour emoji in png', () => {
  it('paints a line of emoji at two sizes in the font colours (golden)', async () => {
    const { bytes } = await engine.render({ design: LINE_DESIGN, format: 'png' });
    await assertGolden(bytes, { area: 'emoji', name: 'line', dir: join(REPO_ROOT, 'golden', 'emoji', 'line') });
    // Colour, not outlines filled in one text colour: thousands of saturated pixels.
    expect(await colourfulPixels(bytes)).toBeGreaterThan(5000);
  });

  it('😀 has a yellow face, dark eyes and a white smile, whatever the text colour', async () => {
    const red = await engine.render({ design: grin('#ff0000'), format: 'png' });
    const blue = await engine.render({ design: grin('#0000ff'), format: 'png' });
    expect(red.bytes.equals(blue.bytes), 'the text colour changed the emoji').toBe(true);
    const img = await pixels(red.bytes);
    // The glyph's em box is 100 px from x 20; the face is a circle around (20 + 61.5, ~86).
    const [r, g, b] = img.at(82, 60);
    expect(r, `forehead ${[r, g, b].join(',')}`).toBeGreaterThan(230);
    expect(g).toBeGreaterThan(180);
    expect(b).toBeLessThan(90);
    const eye = img.at(62, 68);
    expect(Math.max(...eye), `left eye ${eye.join(',')}`).toBeLessThan(110);
    const teeth = img.at(80, 93);
    expect(Math.min(...teeth), `teeth ${teeth.join(',')}`).toBeGreaterThan(235);
    // No red or blue anywhere: the text colour is not used.
    for (let y = 0; y < img.height; y += 2)
      for (let x = 0; x < img.width; x += 2) {
        const [pr, pg, pb] = img.at(x, y);
        expect(pr > 200 && pg < 80 && pb < 80, `red at ${x},${y}`).toBe(false);
        expect(pb > 200 && pr < 80 && pg < 80, `blue at ${x},${y}`).toBe(false);
      }
  });
});

const pdfTools = toolsAvailable(['pdftoppm', 'pdftotext', 'pdffonts', 'qpdf'], 'emoji pdf tests need poppler and qpdf');

describe('colour emoji in pdf', () => {
  it.skipIf(!pdfTools)('is drawn as vector like the png, and its text is extractable', async () => {
    const png = await engine.render({ design: LINE_DESIGN, format: 'png' });
    const pdf = await engine.render({ design: LINE_DESIGN, format: 'pdf' });
    const file = join(dir, 'line.pdf');
    writeFileSync(file, pdf.bytes);
    run('qpdf', ['--check', file]);
    // No page image: the emoji are paths, shadings and soft-masked groups.
    expect(run('pdfimages', ['-list', file]).trim().split('\n').length, 'the pdf holds images').toBe(2);
    run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, join(dir, 'line')]);
    const mismatch = await envelopeMismatch(png.bytes, join(dir, 'line.png'));
    expect(mismatch, `${(mismatch * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.001);
    // Each emoji is found as its characters (ZWJ sequences, flags and keycaps whole).
    const text = run('pdftotext', ['-raw', file, '-']);
    expect(text.split('\n')[0]).toBe(LINE);
    // Fonts: the invisible text's face (a one-glyph Inter subset) and, for the run's spaces (no colour
    // glyphs), a subset of the emoji font without its colour tables; each embedded with a ToUnicode map.
    const fonts = run('pdffonts', [file]).trim().split('\n').slice(2);
    expect(fonts.map((l) => l.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['Inter-Regular', 'NotoColorEmoji']);
    for (const line of fonts) expect(line).toMatch(/CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it.skipIf(!pdfTools)('rotated, translucent and 200 px emoji over a backdrop match the png too', async () => {
    // Rotation and size past the glyph-mask limit take the png's direct path; opacity a whole-glyph layer.
    const text = { type: 'text' as const, font_family: 'Noto Color Emoji', color: '#ffffff' };
    const withBackdrop: DesignInput = {
      schema: 'imprint/design@1',
      width: 500,
      height: 300,
      background: { type: 'color', color: '#334455' },
      fonts: ['Inter', 'Noto Color Emoji'],
      objects: [
        { type: 'shape', shape: 'rect', x: 0, y: 150, width: 500, height: 150, background: { type: 'color', color: '#ffcc00' } },
        { ...text, text: '😀 🎉\n❤️ 🇯🇵', x: 20, y: 20, width: 300, height: 120, font_size: 48, rotation: 15, opacity: 0.5 },
        { ...text, text: '🌈', x: 250, y: 60, width: 250, height: 240, font_size: 200 },
      ],
    };
    const png = await engine.render({ design: withBackdrop, format: 'png' });
    const pdf = await engine.render({ design: withBackdrop, format: 'pdf' });
    const file = join(dir, 'scene.pdf');
    writeFileSync(file, pdf.bytes);
    run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, join(dir, 'scene')]);
    const mismatch = await envelopeMismatch(png.bytes, join(dir, 'scene.png'));
    expect(mismatch, `${(mismatch * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.002);
    // The translucent emoji let the backdrop through: 😀's yellow is mixed with the dark blue.
    expect(await colourfulPixels(png.bytes)).toBeGreaterThan(10000);
  });

  it.skipIf(!pdfTools)('😀 keeps its colours in pdf whatever the text colour', async () => {
    const red = await engine.render({ design: grin('#ff0000'), format: 'pdf' });
    const file = join(dir, 'grin.pdf');
    writeFileSync(file, red.bytes);
    run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, join(dir, 'grin')]);
    const img = await pixels(readFileSync(join(dir, 'grin.png')));
    const [r, g, b] = img.at(82, 60);
    expect(r).toBeGreaterThan(230);
    expect(g).toBeGreaterThan(180);
    expect(b).toBeLessThan(90);
  });
});

describe('colour emoji against Chromium', () => {
  it.skipIf(!toolsAvailable(['chromium'], 'comparing emoji with Chromium needs it'))(
    'the png matches Chromium drawing the same font file through @font-face',
    async () => {
      const big = '😀 🎉 👩‍👩‍👧 🧑🏿‍🚀';
      const line = design(640, 140, [
        { text: LINE, x: 10, y: 10, width: 620, height: 40, font_size: 24 },
        { text: big, x: 10, y: 50, width: 620, height: 80, font_size: 56 },
      ]);
      const ours = await engine.render({ design: line, format: 'png' });
      // Each line at its size on one line, as the browser lays it out (no fitting there).
      expect(ours.report.map((r) => [r.font_size, r.line_count])).toEqual([
        [24, 1],
        [56, 1],
      ]);
      // The same box, size and line height; CSS half-leading puts the baseline where layout does.
      const page = join(dir, 'emoji.html');
      writeFileSync(
        page,
        `<!doctype html><meta charset="utf-8"><style>@font-face { font-family: E; src: url("file://${EMOJI_FONT}"); }
html, body { margin: 0; background: #fff; }
div { position: absolute; left: 10px; white-space: pre; font-family: E; line-height: 1.2; }</style>
<div style="top: 10px; font-size: 24px">${LINE}</div><div style="top: 50px; font-size: 56px">${big}</div>`,
      );
      const shot = join(dir, 'chromium.png');
      chromiumScreenshot(page, shot, 640, 140);
      const mismatch = await envelopeMismatch(ours.bytes, shot);
      expect(mismatch, `${(mismatch * 100).toFixed(3)} % of the pixels differ from Chromium's (${shot})`).toBeLessThanOrEqual(0.002);
    },
  );
});
