// A pool of render threads, one render each at a time: an Engine's `threads` and the service worker's
// slots. A render that overruns its time is aborted (ffmpeg killed) and, if it does not stop, its
// thread is terminated; a thread that runs out of heap or dies is replaced. Either way the caller gets
// a readable reason and the process carries on.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AssetNotFoundError, type AssetResolver } from '../assets/resolver.js';
import type { ErrorCode } from '../errors.js';
import type { VideoProgress } from '../encode/video.js';
import type { FromThread, ThreadData, ThreadJob, ThreadResult, ToThread } from './thread-protocol.js';

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

export interface RenderPoolOptions extends ThreadData {
  /** Threads, each rendering one job at a time. */
  size: number;
  /** A render still running after this many ms is stopped. Default: no limit. */
  timeoutMs?: number;
  /** Heap limit of each thread in MB. Default: Node's. */
  memoryMb?: number;
  /** Tells the reader of a timeout or memory failure how to raise that limit. */
  hints?: { timeout?: string; memory?: string };
  /**
   * Renders one thread runs at once. Default 1: a timeout or heap overflow then stops that render
   * only. 2 lets a thread paint one render while sharp encodes another on libuv's threads; a thread
   * stopped for one of them ends the other too.
   */
  rendersPerThread?: number;
  /**
   * Threads start when renders need them and an idle pool does not keep the process alive (an
   * Engine's pool). Default false: every thread starts at once (the service worker, whose first
   * task should not wait for one).
   */
  lazy?: boolean;
}

/** What one render brings besides its job: the callbacks that stay on the caller's thread. */
export interface RunCalls {
  assets?: AssetResolver;
  /** Per page of a multi-page job, where that page has its own resolver. */
  pageAssets?: readonly (AssetResolver | undefined)[];
  onProgress?: (progress: VideoProgress) => void;
  signal?: AbortSignal;
  /** Why a render stopped by `signal` failed (unless the signal's reason is a RenderFailure, which is used as it is); default: the thread's own render_cancelled error. */
  abortReason?: string;
  /** Overrides the pool's timeout for this render. */
  timeoutMs?: number;
}

/** The failure a signal was aborted with, when its owner gave one (an Engine closed: its renders on a shared pool end with its reason). */
function abortedBy(calls: RunCalls): RenderFailure | undefined {
  const reason: unknown = calls.signal?.reason;
  return reason instanceof RenderFailure ? reason : undefined;
}

/** Time a thread gets to stop after an abort before it is terminated. */
const ABORT_GRACE_MS = 2000;

/**
 * Where threads start from when this module runs from TypeScript sources (under vitest), where no
 * compiled render-thread.js sits beside it and a thread cannot load TypeScript: a test setup names a
 * module built from the same sources (test/support/render-thread.ts).
 */
let sourceThreadEntry: (() => URL) | undefined;

/** @internal for a test setup: how to get the thread module when this one runs from src/ */
export function setSourceThreadEntry(entry: () => URL): void {
  sourceThreadEntry = entry;
}

/** The render thread's module: beside this one (dist/render/, or the bundle in dist/pkg/), else the test setup's. */
function threadFile(): URL {
  const here = new URL('./render-thread.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  if (sourceThreadEntry) return sourceThreadEntry();
  throw new Error(
    `render threads run JavaScript and ${fileURLToPath(here)} does not exist: run the built package (npm run build), or load test/support/render-thread.ts as a vitest setup file`,
  );
}

/**
 * The process's node flags for a thread, less --input-type: a thread inherits them, and with
 * `node --input-type=module -e …` it would fail to start ("--input-type can only be used with string
 * input").
 */
function threadExecArgv(): string[] {
  const out: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const a = process.execArgv[i]!;
    if (a === '--input-type') i++;
    else if (!a.startsWith('--input-type=')) out.push(a);
  }
  return out;
}

interface Running {
  id: number;
  calls: RunCalls;
  done: (r: ThreadResult) => void;
  fail: (e: RenderFailure) => void;
  /** Set when the pool decided why it ends (timeout, cancel) before the thread says so. */
  ending?: RenderFailure;
}

class Thread {
  readonly worker: Worker;
  readonly running = new Map<number, Running>();
  dead = false;

