// An mp4 task's progress (an addition to both interfaces) over real HTTP: while it renders, A2's
// status, B2's status and the task events stream show frames done of the total with an ETA, rising,
// then done with fraction 1. Once with the embedded stores and the worker in this process, once
// scaled out (PostgreSQL, BullMQ on Redis) with the worker in another process, so the progress
// crosses processes through the metadata store. The worker process runs the built
// package (dist/): `npm run build` first.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Task, TaskProgress } from '../src/http/schemas.js';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { progressOf } from '../src/store/metadata/tasks.js';
import { ProgressSink } from '../src/worker/progress.js';
import { TaskWorker } from '../src/worker/worker.js';
import { freshPostgresDatabase, postgres, redis, REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');

// Every frame differs (a text sliding in over the whole video, a shape fading), so every frame is
// painted and encoded: long enough for ffmpeg to report progress several times (about twice a second).
const VIDEO = {
  width: 960,
  height: 960,
  duration: 8,
  background: { type: 'color', color: '#102030' },
  objects: [
    {
      type: 'shape',
      name: 'panel',
      x: 80,
      y: 80,
      width: 800,
      height: 800,
      background: { type: 'color', color: '#e4572e' },
      animations: [{ type: 'fade_in', duration: 8 }],
    },
    {
      type: 'text',
      name: 'headline',
      x: 80,
      y: 400,
      width: 800,
      height: 160,
      text: 'Frames done of the total',
      font_size: 72,
      color: '#ffffff',
      animations: [{ type: 'slide_in', from: 'left', duration: 8 }],
    },
  ],
};

type Body = Record<string, unknown> & { state: string; progress?: unknown };
type Progress = ReturnType<typeof TaskProgress.parse>;

/** The events of a text/event-stream answer, in order, until it ends. */
async function allEvents(res: Response): Promise<{ event: string; body: Body }[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [event, data] = block.split('\n');
      return { event: event!.slice('event: '.length), body: JSON.parse(data!.slice('data: '.length)) as Body };
    });
}

interface Backend {
  name: string;
  available: boolean;
  reason: string;
  /** Opens the service (and starts a worker, in this process or another); returns what to close. */
  open(dir: string): Promise<{ service: Service; close: () => Promise<void>; workerPid?: number }>;
}

const silent = pino({ level: 'silent' });
const scaleOut = { available: postgres.available && redis.available, reason: [postgres.reason, redis.reason].filter(Boolean).join('; ') };

