// node bench/recovery.mjs [<checkout>]: how long the embedded service (SQLite, folder, in-process queue)
// takes to take back the tasks a worker was rendering when the machine "crashed" (the worker process
// SIGKILLed): from the restart of a worker until both render again (and until both are done), with the
// default lease (30 s). Runs
// `imprint worker` of this checkout, or of another one (an earlier commit's worktree) for a before/after.
// Prints each round and the median, with the load average.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const ROUNDS = Number(process.env.BENCH_RUNS ?? 3);
const { Service } = await import(pathToFileURL(join(ROOT, 'dist', 'service', 'service.js')).href);
const { configFromEnv } = await import(pathToFileURL(join(ROOT, 'dist', 'service', 'config.js')).href);
const PROMO = join(ROOT, 'examples', 'promo-15s');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(check, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(20);
  }
  throw new Error('timed out');
}

function worker(env) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IMPRINT_')));
  return spawn(process.execPath, [join(ROOT, 'bin', 'imprint.js'), 'worker'], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const times = [];
for (let round = 1; round <= ROUNDS; round++) {
  const dir = await mkdtemp(join(tmpdir(), 'imprint-recovery-'));
  const env = { IMPRINT_DATA_DIR: dir, IMPRINT_WORKER_CONCURRENCY: '2', IMPRINT_LOG_LEVEL: 'error' };
  const service = await Service.open(configFromEnv(env));
  try {
    const { account } = await service.createAccount({ name: 'recovery' });
    await service.setPlan(account.id, { concurrency: 2, queue_size: 100 });
    const design = await service.importDesign(account.id, JSON.parse(await readFile(join(PROMO, 'design.json'), 'utf8')), { baseDir: PROMO });
    // Two 15 s videos rendering when the worker dies, as in the crash.
    for (let i = 0; i < 2; i++) await service.createTask(account.id, { designId: design.id, format: 'mp4' });
    const list = () => service.ctx.meta.listTasks(account.id);
    const first = worker(env);
    await until(async () => (await list()).filter((t) => t.state === 'pending').length === 2, 60_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const held = new Set((await list()).map((t) => t.workerId));
    const t0 = Date.now();
    const second = worker(env);
    // Taken back: both tasks rendering again under the new worker (or already ended).
    await until(async () => (await list()).every((t) => !held.has(t.workerId) || t.state === 'done'), 300_000);
    const ms = Date.now() - t0;
    await until(async () => (await list()).every((t) => t.state === 'done' || t.state === 'error'), 300_000);
    const all = Date.now() - t0;
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
    times.push(ms);
    console.log(`round ${round}: both tasks taken back ${(ms / 1000).toFixed(1)} s after the restart, done after ${(all / 1000).toFixed(1)} s`);
  } finally {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
}
times.sort((a, b) => a - b);
console.log(
  `median ${(times[times.length >> 1] / 1000).toFixed(1)} s over ${ROUNDS} rounds (${ROOT}); load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