  constructor(
    private readonly pool: RenderPool,
    file: URL,
    opts: RenderPoolOptions,
  ) {
    const data: ThreadData = {
      imageCacheBytes: opts.imageCacheBytes,
      fontsDir: opts.fontsDir,
      installedDir: opts.installedDir,
      sharpCacheMb: opts.sharpCacheMb,
    };
    this.worker = new Worker(file, {
      ...(opts.memoryMb ? { resourceLimits: { maxOldGenerationSizeMb: opts.memoryMb } } : {}),
      workerData: data,
      execArgv: threadExecArgv(),
    });
    this.worker.on('message', (m: FromThread) => void this.onMessage(m));
    this.worker.on('error', (e: Error & { code?: string }) => {
      const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      const hint = opts.hints?.memory ?? 'use smaller images or raise the memory limit';
      this.end(
        memory
          ? new RenderFailure('memory', `the render ran out of memory (limit ${opts.memoryMb ?? 'default'} MB) and was stopped: ${hint}`)
          : new RenderFailure('crash', `the render thread failed: ${e.message}`),
      );
    });
    this.worker.on('exit', (code) => this.end(new RenderFailure('crash', `the render thread stopped unexpectedly (exit code ${code})`)));
  }

  private end(failure: RenderFailure): void {
    if (this.dead) return;
    this.dead = true;
    const ended = [...this.running.values()];
    this.running.clear();
    const why = this.pool.isClosed ? new RenderFailure('cancelled', 'the render was cancelled: its render pool was closed', 'render_cancelled') : failure;
    for (const r of ended) r.fail(r.ending ?? why);
    this.pool.replace(this);
  }

  private async onMessage(m: FromThread): Promise<void> {
    if (m.type === 'ready') return;
    const r = this.running.get(m.id);
    if (!r) return;
    if (m.type === 'asset') {
      const resolver = (m.page === undefined ? undefined : r.calls.pageAssets?.[m.page]) ?? r.calls.assets;
      let reply: ToThread;
      try {
        if (!resolver) throw new Error('no asset resolver');
        const bytes = await resolver(m.ref);
        reply = { type: 'asset', req: m.req, bytes };
      } catch (e) {
        reply = { type: 'asset', req: m.req, error: { notFound: e instanceof AssetNotFoundError, message: (e as Error).message } };
      }
      if (!this.dead) this.worker.postMessage(reply);
      return;
    }
    if (m.type === 'progress') {
      r.calls.onProgress?.(m.progress);
      return;
    }
    this.running.delete(m.id);
    if (m.type === 'done') r.done(m.result);
    else r.fail(r.ending ?? new RenderFailure(m.error.code === 'render_cancelled' ? 'cancelled' : 'render', m.error.message, m.error.code, m.error.path));
    this.pool.idle(this);
  }
}

export class RenderPool {
  private readonly threads: Thread[] = [];
  /** Renders waiting for a place on a thread, first come first served; each starts on the thread it is given. */
  private readonly waiting: { start: (t: Thread) => void; fail: (e: RenderFailure) => void }[] = [];
  private nextId = 1;
  private closed = false;

  private readonly file: URL;
  private readonly perThread: number;

  constructor(private readonly opts: RenderPoolOptions) {
    this.file = threadFile();
    this.perThread = opts.rendersPerThread ?? 1;
    if (!opts.lazy) for (let i = 0; i < opts.size; i++) this.spawn();
  }

  /** The most threads the pool runs. */
  get size(): number {
    return this.opts.size;
  }

  /** Threads started (and alive) so far. */
  get started(): number {
    return this.threads.length;
  }

  private spawn(): Thread {
    const t = new Thread(this, this.file, this.opts);
    this.threads.push(t);
    this.idle(t);
    return t;
  }

  /** @internal a thread has a free place (started, or a render ended) */
  idle(t: Thread): void {
    if (this.closed || t.dead) return;
    while (t.running.size < this.perThread && this.waiting.length > 0) this.waiting.shift()!.start(t);
    // An idle thread of a lazy pool lets the process exit; a render holds it again (run).
    if (this.opts.lazy && t.running.size === 0) t.worker.unref();
  }

  /** @internal a thread died: drop it and, unless the pool starts threads on demand, start another */
  replace(t: Thread): void {
    this.threads.splice(this.threads.indexOf(t), 1);
    if (this.closed) return;
    if (!this.opts.lazy || this.waiting.length > 0) this.spawn();
  }

