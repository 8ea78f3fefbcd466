// Gradient fills: the CSS geometry layout gives them, their plain-data display items, overrides that
// imply the gradient type, canvas and slide backgrounds, the pixels in raster and in pdf (stop alpha
// through the soft mask, checked by poppler) and a comparison with the same gradients as CSS in Chromium.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { placeGradient } from '../src/layout/fill.js';
import type { GradientSceneFill } from '../src/scene/scene.js';
import { resolveScene } from '../src/resolve/resolve.js';
import { parseDesign } from '../src/design/parse.js';
import type { Gradient } from '../src/scene/display-list.js';
import { compareWithChromium } from './support/chromium.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';
import { run, toolsAvailable } from './support/tools.js';

const engine = new Engine();
const tmp = mkdtempSync(join(tmpdir(), 'imprint-gradient-'));
const RB = [
  { offset: 0, color: '#e53935' },
  { offset: 1, color: '#1e88e5' },
];
const box = { x: 10, y: 20, width: 200, height: 100 };

/** Where a point falls on a linear gradient: 0 at `from`, 1 at `to`. */
function offsetOf(g: Extract<Gradient, { kind: 'linear' }>, [x, y]: readonly [number, number]): number {
  const dx = g.to[0] - g.from[0];
  const dy = g.to[1] - g.from[1];
  return ((x - g.from[0]) * dx + (y - g.from[1]) * dy) / (dx * dx + dy * dy);
}

async function pixels(png: Buffer): Promise<{ data: Buffer; width: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width };
}

const at = (img: { data: Buffer; width: number }, x: number, y: number): number[] => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];

describe('gradient geometry (layout)', () => {
  it.each([0, 30, 45, 90, 135, 180, 200, 270, 315, -45, 405])(
    'angle %d: the gradient line is |w·sin a| + |h·cos a| long, the nearest corner at 0 and the farthest at 1, as in CSS',
    (angle) => {
      const g = placeGradient({ kind: 'linear_gradient', angle, stops: [] }, box) as Extract<Gradient, { kind: 'linear' }>;
      const a = (angle * Math.PI) / 180;
      expect(Math.hypot(g.to[0] - g.from[0], g.to[1] - g.from[1])).toBeCloseTo(Math.abs(200 * Math.sin(a)) + Math.abs(100 * Math.cos(a)), 9);
      const corners = [
        [10, 20],
        [210, 20],
        [10, 120],
        [210, 120],
      ] as const;
      const offsets = corners.map((c) => offsetOf(g, c));
      expect(Math.min(...offsets)).toBeCloseTo(0, 9);
      expect(Math.max(...offsets)).toBeCloseTo(1, 9);
      // The direction: 0 points up (y down on the canvas), 90 right.
      expect(g.to[0] - g.from[0]).toBeCloseTo(Math.sin(a) * Math.hypot(g.to[0] - g.from[0], g.to[1] - g.from[1]), 9);
      expect(g.from[1] - g.to[1]).toBeCloseTo(Math.cos(a) * Math.hypot(g.to[0] - g.from[0], g.to[1] - g.from[1]), 9);
    },
  );

  it('radial: centre as fractions of the box, radius as a fraction of the half-diagonal (1 reaches the corners from the centre)', () => {
    const fill: GradientSceneFill = { kind: 'radial_gradient', center: [0.25, 0.5], radius: 0.5, stops: [] };
    expect(placeGradient(fill, box)).toEqual({ kind: 'radial', center: [60, 70], radius: Math.hypot(200, 100) / 4, stops: [] });
  });

  it('a shape background is a gradient item of the outline, plain data with defaults filled in', () => {
    const { displayList } = layoutOf(
      designWith([{ type: 'shape', x: 0, y: 0, width: 100, height: 50, shape: 'ellipse', background: { type: 'radial_gradient', stops: RB } }]),
    );
    const item = objectGroup(displayList, 0).items[0]!;
    expect(JSON.parse(JSON.stringify(item))).toEqual(item);
    expect(item).toEqual({
      kind: 'gradient',
      geometry: { kind: 'ellipse', rect: { x: 0, y: 0, width: 100, height: 50 } },
      gradient: {
        kind: 'radial',
        center: [50, 25],
        radius: Math.hypot(100, 50) / 2,
        stops: [
          { offset: 0, color: [229, 57, 53, 1] },
          { offset: 1, color: [30, 136, 229, 1] },
        ],
      },
    });
  });

  it('a canvas gradient covers the canvas; opaque only when every stop is', () => {
    const opaque = layoutOf(designWith([], { background: { type: 'linear_gradient', angle: 90, stops: RB } })).displayList;
    expect(opaque.items[0]).toMatchObject({ kind: 'gradient', geometry: { kind: 'rect', rect: { x: 0, y: 0, width: 600, height: 400 } } });
    const g = (opaque.items[0] as { gradient: Extract<Gradient, { kind: 'linear' }> }).gradient;
    [...g.from, ...g.to].forEach((v, i) => expect(v).toBeCloseTo([0, 200, 600, 200][i]!, 9));
    expect(opaque.opaque).toBe(true);
    const clear = layoutOf(designWith([], { background: { type: 'linear_gradient', stops: [RB[0], { offset: 1, color: '#1e88e580' }] } })).displayList;
    expect(clear.opaque).toBe(false);
  });

  it('a slide background gradient becomes the slide’s first shape', () => {
    const design = parseDesign({
      width: 320,
      height: 180,
      slides: [{ duration: 2, background: { type: 'linear_gradient', angle: 45, stops: RB }, objects: [] }],
    });
    const scene = resolveScene(design, {});
    const slide = scene.objects[0]!;
    expect(slide.type).toBe('group');
    expect(slide.type === 'group' && slide.objects[0]).toMatchObject({ type: 'shape', fill: { kind: 'linear_gradient', angle: 45 } });
  });
});

