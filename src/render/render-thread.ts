// A render thread of a pool (pool.ts): runs an in-thread Engine for the jobs the pool gives it (as many
// at once as the pool's rendersPerThread), asking the pool for asset bytes and sending progress back. Renders run off the caller's event loop, so a host gets
// every core and a timeout or a heap overflow can stop one render without the process.
import { parentPort, workerData } from 'node:worker_threads';
import { AssetNotFoundError, type AssetResolver } from '../assets/resolver.js';
import { Engine } from '../engine.js';
import { isImprintError } from '../errors.js';
import { lazyRequire } from '../lazy-require.js';
import { FONTS_DIR, FontSet } from '../text/fonts.js';
import { InstalledFonts } from '../text/installed.js';
import type { RenderOptions } from './options.js';
import type { FromThread, ThreadData, ThreadJob, ToThread } from './thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('render-thread.js runs inside a worker thread');

const data = workerData as ThreadData;
const fonts =
  data.fontsDir || data.installedDir
    ? new FontSet(data.fontsDir ?? FONTS_DIR, [], data.installedDir ? { installed: new InstalledFonts(data.installedDir) } : {})
    : undefined;
const engine = new Engine({ threads: 0, imageCacheBytes: data.imageCacheBytes, ...(fonts ? { fonts } : {}) });
if (data.sharpCacheMb !== undefined) lazyRequire<typeof import('sharp')>('sharp')().cache({ memory: data.sharpCacheMb, files: 0, items: 20 });
const pendingAssets = new Map<number, { id: number; resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
const aborts = new Map<number, AbortController>();
let nextReq = 1;

const send = (m: FromThread, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

function resolverFor(id: number, page?: number): AssetResolver {
  return (ref) =>
    new Promise<Uint8Array>((resolve, reject) => {
      const req = nextReq++;
      pendingAssets.set(req, { id, resolve, reject });
      send({ type: 'asset', id, req, ref, ...(page === undefined ? {} : { page }) });
    });
}

/** The job as the engine's options: resolvers and progress become messages to the pool. */
function optionsOf(id: number, job: ThreadJob, signal: AbortSignal): RenderOptions {
  const { assets, progress, pages, ...rest } = job;
  return {
    ...rest,
    ...(assets ? { assets: resolverFor(id) } : {}),
    ...(pages ? { pages: pages.map(({ assets: own, ...p }, i) => ({ ...p, ...(own ? { assets: resolverFor(id, i) } : {}) })) } : {}),
    ...(progress ? { onProgress: (p) => send({ type: 'progress', id, progress: p }) } : {}),
    signal,
  };
}

async function render(id: number, job: ThreadJob): Promise<void> {
  const controller = new AbortController();
  aborts.set(id, controller);
  try {
    const r = await engine.render(optionsOf(id, job, controller.signal));
    // The bytes move to the pool (transferred, not copied) when they own their buffer.
    const bytes = new Uint8Array(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    const poster = r.poster ? new Uint8Array(r.poster) : undefined;
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    send({ type: 'done', id, result: { ...r, bytes, ...(poster ? { poster } : {}) } }, owned ? [bytes.buffer] : []);
  } catch (e) {
    const error = isImprintError(e)
      ? { code: e.code, path: e.path, message: e.message }
      : { code: 'internal' as const, path: '$', message: (e as Error)?.message ?? String(e) };
    send({ type: 'failed', id, error });
  } finally {
    aborts.delete(id);
  }
}

port.on('message', (m: ToThread) => {
  if (m.type === 'render') void render(m.id, m.job);
  else if (m.type === 'abort') {
    aborts.get(m.id)?.abort();
    // A render waiting for asset bytes stops waiting: the pool will not answer for a render it gave up.
    for (const [req, p] of pendingAssets) {
      if (p.id !== m.id) continue;
      pendingAssets.delete(req);
      p.reject(new Error('the render was cancelled'));
    }
  } else if (m.type === 'asset') {
    const p = pendingAssets.get(m.req);
    pendingAssets.delete(m.req);
    if (!p) return;
    if (m.bytes) p.resolve(m.bytes);
    else p.reject(m.error?.notFound ? new AssetNotFoundError(m.error.message) : new Error(m.error?.message ?? 'asset unavailable'));
  }
});

send({ type: 'ready' });
