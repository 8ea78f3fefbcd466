// Shape figure outlines, line objects and the wrap ("button") field: display lists as data, bad input
// refused at its path, pdf read back by poppler against the png, and polygons and line heads against
// the same SVG drawn by Chromium.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine, type DesignInput, type RenderOptions } from '../src/engine.js';
import type { Overrides } from '../src/resolve/types.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { compareWithChromium } from './support/chromium.js';
import { expectRefused } from './support/refusal.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';
import { toolsAvailable } from './support/tools.js';

const engine = new Engine();
const tmp = mkdtempSync(join(tmpdir(), 'imprint-figures-'));
const blue = { type: 'color', color: '#1e88e5' };

const shape = (extra: Record<string, unknown>) => ({ type: 'shape', x: 10, y: 20, width: 100, height: 80, background: blue, ...extra });
const itemsOf = (objects: unknown[], overrides: unknown = {}, n = 0): DisplayItem[] =>
  objectGroup(layoutOf(designWith(objects), overrides).displayList, n).items;
/** The corners of a polygon or polyline item's geometry. */
function pointsOf(it: DisplayItem | undefined): [number, number][] {
  if (!it || (it.kind !== 'fill' && it.kind !== 'stroke') || (it.geometry.kind !== 'polygon' && it.geometry.kind !== 'polyline')) {
    throw new Error(`not a polygon item: ${JSON.stringify(it)}`);
  }
  return it.geometry.points.map(([x, y]) => [x, y]);
}
const round = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_, x: unknown) => (typeof x === 'number' ? Math.round(x * 1000) / 1000 : x)));

describe('figure outlines as data', () => {
  it('polygons fill their box: triangle, right triangle, diamond, cross, arrows', () => {
    const geometry = (s: string) => (itemsOf([shape({ shape: s })])[0] as Extract<DisplayItem, { kind: 'fill' }>).geometry;
    expect(geometry('triangle')).toEqual({
      kind: 'polygon',
      points: [
        [50, 0],
        [100, 80],
        [0, 80],
      ],
    });
    expect(geometry('right_triangle')).toEqual({
      kind: 'polygon',
      points: [
        [0, 0],
        [100, 80],
        [0, 80],
      ],
    });
    expect(geometry('diamond')).toEqual({
      kind: 'polygon',
      points: [
        [50, 0],
        [100, 40],
        [50, 80],
        [0, 40],
      ],
    });
    // Arms a third of the shorter side thick (80 / 3), crossing at the centre.
    const cross = { points: pointsOf(itemsOf([shape({ shape: 'cross' })])[0]) };
    expect(round(cross.points.slice(0, 4))).toEqual([
      [36.667, 0],
      [63.333, 0],
      [63.333, 26.667],
      [100, 26.667],
    ]);
    // Block arrow: shaft half the height, head as long as half the height.
    expect(geometry('arrow_right')).toEqual({
      kind: 'polygon',
      points: [
        [0, 20],
        [60, 20],
        [60, 0],
        [100, 40],
        [60, 80],
        [60, 60],
        [0, 60],
      ],
    });
    const left = { points: pointsOf(itemsOf([shape({ shape: 'arrow_left' })])[0]) };
    expect(left.points[3]).toEqual([0, 40]);
    const up = { points: pointsOf(itemsOf([shape({ shape: 'arrow_up' })])[0]) };
    expect(up.points[3]).toEqual([50, 0]);
  });

  it('regular polygons and stars are stretched so their bounding box is the box', () => {
    for (const [s, corners] of [
      ['pentagon', 5],
      ['hexagon', 6],
      ['octagon', 8],
      ['star', 10],
    ] as const) {
      const g = { points: pointsOf(itemsOf([shape({ shape: s })])[0]) };
      expect(g.points, s).toHaveLength(corners);
      const xs = g.points.map((p) => p[0]);
      const ys = g.points.map((p) => p[1]);
      expect(round([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]), s).toEqual([0, 100, 0, 80]);
    }
    const hex = pointsOf(itemsOf([shape({ shape: 'hexagon' })])[0]);
    expect(round(hex.slice(0, 2))).toEqual([
      [100, 40],
      [75, 80],
    ]);
    // A 6-point star with inner corners at half the outer radius: 12 corners, the first straight up.
    const star = pointsOf(itemsOf([shape({ shape: 'star', points: 6, inner_radius: 0.5, width: 100, height: 100 })])[0]);
    expect(star).toHaveLength(12);
    expect(round(star[0])).toEqual([50, 0]);
  });

  it('heart and speech bubble are path data in the box', () => {
    const heart = (itemsOf([shape({ shape: 'heart' })])[0] as Extract<DisplayItem, { kind: 'fill' }>).geometry;
    expect(heart).toMatchObject({ kind: 'path' });
    expect((heart as { d: string }).d.startsWith('M 50 80 C 30 65.6 0 48 0 24')).toBe(true);
    const bubble = (itemsOf([shape({ shape: 'speech_bubble' })])[0] as Extract<DisplayItem, { kind: 'fill' }>).geometry as { d: string };
    // Tail tip at 15 % across, on the bottom edge.
    expect(bubble.d).toContain('L 15 80');
  });

  it('a figure border is a stroke twice its width on the outline, clipped to it; gradients and images are placed in the box', () => {
    const items = itemsOf([shape({ shape: 'star', border: { width: 4, color: '#000000', style: 'dashed' } })]);
    const border = items[1] as Extract<DisplayItem, { kind: 'group' }>;
    expect(border.clip).toEqual((items[0] as Extract<DisplayItem, { kind: 'fill' }>).geometry);
    expect(border.items).toEqual([{ kind: 'stroke', geometry: border.clip, color: [0, 0, 0, 1], width: 8, dash: [12, 8] }]);
    const grad = itemsOf([
      shape({
        shape: 'heart',
        background: {
          type: 'linear_gradient',
          angle: 90,
          stops: [
            { offset: 0, color: '#000' },
            { offset: 1, color: '#fff' },
          ],
        },
      }),
    ])[0];
    expect(grad).toMatchObject({ kind: 'gradient', geometry: { kind: 'path' }, gradient: { kind: 'linear', from: [0, 40], to: [100, 40] } });
  });
});

