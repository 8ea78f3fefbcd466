// The task queue contract, run against every backend: FIFO delivery, per-account concurrency, no
// starvation between accounts, prompt abort, skipped finished tasks, durability across restarts and
// several workers sharing one queue; then what the BullMQ backend does when Redis is unreachable.
import { randomBytes } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMetadata } from '../src/store/metadata/connect.js';
import { MetadataStore } from '../src/store/metadata/metadata-store.js';
import type { Account, TaskRecord } from '../src/store/metadata/records.js';
import type { TaskClaims } from '../src/store/metadata/tasks.js';
import { BullmqQueue } from '../src/store/queue/bullmq.js';
import { LocalQueue } from '../src/store/queue/local.js';
import type { QueueOptions, TaskQueue } from '../src/store/queue/task-queue.js';
import { REDIS_URL, redis } from './support/services.js';
import { waitUntil } from './support/wait.js';

interface Backend {
  kind: TaskQueue['kind'];
  available: boolean;
  reason: string;
  open(meta: MetadataStore, queueName: string, opts: QueueOptions): TaskQueue;
}

const backends: Backend[] = [
  { kind: 'local', available: true, reason: '', open: (meta, _name, opts) => new LocalQueue(meta, opts) },
  {
    kind: 'bullmq',
    available: redis.available,
    reason: redis.reason,
    open: (meta, name, opts) => new BullmqQueue(REDIS_URL, meta, { ...opts, name }),
  },
];

const WORKER = 'worker-1';
// Long enough that only released() (or the poll, where a test asks for it) can deliver a freed slot.
const NO_POLL = 60_000;
const videoRates = { sd_30: 0, sd_60: 0, hd_30: 0, hd_60: 0 };

