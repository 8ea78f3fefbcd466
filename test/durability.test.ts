// Durability of the render service as an operator runs it: real `imprint worker` processes (built
// dist/, as after `npm install`) killed with SIGKILL mid-render, restarted, and stopped with SIGTERM.
// Every queued task ends done (or, at worst, in error with the stalled reason), none is lost, none
// leaves more than one result. Embedded default (SQLite + folder + in-process queue), then scale-out
// (PostgreSQL + BullMQ on Redis) with two workers sharing the work. Then the webhook outbox on both:
// a worker killed before the POST leaves it to the next one (exactly one arrives), a worker killed
// during the POST leaves no second one (the delivery is marked abandoned).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { ABANDONED_REASON } from '../src/service/webhook-outbox.js';
import { verifyWebhookSignature } from '../src/service/webhooks.js';
import type { TaskRecord } from '../src/store/metadata/records.js';
import { STALLED_REASON } from '../src/worker/worker.js';
import { freshPostgresDatabase, postgres, redis, REDIS_URL } from './support/services.js';
import { waitUntil } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const CARD_DIR = join(ROOT, 'examples', 'card-1080');

type Env = Record<string, string>;

// ── worker processes ────────────────────────────────────────────────────────────────────────────
const children = new Set<WorkerProcess>();

/** One `imprint worker` process with the given IMPRINT_* variables (and none inherited). */
class WorkerProcess {
  readonly proc: ChildProcess;
  readonly pid: number;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its PostgreSQL sessions carry this application_name (node-postgres reads PGAPPNAME). */
  readonly appName = `imprint-durability-${randomBytes(4).toString('hex')}`;

  constructor(private readonly env: Env) {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IMPRINT_')));
    this.proc = spawn(process.execPath, [builtBin(), 'worker'], {
      cwd: ROOT,
      env: { ...inherited, PGAPPNAME: this.appName, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (this.proc.pid === undefined) throw new Error('could not start `imprint worker`');
    this.pid = this.proc.pid;
    this.proc.stdout!.setEncoding('utf8').on('data', (s: string) => (this.stdout += s));
    this.proc.stderr!.setEncoding('utf8').on('data', (s: string) => (this.stderr += s));
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    children.add(this);
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** True when a task's worker_id was written by this process (`host:boot:start:pid:random`). */
  owns(workerId: string | null): boolean {
    return workerId !== null && workerId.split(':').at(-2) === String(this.pid);
  }

  /**
   * SIGKILLs the worker at a moment when `when` holds for the tasks in the store. Each candidate
   * moment is checked with the process frozen (SIGSTOP), so what it holds cannot finish between the
   * check and the kill; if the frozen state does not qualify, the process runs on and polling resumes.
   */
  async killWhen(what: string, timeoutMs: number, list: () => Promise<TaskRecord[]>, when: (ts: TaskRecord[]) => boolean): Promise<void> {
    await waitFor(what, timeoutMs, async () => {
      if (!this.running) throw new Error(`worker ${this.pid} exited:\n${this.stderr}`);
      const ts = await list();
      if (ts.every(ended)) throw new Error(`every task ended before worker ${this.pid} could be killed mid-render`);
      if (!when(ts)) return false;
      this.proc.kill('SIGSTOP');
      await this.statementsLanded();
      if (when(await list())) return true;
      this.proc.kill('SIGCONT');
      return false;
    });
    expect((await this.kill('SIGKILL', 5000)).signal).toBe('SIGKILL');
  }

  /**
   * Resolves once the statements the (frozen) process sent before it froze have run. SQLite: at once,
   * better-sqlite3 writes synchronously, so a frozen process has nothing in flight. PostgreSQL: once
   * none of its sessions is `active` in pg_stat_activity.
   */
  private async statementsLanded(): Promise<void> {
    const url = this.env.IMPRINT_DATABASE_URL;
    if (!url?.startsWith('postgres')) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const active = async () =>
        (await client.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where application_name = $1 and state = 'active'", [this.appName]))
          .rows[0]!.n;
      // A killed client's statement runs to its end before its session goes idle; on a loaded 2-core
      // machine that has taken over 5 s.
      await waitUntil(`worker ${this.pid}'s statements to land in the database`, async () => (await active()) === 0, 30_000, 5);
    } finally {
      await client.end();
    }
  }

  async kill(signal: NodeJS.Signals, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
    const t0 = Date.now();
    this.proc.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`worker ${this.pid} did not exit within ${timeoutMs} ms of ${signal}:\n${this.stderr}`)), timeoutMs);
    });
    try {
      return { ...(await Promise.race([this.exited, timeout])), ms: Date.now() - t0 };
    } finally {
      clearTimeout(timer);
    }
  }
}

