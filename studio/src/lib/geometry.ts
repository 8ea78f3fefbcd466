// Screen ↔ template coordinates for the canvas: the preview is shown at `scale` CSS pixels per
// template pixel, so a drag of d screen pixels moves an object d / scale template pixels. Resizing by
// one of the 8 handles keeps the opposite edge (or corner) in place, also for a rotated object (the
// service rotates around the box's centre, so the centre moves with the resized edge). No DOM.

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