const backends: Backend[] = [
  {
    name: 'embedded (SQLite, in-process queue, worker in this process)',
    available: true,
    reason: '',
    async open(dir) {
      const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_POLL_INTERVAL_S: '0' }), {
        log: silent,
        queuePollMs: 50,
      });
      const worker = new TaskWorker(service.ctx, { slots: 1 });
      worker.start();
      return { service, close: () => worker.stop(0) };
    },
  },
  {
    name: 'scale-out (PostgreSQL, BullMQ on Redis, `imprint worker` in another process)',
    ...scaleOut,
    async open(dir) {
      const db = await freshPostgresDatabase();
      const queueName = `imprint-progress-${randomBytes(6).toString('hex')}`;
      const env = {
        IMPRINT_DATA_DIR: dir,
        IMPRINT_PORT: '0',
        IMPRINT_HOST: '127.0.0.1',
        IMPRINT_DATABASE_URL: db.url,
        IMPRINT_BLOBS_URL: join(dir, 'shared-blobs'),
        IMPRINT_QUEUE_URL: REDIS_URL,
        IMPRINT_QUEUE_NAME: queueName,
        IMPRINT_POLL_INTERVAL_S: '0',
        IMPRINT_WORKER_CONCURRENCY: '1',
        IMPRINT_LOG_LEVEL: 'warn',
      };
      const service = await Service.open(configFromEnv(env), { log: silent });
      expect(service.ctx.queue.kind).toBe('bullmq');
      const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IMPRINT_')));
      const child: ChildProcess = spawn(process.execPath, [builtBin(), 'worker'], {
        cwd: ROOT,
        env: { ...inherited, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return {
        service,
        workerPid: child.pid!,
        close: async () => {
          child.kill('SIGTERM');
          await exited;
          if (child.exitCode !== 0 && child.signalCode === null) console.warn(`worker exited ${child.exitCode}:\n${stderr}`);
          const admin = new Queue(queueName, { connection: { url: REDIS_URL } });
          admin.on('error', () => undefined);
          await admin.obliterate({ force: true }).finally(() => admin.close());
          await service.close();
          await db.drop();
        },
      };
    },
  },
];

describe.each(backends)('mp4 task progress: $name', (backend) => {
  if (!backend.available) it.skip(`skipped: ${backend.reason}`, () => undefined);
  let dir: string;
  let opened: Awaited<ReturnType<Backend['open']>> | undefined;
  let app: FastifyInstance | undefined;
  let base = '';
  let key = '';
  let design = 0;

  beforeAll(async () => {
    if (!backend.available) return;
    dir = await mkdtemp(join(tmpdir(), 'imprint-progress-'));
    opened = await backend.open(dir);
    const { service } = opened;
    app = await buildServer(service, { taskEvents: { pollMs: 50 } });
    base = await listen(app, service);
    const created = await service.createAccount({ name: 'Progress Co', balance: 100 });
    key = created.apiKey;
    await service.setPlan(created.account.id, { requests_per_minute: 100_000 });
    design = (await service.importDesign(created.account.id, VIDEO)).id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await opened?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const auth = () => ({ authorization: `Bearer ${key}` });

  it.skipIf(!backend.available)(
    "A2 and the events stream show the frames done rising while it renders, then done with fraction 1; B2's status has the same field",
    { timeout: 180_000 },
    async () => {
      const res = await fetch(`${base}/public/v2/render`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ design_id: design, format: 'mp4' }),
      });
      expect(res.status).toBe(202);
      const { task_id } = (await res.json()) as { task_id: number };
      const stream = fetch(`${base}/public/v2/tasks/${task_id}/events`, { headers: auth() }).then(allEvents);

      // The status address, polled while the task renders: a report with some frames done, not all.
      const status = async () => (await (await fetch(`${base}/public/v2/tasks/${task_id}`, { headers: auth() })).json()) as Body;
      const midway = await waitFor(
        `task ${task_id} to report frames done while pending`,
        async () => {
          const t = await status();
          if (t.state === 'done' || t.state === 'error') throw new Error(`the task ended before a progress report was seen: ${JSON.stringify(t)}`);
          const p = t.progress === undefined ? undefined : TaskProgress.parse(t.progress);
          return t.state === 'pending' && p && p.frames_done > 0 && p.frames_done < p.frames_total ? p : undefined;
        },
        120_000,
      );
      expect(midway.frames_total).toBe(240);
      expect(midway.fraction).toBeCloseTo(midway.frames_done / 240, 4);
      expect(midway.eta_seconds).toEqual(expect.any(Number));

      const events = await stream;
      const last = events.at(-1)!;
      expect(last).toMatchObject({ event: 'task', body: { id: task_id, state: 'done' } });
      expect(Task.parse(last.body).progress).toEqual({ fraction: 1, frames_done: 240, frames_total: 240, eta_seconds: 0 });
      // A queued task has no progress; each progress event carries the whole pending body, rising.
      for (const e of events.filter((e) => e.body.state === 'queued')) expect(e.body).not.toHaveProperty('progress');
      const progress = events.filter((e) => e.event === 'progress');
      expect(progress.length).toBeGreaterThan(0);
      for (const e of progress) expect(e.body).toMatchObject({ id: task_id, state: 'pending', design_id: design });
      const fractions = events.flatMap((e) => (e.body.progress === undefined ? [] : [TaskProgress.parse(e.body.progress).fraction]));
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
      expect(fractions.some((f) => f > 0 && f < 1)).toBe(true);
      expect((await status()).progress).toEqual({ fraction: 1, frames_done: 240, frames_total: 240, eta_seconds: 0 });

      if (opened?.workerPid !== undefined) {
        // Rendered by the other process: the progress came through the shared metadata store.
        const record = await opened.service.ctx.meta.getTask(task_id);
        expect(record?.state).toBe('done');
        expect(record?.progress?.framesDone).toBeGreaterThan(0);
      }
    },
  );

  it.skipIf(!backend.available)("interface B's task (B2) shows the same progress while pending and when done", { timeout: 180_000 }, async () => {
    const res = await fetch(`${base}/api/videos/${design}/render/?v=1.0`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: { demo: true } }),
    });
    expect(res.status).toBe(202);
    const { task_id } = (await res.json()) as { task_id: number };
    const status = async () => (await (await fetch(`${base}/api/queue/${task_id}/?v=1.0`, { headers: auth() })).json()) as Body;
    const seen: Progress[] = [];
    const done = await waitFor(
      `video task ${task_id} to end`,
      async () => {
        const t = await status();
        if (t.state === 'pending' && t.progress !== undefined) seen.push(TaskProgress.parse(t.progress));
        return t.state === 'done' || t.state === 'error' ? t : undefined;
      },
      120_000,
      50,
    );
    expect(done).toMatchObject({ state: 'done', progress: { fraction: 1, frames_done: 240, frames_total: 240, eta_seconds: 0 } });
    expect(seen.length).toBeGreaterThan(0);
    // (Pending may show fraction 1 for a moment: every frame is encoded and the file is being stored.)
    expect(seen.map((p) => p.frames_total)).toEqual(seen.map(() => 240));
    const fractions = seen.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });
});

