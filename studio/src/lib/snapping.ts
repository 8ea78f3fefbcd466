// Snapping while an object is dragged or resized on the canvas: its drawn edges and centre (the
// upright bounds of its rotated box, geometry.ts) meet the canvas's edges and centre, the other
// objects' edges and centres and the user's guides when they come within a few screen pixels (so the
// pull feels the same at any zoom), and the lines to draw say what it met. Also the arrow keys' nudge
// and the zoom: fit the canvas into the viewport, zoom about a point. No DOM.
import { fitScale, rotatedBounds, unionBounds, type Box, type Handle } from './geometry.js';

/** A user guide across the canvas: axis x is a vertical line at x = at, axis y a horizontal one at y = at. */
export interface Guide {
  axis: 'x' | 'y';
  at: number;
}

/** A line to draw where an edge or centre met something, template px: vertical (axis x) at x = at from y = from to y = to. */
export interface SnapLine {
  axis: 'x' | 'y';
  at: number;
  from: number;
  to: number;
  /** What was met: the canvas, another object, or a guide. */
  kind: 'canvas' | 'object' | 'guide';
}

/** An object's box and rotation (degrees, clockwise about its centre), as the design has them. */
export interface Placed {
  box: Box;
  rotation?: number;
}

export interface SnapContext {
  /** The objects that do not move (leave out hidden ones and the moving ones). */
  others: readonly Placed[];
  canvas: { width: number; height: number };
  guides?: readonly Guide[];
  /** Screen pixels per template pixel. */
  zoom: number;
  /** How near, in screen pixels, an edge must come to snap. Default 6. */
  threshold?: number;
}

export const SNAP_THRESHOLD = 6;

interface Target {
  at: number;
  kind: SnapLine['kind'];
  /** The extent of what is met across the line's axis (an object's top and bottom for a vertical line). */
  span: [number, number];
}

/** The three positions of a box along an axis: its start, centre and end. */
const stops = (b: Box, axis: 'x' | 'y'): number[] => (axis === 'x' ? [b.x, b.x + b.width / 2, b.x + b.width] : [b.y, b.y + b.height / 2, b.y + b.height]);

function targets(ctx: SnapContext, axis: 'x' | 'y'): Target[] {
  const { width: W, height: H } = ctx.canvas;
  const across: [number, number] = axis === 'x' ? [0, H] : [0, W];
  const out: Target[] = stops({ x: 0, y: 0, width: W, height: H }, axis).map((at) => ({ at, kind: 'canvas', span: across }));
  for (const o of ctx.others) {
    const b = rotatedBounds(o.box, o.rotation ?? 0);
    const span: [number, number] = axis === 'x' ? [b.y, b.y + b.height] : [b.x, b.x + b.width];
    for (const at of stops(b, axis)) out.push({ at, kind: 'object', span });
  }
  for (const g of ctx.guides ?? []) if (g.axis === axis) out.push({ at: g.at, kind: 'guide', span: across });
  return out;
}

const EPSILON = 1e-6;

/** The correction that brings the nearest of `positions` onto a target within `reach`; 0 when none is near. */
function nearest(positions: readonly number[], list: readonly Target[], reach: number): number {
  let best = 0;
  let bestDistance = Infinity;
  for (const p of positions) {
    for (const t of list) {
      const d = t.at - p;
      if (Math.abs(d) <= reach && Math.abs(d) < bestDistance) {
        best = d;
        bestDistance = Math.abs(d);
      }
    }
  }
  return best;
}

/** The lines where `box`'s positions on `axis` lie on targets, one per place, long enough to show both. */
function linesFor(box: Box, axis: 'x' | 'y', list: readonly Target[], only?: readonly number[]): SnapLine[] {
  const own: [number, number] = axis === 'x' ? [box.y, box.y + box.height] : [box.x, box.x + box.width];
  const byPlace = new Map<number, SnapLine>();
  const positions = only ?? stops(box, axis);
  for (const p of positions) {
    for (const t of list) {
      if (Math.abs(t.at - p) > EPSILON) continue;
      const key = Math.round(t.at * 1e6) / 1e6;
      const from = Math.min(own[0], t.span[0]);
      const to = Math.max(own[1], t.span[1]);
      const line = byPlace.get(key);
      if (!line) byPlace.set(key, { axis, at: t.at, from, to, kind: t.kind });
      else {
        line.from = Math.min(line.from, from);
        line.to = Math.max(line.to, to);
        // A guide or the canvas says more than an object that happens to be there too.
        if (line.kind === 'object') line.kind = t.kind;
      }
    }
  }
  return [...byPlace.values()];
}

const reachOf = (ctx: SnapContext) => (ctx.threshold ?? SNAP_THRESHOLD) / (ctx.zoom > 0 ? ctx.zoom : 1);

export interface SnappedMove {
  /** The move to apply, template px: the drag's, corrected so an edge or centre lies on what it met. */
  dx: number;
  dy: number;
  lines: SnapLine[];
}

/**
 * A drag of the `moving` objects by (dx, dy) template px, snapped: on each axis the nearest of the
 * selection's left, centre and right (top, middle, bottom) within the threshold meets the canvas, an
 * other object or a guide. The selection is the upright bounds of its objects as drawn.
 */
