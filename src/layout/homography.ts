// Projective maps (homographies) between a rectangle and a quadrilateral: layout uses them to place
// parts of an image inside a perspective quad, the raster backend to warp pixels into it.
import type { Point, Quad } from '../scene/scene.js';

export type { Point, Quad };
/** Row-major 3x3 projective matrix [a,b,c, d,e,f, g,h,i]: (x,y) = ((a u + b v + c)/(g u + h v + i), (d u + e v + f)/(g u + h v + i)). */
export type Homography = readonly [number, number, number, number, number, number, number, number, number];

function allFinite(m: readonly number[]): boolean {
  for (const v of m) if (!Number.isFinite(v)) return false;
  return true;
}

/**
 * Maps (0,0)->TL, (width,0)->TR, (width,height)->BR, (0,height)->BL.
 * Throws a RangeError when no such map exists (some three corners collinear, non-positive size).
 */
export function rectToQuad(width: number, height: number, quad: Quad): Homography {
  if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) throw new RangeError(`rectToQuad: bad size ${width}x${height}`);
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = quad;
  // Unit square to quad in closed form (Heckbert 1989); the affine case is kept separate so that
  // parallelograms get g = h = 0 exactly instead of a rounding-noise perspective term.
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  let g = 0;
  let h = 0;
  if (sx !== 0 || sy !== 0) {
    const dx1 = x1 - x2;
    const dx2 = x3 - x2;
    const dy1 = y1 - y2;
    const dy2 = y3 - y2;
    const det = dx1 * dy2 - dx2 * dy1;
    g = (sx * dy2 - dx2 * sy) / det;
    h = (dx1 * sy - sx * dy1) / det;
  }
  const a = x1 - x0 + g * x1;
  const b = x3 - x0 + h * x3;
  const d = y1 - y0 + g * y1;
  const e = y3 - y0 + h * y3;
  const m: Homography = [a / width, b / height, x0, d / width, e / height, y0, g / width, h / height, 1];
  if (!allFinite(m) || m[0] * (m[4] - m[7] * m[5]) - m[1] * (m[3] - m[6] * m[5]) + m[2] * (m[3] * m[7] - m[4] * m[6]) === 0) {
    throw new RangeError('rectToQuad: degenerate quad');
  }
  return m;
}

/** Throws a RangeError for a singular matrix. */
export function invertHomography(m: Homography): Homography {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = f * g - d * i;
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (det === 0 || !Number.isFinite(det)) throw new RangeError('invertHomography: singular matrix');
  const k = 1 / det;
  const inv: Homography = [
    A * k,
    (c * h - b * i) * k,
    (b * f - c * e) * k,
    B * k,
    (a * i - c * g) * k,
    (c * d - a * f) * k,
    C * k,
    (b * g - a * h) * k,
    (a * e - b * d) * k,
  ];
  if (!allFinite(inv)) throw new RangeError('invertHomography: singular matrix');
  return inv;
}

/** Points on the map's horizon (zero denominator) come out non-finite. */
export function applyHomography(m: Homography, x: number, y: number): Point {
  const w = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w];
}
