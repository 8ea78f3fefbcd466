// Layout as data: font sizes chosen by fit, line breaks, boxes and transforms, without pixels.
import { describe, expect, it } from 'vitest';
import { placeMedia } from '../src/layout/boxes.js';
import { placement } from '../src/layout/layout.js';
import { bundledFonts } from '../src/text/fonts.js';
import { designWith, layoutOf, lineTexts, objectGroup } from './support/scene.js';

const text = (fields: Record<string, unknown>) => ({ type: 'text', name: 't', x: 10, y: 20, width: 300, height: 120, font_size: 40, ...fields });

describe('fit', () => {
  it('keeps the template size when the text fits, and never grows', () => {
    const { report } = layoutOf(designWith([text({ text: 'Hi' })]));
    expect(report[0]).toMatchObject({ font_size: 40, line_count: 1, shrunk: false, clipped: false, word_broken: false });
  });

  it('shrinks long text to the largest quarter-pixel size that fits without breaking words', () => {
    const long = 'Summer sale on every chair, table and lamp in the store this weekend only';
    const { report, displayList } = layoutOf(designWith([text({ text: long })]));
    const r = report[0]!;
    expect(r.shrunk).toBe(true);
    expect(r.font_size).toBeLessThan(40);
    expect(Number.isInteger(r.font_size * 4)).toBe(true);
    expect(r.line_count * r.font_size * 1.2).toBeLessThanOrEqual(120 + 1e-6);
    expect(r.word_broken).toBe(false);
    // A quarter pixel larger would no longer fit: the search found the largest size.
    const bigger = layoutOf(designWith([text({ text: long, font_size: r.font_size + 0.25, min_font_size: r.font_size + 0.25 })]));
    const b = bigger.report[0]!;
    expect(b.clipped || b.word_broken).toBe(true);
    expect(lineTexts(objectGroup(displayList, 0)).join(' ').replace(/\s+/g, ' ')).toBe(long);
  });

  it('shrinks until a single long word fits on a line instead of splitting it', () => {
    const { report } = layoutOf(designWith([text({ text: 'Donaudampfschifffahrtsgesellschaft' })]));
    expect(report[0]).toMatchObject({ line_count: 1, word_broken: false, shrunk: true });
  });

  it('breaks a word that cannot fit even at the minimum size, and clips what overflows', () => {
    const { report } = layoutOf(
      designWith([text({ text: 'Pneumonoultramicroscopicsilicovolcanoconiosis '.repeat(8), width: 80, height: 30, min_font_size: 20 })]),
    );
    expect(report[0]).toMatchObject({ font_size: 20, word_broken: true, clipped: true });
  });

  it.each([
    ['top', 0],
    ['center', (120 - 40 * 1.2) / 2],
    ['bottom', 120 - 40 * 1.2],
  ])('aligns short text vertically: %s', (valign, top) => {
    const { displayList } = layoutOf(designWith([text({ text: 'Hi', config: { text_replacement_strategy_fit_valign: valign } })]));
    const glyphs = objectGroup(displayList, 0).items.find((i) => i.kind === 'glyphs');
    const topOfFirst = layoutOf(designWith([text({ text: 'Hi', config: { text_replacement_strategy_fit_valign: 'top' } })]));
    const g0 = objectGroup(topOfFirst.displayList, 0).items.find((i) => i.kind === 'glyphs');
    if (glyphs?.kind !== 'glyphs' || g0?.kind !== 'glyphs') throw new Error('no glyphs');
    expect(glyphs.glyphs[0]!.y - g0.glyphs[0]!.y).toBeCloseTo(top, 6);
  });
});

describe('fixed-width', () => {
  it('keeps width and size; the box height follows the text and the top edge stays', () => {
    const long = 'one two three four five six seven eight nine ten eleven twelve';
    const { report, displayList } = layoutOf(designWith([text({ text: long, config: { text_replacement_strategy: 'fixed-width' } })]));
    const r = report[0]!;
    expect(r.font_size).toBe(40);
    expect(r.line_count).toBeGreaterThan(2);
    expect(r.height).toBeCloseTo(r.line_count * 48, 6);
    expect(r.height).toBeGreaterThan(120);
    expect(objectGroup(displayList, 0).transform).toEqual([1, 0, 0, 1, 10, 20]);
  });
});

