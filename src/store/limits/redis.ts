// The Redis rate limiter: the same counters shared exactly by several API processes, each operation
// one Lua script.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { checkBlock, checkHit, checkWindow, type RateDecision, type RateLimiter, type RedisRateLimiterOptions } from './rate-limiter.js';

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