describe('line objects as data', () => {
  const line = (extra: Record<string, unknown>) => ({ type: 'line', name: 'rule', x: 10, y: 20, width: 200, height: 6, ...extra });

  it('a stroke across the middle of the box, as wide as the box is high unless stroke_width says otherwise', () => {
    expect(itemsOf([line({})])).toEqual([
      {
        kind: 'stroke',
        geometry: {
          kind: 'polyline',
          points: [
            [0, 3],
            [200, 3],
          ],
        },
        color: [0, 0, 0, 1],
        width: 6,
        dash: null,
        cap: 'butt',
      },
    ]);
    expect(itemsOf([line({ height: 30, stroke_width: 2, dash: [4, 2], line_cap: 'round' })])[0]).toMatchObject({
      geometry: {
        points: [
          [0, 15],
          [200, 15],
        ],
      },
      width: 2,
      dash: [8, 4],
      cap: 'round',
    });
    // An odd pattern repeats, as canvas and pdf both read it.
    expect(itemsOf([line({ dash: [3] })])[0]).toMatchObject({ dash: [18, 18] });
  });

  it('heads scale with the stroke width; filled heads tuck the stroke under them; the end head is mirrored', () => {
    const items = itemsOf([line({ height: 4, start_head: 'triangle', end_head: 'arrow' })]);
    expect(items[0]).toMatchObject({
      kind: 'stroke',
      geometry: {
        points: [
          [6, 2],
          [200, 2],
        ],
      },
    });
    const tri = {
      kind: 'polygon',
      points: [
        [12, -6],
        [0, 2],
        [12, 10],
      ],
    };
    expect(items[1]).toEqual({ kind: 'fill', geometry: tri, color: [0, 0, 0, 1] });
    expect(items[2]).toEqual({ kind: 'stroke', geometry: tri, color: [0, 0, 0, 1], width: 4, dash: null, join: 'round' });
    expect(items[3]).toMatchObject({
      kind: 'stroke',
      geometry: {
        kind: 'polyline',
        points: [
          [188, -6],
          [200, 2],
          [188, 10],
        ],
      },
      join: 'round',
    });
    const circle = itemsOf([line({ height: 4, start_head: 'circle', end_head: 'square' })]);
    expect(circle[1]).toMatchObject({ kind: 'fill', geometry: { kind: 'ellipse', rect: { x: 0, y: -6, width: 16, height: 16 } } });
    expect(circle[3]).toMatchObject({ kind: 'fill', geometry: { kind: 'rect', rect: { x: 184, y: -6, width: 16, height: 16 } } });
    const bar = itemsOf([line({ height: 4, end_head: 'bar' })]);
    expect(bar[1]).toMatchObject({
      geometry: {
        kind: 'polyline',
        points: [
          [200, -6],
          [200, 10],
        ],
      },
    });
  });

  it('overrides restyle the line: colour, dash, heads, width; the group bounds hold the heads', () => {
    const design = designWith([line({ color: '#ff0000' })]);
    const g = objectGroup(layoutOf(design, { rule: { color: '#00ff00', dash: [1, 1], end_head: 'circle', stroke_width: 2, rotation: 90 } }).displayList, 0);
    expect(g.items[0]).toMatchObject({ color: [0, 255, 0, 1], width: 2, dash: [2, 2] });
    expect(g.items[1]).toMatchObject({ kind: 'fill', geometry: { kind: 'ellipse' } });
    expect(round(g.transform.slice(0, 4))).toEqual([0, 1, -1, 0]);
    expect(g.bounds.y).toBeLessThanOrEqual(3 - 5);
  });
});

