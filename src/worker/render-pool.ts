// A pool of render threads, one render each at a time. A render that overruns its time is aborted
// (ffmpeg killed) and, if it does not stop, its thread is terminated; a thread that runs out of heap
// or dies is replaced. Either way the caller gets a readable reason and the process carries on.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AssetNotFoundError, type AssetResolver } from '../assets/resolver.js';
import type { ErrorCode } from '../errors.js';
import type { FromThread, RenderJob, RenderOutput, ToThread } from './render-protocol.js';
import { assertBuildCurrent } from './stale-build.js';

export type FailureKind = 'render' | 'timeout' | 'memory' | 'crash' | 'cancelled';

export class RenderFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly code: ErrorCode | 'internal' = 'render_failed',
    readonly path = '$',
  ) {
    super(message);
    this.name = 'RenderFailure';
  }
}

export interface RenderPoolOptions {
  size: number;
  timeoutMs: number;
  memoryMb: number;
  /** Decoded images each render thread keeps between renders. Default 32 MiB (a host embedding the engine keeps 256). */
  imageCacheMb?: number;
}

/** Time a thread gets to stop after an abort before it is terminated. */
const ABORT_GRACE_MS = 2000;

/**
 * The render thread's module. Under vitest this module runs from src/, where a thread cannot load
 * TypeScript: the built copy in dist/ is used (npm test builds first). In a checkout, a dist/ older
 * than src/ is refused (StaleBuildError: run npm run build) rather than rendering with old code.
 */
function threadFile(): URL {
  assertBuildCurrent(fileURLToPath(new URL('../../', import.meta.url)));
  const here = new URL('./render-thread.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL('../../dist/worker/render-thread.js', import.meta.url);
}

interface Running {
  id: number;
  resolver: AssetResolver;
  done: (r: RenderOutput) => void;
  fail: (e: RenderFailure) => void;
  /** Set when the pool decided why it ends (timeout, cancel) before the thread says so. */
  ending?: RenderFailure;
}

class Thread {
  readonly worker: Worker;
  running: Running | undefined;
  dead = false;

  constructor(
    private readonly pool: RenderPool,
    file: URL,
    memoryMb: number,
    imageCacheMb: number,
  ) {
    this.worker = new Worker(file, { resourceLimits: { maxOldGenerationSizeMb: memoryMb }, workerData: { imageCacheMb } });
    this.worker.on('message', (m: FromThread) => void this.onMessage(m));
    this.worker.on('error', (e: Error & { code?: string }) => {
      const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.end(
        memory
          ? new RenderFailure(
              'memory',
              `the render ran out of memory (limit ${memoryMb} MB) and was stopped: use smaller images or raise IMPRINT_RENDER_MEMORY_MB`,
            )
          : new RenderFailure('crash', `the render thread failed: ${e.message}`),
      );
    });
    this.worker.on('exit', (code) => this.end(new RenderFailure('crash', `the render thread stopped unexpectedly (exit code ${code})`)));
  }

  private end(failure: RenderFailure): void {
    if (this.dead) return;
    this.dead = true;
    const r = this.running;
    this.running = undefined;
    if (r) r.fail(r.ending ?? failure);
    this.pool.replace(this);
  }

  private async onMessage(m: FromThread): Promise<void> {
    const r = this.running;
    if (m.type === 'ready' || !r || m.id !== r.id) return;
    if (m.type === 'asset') {
      let reply: ToThread;
      try {
        const bytes = await r.resolver(m.ref);
        reply = { type: 'asset', req: m.req, bytes };
      } catch (e) {
        reply = { type: 'asset', req: m.req, error: { notFound: e instanceof AssetNotFoundError, message: (e as Error).message } };
      }
      if (!this.dead) this.worker.postMessage(reply);
      return;
    }
    this.running = undefined;
    if (m.type === 'done') r.done(m.output);
    else r.fail(r.ending ?? new RenderFailure(m.error.code === 'render_cancelled' ? 'cancelled' : 'render', m.error.message, m.error.code, m.error.path));
    this.pool.idle(this);
  }
}

export class RenderPool {
  private readonly threads: Thread[] = [];
  private readonly free: Thread[] = [];
  private readonly waiting: ((t: Thread) => void)[] = [];
  private nextId = 1;
  private closed = false;

  private readonly file: URL;

  /** Throws a StaleBuildError in a checkout whose dist/ is older than src/. */
  constructor(private readonly opts: RenderPoolOptions) {
    this.file = threadFile();
    for (let i = 0; i < opts.size; i++) this.spawn();
  }

  private spawn(): void {
    const t = new Thread(this, this.file, this.opts.memoryMb, this.opts.imageCacheMb ?? 32);
    this.threads.push(t);
    this.idle(t);
  }

  /** @internal a thread finished its job */
  idle(t: Thread): void {
    if (this.closed || t.dead) return;
    const w = this.waiting.shift();
    if (w) w(t);
    else this.free.push(t);
  }

  /** @internal a thread died: drop it and start another */
  replace(t: Thread): void {
    this.threads.splice(this.threads.indexOf(t), 1);
    const i = this.free.indexOf(t);
    if (i >= 0) this.free.splice(i, 1);
    if (!this.closed) this.spawn();
  }

  private acquire(): Promise<Thread> {
    // Most recently used first: its engine has the fonts and images of recent renders cached.
    const t = this.free.pop();
    return t ? Promise.resolve(t) : new Promise((resolve) => this.waiting.push(resolve));
  }

  async run(job: RenderJob, resolver: AssetResolver, signal?: AbortSignal, timeoutMs = this.opts.timeoutMs): Promise<RenderOutput> {
    if (this.closed) throw new RenderFailure('cancelled', 'the worker is shutting down');
    const thread = await this.acquire();
    const id = this.nextId++;
    return new Promise<RenderOutput>((resolve, reject) => {
      let killTimer: NodeJS.Timeout | undefined;
      const stop = (why: RenderFailure) => {
        const r = thread.running;
        if (!r || r.id !== id || r.ending) return;
        r.ending = why;
        thread.worker.postMessage({ type: 'abort', id } satisfies ToThread);
        // A render stuck in native code never sees the abort: the thread goes, a new one comes.
        killTimer = setTimeout(() => void thread.worker.terminate(), ABORT_GRACE_MS);
      };
      const timer = setTimeout(
        () =>
          stop(
            new RenderFailure(
              'timeout',
              `the render took longer than ${timeoutMs / 1000} s and was stopped: simplify the design or raise IMPRINT_RENDER_TIMEOUT_S`,
            ),
          ),
        timeoutMs,
      );
      const onAbort = () => stop(new RenderFailure('cancelled', 'the render was stopped because the worker is shutting down'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        clearTimeout(killTimer);
        signal?.removeEventListener('abort', onAbort);
      };
      thread.running = {
        id,
        resolver,
        done: (out) => {
          settle();
          resolve(out);
        },
        fail: (e) => {
          settle();
          reject(e);
        },
      };
      thread.worker.postMessage({ type: 'render', id, job } satisfies ToThread);
      if (signal?.aborted) onAbort();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
