// Drop shadows for vector pdf, which cannot blur: each shadow is rasterised at 300 dpi of its area (the
// group painted by the raster backend, its alpha blurred by sharp and coloured), to be placed as an
// image under the group's vector content. Done while the page is prepared, before pdfkit draws.
import { createHash } from 'node:crypto';
import type Sharp from 'sharp';
import type { DecodedImage, ImageCache, LoadedImage } from '../assets/load.js';
import { lazyRequire } from '../lazy-require.js';
import type { DisplayItem, Matrix } from '../scene/display-list.js';
import type { Rect } from '../scene/scene.js';
import type { FontSet } from '../text/fonts.js';
import type { GroupItem } from './backend.js';
import { rasterBackend } from './raster.js';

const sharp = lazyRequire<typeof Sharp>('sharp');

/** Shadows are rasterised at this density of their area (300 dpi), as perspective layers are. */
const SHADOW_PX_SCALE = 300 / 96;
/** A bigger shadow is rasterised more coarsely rather than using more memory (it is blurred anyway). */
const MAX_SHADOW_PIXELS = 16_000_000;

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

/** Every group with a shadow in the list, with its transform from the group to the page. */
function shadowGroups(items: readonly DisplayItem[], parent: Matrix, out: { group: GroupItem; matrix: Matrix }[] = []): { group: GroupItem; matrix: Matrix }[] {
  for (const it of items) {
    if (it.kind !== 'group') continue;
    const matrix = compose(parent, it.transform);
    if (it.shadow) out.push({ group: it, matrix });
    shadowGroups(it.items, matrix, out);
  }
  return out;
}

export async function prepareShadows(
  items: readonly DisplayItem[],
  images: ReadonlyMap<string, LoadedImage>,
  fonts: FontSet,
  cache: ImageCache,
): Promise<Map<GroupItem, PreparedShadow | null>> {
  const out = new Map<GroupItem, PreparedShadow | null>();
  for (const { group, matrix } of shadowGroups(items, [1, 0, 0, 1, 0, 0])) {
    out.set(group, await rasteriseShadow(group, matrix, images, fonts, cache));
  }
  return out;
}

async function rasteriseShadow(
  g: GroupItem,
  matrix: Matrix,
  images: ReadonlyMap<string, LoadedImage>,
  fonts: FontSet,
  cache: ImageCache,
): Promise<PreparedShadow | null> {
  const shadow = g.shadow!;
  const content = boundsOf(matrix, g.bounds);
  // The Gaussian is negligible beyond 3σ = 1.5 × blur.
  const margin = Math.ceil(1.5 * shadow.blur) + 1;
  const dst: Rect = {
    x: Math.floor(content.x + shadow.offset[0] - margin),
    y: Math.floor(content.y + shadow.offset[1] - margin),
    width: 0,
    height: 0,
  };
  dst.width = Math.ceil(content.x + content.width + shadow.offset[0] + margin) - dst.x;
  dst.height = Math.ceil(content.y + content.height + shadow.offset[1] + margin) - dst.y;
  if (dst.width <= 0 || dst.height <= 0) return null;
  const k = Math.min(SHADOW_PX_SCALE, Math.sqrt(MAX_SHADOW_PIXELS / (dst.width * dst.height)));
  const width = Math.max(1, Math.round(dst.width * k));
  const height = Math.max(1, Math.round(dst.height * k));
  // The group at full opacity, moved by the offset into the shadow's own pixel grid.
  const place: Matrix = [k, 0, 0, k, (shadow.offset[0] - dst.x) * k, (shadow.offset[1] - dst.y) * k];
  const silhouette = await rasterBackend.paint(
    {
      width,
      height,
      opaque: false,
      items: [{ kind: 'group', transform: compose(place, matrix), opacity: 1, bounds: g.bounds, clip: g.clip, items: g.items }],
    },
    { images, fonts, cache },
  );
  let alpha = Buffer.alloc(width * height);
  for (let i = 0; i < width * height; i++) alpha[i] = silhouette.pixels[i * 4 + 3]!;
  const sigma = (shadow.blur / 2) * k;
  // sharp (libvips) needs σ ≥ 0.3; below that the blur is under a pixel of the raster anyway. It
  // returns a grey image as three channels: keep one.
  if (sigma >= 0.3)
    alpha = await sharp()(alpha, { raw: { width, height, channels: 1 } })
      .blur(sigma)
      .extractChannel(0)
      .raw()
      .toBuffer();
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