  /** Starts `start` on a thread now (it takes its place there synchronously), or queues it. */
  private acquire(waiter: { start: (t: Thread) => void; fail: (e: RenderFailure) => void }): void {
    const { start } = waiter;
    // An idle thread first (the most recently started: its engine has recent fonts and images
    // cached), then a new thread while the pool may grow, then another place on the least busy one.
    const live = this.threads.filter((t) => !t.dead);
    const idle = [...live].reverse().find((t) => t.running.size === 0);
    if (idle) return start(idle);
    if (this.opts.lazy && live.length < this.opts.size) {
      this.waiting.push(waiter);
      this.spawn();
      return;
    }
    const least = live.reduce<Thread | undefined>((a, t) => (a && a.running.size <= t.running.size ? a : t), undefined);
    if (least && least.running.size < this.perThread) return start(least);
    this.waiting.push(waiter);
  }

  async run(job: ThreadJob, calls: RunCalls = {}): Promise<ThreadResult> {
    if (this.closed) throw new RenderFailure('cancelled', 'the render pool is closed');
    const { signal } = calls;
    const cancelled = () =>
      abortedBy(calls) ?? new RenderFailure('cancelled', calls.abortReason ?? 'the render was cancelled before it started', 'render_cancelled');
    if (signal?.aborted) throw cancelled();
    return new Promise<ThreadResult>((resolve, reject) => {
      // A render given up while it waits for a thread (a preview its client no longer wants) leaves
      // the queue at once rather than taking a thread's time later.
      const dropWaiting = () => {
        const i = this.waiting.indexOf(waiter);
        if (i < 0) return;
        this.waiting.splice(i, 1);
        reject(cancelled());
      };
      const waiter = {
        start: (thread: Thread) => {
          signal?.removeEventListener('abort', dropWaiting);
          this.start(thread, job, calls, resolve, reject);
        },
        fail: (e: RenderFailure) => {
          signal?.removeEventListener('abort', dropWaiting);
          reject(e);
        },
      };
      signal?.addEventListener('abort', dropWaiting, { once: true });
      this.acquire(waiter);
    });
  }

  private start(thread: Thread, job: ThreadJob, calls: RunCalls, resolve: (r: ThreadResult) => void, reject: (e: RenderFailure) => void): void {
    thread.worker.ref();
    const id = this.nextId++;
    const { signal } = calls;
    const timeoutMs = calls.timeoutMs ?? this.opts.timeoutMs;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (why?: RenderFailure) => {
      const r = thread.running.get(id);
      if (!r || r.ending) return;
      if (why) r.ending = why;
      thread.worker.postMessage({ type: 'abort', id } satisfies ToThread);
      // A render stuck in native code never sees the abort: the thread goes, a new one comes.
      killTimer = setTimeout(() => {
        r.ending ??= new RenderFailure('cancelled', 'the render was cancelled', 'render_cancelled');
        void thread.worker.terminate();
      }, ABORT_GRACE_MS);
    };
    const timeoutHint = this.opts.hints?.timeout ?? 'simplify the design or raise the time limit';
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => stop(new RenderFailure('timeout', `the render took longer than ${timeoutMs / 1000} s and was stopped: ${timeoutHint}`)), timeoutMs);
    const onAbort = () => stop(abortedBy(calls) ?? (calls.abortReason === undefined ? undefined : new RenderFailure('cancelled', calls.abortReason)));
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
    };
    thread.running.set(id, {
      id,
      calls,
      done: (out) => {
        settle();
        resolve(out);
      },
      fail: (e) => {
        settle();
        reject(e);
      },
    });
    try {
      thread.worker.postMessage({ type: 'render', id, job } satisfies ToThread);
    } catch (e) {
      // Options that cannot be cloned (validation lets only data through, so this is a host's bug):
      // the place on the thread is given back rather than held forever.
      thread.running.delete(id);
      settle();
      reject(new RenderFailure('render', `the render options cannot be sent to a render thread: ${(e as Error).message}`));
      this.idle(thread);
      return;
    }
    if (signal?.aborted) onAbort();
  }

  /** Whether a render is running or waiting. */
  get busy(): boolean {
    return this.waiting.length > 0 || this.threads.some((t) => t.running.size > 0);
  }

  /** Whether close() was called: renders its threads drop are then cancelled, not crashed. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Stops every thread; renders running or waiting reject as cancelled. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.fail(new RenderFailure('cancelled', 'the render was cancelled: its render pool was closed', 'render_cancelled'));
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
