// node bench/compare-builds.mjs <other-dist-index.js>: warm card-1080 renders (png, jpg, pdf) by this
// build's engine and another build's (e.g. a worktree of an earlier commit), in one process, in
// alternating blocks, so that a refactor can show it kept the warm speed. Prints medians and ratios.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const other = process.argv[2];
if (!other) throw new Error('usage: node bench/compare-builds.mjs <path to another build’s dist/index.js>');
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const BLOCK = 10;

const CARD = join(ROOT, 'examples', 'card-1080');
const design = JSON.parse(readFileSync(join(CARD, 'design.json'), 'utf8'));
const overrides = JSON.parse(readFileSync(join(CARD, 'overrides.json'), 'utf8')).objects_overrides;

const builds = {
  this: await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href),
  other: await import(pathToFileURL(resolve(other)).href),
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (const format of ['png', 'jpg', 'pdf']) {
  const runs = Object.entries(builds).map(([name, m]) => {
    // On the caller's thread: the comparison is of the rendering code, not of thread hand-offs.
    const engine = new m.Engine({ threads: 0 });
    const assets = m.fileAssetResolver({ baseDir: CARD });
    return { name, fn: () => engine.render({ design, overrides, format, assets }), xs: [] };
  });
  for (const r of runs) for (let i = 0; i < 5; i++) await r.fn();
  for (let done = 0; done < RUNS; done += BLOCK) {
    for (const r of runs) {
      for (let i = 0; i < BLOCK; i++) {
        const t = performance.now();
        await r.fn();
        r.xs.push(performance.now() - t);
      }
    }
  }
  const [a, b] = runs.map((r) => median(r.xs));
  console.log(`${format}: this ${a.toFixed(1)} ms, other ${b.toFixed(1)} ms, ratio ${(a / b).toFixed(3)} (median of ${RUNS}; load ${loadavg()[0].toFixed(2)})`);
}
