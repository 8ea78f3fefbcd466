// A rendering mp4's progress, written to the metadata store for the task's status and event stream
// (which may be served by another process): throttled, one write at a time, never failing the render.
import type { VideoProgress } from '../encode/video.js';
import type { TaskProgress } from '../store/metadata/records.js';

/** At most one write per this many milliseconds (the event stream reads the store about 3 times a second). */
export const PROGRESS_INTERVAL_MS = 250;

export interface ProgressSinkOptions {
  /** Writes one value; a failure is logged by the caller's `onError` and the next value is tried later. */
  write: (p: TaskProgress) => Promise<void>;
  /** Milliseconds since some origin (the service clock). */
  now: () => number;
  /** When the render started (setup included): the pace, and so the ETA, counts from here. */
  startedAt: number;
  onError: (e: unknown) => void;
  intervalMs?: number;
}

/**
 * The `onProgress` of a render: keeps the latest value and writes it when the last write is at least
 * `intervalMs` old and has ended, so a slow store sees fewer writes, never a queue of stale ones.
 * `flush()` waits for the write in flight (the render's end is recorded after it).
 */
export class ProgressSink {
  private latest: TaskProgress | null = null;
  private writtenFrames = -1;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly intervalMs: number;

  constructor(private readonly opts: ProgressSinkOptions) {
    this.intervalMs = opts.intervalMs ?? PROGRESS_INTERVAL_MS;
  }

  /** The engine's report: frames encoded of the total, and the ETA at the pace so far. */
  readonly report = (p: VideoProgress): void => {
    if (this.closed || !(p.totalFrames > 0)) return;
    const elapsed = Math.max(this.opts.now() - this.opts.startedAt, 1) / 1000;
    const done = Math.min(p.framesEncoded, p.totalFrames);
    const eta = done > 0 ? Math.round((((p.totalFrames - done) * elapsed) / done) * 10) / 10 : null;
    this.latest = { framesDone: done, framesTotal: p.totalFrames, etaSeconds: eta };
    this.schedule();
  };

  private schedule(): void {
    if (this.closed || this.inFlight || this.timer || !this.latest || this.latest.framesDone === this.writtenFrames) return;
    const wait = this.lastWriteAt + this.intervalMs - this.opts.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      this.timer.unref();
      return;
    }
    const value = this.latest;
    this.lastWriteAt = this.opts.now();
    this.writtenFrames = value.framesDone;
    this.inFlight = this.opts
      .write(value)
      .catch(this.opts.onError)
      .finally(() => {
        this.inFlight = null;
        this.schedule();
      });
  }

  /** Stops writing and waits for the write in flight, if any. */
  async flush(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }
}
