// The rate-limit store's contract: request-rate counters for interface A (requests per minute,
// status-poll spacing, abuse blocks), kept in process memory (memory.ts) or in Redis (redis.ts).

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * ms until the window frees a slot, i.e. until `remaining` next grows. For a refused request this is
   * exactly when a retry will be allowed (Retry-After); for an allowed one it is when the oldest request
   * still counted (possibly this one) leaves the window. Always > 0.
   */
  resetMs: number;
}

export interface RateLimiter {
  /**
   * Sliding window: allowed when fewer than `limit` requests were allowed for `key` in the last
   * `windowMs` (a request made at t counts while now < t + windowMs). A refused request is not
   * counted, so hammering never pushes the retry time further out. Use one window per key.
   */
  hit(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  /** counts one violation; returns how many in the last windowMs */
  strike(key: string, windowMs: number): Promise<number>;
  /** Blocks `key` for `ms`; a shorter block never cuts an existing longer one short. */
  block(key: string, ms: number): Promise<void>;
  /** ms left of a block, 0 if none */
  blockedFor(key: string): Promise<number>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  /** ms since the epoch (or any steady origin shared by all processes); Date.now by default. */
  clock?: () => number;
}

export interface RedisRateLimiterOptions extends RateLimiterOptions {
  /** Namespace of every key this limiter writes; 'imprint:rl:' by default. */
  prefix?: string;
  /**
   * How long one operation waits for Redis before it rejects (2000 ms by default). A limiter sits on
   * every request, so an unreachable Redis must surface quickly; the caller decides (e.g. fail open).
   */
  timeoutMs?: number;
  /** Connection errors nobody is waiting on (the client reconnects by itself); ignored by default. */
  onError?: (err: Error) => void;
}

// Validated in one place so both backends refuse the same nonsense rather than disagree about it.
export function checkHit(limit: number, windowMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be an integer >= 1, got ${limit}`);
  checkWindow(windowMs);
}

export function checkWindow(windowMs: number): void {
  if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError(`rate window must be a positive number of ms, got ${windowMs}`);
}

export function checkBlock(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`block duration must be a finite number of ms >= 0, got ${ms}`);
}
