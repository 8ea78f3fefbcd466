// COLRv1 linear and radial gradients with pad, repeat and reflect, in png and pdf. The COLRv1 test font
// of googlefonts/color-fonts (test/fixtures/colr) has 14 such glyphs: linear repeat over stops 0–1,
// 0.2–0.8, 0–1.5 and 0.5–1.5, and linear, contained radial and cone radial in each extend mode. Its png
// is compared with Chromium (Skia's own COLRv1 painter), its pdf, rasterised by poppler and by
// Ghostscript, with the png. Op lists built here add what the font lacks (a start circle outside the
// end circle, a zero-radius start, negative radii, stops not at 0 and 1, see-through and hard stops);
// both painters' pixels are checked against the colour the COLRv1 definition gives at each point.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { extendLine, extendedStops, MAX_PERIODS, radialSpan } from '../src/paint/extend.js';
import type { RGBA } from '../src/scene/scene.js';
import type { ColorGlyph, ColorMatrix, ColorStopOp, GradientExtend } from '../src/text/colr.js';
import {
  againstChromium,
  apply,
  BACKDROP,
  BOX,
  CELL,
  cellMatrix,
  CLIP,
  clippedGlyph,
  colourOnLine,
  colrFontGrid,
  colrTestEngine,
  COLUMNS,
  invert,
  pdfAgainstPng,
  pdfSheet,
  rasterSheet,
  SCALE,
  stop,
  type Readback,
} from './support/colr-cases.js';
import { envelopeMismatch } from './support/envelope-diff.js';
import { assertGolden, REPO_ROOT } from './support/golden-compare.js';
import { run, toolsAvailable } from './support/tools.js';

const { engine, dir, cleanup } = colrTestEngine('imprint-extend-');
afterAll(cleanup);

// ── The font's glyphs: U+F0100–F0103 (linear repeat), U+F0500–F0508 (linear, contained radial, cone
// radial; pad, repeat, reflect each), U+F0C0A (a reflected radial clipped inside its box) ──

const ROWS = [
  [0xf0100, 0xf0101, 0xf0102, 0xf0103, 0xf0c0a],
  [0xf0500, 0xf0501, 0xf0502, 0xf0503, 0xf0504],
  [0xf0505, 0xf0506, 0xf0507, 0xf0508],
].map((r) => String.fromCodePoint(...r));

/** The glyphs at `size` px, one row per text box. */
const fontGrid = (size: number) => colrFontGrid(ROWS, 5, size);

const pdfTools = toolsAvailable(['pdftoppm', 'qpdf'], 'extend pdf tests need poppler and qpdf');
const gsTool = toolsAvailable(['gs'], 'extend pdf tests compare with Ghostscript');

describe('the COLRv1 test font’s linear and radial extend glyphs', () => {
  it('png: all 14 in the golden picture', async () => {
    const { bytes } = await engine.render({ design: fontGrid(100), format: 'png' });
    await assertGolden(bytes, { area: 'emoji', name: 'colr-extend', dir: join(REPO_ROOT, 'golden', 'emoji', 'colr-extend') });
  });

  it.skipIf(!toolsAvailable(['chromium'], 'comparing gradients with Chromium needs it'))(
    'png: match Chromium drawing the same font file (Skia’s COLRv1 painter)',
    async () => {
      const size = 100;
      const { mismatch, shot } = await againstChromium(engine, dir, ROWS, 5, size);
      expect(mismatch, `${(mismatch * 100).toFixed(3)} % of the pixels differ from Chromium's (${shot})`).toBeLessThanOrEqual(0.0005);
    },
  );
});

