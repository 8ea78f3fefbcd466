// Before raster painting, images are brought to the form Skia draws fast and well, once, and cached:
// each is decoded at the pixel size it is painted at (sharp, Lanczos 3, shrink-on-load for jpg),
// tinted masks are coloured, colour filters applied (image-filters.ts), and perspective quads are
// warped (Skia via @napi-rs/canvas is affine only). Every image item that leaves here is a plain, decoded image drawn at about 1:1.
import { decodePixels, type DecodedImage, type ImageCache, type LoadedImage } from '../assets/load.js';
import type { RGBA, Point, Rect } from '../scene/scene.js';
import { ImprintError } from '../errors.js';
import type { DisplayItem, DisplayList } from '../scene/display-list.js';
import { applyFilters, filteredKey } from './image-filters.js';
import { imageItems, type ImageItem } from './walk.js';
import { warpImage } from './warp.js';

type PlainImage = Extract<DisplayItem, { kind: 'image' }>;

/** Warped images are whole-bounding-box buffers; beyond this a quad is almost surely a mistake. */
const MAX_WARP_PIXELS = 40_000_000;

/** Swaps prepared items in; an item replaced by null (a degenerate quad) is dropped. */
function mapItems(items: readonly DisplayItem[], replace: ReadonlyMap<ImageItem, PlainImage | null>): DisplayItem[] {
  return items.flatMap((it): DisplayItem[] => {
    if (it.kind === 'group') return [{ ...it, items: mapItems(it.items, replace) }];
    if ((it.kind === 'image' || it.kind === 'image_quad') && replace.has(it)) {
      const next = replace.get(it);
      return next ? [next] : [];
    }
    return [it];
  });
}

async function cached(cache: ImageCache, key: string, make: () => DecodedImage): Promise<DecodedImage> {
  let image = cache.pixels(key);
  if (!image) {
    image = make();
    cache.set(image);
  }
  return image;
}

/** The colour everywhere, the image's alpha as coverage: a coloured mask. */
function tinted(image: DecodedImage, [r, g, b, a]: RGBA, key: string): DecodedImage {
  const out = Buffer.allocUnsafe(image.rgba.length);
  const src = image.rgba;
  for (let i = 0; i < src.length; i += 4) {
    out[i] = r;
    out[i + 1] = g;
    out[i + 2] = b;
    out[i + 3] = Math.round(src[i + 3]! * a);
  }
  return { kind: 'pixels', width: image.width, height: image.height, rgba: out, hash: key, opaque: image.opaque && a === 1 };
}

/** Where each warped image's top-left lies, in the device-scaled coordinates of its quad. */
const warpOrigins = new WeakMap<DecodedImage, Point>();

const dist = ([ax, ay]: Point, [bx, by]: Point): number => Math.hypot(bx - ax, by - ay);

/** The crop decoded at no more than `width`×`height` (never enlarged), then tinted if asked. */
async function source(image: LoadedImage, ext: Rect, width: number, height: number, tint: RGBA | undefined, cache: ImageCache): Promise<DecodedImage> {
  const w = Math.max(1, Math.min(ext.width, Math.round(width)));
  const h = Math.max(1, Math.min(ext.height, Math.round(height)));
  const pixels = await decodePixels(image, ext, w, h, cache);
  if (!tint) return pixels;
  const key = `${pixels.hash}#${tint.join(',')}`;
  return cached(cache, key, () => tinted(pixels, tint, key));
}

/** Whole source pixels around a fractional crop. */
function wholePixels(src: Rect, image: LoadedImage): Rect {
  const x = Math.max(0, Math.floor(src.x));
  const y = Math.max(0, Math.floor(src.y));
  return {
    x,
    y,
    width: Math.max(1, Math.min(image.width, Math.ceil(src.x + src.width)) - x),
    height: Math.max(1, Math.min(image.height, Math.ceil(src.y + src.height)) - y),
  };
}

