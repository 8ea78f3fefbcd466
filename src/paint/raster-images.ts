// Before raster painting, each downscaled image is resampled once by sharp (Lanczos 3) to the pixel
// size it is painted at, and cached; Skia then draws it at about 1:1 instead of mip-mapping the
// full source on every render. Sharper results, and repeated renders skip the resampling entirely.
import sharp from 'sharp';
import type { DecodedImage, ImageCache } from '../assets/load.js';
import type { Rect } from '../design/types.js';
import type { DisplayItem, DisplayList, Matrix } from '../layout/display-list.js';

type ImageItem = Extract<DisplayItem, { kind: 'image' }>;

interface Job {
  item: ImageItem;
  scale: number;
}

function collect(items: readonly DisplayItem[], scale: number, jobs: Job[]): void {
  for (const it of items) {
    if (it.kind === 'group') collect(it.items, scale * matrixScale(it.transform), jobs);
    else if (it.kind === 'image') jobs.push({ item: it, scale });
  }
}

/** The geometric mean of the axis scales: what one local unit measures in device pixels. */
function matrixScale([a, b, c, d]: Matrix): number {
  return Math.sqrt(Math.abs(a * d - b * c));
}

function mapItems(items: readonly DisplayItem[], replace: ReadonlyMap<ImageItem, ImageItem>): DisplayItem[] {
  return items.map((it) => {
    if (it.kind === 'group') return { ...it, items: mapItems(it.items, replace) };
    return it.kind === 'image' ? (replace.get(it) ?? it) : it;
  });
}

async function resample(image: DecodedImage, ext: Rect, width: number, height: number, key: string): Promise<DecodedImage> {
  const { data, info } = await sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: 4 } })
    .extract({ left: ext.x, top: ext.y, width: ext.width, height: ext.height })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: data, hash: key, opaque: image.opaque };
}

export async function prepareRasterImages(
  list: DisplayList,
  images: ReadonlyMap<string, DecodedImage>,
  cache: ImageCache,
): Promise<{ list: DisplayList; images: Map<string, DecodedImage> }> {
  const jobs: Job[] = [];
  collect(list.items, 1, jobs);
  const out = new Map(images);
  const replace = new Map<ImageItem, ImageItem>();
  for (const { item, scale } of jobs) {
    const image = images.get(item.image);
    if (!image) continue;
    const { src, dst } = item;
    const kx = (dst.width * scale) / src.width;
    const ky = (dst.height * scale) / src.height;
    // Upscaling (or about 1:1) gains nothing from resampling ahead.
    if (kx >= 0.95 && ky >= 0.95) continue;
    // Whole source pixels around the crop; the fractional rest stays in the new src rectangle.
    const x0 = Math.max(0, Math.floor(src.x));
    const y0 = Math.max(0, Math.floor(src.y));
    const ext = { x: x0, y: y0, width: Math.min(image.width, Math.ceil(src.x + src.width)) - x0, height: Math.min(image.height, Math.ceil(src.y + src.height)) - y0 };
    const width = Math.max(1, Math.round(ext.width * kx));
    const height = Math.max(1, Math.round(ext.height * ky));
    const key = `${image.hash}@${ext.x},${ext.y},${ext.width},${ext.height}→${width}x${height}`;
    let scaled = cache.get(key);
    if (!scaled) {
      scaled = await resample(image, ext, width, height, key);
      cache.set(scaled);
    }
    out.set(key, scaled);
    const fx = width / ext.width;
    const fy = height / ext.height;
    replace.set(item, {
      ...item,
      image: key,
      src: { x: (src.x - ext.x) * fx, y: (src.y - ext.y) * fy, width: src.width * fx, height: src.height * fy },
    });
  }
  return { list: replace.size ? { ...list, items: mapItems(list.items, replace) } : list, images: out };
}
