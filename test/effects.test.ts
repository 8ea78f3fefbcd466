// Blur on every object (CSS filter: blur), gradient-filled text (CSS background-clip: text) and shadows on
// charts, mockups and videos: display-list data, override merging, validation, the pixels in raster and
// pdf (read back by poppler), and the same effects drawn by Chromium with the same font file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { ImprintError } from '../src/errors.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { FONTS_DIR, FontSet } from '../src/text/fonts.js';
import { compareWithChromium } from './support/chromium.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';
import { run, toolsAvailable } from './support/tools.js';

const engine = new Engine();
const tmp = mkdtempSync(join(tmpdir(), 'imprint-effects-'));

async function rgb(png: Buffer | string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
const at = (img: { data: Buffer; width: number }, x: number, y: number, c = 0): number => img.data[(y * img.width + x) * 3 + c]!;

const card = (extra: Record<string, unknown> = {}) =>
  designWith([{ type: 'shape', name: 'card', x: 50, y: 50, width: 100, height: 60, background: { type: 'color', color: '#000000' }, ...extra }], {
    width: 200,
    height: 160,
    background: { type: 'color', color: '#ffffff' },
  });

const LINEAR = {
  type: 'linear_gradient',
  angle: 90,
  stops: [
    { offset: 0, color: '#ff0000' },
    { offset: 1, color: '#0000ff' },
  ],
};
const headline = (extra: Record<string, unknown> = {}) =>
  designWith(
    [{ type: 'text', name: 'headline', x: 20, y: 20, width: 360, height: 80, font_size: 64, font_weight: 800, text: 'Gradient', fill: LINEAR, ...extra }],
    { width: 400, height: 120, background: { type: 'color', color: '#ffffff' } },
  );

const glyphRuns = (items: readonly DisplayItem[]) => items.filter((i): i is Extract<DisplayItem, { kind: 'glyphs' }> => i.kind === 'glyphs');

function refusal(fn: () => unknown): { code: string; path: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof ImprintError) return { code: e.code, path: e.path ?? '', message: e.message };
    throw e;
  }
  throw new Error('expected a validation_error');
}

describe('blur data', () => {
  it('a blurred object is a group with the blur (page px) and bounds grown by 3σ; no blur, no field', () => {
    const g = objectGroup(layoutOf(card({ blur: 8 })).displayList, 0);
    expect(g.blur).toBe(8);
    expect(g.bounds).toEqual({ x: -24, y: -24, width: 148, height: 108 });
    const plain = objectGroup(layoutOf(card()).displayList, 0);
    expect(plain.blur).toBeUndefined();
    expect(plain.bounds).toEqual({ x: 0, y: 0, width: 100, height: 60 });
    expect(objectGroup(layoutOf(card({ blur: 0 })).displayList, 0).blur).toBeUndefined();
  });

  it('every object type takes blur, and an override sets or clears it', () => {
    const sizes = new Map([['photo.png', { width: 400, height: 300, opaque: true }]]);
    const objects = [
      { type: 'text', name: 't', x: 0, y: 0, width: 200, height: 50, text: 'Blur', blur: 2 },
      { type: 'image', name: 'i', x: 0, y: 0, width: 80, height: 60, path: 'photo.png', blur: 3 },
      { type: 'shape', name: 's', x: 0, y: 0, width: 80, height: 60, blur: 4 },
      {
        type: 'chart',
        name: 'c',
        x: 0,
        y: 0,
        width: 200,
        height: 150,
        chart_type: 'column',
        chart_data: [
          [null, 'a'],
          ['s', 1],
        ],
        blur: 5,
      },
      { type: 'mockup', name: 'm', x: 0, y: 0, width: 80, height: 60, base: 'photo.png', layers: [], blur: 6 },
    ];
    const list = layoutOf(designWith(objects), {}, sizes).displayList;
    expect(objects.map((_, i) => objectGroup(list, i).blur)).toEqual([2, 3, 4, 5, 6]);
    const over = layoutOf(designWith(objects), { t: { blur: 10 }, s: { blur: 0 } }, sizes).displayList;
    expect(objectGroup(over, 0).blur).toBe(10);
    expect(objectGroup(over, 2).blur).toBeUndefined();
  });

  it('bad blur values are validation_errors at their JSON path', () => {
    for (const blur of [-1, 'x', 251]) {
      const e = refusal(() => layoutOf(card({ blur })));
      expect(e.code, String(blur)).toBe('validation_error');
      expect(e.path).toBe('$.objects[0].blur');
      expect(e.message).toMatch(/blur/);
    }
    const o = refusal(() => layoutOf(card(), { card: { blur: -1 } }));
    expect(o.code).toBe('validation_error');
    expect(o.path).toMatch(/card.*blur/);
  });
});

