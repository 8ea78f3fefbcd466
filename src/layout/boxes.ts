// Media boxes: which part of a source image goes where in a box, for cover, contain and fill; the
// image sizes layout is given, and the identity transform of groups that only clip or blend.
import type { Matrix } from '../scene/display-list.js';
import type { MediaFit, Rect } from '../scene/scene.js';

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export interface ImageSize {
  width: number;
  height: number;
  /** Every pixel has full alpha (lets an image background make the whole canvas opaque). */
  opaque?: boolean;
}

/** Intrinsic sizes of the scene's images, keyed by `imageRefKey`. */
export type ImageSizes = ReadonlyMap<string, ImageSize>;

export interface MediaPlacement {
  /** Part of the source image, in source pixels. */
  src: Rect;
  /** Where it lands, in box coordinates. */
  dst: Rect;
}

export function placeMedia(fit: MediaFit, source: { width: number; height: number }, box: Rect): MediaPlacement {
  const full: Rect = { x: 0, y: 0, width: source.width, height: source.height };
  if (fit === 'fill') return { src: full, dst: box };
  const scaleX = box.width / source.width;
  const scaleY = box.height / source.height;
  if (fit === 'contain') {
    const s = Math.min(scaleX, scaleY);
    const width = source.width * s;
    const height = source.height * s;
    return { src: full, dst: { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height } };
  }
  // cover: the centred part of the source with the box's aspect ratio.
  const s = Math.max(scaleX, scaleY);
  const width = box.width / s;
  const height = box.height / s;
  return { src: { x: (source.width - width) / 2, y: (source.height - height) / 2, width, height }, dst: box };
}
