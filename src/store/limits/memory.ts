// The in-process rate limiter of the embedded setup: exact sliding windows in one map, swept a few
// entries per operation so expired counters go without a timer or a full scan.
import { checkBlock, checkHit, checkWindow, type RateDecision, type RateLimiter, type RateLimiterOptions } from './rate-limiter.js';

interface Entry {
  /** Counted timestamps (hits and strikes); empty for a block. */
  times: Times;
  /** When nothing in the entry matters any more: the newest time + its window, or a block's end. */
  expiresAt: number;
}

// Entries looked at per operation by the incremental sweep. Each operation creates at most one entry
// and examines several, so the sweep laps the map faster than it can grow: an expired entry is gone
// within about size / (SWEEP_STEP - 1) operations, with no timer and no full scan on a request.
const SWEEP_STEP = 16;

/**
 * Counted timestamps, oldest first. Dropping the oldest only moves a start index (the array is
 * compacted now and then): with high limits a window holds hundreds of thousands of times, and
 * shifting them on every request would cost more than the request.
 */
class Times {
  private readonly t: number[] = [];
  private start = 0;

  get length(): number {
    return this.t.length - this.start;
  }

  /** The i-th oldest counted time. */
  at(i: number): number {
    return this.t[this.start + i] as number;
  }

  /** Drops the times at or before `cutoff` (they left the window). */
  dropUpTo(cutoff: number): void {
    while (this.start < this.t.length && (this.t[this.start] as number) <= cutoff) this.start++;
    if (this.start > 1024 && this.start * 2 > this.t.length) {
      this.t.splice(0, this.start);
      this.start = 0;
    }
  }

  /** Inserts keeping the order; a clock that stepped back (NTP) still gives a sorted list. */
  insert(time: number): void {
    let i = this.t.length;
    while (i > this.start && (this.t[i - 1] as number) > time) i--;
    if (i === this.t.length) this.t.push(time);
    else this.t.splice(i, 0, time);
  }
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly clock: () => number;
  // One map for hits, strikes and blocks (namespaced keys) so one sweep cursor covers them all.
  private readonly entries = new Map<string, Entry>();
  private cursor: Iterator<[string, Entry]> | undefined;

  constructor(opts: RateLimiterOptions = {}) {
    this.clock = opts.clock ?? Date.now;
  }

  /** Entries held (counters and blocks, expired ones not yet swept): for tests and metrics. */
  get size(): number {
    return this.entries.size;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    checkHit(limit, windowMs);
    const now = this.clock();
    this.sweep(now);
    const id = `h:${key}`;
    let e = this.entries.get(id);
    if (e) e.times.dropUpTo(now - windowMs);
    const count = e?.times.length ?? 0;
    if (count < limit) {
      if (!e) this.entries.set(id, (e = { times: new Times(), expiresAt: 0 }));
      e.times.insert(now);
      e.expiresAt = Math.max(e.expiresAt, e.times.at(e.times.length - 1) + windowMs);
      return { allowed: true, limit, remaining: limit - e.times.length, resetMs: e.times.at(0) + windowMs - now };
    }
    // Refused: a retry succeeds once enough counted hits left that fewer than `limit` remain. Usually
    // that is the oldest; after a plan downgrade (count > limit) it is the (count - limit + 1)-th.
    const times = (e as Entry).times;
    return { allowed: false, limit, remaining: 0, resetMs: times.at(count - limit) + windowMs - now };
  }

  async strike(key: string, windowMs: number): Promise<number> {
    checkWindow(windowMs);
    const now = this.clock();
    this.sweep(now);
    const id = `s:${key}`;
    let e = this.entries.get(id);
    if (!e) this.entries.set(id, (e = { times: new Times(), expiresAt: 0 }));
    e.times.dropUpTo(now - windowMs);
    e.times.insert(now);
    e.expiresAt = Math.max(e.expiresAt, e.times.at(e.times.length - 1) + windowMs);
    return e.times.length;
  }

  async block(key: string, ms: number): Promise<void> {
    checkBlock(ms);
    const now = this.clock();
    this.sweep(now);
    if (ms === 0) return;
    const id = `b:${key}`;
    const e = this.entries.get(id);
    if (e && e.expiresAt >= now + ms) return;
    this.entries.set(id, { times: new Times(), expiresAt: now + ms });
  }

  async blockedFor(key: string): Promise<number> {
    const now = this.clock();
    this.sweep(now);
    const id = `b:${key}`;
    const e = this.entries.get(id);
    if (!e) return 0;
    if (e.expiresAt <= now) {
      this.entries.delete(id);
      return 0;
    }
    return e.expiresAt - now;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.cursor = undefined;
  }

  private sweep(now: number): void {
    if (this.entries.size === 0) return;
    for (let n = 0, restarted = false; n < SWEEP_STEP; n++) {
      this.cursor ??= this.entries.entries();
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = undefined;
        // One restart per call: a small map is not walked over and over within one operation.
        if (restarted) return;
        restarted = true;
        continue;
      }
      const [id, e] = next.value;
      // Deleting the current entry is safe: Map iterators are live and skip removed entries.
      if (e.expiresAt <= now) this.entries.delete(id);
    }
  }
}
