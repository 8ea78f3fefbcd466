// layout: Scene (+ intrinsic image sizes) → DisplayList and fit report. Pure and deterministic:
// no I/O, no pixels; every object becomes one group placed by its box, rotation and opacity.
import type { RGBA, Rect, Scene, SceneFill, SceneImageRef, SceneObject, SceneShadow, SceneShape } from '../scene/scene.js';
import { clipFrameKey, imageRefKey } from '../scene/keys.js';
import type { FontSet } from '../text/fonts.js';
import { IDENTITY, pictureClip, placeMedia, type ImageSize, type ImageSizes } from './boxes.js';
import type { BoxGeometry, DisplayItem, DisplayList, Geometry, Matrix } from '../scene/display-list.js';
import { layoutChart } from './chart/chart.js';
import { gradientOpaque, placeGradient } from './gradient.js';
import { layoutMockup } from './mockup.js';
import { layoutText, type TextFitReport } from './text.js';

export type { ImageSize, ImageSizes } from './boxes.js';

export type FitReport = TextFitReport[];

export interface LayoutResult {
  displayList: DisplayList;
  report: FitReport;
}

export function layout(scene: Scene, images: ImageSizes, fonts: FontSet): LayoutResult {
  const canvas: Rect = { x: 0, y: 0, width: scene.width, height: scene.height };
  const items: DisplayItem[] = [...fillItems(scene.background, { kind: 'rect', rect: canvas }, images)];
  const report: FitReport = [];
  for (const object of scene.objects) {
    const placed = layoutObject(object, images, fonts);
    if (placed.report) report.push(placed.report);
    if (placed.reports) report.push(...placed.reports);
    items.push(placed.group);
  }
  const bg = scene.background;
  const opaque = bg.kind === 'color' ? bg.color[3] === 1 : bg.kind === 'image' ? sizeOf(images, bg.image).opaque === true : gradientOpaque(bg);
  return { displayList: { width: scene.width, height: scene.height, opaque, items }, report };
}

/** Gives an object's group its drop shadow (shapes, images, text): the painters shadow the whole layer. */
function castShadow(g: DisplayItem, s: SceneShadow | null | undefined): DisplayItem {
  // A shadow with no alpha paints nothing; leaving it out spares the layer.
  if (s && s.color[3] > 0 && g.kind === 'group') g.shadow = { color: s.color, blur: s.blur, offset: [s.offsetX, s.offsetY] };
  return g;
}

function layoutObject(o: SceneObject, images: ImageSizes, fonts: FontSet): { group: DisplayItem; report?: TextFitReport; reports?: TextFitReport[] } {
  const local: Rect = { x: 0, y: 0, width: o.box.width, height: o.box.height };
  // Groups and mockups clip their content to their own box.
  const clippedToBox = (items: DisplayItem[]): DisplayItem => group(o.box, local, o.rotation, o.scale, o.opacity, local, { kind: 'rect', rect: local }, items);
  switch (o.type) {
    case 'text': {
      const t = layoutText(o, fonts);
      // Glyphs reach outside their em box a little; an outline a further half its width.
      // A background reaches past the lines by its padding.
      const pad = o.background ? Math.max(o.background.padding.x, o.background.padding.y) : 0;
      const margin = t.report.font_size + Math.max(o.stroke ? o.stroke.width / 2 : 0, pad);
      const bounds = { x: -margin, y: -margin, width: t.box.width + 2 * margin, height: t.box.height + 2 * margin };
      const g = group(o.box, t.box, o.rotation, o.scale, o.opacity, bounds, t.clip ? { kind: 'rect', rect: t.box } : null, t.items);
      return { group: castShadow(g, o.shadow), report: t.report };
    }
    case 'image': {
      const framing = { ...(o.crop ? { crop: o.crop } : {}), ...(o.focus ? { focus: o.focus } : {}) };
      const { src, dst } = placeMedia(o.fit, sizeOf(images, o.image), local, framing);
      const clip = pictureClip(dst, o.cornerRadius ?? 0, o.mask ?? 'none');
      const picture: DisplayItem = { kind: 'image', image: imageRefKey(o.image), src, dst, ...(o.filters ? { filters: o.filters } : {}) };
      const items = [flipped(picture, dst, o.flipX ?? false, o.flipY ?? false)];
      if (o.border) items.push(pictureBorder(dst, clip, o.border));
      return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, clip, items), o.shadow) };
    }
    case 'shape': {
      return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, null, shapeItems(o, local, images)), o.shadow) };
    }
    case 'chart':
      // Clipped like mockups: labels near the edges never paint outside the chart's box.
      return { group: group(o.box, local, o.rotation, o.scale, o.opacity, local, { kind: 'rect', rect: local }, layoutChart(o, fonts)) };
    case 'video': {
      const size = images.get(o.decodeKey);
      if (!size) throw new Error(`layout: no size for clip ${o.decodeKey} (the engine probes every clip before layout)`);
      const { src, dst } = placeMedia(o.fit, size, local);
      return { group: group(o.box, local, o.rotation, o.scale, o.opacity, local, null, [{ kind: 'image', image: clipFrameKey(o), src, dst }]) };
    }
    case 'group': {
      const children = o.objects.map((c) => layoutObject(c, images, fonts));
      return {
        group: clippedToBox(children.map((c) => c.group)),
        ...(children.some((c) => c.report) ? { reports: children.flatMap((c) => (c.report ? [c.report] : (c.reports ?? []))) } : {}),
      };
    }
    case 'mockup':
      return { group: clippedToBox(layoutMockup(o, (r) => sizeOf(images, r))) };
  }
}

