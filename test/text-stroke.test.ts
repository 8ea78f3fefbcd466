// Text stroke: the display list carries the outline on every glyph run, overrides set it, and the
// raster paints it under the fill (paint-order: stroke), so every pixel the fill covers stays the fill.
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/index.js';
import type { DesignInput } from '../src/engine.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';

const headline = (extra: Record<string, unknown> = {}) => ({
  type: 'text',
  name: 'headline',
  x: 20,
  y: 20,
  width: 260,
  height: 60,
  font_size: 40,
  font_weight: 800,
  color: '#ffffff',
  text: 'Big <substyle color="#ff0000">sale</substyle>',
  config: { text_replacement_strategy_fit_valign: 'top' },
  ...extra,
});

const runs = (design: unknown, overrides: unknown = {}) =>
  objectGroup(layoutOf(design, overrides).displayList, 0).items.flatMap((it) => (it.kind === 'glyphs' ? [it] : []));

describe('text stroke in the display list', () => {
  it('the outline of every run (substyles too) comes before every fill: outlines under the whole text', () => {
    const r = runs(designWith([headline({ stroke: { color: '#00000080', width: 6 } })]));
    expect(r.map((g) => [g.text, g.strokeWidth, g.color])).toEqual([
      ['Big ', 6, [0, 0, 0, 128 / 255]],
      ['sale', 6, [0, 0, 0, 128 / 255]],
      ['Big ', undefined, [255, 255, 255, 1]],
      ['sale', undefined, [255, 0, 0, 1]],
    ]);
    // The fills are the runs of the same text without a stroke.
    expect(r.slice(2)).toEqual(runs(designWith([headline()])));
  });

  it('no stroke, or width 0: no outline items (display lists of existing designs are unchanged)', () => {
    for (const d of [headline(), headline({ stroke: { color: '#000000', width: 0 } })]) {
      for (const g of runs(designWith([d]))) expect('strokeWidth' in g).toBe(false);
    }
  });

  it('is overridable: added, changed, or removed with width 0', () => {
    const plain = designWith([headline()]);
    const added = runs(plain, { headline: { stroke: { color: '#1e88e5', width: 3 } } })[0]!;
    expect([added.strokeWidth, added.color]).toEqual([3, [30, 136, 229, 1]]);
    const stroked = designWith([headline({ stroke: { color: '#000000', width: 8 } })]);
    // Field by field: a colour alone keeps the template's width.
    const recoloured = runs(stroked, { headline: { stroke: { color: '#ff0000' } } })[0]!;
    expect([recoloured.strokeWidth, recoloured.color]).toEqual([8, [255, 0, 0, 1]]);
    expect(runs(stroked, { headline: { 'stroke.width': 2 } })[0]!.strokeWidth).toBe(2);
    expect(runs(stroked, { headline: { stroke: { color: '#000000', width: 0 } } }).filter((g) => g.strokeWidth !== undefined)).toEqual([]);
  });

  it('the group bounds (offscreen layer of translucent text) grow by half the width', () => {
    const list = (stroke?: unknown) => objectGroup(layoutOf(designWith([headline(stroke ? { stroke } : {})])).displayList, 0);
    const plain = list().bounds;
    const stroked = list({ color: '#000000', width: 20 }).bounds;
    expect(stroked.x).toBe(plain.x - 10);
    expect(stroked.width).toBe(plain.width + 20);
  });
});

describe('text stroke painted', () => {
  const engine = new Engine();
  const design = (stroke?: unknown): DesignInput =>
    ({
      width: 300,
      height: 100,
      background: { type: 'color', color: '#808080' },
      objects: [headline({ text: 'WAVE', ...(stroke ? { stroke } : {}) })],
    }) as DesignInput;
  const pixels = async (d: DesignInput) => (await engine.rasterize({ design: d, format: 'png' })).image;

  it('under the fill: every fully covered pixel stays the fill colour, and the outline shows outside', async () => {
    const plain = await pixels(design());
    const stroked = await pixels(design({ color: '#0000ff', width: 8 }));
    let inside = 0;
    let outline = 0;
    const w = plain.width;
    const white = (i: number) => plain.pixels[i] === 255 && plain.pixels[i + 1] === 255 && plain.pixels[i + 2] === 255;
    // Inside the letters: white with white all round (edge pixels are antialiased either way).
    const interior = (i: number) => [-2, 0, 2].every((dy) => [-2, 0, 2].every((dx) => white(i + 4 * (dy * w + dx))));
    for (let i = 0; i < plain.pixels.length; i += 4) {
      if (interior(i)) {
        inside++;
        expect([stroked.pixels[i], stroked.pixels[i + 1], stroked.pixels[i + 2]]).toEqual([255, 255, 255]);
      } else if (stroked.pixels[i] === 0 && stroked.pixels[i + 1] === 0 && stroked.pixels[i + 2] === 255) outline++;
    }
    expect(inside).toBeGreaterThan(200);
    // 4 px outside the letters all round: a solid blue rim of many pixels.
    expect(outline).toBeGreaterThan(inside / 4);
  });

  it('is deterministic: the same input gives the same pixels', async () => {
    const a = await pixels(design({ color: '#0000ff', width: 5 }));
    const b = await pixels(design({ color: '#0000ff', width: 5 }));
    expect(Buffer.from(a.pixels).equals(Buffer.from(b.pixels))).toBe(true);
  });
});
