// HTTP bench of interface A (run by `npm run bench` after bench/queue.mjs, or alone with
// `node bench/http.mjs` after `npm run build`). The server is the embedded default as `imprint serve`
// runs it (SQLite file + folder blobs + in-process queue and worker, in a temp dir, with
// IMPRINT_POLL_INTERVAL_S=0 and the account's requests_per_minute and queue_size raised), started in a
// child process (this file with --server), so autocannon here and the server do not share an event
// loop. Two runs against a 16×16 design:
//   GET  /public/v2/tasks/:id  one done task, BENCH_HTTP_STATUS_CONNECTIONS (50) connections
//   POST /public/v2/render     png of the tiny design, BENCH_HTTP_RENDER_CONNECTIONS (10) connections;
//                              the worker renders them; reports how many got done during the run
//                              and how long the rest took to drain.
// Each run lasts BENCH_HTTP_SECONDS (10) after a BENCH_HTTP_WARMUP_S (2) warm-up. Goal: status p99
// ≤ 20 ms at ≥ 2,000 requests/s. BENCH_HTTP_PROF=<dir> writes V8 CPU profiles of the server there
// and prints where the main thread's time went.
// Prints a table; merges its entries into bench/results/latest.json.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TINY_DESIGN } from './fixtures.mjs';
import { mergeResults, printTable } from './report.mjs';

const SELF = fileURLToPath(import.meta.url);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const WARMUP_S = Number(process.env.BENCH_HTTP_WARMUP_S ?? 2);
const STATUS_CONNECTIONS = Number(process.env.BENCH_HTTP_STATUS_CONNECTIONS ?? 50);
const RENDER_CONNECTIONS = Number(process.env.BENCH_HTTP_RENDER_CONNECTIONS ?? 10);
/** How long to wait for the renders queued by the POST run to finish. */
const DRAIN_S = Number(process.env.BENCH_HTTP_DRAIN_S ?? 180);
// The server logs at info (the service default) to a file in its temp dir: its cost counts, no terminal
// sees it; the end of it is printed when the server fails.
const LOG_LEVEL = process.env.BENCH_HTTP_LOG ?? 'info';
const PROF_DIR = process.env.BENCH_HTTP_PROF;
/** Which runs: BENCH_HTTP_RUNS=status (e.g. to profile one of them alone); default both. */
const RUNS = (process.env.BENCH_HTTP_RUNS ?? 'status,render').split(',').map((s) => s.trim());
const GOAL = { p99Ms: 20, rps: 2000 };

const design = TINY_DESIGN;