describe('shadow on charts, mockups and videos', () => {
  const sizes = new Map([
    ['photo.png', { width: 400, height: 300, opaque: true }],
    ['clip.mp4@80x60:cover', { width: 80, height: 60, opaque: true }],
  ]);
  const shadow = { color: '#ff0000', blur: 8, offset_y: 4 };
  const objects = [
    {
      type: 'chart',
      name: 'c',
      x: 0,
      y: 0,
      width: 200,
      height: 150,
      chart_type: 'column',
      chart_data: [
        [null, 'a'],
        ['s', 1],
      ],
      shadow,
    },
    { type: 'mockup', name: 'm', x: 0, y: 0, width: 80, height: 60, base: 'photo.png', layers: [], shadow },
    { type: 'video', name: 'v', x: 0, y: 0, width: 80, height: 60, path: 'clip.mp4', shadow },
  ];

  it('each casts the shadow from its group; an override merges field by field', () => {
    const list = layoutOf(designWith(objects, { duration: 2 }), {}, sizes).displayList;
    for (let i = 0; i < 3; i++) expect(objectGroup(list, i).shadow, objects[i]!.type).toEqual({ color: [255, 0, 0, 1], blur: 8, offset: [0, 4] });
    const over = layoutOf(
      designWith(objects, { duration: 2 }),
      { c: { shadow: { blur: 2 } }, m: { shadow: { color: '#0000ff' } }, v: { shadow: { offset_x: 3 } } },
      sizes,
    ).displayList;
    expect(objectGroup(over, 0).shadow).toEqual({ color: [255, 0, 0, 1], blur: 2, offset: [0, 4] });
    expect(objectGroup(over, 1).shadow).toEqual({ color: [0, 0, 255, 1], blur: 8, offset: [0, 4] });
    expect(objectGroup(over, 2).shadow).toEqual({ color: [255, 0, 0, 1], blur: 8, offset: [3, 4] });
  });
});

