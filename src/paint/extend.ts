// Linear and radial gradients of colour glyphs with COLRv1's pad, repeat and reflect, resolved over the
// span of the gradient parameter t that the glyph's box takes: pieces of the colour line (forwards,
// mirrored, or held) that the raster painter turns into stops and the pdf painter into a stitching
// function, both over the gradient re-parametrised to that span, so both draw the same thing.
import type { RGBA } from '../scene/scene.js';
import type { ColorBox, ColorOp, ColorStopOp, GradientExtend } from '../text/colr.js';

/** Over t0..t1 (t0 < t1), the colour line read from u0 to u1 (u0 > u1 runs it backwards; u0 = u1 holds one colour). */
export interface LinePiece {
  t0: number;
  t1: number;
  u0: number;
  u1: number;
}

/** A gradient over the span from..to of t: its geometry at both ends and the pieces that cover the span, in order. */
export interface ExtendedGradient {
  from: number;
  to: number;
  /** The colour line, stops on 0..1 (first and last colours held beyond them). */
  stops: readonly ColorStopOp[];
  pieces: LinePiece[];
}

/**
 * More repeats than this across the glyph are stripes finer than any pixel of a glyph at a sane size:
 * the gradient then takes the colour line's mean colour (as sweep.ts does over a turn).
 */
export const MAX_PERIODS = 1024;

/**
 * Most stops a gradient may be drawn with (copies × the line's stops). A font's colour line may hold
 * 65535 stops; past this budget the line is resampled to fewer, evenly spaced stops, which no eye can
 * tell apart at glyph sizes, so a hostile font cannot make a paint (or a pdf function) huge.
 */
export const MAX_STOPS = 4096;

type Interval = [number, number];

/** {T : a·T² + 2b·T + c ≤ 0} as sorted disjoint intervals (ends may be infinite). */
function atMost(a: number, b: number, c: number, scale: number): Interval[] {
  if (Math.abs(a) <= 1e-9 * scale) {
    if (b === 0) return c <= 0 ? [[-Infinity, Infinity]] : [];
    const root = -c / (2 * b);
    return b > 0 ? [[-Infinity, root]] : [[root, Infinity]];
  }
  const disc = b * b - a * c;
  if (disc < 0) return a > 0 ? [] : [[-Infinity, Infinity]];
  const s = Math.sqrt(disc);
  const [lo, hi] = [(-b - s) / a, (-b + s) / a].sort((p, q) => p - q) as Interval;
  return a > 0
    ? [[lo, hi]]
    : [
        [-Infinity, lo],
        [hi, Infinity],
      ];
}

function intersect(p: readonly Interval[], q: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const [a0, a1] of p)
    for (const [b0, b1] of q) {
      const [lo, hi] = [Math.max(a0, b0), Math.min(a1, b1)];
      if (lo <= hi) out.push([lo, hi]);
    }
  return out.sort((x, y) => x[0] - y[0]);
}

const union = (p: readonly Interval[], q: readonly Interval[]): Interval[] => [...p, ...q].sort((x, y) => x[0] - y[0]);

/** The span of t over the box for an axial gradient: the box's corners projected on p0→p1. Undefined when p0 = p1. */
export function linearSpan(p0: readonly [number, number], p1: readonly [number, number], [x0, y0, x1, y1]: ColorBox): Interval | undefined {
  const [dx, dy] = [p1[0] - p0[0], p1[1] - p0[1]];
  const len2 = dx * dx + dy * dy;
  if (!(len2 > 0)) return undefined;
  const ts = [x0, x1].flatMap((x) => [y0, y1].map((y) => ((x - p0[0]) * dx + (y - p0[1]) * dy) / len2));
  return [Math.min(...ts), Math.max(...ts)];
}

/**
 * A span of t holding every t the box's points take in a two-circle gradient: circle(t) centred at
 * c0 + t·(c1 − c0) with radius r0 + t·(r1 − r0), and a point's t the largest whose circle passes through
 * it with a radius ≥ 0 (canvas, pdf and COLRv1 alike; radii may be negative at t = 0 or 1, only the
 * part of the family with r ≥ 0 paints). Circle(t) can pass through the box only if it meets the box's
 * circumscribed disk (centre m, radius h): |c(t) − m| − h ≤ r(t) ≤ |c(t) − m| + h, two quadratic
 * inequalities. An end left open (the circles tend to a line through the box: |c1 − c0| = |r1 − r0|)
 * is closed MAX_PERIODS beyond the other. Undefined when no circle meets the box, or all are one.
 */
