// Queue overhead bench (spawned by bench/render.mjs after the render cases, or run alone:
// `node bench/queue.mjs` after `npm run build`). A trivial 16×16 png task goes queue → worker →
// result through the service, once per metadata/queue backend:
//   sqlite+local     the embedded default: SQLite file in a temp dir, in-process queue, folder blobs
//   postgres+local   a fresh PostgreSQL database (created and dropped here), in-process queue
//   postgres+bullmq  the same with BullMQ on Redis (a queue of its own, obliterated after)
// A backend whose server is not reachable is skipped with a note.
// Per backend: throughput (TASKS tasks enqueued as fast as one producer can, until all are done) and
// latency (queue-to-done = finishedAt − createdAt, one task at a time: the next is submitted when the
// previous completes, so the latency is overhead + render, not queueing). Latency runs in blocks that
// alternate with the same job rendered in this process (an Engine with threads: 0) and through a
// RenderPool thread, so the three share the machine's noise; overhead = p50 latency − render p50.
// Prints a table; merges its entries into bench/results/latest.json.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import pg from 'pg';
import { pino } from 'pino';
import { Engine } from '../dist/index.js';
import { configFromEnv } from '../dist/service/config.js';
import { Service } from '../dist/service/service.js';
import { RenderPool } from '../dist/render/pool.js';
import { TaskWorker } from '../dist/worker/worker.js';
import { TINY_DESIGN } from './fixtures.mjs';
import { mergeResults, printTable } from './report.mjs';

const TASKS = Number(process.env.BENCH_QUEUE_TASKS ?? 1000);
const WARMUP = Number(process.env.BENCH_QUEUE_WARMUP ?? 50);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 50);
const SLOTS = Number(process.env.BENCH_QUEUE_SLOTS ?? availableParallelism());
/** e.g. BENCH_QUEUE_BACKENDS=sqlite+local,postgres+local; default: all */
const ONLY = process.env.BENCH_QUEUE_BACKENDS?.split(',').map((s) => s.trim());
// Workers log every task at info (the service default); the lines go to /dev/null, so their cost counts
// but no terminal does. BENCH_QUEUE_LOG=silent measures without logging.
const LOG_LEVEL = process.env.BENCH_QUEUE_LOG ?? 'info';
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = (process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '');
/** Where the configuration takes no IMPRINT_QUEUE_NAME, the default name runs in a Redis db of its own. */
const BULLMQ_DEFAULT_NAME = 'imprint-tasks';
/** No task finished for this long: something is stuck; fail rather than hang. */
const STALL_MS = 60_000;

const design = TINY_DESIGN;
const overrides = { dot: { x: 3, opacity: 0.9 } };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r2 = (x) => +x.toFixed(2);
const rss = () => process.resourceUsage().maxRSS / 1024;

function reachable(url) {
  const u = new URL(url);
  return new Promise((done) => {
    const s = createConnection({ host: u.hostname, port: Number(u.port) }, () => {
      s.destroy();
      done(true);
    });
    s.setTimeout(1000, () => {
      s.destroy();
      done(false);
    });
    s.on('error', () => done(false));
  });
}

