// Picture flips, borders and colour filters; text backgrounds and strikethrough: the display list as
// data (what each field adds, how overrides merge), the CSS filter arithmetic on known colours, and
// the pdf embedding the filtered pixels (one image per filter set).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { applyFilters, filteredKey } from '../src/paint/image-filters.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import type { ColorFilters } from '../src/scene/scene.js';
import { parseMarkup } from '../src/text/markup.js';
import { bundledFonts } from '../src/text/fonts.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';

const sizes = new Map([['photo.png', { width: 400, height: 300, opaque: true }]]);
const photo = (extra: Record<string, unknown> = {}) =>
  designWith([{ type: 'image', name: 'photo', x: 20, y: 20, width: 200, height: 100, path: 'photo.png', ...extra }]);
const group = (design: unknown, overrides: unknown = {}) => objectGroup(layoutOf(design, overrides, sizes).displayList, 0);
type Group = Extract<DisplayItem, { kind: 'group' }>;

describe('image flip_x / flip_y', () => {
  it('mirror the picture about the centre of its area, inside the unchanged clip', () => {
    const g = group(photo({ flip_x: true, corner_radius: 10 }));
    expect(g.clip).toEqual({ kind: 'round_rect', rect: { x: 0, y: 0, width: 200, height: 100 }, radius: 10 });
    const flip = g.items[0] as Group;
    expect(flip.kind).toBe('group');
    expect(flip.transform).toEqual([-1, 0, 0, 1, 200, 0]);
    expect(flip.items[0]).toMatchObject({ kind: 'image', dst: { x: 0, y: 0, width: 200, height: 100 } });
    expect((group(photo({ flip_x: true, flip_y: true })).items[0] as Group).transform).toEqual([-1, 0, 0, -1, 200, 100]);
  });

  it('with contain, the flip is about the fitted picture, and an override turns it off', () => {
    // 400×300 contained in 200×100: 133.3×100 centred at x 33.3.
    const g = group(photo({ flip_y: true, config: { media_replacement_strategy: 'contain' } }));
    const t = (g.items[0] as Group).transform;
    expect(t.slice(0, 4)).toEqual([1, 0, 0, -1]);
    expect(t[5]).toBeCloseTo(100);
    expect(group(photo({ flip_y: true }), { photo: { flip_y: false } }).items[0]!.kind).toBe('image');
  });
});

describe('image border', () => {
  it('rounded: a stroke inside the clip, outer edge 1 px past the clip, inner corner radius = radius − width', () => {
    const g = group(photo({ corner_radius: 30, border: { width: 10, color: '#ffffff' } }));
    const border = g.items[1]!;
    // Centred 4.5 px in, 11 wide: from 1 px outside the clip to 10 px inside; radius 25.5 − 5.5 = 20 = 30 − 10 inside.
    expect(border).toEqual({
      kind: 'stroke',
      geometry: { kind: 'round_rect', rect: { x: 4.5, y: 4.5, width: 191, height: 91 }, radius: 25.5 },
      color: [255, 255, 255, 1],
      width: 11,
      dash: null,
    });
  });

  it('circle mask: an ellipse stroke of the circle; no clip: the picture edge exactly', () => {
    const circle = group(photo({ mask: 'circle', border: { width: 6, color: '#e53935' } })).items[1]!;
    expect(circle).toMatchObject({ kind: 'stroke', geometry: { kind: 'ellipse', rect: { x: 52.5, y: 2.5, width: 95, height: 95 } }, width: 7 });
    const square = group(photo({ border: { width: 4, color: '#000000' } })).items[1]!;
    expect(square).toMatchObject({ kind: 'stroke', geometry: { kind: 'rect', rect: { x: 2, y: 2, width: 196, height: 96 } }, width: 4 });
  });

  it('a radius smaller than the width gives square inner corners (as CSS)', () => {
    const b = group(photo({ corner_radius: 4, border: { width: 12, color: '#000000' } })).items[1]!;
    expect(b).toMatchObject({ geometry: { kind: 'rect' } });
  });

  it('overrides merge field by field; width 0 removes it', () => {
    const bordered = photo({ border: { width: 8, color: '#ffffff' } });
    expect(group(bordered, { photo: { border: { color: '#ff0000' } } }).items[1]).toMatchObject({ color: [255, 0, 0, 1], width: 8 });
    expect(group(bordered, { photo: { border: { width: 0 } } }).items).toHaveLength(1);
    expect(group(photo(), { photo: { border: { width: 3, color: '#000000' } } }).items[1]).toMatchObject({ kind: 'stroke', width: 3 });
  });
});

