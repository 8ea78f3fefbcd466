// Media boxes: which part of a source image goes where in a box, for cover, contain and fill (after
// a crop, around a focal point), the clip of rounded or masked pictures, the image sizes (and parsed
// SVG drawings) layout is given, and the identity transform of groups that only clip or blend.
import type { BoxGeometry, Matrix } from '../scene/display-list.js';
import { imageRefKey, svgRefKey } from '../scene/keys.js';
import type { SvgDocument } from '../svg/parse.js';
import type { ImageMask, MediaFit, Point, Rect, SceneImageRef } from '../scene/scene.js';

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export interface ImageSize {
  width: number;
  height: number;
  /** Every pixel has full alpha (lets an image background make the whole canvas opaque). */
  opaque?: boolean;
  /** An SVG file's drawing (keyed by `svgRefKey`): layout turns it into paths. */
  svg?: SvgDocument;
}

/** Intrinsic sizes of the scene's images, keyed by `imageRefKey`. */
export type ImageSizes = ReadonlyMap<string, ImageSize>;

export function sizeOf(images: ImageSizes, ref: SceneImageRef): ImageSize {
  const size = images.get(imageRefKey(ref));
  if (!size) throw new Error(`layout: no size for image ${imageRefKey(ref)} (the engine loads every image before layout)`);
  return size;
}

export function svgOf(images: ImageSizes, ref: SceneImageRef): SvgDocument {
  const svg = images.get(svgRefKey(ref))?.svg;
  if (!svg) throw new Error(`layout: no drawing for SVG ${imageRefKey(ref)} (the engine parses every SVG file before layout)`);
  return svg;
}

export interface MediaPlacement {
  /** Part of the source image, in source pixels. */
  src: Rect;
  /** Where it lands, in box coordinates. */
  dst: Rect;
}

export interface MediaFraming {
  /** Part of the source used, in fractions 0–1 of the source. Default: all of it. */
  crop?: Rect;
  /** With cover: the point kept nearest the box centre, in fractions 0–1 of the whole source. Default: the crop's centre. */
  focus?: Point;
}

export function placeMedia(fit: MediaFit, source: { width: number; height: number }, box: Rect, framing: MediaFraming = {}): MediaPlacement {
  const { crop, focus } = framing;
  // The crop in source pixels: everything below fits this rectangle as if it were the whole image.
  const part: Rect = crop
    ? { x: crop.x * source.width, y: crop.y * source.height, width: crop.width * source.width, height: crop.height * source.height }
    : { x: 0, y: 0, width: source.width, height: source.height };
  if (fit === 'fill') return { src: part, dst: box };
  const scaleX = box.width / part.width;
  const scaleY = box.height / part.height;
  if (fit === 'contain') {
    const s = Math.min(scaleX, scaleY);
    const width = part.width * s;
    const height = part.height * s;
    return { src: part, dst: { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height } };
  }
  // cover: the part of the crop with the box's aspect ratio, centred on the focal point (default the
  // crop's centre) and slid back inside the crop where the point is too near an edge, so the box is
  // always filled.
  const s = Math.max(scaleX, scaleY);
  const width = box.width / s;
  const height = box.height / s;
  if (!focus) return { src: { x: part.x + (part.width - width) / 2, y: part.y + (part.height - height) / 2, width, height }, dst: box };
  const x = slide(focus[0] * source.width - width / 2, part.x, part.width - width);
  const y = slide(focus[1] * source.height - height / 2, part.y, part.height - height);
  return { src: { x, y, width, height }, dst: box };
}

/** `start` clamped to [origin, origin + room]; room is 0 (up to rounding) on the axis the cover fills exactly. */
function slide(start: number, origin: number, room: number): number {
  return Math.min(Math.max(start, origin), origin + Math.max(0, room));
}

/**
 * The clip of a picture with rounded corners or a mask, or null when it needs none. It is taken of
 * the picture's area `dst` (the box for cover and fill, the fitted picture for contain), so a
 * contained photo gets its own rounded corners rather than the empty box's. A mask wins over the radius.
 */
export function pictureClip(dst: Rect, cornerRadius: number, mask: ImageMask): BoxGeometry | null {
  if (mask === 'ellipse') return { kind: 'ellipse', rect: dst };
  if (mask === 'circle') {
    const d = Math.min(dst.width, dst.height);
    return { kind: 'ellipse', rect: { x: dst.x + (dst.width - d) / 2, y: dst.y + (dst.height - d) / 2, width: d, height: d } };
  }
  const radius = Math.min(cornerRadius, dst.width / 2, dst.height / 2);
  return radius > 0 ? { kind: 'round_rect', rect: dst, radius } : null;
}
