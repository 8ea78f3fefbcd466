// The scale-out queue: BullMQ carries task ids through Redis, in FIFO order, to worker processes on
// any machine, while the metadata store stays the record of state, leases and account concurrency.
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { TaskRecord } from '../metadata/records.js';
import type { ClaimResult, TaskClaims } from '../metadata/tasks.js';
import type { QueueOptions, TaskQueue } from './task-queue.js';

export interface BullmqQueueOptions extends QueueOptions {
  /** The BullMQ queue name; every process sharing it shares the work. */
  name?: string;
  /**
   * Redis trouble that no caller is waiting on: connection errors (retried by the client), and
   * background redelivery that failed (its tasks stay parked and are tried again).
   */
  onError?: (err: Error) => void;
  /** How long `push` and `close` wait for an unreachable Redis before they reject or force. */
  redisTimeoutMs?: number;
}

interface TaskJobData {
  taskId: number;
}

type TaskJob = Job<TaskJobData, void, 'task'>;

interface Fetched {
  job: TaskJob;
  token: string;
  /** Called once the job is acknowledged or given back; close() waits for it. */
  handled: () => void;
}

interface Waiter {
  deliver(f: Fetched): void;
  fail(err: unknown): void;
  cancel(): void;
}

// A blocking fetch cannot be interrupted without dropping the connection, so it is kept short:
// close() waits at most this long for the fetch in flight, and an idle worker polls Redis twice a second.
const BLOCK_SECONDS = 0.5;
// Renders end in bursts; one unpark round per burst is enough.
const RELEASE_DEBOUNCE_MS = 20;
// Ids are pointers into the metadata store: nothing is worth keeping once a job is acknowledged.
const JOB_OPTS = { removeOnComplete: true, removeOnFail: true } as const;
// Un-parked ids waited their turn already: they go to the head of the line, not behind newer tasks.
const REDELIVERY_OPTS = { ...JOB_OPTS, lifo: true } as const;
// A job is in `active` only for the span of one claim query; a lock that lapses means its process
// died, and the stalled check of any other worker puts the id back. Never moving it to `failed`
// (where removeOnFail would drop it) keeps the task deliverable however often that happens.
const LOCK_MS_MIN = 1_000;
const MAX_STALLED = 1_000_000;

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

export class BullmqQueue implements TaskQueue {
  readonly kind = 'bullmq';
  readonly name: string;
  private readonly queue: Queue<TaskJobData, void, 'task'>;
  private worker: Worker<TaskJobData, void, 'task'> | undefined;
  private readonly connection: { url: string };
  private readonly pollMs: number;
  private readonly redisTimeoutMs: number;
  private readonly tokenBase = randomUUID();
  private fetchSeq = 0;
  /** Takes waiting for a job, oldest first: one fetch at a time feeds them. */
  private readonly waiters: Waiter[] = [];
  private pumping: Promise<void> | undefined;
  /** Jobs fetched and not yet acknowledged or given back. */
  private readonly handling = new Set<Promise<unknown>>();
  private takers = 0;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private releaseTimer: ReturnType<typeof setTimeout> | undefined;
  private pendingReleases = 0;
  private unparking: Promise<void> | undefined;
  private unparkAgain = false;
  private lastError: Error | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(
    url: string,
    private readonly meta: TaskClaims,
    private readonly opts: BullmqQueueOptions,
  ) {
    this.name = opts.name ?? 'imprint-tasks';
    this.pollMs = opts.pollMs ?? 1000;
    this.redisTimeoutMs = opts.redisTimeoutMs ?? 5000;
    this.connection = { url };
    this.queue = new Queue<TaskJobData, void, 'task'>(this.name, { connection: { ...this.connection } });
    this.queue.on('error', (e) => this.report(e));
  }

  async push(taskId: number): Promise<void> {
    if (this.closed) throw new Error(`the task queue "${this.name}" is closed: task ${taskId} was not pushed`);
    try {
      await this.redis(this.queue.add('task', { taskId }, JOB_OPTS), `push task ${taskId}`);
    } catch (e) {
      // Parked, the task is still owed a delivery: the next unpark round sends it.
      await this.meta.park(taskId).catch(() => undefined);
      throw e;
    }
  }

  released(): void {
    if (this.closed) return;
    this.pendingReleases++;
    this.releaseTimer ??= setTimeout(() => {
      this.releaseTimer = undefined;
      this.redeliver();
    }, RELEASE_DEBOUNCE_MS);
  }

  private claims: Promise<unknown> = Promise.resolve();