describe.each(backends.map((b) => [b.kind, b] as const))('%s queue', (_kind, backend) => {
  const test = it.skipIf(!backend.available);
  if (!backend.available) it.skip(`skipped: ${backend.reason}`, () => undefined);

  let dir: string;
  let dbFile: string;
  let meta: MetadataStore;
  let queueName: string;
  let opened: TaskQueue[];

  beforeEach(async () => {
    if (!backend.available) return;
    dir = await mkdtemp(join(tmpdir(), 'imprint-queue-'));
    dbFile = join(dir, 'm.db');
    meta = new MetadataStore(await openMetadata(dbFile));
    queueName = `imprint-test-${randomBytes(6).toString('hex')}`;
    opened = [];
  });

  afterEach(async () => {
    if (!backend.available) return;
    await Promise.all(opened.map((q) => q.close()));
    await meta.close();
    await rm(dir, { recursive: true, force: true });
    if (backend.kind === 'bullmq') {
      const admin = new Queue(queueName, { connection: { url: REDIS_URL } });
      admin.on('error', () => undefined);
      try {
        // Every job was acknowledged or given back: none may be left for the stalled check.
        expect(await admin.getActiveCount()).toBe(0);
      } finally {
        await admin.obliterate({ force: true });
        await admin.close();
      }
    }
  });

  function open(pollMs = NO_POLL): TaskQueue {
    const q = backend.open(meta, queueName, { workerId: WORKER, clock: () => Date.now(), leaseMs: 60_000, pollMs });
    opened.push(q);
    return q;
  }

  let accounts = 0;
  function account(concurrency: number): Promise<Account> {
    return meta.insertAccount({
      name: `account-${++accounts}`,
      plan: { name: 'test', requestsPerMinute: 1000, concurrency, queueSize: 1000, dailyRenders: 1000, dailyDemoRenders: 0, videoRates },
      webhookSecret: 's',
      balance: 0,
      now: Date.now(),
    });
  }

  async function queued(q: TaskQueue, a: Account, n = 1): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = await meta.insertTask({ accountId: a.id, designId: 1, format: 'png', options: {}, overrides: {}, webhookUrl: null, now: Date.now() });
      if (typeof t === 'string') throw new Error(t);
      await q.push(t.id);
      ids.push(t.id);
    }
    return ids;
  }

  /** The next task, failing instead of hanging when none comes. */
  async function take(q: TaskQueue): Promise<TaskRecord> {
    const t = await q.take(AbortSignal.timeout(4000));
    if (!t) throw new Error('no task was delivered within 4 s');
    return t;
  }

  /** What a take gives while a task should not be available: undefined after `ms`. */
  const takeWithin = (q: TaskQueue, ms = 300) => q.take(AbortSignal.timeout(ms));

  /**
   * Resolves once a take is blocked waiting for work: both backends listen on the take's signal only
   * while they wait (the local queue after an empty claim, BullMQ while its fetch is out); for BullMQ,
   * also once that fetch is blocked in Redis (its worker connection shows BZPOPMIN in CLIENT LIST).
   */
  async function waiting(signal: AbortSignal): Promise<void> {
    await waitUntil('the take to wait for work', () => getEventListeners(signal, 'abort').length > 0, 5000);
    if (backend.kind !== 'bullmq') return;
    const name = `bull:${Buffer.from(queueName).toString('base64')}`;
    const admin = new Redis(REDIS_URL);
    try {
      const blocked = async () => ((await admin.client('LIST')) as string).split('\n').some((c) => c.includes(` name=${name} `) && / cmd=bzpopmin /.test(c));
      await waitUntil('the fetch to block in Redis', blocked, 5000);
    } finally {
      admin.disconnect();
    }
  }

  /**
   * Resolves once no fetch of an aborted take is still out: BullMQ's fetch loop has handed what it
   * fetched back to the queue (or found nothing). The local queue has no fetch of its own.
   */
  async function fetchesSettled(q: TaskQueue): Promise<void> {
    if (q instanceof BullmqQueue) await (q as unknown as { pumping: Promise<void> | undefined }).pumping;
  }

  async function finish(q: TaskQueue, id: number): Promise<void> {
    expect(await meta.finishTask(id, WORKER, { state: 'done' }, Date.now())).toBeDefined();
    q.released();
  }

  test('(a) concurrency 1: one task at a time, in FIFO order', async () => {
    const q = open();
    const a = await account(1);
    const [t1, t2, t3] = await queued(q, a, 3);

    const first = await take(q);
    expect(first).toMatchObject({ id: t1, state: 'pending', workerId: WORKER, accountId: a.id });
    expect(first.leaseUntil).toBeGreaterThan(Date.now());
    expect(await takeWithin(q)).toBeUndefined();

    await finish(q, t1!);
    expect((await take(q)).id).toBe(t2);
    expect(await takeWithin(q)).toBeUndefined();
    await finish(q, t2!);
    expect((await take(q)).id).toBe(t3);
    await finish(q, t3!);
    expect(await takeWithin(q)).toBeUndefined();
    expect(await meta.countTasksByState()).toMatchObject({ queued: 0, pending: 0, done: 3 });
  });

  test('(b) concurrency 2: two tasks run at once, the third waits for a slot', async () => {
    const q = open();
    const a = await account(2);
    const [t1, t2, t3] = await queued(q, a, 3);

    expect((await take(q)).id).toBe(t1);
    expect((await take(q)).id).toBe(t2);
    expect(await takeWithin(q)).toBeUndefined();

    await finish(q, t2!);
    expect((await take(q)).id).toBe(t3);
    expect(await takeWithin(q)).toBeUndefined();
  });

  test('(c) an account at its limit does not hold up another, and still starts its tasks in order', async () => {
    const q = open();
    const a = await account(1);
    const b = await account(1);
    const aIds = await queued(q, a, 5);
    const [bId] = await queued(q, b, 1);

    expect((await take(q)).id).toBe(aIds[0]);
    // A's next four wait for its slot; B's task, queued after them, starts now.
    expect((await take(q)).id).toBe(bId);
    await finish(q, bId!);

    const started = [aIds[0]];
    for (let i = 1; i < aIds.length; i++) {
      expect(await takeWithin(q, 150)).toBeUndefined();
      await finish(q, started[started.length - 1]!);
      started.push((await take(q)).id);
    }
    expect(started).toEqual(aIds);
  });

  // "Promptly" without a clock: the queue polls only every NO_POLL (a minute, past the test's timeout)
  // and nothing is pushed, so a take that ends at all was ended by the abort or the close.
  test('(d) take gives undefined as soon as it is aborted or closed, not at its next poll', async () => {
    const q = open();
    const a = await account(1);
    expect(await q.take(AbortSignal.abort())).toBeUndefined();

    const ac = new AbortController();
    const pending = q.take(ac.signal);
    await waiting(ac.signal);
    ac.abort();
    expect(await pending).toBeUndefined();

    // A task pushed right after the abort is there for the next take, even when the aborted take's fetch,
    // still blocked in Redis, receives it: it goes back to the queue.
    const [t1] = await queued(q, a, 1);
    await fetchesSettled(q);
    expect((await take(q)).id).toBe(t1);

    // A signal that never aborts: only the close can end this take.
    const signal = new AbortController().signal;
    const blocked = q.take(signal);
    await waiting(signal);
    await q.close();
    expect(await blocked).toBeUndefined();
    expect(await q.take(new AbortController().signal)).toBeUndefined();
    await q.close(); // idempotent
  });

  test('(e) a task ended elsewhere before delivery is skipped, and a duplicate delivery is harmless', async () => {
    const q = open();
    const a = await account(2);
    const [t1, t2] = await queued(q, a, 2);

    // Another worker (another process) claims and finishes t1 before this one sees it.
    const now = Date.now();
    const other = await meta.claimTask(t1!, 'worker-2', now, now + 60_000);
    expect('claimed' in other).toBe(true);
    expect(await meta.finishTask(t1!, 'worker-2', { state: 'done' }, now)).toBeDefined();

    expect((await take(q)).id).toBe(t2);
    await q.push(t2!); // delivered twice: already pending, so skipped
    expect(await takeWithin(q)).toBeUndefined();
    expect(await meta.getTask(t1!)).toMatchObject({ state: 'done', attempts: 1 });
    expect(await meta.getTask(t2!)).toMatchObject({ state: 'pending', workerId: WORKER, attempts: 1 });
  });

  test('(f) queued tasks survive closing the queue and the database', async () => {
    const a = await account(1);
    const first = open();
    const [t1, t2] = await queued(first, a, 2);
    await first.close();
    await meta.close();

    meta = new MetadataStore(await openMetadata(dbFile));
    const q = open();
    expect((await take(q)).id).toBe(t1);
    await finish(q, t1!);
    expect((await take(q)).id).toBe(t2);
  });

  test('(g) a slot freed by another process is found without released()', async () => {
    const q = open(200);
    const a = await account(1);
    const [t1, t2] = await queued(q, a, 2);
    expect((await take(q)).id).toBe(t1);
    expect(await takeWithin(q)).toBeUndefined();

    // The render ended in another process: no wake-up reaches this queue.
    expect(await meta.finishTask(t1!, WORKER, { state: 'done' }, Date.now())).toBeDefined();
    expect((await take(q)).id).toBe(t2);
  });

  test('(h) workers sharing the queue start every task once, within each account’s limit and order', async () => {
    const workers = ['worker-1', 'worker-2'].map((workerId) => {
      const q = backend.open(meta, queueName, { workerId, clock: () => Date.now(), leaseMs: 60_000, pollMs: 100 });
      opened.push(q);
      return { q, workerId };
    });
    const a = await account(2);
    const b = await account(1);
    const [w1, w2] = workers;
    const aIds = await queued(w1!.q, a, 6);
    const bIds = await queued(w2!.q, b, 3);
    const total = aIds.length + bIds.length;

    const started = new Map<number, number[]>([
      [a.id, []],
      [b.id, []],
    ]);
    let finished = 0;
    let failed = false;
    const deadline = Date.now() + 4000;
    const work = async (q: TaskQueue, workerId: string) => {
      try {
        while (finished < total && !failed && Date.now() < deadline) {
          const t = await q.take(AbortSignal.timeout(200));
          if (!t) continue;
          expect(t.workerId).toBe(workerId);
          started.get(t.accountId)!.push(t.id);
          // Takes return in any order, but an account's tasks leave the queue oldest first.
          const own = await meta.listTasks(t.accountId);
          const left = own.filter((x) => x.state !== 'queued').map((x) => x.id);
          expect(left).toEqual(own.slice(0, left.length).map((x) => x.id));
          expect(own.filter((x) => x.state === 'pending').length).toBeLessThanOrEqual(t.accountId === a.id ? 2 : 1);
          // A short render, so takes of the other loops overlap it. Not a wait for anything: no
          // assertion depends on how long it lasts (the limit is checked by every take above).
          await new Promise((done) => setTimeout(done, 10));
          expect(await meta.finishTask(t.id, workerId, { state: 'done' }, Date.now())).toBeDefined();
          finished++;
          q.released();
        }
      } catch (e) {
        failed = true;
        throw e;
      }
    };
    // Two takes at a time in each of two "processes".
    const loops = workers.flatMap(({ q, workerId }) => [work(q, workerId), work(q, workerId)]);
    await Promise.all(loops);

    expect(started.get(a.id)!.sort((x, y) => x - y)).toEqual(aIds);
    expect(started.get(b.id)).toEqual(bIds);
    const tasks = [...(await meta.listTasks(a.id)), ...(await meta.listTasks(b.id))];
    expect(tasks.map((t) => [t.state, t.attempts])).toEqual(tasks.map(() => ['done', 1]));
  });
});

