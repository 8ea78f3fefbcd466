// Image preparation for raster painting: downscaled images are resampled once to their painted size.
import { describe, expect, it } from 'vitest';
import { ImageCache, type DecodedImage } from '../src/assets/load.js';
import type { DisplayList } from '../src/layout/display-list.js';
import { prepareRasterImages } from '../src/paint/raster-images.js';

const image = (width: number, height: number): DecodedImage => ({ width, height, rgba: Buffer.alloc(width * height * 4, 255), hash: `h${width}x${height}`, opaque: true });
const listWith = (src: { x: number; y: number; width: number; height: number }, dst: { x: number; y: number; width: number; height: number }, scale = 1): DisplayList => ({
  width: 500,
  height: 500,
  opaque: true,
  items: [{ kind: 'group', transform: [scale, 0, 0, scale, 0, 0], opacity: 1, bounds: dst, clip: null, items: [{ kind: 'image', image: 'a', src, dst }] }],
});

describe('prepareRasterImages', () => {
  it('resamples a downscaled crop to its painted size and maps the fractional crop into it', async () => {
    const cache = new ImageCache(1e8);
    const { list, images } = await prepareRasterImages(listWith({ x: 100.5, y: 0, width: 800, height: 400 }, { x: 0, y: 0, width: 200, height: 100 }), new Map([['a', image(1000, 400)]]), cache);
    const item = (list.items[0] as Extract<DisplayList['items'][0], { kind: 'group' }>).items[0] as { image: string; src: { x: number; width: number; height: number } };
    const scaled = images.get(item.image)!;
    // Whole pixels 100..901 (801 wide) at a quarter: 200 px; the crop starts half a source pixel in.
    expect(scaled).toMatchObject({ width: 200, height: 100 });
    expect(item.src.x).toBeCloseTo(0.5 * (200 / 801), 9);
    expect(item.src.width).toBeCloseTo(800 * (200 / 801), 9);
    // The second render finds the resampled image in the cache.
    const again = await prepareRasterImages(listWith({ x: 100.5, y: 0, width: 800, height: 400 }, { x: 0, y: 0, width: 200, height: 100 }), new Map([['a', image(1000, 400)]]), cache);
    expect(again.images.get(item.image)).toBe(scaled);
  });

  it('accounts for group scaling and leaves upscaled images alone', async () => {
    const cache = new ImageCache(1e8);
    const scaled = await prepareRasterImages(listWith({ x: 0, y: 0, width: 400, height: 400 }, { x: 0, y: 0, width: 100, height: 100 }, 2), new Map([['a', image(400, 400)]]), cache);
    const key = [...scaled.images.keys()].find((k) => k !== 'a')!;
    expect(scaled.images.get(key)).toMatchObject({ width: 200, height: 200 });
    const up = listWith({ x: 0, y: 0, width: 50, height: 50 }, { x: 0, y: 0, width: 100, height: 100 });
    expect((await prepareRasterImages(up, new Map([['a', image(50, 50)]]), cache)).list).toBe(up);
  });
});