describe('wrap: a shape sized around a text', () => {
  const label = {
    type: 'text',
    name: 'cta',
    x: 100,
    y: 50,
    width: 400,
    height: 40,
    font_size: 20,
    text: 'Buy',
    text_align: 'center',
    config: { text_replacement_strategy: 'fixed-width' },
  };
  const button = shape({ name: 'button', shape: 'rounded_rect', wrap: { object: 'cta', padding: { x: 20, y: 10 } } });

  it("the box is the text's lines grown by the padding, centred where the lines are; overriding the text widens it", () => {
    const short = layoutOf(designWith([button, label]));
    const long = layoutOf(designWith([button, label]), { cta: { text: 'Start your free trial' } });
    const boxOf = (l: typeof short) => {
      const g = objectGroup(l.displayList, 0);
      const fill = g.items[0] as { geometry: { rect: { width: number; height: number } } };
      return { width: fill.geometry.rect.width, height: fill.geometry.rect.height, x: g.transform[4], y: g.transform[5] };
    };
    const a = boxOf(short);
    const b = boxOf(long);
    // One line of 20 px text at line height 1.2 → 24 px, plus 2 × 10.
    expect(a.height).toBeCloseTo(44, 5);
    expect(b.height).toBeCloseTo(44, 5);
    expect(b.width).toBeGreaterThan(a.width + 100);
    // Centred text: the button stays centred on the text box (x 100 … 500).
    expect(a.x + a.width / 2).toBeCloseTo(300, 5);
    expect(b.x + b.width / 2).toBeCloseTo(300, 5);
    expect(a.y).toBeCloseTo(50 - 10, 5);
  });

  it('a rotated text turns its button about the same point; padding alone as a number pads all sides', () => {
    const l = layoutOf(
      designWith([
        { ...button, wrap: { object: 'cta', padding: 8 } },
        { ...label, rotation: 90, text_align: 'left' },
      ]),
    );
    const g = objectGroup(l.displayList, 0);
    const t = objectGroup(l.displayList, 1);
    expect(round(g.transform.slice(0, 4))).toEqual([0, 1, -1, 0]);
    // The button's local origin sits 8 px before the text's first glyph in the text's own frame.
    const [a, b, c, d, e, f] = t.transform;
    const origin = [a * -8 + c * -8 + e, b * -8 + d * -8 + f];
    expect(round([g.transform[4], g.transform[5]])).toEqual(round(origin));
  });

  it('on a slide the button wraps the text of its own slide; with fit the button follows the shrunk lines', () => {
    const fitLabel = { ...label, config: { text_replacement_strategy: 'fit' }, width: 200, x: 200, min_font_size: 6 };
    const design = {
      width: 600,
      height: 400,
      fonts: ['Inter'],
      slides: [{ duration: 1, objects: [button, fitLabel] }],
    };
    const widthOf = (overrides: unknown) => {
      const slide = layoutOf(design, overrides).displayList.items[1] as Extract<DisplayItem, { kind: 'group' }>;
      const g = slide.items[0] as Extract<DisplayItem, { kind: 'group' }>;
      return (g.items[0] as { geometry: { rect: { width: number } } }).geometry.rect.width;
    };
    const short = widthOf({});
    // A label too long for its 200 px box shrinks until it fits; the button is never wider than the box plus padding.
    const long = widthOf({ cta: { text: 'Start your free trial today and save' } });
    expect(long).toBeGreaterThan(short);
    expect(long).toBeLessThanOrEqual(200 + 40 + 1e-6);
  });

  it('a hidden text hides its button; the wrapped text is laid out once', () => {
    const l = layoutOf(designWith([button, label]), { cta: { hidden: true } });
    expect(l.displayList.items).toHaveLength(1);
    expect(layoutOf(designWith([button, label])).report).toHaveLength(1);
  });
});