export function snapMove(moving: readonly Placed[], dx: number, dy: number, ctx: SnapContext): SnappedMove {
  const start = unionBounds(moving.map((m) => rotatedBounds(m.box, m.rotation ?? 0)));
  if (!start) return { dx, dy, lines: [] };
  const reach = reachOf(ctx);
  const xs = targets(ctx, 'x');
  const ys = targets(ctx, 'y');
  const moved = { ...start, x: start.x + dx, y: start.y + dy };
  const cx = nearest(stops(moved, 'x'), xs, reach);
  const cy = nearest(stops(moved, 'y'), ys, reach);
  const snapped = { ...moved, x: moved.x + cx, y: moved.y + cy };
  return { dx: dx + cx, dy: dy + cy, lines: [...linesFor(snapped, 'x', xs), ...linesFor(snapped, 'y', ys)] };
}

export interface SnappedBox {
  box: Box;
  lines: SnapLine[];
}

/**
 * A box being resized by `handle` (as geometry.ts resizeBox made it), snapped: the edges the handle
 * moves meet the canvas, other objects or guides within the threshold, the opposite edges stay. A
 * rotated box is not snapped (its edges are not upright); nor is a side below `min` px.
 */
export function snapResize(box: Box, handle: Handle, ctx: SnapContext, rotation = 0, min = 1): SnappedBox {
  if (rotation % 360 !== 0) return { box, lines: [] };
  const reach = reachOf(ctx);
  let { x, y, width, height } = box;
  const onX: number[] = [];
  const onY: number[] = [];
  const xs = targets(ctx, 'x');
  const ys = targets(ctx, 'y');
  if (handle.includes('e')) {
    const d = nearest([x + width], xs, reach);
    if (width + d >= min) width += d;
    onX.push(x + width);
  } else if (handle.includes('w')) {
    const d = nearest([x], xs, reach);
    if (width - d >= min) {
      x += d;
      width -= d;
    }
    onX.push(x);
  }
  if (handle.includes('s')) {
    const d = nearest([y + height], ys, reach);
    if (height + d >= min) height += d;
    onY.push(y + height);
  } else if (handle.startsWith('n')) {
    const d = nearest([y], ys, reach);
    if (height - d >= min) {
      y += d;
      height -= d;
    }
    onY.push(y);
  }
  const out = { x, y, width, height };
  return { box: out, lines: [...linesFor(out, 'x', xs, onX), ...linesFor(out, 'y', ys, onY)] };
}

/** The move an arrow key makes: 1 template px, 10 with shift; undefined for any other key. */
export function nudge(key: string, shift: boolean): { dx: number; dy: number } | undefined {
  const step = shift ? 10 : 1;
  switch (key) {
    case 'ArrowLeft':
      return { dx: -step, dy: 0 };
    case 'ArrowRight':
      return { dx: step, dy: 0 };
    case 'ArrowUp':
      return { dx: 0, dy: -step };
    case 'ArrowDown':
      return { dx: 0, dy: step };
    default:
      return undefined;
  }
}

// ── zoom ─────────────────────────────────────────────────────────────────────────────────────────

/** Where the canvas is shown: `zoom` screen px per template px, its top-left corner at (x, y) in the viewport. */
export interface View {
  zoom: number;
  x: number;
  y: number;
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 8;
/** The zoom buttons' steps. */
export const ZOOM_STEPS: readonly number[] = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8];

export const clampZoom = (zoom: number): number => (Number.isFinite(zoom) ? Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom)) : 1);

export interface FitOptions {
  /** Free space kept round the canvas on each side, screen px. Default 32. */
  padding?: number;
  /** Let a small canvas grow beyond 1:1 to fill the viewport. Default false: fit never enlarges. */
  enlarge?: boolean;
}

/** Fit to screen: the largest zoom at which the canvas and the padding round it fit the viewport, centred. */
export function fitView(canvas: { width: number; height: number }, viewport: { width: number; height: number }, options: FitOptions = {}): View {
  const pad = Math.max(0, options.padding ?? 32);
  const room = { width: Math.max(1, viewport.width - 2 * pad), height: Math.max(1, viewport.height - 2 * pad) };
  const zoom = clampZoom(
    options.enlarge ? Math.min(room.width / canvas.width, room.height / canvas.height) : fitScale(canvas.width, canvas.height, room.width, room.height),
  );
  return { zoom, x: (viewport.width - canvas.width * zoom) / 2, y: (viewport.height - canvas.height * zoom) / 2 };
}

/** A viewport point (screen px) as a template point. */
export const toCanvasPoint = (view: View, p: { x: number; y: number }) => ({ x: (p.x - view.x) / view.zoom, y: (p.y - view.y) / view.zoom });

/** A template point as a viewport point (screen px). */
export const toViewPoint = (view: View, p: { x: number; y: number }) => ({ x: view.x + p.x * view.zoom, y: view.y + p.y * view.zoom });

/** The view at another zoom, with the template point under `at` (viewport px: the pointer, or the viewport's centre) kept there. */
export function zoomAround(view: View, zoom: number, at: { x: number; y: number }): View {
  const z = clampZoom(zoom);
  const p = toCanvasPoint(view, at);
  return { zoom: z, x: at.x - p.x * z, y: at.y - p.y * z };
}

/** The next zoom step in (+1) or out (-1) from the present zoom. */
export function zoomStep(zoom: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((s) => s > zoom + 1e-9) ?? MAX_ZOOM;
  return [...ZOOM_STEPS].reverse().find((s) => s < zoom - 1e-9) ?? MIN_ZOOM;
}
