// SVG objects placed: the drawing (svg.ts turns it into paths) or its fill_image seen through the
// drawing's filled shapes, clipped to the box with rounded corners, and the border Polotno draws.
import type { DisplayItem, Geometry } from '../../scene/display-list.js';
import { imageRefKey } from '../../scene/keys.js';
import type { SceneSvg } from '../../scene/scene.js';
import { svgFrameProblem } from '../../svg/clip.js';
import { IDENTITY, placeMedia, sizeOf, svgOf } from '../boxes.js';
import { castShadow, group, localBox, type ObjectLayout } from '../place.js';
import { svgClipBy, svgItems, svgViewport } from '../svg.js';

/**
 * An svg object: the drawing (or its fill_image seen through the drawing's filled shapes), clipped to
 * the box (as a browser's <img> of the file clips it) with rounded corners, and its border. Polotno
 * draws the border as a node of its own: a stroke centred on the box inset by half the width, with
 * corners rounded by cornerRadius − width, not clipped, not shadowed, at the element's opacity.
 */
export const svgLayout: ObjectLayout<SceneSvg> = (o, ctx) => {
  const local = localBox(o);
  const doc = svgOf(ctx.images, o.svg);
  let content: DisplayItem[];
  if (o.fillImage) {
    // The picture covers the box, centred, kept where the drawing paints (Polotno's "source-in"): a
    // vector clip by the filled shapes when that is the same (opaque fills only), else the drawing's alpha.
    const { src, dst } = placeMedia('cover', sizeOf(ctx.images, o.fillImage), local);
    const picture: DisplayItem = { kind: 'image', image: imageRefKey(o.fillImage), src, dst };
    const frame: DisplayItem = { kind: 'group', transform: IDENTITY, opacity: 1, bounds: local, clip: null, items: [picture] };
    if (doc.masked || svgFrameProblem(doc)) frame.mask = { items: svgItems(doc, local, o.fit, o.colors), luminance: false };
    else {
      const { geometry, evenOdd } = svgClipBy(doc, svgViewport(doc, local, o.fit));
      Object.assign(frame, { clip: geometry, ...(evenOdd ? { clipEvenOdd: true } : {}) });
    }
    content = [frame];
  } else content = svgItems(doc, local, o.fit, o.colors);
  const r = Math.min(o.cornerRadius ?? 0, local.width / 2, local.height / 2);
  const clip: Geometry = r > 0 ? { kind: 'round_rect', rect: local, radius: r } : { kind: 'rect', rect: local };
  if (!o.border) return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, clip, content), o.shadow) };
  const w = Math.min(o.border.width, local.width / 2, local.height / 2);
  const line = { x: w / 2, y: w / 2, width: local.width - w, height: local.height - w };
  const radius = Math.max(0, Math.min((o.cornerRadius ?? 0) - w, line.width / 2, line.height / 2));
  const geometry: Geometry = radius > 0 ? { kind: 'round_rect', rect: line, radius } : { kind: 'rect', rect: line };
  const drawing = castShadow({ kind: 'group', transform: IDENTITY, opacity: o.opacity, bounds: local, clip, items: content }, o.shadow);
  const border: DisplayItem = {
    kind: 'group',
    transform: IDENTITY,
    opacity: o.opacity,
    bounds: local,
    clip: null,
    items: [{ kind: 'stroke', geometry, color: o.border.color, width: w, dash: null }],
  };
  return { group: group(o.box, local, o.rotation, o.scale, 1, local, null, [drawing, border]) };
};