describe('line breaking', () => {
  it('breaks at spaces, keeps explicit newlines as paragraph ends', () => {
    const { displayList } = layoutOf(designWith([text({ text: 'alpha beta gamma\ndelta', width: 200, font_size: 30, height: 400 })]));
    expect(lineTexts(objectGroup(displayList, 0))).toEqual(['alpha beta', 'gamma', 'delta']);
  });

  it('breaks after hyphens (UAX #14) and shapes Cyrillic', () => {
    const { displayList } = layoutOf(designWith([text({ text: 'Москва-река течёт', width: 125, font_size: 30, height: 400 })]));
    expect(lineTexts(objectGroup(displayList, 0))).toEqual(['Москва-', 'река', 'течёт']);
  });

  it('justify makes every line but the last as wide as the box', () => {
    const { displayList } = layoutOf(
      designWith([text({ text: 'aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp qq rr', width: 200, font_size: 24, height: 400, text_align: 'justify' })]),
    );
    const fonts = bundledFonts();
    const rightEdge = new Map<number, number>();
    for (const r of objectGroup(displayList, 0).items) {
      if (r.kind !== 'glyphs') continue;
      const face = fonts.byFaceKey(r.face);
      const g = r.glyphs[r.glyphs.length - 1]!;
      const end = g.x + (face.outlines.getGlyph(g.id).advanceWidth / face.unitsPerEm) * r.size;
      rightEdge.set(g.y, Math.max(rightEdge.get(g.y) ?? 0, end));
    }
    const edges = [...rightEdge.values()];
    expect(edges.length).toBeGreaterThanOrEqual(3);
    const last = edges.pop()!;
    for (const e of edges) expect(e).toBeCloseTo(200, 6);
    expect(last).toBeLessThan(200);
  });

  it('letter spacing widens lines in proportion to the font size', () => {
    const width = (ls: number) => {
      const { displayList } = layoutOf(designWith([text({ text: 'spacing', letter_spacing: ls, width: 590, font_size: 20 })]));
      const g = objectGroup(displayList, 0).items.find((i) => i.kind === 'glyphs');
      if (g?.kind !== 'glyphs') throw new Error('no glyphs');
      return g.glyphs[g.glyphs.length - 1]!.x - g.glyphs[0]!.x;
    };
    expect(width(0.1) - width(0)).toBeCloseTo(6 * 0.1 * 20, 6);
  });

  it('kerning and ligatures come from the font (Lora "fi" ligature)', () => {
    const { displayList } = layoutOf(designWith([text({ text: 'fi', font_family: 'Lora', width: 590 })]));
    const g = objectGroup(displayList, 0).items.find((i) => i.kind === 'glyphs');
    expect(g?.kind === 'glyphs' && g.glyphs.length).toBe(1);
  });
});

describe('substyles', () => {
  it('splits runs by style, with underline rectangles and link areas', () => {
    const { displayList } = layoutOf(
      designWith([text({ text: 'Buy <substyle color="#ff0000" underline link="(url:https://example.com)">now</substyle>!', width: 590 })]),
    );
    const items = objectGroup(displayList, 0).items;
    const runs = items.filter((i) => i.kind === 'glyphs');
    expect(runs.map((r) => r.kind === 'glyphs' && r.text)).toEqual(['Buy ', 'now', '!']);
    expect(runs[1]!.kind === 'glyphs' && runs[1]!.color).toEqual([255, 0, 0, 1]);
    expect(items.filter((i) => i.kind === 'fill')).toHaveLength(1);
    expect(items.find((i) => i.kind === 'link')).toMatchObject({ url: 'https://example.com' });
  });
});