describe('gradient overrides', () => {
  const shape = { type: 'shape', name: 'box', x: 0, y: 0, width: 100, height: 100 };
  const fillOf = (background: unknown, override: unknown) => {
    const scene = resolveScene(parseDesign(designWith([{ ...shape, background }])), { box: { background: override } });
    const o = scene.objects[0]!;
    return o.type === 'shape' ? o.fill : null;
  };

  it('stops alone turn a colour into a linear gradient (default angle 180), and keep a radial gradient radial', () => {
    expect(fillOf({ type: 'color', color: '#000' }, { stops: RB })).toMatchObject({ kind: 'linear_gradient', angle: 180 });
    expect(
      fillOf(
        { type: 'radial_gradient', stops: RB },
        {
          stops: [
            { offset: 0, color: '#1e88e5' },
            { offset: 1, color: '#e53935' },
          ],
        },
      ),
    ).toMatchObject({
      kind: 'radial_gradient',
      stops: [{ color: [30, 136, 229, 1] }, { color: [229, 57, 53, 1] }],
    });
  });

  it('angle implies linear, center or radius radial, color a plain colour again', () => {
    expect(fillOf({ type: 'radial_gradient', stops: RB }, { angle: 90 })).toMatchObject({ kind: 'linear_gradient', angle: 90 });
    expect(fillOf({ type: 'linear_gradient', stops: RB }, { radius: 0.5 })).toMatchObject({ kind: 'radial_gradient', radius: 0.5, center: [0.5, 0.5] });
    expect(fillOf({ type: 'linear_gradient', stops: RB }, { center: { x: 0, y: 1 } })).toMatchObject({ kind: 'radial_gradient', center: [0, 1] });
    expect(fillOf({ type: 'linear_gradient', stops: RB }, { color: '#00ff00' })).toEqual({ kind: 'color', color: [0, 255, 0, 1] });
  });

  it('a colour shape given only an angle must still be given stops', () => {
    expect(() =>
      resolveScene(parseDesign(designWith([{ ...shape, background: { type: 'color', color: '#000' } }])), { box: { background: { angle: 90 } } }),
    ).toThrow(/no background.stops are given/);
  });
});

