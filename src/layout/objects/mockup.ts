// Mockup layout: the base image fills the box; each layer's area (base-image pixels) is scaled into
// the box, pictures are fitted by cover/contain/fill, and quads become perspective image items.
import { imageRefKey } from '../../scene/keys.js';
import type { RGBA, MediaFit, Point, Quad, Rect, SceneImageRef, SceneMockup, SceneMockupLayer } from '../../scene/scene.js';
import { IDENTITY, placeMedia, sizeOf, type ImageSize } from '../boxes.js';
import type { DisplayItem } from '../../scene/display-list.js';
import { applyHomography, rectToQuad } from '../homography.js';
import { castShadow, group, localBox, type ObjectLayout } from '../place.js';

const dist = ([ax, ay]: Point, [bx, by]: Point): number => Math.hypot(bx - ax, by - ay);

/** The rectangle a quad stands for: mean width and height of its opposite edges. */
function nominalSize([tl, tr, br, bl]: Quad): { width: number; height: number } {
  return { width: (dist(tl, tr) + dist(bl, br)) / 2, height: (dist(tl, bl) + dist(tr, br)) / 2 };
}

function layerItems(layer: SceneMockupLayer, sx: number, sy: number, sizeOf: (r: SceneImageRef) => ImageSize): DisplayItem[] {
  const area = layer.area;
  const rect: Rect | null =
    area.kind === 'rect' ? { x: area.rect.x * sx, y: area.rect.y * sy, width: area.rect.width * sx, height: area.rect.height * sy } : null;
  const quad: Quad | null = area.kind === 'quad' ? (area.quad.map(([x, y]) => [x * sx, y * sy] as const) as unknown as Quad) : null;

  /** An image (or part of it) fitted into the area: a plain image in a rectangle, a warp in a quad. */
  const picture = (ref: SceneImageRef, fit: MediaFit, tint?: RGBA): DisplayItem[] => {
    const size = sizeOf(ref);
    const image = imageRefKey(ref);
    const extra = tint ? { tint } : {};
    if (rect) {
      const { src, dst } = placeMedia(fit, size, rect);
      return [{ kind: 'image', image, src, dst, ...extra }];
    }
    const nominal = nominalSize(quad!);
    if (!(nominal.width > 0 && nominal.height > 0)) return [];
    const { src, dst } = placeMedia(fit, size, { x: 0, y: 0, ...nominal });
    let h;
    try {
      h = rectToQuad(nominal.width, nominal.height, quad!);
    } catch {
      return []; // a degenerate quad (corners on one line) shows nothing rather than garbage
    }
    const corners: Point[] = [
      [dst.x, dst.y],
      [dst.x + dst.width, dst.y],
      [dst.x + dst.width, dst.y + dst.height],
      [dst.x, dst.y + dst.height],
    ];
    return [{ kind: 'image_quad', image, src, quad: corners.map(([x, y]) => applyHomography(h, x, y)) as unknown as Quad, ...extra }];
  };

  switch (layer.kind) {
    case 'image':
      return layer.image ? picture(layer.image, layer.fit) : [];
    case 'artwork':
      return picture(layer.image, 'fill');
    case 'color':
      if (layer.mask) return picture(layer.mask, 'fill', layer.color);
      return [{ kind: 'fill', geometry: rect ? { kind: 'rect', rect } : { kind: 'polygon', points: quad! }, color: layer.color }];
  }
}

function mockupItems(m: SceneMockup, sizeOf: (r: SceneImageRef) => ImageSize): DisplayItem[] {
  const base = sizeOf(m.base);
  const box: Rect = { x: 0, y: 0, width: m.box.width, height: m.box.height };
  const sx = box.width / base.width;
  const sy = box.height / base.height;
  const items: DisplayItem[] = [{ kind: 'image', image: imageRefKey(m.base), src: { x: 0, y: 0, width: base.width, height: base.height }, dst: box }];
  for (const layer of m.layers) {
    const content = layerItems(layer, sx, sy, sizeOf);
    if (content.length === 0) continue;
    items.push({ kind: 'group', transform: IDENTITY, opacity: layer.opacity, bounds: box, clip: null, blend: layer.blend, items: content });
  }
  return items;
}

export const mockupLayout: ObjectLayout<SceneMockup> = (o, ctx) => {
  const local = localBox(o);
  // Clipped to its box, as a group of slides is.
  const items = mockupItems(o, (r) => sizeOf(ctx.images, r));
  return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, { kind: 'rect', rect: local }, items), o.shadow) };
};
