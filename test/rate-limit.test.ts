// The rate-limiter contract, run against the memory and the Redis backend with a fake clock: exact
// sliding windows and Retry-After times, the status-poll rule, strikes, blocks; then Redis shared by two
// "processes" under concurrency, and the memory backend's pruning.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../src/store/limits/memory.js';
import { openRateLimiter } from '../src/store/limits/open.js';
import type { RateLimiter } from '../src/store/limits/rate-limiter.js';
import { RedisRateLimiter } from '../src/store/limits/redis.js';
import { REDIS_URL, redis } from './support/services.js';

interface FakeClock {
  now: number;
  clock: () => number;
}

function fakeClock(start = 1_700_000_000_000): FakeClock {
  const c: FakeClock = { now: start, clock: () => c.now };
  return c;
}

interface Backend {
  kind: string;
  available: boolean;
  reason: string;
  open(clock: () => number, prefix: string): RateLimiter;
}

const backends: Backend[] = [
  { kind: 'memory', available: true, reason: '', open: (clock) => new MemoryRateLimiter({ clock }) },
  {
    kind: 'redis',
    available: redis.available,
    reason: redis.reason,
    open: (clock, prefix) => new RedisRateLimiter(REDIS_URL, { clock, prefix }),
  },
];

async function dropPrefix(prefix: string): Promise<void> {
  const admin = new Redis(REDIS_URL);
  try {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
  } finally {
    await admin.quit();
  }
}

