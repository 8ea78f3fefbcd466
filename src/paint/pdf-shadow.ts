// Drop shadows for vector pdf, which cannot blur: each shadow is rasterised at 300 dpi of its area (the
// group painted by the raster backend, its alpha blurred by sharp and coloured), to be placed as an
// image under the group's vector content. Done while the page is prepared, before pdfkit draws.
// rasteriseGroup (the group painted by the raster backend into a page rectangle) is shared with
// blurred objects (pdf-blur.ts).
import { createHash } from 'node:crypto';
import type Sharp from 'sharp';
import type { DecodedImage } from '../assets/load.js';
import type { PaintResources } from './backend.js';
import { lazyRequire } from '../lazy-require.js';
import type { DisplayItem, Matrix } from '../scene/display-list.js';
import type { Point, Rect } from '../scene/scene.js';
import type { GroupItem } from './backend.js';
import { rasterBackend } from './raster.js';

const sharp = lazyRequire<typeof Sharp>('sharp');

/** Shadows and blurs are rasterised at this density of their area (300 dpi), as perspective layers are. */
const RASTER_PX_SCALE = 300 / 96;
/** A bigger area is rasterised more coarsely rather than using more memory (it is blurred anyway). */
const MAX_RASTER_PIXELS = 16_000_000;

/** `outer` after `inner`: the matrix that applies `inner` first. */
export function compose(outer: Matrix, inner: Matrix): Matrix {
  const [a, b, c, d, e, f] = outer;
  const [A, B, C, D, E, F] = inner;
  return [a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f];
}

export function invert([a, b, c, d, e, f]: Matrix): Matrix {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export function boundsOf(m: Matrix, r: Rect): Rect {
  const pts = [
    [r.x, r.y],
    [r.x + r.width, r.y],
    [r.x, r.y + r.height],
    [r.x + r.width, r.y + r.height],
  ].map(([x, y]) => [m[0] * x! + m[2] * y! + m[4], m[1] * x! + m[3] * y! + m[5]] as const);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** A rasterised shadow and where it goes, in page pixels. */
export interface PreparedShadow {
  image: DecodedImage;
  dst: Rect;
}

/** What painting a group on its own needs: the page's images and fonts (a subset of PaintResources). */
export type GroupResources = Pick<PaintResources, 'images' | 'fonts' | 'cache' | 'ready'>;

/** The page rectangle in whole pixels that holds `content` moved by `offset` and grown by `margin` on every side. */
export function regionAround(content: Rect, offset: Point, margin: number): Rect {
  const x = Math.floor(content.x + offset[0] - margin);
  const y = Math.floor(content.y + offset[1] - margin);
  return { x, y, width: Math.ceil(content.x + content.width + offset[0] + margin) - x, height: Math.ceil(content.y + content.height + offset[1] + margin) - y };
}

/**
 * The shared part of rasterising for pdf: the group, placed on the page by its own transform after
 * `parent` (its parents' transforms to the page), and moved by
 * `offset`, painted by the raster backend into the page rectangle `dst` at 300 dpi of its area (less
 * for huge areas). Everything scales with the raster, nested shadows and blurs included. Returns the
 * raster's premultiplied RGBA and its pixels per page pixel.
 */
export async function rasteriseGroup(
  g: GroupItem,
  parent: Matrix,
  offset: Point,
  dst: Rect,
  resources: GroupResources,
): Promise<{ pixels: Buffer; width: number; height: number; k: number }> {
  const k = Math.min(RASTER_PX_SCALE, Math.sqrt(MAX_RASTER_PIXELS / (dst.width * dst.height)));
  const place: Matrix = [1, 0, 0, 1, offset[0] - dst.x, offset[1] - dst.y];
  const image = await rasterBackend.paint(
    { width: dst.width, height: dst.height, opaque: false, items: [{ ...g, transform: compose(compose(place, parent), g.transform) }] },
    { images: resources.images, fonts: resources.fonts, cache: resources.cache, ...(resources.ready ? { ready: resources.ready } : {}) },
    { scale: k },
  );
  return { pixels: image.pixels, width: image.width, height: image.height, k: Math.sqrt((image.width / dst.width) * (image.height / dst.height)) };
}

/** One channel (a plane of `width`×`height` bytes) blurred by a Gaussian of σ = `sigma` raster pixels. */
async function blurPlane(plane: Buffer, width: number, height: number, sigma: number): Promise<Buffer> {
  // sharp (libvips) needs σ ≥ 0.3; below that the blur is under a pixel of the raster anyway. It
  // returns a grey image as three channels: keep one.
  if (sigma < 0.3) return plane;
  return sharp()(plane, { raw: { width, height, channels: 1 } })
    .blur(sigma)
    .extractChannel(0)
    .raw()
    .toBuffer();
}

type Found = { group: GroupItem; parent: Matrix };

/** Every group with a shadow in the list, with its parents' transform to the page. */
function shadowGroups(items: readonly DisplayItem[], parent: Matrix, out: Found[] = []): Found[] {
  for (const it of items) {
    if (it.kind !== 'group') continue;
    if (it.shadow) out.push({ group: it, parent });
    shadowGroups(it.items, compose(parent, it.transform), out);
  }
  return out;
}

export async function prepareShadows(items: readonly DisplayItem[], resources: GroupResources): Promise<Map<GroupItem, PreparedShadow | null>> {
  const out = new Map<GroupItem, PreparedShadow | null>();
  for (const { group, parent } of shadowGroups(items, [1, 0, 0, 1, 0, 0])) {
    out.set(group, await rasteriseShadow(group, parent, resources));
  }
  return out;
}

async function rasteriseShadow(g: GroupItem, parent: Matrix, resources: GroupResources): Promise<PreparedShadow | null> {
  const shadow = g.shadow!;
  // The Gaussian is negligible beyond 3σ = 1.5 × blur.
  const dst = regionAround(boundsOf(compose(parent, g.transform), g.bounds), shadow.offset, Math.ceil(1.5 * shadow.blur) + 1);
  if (dst.width <= 0 || dst.height <= 0) return null;
  // The group's silhouette at full opacity (its own shadow and blur left out), moved by the offset.
  const silhouette = await rasteriseGroup(
    { kind: 'group', transform: g.transform, opacity: 1, bounds: g.bounds, clip: g.clip, items: g.items },
    parent,
    shadow.offset,
    dst,
    resources,
  );
  const { width, height } = silhouette;
  let alpha: Buffer = Buffer.alloc(width * height);
  for (let i = 0; i < width * height; i++) alpha[i] = silhouette.pixels[i * 4 + 3]!;
  alpha = await blurPlane(alpha, width, height, (shadow.blur / 2) * silhouette.k);
  const [r, gr, b, a] = shadow.color;
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba[i * 4] = r;
    rgba[i * 4 + 1] = gr;
    rgba[i * 4 + 2] = b;
    rgba[i * 4 + 3] = Math.round(alpha[i]! * a);
  }
  const hash = createHash('sha256').update(rgba).update(`${width}x${height}`).digest('hex');
  return { image: { kind: 'pixels', width, height, rgba, hash: `shadow:${hash}`, opaque: false }, dst };
}
