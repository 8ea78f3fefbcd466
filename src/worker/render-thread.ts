// A render thread: runs the engine for one job at a time, asking the worker for asset bytes. Renders
// run off the worker's event loop so a timeout or a heap overflow can stop one without the process.
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { AssetNotFoundError, type AssetResolver } from '../assets/resolver.js';
import { Engine, type DesignInput } from '../engine.js';
import type { Overrides } from '../resolve/types.js';
import { isImprintError } from '../errors.js';
import type { FromThread, RenderJob, ToThread } from './render-protocol.js';

const port = parentPort;
if (!port) throw new Error('render-thread.js runs inside a worker thread');

const { imageCacheMb } = workerData as { imageCacheMb: number };
// Decoded images are kept per thread for the next render; the service bounds them (a host embedding
// the engine keeps its own default). libvips' operation cache is per process and holds whole decoded
// images: a render service gains little from it and pays in resident memory, so it stays small.
const engine = new Engine({ imageCacheBytes: imageCacheMb * 1024 * 1024 });
sharp.cache({ memory: 16, files: 0, items: 20 });
const pendingAssets = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
const aborts = new Map<number, AbortController>();
let nextReq = 1;

const send = (m: FromThread, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

function resolverFor(id: number): AssetResolver {
  return (ref) =>
    new Promise<Uint8Array>((resolve, reject) => {
      const req = nextReq++;
      pendingAssets.set(req, { resolve, reject });
      send({ type: 'asset', id, req, ref });
    });
}

async function render(id: number, job: RenderJob): Promise<void> {
  const controller = new AbortController();
  aborts.set(id, controller);
  try {
    const r = await engine.render({
      // Stored templates and overrides are plain JSON: the engine validates them like any input.
      design: job.template as DesignInput,
      overrides: job.overrides as Overrides,
      format: job.format,
      assets: resolverFor(id),
      signal: controller.signal,
      ...(job.fps ? { fps: job.fps } : {}),
      ...(job.size ? { size: job.size } : {}),
      ...(job.maxDuration ? { maxDuration: job.maxDuration } : {}),
      ...(job.posterTime !== undefined ? { poster: { time: job.posterTime } } : {}),
      ...(job.watermark ? { watermark: job.watermark } : {}),
      ...(job.quality === undefined ? {} : { [job.format]: { quality: job.quality } }),
    });
    const bytes = new Uint8Array(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    send({
      type: 'done',
      id,
      output: { bytes, ...(r.poster ? { poster: new Uint8Array(r.poster) } : {}), width: r.width, height: r.height, ...(r.frames ? { frames: r.frames } : {}) },
    });
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
  else if (m.type === 'abort') aborts.get(m.id)?.abort();
  else if (m.type === 'asset') {
    const p = pendingAssets.get(m.req);
    pendingAssets.delete(m.req);
    if (!p) return;
    if (m.bytes) p.resolve(m.bytes);
    else p.reject(m.error?.notFound ? new AssetNotFoundError(m.error.message) : new Error(m.error?.message ?? 'asset unavailable'));
  }
});

send({ type: 'ready' });