describe.each(backends.map((b) => [b.kind, b] as const))('%s rate limiter', (_kind, backend) => {
  const test = it.skipIf(!backend.available);
  if (!backend.available) it.skip(`skipped: ${backend.reason}`, () => undefined);

  let t: FakeClock;
  let prefix: string;
  let rl: RateLimiter;

  beforeEach(() => {
    if (!backend.available) return;
    t = fakeClock();
    prefix = `imprint-test-rl-${randomBytes(6).toString('hex')}:`;
    rl = backend.open(t.clock, prefix);
  });

  afterEach(async () => {
    if (!backend.available) return;
    await rl.close();
    if (backend.kind === 'redis') await dropPrefix(prefix);
  });

  test('allows exactly N in a window, then refuses with remaining 0 and the exact wait', async () => {
    const got = [];
    for (let i = 0; i < 5; i++) {
      got.push(await rl.hit('acct', 5, 60_000));
      t.now += 1000;
    }
    expect(got.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
    expect(got.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect(got.every((d) => d.limit === 5)).toBe(true);
    // Allowed: time until the oldest counted hit (made at start) leaves the window.
    expect(got.map((d) => d.resetMs)).toEqual([60_000, 59_000, 58_000, 57_000, 56_000]);

    // now = start + 5000: the oldest (start) leaves at start + 60000.
    const refused = await rl.hit('acct', 5, 60_000);
    expect(refused).toEqual({ allowed: false, limit: 5, remaining: 0, resetMs: 55_000 });
  });

  test('Retry-After is exact: refused 1 ms before, allowed at the moment', async () => {
    await rl.hit('k', 2, 10_000);
    t.now += 3000;
    await rl.hit('k', 2, 10_000);
    t.now += 1000;
    const refused = await rl.hit('k', 2, 10_000);
    expect(refused.allowed).toBe(false);
    expect(refused.resetMs).toBe(6000);
    t.now += refused.resetMs - 1;
    expect(await rl.hit('k', 2, 10_000)).toMatchObject({ allowed: false, resetMs: 1 });
    t.now += 1;
    const ok = await rl.hit('k', 2, 10_000);
    expect(ok).toMatchObject({ allowed: true, remaining: 0 });
    // The counted hits are now start+3000 and start+10000; the former leaves at start+13000.
    expect(ok.resetMs).toBe(3000);
  });

  test('the window slides: one slot frees as each old hit leaves', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await rl.hit('k', 3, 60_000)).allowed).toBe(true);
      t.now += 10_000;
    }
    // now = start + 30000; hits at start, +10000, +20000.
    expect((await rl.hit('k', 3, 60_000)).allowed).toBe(false);
    t.now += 30_000; // start + 60000: the first hit just left
    const d = await rl.hit('k', 3, 60_000);
    expect(d).toEqual({ allowed: true, limit: 3, remaining: 0, resetMs: 10_000 });
    expect((await rl.hit('k', 3, 60_000)).allowed).toBe(false); // only one slot freed
    t.now += 10_000; // start + 70000: the second left
    expect((await rl.hit('k', 3, 60_000)).allowed).toBe(true);
    expect((await rl.hit('k', 3, 60_000)).allowed).toBe(false);
    t.now += 200_000; // everything left
    expect(await rl.hit('k', 3, 60_000)).toEqual({ allowed: true, limit: 3, remaining: 2, resetMs: 60_000 });
  });

  test('refused hits consume nothing and do not push the wait out', async () => {
    await rl.hit('k', 1, 1000);
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      t.now += 100;
      const d = await rl.hit('k', 1, 1000);
      expect(d.allowed).toBe(false);
      waits.push(d.resetMs);
    }
    expect(waits).toEqual([900, 800, 700, 600, 500, 400, 300, 200, 100]);
    t.now += 100; // 1000 ms after the only allowed hit, despite nine refusals in between
    expect((await rl.hit('k', 1, 1000)).allowed).toBe(true);
  });

  test('keys are independent', async () => {
    expect((await rl.hit('a', 1, 60_000)).allowed).toBe(true);
    expect((await rl.hit('a', 1, 60_000)).allowed).toBe(false);
    expect((await rl.hit('b', 1, 60_000)).allowed).toBe(true);
    expect((await rl.hit('a:b', 1, 60_000)).allowed).toBe(true);
    // The same name in the other kinds of counter is a different counter.
    expect(await rl.strike('a', 60_000)).toBe(1);
    expect(await rl.blockedFor('a')).toBe(0);
    await rl.block('b', 1000);
    expect(await rl.blockedFor('a')).toBe(0);
    expect((await rl.hit('c', 1, 60_000)).allowed).toBe(true);
  });

  test('status polling rule: hit(key, 1, 5000)', async () => {
    const poll = () => rl.hit('task:42', 1, 5000);
    expect(await poll()).toEqual({ allowed: true, limit: 1, remaining: 0, resetMs: 5000 });
    t.now += 4999;
    expect(await poll()).toEqual({ allowed: false, limit: 1, remaining: 0, resetMs: 1 });
    t.now += 1;
    expect((await poll()).allowed).toBe(true);
    t.now += 2500;
    expect(await poll()).toMatchObject({ allowed: false, resetMs: 2500 });
    // Another status address is its own counter.
    expect((await rl.hit('task:43', 1, 5000)).allowed).toBe(true);
  });

  test('strikes count within the window and forget old ones', async () => {
    expect(await rl.strike('key1', 60_000)).toBe(1);
    t.now += 10_000;
    expect(await rl.strike('key1', 60_000)).toBe(2);
    t.now += 10_000;
    expect(await rl.strike('key1', 60_000)).toBe(3);
    // Two strikes in the same ms both count.
    expect(await rl.strike('key1', 60_000)).toBe(4);
    t.now += 40_000; // start + 60000: the first strike left
    expect(await rl.strike('key1', 60_000)).toBe(4);
    t.now += 200_000;
    expect(await rl.strike('key1', 60_000)).toBe(1);
    expect(await rl.strike('key2', 60_000)).toBe(1);
  });

  test('block and blockedFor, with expiry', async () => {
    expect(await rl.blockedFor('key1')).toBe(0);
    await rl.block('key1', 10_000);
    expect(await rl.blockedFor('key1')).toBe(10_000);
    expect(await rl.blockedFor('key2')).toBe(0);
    t.now += 4000;
    expect(await rl.blockedFor('key1')).toBe(6000);
    // A shorter block does not shorten the running one; a longer one extends it.
    await rl.block('key1', 1000);
    expect(await rl.blockedFor('key1')).toBe(6000);
    await rl.block('key1', 8000);
    expect(await rl.blockedFor('key1')).toBe(8000);
    t.now += 7999;
    expect(await rl.blockedFor('key1')).toBe(1);
    t.now += 1;
    expect(await rl.blockedFor('key1')).toBe(0);
    // Blocking again after expiry works.
    await rl.block('key1', 500);
    expect(await rl.blockedFor('key1')).toBe(500);
  });

  test('concurrent hits on one limiter: exactly the limit is allowed', async () => {
    const ds = await Promise.all(Array.from({ length: 50 }, () => rl.hit('burst', 20, 60_000)));
    expect(ds.filter((d) => d.allowed)).toHaveLength(20);
    // Every allowed hit saw a distinct count: the decisions did not interleave.
    expect(
      ds
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(ds.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.resetMs === 60_000)).toBe(true);
  });

  test('refuses nonsense limits and windows', async () => {
    await expect(rl.hit('k', 0, 1000)).rejects.toThrow(RangeError);
    await expect(rl.hit('k', 1.5, 1000)).rejects.toThrow(RangeError);
    await expect(rl.hit('k', 1, 0)).rejects.toThrow(RangeError);
    await expect(rl.strike('k', Number.NaN)).rejects.toThrow(RangeError);
    await expect(rl.block('k', -1)).rejects.toThrow(RangeError);
  });
});

