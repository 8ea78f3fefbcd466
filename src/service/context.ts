// What every part of the service core works with: the three stores, the clock, the configuration,
// the logger and the counters. Passed explicitly, so tests can swap the clock for a fake one.
import type { Logger } from 'pino';
import type { BlobStore } from '../store/blobs/blob-store.js';
import type { MetadataStore } from '../store/metadata/metadata-store.js';
import type { TaskQueue } from '../store/queue/task-queue.js';
import type { ServiceConfig } from './config.js';
import type { Metrics } from './metrics.js';

export interface ServiceContext {
  meta: MetadataStore;
  blobs: BlobStore;
  queue: TaskQueue;
  /** Milliseconds since the epoch; a fake clock in tests. */
  clock: () => number;
  config: ServiceConfig;
  log: Logger;
  metrics: Metrics;
  /** Id this process claims tasks under. */
  workerId: string;
}
