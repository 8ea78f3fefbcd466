// Sweep (conic) gradients of colour glyphs resolved over one turn: the COLRv1 colour line, its extend
// mode and its start and end angles become angular segments with linear colour, which the raster
// painter turns into conic stops and the pdf painter into a function shading, so both draw the same thing.
import type { RGBA } from '../scene/scene.js';
import type { ColorStopOp, GradientExtend } from '../text/colr.js';
import { lerp, MAX_STOPS, meanColour, resampledLine } from './extend.js';

/** Colour from `c0` at angle `from` to `c1` at `to` (radians, 0 ≤ from ≤ to ≤ 2π), linear in the angle between. */
export interface SweepSegment {
  from: number;
  to: number;
  c0: RGBA;
  c1: RGBA;
}

const TURN = 2 * Math.PI;

/**
 * More repeats than this in one turn are stripes finer than any pixel (a font's angles are F2DOT14, so a
 * span can be 0.01°, 32768 stripes): the turn then takes the colour line's mean colour instead.
 */
const MAX_PERIODS = 720;

/** The colour at `u` on the piece of the colour line that holds `at` (so a hard stop is read from the right side). */
function colourAt(stops: readonly ColorStopOp[], u: number, at: number): RGBA {
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  if (at <= first.offset) return first.color;
  if (at >= last.offset) return last.color;
  // The last stop at or before `at` (at most the second to last), by binary search: lines can be long.
  let [lo, hi] = [0, stops.length - 2];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (stops[mid]!.offset <= at) lo = mid;
    else hi = mid - 1;
  }
  const [a, b] = [stops[lo]!, stops[lo + 1]!];
  const span = b.offset - a.offset;
  return span > 0 ? lerp(a.color, b.color, Math.min(1, Math.max(0, (u - a.offset) / span))) : b.color;
}

/**
 * The sweep of a colour glyph over the turn, as the COLRv1 spec and its reference painters (HarfBuzz's
 * cairo painter, Skia) define it: at angle θ in [0, 2π), counter-clockwise from +x in the paint's space,
 * the colour line is read at t = (θ − start) / (end − start), extended beyond 0..1 by `extend` (so
 * end < start runs clockwise). With start = end, pad gives the first colour before the angle and the last
 * after it, and repeat and reflect paint nothing (an empty list). Segments are sorted and cover the turn.
 */
export function sweepSegments(start: number, end: number, line: readonly ColorStopOp[], extend: GradientExtend): SweepSegment[] {
  let stops = line;
  if (stops.length === 0) return [];
  const first = stops[0]!.color;
  const last = stops[stops.length - 1]!.color;
  const span = end - start;
  if (span === 0 || !Number.isFinite(span)) {
    if (extend !== 'pad') return [];
    const at = Math.min(TURN, Math.max(0, start));
    return [
      { from: 0, to: at, c0: first, c1: first },
      { from: at, to: TURN, c0: last, c1: last },
    ].filter((s) => s.to > s.from);
  }
  if (extend !== 'pad' && TURN / Math.abs(span) > MAX_PERIODS) {
    const mean = meanColour(stops);
    return [{ from: 0, to: TURN, c0: mean, c1: mean }];
  }
  const [tStart, tEnd] = [-start / span, (TURN - start) / span];
  const copies = extend === 'pad' ? 1 : Math.ceil(Math.abs(tEnd - tStart)) + 3;
  // At most MAX_STOPS segments, however long the font's colour line (see extend.ts).
  if (copies * (stops.length + 2) > MAX_STOPS) stops = resampledLine(stops, Math.max(2, Math.floor(MAX_STOPS / copies) - 2));
  // The turn's own ends map back exactly (start + t·span would leave a rounding error at 0 and 2π).
  const thetaOf = (t: number): number => (t === tStart ? 0 : t === tEnd ? TURN : start + t * span);
  const [t0, t1] = [tStart, tEnd].sort((a, b) => a - b) as [number, number];
  // Where the colour stops being one linear piece: every stop of every copy of the line in t0..t1.
  const offsets = [0, 1, ...stops.map((s) => s.offset)];
  const breaks = new Set<number>([t0, t1]);
  if (extend === 'pad') {
    for (const o of offsets) if (o > t0 && o < t1) breaks.add(o);
  } else {
    for (let k = Math.floor(t0) - 1; k <= Math.ceil(t1); k++)
      for (const o of offsets) {
        const t = extend === 'repeat' || k % 2 === 0 ? k + o : k + 1 - o;
        if (t > t0 && t < t1) breaks.add(t);
      }
  }
  const ts = [...breaks].sort((a, b) => a - b);
  const segments: SweepSegment[] = [];
  for (let i = 0; i + 1 < ts.length; i++) {
    const [ta, tb] = [ts[i]!, ts[i + 1]!];
    if (tb <= ta) continue;
    // The line position u of t on the copy of the line that holds this piece.
    const k = Math.floor((ta + tb) / 2);
    const mirrored = extend === 'reflect' && ((k % 2) + 2) % 2 === 1;
    const u = (t: number): number => (extend === 'pad' ? Math.min(1, Math.max(0, t)) : mirrored ? 1 - (t - k) : t - k);
    const um = u((ta + tb) / 2);
    const [ca, cb] = [colourAt(stops, u(ta), um), colourAt(stops, u(tb), um)];
    const [a, b] = [thetaOf(ta), thetaOf(tb)];
    const from = Math.min(TURN, Math.max(0, Math.min(a, b)));
    const to = Math.min(TURN, Math.max(0, Math.max(a, b)));
    if (to > from) segments.push(a <= b ? { from, to, c0: ca, c1: cb } : { from, to, c0: cb, c1: ca });
  }
  return segments.sort((p, q) => p.from - q.from);
}

/** The segments as stops of a conic gradient starting at angle 0 (offset = angle / 2π; a shared offset is a hard edge). */
export function sweepConicStops(segments: readonly SweepSegment[]): ColorStopOp[] {
  return segments.flatMap((s) => [
    { offset: s.from / TURN, color: s.c0 },
    { offset: s.to / TURN, color: s.c1 },
  ]);
}
