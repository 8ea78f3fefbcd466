// Before raster painting, images are brought to the form Skia draws fast and well, once, and cached:
// downscaled images are resampled by sharp (Lanczos 3) to the pixel size they are painted at, tinted
// masks are coloured, and perspective quads are warped (Skia via @napi-rs/canvas is affine only).
// Every image item that leaves here is a plain image drawn at about 1:1.
import sharp from 'sharp';
import type { DecodedImage, ImageCache } from '../assets/load.js';
import type { RGBA } from '../design/color.js';
import type { Point, Rect } from '../design/types.js';
import { ImprintError } from '../errors.js';
import type { DisplayItem, DisplayList, Matrix } from '../layout/display-list.js';
import { warpImage } from './warp.js';

type ImageItem = Extract<DisplayItem, { kind: 'image' | 'image_quad' }>;
type PlainImage = Extract<DisplayItem, { kind: 'image' }>;

/** Warped images are whole-bounding-box buffers; beyond this a quad is almost surely a mistake. */
const MAX_WARP_PIXELS = 40_000_000;

interface Job {
  item: ImageItem;
  scale: number;
}

function collect(items: readonly DisplayItem[], scale: number, jobs: Job[]): void {
  for (const it of items) {
    if (it.kind === 'group') collect(it.items, scale * matrixScale(it.transform), jobs);
    else if (it.kind === 'image' || it.kind === 'image_quad') jobs.push({ item: it, scale });
  }
}

/** The geometric mean of the axis scales: what one local unit measures in device pixels. */
function matrixScale([a, b, c, d]: Matrix): number {
  return Math.sqrt(Math.abs(a * d - b * c));
}

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

async function cached(cache: ImageCache, key: string, make: () => Promise<DecodedImage> | DecodedImage): Promise<DecodedImage> {
  let image = cache.get(key);
  if (!image) {
    image = await make();
    cache.set(image);
  }
  return image;
}

async function resample(image: DecodedImage, ext: Rect, width: number, height: number, key: string): Promise<DecodedImage> {
  const { data, info } = await sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: 4 } })
    .extract({ left: ext.x, top: ext.y, width: ext.width, height: ext.height })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: data, hash: key, opaque: image.opaque };
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
  return { width: image.width, height: image.height, rgba: out, hash: key, opaque: image.opaque && a === 1 };
}

/** Where each warped image's top-left lies, in the device-scaled coordinates of its quad. */
const warpOrigins = new WeakMap<DecodedImage, Point>();

const tintKey = (t: RGBA | undefined): string => (t ? `#${t.join(',')}` : '');
const dist = ([ax, ay]: Point, [bx, by]: Point): number => Math.hypot(bx - ax, by - ay);

/** The crop resampled to at most `width`×`height` (never enlarged), then tinted if asked. */
async function source(image: DecodedImage, ext: Rect, width: number, height: number, tint: RGBA | undefined, cache: ImageCache): Promise<DecodedImage> {
  const full = ext.x === 0 && ext.y === 0 && ext.width === image.width && ext.height === image.height;
  const w = Math.max(1, Math.min(ext.width, width));
  const h = Math.max(1, Math.min(ext.height, height));
  const key = `${image.hash}@${ext.x},${ext.y},${ext.width},${ext.height}→${w}x${h}`;
  const sized = full && w === image.width && h === image.height ? image : await cached(cache, key, () => resample(image, ext, w, h, key));
  return tint ? cached(cache, `${sized.hash}${tintKey(tint)}`, () => tinted(sized, tint, `${sized.hash}${tintKey(tint)}`)) : sized;
}

