// The worker: takes claimed tasks from the queue, renders them in the thread pool, stores the
// result, records done or error, then calls the completion hook. It also renews its leases and
// recovers tasks whose worker died (requeued once, then error), so no task stays pending forever.
import type { Logger } from 'pino';
import type { ServiceContext } from '../service/context.js';
import type { CompletionHook } from '../service/notify.js';
import { chargeFor } from '../service/billing.js';
import { posterKeyOf, RESULT_TYPES, resultKeyOf, taskOptions, type TaskFormat, type TaskOptions } from '../service/tasks.js';
import type { TaskRecord } from '../store/metadata/records.js';
import { isImprintError, type ErrorCode } from '../errors.js';
import { DEFAULT_FPS } from '../output-formats.js';
import type { DesignInput, RenderOptions } from '../engine.js';
import type { Overrides } from '../resolve/types.js';
import { RenderFailure, RenderPool, type FailureKind } from '../render/pool.js';
import { splitOptions } from '../render/threaded.js';
import { renderWarnings } from '../render/warnings.js';
import { accountFontSet, installDesignFonts, libraryFontFiles } from '../service/fonts.js';
import { holderIsGone } from '../service/holder.js';
import { DESIGN_VERSIONS_KEPT } from '../service/shapes.js';
import { ProgressSink } from './progress.js';
import { DEMO_LOGO_ASSET, taskAssetResolver } from './task-assets.js';

/** Where and how the free mode's logo sits: bottom right, a quarter of the width. */
const DEMO_WATERMARK = { image: `asset:${DEMO_LOGO_ASSET}`, position: 'bottom-right', opacity: 0.9, width: 0.3 } as const;

/** A task is taken at most this many times: a stalled task is requeued once, then put in error. */
export const MAX_ATTEMPTS = 2;
export const STALLED_REASON =
  'the worker rendering this task stopped twice (killed, crashed or out of memory): retry the render; if that does not help, contact support';

export interface WorkerOptions {
  /** Renders at once in this process. Default: the configuration's workerConcurrency. */
  slots?: number;
  onComplete?: CompletionHook;
}