// ── backends: each opens its stores and returns the env for configFromEnv and a cleanup ──────────
async function freshPostgres() {
  const name = `imprint_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (q) => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * Where the bench's BullMQ jobs go: a queue name of its own when the configuration takes one
 * (IMPRINT_QUEUE_NAME), otherwise the default name in a Redis db index that has no keys. Either way
 * the queue is obliterated afterwards.
 */
async function freshRedisQueue() {
  if ('queueName' in configFromEnv({})) {
    const name = `imprint-bench-${randomBytes(6).toString('hex')}`;
    return { env: { IMPRINT_QUEUE_URL: REDIS_URL, IMPRINT_QUEUE_NAME: name }, clean: () => obliterate(REDIS_URL, name) };
  }
  for (let db = 1; db < 16; db++) {
    const url = `${REDIS_URL}/${db}`;
    const q = new Queue(BULLMQ_DEFAULT_NAME, { connection: { url } });
    q.on('error', () => undefined);
    const empty = (await (await q.client).dbsize()) === 0;
    await q.close();
    if (empty) return { env: { IMPRINT_QUEUE_URL: url }, clean: () => obliterate(url, BULLMQ_DEFAULT_NAME) };
  }
  throw new Error(`no empty Redis db index (1–15) at ${REDIS_URL} and no IMPRINT_QUEUE_NAME setting`);
}

async function obliterate(url, name) {
  const q = new Queue(name, { connection: { url } });
  q.on('error', () => undefined);
  try {
    await q.obliterate({ force: true });
  } finally {
    await q.close();
  }
}

const BACKENDS = [
  {
    name: 'sqlite+local',
    label: 'SQLite file + in-process queue + folder blobs (embedded default)',
    needs: [],
    open: async () => ({ env: {}, cleanup: async () => undefined }),
  },
  {
    name: 'postgres+local',
    label: 'PostgreSQL + in-process queue + folder blobs',
    needs: [['PostgreSQL', PG_ADMIN_URL]],
    open: async () => {
      const db = await freshPostgres();
      return { env: { IMPRINT_DATABASE_URL: db.url }, cleanup: db.drop };
    },
  },
  {
    name: 'postgres+bullmq',
    label: 'PostgreSQL + BullMQ on Redis + folder blobs',
    needs: [
      ['PostgreSQL', PG_ADMIN_URL],
      ['Redis', REDIS_URL],
    ],
    open: async () => {
      const db = await freshPostgres();
      let redis;
      try {
        redis = await freshRedisQueue();
      } catch (e) {
        await db.drop();
        throw e;
      }
      return {
        env: { IMPRINT_DATABASE_URL: db.url, ...redis.env },
        cleanup: async () => {
          await redis.clean().catch((e) => console.warn(`  could not clean the BullMQ queue: ${e.message}`));
          await db.drop();
        },
      };
    },
  },
];

// ── the same job outside the queue ──────────────────────────────────────────────────────────────
const job = { design, overrides, format: 'png', assets: true, progress: false };
const noAssets = async () => {
  throw new Error('the bench design has no files');
};
const inProcess = new Engine({ threads: 0 });
const renderInProcess = () => inProcess.render({ design, overrides, format: 'png' });

// ── one backend ─────────────────────────────────────────────────────────────────────────────────
async function runBackend(backend, pool, logger) {
  const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-queue-'));
  const { env, cleanup } = await backend.open();
  let svc;
  let worker;
  try {
    const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_WORKER_CONCURRENCY: String(SLOTS), IMPRINT_LOG_LEVEL: LOG_LEVEL, ...env });
    svc = await Service.open(config, { log: logger });
    if (env.IMPRINT_QUEUE_NAME && svc.ctx.queue.name !== env.IMPRINT_QUEUE_NAME) {
      throw new Error(`the service opened BullMQ queue "${svc.ctx.queue.name}", not "${env.IMPRINT_QUEUE_NAME}": the bench would share another queue`);
    }
    const { account } = await svc.createAccount({ name: 'bench' });
    await svc.setPlan(account.id, { concurrency: SLOTS, queue_size: Math.max(1000, TASKS + WARMUP) });
    const { id: designId } = await svc.importDesign(account.id, design);

    // Completions, by task id, at the moment the worker's hook sees them.
    const done = new Map();
    const waiting = new Map();
    let lastProgress = performance.now();
    let all;
    const onComplete = (task) => {
      const at = performance.now();
      lastProgress = at;
      done.set(task.id, { task, at });
      waiting.get(task.id)?.();
      if (all && done.size >= all.count) all.resolve();
    };
    const stalled = setInterval(() => {
      if (performance.now() - lastProgress < STALL_MS) return;
      const fail = all?.reject ?? [...waiting.values()][0]?.reject;
      fail?.(new Error(`no task finished for ${STALL_MS / 1000} s on ${backend.name}`));
    }, 1000);
    stalled.unref();
    const check = (t) => {
      if (t.state !== 'done') throw new Error(`task ${t.id} ended in ${t.state}: ${t.error}`);
      return t;
    };
    const submit = () => svc.createTask(account.id, { designId, format: 'png', overrides });
    const waitFor = (id) =>
      new Promise((resolve, reject) => {
        const settle = () => {
          waiting.delete(id);
          resolve(done.get(id));
        };
        if (done.has(id)) return settle();
        settle.reject = reject;
        waiting.set(id, settle);
      });
    /** Enqueues n tasks back to back (one producer), resolves when all are done. */
    const burst = async (n) => {
      done.clear();
      const finished = new Promise((resolve, reject) => (all = { count: n, resolve, reject }));
      finished.catch(() => undefined); // a stall is reported where it is awaited
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await submit();
      const enqueued = performance.now() - t0;
      await finished;
      const elapsed = performance.now() - t0;
      all = undefined;
      for (const { task } of done.values()) check(task);
      return { enqueued, elapsed };
    };
    /** One task at a time: the next is submitted once the previous has completed. */
    const one = async () => {
      const t0 = performance.now();
      const task = await submit();
      const t1 = performance.now();
      const d = await waitFor(task.id);
      done.delete(task.id);
      const t = check(d.task);
      return {
        queueToDone: t.finishedAt - t.createdAt,
        wait: t.startedAt - t.createdAt,
        run: t.finishedAt - t.startedAt,
        submitToDone: d.at - t0,
        submitCall: t1 - t0,
        afterSubmit: d.at - t1,
      };
    };

    worker = new TaskWorker(svc.ctx, { slots: SLOTS, onComplete });
    worker.start();

    // Warm-up: a burst and a few single tasks through the service, and the job outside it.
    await burst(WARMUP);
    for (let i = 0; i < WARMUP; i++) await one();
    for (let i = 0; i < WARMUP; i++) await renderInProcess();
    for (let i = 0; i < WARMUP; i++) await pool.run(job, { assets: noAssets });

    // (a) throughput
    const tp = await burst(TASKS);

    // (b) latency, in blocks alternating with (c) the render alone and the thread round trip
    const lat = [];
    const alone = [];
    const thread = [];
    for (let n = 0; n < TASKS; n += BLOCK) {
      const k = Math.min(BLOCK, TASKS - n);
      for (let i = 0; i < k; i++) lat.push(await one());
      for (let i = 0; i < k; i++) {
        const t = performance.now();
        await renderInProcess();
        alone.push(performance.now() - t);
      }
      for (let i = 0; i < k; i++) {
        const t = performance.now();
        await pool.run(job, { assets: noAssets });
        thread.push(performance.now() - t);
      }
    }
    clearInterval(stalled);

    const q = lat.map((x) => x.queueToDone);
    const hires = lat.map((x) => x.submitToDone);
    const renderP50 = pct(alone, 50);
    const poolP50 = pct(thread, 50);
    const p50 = pct(q, 50);
    return {
      name: `queue ${backend.name} 16x16 png`,
      backend: backend.label,
      unit: 'ms',
      tasks: TASKS,
      slots: SLOTS,
      log_level: LOG_LEVEL,
      tasks_per_s: r2((TASKS / tp.elapsed) * 1000),
      enqueue_per_s: r2((TASKS / tp.enqueued) * 1000),
      // queue-to-done from the task's own stamps (whole milliseconds: the service clock is Date.now)
      p50,
      p90: pct(q, 90),
      p95: pct(q, 95),
      mean: r2(mean(q)),
      // the same span measured here with performance.now(): createTask called → completion hook
      submit_to_done_p50: r2(pct(hires, 50)),
      submit_to_done_p90: r2(pct(hires, 90)),
      create_task_call_p50: r2(
        pct(
          lat.map((x) => x.submitCall),
          50,
        ),
      ),
      after_create_task_p50: r2(
        pct(
          lat.map((x) => x.afterSubmit),
          50,
        ),
      ),
      wait_mean: r2(mean(lat.map((x) => x.wait))),
      run_mean: r2(mean(lat.map((x) => x.run))),
      render_p50: r2(renderP50),
      pool_run_p50: r2(poolP50),
      thread_round_trip_p50: r2(poolP50 - renderP50),
      overhead_p50: r2(p50 - renderP50),
      overhead_hires_p50: r2(pct(hires, 50) - renderP50),
      baseline: 'render 16x16 png in process',
      baseline_p50: r2(renderP50),
      ratio_to_baseline: r2(p50 / renderP50),
      peak_rss_mb: r2(rss()),
    };
  } finally {
    await worker?.stop(5000);
    await svc?.close();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ── run ─────────────────────────────────────────────────────────────────────────────────────────
const dest = pino.destination({ dest: '/dev/null', sync: false });
const logger = pino({ level: LOG_LEVEL, base: { pid: process.pid } }, dest);
const pool = new RenderPool({ size: 1, timeoutMs: 120_000, memoryMb: 2048, imageCacheBytes: 32 * 1024 * 1024 });
const entries = [];
console.log(
  `queue overhead: ${TASKS} tasks of a 16×16 png per backend after ${WARMUP} warm-up, ${SLOTS} slots, log level ${LOG_LEVEL}, node ${process.version}`,
);
try {
  for (const backend of BACKENDS) {
    if (ONLY && !ONLY.includes(backend.name)) continue;
    const missing = [];
    for (const [what, url] of backend.needs) if (!(await reachable(url))) missing.push(`${what} is not reachable at ${url}`);
    if (missing.length) {
      console.log(`${backend.name}: skipped (${missing.join('; ')})`);
      continue;
    }
    const e = await runBackend(backend, pool, logger);
    entries.push(e);
    console.log(
      `${backend.name}: ${e.tasks_per_s} tasks/s | queue-to-done p50 ${e.p50} ms p90 ${e.p90} ms (hi-res p50 ${e.submit_to_done_p50} ms) | render ${e.render_p50} ms, in a thread ${e.pool_run_p50} ms | overhead ${e.overhead_p50} ms (hi-res ${e.overhead_hires_p50} ms)`,
    );
  }
} finally {
  await pool.close();
  dest.end();
}

if (entries.length) {
  const cols = [
    ['backend', (e) => e.name.replace(/^queue | 16x16 png$/g, '')],
    ['tasks/s', (e) => e.tasks_per_s.toFixed(0)],
    ['p50 ms', (e) => String(e.p50)],
    ['p90 ms', (e) => String(e.p90)],
    ['hi-res p50', (e) => e.submit_to_done_p50.toFixed(2)],
    ['render ms', (e) => e.render_p50.toFixed(2)],
    ['thread ms', (e) => e.pool_run_p50.toFixed(2)],
    ['overhead ms', (e) => e.overhead_p50.toFixed(2)],
    ['hi-res overhead', (e) => e.overhead_hires_p50.toFixed(2)],
  ];
  printTable(cols, entries);
  const embedded = entries.find((e) => e.name.includes('sqlite+local'));
  if (embedded) console.log(`embedded default: overhead per task ${embedded.overhead_p50} ms (goal ≤ 5 ms) ${embedded.overhead_p50 <= 5 ? 'met' : 'NOT met'}`);

  mergeResults(entries);
}