  async take(signal: AbortSignal): Promise<TaskRecord | undefined> {
    if (this.closed) return undefined;
    this.takers++;
    this.startPolling();
    try {
      while (!signal.aborted && !this.closed) {
        const fetched = await this.nextJob(signal);
        if (!fetched) continue;
        let task: TaskRecord | undefined;
        try {
          task = await this.handle(fetched, signal);
        } finally {
          fetched.handled();
        }
        if (task) return task;
      }
      return undefined;
    } finally {
      if (--this.takers === 0) this.stopPolling();
    }
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  // ── delivery ────────────────────────────────────────────────────────────────────────────────
  private nextJob(signal: AbortSignal): Promise<Fetched | undefined> {
    return new Promise((resolve, reject) => {
      if (signal.aborted || this.closed) return resolve(undefined);
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(undefined);
      };
      const waiter: Waiter = {
        deliver: (f) => {
          signal.removeEventListener('abort', onAbort);
          resolve(f);
        },
        fail: (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(asError(e));
        },
        cancel: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(undefined);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  /** The one fetch loop of this process; a job nobody waits for any more goes back to the head. */
  private pump(): void {
    if (this.pumping || this.closed) return;
    this.pumping = (async () => {
      while (this.waiters.length > 0 && !this.closed) {
        const token = `${this.tokenBase}:${++this.fetchSeq}`;
        let job: TaskJob | undefined;
        try {
          job = await this.ensureWorker().getNextJob(token, { block: true });
        } catch (e) {
          for (const w of this.waiters.splice(0)) w.fail(e);
          return;
        }
        if (!job) continue;
        const waiter = this.waiters.shift();
        if (waiter) waiter.deliver({ job, token, handled: this.track() });
        else await this.giveBack({ job, token }).catch((e) => this.report(e));
      }
    })().finally(() => {
      this.pumping = undefined;
      if (this.waiters.length > 0 && !this.closed) this.pump();
    });
  }

  private ensureWorker(): Worker<TaskJobData, void, 'task'> {
    if (!this.worker) {
      this.worker = new Worker<TaskJobData, void, 'task'>(this.name, null, {
        // Blocking commands must wait out a reconnect rather than fail part-way.
        connection: { ...this.connection, maxRetriesPerRequest: null },
        autorun: false,
        drainDelay: BLOCK_SECONDS,
        // An id taken by a process that died before claiming it comes back after one lease, like a
        // stalled render does (the lock only spans one claim query, so it never lapses while alive).
        lockDuration: Math.max(LOCK_MS_MIN, this.opts.leaseMs),
        stalledInterval: Math.max(LOCK_MS_MIN, this.opts.leaseMs),
        maxStalledCount: MAX_STALLED,
      });
      this.worker.on('error', (e) => this.report(e));
      // A manual worker only recovers ids left active by a dead process when asked to.
      this.worker.startStalledCheckTimer().catch((e: unknown) => this.report(e));
    }
    return this.worker;
  }

  /** Claims the delivered task in the metadata store, then acknowledges the job whatever the answer. */
  private async handle(f: Fetched, signal: AbortSignal): Promise<TaskRecord | undefined> {
    if (signal.aborted || this.closed) {
      await this.giveBack(f);
      return undefined;
    }
    const taskId = Number(f.job.data?.taskId);
    if (!Number.isSafeInteger(taskId)) {
      this.report(new Error(`job ${f.job.id ?? '?'} of queue "${this.name}" carries no task id: dropped`));
      await this.ack(f);
      return undefined;
    }
    let result: ClaimResult;
    try {
      // Claims run one after another in delivery order: slots racing each other would let task k+1
      // of an account be tried before task k, park it, and make every later task of the account park.
      const claim = this.claims.then(async () => {
        const now = this.opts.clock();
        const r = await this.meta.claimTask(taskId, this.opts.workerId, now, now + this.opts.leaseMs);
        // Parked before the ack: if this process dies in between, the id is still owed a delivery.
        if ('waiting' in r) await this.meta.park(taskId);
        return r;
      });
      this.claims = claim.catch(() => undefined);
      result = await claim;
    } catch (e) {
      await this.giveBack(f).catch((err) => this.report(err));
      throw e;
    }
    // A failed ack leaves the job active until the stalled check requeues it; delivered again, it
    // finds the task claimed (gone) or parked (waiting), so the failure is only reported.
    await this.ack(f).catch((e) => this.report(e));
    return 'claimed' in result ? result.claimed : undefined;
  }

  private async ack({ job, token }: Pick<Fetched, 'job' | 'token'>): Promise<void> {
    await job.moveToCompleted(undefined, token, false);
  }

  /** Back to the head of the wait list, so the id keeps its place in line. */
  private async giveBack({ job, token }: Pick<Fetched, 'job' | 'token'>): Promise<void> {
    await job.moveToWait(token);
  }

  /** Counts a delivered job as in hand from the moment it leaves the fetch loop until `handled()`. */
  private track(): () => void {
    let handled!: () => void;
    const p = new Promise<void>((done) => (handled = done));
    this.handling.add(p);
    void p.then(() => this.handling.delete(p));
    return handled;
  }

  // ── redelivery of parked tasks ──────────────────────────────────────────────────────────────
  private startPolling(): void {
    if (this.pollTimer || this.closed) return;
    // A task parked just after the release that freed its slot would otherwise wait for the next release.
    this.pollTimer = setInterval(() => this.redeliver(), this.pollMs);
    this.pollTimer.unref();
  }

  private stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private redeliver(): void {
    if (this.closed) return;
    if (this.unparking) {
      this.unparkAgain = true;
      return;
    }
    const slots = Math.max(1, this.pendingReleases);
    this.pendingReleases = 0;
    this.unparking = this.unparkAndPush(slots)
      .catch((e) => this.report(e))
      .finally(() => {
        this.unparking = undefined;
        if (this.unparkAgain) {
          this.unparkAgain = false;
          this.redeliver();
        }
      });
  }

  /**
   * Each unpark hands out at most one task per account; a burst of releases may have freed several
   * slots of one account, so it repeats until as many ids as releases are out (or none are left).
   */
  private async unparkAndPush(slots: number): Promise<void> {
    let sent = 0;
    while (sent < slots) {
      const ids = await this.meta.unpark();
      if (ids.length === 0) return;
      try {
        await this.redis(
          this.queue.addBulk(ids.map((taskId) => ({ name: 'task' as const, data: { taskId }, opts: REDELIVERY_OPTS }))),
          `redeliver tasks ${ids.join(', ')}`,
        );
      } catch (e) {
        // Unparked but not in Redis, these tasks would never be delivered: park them again.
        await Promise.all(ids.map((id) => this.meta.park(id).catch(() => undefined)));
        throw e;
      }
      sent += ids.length;
    }
  }

  // ── Redis plumbing ──────────────────────────────────────────────────────────────────────────
  /** Commands wait for a reconnect forever; a caller gets an error instead after `redisTimeoutMs`. */
  private redis<T>(p: Promise<T>, what: string): Promise<T> {
    p.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const last = this.lastError ? ` (last error: ${this.lastError.message})` : '';
        reject(new Error(`Redis did not answer within ${this.redisTimeoutMs} ms to ${what} on queue "${this.name}"${last}`, { cause: this.lastError }));
      }, this.redisTimeoutMs);
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  }

  private report(e: unknown): void {
    const err = asError(e);
    this.lastError = err;
    this.opts.onError?.(err);
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    this.stopPolling();
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    for (const w of this.waiters.splice(0)) w.cancel();
    // The fetch in flight returns within BLOCK_SECONDS; waiting for it, the jobs being acknowledged
    // and the ids being redelivered means no job is left active and no unparked id is lost.
    const settled = await within(Promise.allSettled([this.pumping, this.unparking, ...this.handling]), BLOCK_SECONDS * 1000 + this.redisTimeoutMs);
    const errors: Error[] = [];
    const worker = this.worker;
    if (worker) await this.closeOrDisconnect(worker, () => worker.close(!settled), errors);
    await this.closeOrDisconnect(this.queue, () => this.queue.close(), errors);
    if (errors[0]) throw new Error(`closing the task queue "${this.name}": ${errors[0].message}`, { cause: errors[0] });
  }

  /** A graceful close can wait on a Redis that is gone; past the timeout the sockets are dropped. */
  private async closeOrDisconnect(target: { disconnect(): Promise<void> }, close: () => Promise<void>, errors: Error[]): Promise<void> {
    const done = await within(close(), this.redisTimeoutMs).catch((e: unknown) => {
      errors.push(asError(e));
      return true;
    });
    if (!done) await target.disconnect().catch((e: unknown) => errors.push(asError(e)));
  }
}

/** True once `p` has settled, false if `ms` passed first; a rejection of `p` is passed on. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  p.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((done) => {
    timer = setTimeout(() => done(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