describe('the font’s extend glyphs in pdf', () => {
  it.skipIf(!pdfTools || !gsTool)('pdf: vector shadings that poppler and Ghostscript draw like the png', async () => {
    const design = fontGrid(100);
    const { file, poppler, gs } = await pdfAgainstPng(engine, dir, design);
    expect(run('pdfimages', ['-list', file]).trim().split('\n').length, 'the pdf holds images').toBe(2);
    expect(poppler, `poppler: ${(poppler * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.001);
    expect(gs, `Ghostscript: ${(gs * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.001);
  });
});

// ── Op lists built by hand, painted by both painters and read back ──

const RGB3 = [stop(0, 220, 30, 30), stop(0.5, 250, 240, 200), stop(1, 20, 60, 200)];

type Gradient =
  { op: 'linear'; p0: [number, number]; p1: [number, number] } | { op: 'radial'; c0: [number, number]; r0: number; c1: [number, number]; r1: number };
interface ExtendCase {
  name: string;
  gradient: Gradient;
  extend: GradientExtend;
  stops: ColorStopOp[];
  /** Paint space → glyph space, as a PaintTransform above the gradient. */
  transform?: ColorMatrix;
}

const CASES: ExtendCase[] = [
  {
    name: 'radial, start circle outside the end circle, repeat',
    gradient: { op: 'radial', c0: [200, 300], r0: 60, c1: [600, 650], r1: 180 },
    extend: 'repeat',
    stops: RGB3,
  },
  {
    name: 'radial, start circle outside the end circle, reflect, see-through',
    gradient: { op: 'radial', c0: [250, 700], r0: 40, c1: [550, 450], r1: 140 },
    extend: 'reflect',
    stops: [stop(0, 0, 120, 0), stop(0.4, 240, 200, 0, 0.25), stop(1, 120, 0, 160, 0.8)],
  },
  {
    name: 'radial, zero-radius start off the centre, reflect',
    gradient: { op: 'radial', c0: [380, 600], r0: 0, c1: [500, 500], r1: 300 },
    extend: 'reflect',
    stops: RGB3,
  },
  {
    name: 'radial, zero-radius start, repeat, hard stops',
    gradient: { op: 'radial', c0: [500, 500], r0: 0, c1: [520, 480], r1: 150 },
    extend: 'repeat',
    stops: [stop(0, 200, 0, 0), stop(0.5, 200, 0, 0), stop(0.5, 250, 250, 250), stop(1, 0, 0, 150)],
  },
  {
    name: 'radial, end circle inside the start circle, repeat',
    gradient: { op: 'radial', c0: [500, 500], r0: 420, c1: [560, 530], r1: 120 },
    extend: 'repeat',
    stops: RGB3,
  },
  { name: 'radial, negative start radius, pad', gradient: { op: 'radial', c0: [450, 450], r0: -100, c1: [550, 520], r1: 300 }, extend: 'pad', stops: RGB3 },
  { name: 'radial, negative radii, repeat', gradient: { op: 'radial', c0: [400, 420], r0: -60, c1: [480, 480], r1: 100 }, extend: 'repeat', stops: RGB3 },
  {
    name: 'linear, stops 0.2–0.7, repeat',
    gradient: { op: 'linear', p0: [300, 300], p1: [500, 420] },
    extend: 'repeat',
    stops: [stop(0.2, 0, 90, 200), stop(0.45, 250, 250, 250), stop(0.7, 230, 100, 0)],
  },
  {
    name: 'linear, reflect, see-through, skewed',
    gradient: { op: 'linear', p0: [400, 400], p1: [520, 480] },
    extend: 'reflect',
    stops: [stop(0, 20, 20, 20), stop(1, 40, 200, 120, 0.3)],
    transform: [0.9, 0.3, -0.45, 0.8, 200, 60],
  },
  {
    name: 'linear, reflect, stops 0.3–0.6',
    gradient: { op: 'linear', p0: [100, 900], p1: [300, 700] },
    extend: 'reflect',
    stops: [stop(0.3, 250, 200, 0), stop(0.6, 90, 0, 90)],
  },
];

/** The glyph of a case: its clip circle, the transform if any, the gradient over the glyph box. */
function caseGlyph(c: ExtendCase): ColorGlyph {
  return clippedGlyph((bounds) => ({ ...c.gradient, stops: c.stops, extend: c.extend, bounds }), c.transform);
}

/**
 * The gradient's t at a point of paint space, written out from the definition (not through extend.ts):
 * linear, the projection on p0→p1; radial, the largest root t of |p − c(t)| = r(t) with r(t) ≥ 0,
 * undefined where there is none (outside the cone).
 */
function gradientT(g: Gradient, x: number, y: number): number | undefined {
  if (g.op === 'linear') {
    const [dx, dy] = [g.p1[0] - g.p0[0], g.p1[1] - g.p0[1]];
    return ((x - g.p0[0]) * dx + (y - g.p0[1]) * dy) / (dx * dx + dy * dy);
  }
  const [cx, cy, dr] = [g.c1[0] - g.c0[0], g.c1[1] - g.c0[1], g.r1 - g.r0];
  const [px, py] = [x - g.c0[0], y - g.c0[1]];
  const a = cx * cx + cy * cy - dr * dr;
  const b = px * cx + py * cy + g.r0 * dr;
  const c = px * px + py * py - g.r0 * g.r0;
  const roots = Math.abs(a) < 1e-9 ? [c / (2 * b)] : b * b - a * c < 0 ? [] : [(b + Math.sqrt(b * b - a * c)) / a, (b - Math.sqrt(b * b - a * c)) / a];
  const ok = roots.filter((t) => Number.isFinite(t) && g.r0 + t * dr >= 0);
  return ok.length ? Math.max(...ok) : undefined;
}

/** The COLRv1 colour at a point: t extended (pad clamps, repeat wraps, reflect mirrors), then the colour line. */
function caseColour(c: ExtendCase, x: number, y: number): RGBA | undefined {
  const t = gradientT(c.gradient, x, y);
  return t === undefined ? undefined : colourOnLine(c.stops, c.extend, t);
}

const rasterCases = (): Buffer => rasterSheet(CASES.map(caseGlyph));
const pdfCases = (): Promise<Buffer> => pdfSheet(CASES.map(caseGlyph));

/**
 * Every pixel of each cell inside the clip (8 px in from its edge), against the gradient composited on
 * the backdrop at the pixel's centre, corners and edge midpoints (a renderer may sample anywhere in the
 * pixel, so a hard edge may fall either side), ± `tolerance` levels.
 */
async function readBack(png: Buffer | string, tolerance: number): Promise<Readback> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const result: Readback = { checked: 0, outside: [], worst: 0 };
  CASES.forEach((c, i) => {
    const toGlyph = invert(cellMatrix(i));
    const toPaint = c.transform ? invert(c.transform) : ([1, 0, 0, 1, 0, 0] as const);
    const [left, top] = [(i % COLUMNS) * CELL, Math.floor(i / COLUMNS) * CELL];
    for (let y = top; y < top + CELL; y++)
      for (let x = left; x < left + CELL; x++) {
        const [gx, gy] = apply(toGlyph, x + 0.5, y + 0.5);
        if (Math.hypot(gx - CLIP.cx, gy - CLIP.cy) > CLIP.r - 8 / SCALE) continue;
        const low = [255, 255, 255];
        const high = [0, 0, 0];
        for (const [dx, dy] of [
          [0.5, 0.5],
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
          [0.5, 0],
          [0.5, 1],
          [0, 0.5],
          [1, 0.5],
        ] as const) {
          const colour = caseColour(c, ...apply(toPaint, ...apply(toGlyph, x + dx, y + dy)));
          const a = colour?.[3] ?? 0;
          for (let k = 0; k < 3; k++) {
            const v = a * (colour?.[k] ?? 0) + (1 - a) * BACKDROP[k]!;
            low[k] = Math.min(low[k]!, v);
            high[k] = Math.max(high[k]!, v);
          }
        }
        const o = (y * info.width + x) * 3;
        const got = [data[o]!, data[o + 1]!, data[o + 2]!];
        const off = Math.max(...got.map((v, k) => Math.max(low[k]! - v, v - high[k]!, 0)));
        result.checked++;
        result.worst = Math.max(result.worst, off);
        if (off > tolerance) result.outside.push({ name: c.name, x, y, got, low: low.map(Math.round), high: high.map(Math.round) });
      }
  });
  return result;
}

const report = (r: Readback): string =>
  `${r.outside.length} of ${r.checked} pixels off (${[...new Set(r.outside.map((o) => o.name))].map((n) => `${n}: ${r.outside.filter((o) => o.name === n).length}`).join(', ')}) by more than the tolerance, worst ${r.worst.toFixed(1)} levels; first: ${JSON.stringify(r.outside.slice(0, 3))}`;

describe('linear and radial op lists with repeat and reflect in both painters', () => {
  it('png: each case shows its gradient (golden), pixel for pixel the COLRv1 colour at its t', async () => {
    const png = rasterCases();
    await assertGolden(png, { area: 'emoji', name: 'extend-ops', dir: join(REPO_ROOT, 'golden', 'emoji', 'extend-ops') });
    const r = await readBack(png, 3);
    expect(r.checked).toBeGreaterThan(200_000);
    expect(r.outside.length, report(r)).toBe(0);
  });

  it.skipIf(!pdfTools || !gsTool)(
    'pdf: vector shadings (a stitching function per repeated gradient) that poppler and Ghostscript draw like the png',
    async () => {
      const file = join(dir, 'ops.pdf');
      writeFileSync(file, await pdfCases());
      run('qpdf', ['--check', file]);
      const qdf = join(dir, 'ops-qdf.pdf');
      run('qpdf', ['--qdf', '--object-streams=disable', file, qdf]);
      const objects = readFileSync(qdf, 'latin1');
      // Vector: an axial or radial shading per case and per see-through case's soft mask, no image.
      expect(objects.match(/\/ShadingType [23]\b/g)?.length).toBe(CASES.length + 2);
      expect(objects.match(/\/FunctionType 3\b/g)?.length).toBeGreaterThanOrEqual(CASES.length);
      expect(run('pdfimages', ['-list', file]).trim().split('\n').length, 'the pdf holds images').toBe(2);

      run('pdftoppm', ['-r', '72', '-png', '-singlefile', file, join(dir, 'ops-poppler')]);
      // poppler and Ghostscript sample a shading's function into a table and interpolate between its
      // entries, so the hard edges of repeated copies blend over about a pixel: held to the png's envelope.
      const png = rasterCases();
      const poppler = await envelopeMismatch(png, join(dir, 'ops-poppler.png'));
      expect(poppler, `poppler: ${(poppler * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.001);
      run('gs', ['-q', '-sDEVICE=png16m', '-r72', '-dGraphicsAlphaBits=4', '-o', join(dir, 'ops-gs.png'), file]);
      const gs = await envelopeMismatch(png, join(dir, 'ops-gs.png'));
      expect(gs, `Ghostscript: ${(gs * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.001);
    },
  );
});

describe('a gradient resolved over the span its box takes', () => {
  const line = [stop(0, 255, 0, 0), stop(1, 0, 0, 255)];

  it('reflect runs every other copy backwards; repeat starts each copy afresh', () => {
    expect(extendLine(line, 'reflect', -0.5, 1.5).pieces).toEqual([
      { t0: -0.5, t1: 0, u0: 0.5, u1: 0 },
      { t0: 0, t1: 1, u0: 0, u1: 1 },
      { t0: 1, t1: 1.5, u0: 1, u1: 0.5 },
    ]);
    expect(extendedStops(extendLine(line, 'repeat', 0, 2)).map((s) => [s.offset, s.color[0]])).toEqual([
      [0, 255],
      [0.5, 0],
      [0.5, 255],
      [1, 0],
    ]);
  });

  it('takes the mean colour when the copies would be finer than any pixel', () => {
    const g = extendLine(line, 'repeat', 0, MAX_PERIODS + 1);
    expect(extendedStops(g).map((s) => s.color)).toEqual([
      [127.5, 0, 127.5, 1],
      [127.5, 0, 127.5, 1],
    ]);
  });

  it('a radial span starts where the radius reaches 0 and ends where the circles leave the box', () => {
    // Concentric, r = 100 + 100·t: the box's farthest corner (707 from the centre) is at t = 6.07; r = 0 at t = −1.
    const [from, to] = radialSpan([500, 500], 100, [500, 500], 200, BOX)!;
    expect(from).toBeCloseTo(-1, 9);
    expect(to).toBeGreaterThanOrEqual(6.07);
    expect(to).toBeLessThan(6.2);
    // One circle twice over paints nothing.
    expect(radialSpan([500, 500], 100, [500, 500], 100, BOX)).toBeUndefined();
  });
});

describe('a hostile colour line stays small', () => {
  it('1000 copies of a 20 000-stop line are drawn with at most 4096 stops, still the same ramp', () => {
    const n = 20000;
    const line = Array.from({ length: n }, (_, i) => ({ offset: i / (n - 1), color: [1 - i / (n - 1), 0, i / (n - 1), 1] as RGBA }));
    const g = extendLine(line, 'repeat', 0, 1000);
    const stops = extendedStops(g);
    expect(stops.length).toBeLessThanOrEqual(4096 + 2 * g.pieces.length);
    expect(stops.length).toBeGreaterThan(1000);
    // Halfway along a copy the ramp is still half red, half blue.
    const mid = stops.find((s) => Math.abs(s.offset - 0.5005) < 0.0003) ?? stops[Math.floor(stops.length / 2)]!;
    expect(mid.color[0] + mid.color[2]).toBeCloseTo(1, 2);
  });
});
