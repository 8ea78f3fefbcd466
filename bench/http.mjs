// HTTP bench of interface A (run by `npm run bench` after bench/queue.mjs, or alone with
// `node bench/http.mjs` after `npm run build`). The server is the embedded default as `imprint serve`
// runs it (SQLite file + folder blobs + in-process queue and worker, in a temp dir, with
// IMPRINT_POLL_INTERVAL_S=0), started in a child process (this file with --server), so the load
// generators here and the server do not share an event loop. Two runs against a 16×16 design:
//   GET  /public/v2/tasks/:id  one done task, BENCH_HTTP_STATUS_CONNECTIONS (50) connections (autocannon)
//   render while accepting     does the worker keep rendering under a flood of render requests?
//     1. no-flood drain: BENCH_HTTP_DRAIN_TASKS (2000) png tasks are queued on a backlog account, then
//        their completion is timed with no request coming in: the drain rate D (tasks/s).
//     2. flood: a backlog of D × the flood's length is queued (so the worker never runs out of work),
//        then BENCH_HTTP_FLOOD_ACCOUNTS (100) accounts on the BENCH_HTTP_FLOOD_PLAN (pro) plan each POST
//        a render at their plan's rate limit (pro: 300/min, i.e. one every 200 ms, each account with
//        its own random phase: independent clients, not one synchronised burst) for BENCH_HTTP_SECONDS
//        (10) after BENCH_HTTP_WARMUP_S (2). Reports accepted/s, tasks completed/s during the flood,
//        and their ratio to D (goal ≥ 0.8), then how long the rest took to drain.
// Goals: status p99 ≤ 20 ms at ≥ 2,000 requests/s; completed/s during the flood ≥ 0.8 × D.
// BENCH_HTTP_PROF=<dir> writes V8 CPU profiles of the server there and prints where the main
// thread's time went. Prints a table; merges its entries into bench/results/latest.json.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TINY_DESIGN } from './fixtures.mjs';
import { mergeResults, printTable } from './report.mjs';

const SELF = fileURLToPath(import.meta.url);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const WARMUP_S = Number(process.env.BENCH_HTTP_WARMUP_S ?? 2);
const STATUS_CONNECTIONS = Number(process.env.BENCH_HTTP_STATUS_CONNECTIONS ?? 50);
/** Accounts that flood POST /render, each at its plan's rate limit. */
const FLOOD_ACCOUNTS = Number(process.env.BENCH_HTTP_FLOOD_ACCOUNTS ?? 100);
const FLOOD_PLAN = process.env.BENCH_HTTP_FLOOD_PLAN ?? 'pro';
/** Keep-alive connections each flooding account's client keeps to the server. */
const CLIENT_SOCKETS = Number(process.env.BENCH_HTTP_CLIENT_SOCKETS ?? 2);
/** Tasks queued to measure the drain rate with no requests coming in. */
const DRAIN_TASKS = Number(process.env.BENCH_HTTP_DRAIN_TASKS ?? 2000);
const FLOOD_GOAL = 0.8;
/** Where the server renders (IMPRINT_SERVE_WORKER), one server per mode: e.g. `process,inline` to compare. */
const WORKER_MODES = (process.env.BENCH_HTTP_WORKER_MODES ?? process.env.IMPRINT_SERVE_WORKER ?? 'process').split(',').map((s) => s.trim());
/** Rounds of the flood run: each round runs every worker mode once, in turn. */
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 1);
/** How long to wait for the renders queued by the POST run to finish. */
const DRAIN_S = Number(process.env.BENCH_HTTP_DRAIN_S ?? 180);
// The server logs at info (the service default) to a file in its temp dir: its cost counts, no terminal
// sees it; the end of it is printed when the server fails.
const LOG_LEVEL = process.env.BENCH_HTTP_LOG ?? 'info';
const PROF_DIR = process.env.BENCH_HTTP_PROF;
/** Which runs: BENCH_HTTP_RUNS=status or =flood (e.g. to profile one of them alone); default both. */
const RUNS = (process.env.BENCH_HTTP_RUNS ?? 'status,flood').split(',').map((s) => s.trim());
const GOAL = { p99Ms: 20, rps: 2000 };

const design = TINY_DESIGN;

// ── bench mode ──────────────────────────────────────────────────────────────────────────────────
function startServer(dir, mode) {
  const env = {
    ...process.env,
    IMPRINT_SERVE_WORKER: mode,
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

const loadNow = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

/**
 * One POST /public/v2/render over a keep-alive agent; resolves with its status (0: no answer) and
 * latency. node:http rather than fetch: cheaper per request, and this process shares the 2 cores.
 */
function postRender(agent, base, key, body) {
  const url = new URL(`${base}/public/v2/render`);
  const t = performance.now();
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t }));
    req.end(body);
  });
}