describe('gradient text data', () => {
  it('glyph runs carry the gradient spread over the text box; a substyle colour keeps its span; outlines keep their colour', () => {
    const g = objectGroup(
      layoutOf(headline({ text: 'Grad <substyle color="#00ff00">ient</substyle>', stroke: { color: '#000000', width: 2 } })).displayList,
      0,
    );
    const runs = glyphRuns(g.items);
    const fills = runs.filter((r) => r.strokeWidth === undefined);
    expect(fills.map((r) => [r.text, r.gradient?.kind ?? null])).toEqual([
      ['Grad ', 'linear'],
      ['ient', null],
    ]);
    expect(fills[1]!.color).toEqual([0, 255, 0, 1]);
    // angle 90 over the 360×80 box: from its left edge to its right edge through the middle.
    const gradient = fills[0]!.gradient!;
    expect(gradient.kind === 'linear' && [...gradient.from, ...gradient.to].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 40, 360, 40]);
    expect(gradient.stops).toEqual([
      { offset: 0, color: [255, 0, 0, 1] },
      { offset: 1, color: [0, 0, 255, 1] },
    ]);
    expect(runs.filter((r) => r.strokeWidth !== undefined).every((r) => r.gradient === undefined)).toBe(true);
  });

  it('a radial fill is placed on the box; underlines take the gradient', () => {
    const fill = { type: 'radial_gradient', center: { x: 0.25, y: 0.5 }, radius: 0.5, stops: LINEAR.stops };
    const g = objectGroup(layoutOf(headline({ fill, text: '<substyle underline>Gradient</substyle>' })).displayList, 0);
    expect(glyphRuns(g.items)[0]!.gradient).toMatchObject({ kind: 'radial', center: [90, 40], radius: (0.5 * Math.hypot(360, 80)) / 2 });
    expect(g.items.some((i) => i.kind === 'gradient' && i.geometry.kind === 'rect')).toBe(true);
  });

  it('an override merges fill field by field: stops alone keep the template angle; an override adds a fill', () => {
    const stops = [
      { offset: 0, color: '#000000' },
      { offset: 1, color: '#ffffff' },
    ];
    const g = objectGroup(layoutOf(headline(), { headline: { fill: { stops } } }).displayList, 0);
    const gradient = glyphRuns(g.items)[0]!.gradient!;
    expect(gradient.kind === 'linear' && Math.round(gradient.to[0] - gradient.from[0])).toBe(360);
    expect(gradient.stops.map((s) => s.color)).toEqual([
      [0, 0, 0, 1],
      [255, 255, 255, 1],
    ]);
    const added = objectGroup(layoutOf(headline({ fill: undefined }), { headline: { fill: { center: { x: 0.5, y: 0.5 }, stops } } }).displayList, 0);
    expect(glyphRuns(added.items)[0]!.gradient?.kind).toBe('radial');
  });

  it('bad fills are validation_errors at their JSON path', () => {
    const noStops = refusal(() => layoutOf(headline({ fill: { type: 'linear_gradient', angle: 90 } })));
    expect(noStops).toMatchObject({ code: 'validation_error', path: '$.objects[0].fill.stops' });
    expect(noStops.message).toMatch(/fill\.stops/);
    expect(refusal(() => layoutOf(headline({ fill: { type: 'color', color: '#ff0000' } }))).path).toBe('$.objects[0].fill.type');
    const descending = refusal(() =>
      layoutOf(
        headline({
          fill: {
            type: 'linear_gradient',
            stops: [
              { offset: 0.8, color: '#000000' },
              { offset: 0.2, color: '#ffffff' },
            ],
          },
        }),
      ),
    );
    expect(descending.path).toBe('$.objects[0].fill.stops[1].offset');
    const over = refusal(() => layoutOf(headline({ fill: undefined }), { headline: { fill: { angle: 45 } } }));
    expect(over.code).toBe('validation_error');
    expect(over.path).toMatch(/fill\.stops$/);
  });
});