// ── bench mode ──────────────────────────────────────────────────────────────────────────────────
function startServer(dir) {
  const env = {
    ...process.env,
    IMPRINT_DATA_DIR: dir,
    IMPRINT_PORT: '0',
    IMPRINT_HOST: '127.0.0.1',
    IMPRINT_POLL_INTERVAL_S: '0',
    IMPRINT_LOG_LEVEL: LOG_LEVEL,
  };
  for (const k of ['IMPRINT_DATABASE_URL', 'IMPRINT_QUEUE_URL', 'IMPRINT_BLOBS_URL', 'IMPRINT_BASE_URL']) delete env[k];
  const execArgv = PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROF_DIR] : [];
  const logFile = join(dir, 'server.log');
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...execArgv, SELF, '--server'], { env, stdio: ['ignore', 'pipe', log] });
  closeSync(log);
  const logTail = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-20).join('\n') : '');
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  const seen = [];
  lines.on('line', (line) => {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    seen.push(msg);
    for (const w of waiting.splice(0)) w();
  });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const m = seen.find((x) => x[key]);
        if (m) return resolve(m);
        if (child.exitCode !== null) return reject(new Error(`the server exited with ${child.exitCode} before "${key}":\n${logTail()}`));
        waiting.push(check);
      };
      child.once('exit', () => waiting.splice(0).forEach((w) => w()));
      check();
    });
  return {
    child,
    logTail,
    ready: next('ready'),
    stop: async () => {
      if (child.exitCode !== null) return undefined;
      const stopped = next('stopped').catch(() => undefined);
      child.kill('SIGTERM');
      const exited = new Promise((r) => child.once('exit', r));
      const timeout = (ms) => new Promise((r) => setTimeout(r, ms).unref());
      const result = await Promise.race([stopped, timeout(60_000)]);
      await Promise.race([exited, timeout(5000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
      return result;
    },
  };
}

const r2 = (x) => +Number(x).toFixed(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function taskCounts(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const count = (state) => Number(new RegExp(`^imprint_tasks\\{state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { queued: count('queued'), pending: count('pending'), done: count('done'), error: count('error') };
}

async function run(autocannon, opts) {
  const result = await autocannon({ ...opts, duration: opts.duration ?? SECONDS });
  const non2xx = result.non2xx ?? 0;
  return {
    requests_per_s: r2(result.requests.average),
    requests: result.requests.total,
    p50: r2(result.latency.p50),
    p90: r2(result.latency.p90),
    p99: r2(result.latency.p99),
    max: r2(result.latency.max),
    mean: r2(result.latency.average),
    non_2xx: non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    status_codes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count])),
  };
}

async function bench() {
  const { default: autocannon } = await import('autocannon');
  const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-http-'));
  if (PROF_DIR) mkdirSync(PROF_DIR, { recursive: true });
  const server = startServer(dir);
  const entries = [];
  let serverStats;
  try {
    const { port, key, design_id: designId, slots } = await server.ready;
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${key}` };
    console.log(
      `interface A over HTTP: server in a child process (embedded default: SQLite + folder + in-process queue, ${slots} render slot(s), log level ${LOG_LEVEL}), autocannon in this one; ${SECONDS} s per run after ${WARMUP_S} s warm-up; ${availableParallelism()} CPUs, node ${process.version}`,
    );

    // One done task to poll.
    const renderBody = JSON.stringify({ design_id: designId, format: 'png' });
    const accepted = await fetch(`${base}/public/v2/render`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: renderBody });
    if (accepted.status !== 202) throw new Error(`render answered ${accepted.status}: ${await accepted.text()}`);
    const { task_id: taskId } = await accepted.json();
    for (let i = 0; ; i++) {
      const t = await (await fetch(`${base}/public/v2/tasks/${taskId}`, { headers })).json();
      if (t.state === 'done') break;
      if (t.state === 'error' || i > 600) throw new Error(`the bench task did not render: ${JSON.stringify(t)}`);
      await sleep(50);
    }

    // (a) task status
    if (RUNS.includes('status')) {
      const statusOpts = { url: `${base}/public/v2/tasks/${taskId}`, connections: STATUS_CONNECTIONS, headers };
      await run(autocannon, { ...statusOpts, duration: WARMUP_S });
      const status = await run(autocannon, statusOpts);
      const met = status.p99 <= GOAL.p99Ms && status.requests_per_s >= GOAL.rps && status.non_2xx === 0 && status.errors === 0;
      entries.push({
        name: `http GET task status c${STATUS_CONNECTIONS}`,
        backend: 'SQLite file + in-process queue + folder blobs (embedded default)',
        unit: 'ms',
        connections: STATUS_CONNECTIONS,
        seconds: SECONDS,
        log_level: LOG_LEVEL,
        ...status,
        goal: `p99 <= ${GOAL.p99Ms} ms at >= ${GOAL.rps} requests/s`,
        goal_met: met,
      });
      console.log(
        `GET status c${STATUS_CONNECTIONS}: ${status.requests_per_s} req/s, p50 ${status.p50} ms, p99 ${status.p99} ms, non-2xx ${status.non_2xx}, errors ${status.errors}`,
      );
    }

    // (b) render requests; the worker renders them meanwhile.
    if (RUNS.includes('render')) {
      const before = await taskCounts(base);
      const renderOpts = {
        url: `${base}/public/v2/render`,
        method: 'POST',
        connections: RENDER_CONNECTIONS,
        headers: { ...headers, 'content-type': 'application/json' },
        body: renderBody,
      };
      await run(autocannon, { ...renderOpts, duration: WARMUP_S });
      const warmed = await taskCounts(base);
      const t0 = performance.now();
      const render = await run(autocannon, renderOpts);
      const during = await taskCounts(base);
      const runS = (performance.now() - t0) / 1000;
      const accepted202 = render.status_codes['202'] ?? 0;
      // Let the backlog drain (warm-up tasks included) to see the worker's pace.
      let drained = during;
      const t1 = performance.now();
      while (drained.queued + drained.pending > 0 && performance.now() - t1 < DRAIN_S * 1000) {
        await sleep(250);
        drained = await taskCounts(base);
      }
      const drainS = (performance.now() - t1) / 1000;
      const doneInRun = during.done - warmed.done;
      const total = drained.done + drained.error - (before.done + before.error);
      entries.push({
        name: `http POST render 16x16 png c${RENDER_CONNECTIONS}`,
        backend: 'SQLite file + in-process queue + folder blobs (embedded default)',
        unit: 'ms',
        connections: RENDER_CONNECTIONS,
        seconds: SECONDS,
        log_level: LOG_LEVEL,
        slots,
        ...render,
        accepted: accepted202,
        tasks_done_during_run: doneInRun,
        tasks_done_per_s_during_run: r2(doneInRun / runS),
        queued_after_run: during.queued + during.pending,
        drain_s: r2(drainS),
        drained: drained.queued + drained.pending === 0,
        tasks_finished_total: total,
        tasks_in_error: drained.error - before.error,
      });
      console.log(
        `POST render c${RENDER_CONNECTIONS}: ${render.requests_per_s} req/s, p50 ${render.p50} ms, p99 ${render.p99} ms, ${accepted202} accepted, non-2xx ${render.non_2xx}, errors ${render.errors}; ` +
          `${doneInRun} done during the run (${r2(doneInRun / runS)}/s), ${during.queued + during.pending} left, drained in ${r2(drainS)} s${drained.queued + drained.pending ? ` (NOT drained: ${drained.queued + drained.pending} left)` : ''}, ${drained.error - before.error} in error`,
      );
    }
  } finally {
    serverStats = await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  if (serverStats) {
    for (const e of entries) e.server_peak_rss_mb = r2(serverStats.peak_rss_mb);
    console.log(
      `server: cpu user ${r2(serverStats.cpu_user_s)} s, system ${r2(serverStats.cpu_system_s)} s, peak RSS ${r2(serverStats.peak_rss_mb)} MB${PROF_DIR ? `; CPU profiles in ${PROF_DIR}` : ''}`,
    );
  }
  if (PROF_DIR) summariseProfile(PROF_DIR, serverStats?.pid);

  const cols = [
    ['run', (e) => e.name.replace(/^http /, '')],
    ['req/s', (e) => e.requests_per_s.toFixed(0)],
    ['p50 ms', (e) => e.p50.toFixed(2)],
    ['p90 ms', (e) => e.p90.toFixed(2)],
    ['p99 ms', (e) => e.p99.toFixed(2)],
    ['max ms', (e) => e.max.toFixed(2)],
    ['non-2xx', (e) => String(e.non_2xx + e.errors)],
    [
      'tasks done',
      (e) => (e.tasks_done_during_run === undefined ? '' : `${e.tasks_done_during_run} (+${e.tasks_finished_total - e.tasks_done_during_run} drain)`),
    ],
  ];
  printTable(cols, entries);
  const status = entries.find((e) => e.name.startsWith('http GET'));
  if (status)
    console.log(
      `goal: status p99 ≤ ${GOAL.p99Ms} ms at ≥ ${GOAL.rps} requests/s: ${status.goal_met ? 'met' : 'NOT met'} (${status.p99} ms at ${status.requests_per_s} requests/s)`,
    );

  if (entries.length) {
    mergeResults(entries);
  }
}

/** Self time of the server's main thread by package/file and by function, from its .cpuprofile. */
function summariseProfile(dir, pid) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile') && (pid === undefined || f.includes(`.${pid}.`)))
    .map((f) => join(dir, f));
  // The main thread runs everything but the renders: its profile is the largest.
  const file = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!file) return;
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(prof.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const byGroup = new Map();
  const byFn = new Map();
  for (const [id, t] of self) {
    const { url, functionName, lineNumber } = nodes.get(id);
    const group = !url
      ? functionName || '(native)'
      : /node_modules\//.test(url)
        ? url.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1')
        : /\/dist\//.test(url)
          ? `dist/${url.replace(/^.*\/dist\//, '')}`
          : url.startsWith('node:')
            ? 'node internals'
            : url;
    const where = url.includes('node_modules/') ? url.replace(/^.*node_modules\//, '') : url.replace(/^.*\/dist\//, 'dist/');
    const fn = `${functionName || '(anonymous)'}${url ? ` ${where}:${lineNumber + 1}` : ''}`;
    byGroup.set(group, (byGroup.get(group) ?? 0) + t);
    byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  }
  const top = (m, n) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, t]) => `  ${((100 * t) / total).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(6)} ms  ${k}`)
      .join('\n');
  console.log(
    `server main thread (${file}), ${(total / 1e6).toFixed(1)} s sampled; self time by package/file:\n${top(byGroup, 15)}\nby function:\n${top(byFn, 20)}`,
  );
}

// ── server mode: the child process ──────────────────────────────────────────────────────────────
async function serve() {
  const { configFromEnv } = await import('../dist/service/config.js');
  const { startService } = await import('../dist/cli/serve.js');
  const config = configFromEnv();
  const running = await startService(config, { seed: false, http: true });
  const { service } = running;
  const { account, apiKey } = await service.createAccount({ name: 'bench' });
  await service.setPlan(account.id, { requests_per_minute: 1_000_000, queue_size: 1_000_000, concurrency: Math.min(64, config.workerConcurrency) });
  const { id: designId } = await service.importDesign(account.id, design);
  const port = running.http.app.server.address().port;
  process.stdout.write(`${JSON.stringify({ ready: true, port, key: apiKey, design_id: designId, slots: config.workerConcurrency })}\n`);
  const stop = async () => {
    await running.stop();
    const cpu = process.cpuUsage();
    process.stdout.write(
      `${JSON.stringify({ stopped: true, pid: process.pid, cpu_user_s: cpu.user / 1e6, cpu_system_s: cpu.system / 1e6, peak_rss_mb: process.resourceUsage().maxRSS / 1024 })}\n`,
    );
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (process.argv[2] === '--server') await serve();
else await bench();
