// COLRv1 sweep (conic) gradients in png and pdf. The COLRv1 test font of googlefonts/color-fonts
// (test/fixtures/colr) has 72 sweep glyphs: pad, repeat and reflect over arcs forwards, backwards,
// negative and past a turn. Its png is compared with Chromium (Skia's own COLRv1 painter), its pdf,
// rasterised by poppler and by Ghostscript, with the png. Op lists recorded here add what the font
// lacks (see-through stops, hard stops, a skewed sweep, a centre off the glyph, start = end); both
// painters' pixels are checked against the colour the COLRv1 definition gives at each angle.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepSegments } from '../src/paint/sweep.js';
import type { RGBA } from '../src/scene/scene.js';
import type { ColorGlyph, ColorMatrix, ColorStopOp, GradientExtend } from '../src/text/colr.js';
import {
  againstChromium,
  apply,
  BACKDROP,
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

const { engine, dir, cleanup } = colrTestEngine('imprint-sweep-');
afterAll(cleanup);

// ── The font's sweep glyphs: U+F0200.. in rows of 12 (narrow stops: pad, reflect, repeat; then wide) ──

const ROWS = Array.from({ length: 6 }, (_, r) => String.fromCodePoint(...Array.from({ length: 12 }, (_, i) => 0xf0200 + r * 12 + i)));

/** The 72 glyphs at `size` px, one row of 12 per text box. */
const fontGrid = (size: number) => colrFontGrid(ROWS, 12, size);

const pdfTools = toolsAvailable(['pdftoppm', 'qpdf'], 'sweep pdf tests need poppler and qpdf');
const gsTool = toolsAvailable(['gs'], 'sweep pdf tests compare with Ghostscript');

describe('the COLRv1 test font’s sweep glyphs', () => {
  it('png: all 72 in the golden picture', async () => {
    const { bytes } = await engine.render({ design: fontGrid(40), format: 'png' });
    await assertGolden(bytes, { area: 'emoji', name: 'colr-sweep', dir: join(REPO_ROOT, 'golden', 'emoji', 'colr-sweep') });
  });

  it.skipIf(!toolsAvailable(['chromium'], 'comparing sweeps with Chromium needs it'))(
    'png: match Chromium drawing the same font file (Skia’s COLRv1 painter)',
    async () => {
      const size = 40;
      const { mismatch, shot } = await againstChromium(engine, dir, ROWS, 12, size);
      expect(mismatch, `${(mismatch * 100).toFixed(3)} % of the pixels differ from Chromium's (${shot})`).toBeLessThanOrEqual(0.0005);
    },
  );

  it.skipIf(!pdfTools || !gsTool)('pdf: vector shadings that poppler and Ghostscript draw like the png', async () => {
    // 80 px: poppler evaluates a function shading at pixel corners, Skia at pixel centres, and at
    // 40 px the half-pixel shift alone moves the narrow repeat stripes near the centres out of the envelope.
    const design = fontGrid(80);
    const { file, poppler, gs } = await pdfAgainstPng(engine, dir, design);
    expect(run('pdfimages', ['-list', file]).trim().split('\n').length, 'the pdf holds images').toBe(2);
    expect(poppler, `poppler: ${(poppler * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.004);
    expect(gs, `Ghostscript: ${(gs * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.002);
  });
});

// ── Recorded op lists, painted by both painters and read back ──

const deg = (d: number): number => (d * Math.PI) / 180;
interface SweepCase {
  name: string;
  center: [number, number];
  start: number;
  end: number;
  extend: GradientExtend;
  stops: ColorStopOp[];
  /** Paint space → glyph space, as a PaintTransform above the sweep. */
  transform?: ColorMatrix;
}

const CASES: SweepCase[] = [
  {
    name: 'full turn, see-through stops',
    center: [500, 500],
    start: 0,
    end: 2 * Math.PI,
    extend: 'pad',
    stops: [stop(0, 230, 30, 30), stop(0.3, 20, 40, 230, 0.2), stop(0.65, 20, 160, 60, 0.7), stop(1, 230, 30, 30)],
  },
  {
    name: 'arc 30°–200°, pad',
    center: [500, 500],
    start: deg(30),
    end: deg(200),
    extend: 'pad',
    stops: [stop(0, 250, 140, 0), stop(0.5, 120, 0, 160), stop(1, 0, 150, 150)],
  },
  {
    name: 'arc 10°–70°, repeat',
    center: [500, 500],
    start: deg(10),
    end: deg(70),
    extend: 'repeat',
    stops: [stop(0, 0, 0, 0), stop(0.7, 255, 255, 255), stop(1, 200, 0, 0)],
  },
  { name: 'arc −45°–45°, reflect', center: [500, 500], start: deg(-45), end: deg(45), extend: 'reflect', stops: [stop(0, 10, 20, 90), stop(1, 240, 200, 40)] },
  {
    name: 'backwards 300°–120°, pad',
    center: [500, 500],
    start: deg(300),
    end: deg(120),
    extend: 'pad',
    stops: [stop(0, 220, 0, 0), stop(0.5, 0, 0, 220), stop(1, 0, 180, 0)],
  },
  {
    name: 'skewed and scaled',
    center: [450, 480],
    start: deg(20),
    end: deg(290),
    extend: 'pad',
    stops: [stop(0, 255, 200, 0), stop(0.5, 200, 0, 120, 0.5), stop(1, 0, 90, 200)],
    transform: [0.9, 0.3, -0.45, 0.8, 200, 60],
  },
  {
    name: 'centre off the glyph, repeat',
    center: [-150, 1150],
    start: deg(270),
    end: deg(280),
    extend: 'repeat',
    stops: [stop(0, 250, 250, 250), stop(1, 60, 60, 200)],
  },
  {
    name: 'hard stops, repeat, see-through',
    center: [500, 500],
    start: 0,
    end: deg(45),
    extend: 'repeat',
    stops: [stop(0, 200, 0, 0), stop(0.5, 200, 0, 0), stop(0.5, 0, 0, 255, 0.3), stop(1, 0, 0, 255, 0.3)],
  },
  { name: 'start = end, pad', center: [500, 500], start: deg(100), end: deg(100), extend: 'pad', stops: [stop(0, 0, 120, 0), stop(1, 130, 0, 130)] },
  {
    name: 'start = end, repeat: nothing',
    center: [500, 500],
    start: deg(100),
    end: deg(100),
    extend: 'repeat',
    stops: [stop(0, 0, 120, 0), stop(1, 130, 0, 130)],
  },
];

/** The glyph of a case: its clip circle, the transform if any, the sweep over the glyph box. */
function caseGlyph(c: SweepCase): ColorGlyph {
  return clippedGlyph((bounds) => ({ op: 'sweep', center: c.center, start: c.start, end: c.end, stops: c.stops, extend: c.extend, bounds }), c.transform);
}

/**
 * The COLRv1 sweep at a point of paint space, written out from the definition (not through
 * sweep.ts): the angle in [0, 360°) counter-clockwise from +x, t = (angle − start) / (end − start),
 * extended, then the colour line; start = end pads the first colour before and the last after.
 */
function sweepColour(c: SweepCase, x: number, y: number): RGBA | undefined {
  let angle = Math.atan2(y - c.center[1], x - c.center[0]);
  if (angle < 0) angle += 2 * Math.PI;
  const first = c.stops[0]!.color;
  const last = c.stops[c.stops.length - 1]!.color;
  if (c.start === c.end) return c.extend === 'pad' ? (angle < c.start ? first : last) : undefined;
  return colourOnLine(c.stops, c.extend, (angle - c.start) / (c.end - c.start));
}

const rasterCases = (): Buffer => rasterSheet(CASES.map(caseGlyph));
const pdfCases = (): Promise<Buffer> => pdfSheet(CASES.map(caseGlyph));

/**
 * Every pixel of each cell inside the clip (8 px in from its edge) and 8 px or more from the sweep's
 * centre, against the sweep composited on the backdrop at the pixel's centre and ±½ px (a renderer
 * may sample anywhere in the pixel, so a hard edge may fall either side), ± `tolerance` levels.
 */
async function readBack(png: Buffer | string, tolerance: number): Promise<Readback> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const result: Readback = { checked: 0, outside: [], worst: 0 };
  CASES.forEach((c, i) => {
    const toGlyph = invert(cellMatrix(i));
    const toPaint = c.transform ? invert(c.transform) : ([1, 0, 0, 1, 0, 0] as const);
    const [left, top] = [(i % COLUMNS) * CELL, Math.floor(i / COLUMNS) * CELL];
    const centre = apply(cellMatrix(i), ...apply(c.transform ?? [1, 0, 0, 1, 0, 0], ...c.center));
    for (let y = top; y < top + CELL; y++)
      for (let x = left; x < left + CELL; x++) {
        const [gx, gy] = apply(toGlyph, x + 0.5, y + 0.5);
        if (Math.hypot(gx - CLIP.cx, gy - CLIP.cy) > CLIP.r - 8 / SCALE) continue;
        if (Math.hypot(x + 0.5 - centre[0], y + 0.5 - centre[1]) < 8) continue;
        const low = [255, 255, 255];
        const high = [0, 0, 0];
        for (const [dx, dy] of [
          [0.5, 0.5],
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
        ] as const) {
          const colour = sweepColour(c, ...apply(toPaint, ...apply(toGlyph, x + dx, y + dy)));
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
  `${r.outside.length} of ${r.checked} pixels off by more than the tolerance, worst ${r.worst.toFixed(1)} levels; first: ${JSON.stringify(r.outside.slice(0, 3))}`;

describe('sweep op lists in both painters', () => {
  it('png: each case shows its sweep (golden), pixel for pixel the COLRv1 colour at its angle', async () => {
    const png = rasterCases();
    await assertGolden(png, { area: 'emoji', name: 'sweep-ops', dir: join(REPO_ROOT, 'golden', 'emoji', 'sweep-ops') });
    const r = await readBack(png, 3);
    expect(r.checked).toBeGreaterThan(150_000);
    expect(r.outside.length, report(r)).toBe(0);
  });

  it.skipIf(!pdfTools || !gsTool)('pdf: vector shadings; poppler shows the same colours pixel for pixel, Ghostscript matches the png', async () => {
    const file = join(dir, 'ops.pdf');
    writeFileSync(file, await pdfCases());
    run('qpdf', ['--check', file]);
    // Vector: a function shading per sweep (and one per see-through sweep's soft mask), no image.
    const qdf = join(dir, 'ops-qdf.pdf');
    run('qpdf', ['--qdf', '--object-streams=disable', file, qdf]);
    const objects = readFileSync(qdf, 'latin1');
    expect(objects.match(/\/ShadingType 1\b/g)?.length).toBe(9 + 3);
    expect(objects).toContain('atan');
    expect(run('pdfimages', ['-list', file]).trim().split('\n').length, 'the pdf holds images').toBe(2);

    run('pdftoppm', ['-r', '72', '-png', '-singlefile', file, join(dir, 'ops-poppler')]);
    const poppler = await readBack(join(dir, 'ops-poppler.png'), 3);
    expect(poppler.outside.length, `poppler: ${report(poppler)}`).toBe(0);
    // Ghostscript approximates function shadings by subdividing them: a few stray pixels near the
    // centre of a see-through sweep (0.05 %), so it is held to the png's envelope instead.
    run('gs', ['-q', '-sDEVICE=png16m', '-r72', '-dGraphicsAlphaBits=4', '-o', join(dir, 'ops-gs.png'), file]);
    const gs = await envelopeMismatch(rasterCases(), join(dir, 'ops-gs.png'));
    expect(gs, `Ghostscript: ${(gs * 100).toFixed(3)} % of the pixels differ from the png`).toBeLessThanOrEqual(0.001);
  });
});

describe('a sweep resolved over the turn', () => {
  const stops = [stop(0, 255, 0, 0), stop(1, 0, 0, 255)];

  it('covers the whole turn, in order, whatever the angles and extend', () => {
    for (const [start, end] of [
      [0, 360],
      [60, 300],
      [90, 0],
      [-45, 45],
      [440, 270],
      [-180, 540],
    ] as const)
      for (const extend of ['pad', 'repeat', 'reflect'] as const) {
        const s = sweepSegments(deg(start), deg(end), stops, extend);
        expect(s[0]!.from, `${start}–${end} ${extend}`).toBe(0);
        expect(s[s.length - 1]!.to).toBeCloseTo(2 * Math.PI, 9);
        for (let i = 1; i < s.length; i++) expect(s[i]!.from).toBeCloseTo(s[i - 1]!.to, 9);
      }
  });

  it('with start = end pads the two colours, or paints nothing when repeated', () => {
    expect(sweepSegments(1, 1, stops, 'pad').map((s) => [s.from, s.to, s.c0, s.c1])).toEqual([
      [0, 1, [255, 0, 0, 1], [255, 0, 0, 1]],
      [1, 2 * Math.PI, [0, 0, 255, 1], [0, 0, 255, 1]],
    ]);
    expect(sweepSegments(1, 1, stops, 'repeat')).toEqual([]);
    expect(sweepSegments(1, 1, stops, 'reflect')).toEqual([]);
  });

  it('takes the mean colour when repeats would be finer than any pixel (a font may ask for 32768)', () => {
    const s = sweepSegments(0, deg(180 / 16384), stops, 'repeat');
    expect(s).toEqual([{ from: 0, to: 2 * Math.PI, c0: [127.5, 0, 127.5, 1], c1: [127.5, 0, 127.5, 1] }]);
    expect(sweepSegments(0, deg(1), stops, 'repeat').length).toBe(360);
  });
});

describe('sweeps of a hostile colour line stay small', () => {
  /** A line of `n` stops from red to blue, evenly spaced. */
  const ramp = (n: number): ColorStopOp[] =>
    Array.from({ length: n }, (_, i) => ({ offset: i / (n - 1), color: [1 - i / (n - 1), 0, i / (n - 1), 1] as RGBA }));

  it.each([
    ['pad with 65 535 stops', 0, Math.PI, 65535, 'pad'],
    ['repeat 700 times with 1 000 stops', 0, (2 * Math.PI) / 700, 1000, 'repeat'],
    ['reflect 720 times with 24 000 stops', 0, (2 * Math.PI) / 720, 24000, 'reflect'],
  ] as const)('%s: at most 4096 segments', (_, start, end, n, extend) => {
    const segments = sweepSegments(start, end, ramp(n), extend);
    expect(segments.length).toBeGreaterThan(1);
    expect(segments.length).toBeLessThanOrEqual(4096);
    // Still the same ramp: halfway along the first copy of the line it is half red, half blue.
    const quarter = start + (end - start) / 2;
    const seg = segments.find((s) => s.from <= quarter && s.to >= quarter)!;
    const k = (quarter - seg.from) / (seg.to - seg.from);
    expect(seg.c0[0] + k * (seg.c1[0] - seg.c0[0])).toBeCloseTo(0.5, 1);
  });
});