describe('effect pixels', () => {
  it('raster: a blur spreads the shape past its edges, symmetrically, and scales with the page', async () => {
    const img = await rgb((await engine.render({ format: 'png', design: card({ blur: 6 }) })).bytes);
    expect(at(img, 100, 80)).toBeLessThan(10); // the middle stays black
    expect(at(img, 50, 80)).toBeGreaterThan(100); // the edge is half-way grey
    expect(at(img, 50, 80)).toBeLessThan(155);
    expect(at(img, 44, 80)).toBeLessThan(235); // 1σ outside: still visibly darkened
    expect(at(img, 30, 80)).toBeGreaterThan(250); // > 3σ outside: white
    const twice = await rgb((await engine.render({ format: 'png', scale: 2, design: card({ blur: 6 }) })).bytes);
    expect(Math.abs(at(twice, 88, 160) - at(img, 44, 80))).toBeLessThanOrEqual(3);
  });

  it('raster: the gradient colours the glyphs from red at the left to blue at the right', async () => {
    const img = await rgb((await engine.render({ format: 'png', design: headline() })).bytes);
    // Ink is where green is low (neither red nor blue has any): the leftmost ink is red, the rightmost blue.
    const ink: { x: number; r: number; b: number }[] = [];
    for (let y = 20; y < 100; y++) for (let x = 20; x < 380; x++) if (at(img, x, y, 1) < 40) ink.push({ x, r: at(img, x, y), b: at(img, x, y, 2) });
    ink.sort((p, q) => p.x - q.x);
    const left = ink[0]!;
    const right = ink[ink.length - 1]!;
    expect(left.r).toBeGreaterThan(200);
    expect(left.b).toBeLessThan(60);
    expect(right.b).toBeGreaterThan(left.b + 60);
    expect(right.r).toBeLessThan(left.r - 60);
  });

  it('same input, same bytes (png and pdf)', async () => {
    const design = headline({ blur: 2, shadow: { color: '#00000080', blur: 4, offset_y: 3 } });
    for (const format of ['png', 'pdf'] as const) {
      expect((await engine.render({ format, design })).bytes.equals((await engine.render({ format, design })).bytes)).toBe(true);
    }
  });

  it.skipIf(!toolsAvailable(['pdftoppm', 'pdftotext'], 'reading pdf effects back needs poppler'))(
    'pdf: a blurred shape is an image close to the png; gradient text stays real text in vector, close to the png',
    async () => {
      const cases = [
        // Skia blurs the 300 dpi raster (σ 18.75 px) a little wider than the png (σ 6 px), and poppler
        // smooths it as it scales it down: measured up to 17 levels apart on the blur's slopes.
        { name: 'blur', design: card({ blur: 6, shadow: { color: '#ff0000', offset_x: 20 } }), levels: 20, share: 0.001 },
        // Glyph edges anti-alias differently in poppler and Skia.
        { name: 'gradient-text', design: headline(), levels: 24, share: 0.03 },
        { name: 'radial-text', design: headline({ fill: { type: 'radial_gradient', radius: 0.6, stops: LINEAR.stops } }), levels: 24, share: 0.03 },
      ];
      for (const c of cases) {
        const pdf = (await engine.render({ format: 'pdf', design: c.design })).bytes;
        const file = join(tmp, `pdf-${c.name}.pdf`);
        writeFileSync(file, pdf);
        run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, file.replace(/\.pdf$/, '')]);
        const fromPdf = await rgb(file.replace(/\.pdf$/, '.png'));
        const png = (await engine.render({ format: 'png', design: c.design })).bytes;
        writeFileSync(join(tmp, `pdf-${c.name}.ours.png`), png);
        const fromPng = await rgb(png);
        let off = 0;
        for (let i = 0; i < fromPng.data.length; i++) if (Math.abs(fromPdf.data[i]! - fromPng.data[i]!) > c.levels) off++;
        expect(off / fromPng.data.length, c.name).toBeLessThanOrEqual(c.share);
        if (c.name === 'blur') expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
        else {
          expect(run('pdftotext', ['-raw', file, '-']).trim()).toBe('Gradient');
          expect(pdf.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
        }
      }
    },
  );
});

/**
 * Tolerance: every channel within 6 levels on 99.5 % of the pixels (Skia's and Chromium's blurs and glyph
 * anti-aliasing differ a little; measured below in the test names).
 */
