// npm run bench:engines: what making an Engine costs. (a) A warm engine renders card-1080 png; (b) a new
// `Engine()` (default options: render threads) renders it once and is dropped without close(), the
// pattern of a host that makes one per request; the two alternate in blocks so they share the
// machine's noise. Then (c) 1,000 engines made, used once and dropped, with the process's RSS after
// each 100 (after a full collection): flat when engines share threads and caches, beside the same
// renders from one engine (the control). With
// BENCH_ENGINES_OTHER=<another build's dist/pkg/index.js> the same runs for that build in a child
// process, so a change shows its before and after in one run. Prints medians and the load average,
// merges entries into bench/results/latest.json.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mergeResults, printTable } from './report.mjs';

const ROOT = join(import.meta.dirname, '..');
const CARD = join(ROOT, 'examples', 'card-1080');
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const ENGINES = Number(process.env.BENCH_ENGINES ?? 1000);
const BLOCK = 5;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The figures of one build (its dist/pkg/index.js), measured in this process. */
async function measure(index, reuse) {
  const { Engine, fileAssetResolver } = await import(pathToFileURL(index).href);
  const design = JSON.parse(readFileSync(join(CARD, 'design.json'), 'utf8'));
  const overrides = JSON.parse(readFileSync(join(CARD, 'overrides.json'), 'utf8')).objects_overrides;
  const assets = fileAssetResolver({ baseDir: CARD });
  const req = { design, overrides, assets, format: 'png' };

  const warm = new Engine();
  for (let i = 0; i < 3; i++) await warm.render(req);
  const times = { warm: [], fresh: [] };
  for (let done = 0; done < RUNS; done += BLOCK) {
    for (let i = 0; i < BLOCK; i++) {
      const t = performance.now();
      await warm.render(req);
      times.warm.push(performance.now() - t);
    }
    for (let i = 0; i < BLOCK; i++) {
      const t = performance.now();
      await new Engine().render(req);
      times.fresh.push(performance.now() - t);
    }
  }
  await warm.close();

  // RSS over many engines, each made, used once (a small design, so the figure is the engine's cost,
  // not the card's) and dropped.
  const tiny = { design: { width: 64, height: 64, objects: [{ type: 'text', x: 0, y: 0, width: 64, height: 64, text: 'Hi' }] }, format: 'png' };
  const rss = [];
  const t0 = performance.now();
  const one = new Engine();
  for (let i = 1; i <= ENGINES; i++) {
    await (reuse ? one : new Engine()).render(tiny);
    if (i % 100 === 0) {
      gc();
      await new Promise((r) => setImmediate(r));
      gc();
      rss.push(process.memoryUsage().rss / 2 ** 20);
    }
  }
  const perEngine = (performance.now() - t0) / ENGINES;
  return { warm: median(times.warm), fresh: median(times.fresh), rss, perEngine };
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await measure(process.argv[3], process.argv[4] === 'reuse')));
  process.exit(0);
}

// The control: this build's renders from one engine, reused. Render threads grow their heaps and
// allocator arenas over the first thousands of renders whoever asks for them; the engines' own cost is
// the difference between the two rows.
const builds = [
  ['this build', join(ROOT, 'dist', 'pkg', 'index.js')],
  ['this build, one engine reused (control)', join(ROOT, 'dist', 'pkg', 'index.js'), 'reuse'],
];
if (process.env.BENCH_ENGINES_OTHER) builds.unshift(['other build', resolve(process.env.BENCH_ENGINES_OTHER)]);
const load = [loadavg()];
const results = [];
for (const [name, index, reuse = ''] of builds) {
  // Each build in its own process: RSS is the process's, and neither build's threads or caches help the other.
  const r = spawnSync(process.execPath, [import.meta.filename, '--child', index, reuse], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${name}: the bench exited ${r.status}`);
  results.push({ name, ...JSON.parse(r.stdout.trim().split('\n').at(-1)) });
}
load.push(loadavg());
const loadAvg = load[1].map((x, k) => +((x + load[0][k]) / 2).toFixed(2));

console.log(`Engine cost, card-1080 png, ${RUNS} renders each, ${ENGINES} engines for RSS, node ${process.version}`);
console.log(`load average (1, 5, 15 min; mean of before and after): ${loadAvg.join(', ')}`);
printTable(
  [
    ['build', (r) => r.name],
    ['warm render ms', (r) => r.warm.toFixed(1)],
    ['new Engine + render ms', (r) => r.fresh.toFixed(1)],
    ['ratio', (r) => (r.fresh / r.warm).toFixed(2)],
    [`RSS MB at 100 → ${ENGINES} engines`, (r) => `${r.rss[0].toFixed(0)} → ${r.rss.at(-1).toFixed(0)}`],
    ['RSS change', (r) => `${(((r.rss.at(-1) - r.rss[0]) / r.rss[0]) * 100).toFixed(1)} %`],
    ['ms per tiny engine', (r) => r.perEngine.toFixed(1)],
  ],
  results,
);
const mine = results.find((r) => r.name === 'this build');
const control = results.find((r) => r.name.endsWith('(control)'));
mergeResults([
  {
    name: 'new Engine() + render card-1080 png',
    unit: 'ms',
    p50: +mine.fresh.toFixed(2),
    baseline_p50: +mine.warm.toFixed(2),
    ratio_to_baseline: +(mine.fresh / mine.warm).toFixed(3),
    baseline: 'a warm engine renders card-1080 png',
    rss_mb_per_100_engines: mine.rss.map((x) => +x.toFixed(1)),
    rss_mb_per_100_renders_one_engine: control.rss.map((x) => +x.toFixed(1)),
    load_avg_1_5_15: loadAvg,
  },
]);
