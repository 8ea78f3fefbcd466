// An Engine's render threads (EngineOptions.threads): the same bytes, errors, progress and
// cancellation as a render on the caller's thread; renders in flight run on separate threads; an idle
// engine lets the process exit.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DesignInput, EngineOptions, RenderOptions } from '../src/engine.js';
import { bundledFonts, Engine, FontSet, fileAssetResolver, ImprintError, type AssetResolver } from '../src/index.js';
import type { ObjectsOverrides } from '../src/resolve/types.js';
import { setUnheldPoolMs, sharedPools } from '../src/render/shared-pools.js';
import { assertBuildCurrent, itBuilt } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const CARD = join(ROOT, 'examples', 'card-1080');
const design = JSON.parse(await readFile(join(CARD, 'design.json'), 'utf8')) as DesignInput;
const { objects_overrides: overrides } = JSON.parse(await readFile(join(CARD, 'overrides.json'), 'utf8')) as { objects_overrides: ObjectsOverrides };
const assets = fileAssetResolver({ baseDir: CARD });

const inline = new Engine({ threads: 0 });
const threaded = new Engine({ threads: 2 });
afterAll(() => threaded.close());

const caught = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('Engine threads', () => {
  it.each(['png', 'jpg', 'pdf'] as const)('renders %s to the same bytes and report as the caller’s thread', async (format) => {
    const [a, b] = await Promise.all([threaded.render({ design, overrides, assets, format }), inline.render({ design, overrides, assets, format })]);
    expect(Buffer.isBuffer(a.bytes)).toBe(true);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(a.report).toEqual(b.report);
    expect({ ...a, bytes: null }).toEqual({ ...b, bytes: null });
  });

  it('gives the same error, code and path as the caller’s thread', async () => {
    const req = { design, overrides: { ...overrides, photo: { path: 'missing.jpg' } }, assets, format: 'png' } as const;
    const [a, b] = await Promise.all([caught(threaded.render(req)), caught(inline.render(req))]);
    expect(a).toBeInstanceOf(ImprintError);
    expect(a).toMatchObject({ code: 'validation_error', path: '$.objects_overrides.photo.path' });
    expect((a as ImprintError).message).toBe((b as ImprintError).message);
    // Options are checked before a thread is involved: the same message, at once.
    const bad = await caught(threaded.render({ design, format: 'gif' as 'png' }));
    expect(bad).toMatchObject({
      code: 'validation_error',
      path: '$.format',
      message: 'expected "png", "jpg", "webp", "avif", "pdf" or "mp4" but received "gif"',
    });
  });

  it('runs two renders in flight at once', async () => {
    let inFlight = 0;
    let most = 0;
    let release: () => void = () => undefined;
    const bothIn = new Promise<void>((r) => (release = r));
    // Each render's first asset request waits until two are in flight: when renders run at once both
    // get there; if the second waited for the first, it would never start and the test would fail at
    // its time limit.
    const slow: AssetResolver = async (ref) => {
      most = Math.max(most, ++inFlight);
      if (inFlight >= 2) release();
      await bothIn;
      inFlight--;
      return assets(ref);
    };
    const outs = await Promise.all(
      [1, 2].map((i) => threaded.render({ design, overrides: { ...overrides, headline: { text: `Run ${i}` } }, assets: slow, format: 'jpg' })),
    );
    expect(outs.map((o) => o.width)).toEqual([1080, 1080]);
    expect(most).toBe(2);
  }, 30_000);

  it('reports mp4 progress from the thread and stops when the signal aborts', async () => {
    const promo = join(ROOT, 'examples', 'promo-15s');
    const video = JSON.parse(await readFile(join(promo, 'design.json'), 'utf8')) as DesignInput;
    const controller = new AbortController();
    const seen: number[] = [];
    const err = await caught(
      threaded.render({
        design: video,
        baseDir: promo,
        format: 'mp4',
        size: 'sd',
        onProgress: (p) => {
          seen.push(p.framesWritten);
          if (p.framesWritten >= 10) controller.abort();
        },
        signal: controller.signal,
      }),
    );
    expect(err).toMatchObject({ code: 'render_cancelled' });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBeGreaterThanOrEqual(10);
  }, 60_000);

  it('opens a FontSet from its folder in the threads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imprint-fonts-'));
    try {
      cpSync(join(ROOT, 'fonts'), dir, { recursive: true });
      const engine = new Engine({ threads: 1, fonts: new FontSet(dir) });
      const a = await engine.render({ design, overrides, assets, format: 'png' });
      await engine.close();
      const b = await inline.render({ design, overrides, assets, format: 'png' });
      expect(a.bytes.equals(b.bytes)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('renders again after close()', async () => {
    const engine = new Engine({ threads: 1 });
    const tiny: RenderOptions = { design: { width: 8, height: 8, objects: [] }, format: 'png' };
    expect((await engine.render(tiny)).width).toBe(8);
    await engine.close();
    expect((await engine.render(tiny)).width).toBe(8);
    await engine.close();
  });

  it('close() cancels the renders running and waiting, and the engine renders again after', async () => {
    const engine = new Engine({ threads: 1 });
    let asked: () => void = () => undefined;
    const started = new Promise<void>((r) => (asked = r));
    // The renders wait for their photo until the engine is closed.
    const stuck: AssetResolver = () => {
      asked();
      return new Promise(() => undefined);
    };
    const req = { design, overrides, assets: stuck, format: 'png' } as const;
    // One thread takes two renders at once (a paint and an encode): the third waits for a place.
    // One of them carries a signal of the caller's own: the engine's close still reaches it.
    const renders = [1, 2, 3].map((i) => caught(engine.render(i === 2 ? { ...req, signal: new AbortController().signal } : req)));
    await started;
    await engine.close();
    for (const err of await Promise.all(renders))
      expect(err).toMatchObject({ code: 'render_cancelled', message: 'the render was cancelled: its engine was closed' });
    expect((await engine.render({ design, overrides, assets, format: 'jpg' })).width).toBe(1080);
    await engine.close();
  });

  it('shares its threads with the engines made alike; close() cancels only its own renders', async () => {
    const tiny: RenderOptions = { design: { width: 8, height: 8, objects: [] }, format: 'png' };
    const a = new Engine({ threads: 1 });
    const b = new Engine({ threads: 1 });
    expect((await a.render(tiny)).width).toBe(8);
    const pools = sharedPools().length;
    const pool = sharedPools().find((p) => p.size === 1 && p.holders === 1 && !p.pool.isClosed && p.pool.started === 1)!.pool;
    expect((await b.render(tiny)).width).toBe(8);
    // b took no pool or thread of its own: one thread served both.
    expect(sharedPools()).toHaveLength(pools);
    expect(sharedPools().find((p) => p.pool === pool)?.holders).toBe(2);
    expect(pool.started).toBe(1);
    let asked: () => void = () => undefined;
    const started = new Promise<void>((r) => (asked = r));
    const stuck = caught(
      a.render({
        design,
        overrides,
        format: 'png',
        assets: () => {
          asked();
          return new Promise(() => undefined);
        },
      }),
    );
    await started;
    // The thread has a's render waiting for its photo and still takes b's beside it.
    expect((await b.render(tiny)).width).toBe(8);
    await a.close();
    expect(await stuck).toMatchObject({ code: 'render_cancelled', message: 'the render was cancelled: its engine was closed' });
    // b's renders carry on, on the same thread.
    expect((await b.render({ design, overrides, assets, format: 'jpg' })).width).toBe(1080);
    expect(pool.started).toBe(1);
    expect(pool.isClosed).toBe(false);
    await b.close();
  });

  it('takes many renders in flight without a listener-leak warning', async () => {
    // Every render in flight listens to the engine's close signal; Node warns past 10 listeners by default.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const tiny: RenderOptions = { design: { width: 8, height: 8, objects: [] }, format: 'png' };
      const sizes = await Promise.all(Array.from({ length: 16 }, () => threaded.render(tiny).then((r) => r.width)));
      expect(sizes).toEqual(Array(16).fill(8));
      // A warning is emitted on the next tick after the listener that crosses the limit.
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('gives its threads back when it is dropped without close() and collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setUnheldPoolMs(0);
    try {
      // Three threads: settings no other engine of this file uses, so the pool is this engine's alone.
      await (async () => {
        const engine = new Engine({ threads: 3 });
        expect((await engine.render({ design: { width: 8, height: 8, objects: [] }, format: 'png' })).width).toBe(8);
      })();
      const pool = sharedPools().find((p) => p.size === 3)!.pool;
      expect(pool.started).toBe(1);
      // The engine is unreachable: once collected, its hold goes, and the idle pool ends its thread.
      for (let i = 0; i < 200 && !pool.isClosed; i++) {
        gc();
        await new Promise((r) => setImmediate(r));
      }
      expect(pool.isClosed).toBe(true);
      expect(sharedPools().some((p) => p.pool === pool)).toBe(false);
    } finally {
      setUnheldPoolMs(10_000);
    }
  });

  itBuilt('lets the process exit when its renders are done, without close()', () => {
    // An idle thread does not hold the event loop: node exits by itself after the render (of the built package).
    assertBuildCurrent(ROOT);
    const code = `const { render } = await import('imprint'); const r = await render({ design: { width: 8, height: 8, objects: [] }, format: 'png' }); console.log(r.width);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(out.trim()).toBe('8');
  });

  it.each([
    [-1, '-1'],
    [1.5, '1.5'],
    [65, '65'],
    ['2', '"2" of type string'],
  ])('refuses threads: %j with a message that says what it takes', (threads, shown) => {
    expect(() => new Engine({ threads: threads as number })).toThrow(
      new ImprintError('validation_error', '$.threads', `Expected an integer between 0 and 64 for threads but received ${shown}`),
    );
  });

  it.each([
    [{ fontsDir: '' }, '$.fontsDir', 'Expected a folder path for fontsDir but received "" of type string'],
    [{ fontsDir: 3 }, '$.fontsDir', 'Expected a folder path for fontsDir but received 3'],
    [{ fonts: bundledFonts(), fontsDir: 'fonts' }, '$.fontsDir', 'give either fonts (a FontSet, which names its own font folder) or fontsDir, not both'],
    [{ imageCacheBytes: -1 }, '$.imageCacheBytes', 'Expected a number of bytes, 0 or more, for imageCacheBytes but received -1'],
    [{ imageCacheBytes: '1GB' }, '$.imageCacheBytes', 'Expected a number of bytes, 0 or more, for imageCacheBytes but received "1GB" of type string'],
    [null, '$', 'expected engine options { fonts?, fontsDir?, imageCacheBytes?, threads? } (an object)'],
  ])('refuses engine options %j at %s, saying what they take', (options, path, message) => {
    expect(() => new Engine(options as EngineOptions)).toThrow(new ImprintError('validation_error', path, message));
  });

  it('fills in the defaults and ignores fields it does not know, as it always has', () => {
    const engine = new Engine({ threads: 0, imageCacheBytes: Infinity, ...({ colour: 'blue' } as object) });
    expect(engine.threads).toBe(0);
    expect(new Engine({ threads: undefined }).threads).toBe(Math.min(availableParallelism(), 64));
  });
});
