// Perspective warping of an image into a quadrilateral, for the raster backend: Skia via
// @napi-rs/canvas only does affine transforms, so projective placements are resampled here.
import { invertHomography, rectToQuad, type Homography, type Point, type Quad } from '../layout/homography.js';

export type { Homography, Point, Quad };

/** x,y: integer offset of the output's top-left in the quad's coordinate space; rgba is straight (not premultiplied). */
export interface WarpedImage {
  x: number;
  y: number;
  width: number;
  height: number;
  rgba: Buffer;
}

// Corners flatter than this (as a sine) or edges shorter than this fraction of the longest are
// treated as triangles: the projective map of a near-triangle is nearly singular, sending part of
// the image almost to infinity or squeezing a whole source edge into a point.
const MIN_CORNER_SINE = 1e-6;
const MIN_EDGE_RATIO = 1e-6;

/** +1 or -1 for a strictly convex quad in either winding, 0 for anything else. */
function convexOrientation(quad: Quad): number {
  let longest = 0;
  let shortest = Infinity;
  for (let k = 0; k < 4; k++) {
    const len = Math.hypot(quad[(k + 1) & 3]![0] - quad[k]![0], quad[(k + 1) & 3]![1] - quad[k]![1]);
    longest = Math.max(longest, len);
    shortest = Math.min(shortest, len);
  }
  if (!(shortest > MIN_EDGE_RATIO * longest)) return 0;
  let sign = 0;
  for (let k = 0; k < 4; k++) {
    const p = quad[k]!;
    const q = quad[(k + 1) & 3]!;
    const r = quad[(k + 2) & 3]!;
    const ux = q[0] - p[0];
    const uy = q[1] - p[1];
    const vx = r[0] - q[0];
    const vy = r[1] - q[1];
    const cross = ux * vy - uy * vx;
    const lens = Math.hypot(ux, uy) * Math.hypot(vx, vy);
    if (!(Math.abs(cross) > MIN_CORNER_SINE * lens)) return 0;
    const s = cross > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return 0;
  }
  return sign;
}

const empty = (x: number, y: number): WarpedImage => ({ x, y, width: 0, height: 0, rgba: Buffer.alloc(0) });

/**
 * Warps straight-RGBA `src` so that its full extent lands on `quad` (given in output pixel coordinates).
 * Output covers the integer bounding box of the quad. Degenerate, self-intersecting or concave quads
 * (which no projective map of a rectangle produces) give a 0x0 image.
 */