describe('image filters', () => {
  const image = (g: Group) => g.items[0] as Extract<DisplayItem, { kind: 'image' }>;

  it('ride on the image item with defaults filled in; a set that changes nothing is left out', () => {
    expect(image(group(photo({ filters: { sepia: 0.5 } }))).filters).toEqual({ grayscale: 0, sepia: 0.5, brightness: 1, contrast: 1, saturate: 1 });
    expect('filters' in image(group(photo({ filters: { grayscale: 0, brightness: 1 } })))).toBe(false);
  });

  it('an override changes one filter and keeps the others', () => {
    const f = image(group(photo({ filters: { grayscale: 1, contrast: 1.2 } }), { photo: { filters: { grayscale: 0.5 } } })).filters;
    expect(f).toMatchObject({ grayscale: 0.5, contrast: 1.2 });
  });

  const px = (rgba: number[]) => ({ kind: 'pixels' as const, width: rgba.length / 4, height: 1, rgba: Buffer.from(rgba), hash: 'h', opaque: false });
  const f = (p: Partial<ColorFilters>): ColorFilters => ({ grayscale: 0, sepia: 0, brightness: 1, contrast: 1, saturate: 1, ...p });
  const run = (rgba: number[], p: Partial<ColorFilters>) => [...applyFilters(px(rgba), f(p)).rgba];

  it('are the Filter Effects 1 matrices and transfers, on straight sRGB values, alpha untouched', () => {
    // grayscale(1): Rec. 709 luma of pure red = 0.2126.
    expect(run([255, 0, 0, 200], { grayscale: 1 })).toEqual([54, 54, 54, 200]);
    // sepia(1) of white: rows 1.351, 1.203 (clamped) and 0.937.
    expect(run([255, 255, 255, 255], { sepia: 1 })).toEqual([255, 255, 239, 255]);
    // brightness(0.5) halves; contrast(2) doubles the distance from 0.5 (and clamps).
    expect(run([200, 100, 0, 255], { brightness: 0.5 })).toEqual([100, 50, 0, 255]);
    expect(run([192, 128, 64, 255], { contrast: 2 })).toEqual([255, 129, 0, 255]);
    // saturate(0) is the 0.213/0.715/0.072 luma; saturate(2) pushes red past 1 (278.7, clamped), green and blue to 78.7.
    expect(run([255, 0, 0, 255], { saturate: 0 })).toEqual([54, 54, 54, 255]);
    expect(run([200, 100, 100, 255], { saturate: 2 })).toEqual([255, 79, 79, 255]);
  });

  it('apply in the fixed order grayscale, sepia, brightness, contrast, saturate, clamping after each', () => {
    // brightness(2) then contrast(0.5): 0.702 → 1.404, clamped to 1 → 0.75; unclamped it would be 0.952,
    // and contrast first 0.601 → 1 (clamped).
    expect(run([179, 179, 179, 255], { brightness: 2, contrast: 0.5 })).toEqual([191, 191, 191, 255]);
    expect(filteredKey('abc', f({ sepia: 1 }))).not.toBe(filteredKey('abc', f({ grayscale: 1 })));
  });
});