async function killAll(): Promise<void> {
  await Promise.all(
    [...children].map(async (c) => {
      if (c.running) {
        c.proc.kill('SIGKILL');
        await c.exited;
      }
      children.delete(c);
    }),
  );
}

afterEach(killAll);
afterAll(killAll);

// ── helpers ─────────────────────────────────────────────────────────────────────────────────────
const waitFor = (what: string, timeoutMs: number, check: () => Promise<boolean>, intervalMs = 25): Promise<void> =>
  waitUntil(what, check, timeoutMs, intervalMs);

const ended = (t: TaskRecord) => t.state === 'done' || t.state === 'error';
const countBy = (ts: TaskRecord[]) => Object.fromEntries(['queued', 'pending', 'done', 'error'].map((s) => [s, ts.filter((t) => t.state === s).length]));

/** Pids whose parent is `pid` (Linux /proc), to check that a worker leaves no ffmpeg behind. */
function childPids(pid: number): number[] {
  const out: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return out;
  }
  for (const e of entries) {
    try {
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so parse after the last ')'.
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every done task has exactly one result blob at its key, a complete PNG, and no two are alike. */
async function checkPngResults(service: Service, tasks: TaskRecord[], size: number): Promise<void> {
  const done = tasks.filter((t) => t.state === 'done');
  for (const t of done) expect(t.resultKey).toBe(`results/${t.accountId}/${t.id}.png`);
  // One blob per done task under results/, nothing else (no second copy, no stray file).
  expect(await service.ctx.blobs.list('results/')).toEqual(done.map((t) => t.resultKey!).sort());
  const hashes = new Set<string>();
  for (const t of done) {
    const bytes = await service.ctx.blobs.get(t.resultKey!);
    expect(bytes, `result of task ${t.id}`).toBeDefined();
    // A full decode (not just the header), so a truncated file fails.
    const { info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect((await sharp(bytes).metadata()).format).toBe('png');
    expect([info.width, info.height]).toEqual([size, size]);
    hashes.add(createHash('sha256').update(bytes!).digest('hex'));
  }
  // Each task has its own text, so each result is different: no result was written for the wrong task.
  expect(hashes.size).toBe(done.length);
}

/** Ended tasks: done, or in error only with the stalled reason and only if it was stuck at the kill. */
function checkEnded(tasks: TaskRecord[], stuck: Set<number>): void {
  for (const t of tasks) {
    if (t.state === 'error') {
      expect(stuck.has(t.id), `task ${t.id} failed but was not stuck with the killed worker: ${t.error}`).toBe(true);
      expect(t.error).toBe(STALLED_REASON);
    } else {
      expect(t.state, `task ${t.id}`).toBe('done');
    }
    expect(t.workerId).toBeNull();
    expect(t.leaseUntil).toBeNull();
  }
}

// 10 s of 640×640 video with moving shapes: a few seconds of rendering (300 frames through ffmpeg),
// so a signal sent just after the task starts lands mid-render.
const slowVideo = {
  schema: 'imprint/design@1',
  width: 640,
  height: 640,
  duration: 10,
  background: { type: 'color', color: '#f6f1ea' },
  objects: [
    ...Array.from({ length: 12 }, (_, i) => ({
      type: 'shape',
      name: `s${i}`,
      x: (i * 37) % 520,
      y: (i * 53) % 520,
      width: 120,
      height: 120,
      shape: 'ellipse',
      opacity: 0.6,
      background: { type: 'color', color: i % 2 ? '#e4572e' : '#2f6fed' },
      animations: [
        {
          type: 'keyframes',
          property: 'x',
          keyframes: [
            { time: 0, value: (i * 37) % 520 },
            { time: 10, value: (i * 71) % 520 },
          ],
          easing: 'linear',
        },
      ],
    })),
    {
      type: 'text',
      name: 't',
      x: 20,
      y: 20,
      width: 600,
      height: 80,
      text: 'Interrupted',
      font_size: 48,
      color: '#10131c',
      animations: [
        {
          type: 'keyframes',
          property: 'opacity',
          keyframes: [
            { time: 0, value: 0.2 },
            { time: 10, value: 1 },
          ],
          easing: 'linear',
        },
      ],
    },
  ],
};

// ── embedded default ────────────────────────────────────────────────────────────────────────────
describe('embedded default (SQLite, folder blobs, in-process queue)', () => {
  let dir: string | undefined;
  let service: Service | undefined;

  afterEach(async () => {
    await killAll();
    await service?.close();
    service = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function open(extra: Env = {}): Promise<Env> {
    dir = await mkdtemp(join(tmpdir(), 'imprint-durability-'));
    const env: Env = { IMPRINT_DATA_DIR: dir, IMPRINT_TASK_LEASE_S: '1', IMPRINT_WORKER_CONCURRENCY: '2', IMPRINT_LOG_LEVEL: 'warn', ...extra };
    service = await Service.open(configFromEnv(env));
    return env;
  }

  it('SIGKILL mid-render then restart: all 50 tasks end, each with exactly one result; SIGTERM then exits 0', { timeout: 90_000 }, async () => {
    const env = await open();
    const svc = service!;
    const { account } = await svc.createAccount({ name: 'durability' });
    await svc.setPlan(account.id, { concurrency: 2, queue_size: 1000 });
    const template = JSON.parse(await readFile(join(CARD_DIR, 'design.json'), 'utf8')) as unknown;
    const design = await svc.importDesign(account.id, template, { baseDir: CARD_DIR });
    for (let i = 1; i <= 50; i++) {
      await svc.createTask(account.id, { designId: design.id, format: 'png', overrides: { headline: { text: `Task ${i}` } } });
    }
    const list = () => svc.ctx.meta.listTasks(account.id);
    expect(countBy(await list())).toEqual({ queued: 50, pending: 0, done: 0, error: 0 });

    const first = new WorkerProcess(env);
    await first.killWhen(
      'some tasks done while others render',
      40_000,
      list,
      (ts) => ts.filter((t) => t.state === 'done').length >= 3 && ts.some((t) => t.state === 'pending'),
    );

    // The dead worker's tasks are stuck in pending until their lease runs out: nobody else is running.
    const atKill = await list();
    const stuck = new Set(atKill.filter((t) => t.state === 'pending').map((t) => t.id));
    expect(stuck.size).toBeGreaterThanOrEqual(1);
    expect(stuck.size).toBeLessThanOrEqual(2);
    for (const t of atKill.filter((x) => stuck.has(x.id))) {
      expect(first.owns(t.workerId)).toBe(true);
      expect(t.attempts).toBe(1);
    }
    const doneAtKill = atKill.filter((t) => t.state === 'done').length;
    expect(doneAtKill).toBeLessThan(50 - stuck.size);

    const second = new WorkerProcess(env);
    await waitFor('all 50 tasks to end', 60_000, async () => (await list()).every(ended));
    const tasks = await list();
    expect(tasks).toHaveLength(50);
    checkEnded(tasks, stuck);
    // With one restart no task can stall twice: every task rendered, the stuck ones on their second take.
    expect(countBy(tasks)).toEqual({ queued: 0, pending: 0, done: 50, error: 0 });
    for (const t of tasks) expect(t.attempts, `attempts of task ${t.id}`).toBe(stuck.has(t.id) ? 2 : 1);
    await checkPngResults(svc, tasks, 1080);

    // Idle, the second worker stops at once on SIGTERM, with exit code 0.
    const stop = await second.kill('SIGTERM', 10_000);
    expect(stop, second.stderr).toMatchObject({ code: 0, signal: null });
    expect(stop.ms).toBeLessThan(5000);
  });

  it("SIGKILL then restart with leases of an hour: the gone worker's tasks are taken back at once, each rendered once more", { timeout: 90_000 }, async () => {
    // A lease this long would hold the killed worker's tasks for an hour: only knowing that their holder
    // is gone (same host, its pid and start time no longer running) lets the restart finish them.
    const env = await open({ IMPRINT_TASK_LEASE_S: '3600' });
    const svc = service!;
    const { account } = await svc.createAccount({ name: 'crash' });
    await svc.setPlan(account.id, { concurrency: 2, queue_size: 1000 });
    const template = JSON.parse(await readFile(join(CARD_DIR, 'design.json'), 'utf8')) as unknown;
    const design = await svc.importDesign(account.id, template, { baseDir: CARD_DIR });
    for (let i = 1; i <= 12; i++) await svc.createTask(account.id, { designId: design.id, format: 'png', overrides: { headline: { text: `Task ${i}` } } });
    const list = () => svc.ctx.meta.listTasks(account.id);

    const first = new WorkerProcess(env);
    await first.killWhen('a task rendering', 40_000, list, (ts) => ts.some((t) => t.state === 'pending'));
    const stuck = new Set((await list()).filter((t) => t.state === 'pending').map((t) => t.id));
    expect(stuck.size).toBeGreaterThanOrEqual(1);
    const leaseEnds = (await list()).filter((t) => stuck.has(t.id)).map((t) => t.leaseUntil ?? 0);
    expect(Math.min(...leaseEnds)).toBeGreaterThan(Date.now() + 3_000_000);

    const second = new WorkerProcess(env);
    await waitFor('all 12 tasks to end', 60_000, async () => (await list()).every(ended));
    const tasks = await list();
    expect(countBy(tasks)).toEqual({ queued: 0, pending: 0, done: 12, error: 0 });
    for (const t of tasks) expect(t.attempts, `attempts of task ${t.id}`).toBe(stuck.has(t.id) ? 2 : 1);
    await checkPngResults(svc, tasks, 1080);
    expect(second.stdout + second.stderr).toContain('taken back without waiting for its lease');
  });

  it('SIGTERM mid-render with no grace gives the task back uncounted; the next worker renders it', { timeout: 90_000 }, async () => {
    const env = await open({ IMPRINT_SHUTDOWN_GRACE_S: '0', IMPRINT_WORKER_CONCURRENCY: '1' });
    const svc = service!;
    const { account } = await svc.createAccount({ name: 'graceful' });
    const design = await svc.importDesign(account.id, slowVideo);
    const task = await svc.createTask(account.id, { designId: design.id, format: 'mp4' });
    const get = () => svc.getTask(account.id, task.id);

    const first = new WorkerProcess(env);
    await waitFor('the video task to start', 30_000, async () => (await get()).state === 'pending');
    // In the frame loop: its ffmpeg is running, fed frame by frame, seconds before the end.
    let helpers: number[] = [];
    await waitFor('the worker’s ffmpeg to start', 30_000, async () => (helpers = childPids(first.pid)).length > 0);
    const running = await get();
    expect(running).toMatchObject({ state: 'pending', attempts: 1 });
    expect(first.owns(running.workerId)).toBe(true);

    const stop = await first.kill('SIGTERM', 10_000);
    expect(stop, first.stderr).toMatchObject({ code: 0, signal: null });
    expect(stop.ms).toBeLessThan(5000);
    // Back in the queue as if never taken, and nothing stored.
    expect(await get()).toMatchObject({ state: 'queued', attempts: 0, workerId: null, leaseUntil: null, resultKey: null, error: null });
    expect(await svc.ctx.blobs.list('results/')).toEqual([]);
    // Its ffmpeg does not outlive it.
    await waitFor('the stopped worker’s children to exit', 3000, async () => helpers.every((p) => !alive(p)));

    const second = new WorkerProcess({ ...env, IMPRINT_SHUTDOWN_GRACE_S: '30' });
    await waitFor('the requeued task to be rendered', 60_000, async () => ended(await get()), 100);
    const done = await get();
    expect(done, done.error ?? '').toMatchObject({ state: 'done', attempts: 1, resultKey: `results/${account.id}/${task.id}.mp4` });
    const mp4 = await svc.ctx.blobs.get(done.resultKey!);
    expect(mp4?.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(await svc.ctx.blobs.list('results/')).toEqual([done.resultKey]);
    expect(await second.kill('SIGTERM', 10_000)).toMatchObject({ code: 0, signal: null });
  });
});

// ── scale-out ───────────────────────────────────────────────────────────────────────────────────
const scaleOut = { available: postgres.available && redis.available, reason: [postgres.reason, redis.reason].filter(Boolean).join('; ') };

describe('scale-out (PostgreSQL, BullMQ on Redis, shared blob folder)', () => {
  if (!scaleOut.available) it.skip(`skipped: ${scaleOut.reason}`, () => undefined);

  let dir: string | undefined;
  let service: Service | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  let queueName: string | undefined;

  afterAll(async () => {
    await killAll();
    try {
      await service?.close();
    } finally {
      try {
        await dropDb?.();
      } finally {
        if (queueName) {
          const admin = new Queue(queueName, { connection: { url: REDIS_URL } });
          admin.on('error', () => undefined);
          await admin.obliterate({ force: true }).finally(() => admin.close());
        }
        if (dir) await rm(dir, { recursive: true, force: true });
      }
    }
  });

  // 1024×1024 with 30 translucent ellipses and one text: a render takes some tens of milliseconds,
  // long enough that a worker is caught with both slots busy (a few-millisecond render rarely is).
  const design = {
    schema: 'imprint/design@1',
    width: 1024,
    height: 1024,
    background: { type: 'color', color: '#f6f1ea' },
    objects: [
      ...Array.from({ length: 30 }, (_, i) => ({
        type: 'shape',
        name: `s${i}`,
        x: (i * 97) % 824,
        y: (i * 53) % 824,
        width: 200,
        height: 200,
        shape: 'ellipse',
        opacity: 0.5,
        background: { type: 'color', color: i % 2 ? '#e4572e' : '#2f6fed' },
        border: { width: 6, color: '#10131c' },
      })),
      { type: 'text', name: 't', x: 20, y: 20, width: 984, height: 120, text: '?', font_size: 64, color: '#10131c' },
    ],
  };

  it.skipIf(!scaleOut.available)('two workers share 100 tasks; one is SIGKILLed mid-way; all 100 end with one result each', { timeout: 90_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'imprint-durability-'));
    const db = await freshPostgresDatabase();
    dropDb = db.drop;
    queueName = `imprint-durability-${randomBytes(6).toString('hex')}`;
    const env: Env = {
      IMPRINT_DATA_DIR: dir,
      IMPRINT_DATABASE_URL: db.url,
      IMPRINT_BLOBS_URL: join(dir, 'shared-blobs'),
      IMPRINT_QUEUE_URL: REDIS_URL,
      IMPRINT_QUEUE_NAME: queueName,
      IMPRINT_TASK_LEASE_S: '1',
      IMPRINT_WORKER_CONCURRENCY: '2',
      IMPRINT_LOG_LEVEL: 'warn',
    };
    const svc = (service = await Service.open(configFromEnv(env)));
    expect(svc.ctx.queue.kind).toBe('bullmq');
    const accounts = [(await svc.createAccount({ name: 'scale-a' })).account, (await svc.createAccount({ name: 'scale-b' })).account];
    const designs = [];
    for (const a of accounts) {
      await svc.setPlan(a.id, { concurrency: 4, queue_size: 1000 });
      designs.push(await svc.importDesign(a.id, design));
    }
    for (let i = 0; i < 100; i++) {
      const k = i % 2;
      await svc.createTask(accounts[k]!.id, { designId: designs[k]!.id, format: 'png', overrides: { t: { text: `Task ${i}` } } });
    }
    const list = async () => (await Promise.all(accounts.map((a) => svc.ctx.meta.listTasks(a.id)))).flat();

    const workers = [new WorkerProcess(env), new WorkerProcess(env)];
    const [victim, survivor] = workers as [WorkerProcess, WorkerProcess];
    // Which process held which task, seen while both run.
    const heldBy = new Map<WorkerProcess, Set<number>>(workers.map((w) => [w, new Set()]));
    const holds = (w: WorkerProcess, ts: TaskRecord[]) => ts.filter((t) => t.state === 'pending' && w.owns(t.workerId));
    // Killed with both its render slots busy: two tasks in flight, and no task id fetched from Redis but not yet claimed.
    await victim.killWhen('~30 tasks done, with both slots of the worker to kill rendering', 60_000, list, (ts) => {
      for (const w of workers) for (const t of holds(w, ts)) heldBy.get(w)!.add(t.id);
      return ts.filter((t) => t.state === 'done').length >= 30 && holds(victim, ts).length === 2;
    });
    const atKill = await list();
    const stuck = new Set(holds(victim, atKill).map((t) => t.id));
    expect(stuck.size).toBe(2);
    // Both processes took tasks before the kill.
    expect(heldBy.get(victim)!.size).toBeGreaterThan(0);
    expect(heldBy.get(survivor)!.size).toBeGreaterThan(0);
    expect(atKill.filter((t) => t.state === 'done').length).toBeLessThan(100);

    await waitFor('all 100 tasks to end', 60_000, async () => (await list()).every(ended), 50);
    expect(survivor.running, survivor.stderr).toBe(true);
    const tasks = await list();
    expect(tasks).toHaveLength(100);
    checkEnded(tasks, stuck);
    expect(tasks.filter((t) => t.state === 'error').length).toBeLessThanOrEqual(stuck.size);
    for (const t of tasks) expect(t.attempts, `attempts of task ${t.id}`).toBe(stuck.has(t.id) ? 2 : 1);
    await checkPngResults(svc, tasks, 1024);

    expect(await survivor.kill('SIGTERM', 15_000), survivor.stderr).toMatchObject({ code: 0, signal: null });
  });
});

// ── webhooks across kill -9 ─────────────────────────────────────────────────────────────────────
/** A webhook receiver on 127.0.0.1 that answers 200, or holds every request open ('hold'). */
class Receiver {
  readonly requests: { body: string; signature: string | string[] | undefined }[] = [];
  private readonly server: http.Server;
  private waiters: (() => void)[] = [];
  url = '';

  constructor(readonly mode: 'answer' | 'hold') {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        this.requests.push({ body, signature: req.headers['x-imprint-signature'] });
        for (const w of this.waiters.splice(0)) w();
        if (this.mode === 'answer') res.writeHead(200).end('ok');
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves when a request has fully arrived (its body read): an event, not a fixed wait. */
  arrival(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no webhook arrived within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface WebhookBackend {
  name: string;
  available: boolean;
  reason: string;
  /** The environment of the worker processes and a cleanup for what it made. */
  open(dir: string): Promise<{ env: Env; cleanup: () => Promise<void> }>;
}

const webhookBackends: WebhookBackend[] = [
  { name: 'SQLite, in-process queue', available: true, reason: '', open: async () => ({ env: {}, cleanup: async () => undefined }) },
  {
    name: 'PostgreSQL, BullMQ',
    ...scaleOut,
    async open(dir) {
      const db = await freshPostgresDatabase();
      const name = `imprint-webhooks-${randomBytes(6).toString('hex')}`;
      const env = { IMPRINT_DATABASE_URL: db.url, IMPRINT_BLOBS_URL: join(dir, 'shared-blobs'), IMPRINT_QUEUE_URL: REDIS_URL, IMPRINT_QUEUE_NAME: name };
      return {
        env,
        cleanup: async () => {
          const admin = new Queue(name, { connection: { url: REDIS_URL } });
          admin.on('error', () => undefined);
          await admin.obliterate({ force: true }).finally(() => admin.close());
          await db.drop();
        },
      };
    },
  },
];

describe.each(webhookBackends)('webhooks across kill -9 ($name)', (backend) => {
  let dir: string | undefined;
  let service: Service | undefined;
  let receiver: Receiver | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await killAll();
    await receiver?.close();
    await service?.close();
    await cleanup?.();
    if (dir) await rm(dir, { recursive: true, force: true });
    [dir, service, receiver, cleanup] = [undefined, undefined, undefined, undefined];
  });

  /** A store with one account, the card design, and one task with a webhook to `mode`'s receiver. */
  async function setUp(mode: 'answer' | 'hold') {
    dir = await mkdtemp(join(tmpdir(), 'imprint-webhooks-'));
    const opened = await backend.open(dir);
    cleanup = opened.cleanup;
    const env: Env = {
      IMPRINT_DATA_DIR: dir,
      IMPRINT_TASK_LEASE_S: '1',
      IMPRINT_WORKER_CONCURRENCY: '1',
      IMPRINT_LOG_LEVEL: 'warn',
      IMPRINT_WEBHOOK_ALLOW_PRIVATE: '1',
      ...opened.env,
    };
    const svc = (service = await Service.open(configFromEnv(env)));
    receiver = new Receiver(mode);
    await receiver.listen();
    const { account, webhookSecret } = await svc.createAccount({ name: 'hooks' });
    const template = JSON.parse(await readFile(join(CARD_DIR, 'design.json'), 'utf8')) as unknown;
    const design = await svc.importDesign(account.id, template, { baseDir: CARD_DIR });
    const task = await svc.createTask(account.id, { designId: design.id, format: 'png', webhookUrl: receiver.url });
    const delivery = async () => (await svc.ctx.meta.listWebhooks(account.id, { taskId: task.id }))[0];
    return { env, svc, account, secret: webhookSecret, task, delivery };
  }

  const killedBeforePost = 'killed after the task is done and before the POST: after a restart exactly one POST arrives';
  it.skipIf(!backend.available)(killedBeforePost, { timeout: 90_000 }, async () => {
    const { env, svc, account, secret, task, delivery } = await setUp('answer');
    // A worker that sends no webhooks (the operational switch) ends the task, then dies: the POST
    // has certainly not been made, and the delivery waits in the outbox.
    const first = new WorkerProcess({ ...env, IMPRINT_WEBHOOK_DISPATCH: '0' });
    const doneAndQueued = async () => (await svc.getTask(account.id, task.id)).state === 'done' && (await delivery()) !== undefined;
    await waitFor('the task to be done with its webhook pending', 40_000, doneAndQueued);
    expect((await first.kill('SIGKILL', 5000)).signal).toBe('SIGKILL');
    expect(await delivery()).toMatchObject({ state: 'pending', claimedAt: null });
    expect(receiver!.requests).toHaveLength(0);

    const arrived = receiver!.arrival(30_000);
    const second = new WorkerProcess(env);
    await arrived;
    await waitFor('the outcome to be recorded', 10_000, async () => (await delivery())?.state === 'sent');
    const d = (await delivery())!;
    expect(d).toMatchObject({ state: 'sent', httpStatus: 200, error: null, url: receiver!.url });
    expect(second.owns(d.claimedBy)).toBe(true);
    // The A2 body of the done task, signed with the account's secret.
    const got = receiver!.requests[0]!;
    const resultUrl = expect.stringContaining('/public/v2/results/') as unknown;
    expect(JSON.parse(got.body)).toMatchObject({ id: task.id, state: 'done', design_id: task.designId, result_url: resultUrl });
    expect(verifyWebhookSignature(secret, got.signature, got.body)).toBe(true);
    // A graceful stop and another start send nothing more: the delivery is no longer pending.
    expect(await second.kill('SIGTERM', 10_000)).toMatchObject({ code: 0, signal: null });
    const third = new WorkerProcess(env);
    await waitFor('the third worker to start', 30_000, async () => /imprint worker:/.test(third.stdout));
    expect(await third.kill('SIGTERM', 10_000)).toMatchObject({ code: 0, signal: null });
    expect(receiver!.requests).toHaveLength(1);
    expect((await delivery())!.state).toBe('sent');
  });

  const killedDuringPost = 'killed during the POST: no second POST after a restart, and the delivery is marked abandoned';
  it.skipIf(!backend.available)(killedDuringPost, { timeout: 90_000 }, async () => {
    const { env, svc, account, task, delivery } = await setUp('hold');
    // The receiver never answers; the sender is killed while its request is open.
    const arrived = receiver!.arrival(40_000);
    const first = new WorkerProcess({ ...env, IMPRINT_WEBHOOK_TIMEOUT_S: '3' });
    await arrived;
    expect((await first.kill('SIGKILL', 5000)).signal).toBe('SIGKILL');
    const claimed = (await delivery())!;
    expect(claimed).toMatchObject({ state: 'sending', finishedAt: null });
    expect(first.owns(claimed.claimedBy)).toBe(true);
    expect((await svc.getTask(account.id, task.id)).state).toBe('done');

    const second = new WorkerProcess(env);
    // Its sweep sees the claim outlive the sender's deadline (3 s + the margin) and gives up on it.
    await waitFor('the delivery to be marked abandoned', 30_000, async () => (await delivery())?.state === 'abandoned', 100);
    const d = (await delivery())!;
    expect(d).toMatchObject({ state: 'abandoned', error: ABANDONED_REASON, httpStatus: null, claimedBy: claimed.claimedBy });
    expect(await second.kill('SIGTERM', 10_000)).toMatchObject({ code: 0, signal: null });
    expect(receiver!.requests).toHaveLength(1);
  });
});