export function radialSpan(
  c0: readonly [number, number],
  r0: number,
  c1: readonly [number, number],
  r1: number,
  [x0, y0, x1, y1]: ColorBox,
): Interval | undefined {
  const [dx, dy, dr] = [c1[0] - c0[0], c1[1] - c0[1], r1 - r0];
  const scale = dx * dx + dy * dy + dr * dr;
  if (!(scale > 0)) return undefined;
  const [mx, my, h] = [(x0 + x1) / 2, (y0 + y1) / 2, Math.hypot(x1 - x0, y1 - y0) / 2];
  const [ux, uy] = [c0[0] - mx, c0[1] - my];
  const a = dx * dx + dy * dy - dr * dr;
  const ud = ux * dx + uy * dy;
  const uu = ux * ux + uy * uy;
  // |u + t·d| ≤ r(t) + h (r(t) + h ≥ 0 follows from r(t) ≥ 0 below).
  const near = atMost(a, ud - (r0 + h) * dr, uu - (r0 + h) ** 2, scale);
  // r(t) − h ≤ |u + t·d|: holds where r(t) ≤ h, else squared.
  const far = union(atMost(0, dr / 2, r0 - h, scale), atMost(-a, -(ud - (r0 - h) * dr), -(uu - (r0 - h) ** 2), scale));
  const painted = atMost(0, -dr / 2, -r0, scale);
  const all = intersect(intersect(near, far), painted);
  if (all.length === 0) return undefined;
  let [lo, hi] = [all[0]![0], Math.max(...all.map((i) => i[1]))];
  if (!Number.isFinite(lo) && !Number.isFinite(hi)) return undefined;
  if (!Number.isFinite(lo)) lo = hi - MAX_PERIODS;
  if (!Number.isFinite(hi)) hi = lo + MAX_PERIODS;
  return [lo, hi];
}

export const lerp = (a: RGBA, b: RGBA, k: number): RGBA => [
  a[0] + k * (b[0] - a[0]),
  a[1] + k * (b[1] - a[1]),
  a[2] + k * (b[2] - a[2]),
  a[3] + k * (b[3] - a[3]),
];

/** The line's colour at u; at a hard stop (two stops at u) the one before it, or after it with `after`. */
export function lineColour(stops: readonly ColorStopOp[], u: number, after = false): RGBA {
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  if (u < first.offset || (u === first.offset && !after)) return first.color;
  if (u > last.offset || (u === last.offset && after)) return last.color;
  // The last stop before u (at u too, with `after`), at most the second to last, by binary search.
  let [lo, hi] = [0, stops.length - 2];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const o = stops[mid]!.offset;
    if (o < u || (after && o === u)) lo = mid;
    else hi = mid - 1;
  }
  const [a, b] = [stops[lo]!, stops[lo + 1]!];
  const span = b.offset - a.offset;
  return span > 0 ? lerp(a.color, b.color, Math.min(1, Math.max(0, (u - a.offset) / span))) : after ? b.color : a.color;
}

/** `n` (≥ 2) evenly spaced stops over the line's own range, read from it. */
export function resampledLine(stops: readonly ColorStopOp[], n: number): ColorStopOp[] {
  const [lo, hi] = [stops[0]!.offset, stops[stops.length - 1]!.offset];
  return Array.from({ length: n }, (_, i) => {
    const offset = lo + ((hi - lo) * i) / (n - 1);
    return { offset, color: lineColour(stops, offset) };
  });
}

/** The mean colour of the line over 0..1 (the first and last colours held beyond its stops). */
export function meanColour(stops: readonly ColorStopOp[]): RGBA {
  const sum: [number, number, number, number] = [0, 0, 0, 0];
  const add = (c: RGBA, w: number): void => {
    for (let k = 0; k < 4; k++) sum[k]! += c[k]! * w;
  };
  add(stops[0]!.color, Math.max(0, stops[0]!.offset));
  for (let i = 0; i + 1 < stops.length; i++) add(lerp(stops[i]!.color, stops[i + 1]!.color, 0.5), stops[i + 1]!.offset - stops[i]!.offset);
  add(stops[stops.length - 1]!.color, Math.max(0, 1 - stops[stops.length - 1]!.offset));
  return sum;
}

/**
 * The pieces of the colour line over from..to under `extend`: pad holds the first colour before t = 0
 * and the last after t = 1; repeat reads u = t − ⌊t⌋; reflect runs every other copy backwards (u = 1 −
 * (t − k) for odd k). Beyond MAX_PERIODS copies the whole span takes the line's mean colour.
 */