describe('text background', () => {
  const text = (extra: Record<string, unknown> = {}, width = 300) =>
    designWith([
      {
        type: 'text',
        name: 'label',
        x: 10,
        y: 10,
        width,
        height: 200,
        font_size: 20,
        line_height: 1.5,
        text: 'A short line\nand a much longer second line',
        text_align: 'center',
        config: { text_replacement_strategy_fit_valign: 'top' },
        ...extra,
      },
    ]);
  const fills = (g: Group) => g.items.filter((i): i is Extract<DisplayItem, { kind: 'fill' }> => i.kind === 'fill');
  const lineWidths = (g: Group) => {
    const byY = new Map<number, [number, number]>();
    for (const it of g.items) {
      if (it.kind !== 'glyphs') continue;
      const y = it.glyphs[0]!.y;
      const xs = it.glyphs.map((gl) => gl.x);
      const [a, b] = byY.get(y) ?? [Infinity, -Infinity];
      byY.set(y, [Math.min(a, ...xs), Math.max(b, ...xs)]);
    }
    return [...byY.values()];
  };

  it('lines: one box per line, centred like the line, its advance width by the line height, grown by the padding; under the glyphs', () => {
    const g = group(text({ background: { color: '#ffeb3b', padding: { x: 8, y: 2 }, corner_radius: 6 } }));
    const boxes = fills(g);
    expect(boxes).toHaveLength(2);
    expect(g.items.slice(0, 2)).toEqual(boxes);
    for (const [i, b] of boxes.entries()) {
      expect(b.geometry.kind).toBe('round_rect');
      const r = (b.geometry as { rect: { x: number; y: number; width: number; height: number } }).rect;
      expect(r.y).toBeCloseTo(i * 30 - 2);
      expect(r.height).toBeCloseTo(34);
      // Centred in the 300 px box, like the line.
      expect(r.x + r.width / 2).toBeCloseTo(150, 5);
      // Covers the line's glyphs (first glyph origin to the last).
      const [x0, x1] = lineWidths(g)[i]!;
      expect(r.x).toBeLessThanOrEqual(x0 - 8 + 1e-9);
      expect(r.x + r.width).toBeGreaterThan(x1);
    }
    const [short, long] = boxes.map((b) => (b.geometry as { rect: { width: number } }).rect.width);
    expect(long!).toBeGreaterThan(short! + 100);
  });

  it('box: one box around all lines (the button), start-aligned text starts it at the padding', () => {
    const g = group(text({ text_align: 'left', background: { color: '#1e88e5', padding: 10, corner_radius: 12, mode: 'box' } }));
    const boxes = fills(g);
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.geometry).toMatchObject({ kind: 'round_rect', radius: 12, rect: { x: -10, y: -10, height: 80 } });
  });

  it('follows overridden text and fit shrinking: a longer text, a wider box; a smaller font, a shorter one', () => {
    const design = text({ text: 'Buy', background: { color: '#1e88e5', padding: 10, mode: 'box' } }, 400);
    const width = (overrides: unknown) => (fills(group(design, overrides))[0]!.geometry as { rect: { width: number; height: number } }).rect;
    const plain = width({});
    const longer = width({ label: { text: 'Buy now, while stocks last' } });
    expect(longer.width).toBeGreaterThan(plain.width * 3);
    const shrunk = fills(group(text({ text: 'word '.repeat(60), background: { color: '#000000', mode: 'box' } }, 300)))[0]!;
    expect((shrunk.geometry as { rect: { height: number } }).rect.height).toBeLessThanOrEqual(200 + 1e-9);
  });

  it('a see-through colour: opaque boxes in one group at its alpha (the painters composite it once, so overlaps do not double)', () => {
    const g = group(text({ background: { color: '#ff000080', padding: { x: 4, y: 10 } } }));
    const layer = g.items[0] as Group;
    expect(layer.kind).toBe('group');
    expect(layer.opacity).toBeCloseTo(128 / 255);
    expect(layer.items.map((i) => (i as { color: unknown }).color)).toEqual([
      [255, 0, 0, 1],
      [255, 0, 0, 1],
    ]);
  });

  it('overrides merge field by field', () => {
    const design = text({ background: { color: '#ffeb3b', padding: 4, mode: 'box' } });
    const b = fills(group(design, { label: { background: { color: '#000000' } } }));
    expect(b).toHaveLength(1);
    expect(b[0]!.color).toEqual([0, 0, 0, 1]);
    expect(fills(group(design, { label: { background: { mode: 'lines' } } }))).toHaveLength(2);
  });
});

