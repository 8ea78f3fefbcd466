// Image preparation for raster painting: each image is decoded once at the size it is painted at.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageCache, type LoadedImage } from '../src/assets/load.js';
import type { DisplayList } from '../src/scene/display-list.js';
import { prepareRasterImages } from '../src/paint/raster-images.js';

async function loaded(width: number, height: number): Promise<LoadedImage> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  return { kind: 'source', hash: `h${width}x${height}`, bytes, width, height, oriented: false, opaque: true, at: '$.objects[0].path', ref: 'a.png' };
}
type Rect = { x: number; y: number; width: number; height: number };
const listWith = (src: Rect, dst: Rect, scale = 1): DisplayList => ({
  width: 500,
  height: 500,
  opaque: true,
  items: [{ kind: 'group', transform: [scale, 0, 0, scale, 0, 0], opacity: 1, bounds: dst, clip: null, items: [{ kind: 'image', image: 'a', src, dst }] }],
});
const firstImage = (list: DisplayList) => (list.items[0] as Extract<DisplayList['items'][0], { kind: 'group' }>).items[0] as { image: string; src: Rect };

describe('prepareRasterImages', () => {
  it('decodes a downscaled crop at its painted size and maps the fractional crop into it', async () => {
    const cache = new ImageCache(1e8);
    const images = new Map([['a', await loaded(1000, 400)]]);
    const { list, images: out } = await prepareRasterImages(
      listWith({ x: 100.5, y: 0, width: 800, height: 400 }, { x: 0, y: 0, width: 200, height: 100 }),
      images,
      cache,
    );
    const item = firstImage(list);
    const scaled = out.get(item.image)!;
    // Whole pixels 100..901 (801 wide) at a quarter: 200 px; the crop starts half a source pixel in.
    expect(scaled).toMatchObject({ width: 200, height: 100 });
    expect(item.src.x).toBeCloseTo(0.5 * (200 / 801), 9);
    expect(item.src.width).toBeCloseTo(800 * (200 / 801), 9);
    const again = await prepareRasterImages(listWith({ x: 100.5, y: 0, width: 800, height: 400 }, { x: 0, y: 0, width: 200, height: 100 }), images, cache);
    expect(again.images.get(firstImage(again.list).image)).toBe(scaled);
  });

  it('accounts for group scaling, and decodes enlarged images at full size', async () => {
    const cache = new ImageCache(1e8);
    const scaled = await prepareRasterImages(
      listWith({ x: 0, y: 0, width: 400, height: 400 }, { x: 0, y: 0, width: 100, height: 100 }, 2),
      new Map([['a', await loaded(400, 400)]]),
      cache,
    );
    expect(scaled.images.get(firstImage(scaled.list).image)).toMatchObject({ width: 200, height: 200 });
    const up = await prepareRasterImages(
      listWith({ x: 0, y: 0, width: 50, height: 50 }, { x: 0, y: 0, width: 100, height: 100 }),
      new Map([['a', await loaded(50, 50)]]),
      cache,
    );
    expect(up.images.get(firstImage(up.list).image)).toMatchObject({ width: 50, height: 50 });
    expect(firstImage(up.list).src).toEqual({ x: 0, y: 0, width: 50, height: 50 });
  });

  it('reports an image that cannot be decoded at the path that referenced it', async () => {
    const broken = { ...(await loaded(20, 20)), hash: 'broken' };
    broken.bytes = broken.bytes.subarray(0, 60); // the header survives, the pixels do not
    await expect(
      prepareRasterImages(
        listWith({ x: 0, y: 0, width: 20, height: 20 }, { x: 0, y: 0, width: 20, height: 20 }),
        new Map([['a', broken]]),
        new ImageCache(1e8),
      ),
    ).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects[0].path',
    });
  });
});