export function extendLine(stops: readonly ColorStopOp[], extend: GradientExtend, from: number, to: number): ExtendedGradient {
  const pieces: LinePiece[] = [];
  if (extend !== 'pad' && to - from > MAX_PERIODS) {
    const mean = meanColour(stops);
    return {
      from,
      to,
      stops: [
        { offset: 0, color: mean },
        { offset: 1, color: mean },
      ],
      pieces: [{ t0: from, t1: to, u0: 0, u1: 0 }],
    };
  }
  if (extend === 'pad') {
    for (const [t0, t1, u0, u1] of [
      [from, Math.min(0, to), 0, 0],
      [Math.max(0, from), Math.min(1, to), Math.max(0, from), Math.min(1, to)],
      [Math.max(1, from), to, 1, 1],
    ] as const)
      if (t1 > t0) pieces.push({ t0, t1, u0, u1 });
  } else {
    for (let k = Math.floor(from); k < to; k++) {
      const [t0, t1] = [Math.max(k, from), Math.min(k + 1, to)];
      if (!(t1 > t0)) continue;
      const backwards = extend === 'reflect' && ((k % 2) + 2) % 2 === 1;
      pieces.push(backwards ? { t0, t1, u0: 1 - (t0 - k), u1: 1 - (t1 - k) } : { t0, t1, u0: t0 - k, u1: t1 - k });
    }
  }
  const budget = Math.floor(MAX_STOPS / pieces.length) - 2;
  return { from, to, stops: stops.length > budget ? resampledLine(stops, Math.max(2, budget)) : stops, pieces };
}

/** The gradient as stops on from..to (offset (t − from) / (to − from)), for a canvas gradient over that span; equal offsets are hard edges. */
export function extendedStops(g: ExtendedGradient): ColorStopOp[] {
  const span = g.to - g.from;
  const out: ColorStopOp[] = [];
  const at = (t: number): number => Math.min(1, Math.max(0, (t - g.from) / span));
  for (const p of g.pieces) {
    if (p.u0 === p.u1) {
      const c = p.u0 <= 0 ? g.stops[0]!.color : p.u0 >= 1 ? g.stops[g.stops.length - 1]!.color : lineColour(g.stops, p.u0);
      out.push({ offset: at(p.t0), color: c }, { offset: at(p.t1), color: c });
      continue;
    }
    const forwards = p.u1 > p.u0;
    const tOf = (u: number): number => p.t0 + ((u - p.u0) / (p.u1 - p.u0)) * (p.t1 - p.t0);
    // The line's own stops inside the piece, in the order the piece reads them.
    const [lo, hi] = forwards ? [p.u0, p.u1] : [p.u1, p.u0];
    const inner = g.stops.filter((s) => s.offset > lo && s.offset < hi);
    if (!forwards) inner.reverse();
    out.push({ offset: at(p.t0), color: lineColour(g.stops, p.u0, forwards) });
    for (const s of inner) out.push({ offset: at(tOf(s.offset)), color: s.color });
    out.push({ offset: at(p.t1), color: lineColour(g.stops, p.u1, !forwards) });
  }
  return out;
}

/** Whether the painters must resolve this gradient here (repeat, reflect, or a radius below 0) rather than pad it natively. */
export function needsExtending(op: Extract<ColorOp, { op: 'linear' | 'radial' }>): boolean {
  return op.extend !== 'pad' || (op.op === 'radial' && (op.r0 < 0 || op.r1 < 0));
}

/** A linear or radial op's geometry at t (radius clamped at 0 against rounding at the span's end). */
export function geometryAt(op: Extract<ColorOp, { op: 'linear' | 'radial' }>, t: number): [number, number, number] {
  if (op.op === 'linear') return [op.p0[0] + t * (op.p1[0] - op.p0[0]), op.p0[1] + t * (op.p1[1] - op.p0[1]), 0];
  return [op.c0[0] + t * (op.c1[0] - op.c0[0]), op.c0[1] + t * (op.c1[1] - op.c0[1]), Math.max(0, op.r0 + t * (op.r1 - op.r0))];
}

/** The op resolved over its bounds, or undefined when it paints nothing there. */
export function extendGradient(op: Extract<ColorOp, { op: 'linear' | 'radial' }>): ExtendedGradient | undefined {
  if (op.stops.length === 0) return undefined;
  const span = op.op === 'linear' ? linearSpan(op.p0, op.p1, op.bounds) : radialSpan(op.c0, op.r0, op.c1, op.r1, op.bounds);
  if (!span) return undefined;
  let [from, to] = span;
  // One circle (or line) alone meets the box: widen the span so the gradient has a length, within r ≥ 0.
  if (!(to - from > 1e-9)) {
    const widened =
      op.op === 'radial' ? radialSpan(op.c0, op.r0, op.c1, op.r1, [op.bounds[0] - 1, op.bounds[1] - 1, op.bounds[2] + 1, op.bounds[3] + 1]) : undefined;
    [from, to] = widened && widened[1] - widened[0] > 1e-9 ? widened : [from - 1e-3, to + 1e-3];
  }
  return extendLine(op.stops, op.extend, from, to);
}