export function warpImage(src: { width: number; height: number; rgba: Buffer }, quad: Quad): WarpedImage {
  const sw = src.width;
  const sh = src.height;
  const px = src.rgba;
  if (!(Number.isInteger(sw) && Number.isInteger(sh) && sw >= 0 && sh >= 0) || px.length < sw * sh * 4) {
    throw new RangeError(`warpImage: source is not ${sw}x${sh} RGBA`);
  }
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of quad) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  if (!(Number.isFinite(minX) && Number.isFinite(minY) && Number.isFinite(maxX) && Number.isFinite(maxY))) return empty(0, 0);
  const ox = Math.floor(minX);
  const oy = Math.floor(minY);
  const orient = convexOrientation(quad);
  if (sw === 0 || sh === 0 || orient === 0) return empty(ox, oy);
  const inv = invertHomography(rectToQuad(sw, sh, quad));
  const ow = Math.ceil(maxX) - ox;
  const oh = Math.ceil(maxY) - oy;
  const out = Buffer.alloc(ow * oh * 4);

  // Signed distance to edge k, positive inside whatever the winding: d = ea*x + eb*y + ec.
  const ea = new Float64Array(4);
  const eb = new Float64Array(4);
  const ec = new Float64Array(4);
  for (let k = 0; k < 4; k++) {
    const [x0, y0] = quad[k]!;
    const [x1, y1] = quad[(k + 1) & 3]!;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const s = orient / Math.hypot(dx, dy);
    ea[k] = -dy * s;
    eb[k] = dx * s;
    ec[k] = (dy * x0 - dx * y0) * s;
  }
  const a0 = ea[0]!,
    a1 = ea[1]!,
    a2 = ea[2]!,
    a3 = ea[3]!;
  const [i0, i1, i2, i3, i4, i5, i6, i7, i8] = inv;
  const umax = sw - 1;
  const vmax = sh - 1;
  const rowBytes = sw * 4;

  for (let j = 0; j < oh; j++) {
    const yc = oy + j + 0.5;
    // Convex, so the pixels with any coverage form one run per row: intersect the half-planes
    // d_k > -0.5 along the row, then widen by a pixel so rounding never clips an edge pixel.
    let lo = -Infinity;
    let hi = Infinity;
    for (let k = 0; k < 4; k++) {
      const a = ea[k]!;
      const rest = -0.5 - eb[k]! * yc - ec[k]!;
      if (a > 1e-12) lo = Math.max(lo, rest / a);
      else if (a < -1e-12) hi = Math.min(hi, rest / a);
      else if (rest >= 0) lo = Infinity; // parallel to the row and out of reach
    }
    const first = Math.max(0, Math.floor(lo - ox - 0.5) - 1);
    const last = Math.min(ow - 1, Math.ceil(hi - ox - 0.5) + 1);
    if (first > last) continue;

    const xc = ox + first + 0.5;
    let d0 = a0 * xc + eb[0]! * yc + ec[0]!;
    let d1 = a1 * xc + eb[1]! * yc + ec[1]!;
    let d2 = a2 * xc + eb[2]! * yc + ec[2]!;
    let d3 = a3 * xc + eb[3]! * yc + ec[3]!;
    // Numerators and denominator of the inverse map are linear along the row.
    let nx = i0 * xc + i1 * yc + i2;
    let ny = i3 * xc + i4 * yc + i5;
    let nw = i6 * xc + i7 * yc + i8;
    let o = (j * ow + first) * 4;
    for (let i = first; i <= last; i++, d0 += a0, d1 += a1, d2 += a2, d3 += a3, nx += i0, ny += i3, nw += i6, o += 4) {
      let m = d0;
      if (d1 < m) m = d1;
      if (d2 < m) m = d2;
      if (d3 < m) m = d3;
      let cov = m + 0.5;
      if (!(cov > 0)) continue;
      if (cov > 1) cov = 1;

      const rw = 1 / nw;
      // Source pixel centres sit at half-integers; the negated tests also turn NaN into 0.
      let u = nx * rw - 0.5;
      let v = ny * rw - 0.5;
      if (!(u > 0)) u = 0;
      else if (u > umax) u = umax;
      if (!(v > 0)) v = 0;
      else if (v > vmax) v = vmax;
      const xi = u | 0;
      const yi = v | 0;
      const fx = u - xi;
      const fy = v - yi;
      const p00 = yi * rowBytes + xi * 4;
      const p01 = xi < umax ? p00 + 4 : p00;
      const p10 = yi < vmax ? p00 + rowBytes : p00;
      const p11 = xi < umax ? p10 + 4 : p10;

      // Premultiplied interpolation: each tap's weight is scaled by its alpha, so the colour of
      // transparent texels never bleeds in; dividing by the summed alpha gives straight colour back.
      const gx = 1 - fx;
      const q00 = gx * (1 - fy) * px[p00 + 3]!;
      const q01 = fx * (1 - fy) * px[p01 + 3]!;
      const q10 = gx * fy * px[p10 + 3]!;
      const q11 = fx * fy * px[p11 + 3]!;
      const alpha = q00 + q01 + q10 + q11;
      if (!(alpha > 0)) continue;
      const k = 1 / alpha;
      out[o] = (q00 * px[p00]! + q01 * px[p01]! + q10 * px[p10]! + q11 * px[p11]!) * k + 0.5;
      out[o + 1] = (q00 * px[p00 + 1]! + q01 * px[p01 + 1]! + q10 * px[p10 + 1]! + q11 * px[p11 + 1]!) * k + 0.5;
      out[o + 2] = (q00 * px[p00 + 2]! + q01 * px[p01 + 2]! + q10 * px[p10 + 2]! + q11 * px[p11 + 2]!) * k + 0.5;
      out[o + 3] = alpha * cov + 0.5;
    }
  }
  return { x: ox, y: oy, width: ow, height: oh, rgba: out };
}
