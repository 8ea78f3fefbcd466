// Render threads (the service worker's slots, an Engine's threads): a render that exhausts its heap
// ends with a readable `memory` failure and the pool goes on with a fresh thread; asset errors keep
// their JSON path; renders run in parallel.
import { readFile } from 'node:fs/promises';
import { afterEach, expect, it } from 'vitest';
import { fileAssetResolver } from '../src/assets/resolver.js';
import { RenderPool, type RenderPoolOptions } from '../src/render/pool.js';
import type { ThreadJob } from '../src/render/thread-protocol.js';

const CARD = 'examples/card-1080';
const template = JSON.parse(await readFile(`${CARD}/design.json`, 'utf8')) as Record<string, unknown>;
const assets = fileAssetResolver({ baseDir: CARD });
let pool: RenderPool;
const poolOf = (o: Omit<RenderPoolOptions, 'imageCacheBytes'>) => new RenderPool({ imageCacheBytes: 32 * 1024 * 1024, ...o });
const job = (design: unknown, overrides: Record<string, unknown>, format: 'png' | 'jpg'): ThreadJob => ({
  design: design as ThreadJob['design'],
  overrides: overrides as ThreadJob['overrides'],
  format,
  assets: true,
  progress: false,
});
afterEach(() => pool.close());

it('stops a render that runs out of heap with a readable reason, and renders again after', async () => {
  pool = poolOf({ size: 1, timeoutMs: 60_000, memoryMb: 64, hints: { memory: 'use smaller images or raise IMPRINT_RENDER_MEMORY_MB' } });
  // Three million small objects are far beyond a 64 MB heap as soon as the thread receives them.
  const hog = { ...template, padding: Array.from({ length: 3_000_000 }, (_, i) => ({ i, s: `x${i}` })) };
  const err = await pool.run(job(hog, {}, 'png'), { assets }).catch((e: unknown) => e);
  expect(err).toMatchObject({
    kind: 'memory',
    message: 'the render ran out of memory (limit 64 MB) and was stopped: use smaller images or raise IMPRINT_RENDER_MEMORY_MB',
  });
  const out = await pool.run(job(template, {}, 'png'), { assets });
  expect(Buffer.from(out.bytes).subarray(1, 4).toString()).toBe('PNG');
  expect([out.width, out.height]).toEqual([1080, 1080]);
}, 60_000);

it('reports a missing file as a validation_error at the reference, from the thread', async () => {
  pool = poolOf({ size: 1, timeoutMs: 60_000, memoryMb: 512 });
  const err = await pool.run(job(template, { photo: { path: 'nope.jpg' } }, 'png'), { assets }).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'render', code: 'validation_error', path: '$.objects_overrides.photo.path' });
}, 60_000);

it('runs as many renders at once as it has threads', async () => {
  pool = poolOf({ size: 2, timeoutMs: 60_000, memoryMb: 512 });
  let inFlight = 0;
  let most = 0;
  let release: () => void = () => undefined;
  const bothIn = new Promise<void>((r) => (release = r));
  // Each render's first asset request waits until two are in flight (or 10 s pass): with two
  // threads both get there; with one, the second never would and `most` stays 1.
  const slowAssets: typeof assets = async (ref) => {
    most = Math.max(most, ++inFlight);
    if (inFlight >= 2) release();
    await Promise.race([bothIn, new Promise((r) => setTimeout(r, 10_000))]);
    inFlight--;
    return assets(ref);
  };
  const outs = await Promise.all([1, 2, 3].map((i) => pool.run(job(template, { headline: { text: `Run ${i}` } }, 'jpg'), { assets: slowAssets })));
  expect(outs).toHaveLength(3);
  expect(most).toBe(2);
}, 60_000);

it('drops a render given up while it waits for a thread: it never starts, and the one running is not disturbed', async () => {
  pool = poolOf({ size: 1, timeoutMs: 60_000, memoryMb: 512 });
  // The first render holds the only thread until the test lets its asset through.
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  let entered: () => void = () => undefined;
  const inFirst = new Promise<void>((r) => (entered = r));
  const holdingAssets: typeof assets = async (ref) => {
    entered();
    await held;
    return assets(ref);
  };
  const seen: string[] = [];
  const watchingAssets: typeof assets = async (ref) => {
    seen.push(ref.kind === 'path' ? ref.path : ref.name);
    return assets(ref);
  };
  const first = pool.run(job(template, {}, 'jpg'), { assets: holdingAssets });
  await inFirst;
  const giveUp = new AbortController();
  const second = pool.run(job(template, {}, 'jpg'), { assets: watchingAssets, signal: giveUp.signal, abortReason: 'the client went away' });
  giveUp.abort();
  await expect(second).rejects.toMatchObject({ kind: 'cancelled', code: 'render_cancelled', message: 'the client went away' });
  release();
  const out = await first;
  expect([out.width, out.height]).toEqual([1080, 1080]);
  // The dropped render never reached a thread: it asked for no file.
  expect(seen).toEqual([]);
  // Already given up before run(): refused at once.
  await expect(pool.run(job(template, {}, 'jpg'), { signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: 'cancelled' });
}, 60_000);
