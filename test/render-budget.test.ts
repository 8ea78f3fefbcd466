// The render budget of the library: refused before anything is loaded or painted, with the limit in
// the message; a host can raise it with the `limits` option. (The service's memory under the budget
// is measured in memory-budget.test.ts.)
import { describe, expect, it } from 'vitest';
import { render, type DesignInput } from '../src/engine.js';
import { expectRefused } from './support/refusal.js';

const blank = (width: number, height: number, extra: object = {}) =>
  ({ width, height, background: { type: 'color', color: '#ffffff' }, objects: [], ...extra }) as DesignInput;

describe('render budget', () => {
  it('refuses a raster still over 10 megapixels, but not its vector pdf', async () => {
    await expectRefused(
      { design: blank(4000, 3000), format: 'png' },
      {
        path: '$.width',
        message: 'a png may have at most 10 megapixels (3162×3162) and this design is 4000×3000 (12 megapixels): make the canvas smaller',
      },
    );
    const pdf = await render({ design: blank(4000, 3000), format: 'pdf' });
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses mp4 frames over 4.2 megapixels and more frame pixels than a render may paint', async () => {
    await expectRefused(
      { design: blank(2560, 2560, { duration: 1 }), format: 'mp4' },
      {
        path: '$.width',
        message: 'mp4 frames may have at most 4.2 megapixels (2048×2048) and this design is 2560×2560 (6.6 megapixels): make the canvas smaller',
      },
    );
    await expectRefused(
      { design: blank(1920, 1080, { duration: 301 }), format: 'mp4', fps: 60, maxDuration: 400 },
      {
        path: '$.duration',
        message: 'the video is 1920×1080 for 301 s at 60 fps: a render may paint at most 37.3 gigapixels of frames (width × height × frames): make it shorter',
      },
    );
  });

  it('refuses more image pixels together than the budget, at the image that passes it', async () => {
    const photo = { type: 'image', path: 'card-1080/lake-sunset.jpg', x: 0, y: 0, width: 100, height: 100 };
    const design = blank(200, 200, { objects: [photo, { ...photo, path: 'card-1080/city-night.jpg' }] });
    const e = await render({ design, format: 'png', baseDir: 'examples', limits: { maxImagePixels: 3_000_000 } }).catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'validation_error', path: '$.objects[1].path' });
    expect((e as Error).message).toMatch(
      /^the images of this render have more than 3 megapixels together \(this one brings the sum to [\d.]+ megapixels\): use fewer or smaller images$/,
    );
  });

  it('lets a host raise the budget with limits', async () => {
    const r = await render({ design: blank(4000, 3000), format: 'jpg', limits: { maxCanvasPixels: 12_000_000 } });
    expect([r.width, r.height]).toEqual([4000, 3000]);
  });
});
