// Bench of POST /public/v2/preview (run by `npm run bench` after bench/http.mjs, or alone with
// `node bench/preview.mjs` after `npm run build`). The service runs in this process as `imprint serve`
// builds it (SQLite file + folder blobs in a temp dir, the HTTP server on an ephemeral port, previews in
// its preview threads: IMPRINT_PREVIEW_THREADS, default 1); no worker, since a preview stores no task.
// examples/card-1080 with its overrides (its photo uploaded, as an API user would) at scale 0.5, one
// request in flight, BENCH_PREVIEW_RUNS (200) per case after BENCH_PREVIEW_WARMUP (20):
//   png, jpg          the image answer
//   png as JSON       Accept: application/json (the Studio's form: a data URL and the fit report)
// For each: p50 and p99 of the server time (its Server-Timing render;dur, everything the service does
// for the preview) and of the time the client saw (request sent → last byte read). In the same run,
// alternating in blocks of BENCH_PREVIEW_BLOCK (20), the library baseline: `Engine({ threads: 1 })
// .render()` of the same design and overrides at scale 0.5 in this process (a render thread as well,
// so the difference is what the service adds: design look-up, overrides, upload resolving, HTTP).
// Goal (issue 17): card-1080 at scale 0.5, p50 ≤ 80 ms server time. Prints a table and the load
// average, and the time of the process's first preview (its thread starting); merges its entries into
// bench/results/latest.json.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Engine, fileAssetResolver } from '../dist/index.js';
import { buildServer, listen } from '../dist/http/server.js';
import { configFromEnv } from '../dist/service/config.js';
import { Service } from '../dist/service/service.js';
import { mergeResults, printTable } from './report.mjs';

const ROOT = join(import.meta.dirname, '..');
const CARD = join(ROOT, 'examples', 'card-1080');
const RUNS = Number(process.env.BENCH_PREVIEW_RUNS ?? 200);
const WARMUP = Number(process.env.BENCH_PREVIEW_WARMUP ?? 20);
const BLOCK = Number(process.env.BENCH_PREVIEW_BLOCK ?? 20);
const SCALE = Number(process.env.BENCH_PREVIEW_SCALE ?? 0.5);
const GOAL_P50_MS = 80;

const design = JSON.parse(readFileSync(join(CARD, 'design.json'), 'utf8'));
const { objects_overrides: overrides } = JSON.parse(readFileSync(join(CARD, 'overrides.json'), 'utf8'));

const loadNow = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const r1 = (x) => +x.toFixed(1);

