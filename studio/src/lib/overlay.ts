// Where the canvas overlay draws an object's outline and its name tag, in screen pixels relative to
// the canvas: the outline is the part of the box on the canvas (an object may reach past the
// canvas, as the mockup's 4:3 photo does on a square card, and its outline must not be wider than
// the canvas), and the tag sits outside the outline, never over the object it names. No DOM.
import type { Box } from './geometry.js';

/** Height of a name tag in CSS pixels (11 px text at line-height 1.4, 1 px padding above and below). */
export const TAG_HEIGHT = 18;

/** The box in screen pixels, cut to the canvas of size w × h; `clipped` names the sides that were cut. */
export interface VisibleBox extends Box {
  clipped: { left: boolean; top: boolean; right: boolean; bottom: boolean };
}

/**
 * The box (template pixels) as shown at `scale` on a canvas of `w` × `h` CSS pixels, cut to the
 * canvas. A box wholly outside keeps a zero-sized outline at the nearest edge, so it can still be
 * selected from the list without an outline escaping the canvas.
 */
export function visibleBox(box: Box, scale: number, w: number, h: number): VisibleBox {
  const left = box.x * scale;
  const top = box.y * scale;
  const right = (box.x + box.width) * scale;
  const bottom = (box.y + box.height) * scale;
  const cl = Math.min(Math.max(left, 0), w);
  const ct = Math.min(Math.max(top, 0), h);
  const cr = Math.max(Math.min(right, w), cl);
  const cb = Math.max(Math.min(bottom, h), ct);
  return {
    x: cl,
    y: ct,
    width: cr - cl,
    height: cb - ct,
    clipped: { left: left < 0, top: top < 0, right: right > w, bottom: bottom > h },
  };
}

export interface TagPlacement {
  /** Above the outline, or below it when there is no room above on the canvas. */
  side: 'above' | 'below';
  /** Starting at the outline's left edge, or ending at its right edge (an object in the right half). */
  align: 'start' | 'end';
}

/**
 * Where an outline's name tag goes (`box` in screen pixels on a canvas w × h): above the outline
 * when it fits on the canvas there, else below it when that fits; an outline as tall as the canvas
 * keeps its tag above, in the stage's margin round the canvas. Never inside: the tag must not hide
 * what it names.
 */
export function tagPlacement(box: Box, w: number, h: number, tagHeight = TAG_HEIGHT): TagPlacement {
  const roomAbove = box.y >= tagHeight;
  const roomBelow = box.y + box.height + tagHeight <= h;
  return {
    side: !roomAbove && roomBelow ? 'below' : 'above',
    // A tag reads from its object's left edge; one starting in the right half would run past the
    // canvas, so it ends at the object's right edge instead.
    align: box.x > w / 2 ? 'end' : 'start',
  };
}

/**
 * The free margin round the canvas on each side, in CSS pixels: room for the resize handles and for
 * a tag above an object as tall as the canvas; smaller on a small stage, so the canvas stays large.
 */
export function stageMargin(stageWidth: number, stageHeight: number): number {
  return Math.min(stageWidth, stageHeight) < 720 ? TAG_HEIGHT + 2 : 32;
}
