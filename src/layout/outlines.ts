// The editor figures of shape objects (triangles, polygons, stars, arrows, cross, heart, speech
// bubble) as display-list geometry fitted to a box: each figure's bounding box is the box.
import { STAR_INNER_RADIUS, STAR_POINTS, type Point, type Rect, type SceneShape } from '../scene/scene.js';
import type { Geometry } from '../scene/display-list.js';

/** The outlines this module draws; rect, rounded_rect and ellipse are box geometries of their own. */
export type FigureOutline = Exclude<SceneShape['shape'], 'rect' | 'rounded_rect' | 'ellipse' | 'path'>;

/** Bezier handle length of a quarter circle, as a fraction of its radius. */
const KAPPA = 0.5522847498;

export function figureGeometry(
  shape: FigureOutline,
  rect: Rect,
  star: { points: number; innerRadius: number } = { points: STAR_POINTS, innerRadius: STAR_INNER_RADIUS },
  vertices: readonly Point[] = [],
): Geometry {
  const { x, y, width: w, height: h } = rect;
  // Points given in fractions of the box.
  const inBox = (pts: readonly Point[]): Geometry => ({ kind: 'polygon', points: pts.map(([px, py]) => [x + px * w, y + py * h] as const) });
  switch (shape) {
    case 'triangle':
      return inBox([
        [0.5, 0],
        [1, 1],
        [0, 1],
      ]);
    case 'right_triangle':
      // The right angle sits at the bottom left, as editors draw it.
      return inBox([
        [0, 0],
        [1, 1],
        [0, 1],
      ]);
    case 'diamond':
      return inBox([
        [0.5, 0],
        [1, 0.5],
        [0.5, 1],
        [0, 0.5],
      ]);
    case 'pentagon':
      return inBox(fitted(regular(5, -90)));
    case 'hexagon':
      // Flat top and bottom, corners at the left and right middle.
      return inBox(fitted(regular(6, 0)));
    case 'octagon':
      // A side on each edge of the box.
      return inBox(fitted(regular(8, 22.5)));
    case 'star':
      return inBox(fitted(starPoints(star.points, star.innerRadius)));
    case 'cross': {
      // Arms of equal thickness, a third of the shorter side, crossing at the centre.
      const t = Math.min(w, h) / 3;
      const [ax, ay] = [(w - t) / 2, (h - t) / 2];
      return {
        kind: 'polygon',
        points: (
          [
            [ax, 0],
            [ax + t, 0],
            [ax + t, ay],
            [w, ay],
            [w, ay + t],
            [ax + t, ay + t],
            [ax + t, h],
            [ax, h],
            [ax, ay + t],
            [0, ay + t],
            [0, ay],
            [ax, ay],
          ] as const
        ).map(([px, py]) => [x + px, y + py] as const),
      };
    }
    case 'arrow_right':
    case 'arrow_left':
    case 'arrow_up':
    case 'arrow_down':
      return { kind: 'polygon', points: blockArrow(shape, rect) };
    case 'polygon':
      return inBox(vertices);
    case 'heart':
      return { kind: 'path', d: heartPath(rect) };
    case 'speech_bubble':
      return { kind: 'path', d: speechBubblePath(rect) };
  }
}

/** Corners of a regular polygon on the unit circle, the first at `startDeg` (clockwise, y down). */
function regular(n: number, startDeg: number): Point[] {
  return Array.from({ length: n }, (_, i) => {
    const a = ((startDeg + (360 * i) / n) * Math.PI) / 180;
    return [Math.cos(a), Math.sin(a)] as const;
  });
}

/** A star with `n` points (the first straight up), inner corners at `inner` × the outer radius. */
function starPoints(n: number, inner: number): Point[] {
  return Array.from({ length: 2 * n }, (_, i) => {
    const a = -Math.PI / 2 + (Math.PI * i) / n;
    const r = i % 2 === 0 ? 1 : inner;
    return [r * Math.cos(a), r * Math.sin(a)] as const;
  });
}