describe('gradient pixels', () => {
  const ramp = (format: 'png' | 'pdf', stops: unknown, under = '#ffffff') =>
    engine.render({
      format,
      design: designWith(
        [
          { type: 'shape', x: 0, y: 0, width: 200, height: 100, background: { type: 'color', color: under } },
          { type: 'shape', x: 0, y: 0, width: 200, height: 100, background: { type: 'linear_gradient', angle: 90, stops } },
        ],
        { width: 200, height: 100 },
      ),
    });

  it('raster: the end colours at the ends, the mix half-way; stops inside 0..1 pad with the end colours', async () => {
    const img = await pixels(
      (
        await ramp('png', [
          { offset: 0, color: '#000000' },
          { offset: 1, color: '#ffffff' },
        ])
      ).bytes,
    );
    expect(at(img, 0, 50)[0]).toBeLessThanOrEqual(2);
    expect(at(img, 199, 50)[0]).toBeGreaterThanOrEqual(253);
    expect(Math.abs(at(img, 100, 50)[0]! - 128)).toBeLessThanOrEqual(2);
    const padded = await pixels(
      (
        await ramp('png', [
          { offset: 0.25, color: '#000000' },
          { offset: 0.75, color: '#ffffff' },
        ])
      ).bytes,
    );
    expect(at(padded, 20, 50)[0]).toBe(0);
    expect(at(padded, 180, 50)[0]).toBe(255);
    expect(Math.abs(at(padded, 100, 50)[0]! - 128)).toBeLessThanOrEqual(2);
  });

  it('same input, same bytes (png and pdf)', async () => {
    const stops = [
      { offset: 0, color: '#e5393500' },
      { offset: 0.5, color: '#43a047' },
      { offset: 0.5, color: '#1e88e5' },
      { offset: 1, color: '#1e88e5' },
    ];
    for (const format of ['png', 'pdf'] as const) expect((await ramp(format, stops)).bytes.equals((await ramp(format, stops)).bytes)).toBe(true);
  });

  it.skipIf(!toolsAvailable(['pdftoppm'], 'reading pdf gradients back needs poppler'))(
    'pdf: stop alpha is a soft mask (pdfkit-style luminosity mask, placed in the item’s own space): transparent to black over green darkens like the png',
    async () => {
      const stops = [
        { offset: 0, color: '#00000000' },
        { offset: 1, color: '#000000' },
      ];
      const pdf = (await ramp('pdf', stops, '#43a047')).bytes;
      expect(pdf.toString('latin1')).toMatch(/\/S \/Luminosity/);
      // Opaque stops need no mask.
      expect((await ramp('pdf', RB)).bytes.toString('latin1')).not.toMatch(/\/SMask/);
      const file = join(tmp, 'alpha.pdf');
      writeFileSync(file, pdf);
      run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, file.replace(/\.pdf$/, '')]);
      const fromPdf = await pixels(await sharp(file.replace(/\.pdf$/, '.png')).toBuffer());
      const fromPng = await pixels((await ramp('png', stops, '#43a047')).bytes);
      for (const x of [2, 50, 100, 150, 197]) {
        const [a, b] = [at(fromPdf, x, 50), at(fromPng, x, 50)];
        for (let c = 0; c < 3; c++) expect(Math.abs(a[c]! - b[c]!), `x ${x} channel ${c}: pdf ${a.join()} png ${b.join()}`).toBeLessThanOrEqual(3);
      }
      // Green on the left, half-dimmed in the middle, black on the right.
      expect(at(fromPdf, 2, 50)[1]).toBeGreaterThan(150);
      expect(Math.abs(at(fromPdf, 100, 50)[1]! - 160 / 2)).toBeLessThanOrEqual(4);
      expect(at(fromPdf, 197, 50)[1]).toBeLessThan(4);
    },
  );
});

