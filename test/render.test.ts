// The public API end to end: determinism, png/jpg options, streams and the fit report.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { DesignInput } from '../src/engine.js';
import { Engine, fileAssetResolver, render, renderStream } from '../src/index.js';
import type { ObjectsOverrides } from '../src/resolve/types.js';

const CARD = join(import.meta.dirname, '..', 'examples', 'card-1080');

async function card() {
  const design = JSON.parse(await readFile(join(CARD, 'design.json'), 'utf8')) as DesignInput;
  const { objects_overrides } = JSON.parse(await readFile(join(CARD, 'overrides.json'), 'utf8')) as { objects_overrides: ObjectsOverrides };
  return { design, overrides: objects_overrides, assets: fileAssetResolver({ baseDir: CARD }) };
}

describe('render', () => {
  it.each(['png', 'jpg'] as const)('gives byte-identical %s for the same request, also from a fresh engine', async (format) => {
    const req = { ...(await card()), format };
    const a = await render(req);
    const b = await render(req);
    const c = await new Engine().render(req);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(a.bytes.equals(c.bytes)).toBe(true);
    const meta = await sharp(a.bytes).metadata();
    expect(meta).toMatchObject({ format: format === 'jpg' ? 'jpeg' : 'png', width: 1080, height: 1080 });
  });

  it('reports each text object with its final size and flags', async () => {
    const { report } = await render({ ...(await card()), format: 'png' });
    expect(report.length).toBeGreaterThan(0);
    for (const r of report) {
      expect(r).toMatchObject({ type: 'text', clipped: false });
      expect(r.font_size).toBeGreaterThan(0);
      expect(r.line_count).toBeGreaterThan(0);
    }
  });

  it('jpg quality and png compression change the bytes as asked', async () => {
    const base = await card();
    const q30 = await render({ ...base, format: 'jpg', jpg: { quality: 30 } });
    const q95 = await render({ ...base, format: 'jpg', jpg: { quality: 95 } });
    expect(q30.bytes.length).toBeLessThan(q95.bytes.length);
    const fast = await render({ ...base, format: 'png', png: { compressionLevel: 0 } });
    const small = await render({ ...base, format: 'png', png: { compressionLevel: 9 } });
    expect(small.bytes.length).toBeLessThan(fast.bytes.length);
    // Compression is lossless: the pixels are the same.
    const [p0, p9] = await Promise.all([fast, small].map((r) => sharp(r.bytes).raw().toBuffer()));
    expect(p0!.equals(p9!)).toBe(true);
  });

  it('renderStream streams the same bytes as render', async () => {
    const req = { ...(await card()), format: 'png' as const };
    const { stream, mimeType, width } = await renderStream(req);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(mimeType).toBe('image/png');
    expect(width).toBe(1080);
    expect(Buffer.concat(chunks).equals((await render(req)).bytes)).toBe(true);
  });

  it('overrides change the picture; the template alone renders too', async () => {
    const { design, overrides, assets } = await card();
    const plain = await render({ design, assets, format: 'png' });
    const changed = await render({ design, overrides, assets, format: 'png' });
    expect(plain.bytes.equals(changed.bytes)).toBe(false);
  });

  it('keeps transparency in png and flattens it onto white in jpg', async () => {
    const design = { width: 20, height: 10, background: { type: 'color', color: '#00000000' }, objects: [] } satisfies DesignInput;
    // A previous render of the same size must leave nothing behind (the canvas is reused).
    await render({ design: { ...design, background: { type: 'color', color: '#ff0000' } }, format: 'png' });
    const png = await sharp((await render({ design, format: 'png' })).bytes)
      .raw()
      .toBuffer();
    expect([...png.subarray(0, 4)]).toEqual([0, 0, 0, 0]);
    const jpg = await sharp((await render({ design, format: 'jpg' })).bytes)
      .raw()
      .toBuffer();
    expect([...jpg.subarray(0, 3)]).toEqual([255, 255, 255]);
  });
});
