// Image objects placed: the picture cut and fitted into the box (crop, focal point, fit), mirrored,
// clipped by its rounded corners, mask or an SVG's shapes, with a border along that clip.
import type { BoxGeometry, DisplayItem, Geometry, Matrix } from '../../scene/display-list.js';
import { imageRefKey } from '../../scene/keys.js';
import type { RGBA, Rect, SceneImage } from '../../scene/scene.js';
import type { SvgDocument } from '../../svg/parse.js';
import { IDENTITY, pictureClip, placeMedia, sizeOf, svgOf } from '../boxes.js';
import { castShadow, group, localBox, type ObjectLayout } from '../place.js';
import { svgClip, svgItems } from '../svg.js';

export const imageLayout: ObjectLayout<SceneImage> = (o, ctx) => {
  const local = localBox(o);
  const framing = { ...(o.crop ? { crop: o.crop } : {}), ...(o.focus ? { focus: o.focus } : {}) };
  const { src, dst } = placeMedia(o.fit, sizeOf(ctx.images, o.image), local, framing);
  const picture: DisplayItem = { kind: 'image', image: imageRefKey(o.image), src, dst, ...(o.filters ? { filters: o.filters } : {}) };
  const image = flipped(picture, dst, o.flipX ?? false, o.flipY ?? false);
  if (o.clipSvg) {
    // The SVG clip wins over mask and corners: a group of its own, so the object's group keeps its plain shape.
    const doc = svgOf(ctx.images, o.clipSvg);
    const clipped: DisplayItem = doc.masked
      ? // A drawing with <mask>s is more than the union of its shapes: the picture is kept as much
        // as the drawing paints (its alpha), as a browser draws the picture "source-in" over it.
        {
          kind: 'group',
          transform: IDENTITY,
          opacity: 1,
          bounds: local,
          clip: null,
          mask: { items: svgItems(doc, dst, 'fill', {}), luminance: false },
          items: [image],
        }
      : { kind: 'group', transform: IDENTITY, opacity: 1, bounds: local, ...svgClipOf(doc, dst), items: [image] };
    return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, null, [clipped]), o.shadow) };
  }
  const clip = pictureClip(dst, o.cornerRadius ?? 0, o.mask ?? 'none');
  const items = [image];
  if (o.border) items.push(pictureBorder(dst, clip, o.border));
  return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, clip, items), o.shadow) };
};

/** The picture mirrored inside its area `dst` (a group whose transform flips about dst's centre); the clip stays put. */
function flipped(picture: DisplayItem, dst: Rect, x: boolean, y: boolean): DisplayItem {
  if (!x && !y) return picture;
  const transform: Matrix = [x ? -1 : 1, 0, 0, y ? -1 : 1, x ? 2 * dst.x + dst.width : 0, y ? 2 * dst.y + dst.height : 0];
  return { kind: 'group', transform, opacity: 1, bounds: dst, clip: null, items: [picture] };
}

/**
 * A picture's border, inside its clip, as CSS draws border with border-radius: the outer edge is the
 * clip (the rounded corners or the mask), the inner edge the clip inset by the width, with corner
 * radius max(0, radius − width). Stroked as a path centred between the two, reaching 1 px past the
 * outer edge, which the group's clip cuts: the edge pixels are the clip's, with no sliver of photo between.
 */
function pictureBorder(dst: Rect, clip: BoxGeometry | null, border: { width: number; color: RGBA }): DisplayItem {
  const outer = clip ? clip.rect : dst;
  const w = Math.min(border.width, outer.width / 2, outer.height / 2);
  // Without a clip the stroke ends at the picture's edge itself (nothing cuts it).
  const over = clip ? 1 : 0;
  const inset = (w - over) / 2;
  const rect = { x: outer.x + inset, y: outer.y + inset, width: outer.width - 2 * inset, height: outer.height - 2 * inset };
  const radius = clip?.kind === 'round_rect' ? Math.max(0, clip.radius - inset) : 0;
  const geometry: Geometry = clip?.kind === 'ellipse' ? { kind: 'ellipse', rect } : radius > 0 ? { kind: 'round_rect', rect, radius } : { kind: 'rect', rect };
  return { kind: 'stroke', geometry, color: border.color, width: w + over, dash: null };
}

/** An image clip_svg's clip: the union of the drawing's filled shapes, its viewBox stretched over `dst`. */
function svgClipOf(doc: SvgDocument, dst: Rect): { clip: Geometry; clipEvenOdd?: true } {
  const { geometry, evenOdd } = svgClip(doc, dst);
  return { clip: geometry, ...(evenOdd ? { clipEvenOdd: true as const } : {}) };
}
