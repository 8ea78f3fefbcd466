// Sweep gradients in pdf, which has no conic shading: a function-based shading (type 1) whose colour
// function (type 4, PostScript calculator) takes the angle of each point around the centre with `atan`
// and reads sweep.ts's segments through a binary search, so the viewer evaluates the exact sweep.
//
// Why not a triangle mesh (type 4 shading, a fan of thin Gouraud wedges): poppler fills meshes without
// anti-aliasing against the clip (the glyph's edge comes out jagged) and draws them wrongly inside a
// luminosity soft mask (the stop alphas), while it evaluates a function shading per pixel, anti-aliased
// (pdftoppm 22.12). Ghostscript subdivides it finely; pdf.js and MuPDF sample it into a mesh of their
// own, coarser near the centre.
import type { RGBA } from '../scene/scene.js';
import type { ColorBox } from '../text/colr.js';
import type { SweepSegment } from './sweep.js';

const TURN = 2 * Math.PI;

/** Six decimals, never exponent notation (which the calculator's syntax has not). */
const ps = (v: number): string => {
  const r = Math.round(v * 1e6) / 1e6;
  return Object.is(r, -0) ? '0' : r.toFixed(6).replace(/\.?0+$/, '');
};

/** A type 1 shading's entries (without ColorSpace and Function) and its type 4 function's dictionary and program. */
export interface SweepShading {
  shading: Record<string, unknown>;
  fn: Record<string, unknown>;
  program: string;
}

/**
 * The sweep around `center` over `bounds` (the shading's domain: the rectangle it paints), its colour
 * per point the segments' colour at the point's angle; `channels` picks the components (rgb in 0..1
 * for the colour, alpha for a soft mask). Undefined when there is nothing to paint.
 */
export function sweepShading(
  center: readonly [number, number],
  bounds: ColorBox,
  segments: readonly SweepSegment[],
  channels: (c: RGBA) => number[],
): SweepShading | undefined {
  const [x0, y0, x1, y1] = bounds;
  if (segments.length === 0 || !(x1 > x0 && y1 > y0)) return undefined;
  // A segment with the fraction u of the turn on the stack leaves its colour's components there.
  const leaf = (s: SweepSegment): string => {
    const [a, b] = [channels(s.c0), channels(s.c1)];
    const width = (s.to - s.from) / TURN;
    if (width < 1e-6 || a.every((v, k) => v === b[k])) return `pop ${a.map(ps).join(' ')}`;
    const mix = a.map((v, k) => `${ps(b[k]! - v)} mul ${ps(v)} add`);
    const head = `${ps(s.from / TURN)} sub ${ps(1 / width)} mul`;
    // u → k = (u − from) / width, then each component v0 + k·(v1 − v0), k kept below them.
    return mix.length === 1 ? `${head} ${mix[0]}` : `${head} ${mix.map((m, i) => (i < mix.length - 1 ? `dup ${m} exch` : m)).join(' ')}`;
  };
  const search = (lo: number, hi: number): string => {
    if (hi - lo === 1) return leaf(segments[lo]!);
    const mid = (lo + hi) >> 1;
    return `dup ${ps(segments[mid]!.from / TURN)} lt { ${search(lo, mid)} } { ${search(mid, hi)} } ifelse`;
  };
  const [cx, cy] = center;
  // (x y) → (dy dx) → atan: degrees counter-clockwise from +x, 0 ≤ a < 360 (the exact centre, where
  // atan is undefined, reads angle 0) → u = a / 360.
  const program = `{ ${ps(cy)} sub exch ${ps(cx)} sub 2 copy abs exch abs add 0.000001 lt { pop pop 0 1 } if atan 360 div ${search(0, segments.length)} }`;
  const domain = [x0, x1, y0, y1];
  return {
    // Matrix is the default, written out: Ghostscript 10.0's interpreter fails the shading without it.
    shading: { ShadingType: 1, Domain: domain, Matrix: [1, 0, 0, 1, 0, 0] },
    fn: { FunctionType: 4, Domain: domain, Range: channels(segments[0]!.c0).flatMap(() => [0, 1]) },
    program,
  };
}