describe('the worker writes progress throttled', () => {
  it('at most one write per 250 ms, the latest value, none queued behind a slow store, nothing after the end', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const writes: { at: number; frames: number; eta: number | null }[] = [];
      let release: (() => void) | undefined;
      const sink = new ProgressSink({
        now: () => Date.now(),
        startedAt: 0,
        onError: (e) => {
          throw e;
        },
        write: (p) => {
          writes.push({ at: Date.now(), frames: p.framesDone, eta: p.etaSeconds });
          return new Promise<void>((r) => (release = r));
        },
      });
      const report = (frames: number) => sink.report({ framesWritten: frames, framesEncoded: frames, totalFrames: 100, fraction: frames / 100 });
      vi.setSystemTime(1000);
      report(10);
      expect(writes).toEqual([{ at: 1000, frames: 10, eta: 9 }]);
      // The store has not answered: later reports wait, and only the latest is written.
      vi.setSystemTime(1400);
      report(20);
      report(30);
      expect(writes).toHaveLength(1);
      release!();
      await vi.advanceTimersByTimeAsync(0);
      expect(writes.at(-1)).toEqual({ at: 1400, frames: 30, eta: Math.round(((70 * 1.4) / 30) * 10) / 10 });
      release!();
      await vi.advanceTimersByTimeAsync(0);
      // 100 ms after a write: held until 250 ms have passed.
      vi.setSystemTime(1500);
      report(40);
      await vi.advanceTimersByTimeAsync(100);
      expect(writes).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(100);
      expect(writes.at(-1)).toMatchObject({ frames: 40 });
      release!();
      await sink.flush();
      report(100);
      await vi.advanceTimersByTimeAsync(1000);
      expect(writes.map((w) => w.frames)).toEqual([10, 30, 40]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a stored progress that cannot be read', () => {
  it('is no progress, not a failed status answer', () => {
    expect(progressOf('{"frames_done": 3, "frames_total": 10, "eta_seconds": 1.5}')).toEqual({ framesDone: 3, framesTotal: 10, etaSeconds: 1.5 });
    for (const bad of ['', '{', 'null', '"x"', '[]', '{"frames_done": 3}', '{"frames_done": 3, "frames_total": 0}']) expect(progressOf(bad)).toBeNull();
  });
});