/** Queues `n` tasks on one account as fast as `parallel` connections allow; throws unless all are accepted. */
async function queueBacklog(base, key, body, n, parallel = 8) {
  const agent = new Agent({ keepAlive: true, maxSockets: parallel });
  let left = n;
  const refused = {};
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (left > 0) {
        left--;
        const { status } = await postRender(agent, base, key, body);
        if (status !== 202) refused[status] = (refused[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  if (Object.keys(refused).length) throw new Error(`queueing the backlog was refused: ${JSON.stringify(refused)}`);
}

/** Polls the task counts until nothing is queued or pending (or `limitS` passes). */
async function drain(base, limitS) {
  const t = performance.now();
  let c = await taskCounts(base);
  while (c.queued + c.pending > 0 && performance.now() - t < limitS * 1000) {
    await sleep(100);
    c = await taskCounts(base);
  }
  return { counts: c, seconds: (performance.now() - t) / 1000 };
}

/**
 * An open-loop flood: every account sends one request per `intervalMs` from its own random phase,
 * whether or not its last one was answered (independent clients do not wait for each other, and a
 * slow server must not slow the load down). Each account is one client with its own pool of
 * CLIENT_SOCKETS keep-alive connections, as HTTP client libraries keep one per host: a request that
 * finds them all busy waits in the client, and its latency counts from when it was sent. (One shared
 * pool with no limit opened a new connection for every request that found none free: after any
 * hiccup, thousands of connections overflowed the server's listen queue and the kernel's SYN
 * retries, 1 s, 3 s, 7 s, became the p99.) Runs `seconds`; resolves when every request is answered.
 */
async function openLoopFlood(base, accounts, intervalMs, seconds) {
  const agents = accounts.map(() => new Agent({ keepAlive: true, maxSockets: CLIENT_SOCKETS }));
  const end = performance.now() + seconds * 1000;
  const answers = [];
  const sent = [];
  await Promise.all(
    accounts.map(async ({ key, body }, i) => {
      let next = performance.now() + Math.random() * intervalMs;
      while (next < end) {
        await sleep(Math.max(0, next - performance.now()));
        sent.push(postRender(agents[i], base, key, body).then((a) => answers.push(a)));
        next += intervalMs;
      }
    }),
  );
  await Promise.all(sent);
  for (const agent of agents) agent.destroy();
  return answers;
}

async function floodRun(base, { key, designId, flood, plan, slots }) {
  const body = JSON.stringify({ design_id: designId, format: 'png' });
  const before = await taskCounts(base);

  // 0. Warm-up (JIT, the render threads, SQLite's page cache): a first backlog, not measured.
  await queueBacklog(base, key, body, Math.ceil(DRAIN_TASKS / 4));
  await drain(base, DRAIN_S);
  // 1. No-flood drain rate: queue, then time the completion with nothing else coming in.
  await queueBacklog(base, key, body, DRAIN_TASKS);
  const d0 = await taskCounts(base);
  const drained0 = await drain(base, DRAIN_S);
  const drainedTasks = drained0.counts.done + drained0.counts.error - (d0.done + d0.error);
  const drainPerS = drainedTasks / drained0.seconds;
  const drainLoad = loadNow();

  // 2. The flood, over a backlog the worker cannot finish during it even at the no-flood pace.
  const floodS = WARMUP_S + SECONDS;
  await queueBacklog(base, key, body, Math.ceil(drainPerS * floodS * 1.2) + 100);
  const intervalMs = 60_000 / plan.requests_per_minute;
  let atStart;
  let atEnd;
  let minQueued = Infinity;
  const t0 = performance.now();
  const sampler = (async () => {
    await sleep(WARMUP_S * 1000);
    atStart = { counts: await taskCounts(base), t: performance.now() };
    while (performance.now() - t0 < floodS * 1000) {
      await sleep(250);
      const c = await taskCounts(base);
      minQueued = Math.min(minQueued, c.queued);
    }
    atEnd = { counts: await taskCounts(base), t: performance.now() };
  })();
  // Each account renders its own copy of the design (a design belongs to one account).
  const floodAccounts = flood.map((f) => ({ key: f.key, body: JSON.stringify({ design_id: f.design_id, format: 'png' }) }));
  const answers = await openLoopFlood(base, floodAccounts, intervalMs, floodS);
  await sampler;
  const loadFlood = loadNow();
  const runS = (atEnd.t - atStart.t) / 1000;
  const doneInRun = atEnd.counts.done + atEnd.counts.error - (atStart.counts.done + atStart.counts.error);
  const after = await drain(base, DRAIN_S);
  const codes = {};
  for (const a of answers) codes[a.status] = (codes[a.status] ?? 0) + 1;
  const lat = answers.map((a) => a.ms).sort((x, y) => x - y);
  const accepted = codes['202'] ?? 0;
  const donePerS = doneInRun / runS;
  return {
    name: `http POST render flood ${FLOOD_ACCOUNTS} ${FLOOD_PLAN} accounts, 16x16 png`,
    backend: 'SQLite file + in-process queue + folder blobs (embedded default)',
    unit: 'ms',
    accounts: FLOOD_ACCOUNTS,
    plan: FLOOD_PLAN,
    requests_per_minute_each: plan.requests_per_minute,
    seconds: floodS,
    log_level: LOG_LEVEL,
    slots,
    requests: answers.length,
    requests_per_s: r2(answers.length / floodS),
    accepted,
    accepted_per_s: r2(accepted / floodS),
    p50: r2(pct(lat, 50)),
    p90: r2(pct(lat, 90)),
    p99: r2(pct(lat, 99)),
    max: r2(lat.at(-1) ?? 0),
    non_2xx: answers.length - accepted - (codes['0'] ?? 0),
    errors: codes['0'] ?? 0,
    status_codes: codes,
    drain_tasks: drainedTasks,
    drain_per_s: r2(drainPerS),
    drain_loadavg: drainLoad,
    tasks_done_during_run: doneInRun,
    tasks_done_per_s_during_run: r2(donePerS),
    ratio: r2(donePerS / drainPerS),
    goal: `tasks done/s during the flood >= ${FLOOD_GOAL} x the no-flood drain rate`,
    goal_met: donePerS >= FLOOD_GOAL * drainPerS,
    worker_ran_dry: minQueued === 0,
    loadavg: loadFlood,
    queued_after_run: atEnd.counts.queued + atEnd.counts.pending,
    drain_after_s: r2(after.seconds),
    drained: after.counts.queued + after.counts.pending === 0,
    tasks_in_error: after.counts.error - before.error,
  };
}

/** One server (worker mode `mode`) and the runs asked of it; returns their entries. */
async function session(autocannon, mode, { status: doStatus, flood: doFlood, label }) {
  const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-http-'));
  const server = startServer(dir, mode);
  const entries = [];
  let serverStats;
  try {
    const { port, key, design_id: designId, slots, flood, plan } = await server.ready;
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${key}` };
    console.log(
      `interface A over HTTP${label}: server in a child process (embedded default: SQLite + folder + in-process queue, ${slots} render slot(s), worker: ${mode}, log level ${LOG_LEVEL}), load generators in this one; ${SECONDS} s per run after ${WARMUP_S} s warm-up; ${availableParallelism()} CPUs, node ${process.version}; load ${loadNow()}`,
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
    if (doStatus) {
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
        worker: mode,
        ...status,
        goal: `p99 <= ${GOAL.p99Ms} ms at >= ${GOAL.rps} requests/s`,
        goal_met: met,
        loadavg: loadNow(),
      });
      console.log(
        `GET status c${STATUS_CONNECTIONS}: ${status.requests_per_s} req/s, p50 ${status.p50} ms, p99 ${status.p99} ms, non-2xx ${status.non_2xx}, errors ${status.errors}; load ${loadNow()}`,
      );
    }

    // (b) render while accepting: the no-flood drain rate, then the completion rate under a flood.
    if (doFlood) {
      const e = await floodRun(base, { key, designId, flood, plan, slots });
      e.name = `${e.name}, worker ${mode}${label}`;
      e.worker = mode;
      entries.push(e);
      console.log(
        `no-flood drain: ${e.drain_tasks} tasks at ${e.drain_per_s}/s (load ${e.drain_loadavg}); ` +
          `flood: ${FLOOD_ACCOUNTS} ${FLOOD_PLAN} accounts at ${plan.requests_per_minute}/min each: ${e.accepted_per_s} accepted/s ` +
          `(p50 ${e.p50} ms, p99 ${e.p99} ms, non-2xx ${e.non_2xx}, errors ${e.errors}), ${e.tasks_done_during_run} done during the run = ${e.tasks_done_per_s_during_run}/s` +
          `${e.worker_ran_dry ? ' (the backlog ran out: the worker was not kept busy)' : ''}; ratio ${e.ratio} (goal ≥ ${FLOOD_GOAL}); ` +
          `load ${e.loadavg}; ${e.queued_after_run} left, drained in ${e.drain_after_s} s${e.drained ? '' : ' (NOT drained)'}, ${e.tasks_in_error} in error`,
      );
    }
  } finally {
    serverStats = await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  if (serverStats) {
    for (const e of entries) e.server_peak_rss_mb = r2(serverStats.peak_rss_mb);
    console.log(
      `server: cpu user ${r2(serverStats.cpu_user_s)} s, system ${r2(serverStats.cpu_system_s)} s, peak RSS ${r2(serverStats.peak_rss_mb)} MB (its worker process not counted)${PROF_DIR ? `; CPU profiles in ${PROF_DIR}` : ''}`,
    );
  }
  if (PROF_DIR) summariseProfile(PROF_DIR, serverStats?.pid);
  return entries;
}

async function bench() {
  const { default: autocannon } = await import('autocannon');
  if (PROF_DIR) mkdirSync(PROF_DIR, { recursive: true });
  const entries = [];
  // A against B: the modes alternate round by round, so a neighbour's load falls on both alike.
  const rounds = [];
  for (let r = 1; r <= ROUNDS; r++) for (const mode of WORKER_MODES) rounds.push({ mode, label: ROUNDS > 1 ? ` #${r}` : '' });
  for (const [i, { mode, label }] of rounds.entries()) {
    const doStatus = i === 0 && RUNS.includes('status');
    const doFlood = RUNS.includes('flood');
    if (doStatus || doFlood) entries.push(...(await session(autocannon, mode, { status: doStatus, flood: doFlood, label })));
  }

  const cols = [
    ['run', (e) => e.name.replace(/^http /, '')],
    ['req/s', (e) => e.requests_per_s.toFixed(0)],
    ['p50 ms', (e) => e.p50.toFixed(2)],
    ['p90 ms', (e) => e.p90.toFixed(2)],
    ['p99 ms', (e) => e.p99.toFixed(2)],
    ['max ms', (e) => e.max.toFixed(2)],
    ['non-2xx', (e) => String(e.non_2xx + e.errors)],
    ['done/s in flood', (e) => (e.tasks_done_per_s_during_run === undefined ? '' : String(e.tasks_done_per_s_during_run))],
    ['no-flood drain/s', (e) => (e.drain_per_s === undefined ? '' : String(e.drain_per_s))],
    ['ratio', (e) => (e.ratio === undefined ? '' : String(e.ratio))],
  ];
  printTable(cols, entries);
  for (const flooded of entries.filter((e) => e.ratio !== undefined))
    console.log(
      `goal (worker ${flooded.worker}): tasks done during the flood ≥ ${FLOOD_GOAL} × the no-flood drain rate: ${flooded.goal_met ? 'met' : 'NOT met'} (${flooded.tasks_done_per_s_during_run}/s against ${flooded.drain_per_s}/s, ${flooded.accepted_per_s} accepted/s; load ${flooded.loadavg})`,
    );
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
  const { workerModeFromEnv } = await import('../dist/cli/worker-process.js');
  const config = configFromEnv();
  // Where renders run, as `imprint serve` decides it (IMPRINT_SERVE_WORKER; a child process by default).
  const running = await startService(config, { seed: false, http: true, worker: workerModeFromEnv() });
  const { service } = running;
  // The bench's own account queues backlogs (and the status run's task): its limits are raised.
  const { account, apiKey } = await service.createAccount({ name: 'bench' });
  await service.setPlan(account.id, { requests_per_minute: 1_000_000, queue_size: 1_000_000, concurrency: Math.min(64, config.workerConcurrency) });
  const { id: designId } = await service.importDesign(account.id, design);
  // The flood's accounts keep their plan's limits: they send at its rate limit, as real clients may.
  const flood = [];
  let rpm = 0;
  for (let i = 0; i < FLOOD_ACCOUNTS; i++) {
    const a = await service.createAccount({ name: `flood-${i}`, plan: FLOOD_PLAN });
    const d = await service.importDesign(a.account.id, design);
    flood.push({ key: a.apiKey, design_id: d.id });
    rpm = a.account.plan.requestsPerMinute;
  }
  const port = running.http.app.server.address().port;
  process.stdout.write(
    `${JSON.stringify({ ready: true, port, key: apiKey, design_id: designId, slots: config.workerConcurrency, flood, plan: { requests_per_minute: rpm } })}\n`,
  );
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
