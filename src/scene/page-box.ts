// The rectangle a page's background covers: the canvas, its print bleed, and (for a fractional canvas)
// the last whole pixel a raster rounds up to, so that row is painted rather than half transparent.
import type { Rect, Sides } from './scene.js';

export function pageCover(width: number, height: number, bleed: Sides | undefined): Rect {
  const left = bleed?.left ?? 0;
  const top = bleed?.top ?? 0;
  const right = Math.max(width + (bleed?.right ?? 0), Math.round(width));
  const bottom = Math.max(height + (bleed?.bottom ?? 0), Math.round(height));
  // 0 - left, not -left: a -0 would write "-0" into a pdf and change the bytes of every page.
  return { x: 0 - left, y: 0 - top, width: right + left, height: bottom + top };
}