async function preparePlain(
  item: PlainImage,
  image: LoadedImage,
  scale: number,
  cache: ImageCache,
  stepped: boolean,
): Promise<{ item: PlainImage; image: DecodedImage }> {
  const { src, dst } = item;
  // Decode at the painted size when downscaling; at full size when drawn about 1:1 or enlarged.
  // For video frames sizes are rounded up to steps of 2^(1/8) (9 %), so an animated zoom reuses a
  // few decodes and Skia shrinks the rest of the way, instead of decoding anew for every frame.
  const step = (k: number): number => (stepped ? Math.min(1, 2 ** (Math.ceil(Math.log2(k) * 8 - 1e-9) / 8)) : k);
  const kx = step(Math.min(1, (dst.width * scale) / src.width));
  const ky = step(Math.min(1, (dst.height * scale) / src.height));
  const full = kx >= 0.95 && ky >= 0.95;
  const ext = full ? { x: 0, y: 0, width: image.width, height: image.height } : wholePixels(src, image);
  const decoded = await source(image, ext, full ? ext.width : ext.width * kx, full ? ext.height : ext.height * ky, item.tint, cache);
  // Filters change the pixels at the size they are painted, as a browser filters the drawn picture.
  const filters = item.filters;
  const pixels = filters ? await cached(cache, filteredKey(decoded.hash, filters), () => applyFilters(decoded, filters)) : decoded;
  const fx = pixels.width / ext.width;
  const fy = pixels.height / ext.height;
  return {
    item: { kind: 'image', image: pixels.hash, src: { x: (src.x - ext.x) * fx, y: (src.y - ext.y) * fy, width: src.width * fx, height: src.height * fy }, dst },
    image: pixels,
  };
}

export async function prepareQuad(
  item: Extract<ImageItem, { kind: 'image_quad' }>,
  image: LoadedImage,
  scale: number,
  cache: ImageCache,
): Promise<{ item: PlainImage; image: DecodedImage } | null> {
  const quad = item.quad.map(([x, y]) => [x * scale, y * scale] as const) as unknown as typeof item.quad;
  const [tl, tr, br, bl] = quad;
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  const area = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
  if (!(area <= MAX_WARP_PIXELS)) {
    throw new ImprintError(
      'validation_error',
      image.at,
      `a mockup layer quad spans ${Math.round(area / 1e6)} megapixels at this size: keep quads within the mockup's base image`,
    );
  }
  // The crop in whole pixels (a cover crop moves by under half a source pixel), decoded at about
  // the quad's size so the warp itself never minifies by much more than the perspective does.
  const { src } = item;
  const x = Math.max(0, Math.round(src.x));
  const y = Math.max(0, Math.round(src.y));
  const ext = {
    x,
    y,
    width: Math.max(1, Math.min(image.width, Math.round(src.x + src.width)) - x),
    height: Math.max(1, Math.min(image.height, Math.round(src.y + src.height)) - y),
  };
  const ready = await source(image, ext, Math.ceil(Math.max(dist(tl, tr), dist(bl, br))), Math.ceil(Math.max(dist(tl, bl), dist(tr, br))), item.tint, cache);
  const key = `${ready.hash}→quad(${quad.map((p) => p.map((v) => v.toFixed(3)).join(',')).join(';')})`;
  const warped = await cached(cache, key, () => {
    const w = warpImage(ready, quad);
    const result: DecodedImage = { kind: 'pixels', width: w.width, height: w.height, rgba: w.rgba, hash: key, opaque: false };
    warpOrigins.set(result, [w.x, w.y]);
    return result;
  });
  const origin = warpOrigins.get(warped);
  if (warped.width === 0 || warped.height === 0 || !origin) return null;
  const [ox, oy] = origin;
  return {
    item: {
      kind: 'image',
      image: warped.hash,
      src: { x: 0, y: 0, width: warped.width, height: warped.height },
      dst: { x: ox / scale, y: oy / scale, width: warped.width / scale, height: warped.height / scale },
    },
    image: warped,
  };
}

/** Every image item of the list, decoded (and tinted or warped) for painting; keys of the result are the new items' images. */
export async function prepareRasterImages(
  list: DisplayList,
  images: ReadonlyMap<string, LoadedImage>,
  cache: ImageCache,
  ready?: ReadonlyMap<string, DecodedImage>,
  steppedSizes = false,
  /** Canvas pixels per display-list pixel (a scaled still): images are decoded for the canvas. */
  pageScale = 1,
): Promise<{ list: DisplayList; images: Map<string, DecodedImage> }> {
  const jobs = imageItems(list.items, pageScale);
  const out = new Map<string, DecodedImage>(ready ?? []);
  const replace = new Map<ImageItem, PlainImage | null>();
  for (const { item, scale } of jobs) {
    if (ready?.has(item.image)) continue;
    const image = images.get(item.image);
    if (!image) continue;
    const done = item.kind === 'image' ? await preparePlain(item, image, scale, cache, steppedSizes) : await prepareQuad(item, image, scale, cache);
    if (done) {
      out.set(done.image.hash, done.image);
      replace.set(item, done.item);
    } else if (item.kind === 'image_quad') {
      replace.set(item, null); // a degenerate quad draws nothing
    }
  }
  return { list: replace.size ? { ...list, items: mapItems(list.items, replace) } : list, images: out };
}