// ── the service, in this process ────────────────────────────────────────────────────────────────
const loadAtStart = loadNow();
const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-preview-'));
const env = { IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' };
if (process.env.IMPRINT_PREVIEW_THREADS) env.IMPRINT_PREVIEW_THREADS = process.env.IMPRINT_PREVIEW_THREADS;
const config = configFromEnv(env);
const service = await Service.open(config, { log: pino({ level: 'warn' }) });
const app = await buildServer(service);
const base = `${await listen(app, service)}/public/v2`;
const { account, apiKey } = await service.createAccount({ name: 'bench' });
await service.setPlan(account.id, { requests_per_minute: 1_000_000 });
const { id: designId } = await service.importDesign(account.id, design, { baseDir: CARD, name: 'card-1080' });
// The overrides' photo is a file of the example folder, not of the stored design: uploaded, as an API user does.
const { url: photoUrl } = await service.createUpload(account.id, readFileSync(join(CARD, overrides.photo.path)));
const httpOverrides = { ...overrides, photo: { ...overrides.photo, path: photoUrl } };

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const target = new URL(`${base}/preview`);

/** One preview; resolves with the server's and the client's times in ms. */
function preview(body, accept) {
  const payload = JSON.stringify(body);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(accept ? { accept } : {}),
        },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c) => (bytes += c.length));
        res.on('end', () => {
          const client = performance.now() - t;
          if (res.statusCode !== 200) return reject(new Error(`preview answered ${res.statusCode}`));
          const server = Number(/render;dur=([\d.]+)/.exec(res.headers['server-timing'] ?? '')?.[1]);
          resolve({ server, client, bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

// ── the library baseline: the same render on a render thread of an Engine in this process ───────
const engine = new Engine({ threads: 1 });
const assets = fileAssetResolver({ baseDir: CARD });
async function library(format) {
  const t = performance.now();
  await engine.render({ design, overrides, format, assets, scale: SCALE });
  return performance.now() - t;
}

const CASES = [
  { name: 'png', format: 'png' },
  { name: 'jpg', format: 'jpg' },
  { name: 'png as JSON', format: 'png', accept: 'application/json' },
];

console.log(
  `card-1080 with overrides at scale ${SCALE}, one request in flight, ${RUNS} per case after ${WARMUP} warm-up; ` +
    `${config.previewThreads} preview thread(s), ${availableParallelism()} cores, node ${process.version}; load at start ${loadAtStart}`,
);
const results = CASES.map(() => ({ server: [], client: [], bytes: 0, library: [] }));
// The first preview of a process starts its preview thread and fills its caches (fonts, the decoded photo).
const first = await preview({ design_id: designId, format: 'png', scale: SCALE, objects_overrides: httpOverrides });
for (const [i, c] of CASES.entries()) {
  const body = { design_id: designId, format: c.format, scale: SCALE, objects_overrides: httpOverrides };
  for (let k = 0; k < WARMUP; k++) {
    await preview(body, c.accept);
    await library(c.format);
  }
  for (let done = 0; done < RUNS; done += BLOCK) {
    const n = Math.min(BLOCK, RUNS - done);
    for (let k = 0; k < n; k++) {
      const r = await preview(body, c.accept);
      results[i].server.push(r.server);
      results[i].client.push(r.client);
      results[i].bytes = r.bytes;
    }
    for (let k = 0; k < n; k++) results[i].library.push(await library(c.format));
  }
}
const loadAtEnd = loadNow();

const entries = CASES.map((c, i) => {
  const r = results[i];
  return {
    name: `preview card-1080 ${SCALE} ${c.name}`,
    runs: RUNS,
    server_p50_ms: r1(pct(r.server, 50)),
    server_p99_ms: r1(pct(r.server, 99)),
    client_p50_ms: r1(pct(r.client, 50)),
    client_p99_ms: r1(pct(r.client, 99)),
    library_p50_ms: r1(pct(r.library, 50)),
    library_p99_ms: r1(pct(r.library, 99)),
    answer_kb: r1(r.bytes / 1024),
    ...(i === 0 ? { first_server_ms: r1(first.server), first_client_ms: r1(first.client) } : {}),
    goal_server_p50_ms: GOAL_P50_MS,
    preview_threads: config.previewThreads,
    loadavg: loadAtEnd,
  };
});
printTable(
  [
    ['case', (e) => e.name.replace('preview card-1080 ', '')],
    ['server p50', (e) => `${e.server_p50_ms} ms`],
    ['server p99', (e) => `${e.server_p99_ms} ms`],
    ['client p50', (e) => `${e.client_p50_ms} ms`],
    ['client p99', (e) => `${e.client_p99_ms} ms`],
    ['library p50', (e) => `${e.library_p50_ms} ms`],
    ['library p99', (e) => `${e.library_p99_ms} ms`],
    ['answer', (e) => `${e.answer_kb} KB`],
    ['goal', (e) => (e.server_p50_ms <= GOAL_P50_MS ? `ok (p50 ≤ ${GOAL_P50_MS} ms)` : `MISSED (p50 > ${GOAL_P50_MS} ms)`)],
  ],
  entries,
);
console.log(`first preview of the process (thread start, cold caches): server ${r1(first.server)} ms, client ${r1(first.client)} ms`);
console.log(`load average at start ${loadAtStart}, at end ${loadAtEnd}`);
mergeResults(entries);

agent.destroy();
await engine.close();
await app.close();
await service.close();
rmSync(dir, { recursive: true, force: true });