describe('bad input is refused at its path', () => {
  const render = (objects: unknown[], overrides?: Overrides): RenderOptions => ({
    format: 'png',
    design: designWith(objects),
    ...(overrides ? { overrides } : {}),
  });
  const text = { type: 'text', name: 'label', x: 0, y: 0, width: 100, height: 40, text: 'Hi' };
  it.each([
    [[shape({ shape: 'blob' })], '$.objects[0].shape', 'expected one of'],
    [[shape({ shape: 'star', points: 2 })], '$.objects[0].points', '3'],
    [[shape({ shape: 'star', inner_radius: 1.5 })], '$.objects[0].inner_radius', '1'],
    [[shape({ wrap: { object: 'nothing' } }), text], '$.objects[0].wrap.object', 'no object named "nothing"'],
    [[shape({ wrap: { object: 'label', padding: -4 } }), text], '$.objects[0].wrap.padding', ''],
    [[shape({ wrap: { object: 'label', padding: { x: 4, y: -1 } } }), text], '$.objects[0].wrap.padding.y', ''],
    [[shape({ name: 'me', wrap: { object: 'me' } })], '$.objects[0].wrap.object', 'cannot wrap itself'],
    [[shape({ wrap: { object: 'other' } }), shape({ name: 'other' })], '$.objects[0].wrap.object', 'expected a text object'],
    [[{ type: 'line', x: 0, y: 0, width: 100, height: 4, end_head: 'star' }], '$.objects[0].end_head', 'expected one of'],
    [[{ type: 'line', x: 0, y: 0, width: 100, height: 4, dash: [0, 0] }], '$.objects[0].dash', 'above 0'],
    [[{ type: 'line', x: 0, y: 0, width: 100, height: 4, stroke_width: 0 }], '$.objects[0].stroke_width', 'greater than 0'],
  ])('%j → %s', async (objects, path, message) => {
    await expectRefused(render(objects), { path, message });
  });

  it('a wrap naming a text on another slide', async () => {
    const design = {
      width: 200,
      height: 100,
      fonts: ['Inter'],
      slides: [
        { duration: 1, objects: [shape({ wrap: { object: 'label' } })] },
        { duration: 1, objects: [text] },
      ],
    };
    await expectRefused({ format: 'png', design: design as DesignInput }, { path: '$.slides[0].objects[0].wrap.object', message: 'is on slides[1]' });
  });

  it('a line override with a bad head', async () => {
    await expectRefused(render([{ type: 'line', name: 'l', x: 0, y: 0, width: 100, height: 4 }], { l: { start_head: 'x' } } as unknown as Overrides), {
      path: '$.objects_overrides.l.start_head',
      message: 'expected one of',
    });
  });
});

describe('pdf', () => {
  // Every golden case (shape/figures, star-dashed-border, lines, button-override among them) is also read back
  // by pdftoppm and compared with its png in test/pdf.test.ts; here: the figures and lines are vector paths.
  it('figures, curves, dashed borders and line heads are paths, not images', async () => {
    const objects = [
      shape({ shape: 'heart', border: { width: 3, color: '#000000', style: 'dashed' } }),
      shape({ shape: 'star', x: 150 }),
      shape({ shape: 'speech_bubble', x: 300 }),
      { type: 'line', x: 10, y: 200, width: 300, height: 4, dash: [0, 2], line_cap: 'round', start_head: 'circle', end_head: 'arrow' },
    ];
    const { bytes } = await engine.render({ format: 'pdf', design: designWith(objects) });
    const text = bytes.toString('latin1');
    expect(text).not.toMatch(/\/Subtype \/Image/);
    expect(bytes.length).toBeLessThan(20_000);
  });
});

