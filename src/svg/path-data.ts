// SVG path data: the full grammar (relative commands, H/V/S/T shorthands, arcs, compact numbers) read
// into absolute M L C Q Z segments, arcs turned into cubic Béziers, so both painters draw one small
// command set; plus the affine transform, bounding box, serialisation and orientation of such paths.
import type { Matrix } from '../scene/display-list.js';

export type PathSegment =
  | { cmd: 'M' | 'L'; args: [x: number, y: number] }
  | { cmd: 'C'; args: [x1: number, y1: number, x2: number, y2: number, x: number, y: number] }
  | { cmd: 'Q'; args: [x1: number, y1: number, x: number, y: number] }
  | { cmd: 'Z'; args: [] };

export class PathDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathDataError';
  }
}

const ARG_COUNTS: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;

/** Reads SVG path data into absolute M L C Q Z segments. Throws PathDataError naming the position. */
export function parsePathData(d: string): PathSegment[] {
  const out: PathSegment[] = [];
  let i = 0;
  const skip = (comma: boolean): void => {
    while (i < d.length && (/\s/.test(d[i]!) || (comma && d[i] === ','))) {
      if (d[i] === ',') comma = false;
      i++;
    }
  };
  const fail = (message: string): never => {
    throw new PathDataError(`path data at character ${i + 1} ("${d.slice(Math.max(0, i - 8), i + 8).trim()}"): ${message}`);
  };
  const num = (): number => {
    const m = NUMBER.exec(d.slice(i, i + 64));
    if (!m) return fail(`expected a number but found ${i < d.length ? JSON.stringify(d[i]) : 'the end'}`);
    i += m[0].length;
    const v = Number(m[0]);
    if (!Number.isFinite(v)) fail('number out of range');
    return v;
  };
  const flag = (): number => {
    const c = d[i];
    if (c !== '0' && c !== '1') return fail('expected an arc flag 0 or 1');
    i++;
    return c === '1' ? 1 : 0;
  };
  let [cx, cy, sx, sy] = [0, 0, 0, 0];
  // Reflection points for S and T.
  let lastCubic: [number, number] | null = null;
  let lastQuad: [number, number] | null = null;
  let open = false;
  skip(false);
  if (i < d.length && d[i] !== 'M' && d[i] !== 'm') fail('path data must start with M or m');
  while (i < d.length) {
    const c = d[i]!;
    const lower = c.toLowerCase();
    if (!(lower in ARG_COUNTS)) fail(`expected a path command (M L H V C S Q T A Z) but found ${JSON.stringify(c)}`);
    i++;
    const rel = c === lower;
    let first = true;
    do {
      skip(false);
      if (lower === 'z') {
        out.push({ cmd: 'Z', args: [] });
        [cx, cy] = [sx, sy];
        lastCubic = lastQuad = null;
        open = false;
        break;
      }
      if (!first) {
        // Repeated arguments: another set of the same command (after M, implicit L).
        if (i >= d.length || !/[-+.\d]/.test(d[i]!)) break;
      }
      const ox = rel ? cx : 0;
      const oy = rel ? cy : 0;
      // After Z a drawing command starts a new subpath at the closed one's start.
      if (lower !== 'm' && !open) {
        out.push({ cmd: 'M', args: [cx, cy] });
        open = true;
      }
      const args: number[] = [];
      const argn = ARG_COUNTS[lower]!;
      for (let k = 0; k < argn; k++) {
        if (k > 0) skip(true);
        args.push(lower === 'a' && (k === 3 || k === 4) ? flag() : num());
      }
      let cubic: [number, number] | null = null;
      let quad: [number, number] | null = null;
      switch (lower) {
        case 'm':
          if (first) {
            [cx, cy] = [args[0]! + ox, args[1]! + oy];
            [sx, sy] = [cx, cy];
            out.push({ cmd: 'M', args: [cx, cy] });
            open = true;
          } else {
            [cx, cy] = [args[0]! + ox, args[1]! + oy];
            out.push({ cmd: 'L', args: [cx, cy] });
          }
          break;
        case 'l':
          [cx, cy] = [args[0]! + ox, args[1]! + oy];
          out.push({ cmd: 'L', args: [cx, cy] });
          break;
        case 'h':
          cx = args[0]! + ox;
          out.push({ cmd: 'L', args: [cx, cy] });
          break;
        case 'v':
          cy = args[0]! + oy;
          out.push({ cmd: 'L', args: [cx, cy] });
          break;
        case 'c':
        case 's': {
          const [x1, y1]: [number, number] =
            lower === 'c' ? [args[0]! + ox, args[1]! + oy] : lastCubic ? [2 * cx - lastCubic[0], 2 * cy - lastCubic[1]] : [cx, cy];
          const rest = lower === 'c' ? args.slice(2) : args;
          const x2 = rest[0]! + ox;
          const y2 = rest[1]! + oy;
          [cx, cy] = [rest[2]! + ox, rest[3]! + oy];
          out.push({ cmd: 'C', args: [x1, y1, x2, y2, cx, cy] });
          cubic = [x2, y2];
          break;
        }
        case 'q':
        case 't': {
          const control: [number, number] = lower === 'q' ? [args[0]! + ox, args[1]! + oy] : lastQuad ? [2 * cx - lastQuad[0], 2 * cy - lastQuad[1]] : [cx, cy];
          const [x1, y1] = control;
          const rest = lower === 'q' ? args.slice(2) : args;
          [cx, cy] = [rest[0]! + ox, rest[1]! + oy];
          out.push({ cmd: 'Q', args: [x1, y1, cx, cy] });
          quad = [x1, y1];
          break;
        }
        case 'a': {
          const [rx, ry, rot, large, sweep] = args as [number, number, number, number, number];
          const x = args[5]! + ox;
          const y = args[6]! + oy;
          for (const seg of arcToCubics(cx, cy, rx, ry, rot, large === 1, sweep === 1, x, y)) out.push(seg);
          [cx, cy] = [x, y];
          break;
        }
      }
      lastCubic = cubic;
      lastQuad = quad;
      first = false;
      skip(true);
    } while (i < d.length && !/[A-Za-z]/.test(d[i]!));
    skip(false);
  }
  return out;
}