async function preparePlain(item: PlainImage, image: DecodedImage, scale: number, cache: ImageCache): Promise<{ item: PlainImage; image: DecodedImage } | null> {
  const { src, dst } = item;
  const kx = (dst.width * scale) / src.width;
  const ky = (dst.height * scale) / src.height;
  // Upscaling (or about 1:1) gains nothing from resampling ahead; only a tint needs work then.
  if (kx >= 0.95 && ky >= 0.95) {
    if (!item.tint) return null;
    const coloured = await source(image, { x: 0, y: 0, width: image.width, height: image.height }, image.width, image.height, item.tint, cache);
    return { item: { kind: 'image', image: coloured.hash, src, dst }, image: coloured };
  }
  // Whole source pixels around the crop; the fractional rest stays in the new src rectangle.
  const x0 = Math.max(0, Math.floor(src.x));
  const y0 = Math.max(0, Math.floor(src.y));
  const ext = { x: x0, y: y0, width: Math.min(image.width, Math.ceil(src.x + src.width)) - x0, height: Math.min(image.height, Math.ceil(src.y + src.height)) - y0 };
  const scaled = await source(image, ext, Math.round(ext.width * kx), Math.round(ext.height * ky), item.tint, cache);
  const fx = scaled.width / ext.width;
  const fy = scaled.height / ext.height;
  return {
    item: { kind: 'image', image: scaled.hash, src: { x: (src.x - ext.x) * fx, y: (src.y - ext.y) * fy, width: src.width * fx, height: src.height * fy }, dst },
    image: scaled,
  };
}

async function prepareQuad(item: Extract<ImageItem, { kind: 'image_quad' }>, image: DecodedImage, scale: number, cache: ImageCache): Promise<{ item: PlainImage; image: DecodedImage } | null> {
  const quad = item.quad.map(([x, y]) => [x * scale, y * scale] as const) as unknown as typeof item.quad;
  const [tl, tr, br, bl] = quad;
  // The crop in whole pixels (a cover crop moves by under half a source pixel), pre-scaled so the
  // warp itself never minifies by much more than the perspective does.
  const { src } = item;
  const ext = {
    x: Math.max(0, Math.round(src.x)),
    y: Math.max(0, Math.round(src.y)),
    width: Math.max(1, Math.min(image.width, Math.round(src.x + src.width)) - Math.max(0, Math.round(src.x))),
    height: Math.max(1, Math.min(image.height, Math.round(src.y + src.height)) - Math.max(0, Math.round(src.y))),
  };
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  const area = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
  if (!(area <= MAX_WARP_PIXELS)) {
    throw new ImprintError('validation_error', '$', `a mockup layer quad spans ${Math.round(area / 1e6)} megapixels at this size: keep quads within the mockup's base image`);
  }
  const width = Math.ceil(Math.max(dist(tl, tr), dist(bl, br)));
  const height = Math.ceil(Math.max(dist(tl, bl), dist(tr, br)));
  const ready = await source(image, ext, width, height, item.tint, cache);
  const key = `${ready.hash}→quad(${quad.map((p) => p.map((v) => v.toFixed(3)).join(',')).join(';')})`;
  const warped = await cached(cache, key, () => {
    const w = warpImage(ready, quad);
    const image: DecodedImage = { width: w.width, height: w.height, rgba: w.rgba, hash: key, opaque: false };
    warpOrigins.set(image, [w.x, w.y]);
    return image;
  });
  const origin = warpOrigins.get(warped);
  if (warped.width === 0 || warped.height === 0 || !origin) return null;
  const [ox, oy] = origin;
  return {
    item: { kind: 'image', image: warped.hash, src: { x: 0, y: 0, width: warped.width, height: warped.height }, dst: { x: ox / scale, y: oy / scale, width: warped.width / scale, height: warped.height / scale } },
    image: warped,
  };
}

export async function prepareRasterImages(
  list: DisplayList,
  images: ReadonlyMap<string, DecodedImage>,
  cache: ImageCache,
): Promise<{ list: DisplayList; images: Map<string, DecodedImage> }> {
  const jobs: Job[] = [];
  collect(list.items, 1, jobs);
  const out = new Map(images);
  const replace = new Map<ImageItem, PlainImage | null>();
  for (const { item, scale } of jobs) {
    const image = images.get(item.image);
    if (!image) continue;
    const done = item.kind === 'image' ? await preparePlain(item, image, scale, cache) : await prepareQuad(item, image, scale, cache);
    if (done) {
      out.set(done.image.hash, done.image);
      replace.set(item, done.item);
    } else if (item.kind === 'image_quad') {
      replace.set(item, null); // a degenerate quad draws nothing
    }
  }
  return { list: replace.size ? { ...list, items: mapItems(list.items, replace) } : list, images: out };
}
