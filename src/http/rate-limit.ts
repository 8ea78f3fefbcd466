// Request-rate counters for interface A (requests per minute, status-poll spacing, abuse blocks): an
// in-process backend for the embedded setup and a Redis one that several API processes share exactly.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

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
function checkHit(limit: number, windowMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be an integer >= 1, got ${limit}`);
  checkWindow(windowMs);
}

function checkWindow(windowMs: number): void {
  if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError(`rate window must be a positive number of ms, got ${windowMs}`);
}

function checkBlock(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`block duration must be a finite number of ms >= 0, got ${ms}`);
}

// ---------------------------------------------------------------------------------------------------
// Memory

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

// ---------------------------------------------------------------------------------------------------
// Redis

// Every operation is one script, so the read-decide-write of concurrent processes cannot interleave.
// Times come from the caller's clock (not Redis TIME): the same numbers as the memory backend, and tests
// with a fake clock work. Numbers are passed and returned as strings: Lua numbers returned to Redis are
// truncated to integers, and the scores may carry fractions.

// KEYS[1] sorted set of allowed hits (score = time, member unique)
// ARGV now, cutoff (= now - window), limit, member, window
const HIT_LUA = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, ARGV[1], ARGV[4])
  count = count + 1
  allowed = 1
  local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  local ttl = math.ceil(tonumber(newest[2]) - now + tonumber(ARGV[5]))
  if ttl < 1 then ttl = 1 end
  redis.call('PEXPIRE', key, ttl)
end
local idx = 0
if allowed == 0 then idx = count - limit end
local at = redis.call('ZRANGE', key, idx, idx, 'WITHSCORES')
return {allowed, count, at[2]}
`;

// KEYS[1] sorted set of strikes; ARGV now, cutoff, member, window
const STRIKE_LUA = `
local key = KEYS[1]
redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
redis.call('ZADD', key, ARGV[1], ARGV[3])
local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
local ttl = math.ceil(tonumber(newest[2]) - tonumber(ARGV[1]) + tonumber(ARGV[4]))
if ttl < 1 then ttl = 1 end
redis.call('PEXPIRE', key, ttl)
return redis.call('ZCARD', key)
`;

// KEYS[1] block end time; ARGV until, ms (whole, > 0). The longer of two blocks wins.
const BLOCK_LUA = `
local cur = redis.call('GET', KEYS[1])
if (not cur) or tonumber(ARGV[1]) > tonumber(cur) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 1
`;

interface RateCommands {
  imprintRateHit(key: string, now: string, cutoff: string, limit: string, member: string, windowMs: string): Promise<unknown>;
  imprintRateStrike(key: string, now: string, cutoff: string, member: string, windowMs: string): Promise<unknown>;
  imprintRateBlock(key: string, until: string, ms: string): Promise<unknown>;
}

function badReply(what: string, reply: unknown): Error {
  return new Error(`unexpected Redis reply to the rate-limit ${what} script: ${JSON.stringify(reply)}`);
}

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis & RateCommands;
  private readonly clock: () => number;
  private readonly prefix: string;
  // Members must be unique, or two hits at the same ms from two processes would count once.
  private readonly tag = randomBytes(6).toString('hex');
  private seq = 0;

  constructor(url: string, opts: RedisRateLimiterOptions = {}) {
    this.clock = opts.clock ?? Date.now;
    this.prefix = opts.prefix ?? 'imprint:rl:';
    const redis = new Redis(url, { commandTimeout: opts.timeoutMs ?? 2000, maxRetriesPerRequest: 1 });
    // Without a listener an unreachable Redis would print an "Unhandled error event" per retry; the
    // operations themselves reject, which is what a caller acts on.
    redis.on('error', (e: Error) => opts.onError?.(e));
    // defineCommand sends EVALSHA and falls back to EVAL after a SCRIPT FLUSH or a failover.
    redis.defineCommand('imprintRateHit', { numberOfKeys: 1, lua: HIT_LUA });
    redis.defineCommand('imprintRateStrike', { numberOfKeys: 1, lua: STRIKE_LUA });
    redis.defineCommand('imprintRateBlock', { numberOfKeys: 1, lua: BLOCK_LUA });
    this.redis = redis as Redis & RateCommands;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    checkHit(limit, windowMs);
    const now = this.clock();
    const reply = await this.redis.imprintRateHit(
      `${this.prefix}hit:${key}`,
      String(now),
      String(now - windowMs),
      String(limit),
      this.member(now),
      String(windowMs),
    );
    if (!Array.isArray(reply) || reply.length !== 3) throw badReply('hit', reply);
    const allowed = Number(reply[0]) === 1;
    const count = Number(reply[1]);
    const at = Number(reply[2]);
    if (!Number.isFinite(count) || !Number.isFinite(at)) throw badReply('hit', reply);
    return { allowed, limit, remaining: allowed ? limit - count : 0, resetMs: at + windowMs - now };
  }

  async strike(key: string, windowMs: number): Promise<number> {
    checkWindow(windowMs);
    const now = this.clock();
    const reply = await this.redis.imprintRateStrike(`${this.prefix}strike:${key}`, String(now), String(now - windowMs), this.member(now), String(windowMs));
    if (typeof reply !== 'number') throw badReply('strike', reply);
    return reply;
  }

  async block(key: string, ms: number): Promise<void> {
    checkBlock(ms);
    if (ms === 0) return;
    const now = this.clock();
    await this.redis.imprintRateBlock(`${this.prefix}block:${key}`, String(now + ms), String(Math.ceil(ms)));
  }

  async blockedFor(key: string): Promise<number> {
    // A single GET is atomic by itself. The stored end time is compared with our clock, so the answer
    // does not depend on Redis's own expiry, which only collects the key afterwards.
    const v = await this.redis.get(`${this.prefix}block:${key}`);
    if (v === null) return 0;
    const left = Number(v) - this.clock();
    return Number.isFinite(left) && left > 0 ? left : 0;
  }

  async close(): Promise<void> {
    // QUIT would wait in the offline queue of a connection that is down; there is nothing to flush then.
    if (this.redis.status === 'ready') {
      try {
        await this.redis.quit();
        return;
      } catch {
        // fall through to a hard disconnect
      }
    }
    this.redis.disconnect();
  }

  private member(now: number): string {
    return `${now}:${this.tag}:${++this.seq}`;
  }
}

/** Redis when a URL is given (counters shared by every API process), else in-process memory. */
export function openRateLimiter(redisUrl: string | undefined, opts: RedisRateLimiterOptions = {}): RateLimiter {
  return redisUrl ? new RedisRateLimiter(redisUrl, opts) : new MemoryRateLimiter(opts);
}
