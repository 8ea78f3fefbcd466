// The `scale` render option: a raster still painted at the design's size × scale (whole pixels), equal
// to the full-size image made smaller but painted at its own size (sharper when enlarged), refused for
// bad values and for pdf and mp4; through render threads and the CLI's --scale.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesignInput, RenderOptions } from '../src/engine.js';
import { Engine, fileAssetResolver } from '../src/index.js';
import type { ObjectsOverrides } from '../src/resolve/types.js';
import { builtBin, describeBuilt } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const CARD = join(ROOT, 'examples', 'card-1080');

const engine = new Engine({ threads: 0 });
let card: Pick<RenderOptions, 'design' | 'overrides' | 'assets'>;

beforeAll(async () => {
  const design = JSON.parse(await readFile(join(CARD, 'design.json'), 'utf8')) as DesignInput;
  const { objects_overrides } = JSON.parse(await readFile(join(CARD, 'overrides.json'), 'utf8')) as { objects_overrides: ObjectsOverrides };
  card = { design, overrides: objects_overrides, assets: fileAssetResolver({ baseDir: CARD }) };
});

/** RGB pixels of an encoded image (alpha dropped: the card is opaque). */
async function rgb(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean absolute difference per channel (0-255) and the share of channels off by more than 32. */
function difference(a: Buffer, b: Buffer): { mean: number; far: number } {
  let sum = 0;
  let far = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    sum += d;
    if (d > 32) far++;
  }
  return { mean: sum / a.length, far: far / a.length };
}

/** Sum of squared differences between horizontal neighbours: how much fine detail (sharp edges) an image has. */
function detail({ data, width, height }: { data: Buffer; width: number; height: number }): number {
  let sum = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 1; x < width; x++) {
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) sum += (data[i + c]! - data[i + c - 3]!) ** 2;
    }
  }
  return sum / (width * height);
}