export class TaskWorker {
  private readonly pool: RenderPool;
  private readonly slots: number;
  private readonly takeController = new AbortController();
  private readonly renderController = new AbortController();
  private readonly running = new Set<Promise<void>>();
  /** Ids of the tasks this worker renders now: only their leases are renewed. */
  private readonly rendering = new Set<number>();
  private loops: Promise<void>[] = [];
  private leaseTimer: NodeJS.Timeout | undefined;
  private leaseRun: Promise<void> = Promise.resolve();
  private stopping = false;
  private readonly log: Logger;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly opts: WorkerOptions = {},
  ) {
    this.slots = opts.slots ?? ctx.config.workerConcurrency;
    this.pool = new RenderPool({
      size: this.slots,
      timeoutMs: ctx.config.renderTimeoutMs,
      memoryMb: ctx.config.renderMemoryMb,
      hints: { timeout: 'simplify the design or raise IMPRINT_RENDER_TIMEOUT_S', memory: 'use smaller images or raise IMPRINT_RENDER_MEMORY_MB' },
      // Decoded images each thread keeps: a service bounds them (an embedding host keeps 256 MiB).
      // libvips' operation cache is per process and holds whole decoded images: a render service
      // gains little from it and pays in resident memory, so it stays small.
      imageCacheBytes: 32 * 1024 * 1024,
      sharpCacheMb: 16,
    });
    this.log = ctx.log.child({ worker: ctx.workerId });
  }

  start(): void {
    this.loops = Array.from({ length: this.slots }, () => this.loop());
    const beat = () => {
      this.leaseRun = this.leases().catch((e: unknown) => this.log.error({ err: e }, 'lease check failed'));
    };
    beat();
    this.leaseTimer = setInterval(beat, Math.max(50, Math.floor(this.ctx.config.leaseMs / 3)));
    this.log.info({ slots: this.slots, queue: this.ctx.queue.kind }, 'worker started');
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let task: TaskRecord | undefined;
      try {
        task = await this.ctx.queue.take(this.takeController.signal);
      } catch (e) {
        this.log.error({ err: e }, 'could not take a task; retrying');
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (!task) break;
      // A store that fails here (a database restart) must not take the process down: the task's
      // lease runs out and another worker, or this one, takes it again.
      this.rendering.add(task.id);
      const run = this.execute(task)
        .catch((e: unknown) => this.log.error({ task_id: task.id, err: e }, 'could not record the end of a render; the task will be retried'))
        .finally(() => this.rendering.delete(task.id));
      this.running.add(run);
      await run;
      this.running.delete(run);
    }
  }

  /** Renews this worker's leases, then recovers tasks whose worker stopped renewing. */
  private async leases(): Promise<void> {
    const now = this.ctx.clock();
    await this.ctx.meta.renewLeases(this.ctx.workerId, now + this.ctx.config.leaseMs, [...this.rendering]);
    // With SQLite every worker runs on this machine: a holder that is provably gone (killed, or the
    // machine restarted) gives its tasks back now instead of after its lease. Scale-out stores are shared
    // between machines, where nothing here can prove another one's worker dead: their leases run out.
    if (this.ctx.meta.dialect === 'sqlite') {
      for (const h of await this.ctx.meta.pendingHolders()) {
        if (h.workerId === this.ctx.workerId || !holderIsGone(h.workerId)) continue;
        const ended = await this.ctx.meta.endLeases(h.workerId, h.taskIds, now);
        if (ended > 0)
          this.log.warn({ holder: h.workerId, tasks: h.taskIds }, 'the worker holding these tasks is gone; they are taken back without waiting for its lease');
      }
    }
    const { requeued, failed } = await this.ctx.meta.recoverStalled(now, MAX_ATTEMPTS, STALLED_REASON);
    // A queued task whose id never reached the queue backend (a crash between commit and push, Redis
    // losing its data) is handed out again by un-parking; duplicate deliveries are harmless.
    await this.ctx.meta.parkUndelivered(now - this.ctx.config.leaseMs);
    for (const t of requeued) {
      this.log.warn({ task_id: t.id, attempts: t.attempts }, 'stalled task requeued');
      this.ctx.metrics.inc('imprint_tasks_requeued_total');
      // Requeued tasks are parked too: if this push fails, un-parking delivers them.
      await this.ctx.queue.push(t.id).catch((e: unknown) => this.log.warn({ task_id: t.id, err: e }, 'push of a requeued task failed; it stays parked'));
    }
    for (const t of failed) {
      this.log.error({ task_id: t.id }, 'stalled task failed');
      await this.completed(t);
    }
  }

  private async execute(task: TaskRecord): Promise<void> {
    const log = this.log.child({ task_id: task.id, account_id: task.accountId });
    const started = this.ctx.clock();
    log.info({ design_id: task.designId, format: task.format, attempt: task.attempts }, 'render started');
    let outcome: Parameters<typeof this.ctx.meta.finishTask>[2];
    try {
      // The version the task was queued with (tasks from before versions render the latest).
      const design = await this.ctx.meta.getDesign(task.accountId, task.designId, task.designVersion ?? undefined);
      if (!design) {
        const exists = task.designVersion !== null && (await this.ctx.meta.getDesign(task.accountId, task.designId)) !== undefined;
        throw new RenderFailure(
          'render',
          exists
            ? `version ${task.designVersion} of design ${task.designId} was dropped before the render (only the last ${DESIGN_VERSIONS_KEPT} versions are kept): queue the task again`
            : `design ${task.designId} was deleted before the render: queue the task again with an existing design`,
          'design_not_found',
        );
      }
      const o = taskOptions(task);
      const format = task.format as TaskFormat;
      // The account's library fonts the design names; its own font files come through `assets`.
      const fontFiles = await libraryFontFiles(this.ctx, task.accountId, design.template);
      // A design pinned to Google Fonts packages this machine lacks (a worker beside the one that
      // imported it): they are installed before the render, which itself never touches the network.
      // The install counts against the render's time limit and stops when the worker does.
      const limitMs = timeoutFor(o, this.ctx.config.renderTimeoutMs);
      const installLimit = AbortSignal.timeout(limitMs);
      await installDesignFonts(this.ctx, design.template, await accountFontSet(this.ctx, task.accountId, design.template), {
        overrides: task.overrides,
        missingFonts: o.missing_fonts,
        signal: AbortSignal.any([this.renderController.signal, installLimit]),
      }).catch((e: unknown) => {
        if (installLimit.aborted && !this.renderController.signal.aborted) {
          throw new RenderFailure(
            'timeout',
            `installing the design's Google Fonts families took longer than the render may (${Math.round(limitMs / 1000)} s): retry, or install them ahead with npx imprint fonts install`,
          );
        }
        if (isImprintError(e) && e.code === 'render_cancelled') throw new RenderFailure('cancelled', e.message);
        throw e;
      });
      const options: RenderOptions = {
        // Stored templates and overrides are plain JSON: the engine validates them like any input.
        design: design.template as DesignInput,
        overrides: task.overrides as Overrides,
        format,
        assets: taskAssetResolver(this.ctx, task, design),
        ...(fontFiles.length > 0 ? { fontFiles } : {}),
        ...(o.fps === undefined ? {} : { fps: o.fps }),
        ...(o.size === undefined ? {} : { size: o.size }),
        ...(o.max_duration === undefined ? {} : { maxDuration: o.max_duration }),
        ...(o.poster_time === undefined ? {} : { poster: { time: o.poster_time } }),
        ...(o.watermark === true && task.demo ? { watermark: DEMO_WATERMARK } : {}),
        ...(o.quality === undefined ? {} : { [format]: { quality: o.quality } }),
        ...(o.missing_fonts === undefined ? {} : { missingFonts: o.missing_fonts }),
      };
      // An mp4's frames done and ETA go to the store, where the task's status and events read them.
      const progress =
        format === 'mp4'
          ? new ProgressSink({
              write: (p) => this.ctx.meta.setTaskProgress(task.id, this.ctx.workerId, p),
              now: () => this.ctx.clock(),
              startedAt: started,
              onError: (e) => log.warn({ err: e }, 'could not record the progress of the render; it goes on'),
            })
          : undefined;
      const { job, calls } = splitOptions(progress ? { ...options, onProgress: progress.report } : options);
      let out;
      try {
        out = await this.pool.run(job, {
          ...calls,
          signal: this.renderController.signal,
          abortReason: 'the render was stopped because the worker is shutting down',
          timeoutMs: timeoutFor(o, this.ctx.config.renderTimeoutMs),
        });
      } finally {
        await progress?.flush();
      }
      const resultKey = resultKeyOf(task);
      await this.ctx.blobs.put(resultKey, out.bytes, RESULT_TYPES[task.format as TaskFormat]);
      let posterKey: string | null = null;
      if (out.poster) {
        posterKey = posterKeyOf(task);
        await this.ctx.blobs.put(posterKey, out.poster, 'image/jpeg');
      }
      const seconds = (this.ctx.clock() - started) / 1000;
      this.ctx.metrics.observeRender(task.format, seconds);
      const billedDuration = out.frames ? out.frames / (o.fps ?? DEFAULT_FPS) : null;
      const charge = chargeFor(task, billedDuration);
      const warnings = renderWarnings(out.report);
      outcome = { state: 'done', resultKey, posterKey, billedDuration, warnings, ...(charge === undefined ? {} : { charge }) };
    } catch (e) {
      if (e instanceof RenderFailure && e.kind === 'cancelled' && this.stopping) {
        await this.ctx.meta.releaseTask(task.id, this.ctx.workerId, this.ctx.clock());
        await this.ctx.queue.push(task.id).catch((e: unknown) => log.warn({ err: e }, 'push of a released task failed; it stays parked'));
        log.info('render interrupted by shutdown; task requeued');
        return;
      }
      const failure = describeFailure(e);
      outcome = { state: 'error', error: failure.description, errorCode: failure.code };
      log.warn({ code: failure.code, reason: failure.description }, 'render failed');
    }
    const finished = await this.ctx.meta.finishTask(task.id, this.ctx.workerId, outcome, this.ctx.clock());
    if (!finished) {
      log.warn('the task was taken over after this worker lost its lease; result discarded');
      return;
    }
    log.info({ state: finished.state, ms: this.ctx.clock() - started }, 'render finished');
    await this.completed(finished);
  }

  private async completed(task: TaskRecord): Promise<void> {
    this.ctx.metrics.inc('imprint_tasks_finished_total', { state: task.state });
    this.ctx.queue.released();
    if (!this.opts.onComplete) return;
    try {
      await this.opts.onComplete(task);
    } catch (e) {
      this.ctx.metrics.inc('imprint_completion_hook_failures_total');
      this.log.warn({ task_id: task.id, err: e }, 'completion hook failed; the task is unaffected');
    }
  }

  /** Number of renders in progress. */
  get busy(): number {
    return this.running.size;
  }

  /**
   * Stops taking tasks, lets running renders finish for `graceMs`, then stops them and gives their
   * tasks back to the queue (without counting the attempt).
   */
  async stop(graceMs = this.ctx.config.shutdownGraceMs): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.takeController.abort();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((r) => (timer = setTimeout(r, graceMs)));
    await Promise.race([Promise.all(this.running), graceOver]);
    clearTimeout(timer);
    this.renderController.abort();
    await Promise.all(this.loops);
    // Leases are renewed until the last render has ended, so nobody takes over a task still running.
    clearInterval(this.leaseTimer);
    await this.leaseRun;
    await this.pool.close();
    this.log.info('worker stopped');
  }
}

