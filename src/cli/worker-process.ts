// `imprint serve`'s render worker as a child process: `imprint worker` on the same stores and
// environment. It has its own event loop and its own metadata connection, so a flood of requests on
// the server's event loop does not starve the renders (bench/http.mjs measures it; the choice is
// explained in docs/operations.md). The server wakes it when a task is queued, restarts it when it
// dies, stops it on shutdown, and shows its counters at /metrics.
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { ConfigError } from '../service/config.js';
import type { ServiceContext } from '../service/context.js';
import type { MetricsSnapshot } from '../service/metrics.js';
import { LocalQueue } from '../store/queue/local.js';

/** Where `imprint serve` renders: a child process (default), its own event loop (`inline`), or nowhere (`none`). */
export type WorkerMode = 'process' | 'inline' | 'none';

export const WORKER_MODES: readonly WorkerMode[] = ['process', 'inline', 'none'];

export function workerModeFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): WorkerMode {
  const raw = env.IMPRINT_SERVE_WORKER;
  if (raw === undefined || raw === '') return 'process';
  if ((WORKER_MODES as readonly string[]).includes(raw)) return raw as WorkerMode;
  throw new ConfigError(`Expected one of ${WORKER_MODES.join(', ')} for IMPRINT_SERVE_WORKER but received "${raw}"`);
}

/** Server → worker process. */
interface WakeMessage {
  type: 'wake';
}
/** Worker process → server. */
interface MetricsMessage {
  type: 'metrics';
  snapshot: MetricsSnapshot;
}

const isMessage = <T extends { type: string }>(m: unknown, type: T['type']): m is T =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type;

/** The CLI's launcher, two folders up from this module in src/cli/, dist/cli/ and dist/pkg/ alike. */
const CLI = fileURLToPath(new URL('../../bin/imprint.js', import.meta.url));

/** A child that ran this long was healthy: its next restart waits the shortest time again. */
const HEALTHY_MS = 60_000;
const RESTART_MIN_MS = 500;
const RESTART_MAX_MS = 30_000;
/** How much lower the worker process's CPU priority is than the server's (niceness, 0-19). */
const WORKER_NICE = 10;

export interface WorkerProcessOptions {
  /** Environment of the child; it reads its configuration from it like any `imprint worker`. */
  env: Readonly<Record<string, string | undefined>>;
  log: Logger;
}

/** The supervised child process of `imprint serve`. */
export class WorkerProcess {
  private child: ChildProcess | undefined;
  private generation = 0;
  private stopping = false;
  private wakeQueued = false;
  private restartDelay = RESTART_MIN_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly opts: WorkerProcessOptions,
  ) {}

  start(): void {
    // With the in-process queue the child learns of new tasks from here (it would otherwise find
    // them at its next poll); with BullMQ the ids reach it through Redis.
    if (this.ctx.queue instanceof LocalQueue) this.ctx.queue.onPush(() => this.wake());
    this.spawn();
  }

  private spawn(): void {
    const generation = ++this.generation;
    const started = Date.now();
    // Its own process group: a Ctrl-C in the terminal reaches the server only, which then stops the
    // child itself (a second signal would end the child's graceful stop early).
    // No execArgv: the server's own flags (a test runner's loaders, a profiler) are not the worker's;
    // NODE_OPTIONS in the environment reaches both.
    const child = spawn(process.execPath, [CLI, 'worker'], {
      env: this.opts.env,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      detached: true,
    });
    this.child = child;
    // Requests first: on a machine whose cores the renders fill, an equal share of the CPU left the
    // server's event loop behind a flood (p99 of POST /render 10-20 s, measured). At a lower
    // priority the renders take whatever the requests leave. Set at once, before the child starts
    // its render threads, which inherit it (Linux sets priorities per thread).
    if (child.pid !== undefined && WORKER_NICE > 0) {
      try {
        setPriority(child.pid, WORKER_NICE);
      } catch (e) {
        this.opts.log.warn({ err: e }, 'could not lower the priority of the worker process');
      }
    }
    const source = `worker-process-${generation}`;
    child.on('message', (m: unknown) => {
      if (isMessage<MetricsMessage>(m, 'metrics')) this.ctx.metrics.absorb(source, m.snapshot);
    });
    child.on('error', (e) => this.opts.log.error({ err: e }, 'could not start the worker process'));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = undefined;
        resolve();
        if (this.stopping) return;
        // Renders it held are requeued by the lease check; a new child carries on with the queue.
        this.restartDelay = Date.now() - started > HEALTHY_MS ? RESTART_MIN_MS : Math.min(RESTART_MAX_MS, this.restartDelay * 2);
        this.opts.log.error({ code, signal, restart_in_ms: this.restartDelay }, 'the worker process stopped; starting a new one');
        this.restartTimer = setTimeout(() => this.spawn(), this.restartDelay);
      }),
    );
    // Its own pid as worker_pid: the logger's base already has "pid", this process's.
    this.opts.log.info({ worker_pid: child.pid }, 'worker process started');
  }

  /** One message per turn of the event loop, however many tasks were queued in it. */
  private wake(): void {
    if (this.wakeQueued || !this.child?.connected) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      if (this.child?.connected) this.child.send({ type: 'wake' } satisfies WakeMessage, () => undefined);
    });
  }

  /** Stops the child gracefully (it finishes or requeues its renders) and waits for it to exit. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.child?.kill('SIGTERM');
    await this.exited;
  }
}

/**
 * In the worker process started by `imprint serve`: wakes its queue when the server says work is
 * waiting and sends its counters to the server's /metrics (when they changed, at most once a
 * second, and a last time on `flush`).
 */
export function reportToServer(ctx: ServiceContext): { flush(): Promise<void>; close(): void } {
  const send = process.send?.bind(process);
  if (!send) return { flush: async () => undefined, close: () => undefined };
  const onMessage = (m: unknown) => {
    if (isMessage<WakeMessage>(m, 'wake') && ctx.queue instanceof LocalQueue) ctx.queue.wake();
  };
  process.on('message', onMessage);
  let sent = -1;
  const flush = () =>
    new Promise<void>((resolve) => {
      if (sent === ctx.metrics.version || !process.connected) return resolve();
      sent = ctx.metrics.version;
      send({ type: 'metrics', snapshot: ctx.metrics.snapshot() } satisfies MetricsMessage, undefined, {}, () => resolve());
    });
  const timer = setInterval(() => void flush(), 1000);
  timer.unref();
  return {
    flush,
    close: () => {
      clearInterval(timer);
      process.off('message', onMessage);
      // An open channel would keep this process alive after its work is done.
      if (process.connected) process.disconnect();
    },
  };
}