/**
 * The same gradients as CSS in Chromium. Tolerance: every channel within 2 levels on 99.9 % of the
 * pixels (measured: none is more than 1 level off; Chromium may dither gradients and anti-alias box
 * edges a little differently).
 * See-through stops keep their neighbours' colour here: CSS interpolates premultiplied, Imprint
 * (Skia canvas, pdf) colour and alpha separately, which only differ when a clear stop has another colour.
 */
describe.runIf(toolsAvailable(['chromium'], 'comparing gradients with Chromium needs it'))('gradients against CSS in Chromium', () => {
  it('linear at eight angles, radial centred and off-centre, and a scrim over a colour match within 2 levels', async () => {
    const boxes: { x: number; y: number; w: number; h: number; bg: unknown; css: string; under?: string }[] = [];
    const rbCss = '#e53935 0%, #1e88e5 100%';
    [0, 45, 90, 135, 180, 225, 270, 315].forEach((a, i) =>
      boxes.push({
        x: 10 + (i % 4) * 120,
        y: 10 + Math.floor(i / 4) * 100,
        w: 110,
        h: 80,
        bg: { type: 'linear_gradient', angle: a, stops: RB },
        css: `linear-gradient(${a}deg, ${rbCss})`,
      }),
    );
    const w = 150;
    const h = 90;
    const r1 = Math.hypot(w, h) / 2;
    boxes.push({ x: 10, y: 210, w, h, bg: { type: 'radial_gradient', stops: RB }, css: `radial-gradient(circle ${r1}px at ${w / 2}px ${h / 2}px, ${rbCss})` });
    boxes.push({
      x: 170,
      y: 210,
      w,
      h,
      bg: { type: 'radial_gradient', center: { x: 0.2, y: 0.3 }, radius: 0.6, stops: [RB[0], { offset: 0.4, color: '#fdd835' }, RB[1]] },
      css: `radial-gradient(circle ${0.6 * r1}px at ${0.2 * w}px ${0.3 * h}px, #e53935 0%, #fdd835 40%, #1e88e5 100%)`,
    });
    boxes.push({
      x: 330,
      y: 210,
      w,
      h,
      under: '#43a047',
      bg: {
        type: 'linear_gradient',
        stops: [
          { offset: 0, color: '#00000000' },
          { offset: 1, color: '#000000d9' },
        ],
      },
      css: 'linear-gradient(180deg, #00000000 0%, #000000d9 100%)',
    });
    const width = 490;
    const height = 310;
    const objects = boxes.flatMap((b) => [
      ...(b.under ? [{ type: 'shape', x: b.x, y: b.y, width: b.w, height: b.h, background: { type: 'color', color: b.under } }] : []),
      { type: 'shape', x: b.x, y: b.y, width: b.w, height: b.h, background: b.bg },
    ]);
    const ours = (await engine.render({ format: 'png', design: designWith(objects, { width, height, background: { type: 'color', color: '#ffffff' } }) }))
      .bytes;
    const divs = boxes
      .map((b) => {
        const pos = `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.w}px;height:${b.h}px`;
        return (b.under ? `<div style="${pos};background:${b.under}"></div>` : '') + `<div style="${pos};background:${b.css}"></div>`;
      })
      .join('');
    const { off, share, worst, screenshot } = await compareWithChromium(ours, divs, {
      width,
      height,
      background: '#fff',
      levels: 2,
      dir: tmp,
      name: 'gradients',
    });
    expect(share, `${off} pixels differ by more than 2 levels (worst ${worst}); Chromium: ${screenshot}`).toBeLessThanOrEqual(0.001);
  }, 60_000);
});