describe('redis rate limiter shared by two processes', () => {
  const test = it.skipIf(!redis.available);
  if (!redis.available) it.skip(`skipped: ${redis.reason}`, () => undefined);

  let prefix: string;
  let opened: RateLimiter[];

  beforeEach(() => {
    prefix = `imprint-test-rl-${randomBytes(6).toString('hex')}:`;
    opened = [];
  });

  afterEach(async () => {
    if (!redis.available) return;
    await Promise.all(opened.map((r) => r.close()));
    await dropPrefix(prefix);
  });

  function open(clock: () => number): RateLimiter {
    const r = openRateLimiter(REDIS_URL, { clock, prefix });
    opened.push(r);
    return r;
  }

  test('50 concurrent hits with limit 20 over two instances: exactly 20 allowed', async () => {
    const t = fakeClock();
    const a = open(t.clock);
    const b = open(t.clock);
    expect(a).toBeInstanceOf(RedisRateLimiter);
    // Both connected before the burst, so their commands really race.
    await Promise.all([a.blockedFor('warm-up'), b.blockedFor('warm-up')]);
    // All at the same ms: members must be unique for 20 hits to count as 20.
    const ds = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).hit('acct', 20, 60_000)));
    const allowed = ds.filter((d) => d.allowed);
    expect(allowed).toHaveLength(20);
    expect(allowed.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // Separate counters would have allowed 20 each; which instance got the slots depends on arrival.
    // The shared state is what either instance sees next.
    expect((await a.hit('acct', 20, 60_000)).allowed).toBe(false);
    t.now += 60_000;
    expect(await b.hit('acct', 20, 60_000)).toMatchObject({ allowed: true, remaining: 19 });
  });

  test('strikes and blocks are shared too', async () => {
    const t = fakeClock();
    const a = open(t.clock);
    const b = open(t.clock);
    expect(await a.strike('key', 60_000)).toBe(1);
    expect(await b.strike('key', 60_000)).toBe(2);
    await a.block('key', 30_000);
    t.now += 10_000;
    expect(await b.blockedFor('key')).toBe(20_000);
  });

  test('keys carry an expiry, so Redis does not keep dead counters', async () => {
    const t = fakeClock();
    const a = open(t.clock);
    await a.hit('k', 5, 60_000);
    await a.strike('k', 30_000);
    await a.block('k', 10_000);
    const admin = new Redis(REDIS_URL);
    try {
      const ttl = async (k: string) => admin.pttl(`${prefix}${k}`);
      for (const [k, max] of [
        ['hit:k', 60_000],
        ['strike:k', 30_000],
        ['block:k', 10_000],
      ] as const) {
        const left = await ttl(k);
        expect(left, k).toBeGreaterThan(max - 5000);
        expect(left, k).toBeLessThanOrEqual(max);
      }
    } finally {
      await admin.quit();
    }
  });

  test('an unreachable Redis makes operations reject promptly, and close still returns', async () => {
    const errors: Error[] = [];
    const r = new RedisRateLimiter('redis://127.0.0.1:1', { timeoutMs: 300, onError: (e) => errors.push(e) });
    const started = Date.now();
    await expect(r.hit('k', 1, 1000)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    await r.close();
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe('memory rate limiter pruning', () => {
  it('expired keys are dropped, live ones kept', async () => {
    const t = fakeClock();
    const rl = new MemoryRateLimiter({ clock: t.clock });
    for (let i = 0; i < 5000; i++) {
      await rl.hit(`poll:${i}`, 1, 5000);
      if (i % 2 === 0) await rl.strike(`s:${i}`, 5000);
    }
    await rl.block('blocked', 5000);
    await rl.hit('long', 1, 3_600_000);
    expect(rl.size).toBeGreaterThan(7500);
    t.now += 5000;
    for (let i = 0; i < 1000; i++) await rl.hit('other', 1_000_000, 60_000);
    // 'long' and 'other' remain; all the 5000-ms entries and the block have gone.
    expect(rl.size).toBe(2);
    expect((await rl.hit('long', 1, 3_600_000)).allowed).toBe(false);
    await rl.close();
  });

  it('stays bounded under a churn of new keys', async () => {
    const t = fakeClock();
    const rl = new MemoryRateLimiter({ clock: t.clock });
    let max = 0;
    // 100 000 one-off keys, one per ms, each alive for 1000 ms: about 1000 live at any moment.
    for (let i = 0; i < 100_000; i++) {
      await rl.hit(`task:${i}`, 1, 1000);
      t.now += 1;
      max = Math.max(max, rl.size);
    }
    expect(max).toBeLessThan(1500);
    await rl.close();
  });

  it('openRateLimiter without a URL gives the memory backend', async () => {
    const rl = openRateLimiter(undefined);
    expect(rl).toBeInstanceOf(MemoryRateLimiter);
    expect((await rl.hit('k', 1, 1000)).allowed).toBe(true);
    await rl.close();
  });
});