function group(
  box: Rect,
  sized: Rect,
  rotation: number,
  scale: number,
  opacity: number,
  bounds: Rect,
  clip: Geometry | null,
  items: DisplayItem[],
): DisplayItem {
  return { kind: 'group', transform: placement(box.x, box.y, sized.width, sized.height, rotation, scale), opacity, bounds, clip, items };
}

/** Translate to (x, y), then rotate clockwise by `degrees` and scale, both around the centre of the box. */
export function placement(x: number, y: number, width: number, height: number, degrees: number, scale = 1): Matrix {
  if (degrees === 0 && scale === 1) return [1, 0, 0, 1, x, y];
  const r = (degrees * Math.PI) / 180;
  const cos = Math.cos(r) * scale;
  const sin = Math.sin(r) * scale;
  const cx = width / 2;
  const cy = height / 2;
  return [cos, sin, -sin, cos, x + cx - cos * cx + sin * cy, y + cy - sin * cx - cos * cy];
}

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

function shapeGeometry(shape: SceneShape['shape'], rect: Rect, radius: number): BoxGeometry {
  if (shape === 'ellipse') return { kind: 'ellipse', rect };
  if (shape === 'rounded_rect') return { kind: 'round_rect', rect, radius: Math.max(0, Math.min(radius, rect.width / 2, rect.height / 2)) };
  return { kind: 'rect', rect };
}

function shapeItems(o: SceneShape, box: Rect, images: ImageSizes): DisplayItem[] {
  const outline = shapeGeometry(o.shape, box, o.cornerRadius);
  const items = o.fill ? fillItems(o.fill, outline, images) : [];
  if (o.border) {
    // The border lies inside the outline: stroke the outline inset by half the width.
    const w = Math.min(o.border.width, box.width / 2, box.height / 2);
    const inset = { x: w / 2, y: w / 2, width: box.width - w, height: box.height - w };
    items.push({
      kind: 'stroke',
      geometry: shapeGeometry(o.shape, inset, o.cornerRadius - w / 2),
      color: o.border.color,
      width: w,
      dash: o.border.style === 'dashed' ? [3 * w, 2 * w] : null,
    });
  }
  return items;
}

function fillItems(fill: SceneFill, outline: BoxGeometry, images: ImageSizes): DisplayItem[] {
  if (fill.kind === 'color') return [{ kind: 'fill', geometry: outline, color: fill.color }];
  if (fill.kind !== 'image') return [{ kind: 'gradient', geometry: outline, gradient: placeGradient(fill, outline.rect) }];
  const { src, dst } = placeMedia('cover', sizeOf(images, fill.image), outline.rect);
  const image: DisplayItem = { kind: 'image', image: imageRefKey(fill.image), src, dst };
  if (outline.kind === 'rect') return [image];
  return [{ kind: 'group', transform: IDENTITY, opacity: 1, bounds: outline.rect, clip: outline, items: [image] }];
}

function sizeOf(images: ImageSizes, ref: SceneImageRef): ImageSize {
  const size = images.get(imageRefKey(ref));
  if (!size) throw new Error(`layout: no size for image ${imageRefKey(ref)} (the engine loads every image before layout)`);
  return size;
}