describe('strikethrough', () => {
  const inter = bundledFonts().face('Inter', 400);

  it("Inter's OS/2 strikeout: a line about half the x-height up, as thick as its underline-ish", () => {
    expect(inter.strikeoutPosition).toBeGreaterThan(0.2);
    expect(inter.strikeoutPosition).toBeLessThan(0.4);
    expect(inter.strikeoutThickness).toBeGreaterThan(0.03);
    expect(inter.strikeoutThickness).toBeLessThan(0.12);
  });

  it('the substyle attribute and the object field draw a text-coloured bar centred on the strikeout position', () => {
    expect(parseMarkup('Was <substyle strikethrough>9.99</substyle>')[1]).toEqual({ text: '9.99', style: { strikethrough: true } });
    const design = (extra: Record<string, unknown>) =>
      designWith([
        { type: 'text', x: 0, y: 0, width: 400, height: 60, font_size: 40, color: '#e53935', text: 'Was <substyle strikethrough>9.99</substyle>', ...extra },
      ]);
    const g = objectGroup(layoutOf(design({})).displayList, 0);
    const bars = g.items.filter((i) => i.kind === 'fill');
    expect(bars).toHaveLength(1);
    const glyphs = g.items.filter((i) => i.kind === 'glyphs');
    const baseline = (glyphs[1] as { glyphs: { y: number }[] }).glyphs[0]!.y;
    const rect = (bars[0]! as { geometry: { rect: { y: number; height: number; x: number } } }).geometry.rect;
    expect(rect.y + rect.height / 2).toBeCloseTo(baseline - inter.strikeoutPosition * 40, 5);
    expect(rect.height).toBeCloseTo(inter.strikeoutThickness * 40, 5);
    expect(bars[0]).toMatchObject({ color: [229, 57, 53, 1] });
    // The object field strikes (and underlines) all of it.
    const all = objectGroup(layoutOf(design({ strikethrough: true, underline: true })).displayList, 0).items.filter((i) => i.kind === 'fill');
    expect(all).toHaveLength(4);
  });
});

describe('filtered pixels in png', () => {
  const engine = new Engine();
  const centre = async (filters: unknown) => {
    const design = designWith([{ type: 'image', x: 0, y: 0, width: 120, height: 80, path: 'photo.jpg', filters }], { width: 120, height: 80 });
    const { data } = await sharp((await engine.render({ format: 'png', design, baseDir: 'golden/assets' })).bytes)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const i = (40 * 120 + 60) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };

  it('one engine, one photo, different filter sets: each render gets its own pixels (the cache key holds the filters)', async () => {
    const plain = await centre(undefined);
    const grey = await centre({ grayscale: 1 });
    const sepia = await centre({ sepia: 1 });
    expect(grey[0]).toBe(grey[1]);
    expect(grey[1]).toBe(grey[2]);
    expect(sepia[0]).toBeGreaterThan(sepia[2]!);
    expect(plain).not.toEqual(grey);
    expect(await centre({ grayscale: 1 })).toEqual(grey);
    expect(await centre(undefined)).toEqual(plain);
  });
});

describe('pdf', () => {
  const engine = new Engine();
  it('embeds the filtered pixels, one image per filter set, not the jpg bytes', async () => {
    const objects = [
      { type: 'image', x: 0, y: 0, width: 100, height: 80, path: 'photo.jpg', filters: { grayscale: 1 } },
      { type: 'image', x: 100, y: 0, width: 100, height: 80, path: 'photo.jpg', filters: { sepia: 1 } },
      { type: 'image', x: 0, y: 80, width: 100, height: 80, path: 'photo.jpg', filters: { grayscale: 1 }, flip_x: true },
    ];
    const pdf = (await engine.render({ format: 'pdf', design: designWith(objects, { width: 200, height: 160 }), baseDir: 'golden/assets' })).bytes;
    const text = pdf.toString('latin1');
    expect(text.match(/\/Subtype \/Image/g)).toHaveLength(2);
    expect(text.includes('/DCTDecode')).toBe(false);
  });
});
