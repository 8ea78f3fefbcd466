// npm run bench:cores: the figures that need a machine with many cores, in one script to run there as
// is (after `npm ci`): renders per second of card-1080 png with 1, 2, 4, 8 and 16 in flight
// (bench/threads.mjs: Imprint on the caller's thread, Imprint's render threads, the raw script in as
// many worker threads), then the 15 s 1080² promo as mp4 at 30 fps, rendered BENCH_VIDEO_SAMPLES
// times (default 3) in a new process each (bench/video-case.mjs), as a real-time factor (15 s over
// the render's time). The goals it checks: 2 in flight ≥ 1.7× of 1, and the promo ≥ 3× real time.
// Prints the machine (cores, CPU model, load average) with the figures.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const IN_FLIGHT = process.env.BENCH_THREAD_IN_FLIGHT ?? '1,2,4,8,16';
const SAMPLES = Math.max(1, Number(process.env.BENCH_VIDEO_SAMPLES ?? 3));
const PROMO_SECONDS = JSON.parse(readFileSync(join(ROOT, 'examples', 'promo-15s', 'design.json'), 'utf8')).duration;

const node = (script, env = {}) =>
  execFileSync(process.execPath, [join(ROOT, 'bench', script), ...(script === 'video-case.mjs' ? ['promo-30', 'ours'] : [])], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });

console.log(`machine: ${availableParallelism()} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}`);
console.log(
  `load average before (1, 5, 15 min): ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}\n`,
);

// Renders per second (bench/threads.mjs prints its own table and load average).
process.stdout.write(node('threads.mjs', { BENCH_THREAD_IN_FLIGHT: IN_FLIGHT }));

// The promo: one warm-up process (the files in the page cache), then the samples.
node('video-case.mjs');
const times = Array.from({ length: SAMPLES }, () => JSON.parse(node('video-case.mjs').trim().split('\n').at(-1)).ms);
const median = [...times].sort((a, b) => a - b)[times.length >> 1];
const factor = PROMO_SECONDS / (median / 1000);
console.log(`\npromo-15s mp4, 1080², 30 fps, ${SAMPLES} samples: median ${(median / 1000).toFixed(2)} s, ${factor.toFixed(2)}× real time (goal ≥ 3×)`);
console.log(
  `load average after (1, 5, 15 min): ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`,
);
