// Concurrency (spawned by bench/render.mjs and bench/cores.mjs, or run alone): images/s of card-1080
// png with 1, 2 and 4 renders in flight (BENCH_THREAD_IN_FLIGHT to change), from an Engine rendering
// on the caller's thread (threads: 0), from one with render threads (the default: one per core), and
// from the raw baseline (bench/raw-card.mjs: the same
// card by hand, @napi-rs/canvas + sharp) in as many worker threads: the raw row is the ceiling this
// machine allows the same work. Rounds alternate between the configurations so they share the
// machine's noise; each figure is the median of the rounds. Prints a table, merges entries.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Engine, fileAssetResolver } from '../dist/pkg/index.js';
import { mergeResults, printTable } from './report.mjs';

const ROOT = join(import.meta.dirname, '..');
const CARD = join(ROOT, 'examples', 'card-1080');
const design = JSON.parse(readFileSync(join(CARD, 'design.json'), 'utf8'));
const overrides = JSON.parse(readFileSync(join(CARD, 'overrides.json'), 'utf8')).objects_overrides;
const assets = fileAssetResolver({ baseDir: CARD });
const PER_ROUND = Number(process.env.BENCH_THREAD_RENDERS ?? 24);
const ROUNDS = Number(process.env.BENCH_THREAD_ROUNDS ?? 5);
// BENCH_THREAD_IN_FLIGHT=1,2,4,8,16 (bench/cores.mjs) for a machine with many cores.
const IN_FLIGHT = (process.env.BENCH_THREAD_IN_FLIGHT ?? '1,2,4').split(',').map(Number);
if (IN_FLIGHT[0] !== 1 || IN_FLIGHT.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('BENCH_THREAD_IN_FLIGHT: whole numbers starting with 1, such as 1,2,4,8,16');
const FORMAT = process.env.BENCH_THREAD_FORMAT ?? 'png';

/** The raw baseline in `size` worker threads (bench/raw-card-thread.mjs), with Engine's render() and
 *  close(): a job goes to an idle thread, or waits for the first one that finishes. */
async function rawPool(size) {
  const idle = await Promise.all(
    Array.from({ length: size }, () => {
      const w = new Worker(join(ROOT, 'bench', 'raw-card-thread.mjs'));
      // One job per thread at a time: its answer (or the thread's failure) settles `w.job`.
      w.on('message', (png) => w.job?.resolve(png));
      w.on('error', (e) => w.job?.reject(e));
      return new Promise((resolve) => w.once('message', () => resolve(w)));
    }),
  );
  const all = [...idle];
  const waiting = [];
  const take = () => (idle.length ? Promise.resolve(idle.pop()) : new Promise((resolve) => waiting.push(resolve)));
  const give = (w) => (waiting.length ? waiting.shift()(w) : idle.push(w));
  return {
    async render() {
      const w = await take();
      const png = await new Promise((resolve, reject) => {
        w.job = { resolve, reject };
        w.postMessage(0);
      });
      w.job = undefined;
      give(w);
      return png;
    },
    close: () => Promise.all(all.map((w) => w.terminate())),
  };
}

const cores = availableParallelism();
const engines = {
  'caller thread (threads: 0)': new Engine({ threads: 0 }),
  [`render threads (threads: ${cores})`]: new Engine(),
  // The raw card is a png (bench/raw-card.mjs); other formats have no raw row.
  ...(FORMAT === 'png' ? { [`raw baseline, ${cores} worker threads`]: await rawPool(cores) } : {}),
};

/** Renders PER_ROUND cards keeping `n` in flight: images per second, and the cores the process used
 *  meanwhile (CPU time of all its threads, libvips' and the render threads' included, over wall time). */
async function round(engine, n) {
  let next = 0;
  const cpu = process.cpuUsage();
  const t = performance.now();
  const lane = async () => {
    while (next++ < PER_ROUND) await engine.render({ design, overrides, assets, format: FORMAT });
  };
  await Promise.all(Array.from({ length: n }, lane));
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { ips: PER_ROUND / (wall / 1000), cores: (used.user + used.system) / 1000 / wall };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Warm-up: every thread has parsed the fonts and decoded the photo before timing starts.
for (const e of Object.values(engines)) await round(e, 4);
const load = [loadavg()];
const rates = new Map();
for (let r = 0; r < ROUNDS; r++)
  for (const [name, e] of Object.entries(engines))
    for (const n of IN_FLIGHT) {
      const key = `${name}|${n}`;
      rates.set(key, [...(rates.get(key) ?? []), await round(e, n)]);
    }
load.push(loadavg());
await Promise.all(Object.values(engines).map((e) => e.close()));

const loadAvg = load[1].map((x, k) => +((x + load[0][k]) / 2).toFixed(2));
const entries = [];
for (const name of Object.keys(engines)) {
  const one = median(rates.get(`${name}|1`).map((r) => r.ips));
  for (const n of IN_FLIGHT) {
    const ips = median(rates.get(`${name}|${n}`).map((r) => r.ips));
    const cores = median(rates.get(`${name}|${n}`).map((r) => r.cores));
    entries.push({
      name: `card-1080 ${FORMAT}, ${n} in flight, ${name}`,
      unit: 'images/s',
      p50: +ips.toFixed(2),
      baseline_p50: +one.toFixed(2),
      ratio_to_baseline: +(ips / one).toFixed(3),
      baseline: `card-1080 ${FORMAT}, 1 in flight, ${name}`,
      cores_used: +cores.toFixed(2),
      runs: ROUNDS * PER_ROUND,
      load_avg_1_5_15: loadAvg,
    });
  }
}
console.log(`concurrency: card-1080 ${FORMAT}, ${ROUNDS} rounds of ${PER_ROUND} renders, ${cores} cores, load average ${loadAvg.join(', ')}`);
printTable(
  [
    ['case', (e) => e.name],
    ['images/s (median)', (e) => e.p50.toFixed(1)],
    ['vs 1 in flight', (e) => e.ratio_to_baseline.toFixed(2)],
    ['cores used', (e) => e.cores_used.toFixed(2)],
  ],
  entries,
);
mergeResults(entries);
