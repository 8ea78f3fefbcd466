// Blurred objects (`blur`, CSS filter: blur) for vector pdf, which cannot blur: each blurred group is
// rasterised at 300 dpi of its area, with everything it paints (its shadow too) and its blur, by the
// shared rasteriseGroup (so by Skia, exactly as in the png), and put in the page's list in its place as
// one image, which the group's opacity and blend then composite. Done while the page is prepared.
import { createHash } from 'node:crypto';
import type { DecodedImage } from '../assets/load.js';
import type { DisplayItem, DisplayList, Matrix } from '../scene/display-list.js';
import type { Rect } from '../scene/scene.js';
import type { GroupItem } from './backend.js';
import { boundsOf, compose, invert, rasteriseGroup, regionAround, type GroupResources } from './pdf-shadow.js';

/** The list with every outermost blurred group replaced by its rasterised image, and those images by key. */
export async function prepareBlurs(list: DisplayList, resources: GroupResources): Promise<{ list: DisplayList; images: Map<string, DecodedImage> }> {
  const images = new Map<string, DecodedImage>();
  const walk = async (items: readonly DisplayItem[], parent: Matrix): Promise<DisplayItem[]> => {
    const out: DisplayItem[] = [];
    for (const it of items) {
      if (it.kind !== 'group') {
        out.push(it);
        continue;
      }
      if (!it.blur) {
        out.push({ ...it, items: await walk(it.items, compose(parent, it.transform)) });
        continue;
      }
      const placed = await rasteriseBlur(it, parent, resources);
      if (!placed) continue;
      images.set(placed.image.hash, placed.image);
      out.push(placed.item);
    }
    return out;
  };
  if (!hasBlur(list.items)) return { list, images };
  return { list: { ...list, items: await walk(list.items, [1, 0, 0, 1, 0, 0]) }, images };
}

function hasBlur(items: readonly DisplayItem[]): boolean {
  return items.some((it) => it.kind === 'group' && ((it.blur ?? 0) > 0 || hasBlur(it.items)));
}

/**
 * The group at full opacity, shadow included, blurred: straight RGBA for the pdf, and the item that
 * draws it in page pixels (undoing the parents' transform) at the group's opacity and blend.
 */
async function rasteriseBlur(g: GroupItem, parent: Matrix, resources: GroupResources): Promise<{ image: DecodedImage; item: DisplayItem } | null> {
  const det = parent[0] * parent[3] - parent[1] * parent[2];
  if (Math.abs(det) < 1e-9) return null;
  // The bounds already reach 3σ past the content; a shadow reaches its offset and 3σ of its own blur
  // (σ = blur / 2) further, and the blur spreads that by 3σ too.
  const content = boundsOf(compose(parent, g.transform), g.bounds);
  let dst = regionAround(content, [0, 0], 1);
  if (g.shadow) dst = union(dst, regionAround(content, g.shadow.offset, Math.ceil(1.5 * g.shadow.blur + 3 * g.blur!) + 1));
  if (dst.width <= 0 || dst.height <= 0) return null;
  // Opacity and blend are left to the pdf, which composites the image as it would have the group.
  const { opacity: _opacity, blend: _blend, ...rest } = g;
  const { width, height, pixels } = await rasteriseGroup({ ...rest, opacity: 1 }, parent, [0, 0], dst, resources);
  // The raster is premultiplied; a pdf image is straight colour with its alpha as a soft mask.
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height * 4; i += 4) {
    const alpha = pixels[i + 3]!;
    if (alpha === 0) continue;
    for (let c = 0; c < 3; c++) rgba[i + c] = Math.min(255, Math.round((pixels[i + c]! * 255) / alpha));
    rgba[i + 3] = alpha;
  }
  const hash = `blur:${createHash('sha256').update(rgba).update(`${width}x${height}`).digest('hex')}`;
  const image: DecodedImage = { kind: 'pixels', width, height, rgba, hash, opaque: false };
  const item: DisplayItem = {
    kind: 'group',
    transform: invert(parent),
    opacity: g.opacity,
    ...(g.blend ? { blend: g.blend } : {}),
    bounds: dst,
    clip: null,
    items: [{ kind: 'image', image: hash, src: { x: 0, y: 0, width, height }, dst }],
  };
  return { image, item };
}

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}