/** An SVG arc (endpoint parameterisation, F.6 of SVG 1.1) as cubic Béziers of at most 90° each. */
function arcToCubics(
  x1: number,
  y1: number,
  rxIn: number,
  ryIn: number,
  degrees: number,
  large: boolean,
  sweep: boolean,
  x2: number,
  y2: number,
): PathSegment[] {
  if (x1 === x2 && y1 === y2) return [];
  let rx = Math.abs(rxIn);
  let ry = Math.abs(ryIn);
  if (rx === 0 || ry === 0) return [{ cmd: 'L', args: [x2, y2] }];
  const phi = (degrees * Math.PI) / 180;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const dx = (x1 - x2) / 2;
  const dy = (y1 - y2) / 2;
  const x1p = cos * dx + sin * dy;
  const y1p = -sin * dx + cos * dy;
  const lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
  if (lambda > 1) {
    rx *= Math.sqrt(lambda);
    ry *= Math.sqrt(lambda);
  }
  const num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
  const den = rx * rx * y1p * y1p + ry * ry * x1p * x1p;
  let k = Math.sqrt(Math.max(0, num / den));
  if (large === sweep) k = -k;
  const cxp = (k * rx * y1p) / ry;
  const cyp = (-k * ry * x1p) / rx;
  const cx = cos * cxp - sin * cyp + (x1 + x2) / 2;
  const cy = sin * cxp + cos * cyp + (y1 + y2) / 2;
  const angle = (ux: number, uy: number, vx: number, vy: number): number => Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const t1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry);
  let dt = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry);
  if (!sweep && dt > 0) dt -= 2 * Math.PI;
  else if (sweep && dt < 0) dt += 2 * Math.PI;
  const parts = Math.max(1, Math.ceil(Math.abs(dt) / (Math.PI / 2) - 1e-9));
  const step = dt / parts;
  const kappa = (4 / 3) * Math.tan(step / 4);
  const point = (t: number): [number, number] => [cx + rx * Math.cos(t) * cos - ry * Math.sin(t) * sin, cy + rx * Math.cos(t) * sin + ry * Math.sin(t) * cos];
  const deriv = (t: number): [number, number] => [-rx * Math.sin(t) * cos - ry * Math.cos(t) * sin, -rx * Math.sin(t) * sin + ry * Math.cos(t) * cos];
  const out: PathSegment[] = [];
  let t = t1;
  for (let n = 0; n < parts; n++) {
    const [ax, ay] = point(t);
    const [adx, ady] = deriv(t);
    const t2 = t + step;
    const [bx, by] = n === parts - 1 ? [x2, y2] : point(t2);
    const [bdx, bdy] = deriv(t2);
    out.push({ cmd: 'C', args: [ax + kappa * adx, ay + kappa * ady, bx - kappa * bdx, by - kappa * bdy, bx, by] });
    t = t2;
  }
  return out;
}

export function transformPath(segments: readonly PathSegment[], [a, b, c, d, e, f]: Matrix): PathSegment[] {
  const map = (args: readonly number[]): number[] => args.map((v, k) => (k % 2 === 0 ? a * v + c * args[k + 1]! + e : b * args[k - 1]! + d * v + f));
  return segments.map((s) => ({ cmd: s.cmd, args: map(s.args) }) as PathSegment);
}

const fmt = (v: number): string => {
  const r = Math.round(v * 10000) / 10000;
  return Object.is(r, -0) ? '0' : String(r);
};

