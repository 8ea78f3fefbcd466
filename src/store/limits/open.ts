// Opens the rate limiter the configuration names: Redis (the queue's URL) or process memory.
import { MemoryRateLimiter } from './memory.js';
import type { RateLimiter, RedisRateLimiterOptions } from './rate-limiter.js';
import { RedisRateLimiter } from './redis.js';

/** Redis when a URL is given (counters shared by every API process), else in-process memory. */
export function openRateLimiter(redisUrl: string | undefined, opts: RedisRateLimiterOptions = {}): RateLimiter {
  return redisUrl ? new RedisRateLimiter(redisUrl, opts) : new MemoryRateLimiter(opts);
}