describe('bullmq queue without Redis', () => {
  it('rejects a push (keeping the task owed a delivery), still aborts a take and closes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'imprint-queue-'));
    const meta = new MetadataStore(await openMetadata(join(dir, 'm.db')));
    try {
      const a = await meta.insertAccount({
        name: 'a',
        plan: { name: 'test', requestsPerMinute: 1, concurrency: 1, queueSize: 10, dailyRenders: 1, dailyDemoRenders: 0, videoRates },
        webhookSecret: 's',
        balance: 0,
        now: Date.now(),
      });
      const t = await meta.insertTask({ accountId: a.id, designId: 1, format: 'png', options: {}, overrides: {}, webhookUrl: null, now: Date.now() });
      if (typeof t === 'string') throw new Error(t);
      const errors: Error[] = [];
      const q = new BullmqQueue('redis://127.0.0.1:1', meta, {
        workerId: WORKER,
        clock: () => Date.now(),
        leaseMs: 60_000,
        redisTimeoutMs: 300,
        onError: (e) => errors.push(e),
      });

      await expect(q.push(t.id)).rejects.toThrow(/Redis did not answer within 300 ms/);
      const row = await meta.db.selectFrom('tasks').select('parked').where('id', '=', t.id).executeTakeFirstOrThrow();
      expect(row.parked).toBe(1);

      // Its fetch waits for a Redis that never answers: the take ends when its signal aborts.
      const ac = new AbortController();
      const pending = q.take(ac.signal);
      await waitUntil('the take to wait for work', () => getEventListeners(ac.signal, 'abort').length > 0, 5000);
      ac.abort();
      expect(await pending).toBeUndefined();

      await q.close();
      expect(errors.some((e) => /ECONNREFUSED/.test(e.message))).toBe(true);
    } finally {
      await meta.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('queues on the claim interface', () => {
  it('the local queue needs only claimNext, called with its worker id and lease', async () => {
    const task = { id: 7 } as TaskRecord;
    const calls: [string, number, number][] = [];
    const claims: Pick<TaskClaims, 'claimNext'> = {
      claimNext: async (workerId, now, leaseUntil) => {
        calls.push([workerId, now, leaseUntil]);
        return calls.length === 2 ? task : undefined;
      },
    };
    // The short poll finds the task on the second claim, with no store behind the queue.
    const q = new LocalQueue(claims, { workerId: WORKER, clock: () => 1_000, leaseMs: 50, pollMs: 10 });
    expect(await q.take(AbortSignal.timeout(5_000))).toBe(task);
    expect(calls).toEqual([
      [WORKER, 1_000, 1_050],
      [WORKER, 1_000, 1_050],
    ]);
    await q.close();
  });
});
