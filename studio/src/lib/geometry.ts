// Screen ↔ template coordinates for the canvas: the preview is shown at `scale` CSS pixels per
// template pixel, so a drag of d screen pixels moves an object d / scale template pixels. Resizing by
// one of the 8 handles keeps the opposite edge (or corner) in place, also for a rotated object (the
// service rotates around the box's centre, so the centre moves with the resized edge), and the upright
// bounds of a rotated box, which snapping and a selection's frame use. No DOM.

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Handle = 'n' | 'ne' | 'e' | 'se' | 's' | 'sw' | 'w' | 'nw';
export const HANDLES: readonly Handle[] = ['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw'];

/** The largest scale ≤ 1 at which a design fits a box of the given CSS size. */
export function fitScale(designW: number, designH: number, boxW: number, boxH: number): number {
  if (designW <= 0 || designH <= 0 || boxW <= 0 || boxH <= 0) return 1;
  return Math.min(1, boxW / designW, boxH / designH);
}

/**
 * The scale to ask the preview for: the displayed scale times the screen's pixel ratio (sharp on a
 * dense screen), never above 1, rounded so small layout changes do not ask for a new image.
 */
export function renderScale(displayScale: number, devicePixelRatio: number): number {
  const s = Math.min(1, displayScale * Math.max(1, devicePixelRatio));
  return Math.max(0.05, Math.ceil(s * 20) / 20);
}

export function toTemplate(screenPx: number, scale: number): number {
  return screenPx / scale;
}

export function toScreen(templatePx: number, scale: number): number {
  return templatePx * scale;
}

const round = (v: number) => Math.round(v);

/** The box moved by a screen-space drag of (dx, dy). */
export function moveBox(box: Box, dx: number, dy: number, scale: number): Box {
  return { ...box, x: round(box.x + toTemplate(dx, scale)), y: round(box.y + toTemplate(dy, scale)) };
}

/**
 * The box resized by dragging `handle` by (dx, dy) screen pixels; `rotation` in degrees clockwise.
 * Width and height stay at least `min` template pixels.
 */
export function resizeBox(box: Box, handle: Handle, dx: number, dy: number, scale: number, rotation = 0, min = 1): Box {
  const t = (rotation * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  // The drag in the object's own (unrotated) axes.
  const tx = toTemplate(dx, scale);
  const ty = toTemplate(dy, scale);
  const lx = tx * cos + ty * sin;
  const ly = -tx * sin + ty * cos;
  const sx = handle.includes('e') ? 1 : handle.includes('w') ? -1 : 0;
  const sy = handle.includes('s') ? 1 : handle.startsWith('n') ? -1 : 0;
  const width = Math.max(min, box.width + sx * lx);
  const height = Math.max(min, box.height + sy * ly);
  // The centre moves by half the growth, towards the dragged side, in the object's axes.
  const cx = (sx * (width - box.width)) / 2;
  const cy = (sy * (height - box.height)) / 2;
  const centreX = box.x + box.width / 2 + cx * cos - cy * sin;
  const centreY = box.y + box.height / 2 + cx * sin + cy * cos;
  const w = round(width);
  const h = round(height);
  return { x: round(centreX - w / 2), y: round(centreY - h / 2), width: w, height: h };
}

/** The fields of a box edit that changed: what the form and the overrides get. */
export function changedFields(before: Box, after: Box): Partial<Box> {
  const out: Partial<Box> = {};
  for (const k of ['x', 'y', 'width', 'height'] as const) if (before[k] !== after[k]) out[k] = after[k];
  return out;
}

/** The box's four corners on the canvas, clockwise from its own top-left, turned by `rotation` degrees about its centre. */
export function boxCorners(box: Box, rotation = 0): [number, number][] {
  const t = (rotation * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([fx, fy]) => {
    const lx = (fx! * box.width) / 2;
    const ly = (fy! * box.height) / 2;
    return [cx + lx * cos - ly * sin, cy + lx * sin + ly * cos];
  });
}

/**
 * The upright rectangle a box covers once turned by `rotation` degrees about its centre (what the
 * service draws): where snapping lines up a rotated object and what a selection's frame encloses.
 * An unrotated box is returned as it is, so whole pixels stay whole.
 */
export function rotatedBounds(box: Box, rotation = 0): Box {
  if (rotation % 360 === 0) return { x: box.x, y: box.y, width: box.width, height: box.height };
  const pts = boxCorners(box, rotation);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** The smallest upright rectangle holding every box; undefined for none. */
export function unionBounds(boxes: readonly Box[]): Box | undefined {
  if (boxes.length === 0) return undefined;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width);
    y1 = Math.max(y1, b.y + b.height);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Whether a point (template px) lies on the box as drawn, turned by `rotation` degrees about its centre. */
export function boxHolds(box: Box, rotation: number, point: { x: number; y: number }): boolean {
  // The point in the box's own axes: turned back about the centre.
  const t = (-rotation * Math.PI) / 180;
  const dx = point.x - (box.x + box.width / 2);
  const dy = point.y - (box.y + box.height / 2);
  const lx = dx * Math.cos(t) - dy * Math.sin(t);
  const ly = dx * Math.sin(t) + dy * Math.cos(t);
  return Math.abs(lx) <= box.width / 2 && Math.abs(ly) <= box.height / 2;
}