/**
 * The render timeout covers a 15 s video at 30 fps (450 frames); longer or faster videos get
 * proportionally more, so a 60 s hd/60 video accepted by interface B is not doomed to time out.
 */
export function timeoutFor(options: Pick<TaskOptions, 'frames'>, base: number): number {
  return Math.max(base, Math.ceil((base * (options.frames ?? 0)) / 450));
}

const KIND_CODES: Partial<Record<FailureKind, ErrorCode>> = { timeout: 'render_timeout', memory: 'render_out_of_memory', cancelled: 'render_cancelled' };

/** The task's `error`: a stable code and a description that names the JSON path of input errors. */
function describeFailure(e: unknown): { code: ErrorCode; description: string } {
  // Errors before the render (a font install): their own code, the path first as for render errors.
  if (isImprintError(e)) return { code: e.code, description: e.path !== '$' ? `${e.path}: ${e.message}` : e.message };
  if (!(e instanceof RenderFailure)) return { code: 'render_failed', description: `the render failed: ${(e as Error)?.message ?? String(e)}` };
  const code = KIND_CODES[e.kind] ?? (e.code === 'internal' ? 'render_failed' : e.code);
  // Written like interface A's synchronous errors: "$.path: what to do".
  return { code, description: e.kind === 'render' && e.path !== '$' ? `${e.path}: ${e.message}` : e.message };
}