/** Serialises segments as compact absolute path data ("M 0 0 L 10 0 Z"). */
export function pathDataString(segments: readonly PathSegment[]): string {
  return segments.map((s) => (s.args.length ? `${s.cmd} ${s.args.map(fmt).join(' ')}` : s.cmd)).join(' ');
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The tight bounding box of the path's geometry (curve extremes, not control points); null when empty. */
export function pathBounds(segments: readonly PathSegment[]): Box | null {
  let box: Box | null = null;
  const add = (x: number, y: number): void => {
    if (!box) box = { x0: x, y0: y, x1: x, y1: y };
    else {
      box.x0 = Math.min(box.x0, x);
      box.y0 = Math.min(box.y0, y);
      box.x1 = Math.max(box.x1, x);
      box.y1 = Math.max(box.y1, y);
    }
  };
  let [px, py] = [0, 0];
  for (const s of segments) {
    if (s.cmd === 'Z') continue;
    if (s.cmd === 'M' || s.cmd === 'L') add(s.args[0], s.args[1]);
    else if (s.cmd === 'Q') {
      const [x1, y1, x, y] = s.args;
      for (const t of [quadExtreme(px, x1, x), quadExtreme(py, y1, y)]) if (t !== null) add(quadAt(px, x1, x, t), quadAt(py, y1, y, t));
      add(x, y);
    } else {
      const [x1, y1, x2, y2, x, y] = s.args as [number, number, number, number, number, number];
      for (const t of [...cubicExtremes(px, x1, x2, x), ...cubicExtremes(py, y1, y2, y)]) add(cubicAt(px, x1, x2, x, t), cubicAt(py, y1, y2, y, t));
      add(x, y);
    }
    const n = s.args.length;
    [px, py] = [s.args[n - 2]!, s.args[n - 1]!];
  }
  return box;
}

const quadAt = (a: number, b: number, c: number, t: number): number => (1 - t) * (1 - t) * a + 2 * (1 - t) * t * b + t * t * c;
const cubicAt = (a: number, b: number, c: number, d: number, t: number): number =>
  (1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t * t * c + t ** 3 * d;

function quadExtreme(a: number, b: number, c: number): number | null {
  const den = a - 2 * b + c;
  if (den === 0) return null;
  const t = (a - b) / den;
  return t > 0 && t < 1 ? t : null;
}

function cubicExtremes(a: number, b: number, c: number, d: number): number[] {
  // Roots of the derivative: 3[(−a+3b−3c+d)t² + 2(a−2b+c)t + (b−a)].
  const qa = -a + 3 * b - 3 * c + d;
  const qb = 2 * (a - 2 * b + c);
  const qc = b - a;
  const roots: number[] = [];
  if (Math.abs(qa) < 1e-12) {
    if (qb !== 0) roots.push(-qc / qb);
  } else {
    const disc = qb * qb - 4 * qa * qc;
    if (disc >= 0) {
      const r = Math.sqrt(disc);
      roots.push((-qb + r) / (2 * qa), (-qb - r) / (2 * qa));
    }
  }
  return roots.filter((t) => t > 0 && t < 1);
}

/** Twice the signed area enclosed by the path's subpaths (closed implicitly), through their end points and control polygons. */
export function signedArea(segments: readonly PathSegment[]): number {
  let area = 0;
  let [sx, sy, px, py] = [0, 0, 0, 0];
  const edge = (x: number, y: number): void => {
    area += px * y - x * py;
    [px, py] = [x, y];
  };
  for (const s of segments) {
    if (s.cmd === 'M') {
      edge(sx, sy);
      [sx, sy, px, py] = [s.args[0], s.args[1], s.args[0], s.args[1]];
    } else if (s.cmd === 'Z') edge(sx, sy);
    else for (let k = 0; k < s.args.length; k += 2) edge(s.args[k]!, s.args[k + 1]!);
  }
  edge(sx, sy);
  return area;
}

/** The same path drawn the other way round: every subpath reversed (closed ones stay closed). */
export function reversePath(segments: readonly PathSegment[]): PathSegment[] {
  const out: PathSegment[] = [];
  let sub: PathSegment[] = [];
  const flush = (): void => {
    if (sub.length === 0) return;
    const closed = sub[sub.length - 1]!.cmd === 'Z';
    const draw = sub.filter((s) => s.cmd !== 'Z');
    const ends = draw.map((s) => [s.args[s.args.length - 2]!, s.args[s.args.length - 1]!] as const);
    const last = ends[ends.length - 1]!;
    out.push({ cmd: 'M', args: [last[0], last[1]] });
    for (let k = draw.length - 1; k >= 1; k--) {
      const s = draw[k]!;
      const [x, y] = ends[k - 1]!;
      if (s.cmd === 'C') out.push({ cmd: 'C', args: [s.args[2], s.args[3], s.args[0], s.args[1], x, y] });
      else if (s.cmd === 'Q') out.push({ cmd: 'Q', args: [s.args[0], s.args[1], x, y] });
      else out.push({ cmd: 'L', args: [x, y] });
    }
    if (closed) out.push({ cmd: 'Z', args: [] });
    sub = [];
  };
  for (const s of segments) {
    if (s.cmd === 'M') flush();
    sub.push(s);
  }
  flush();
  return out;
}