/** Points scaled so their bounding box is the unit square (the figure stretched to fill its box). */
function fitted(points: readonly Point[]): Point[] {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const [sx, sy] = [Math.max(...xs) - x0, Math.max(...ys) - y0];
  return points.map(([px, py]) => [(px - x0) / sx, (py - y0) / sy] as const);
}

/**
 * A block arrow: a shaft half as thick as the box across, and a head whose length is half the box
 * across (capped at half its length), so the head's sides meet at a right angle in a box twice as long as thick.
 */
function blockArrow(direction: 'arrow_right' | 'arrow_left' | 'arrow_up' | 'arrow_down', rect: Rect): Point[] {
  const horizontal = direction === 'arrow_right' || direction === 'arrow_left';
  // Drawn pointing right in an along × across box, then turned into place.
  const along = horizontal ? rect.width : rect.height;
  const across = horizontal ? rect.height : rect.width;
  const head = Math.min(along / 2, across / 2);
  const right: Point[] = [
    [0, across / 4],
    [along - head, across / 4],
    [along - head, 0],
    [along, across / 2],
    [along - head, across],
    [along - head, (3 * across) / 4],
    [0, (3 * across) / 4],
  ];
  const place = ([a, c]: Point): Point => {
    switch (direction) {
      case 'arrow_right':
        return [rect.x + a, rect.y + c];
      case 'arrow_left':
        return [rect.x + along - a, rect.y + c];
      case 'arrow_down':
        return [rect.x + c, rect.y + a];
      case 'arrow_up':
        return [rect.x + c, rect.y + along - a];
    }
  };
  return right.map(place);
}

const n = (v: number): string => String(Math.round(v * 1000) / 1000);

/** Path data from commands whose coordinates are fractions of the box. */
function pathIn(rect: Rect, commands: readonly (readonly [string, ...number[]])[]): string {
  return commands.map(([cmd, ...vs]) => [cmd, ...vs.map((v, i) => n(i % 2 === 0 ? rect.x + v * rect.width : rect.y + v * rect.height))].join(' ')).join(' ');
}

/**
 * A heart: two lobes (near-elliptic quarter arcs) meeting in a V notch at 20 % of the height (about
 * 46°, not a cusp, whose inside border would need an unbounded miter), sides
 * curving down to the tip at the bottom middle. Every curve is monotone between its ends, so the
 * outline touches all four sides of the box exactly.
 */
function heartPath(rect: Rect): string {
  return pathIn(rect, [
    ['M', 0.5, 1],
    ['C', 0.3, 0.82, 0, 0.6, 0, 0.3],
    ['C', 0, 0.134, 0.112, 0, 0.25, 0],
    ['C', 0.388, 0, 0.44, 0.06, 0.5, 0.2],
    ['C', 0.56, 0.06, 0.612, 0, 0.75, 0],
    ['C', 0.888, 0, 1, 0.134, 1, 0.3],
    ['C', 1, 0.6, 0.7, 0.82, 0.5, 1],
    ['Z'],
  ]);
}

/**
 * A speech bubble: a rounded rectangle over the top 80 % of the box (corner radius a fifth of its
 * shorter side) and a tail from its bottom edge, between 20 % and 40 % of the width, to the
 * bottom of the box at 15 %.
 */
function speechBubblePath(rect: Rect): string {
  const { x, y, width: w, height: h } = rect;
  const bh = 0.8 * h;
  const r = Math.min(w, bh) / 5;
  const k = r * KAPPA;
  const cmd = (c: string, ...vs: number[]): string => [c, ...vs.map((v, i) => n(i % 2 === 0 ? x + v : y + v))].join(' ');
  return [
    cmd('M', r, 0),
    cmd('L', w - r, 0),
    cmd('C', w - r + k, 0, w, r - k, w, r),
    cmd('L', w, bh - r),
    cmd('C', w, bh - r + k, w - r + k, bh, w - r, bh),
    cmd('L', 0.4 * w, bh),
    cmd('L', 0.15 * w, h),
    cmd('L', 0.2 * w, bh),
    cmd('L', r, bh),
    cmd('C', r - k, bh, 0, bh - r + k, 0, bh - r),
    cmd('L', 0, r),
    cmd('C', 0, r - k, r - k, 0, r, 0),
    'Z',
  ].join(' ');
}
