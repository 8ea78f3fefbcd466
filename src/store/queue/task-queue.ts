// The queue interface: hands claimed tasks to workers in FIFO order. The metadata store stays the
// record of every task's state, lease and account concurrency; a queue backend decides how task
// ids travel to workers: within one process (local) or through Redis to many (BullMQ).
import type { TaskRecord } from '../metadata/records.js';

export interface TaskQueue {
  readonly kind: 'local' | 'bullmq';
  /** A task was committed in state `queued`: make it available to workers. */
  push(taskId: number): Promise<void>;
  /**
   * The next task this worker has claimed (state `pending`, leased to `workerId`), waiting as long
   * as needed; undefined once `signal` aborts or the queue is closed.
   */
  take(signal: AbortSignal): Promise<TaskRecord | undefined>;
  /** A task has ended or gone back to the queue, so its account may have a free slot again. */
  released(): void;
  close(): Promise<void>;
}

export interface QueueOptions {
  /** Id written on claimed tasks; leases are renewed per worker id. */
  workerId: string;
  clock: () => number;
  /** How long a claim holds without renewal before the task counts as stalled. */
  leaseMs: number;
  /** How often to look for work that arrived without a wake-up (another process, a lease run out). */
  pollMs?: number;
}
