// The embedded queue: the tasks table is the FIFO, so queued tasks survive a restart by construction.
// Workers in this process are woken on push and release; a slow poll picks up tasks that another
// process (`imprint admin`, a test) committed, and `onPush`/`wake` let a process that knows of
// another (`imprint serve` and its worker process) wake it at once.
import type { TaskRecord } from '../metadata/records.js';
import type { TaskClaims } from '../metadata/tasks.js';
import type { QueueOptions, TaskQueue } from './task-queue.js';

export class LocalQueue implements TaskQueue {
  readonly kind = 'local';
  private waiters = new Set<() => void>();
  private pushListener: (() => void) | undefined;
  private closed = false;
  private readonly pollMs: number;

  // Only the one claim: the tasks table is the queue, so nothing needs parking.
  constructor(
    private readonly meta: Pick<TaskClaims, 'claimNext'>,
    private readonly opts: QueueOptions,
  ) {
    this.pollMs = opts.pollMs ?? 500;
  }

  async push(): Promise<void> {
    this.wakeOne();
    this.pushListener?.();
  }

  /** Called after every push: tells a worker in another process that work is waiting. */
  onPush(listener: () => void): void {
    this.pushListener = listener;
  }

  /** Work was queued elsewhere (told by another process): an idle slot claims it now, not at its next poll. */
  wake(): void {
    this.wakeOne();
  }

  released(): void {
    this.wakeOne();
  }

  /** One task can be claimed by one slot: waking every idle slot only runs empty claims. */
  private wakeOne(): void {
    const first = this.waiters.values().next();
    if (!first.done) first.value();
  }

  private wakeAll(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  async take(signal: AbortSignal): Promise<TaskRecord | undefined> {
    while (!signal.aborted && !this.closed) {
      const now = this.opts.clock();
      const task = await this.meta.claimNext(this.opts.workerId, now, now + this.opts.leaseMs);
      if (task) return task;
      await new Promise<void>((done) => {
        const finish = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', finish);
          this.waiters.delete(finish);
          done();
        };
        const timer = setTimeout(finish, this.pollMs);
        signal.addEventListener('abort', finish, { once: true });
        this.waiters.add(finish);
      });
    }
    return undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeAll();
  }
}