describe('media boxes', () => {
  const box = { x: 0, y: 0, width: 200, height: 100 };
  it('cover takes the centred part of the source with the box aspect', () => {
    expect(placeMedia('cover', { width: 400, height: 400 }, box)).toEqual({ src: { x: 0, y: 100, width: 400, height: 200 }, dst: box });
  });
  it('contain fits the whole source and centres it', () => {
    expect(placeMedia('contain', { width: 400, height: 400 }, box)).toEqual({
      src: { x: 0, y: 0, width: 400, height: 400 },
      dst: { x: 50, y: 0, width: 100, height: 100 },
    });
  });
  it('fill stretches', () => {
    expect(placeMedia('fill', { width: 400, height: 400 }, box).dst).toEqual(box);
  });
  it('image objects use the alias-resolved strategy from overrides', () => {
    const design = designWith([{ type: 'image', name: 'p', x: 0, y: 0, width: 200, height: 100, path: 'a.jpg' }]);
    const { displayList } = layoutOf(design, { p: { config: { media_replacement_strategy: 'fit' } } }, new Map([['a.jpg', { width: 400, height: 400 }]]));
    expect(objectGroup(displayList, 0).items[0]).toMatchObject({ kind: 'image', dst: { x: 50, width: 100 } });
  });
});

describe('image crop and focal point', () => {
  // A wide photo (1200×600) into a tall box (100×200): cover uses a 300×600 slice of it.
  const wide = { width: 1200, height: 600 };
  const tall = { x: 0, y: 0, width: 100, height: 200 };
  it('cover centres on the focal point', () => {
    expect(placeMedia('cover', wide, tall, { focus: [0.3, 0.5] }).src).toEqual({ x: 210, y: 0, width: 300, height: 600 });
  });
  it('a focal point near an edge slides the slice back inside the image (the box stays filled)', () => {
    expect(placeMedia('cover', wide, tall, { focus: [0.05, 0.5] }).src).toEqual({ x: 0, y: 0, width: 300, height: 600 });
    expect(placeMedia('cover', wide, tall, { focus: [0.97, 0.1] }).src).toEqual({ x: 900, y: 0, width: 300, height: 600 });
  });
  it('without a focal point cover stays centred, as before', () => {
    expect(placeMedia('cover', wide, tall).src).toEqual({ x: 450, y: 0, width: 300, height: 600 });
  });
  it('contain and fill ignore the focal point', () => {
    expect(placeMedia('contain', wide, tall, { focus: [0, 0] })).toEqual(placeMedia('contain', wide, tall));
    expect(placeMedia('fill', wide, tall, { focus: [0, 0] })).toEqual(placeMedia('fill', wide, tall));
  });
  it('crop picks the part used before fitting (fill, contain, cover)', () => {
    const crop = { x: 0.25, y: 0.5, width: 0.5, height: 0.5 };
    expect(placeMedia('fill', wide, tall, { crop }).src).toEqual({ x: 300, y: 300, width: 600, height: 300 });
    // contain fits the 600×300 crop: 100×50, centred vertically.
    expect(placeMedia('contain', wide, tall, { crop })).toEqual({
      src: { x: 300, y: 300, width: 600, height: 300 },
      dst: { x: 0, y: 75, width: 100, height: 50 },
    });
    // cover takes a 150×300 slice of the crop, centred in the crop.
    expect(placeMedia('cover', wide, tall, { crop }).src).toEqual({ x: 525, y: 300, width: 150, height: 300 });
  });
  it('with a crop, the focal point (fractions of the whole image) is kept inside the crop', () => {
    const crop = { x: 0.25, y: 0.5, width: 0.5, height: 0.5 };
    expect(placeMedia('cover', wide, tall, { crop, focus: [0.4, 0.75] }).src).toEqual({ x: 405, y: 300, width: 150, height: 300 });
    // The focal point lies left of the crop: the slice stops at the crop's left edge, never beyond.
    expect(placeMedia('cover', wide, tall, { crop, focus: [0, 0] }).src).toEqual({ x: 300, y: 300, width: 150, height: 300 });
  });
  it('image objects read crop and config.focal_point, and overrides replace them', () => {
    const design = designWith([{ type: 'image', name: 'p', x: 0, y: 0, width: 100, height: 200, path: 'a.jpg', config: { focal_point: { x: 0.3, y: 0.5 } } }]);
    const sizes = new Map([['a.jpg', wide]]);
    expect(objectGroup(layoutOf(design, {}, sizes).displayList, 0).items[0]).toMatchObject({ kind: 'image', src: { x: 210, width: 300 } });
    const moved = layoutOf(design, { p: { 'config.focal_point': { x: 0.6, y: 0.5 } } }, sizes);
    expect(objectGroup(moved.displayList, 0).items[0]).toMatchObject({ src: { x: 570, width: 300 } });
    const cropped = layoutOf(design, { p: { crop: { x: 0.5, y: 0, width: 0.5, height: 1 } } }, sizes);
    // Crop 600×600 from x 600; the focal point 0.3 (x 360) lies left of it: the slice starts at 600.
    expect(objectGroup(cropped.displayList, 0).items[0]).toMatchObject({ src: { x: 600, y: 0, width: 300, height: 600 } });
  });
});