describe.runIf(toolsAvailable(['chromium'], 'comparing effects with Chromium needs it'))('effects against Chromium', () => {
  const inter = new FontSet().face('Inter', 800);
  const fontFace = `<style>@font-face { font-family: "T"; src: url("file://${resolve(FONTS_DIR, inter.file)}"); font-weight: 800; }</style>`;

  it('blur matches CSS filter: blur on a shape, a shape with a shadow and a rotated one', async () => {
    const width = 480;
    const height = 200;
    const boxes = [
      { x: 40, y: 50, blur: 4, rotation: 0, shadow: false },
      { x: 190, y: 50, blur: 10, rotation: 0, shadow: true },
      { x: 340, y: 50, blur: 16, rotation: 20, shadow: false },
    ];
    const objects = boxes.map((b) => ({
      type: 'shape',
      x: b.x,
      y: b.y,
      width: 100,
      height: 80,
      rotation: b.rotation,
      blur: b.blur,
      background: { type: 'color', color: '#1e88e5' },
      ...(b.shadow ? { shadow: { color: '#000000', blur: 0, offset_x: 10, offset_y: 10 } } : {}),
    }));
    const ours = (await engine.render({ format: 'png', design: designWith(objects, { width, height, background: { type: 'color', color: '#ffffff' } }) }))
      .bytes;
    const body = boxes
      .map(
        (b) =>
          `<div style="position:absolute;left:${b.x}px;top:${b.y}px;width:100px;height:80px;background:#1e88e5;transform:rotate(${b.rotation}deg);filter:blur(${b.blur}px)${b.shadow ? ';box-shadow:10px 10px 0 #000' : ''}"></div>`,
      )
      .join('');
    const r = await compareWithChromium(ours, body, { width, height, background: '#ffffff', levels: 6, dir: tmp, name: 'blur' });
    expect(r.share, `${r.off} pixels differ by more than 6 levels (worst ${r.worst}); Chromium: ${r.screenshot}`).toBeLessThanOrEqual(0.005);
  }, 60_000);

  it('gradient text matches background-clip: text (linear and radial), same font file, inside the glyphs', async () => {
    const width = 480;
    const height = 220;
    const texts = [
      { y: 10, fill: { type: 'linear_gradient', angle: 90, stops: LINEAR.stops }, css: 'linear-gradient(90deg, #ff0000 0%, #0000ff 100%)' },
      {
        y: 110,
        fill: {
          type: 'radial_gradient',
          center: { x: 0.3, y: 0.5 },
          radius: 0.6,
          stops: [
            { offset: 0, color: '#ffb300' },
            { offset: 1, color: '#6a1b9a' },
          ],
        },
        // Radius 0.6 of the half-diagonal of 440×100.
        css: `radial-gradient(circle ${0.6 * (Math.hypot(440, 100) / 2)}px at 30% 50%, #ffb300 0%, #6a1b9a 100%)`,
      },
    ];
    const draw = async (gradient: boolean): Promise<{ ours: Buffer; chromium: Buffer }> => {
      const objects = texts.map((t) => ({
        type: 'text',
        x: 20,
        y: t.y,
        width: 440,
        height: 100,
        font_size: 80,
        font_weight: 800,
        line_height: 1.25,
        text: 'Gradients',
        color: '#000000',
        ...(gradient ? { fill: t.fill } : {}),
        config: { text_replacement_strategy_fit_valign: 'top' },
      }));
      const ours = (await engine.render({ format: 'png', design: designWith(objects, { width, height, background: { type: 'color', color: '#ffffff' } }) }))
        .bytes;
      const paint = (t: (typeof texts)[number]) =>
        gradient ? `background:${t.css};-webkit-background-clip:text;background-clip:text;color:transparent` : 'color:#000';
      const body =
        fontFace +
        texts
          .map(
            (t) =>
              `<div style="position:absolute;left:20px;top:${t.y}px;width:440px;height:100px;font:800 80px/1.25 T;white-space:pre;${paint(t)}">Gradients</div>`,
          )
          .join('');
      const name = gradient ? 'gradient-text' : 'black-text';
      writeFileSync(join(tmp, `${name}.ours.png`), ours);
      const r = await compareWithChromium(ours, body, { width, height, background: '#ffffff', levels: 6, dir: tmp, name });
      return { ours, chromium: await sharp(r.screenshot).png().toBuffer() };
    };
    const black = await draw(false);
    const colour = await draw(true);
    const [ob, cb, oc, cc] = await Promise.all([rgb(black.ours), rgb(black.chromium), rgb(colour.ours), rgb(colour.chromium)]);
    // Glyph edges (anti-aliasing, and Chromium snapping the baseline to whole pixels) are compared by
    // the text tests; here the colours are: every pixel that both draw fully inside a glyph.
    let inside = 0;
    let off = 0;
    let worst = 0;
    for (let i = 0; i < width * height; i++) {
      if (ob.data[i * 3]! > 4 || cb.data[i * 3]! > 4) continue;
      inside++;
      let d = 0;
      for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(oc.data[i * 3 + c]! - cc.data[i * 3 + c]!));
      worst = Math.max(worst, d);
      if (d > 6) off++;
    }
    expect(inside).toBeGreaterThan(8000);
    // Measured: worst difference 2 levels.
    expect(
      off / inside,
      `${off} of ${inside} glyph pixels differ by more than 6 levels (worst ${worst}); Chromium: ${tmp}/gradient-text.png`,
    ).toBeLessThanOrEqual(0.005);
  }, 60_000);
});