describe('scale', () => {
  it('paints raster stills at the design size × scale, rounded to whole pixels', async () => {
    for (const [scale, size] of [
      [0.5, 540],
      [0.25, 270],
      [1.5, 1620],
      [1, 1080],
    ] as const) {
      const r = await engine.render({ ...card, format: 'png', scale });
      expect([r.width, r.height], `scale ${scale}`).toEqual([size, size]);
      expect(await sharp(r.bytes).metadata()).toMatchObject({ format: 'png', width: size, height: size });
    }
    const odd: DesignInput = {
      schema: 'imprint/design@1',
      width: 101,
      height: 51,
      background: { type: 'color', color: '#204060' },
      objects: [{ type: 'shape', x: 10, y: 10, width: 50, height: 20, background: { type: 'color', color: '#f0c030' } }],
    };
    for (const format of ['jpg', 'webp', 'avif'] as const) {
      const r = await engine.render({ design: odd, format, scale: 0.5 });
      expect(await sharp(r.bytes).metadata(), format).toMatchObject({ width: 51, height: 26 });
    }
    // The background reaches the last row and column: a scaled opaque design stays opaque.
    const { data, info } = await sharp((await engine.render({ design: odd, format: 'png', scale: 0.5 })).bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const corner = (info.width * info.height - 1) * info.channels;
    expect([...data.subarray(corner, corner + info.channels)].slice(0, 3)).toEqual([0x20, 0x40, 0x60]);
  });

  it('a half-size render equals the full render made half as large, within a small tolerance', async () => {
    const half = await rgb((await engine.render({ ...card, format: 'png', scale: 0.5 })).bytes);
    const full = (await engine.render({ ...card, format: 'png' })).bytes;
    const shrunk = await rgb(await sharp(full).resize(540, 540, { kernel: 'lanczos3' }).png().toBuffer());
    expect([half.width, half.height]).toEqual([540, 540]);
    const d = difference(half.data, shrunk.data);
    // Edges of glyphs and shapes fall on other pixel boundaries; nothing else may differ.
    // (Measured: a mean of 1.0 and 0.2 % of channels off by more than 32.)
    expect(d.mean).toBeLessThan(1.5);
    expect(d.far).toBeLessThan(0.004);
  });

  it('paints an enlarged render at its size rather than enlarging the full one (sharper edges)', async () => {
    const twice = await rgb((await engine.render({ ...card, format: 'png', scale: 2 })).bytes);
    const enlarged = await rgb(
      await sharp((await engine.render({ ...card, format: 'png' })).bytes)
        .resize(2160, 2160, { kernel: 'cubic' })
        .png()
        .toBuffer(),
    );
    expect(difference(twice.data, enlarged.data).mean).toBeLessThan(3);
    // (Measured: twice the neighbour contrast of the enlarged image.)
    expect(detail(twice)).toBeGreaterThan(detail(enlarged) * 1.5);
  });

  it.each([0, -1, Number.NaN, 5, 'x'])('refuses scale %s with a validation_error at $.scale that gives the bounds', async (scale) => {
    await expect(engine.render({ ...card, format: 'png', scale: scale as number })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.scale',
      message: expect.stringMatching(Number.isNaN(scale) ? /finite number/ : /more than 0 and at most 4/),
    });
  });

  it('refuses scale for pdf and mp4 and says what to use instead', async () => {
    await expect(engine.render({ ...card, format: 'pdf', scale: 0.5 })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.scale',
      message: expect.stringMatching(/pdf is vector.*png, jpg, webp or avif/),
    });
    await expect(engine.render({ ...card, format: 'mp4', scale: 0.5 })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.scale',
      message: expect.stringMatching(/size: "sd".*"hd"/),
    });
  });

  it('counts the scaled canvas against the canvas limit', async () => {
    await expect(engine.render({ ...card, format: 'png', scale: 4, limits: { maxCanvasPixels: 16_000_000 } })).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringMatching(/at scale 4 \(4320×4320/),
    });
  });

  describe('on a render thread', () => {
    const threaded = new Engine({ threads: 1 });
    afterAll(() => threaded.close());

    it('carries the scale to the thread: the same bytes as on the caller thread', async () => {
      const here = await engine.render({ ...card, format: 'jpg', scale: 0.5 });
      const there = await threaded.render({ ...card, format: 'jpg', scale: 0.5 });
      expect([there.width, there.height]).toEqual([540, 540]);
      expect(there.bytes.equals(here.bytes)).toBe(true);
      await expect(threaded.render({ ...card, format: 'png', scale: 0 })).rejects.toMatchObject({ code: 'validation_error', path: '$.scale' });
    });
  });

  describeBuilt('imprint render --scale', () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, [builtBin(), 'render', ...args], { cwd: ROOT }).then(
        (r) => ({ code: 0, stderr: r.stderr }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'imprint-scale-'));
    });

    it('writes the image at the scaled size', async () => {
      const out = join(dir, 'half.jpg');
      const r = await run(['examples/card-1080/design.json', '--overrides', 'examples/card-1080/overrides.json', '--scale', '0.5', '--out', out]);
      expect(r).toEqual({ code: 0, stderr: expect.stringMatching(/^wrote .*half\.jpg: jpg 540x540, /) });
      expect(await sharp(await readFile(out)).metadata()).toMatchObject({ format: 'jpeg', width: 540, height: 540 });
    });

    it('exits 2 for a bad --scale and for --scale with pdf or mp4', async () => {
      for (const bad of ['0', '-1', 'NaN', '5', 'x', '']) {
        const r = await run(['examples/card-1080/design.json', `--scale=${bad}`, '--out', join(dir, 'x.png')]);
        expect(r, bad).toEqual({
          code: 2,
          stderr: `validation_error at $.scale: expected --scale a number more than 0 and at most 4 (0.5: half size) but received ${JSON.stringify(bad)}\n`,
        });
      }
      const pdf = await run(['examples/card-1080/design.json', '--scale', '0.5', '--out', join(dir, 'x.pdf')]);
      expect(pdf.code).toBe(2);
      expect(pdf.stderr).toMatch(/^validation_error at \$\.scale: --scale applies to png, jpg, webp and avif only, not to pdf/);
      const mp4 = await run(['examples/promo-15s/design.json', '--scale', '0.5', '--out', join(dir, 'x.mp4')]);
      expect(mp4.code).toBe(2);
      expect(mp4.stderr).toMatch(/^validation_error at \$\.scale: .*not to mp4: give the video size with --size sd\|hd\n$/);
    });
  });
});