describe('image corner radius and mask', () => {
  const sizes = new Map([['a.jpg', { width: 1200, height: 600 }]]);
  const photo = (fields: Record<string, unknown>) =>
    designWith([{ type: 'image', name: 'p', x: 10, y: 20, width: 300, height: 200, path: 'a.jpg', ...fields }]);
  const clipOf = (fields: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
    (objectGroup(layoutOf(photo(fields), overrides, sizes).displayList, 0) as { clip: unknown }).clip;
  it('no clip by default', () => {
    expect(clipOf({})).toBeNull();
  });
  it('corner_radius rounds the box, capped at half the shorter side', () => {
    expect(clipOf({ corner_radius: 24 })).toEqual({ kind: 'round_rect', rect: { x: 0, y: 0, width: 300, height: 200 }, radius: 24 });
    expect(clipOf({ corner_radius: 500 })).toMatchObject({ kind: 'round_rect', radius: 100 });
  });
  it('circle is a circle of the shorter side, centred; ellipse is the box ellipse; a mask wins over the radius', () => {
    expect(clipOf({ mask: 'circle', corner_radius: 10 })).toEqual({ kind: 'ellipse', rect: { x: 50, y: 0, width: 200, height: 200 } });
    expect(clipOf({ mask: 'ellipse' })).toEqual({ kind: 'ellipse', rect: { x: 0, y: 0, width: 300, height: 200 } });
    expect(clipOf({ mask: 'none' })).toBeNull();
  });
  it('with contain, the clip follows the fitted picture, not the empty box', () => {
    // 1200×600 contained in 300×200: 300×150 at y 25.
    expect(clipOf({ corner_radius: 12, config: { media_replacement_strategy: 'contain' } })).toEqual({
      kind: 'round_rect',
      rect: { x: 0, y: 25, width: 300, height: 150 },
      radius: 12,
    });
  });
  it('overrides set corner_radius and mask', () => {
    expect(clipOf({}, { p: { corner_radius: 8 } })).toMatchObject({ kind: 'round_rect', radius: 8 });
    expect(clipOf({ corner_radius: 8 }, { p: { mask: 'circle' } })).toMatchObject({ kind: 'ellipse', rect: { width: 200, height: 200 } });
  });
});

describe('placement', () => {
  it('rotates around the box centre', () => {
    const [a, b, c, d, e, f] = placement(100, 50, 40, 20, 90);
    const map = (x: number, y: number) => [a * x + c * y + e, b * x + d * y + f];
    const centre = map(20, 10);
    expect(centre[0]).toBeCloseTo(120, 9);
    expect(centre[1]).toBeCloseTo(60, 9);
    const topLeft = map(0, 0); // clockwise: the top-left corner goes to the top-right
    expect(topLeft[0]).toBeCloseTo(130, 9);
    expect(topLeft[1]).toBeCloseTo(40, 9);
  });

  it('applies general overrides to any object and drops hidden ones', () => {
    const design = designWith([
      { type: 'shape', name: 's', x: 0, y: 0, width: 10, height: 10, background: { type: 'color', color: '#000' } },
      { type: 'shape', name: 'gone', x: 0, y: 0, width: 10, height: 10 },
    ]);
    const { displayList } = layoutOf(design, { s: { x: 5, y: 6, width: 50, height: 60, opacity: 0.5, rotation: 0 }, gone: { hidden: true } });
    expect(displayList.items).toHaveLength(2);
    expect(objectGroup(displayList, 0)).toMatchObject({ transform: [1, 0, 0, 1, 5, 6], opacity: 0.5, bounds: { width: 50, height: 60 } });
  });
});

describe('shapes', () => {
  it('draws borders inside the outline, dashed as 3w on / 2w off', () => {
    const design = designWith([{ type: 'shape', name: 's', x: 0, y: 0, width: 100, height: 50, border: { width: 4, color: '#fff', style: 'dashed' } }]);
    const stroke = objectGroup(layoutOf(design).displayList, 0).items[0];
    expect(stroke).toMatchObject({ kind: 'stroke', width: 4, dash: [12, 8], geometry: { kind: 'rect', rect: { x: 2, y: 2, width: 96, height: 46 } } });
  });

  it('a colour-only background override implies type color; a path-only one implies image', () => {
    const design = designWith([
      { type: 'shape', name: 's', x: 0, y: 0, width: 100, height: 50, shape: 'ellipse', background: { type: 'image', path: 'a.jpg' } },
    ]);
    const colour = layoutOf(design, { s: { background: { color: '#00ff00' } } });
    expect(objectGroup(colour.displayList, 0).items[0]).toMatchObject({ kind: 'fill', color: [0, 255, 0, 1], geometry: { kind: 'ellipse' } });
    const image = layoutOf(design, { s: { 'background.path': 'b.jpg' } }, new Map([['b.jpg', { width: 10, height: 10 }]]));
    expect(objectGroup(image.displayList, 0).items[0]).toMatchObject({ kind: 'group', clip: { kind: 'ellipse' }, items: [{ kind: 'image', image: 'b.jpg' }] });
  });
});

describe('isolation between renders', () => {
  it('painting composite glyphs (ё, :, quotes) does not disturb the shaping of later texts', async () => {
    const { render } = await import('../src/engine.js');
    await render({ design: designWith([text({ text: 'ёлка: «р», “a” ‘b’ ; ä ö ü é ñ' })]), format: 'png' });
    const latin = 'Seven eleven twelve elephants were seen there yesterday evening, near the bridge.';
    const { displayList } = layoutOf(designWith([text({ text: latin, width: 280, height: 150, font_size: 24 })]));
    expect(lineTexts(objectGroup(displayList, 0)).join(' ')).toBe(latin);
  });
});

describe('border overrides', () => {
  it('a border override on a shape without a border must give its width', async () => {
    const { render } = await import('../src/engine.js');
    const design = designWith([{ type: 'shape', name: 's', x: 0, y: 0, width: 100, height: 50, background: { type: 'color', color: '#eee' } }]);
    await expect(render({ design, overrides: { s: { border: { color: '#ff0000' } } }, format: 'png' })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects_overrides.s.border.width',
    });
    const { displayList } = layoutOf(design, { s: { border: { color: '#ff0000', width: 3 } } });
    expect(objectGroup(displayList, 0).items[1]).toMatchObject({ kind: 'stroke', width: 3, color: [255, 0, 0, 1] });
  });
});

describe('missing glyphs', () => {
  it('reports characters no font of the chain can draw', () => {
    // Cuneiform and a private-use character: no bundled or fallback face has them.
    const { report } = layoutOf(designWith([text({ text: 'Fly 𒀀 to \u{F0041}', width: 590 })]));
    expect(report[0]!.missing_characters).toEqual(['𒀀', '\u{F0041}']);
    expect(layoutOf(designWith([text({ text: 'Привет, мир' })])).report[0]!.missing_characters).toEqual([]);
  });
});
