// npm run bench:cold: whole-process wall time of a cold start, each case a new node process, the cases
// interleaved run by run so they share the machine's noise. (a) the CLI renders card-1080 with its
// overrides to png; (b) bench/raw-card-cold.mjs does the same work by hand (the baseline); (c) the
// same without the canvas's scan of system fonts; (d) Takumi draws the card (bench/takumi-card.mjs);
// (e) only `import('imprint')`; (f) only @napi-rs/canvas + sharp (the floor every renderer on them pays).
// Prints median, p90 and the ratio to the raw baseline, with the load average of the same run, and
// merges its entries into bench/results/latest.json.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeResults, printTable } from './report.mjs';

const ROOT = join(import.meta.dirname, '..');
const RUNS = Math.max(7, Number(process.env.BENCH_COLD_RUNS ?? 9));
const tmp = mkdtempSync(join(tmpdir(), 'imprint-cold-'));
const node = process.execPath;

const cases = [
  {
    name: 'cold start: imprint render card-1080 png (CLI process)',
    args: (i) => {
      const card = 'examples/card-1080';
      return ['bin/imprint.js', 'render', `${card}/design.json`, '--overrides', `${card}/overrides.json`, '--out', join(tmp, `imprint-${i}.png`)];
    },
    out: (i) => join(tmp, `imprint-${i}.png`),
  },
  // BENCH_COLD_OTHER=<another checkout, built>: the same CLI render by that build, for a before and after in one run.
  ...(process.env.BENCH_COLD_OTHER
    ? [
        {
          name: 'cold start: imprint render card-1080 png (CLI process), other build',
          args: (i) => {
            const card = 'examples/card-1080';
            const bin = join(process.env.BENCH_COLD_OTHER, 'bin', 'imprint.js');
            return [bin, 'render', `${card}/design.json`, '--overrides', `${card}/overrides.json`, '--out', join(tmp, `other-${i}.png`)];
          },
          out: (i) => join(tmp, `other-${i}.png`),
        },
      ]
    : []),
  {
    name: 'cold start: raw @napi-rs/canvas + sharp card-1080 png (process)',
    args: (i) => ['bench/raw-card-cold.mjs', join(tmp, `raw-${i}.png`)],
    out: (i) => join(tmp, `raw-${i}.png`),
  },
  {
    // The same script with @napi-rs/canvas's scan of the machine's fonts switched off (the script only
    // uses the faces it registers): the tighter floor, independent of what fonts the machine has.
    name: 'cold start: raw card-1080 png, no system font scan (process)',
    args: (i) => ['bench/raw-card-cold.mjs', join(tmp, `raw-nf-${i}.png`)],
    env: { DISABLE_SYSTEM_FONTS_LOAD: '1' },
    out: (i) => join(tmp, `raw-nf-${i}.png`),
  },
  {
    name: 'cold start: Takumi card-1080 png (process)',
    args: (i) => ['bench/takumi-card-cold.mjs', join(tmp, `takumi-${i}.png`)],
    out: (i) => join(tmp, `takumi-${i}.png`),
  },
  // From the repo root the package resolves itself by name, through its "exports" (dist/index.js).
  { name: "cold start: import('imprint') (process)", args: () => ['--input-type=module', '-e', "await import('imprint')"] },
  {
    name: 'cold start: import @napi-rs/canvas + sharp (process, floor)',
    args: () => ['--input-type=module', '-e', "await import('@napi-rs/canvas'); await import('sharp')"],
  },
];

function run(c, i) {
  const t = performance.now();
  const r = spawnSync(node, c.args(i), { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...c.env } });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
  // A case that claims to render must have written its file.
  if (c.out && statSync(c.out(i)).size === 0) throw new Error(`${c.name} wrote an empty file`);
  return ms;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// One untimed run of each first: the files are then in the page cache for every timed run alike.
for (const c of cases) run(c, 'warm');
const load = [loadavg()];
const times = cases.map(() => []);
for (let i = 0; i < RUNS; i++) for (const [j, c] of cases.entries()) times[j].push(run(c, i));
load.push(loadavg());
rmSync(tmp, { recursive: true, force: true });

const loadAvg = load[1].map((x, k) => +((x + load[0][k]) / 2).toFixed(2));
const RAW = cases.findIndex((c) => c.name.startsWith('cold start: raw @napi-rs'));
const raw = median(times[RAW]);
const entries = cases.map((c, j) => ({
  name: c.name,
  unit: 'ms',
  p50: +median(times[j]).toFixed(1),
  p90: +pct(times[j], 90).toFixed(1),
  baseline_p50: +raw.toFixed(1),
  ratio_to_baseline: +(median(times[j]) / raw).toFixed(3),
  baseline: cases[RAW].name,
  runs: RUNS,
  load_avg_1_5_15: loadAvg,
}));

console.log(`cold start, whole process wall time, ${RUNS} interleaved runs each, node ${process.version}`);
console.log(`load average (1, 5, 15 min; mean of before and after the runs): ${loadAvg.join(', ')}`);
printTable(
  [
    ['case', (e) => e.name.replace('cold start: ', '')],
    ['median ms', (e) => e.p50.toFixed(1)],
    ['p90 ms', (e) => e.p90.toFixed(1)],
    ['ratio to raw', (e) => e.ratio_to_baseline.toFixed(2)],
  ],
  entries,
);
mergeResults(entries);