describe.runIf(toolsAvailable(['chromium'], 'comparing with Chromium needs it'))('against SVG in Chromium', () => {
  it('polygon figures with an inside border match an SVG polygon clipped to itself', async () => {
    const figures = ['triangle', 'diamond', 'pentagon', 'hexagon', 'octagon', 'star', 'cross', 'arrow_right'];
    const width = 480;
    const height = 240;
    const boxes = figures.map((f, i) => ({ f, x: 20 + (i % 4) * 115, y: 20 + Math.floor(i / 4) * 110, w: 95, h: 90 }));
    const objects = boxes.map((b) => ({
      type: 'shape',
      x: b.x,
      y: b.y,
      width: b.w,
      height: b.h,
      shape: b.f,
      background: { type: 'color', color: '#1e88e5' },
      border: { width: 5, color: '#263238' },
    }));
    const list = layoutOf(designWith(objects, { width, height })).displayList;
    const ours = (await engine.render({ format: 'png', design: designWith(objects, { width, height, background: { type: 'color', color: '#ffffff' } }) }))
      .bytes;
    const svg = boxes
      .map((b, i) => {
        const g = objectGroup(list, i);
        const pts = pointsOf(g.items[0])
          .map(([x, y]) => `${x},${y}`)
          .join(' ');
        return `<g transform="translate(${b.x} ${b.y})"><clipPath id="c${i}"><polygon points="${pts}"/></clipPath><polygon points="${pts}" fill="#1e88e5"/><polygon points="${pts}" fill="none" stroke="#263238" stroke-width="10" clip-path="url(#c${i})"/></g>`;
      })
      .join('');
    const body = `<svg width="${width}" height="${height}" style="position:absolute;left:0;top:0">${svg}</svg>`;
    const { share, screenshot } = await compareWithChromium(ours, body, { width, height, background: '#ffffff', levels: 8, dir: tmp, name: 'polygons' });
    // Chromium draws SVG with Skia too: measured, no pixel differs by more than 8 levels.
    expect(share, screenshot).toBeLessThan(0.01);
  });

  it("line heads match Polotno's head geometry drawn as SVG (tip at the end, 4 stroke widths across)", async () => {
    const heads = ['arrow', 'triangle', 'circle', 'square', 'bar'];
    const width = 360;
    const height = 220;
    const s = 5;
    const objects = heads.map((h, i) => ({ type: 'line', x: 30, y: 20 + i * 40, width: 300, height: s, color: '#263238', start_head: h, end_head: h }));
    const ours = (await engine.render({ format: 'png', design: designWith(objects, { width, height, background: { type: 'color', color: '#ffffff' } }) }))
      .bytes;
    // Written from the spec, not from our display list: the start head with its tip at (x, y), pointing left.
    const stroke = `stroke="#263238" stroke-width="${s}" stroke-linejoin="round" stroke-linecap="round"`;
    const headSvg = (h: string, x: number, y: number): string => {
      const chevron = `${x + 3 * s},${y - 2 * s} ${x},${y} ${x + 3 * s},${y + 2 * s}`;
      if (h === 'arrow') return `<polyline points="${chevron}" fill="none" ${stroke}/>`;
      if (h === 'triangle') return `<polygon points="${chevron}" fill="#263238" ${stroke}/>`;
      if (h === 'circle') return `<circle cx="${x + 2 * s}" cy="${y}" r="${2 * s}" fill="#263238" ${stroke}/>`;
      if (h === 'square') return `<rect x="${x}" y="${y - 2 * s}" width="${4 * s}" height="${4 * s}" fill="#263238" ${stroke}/>`;
      return `<line x1="${x}" y1="${y - 2 * s}" x2="${x}" y2="${y + 2 * s}" ${stroke}/>`;
    };
    const svg = heads
      .map((h, i) => {
        const y = 20 + i * 40 + s / 2;
        const shaft = `<line x1="30" y1="${y}" x2="330" y2="${y}" stroke="#263238" stroke-width="${s}"/>`;
        // The end head is the start head mirrored about the line's middle (x = 180).
        return `${shaft}${headSvg(h, 30, y)}<g transform="translate(360 0) scale(-1 1)">${headSvg(h, 30, y)}</g>`;
      })
      .join('');
    const body = `<svg width="${width}" height="${height}" style="position:absolute;left:0;top:0">${svg}</svg>`;
    const { share, screenshot } = await compareWithChromium(ours, body, { width, height, background: '#ffffff', levels: 8, dir: tmp, name: 'line-heads' });
    expect(share, screenshot).toBeLessThan(0.01);
  });
});
