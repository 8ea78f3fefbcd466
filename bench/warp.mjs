// Perspective warp (spawned by bench/render.mjs, or run alone: `node bench/warp.mjs` after `npm run
// build`): ms per warpImage of a phone-sized screenshot (600×1300) into a mockup's screen quad
// (~560×1250), the resampler a mockup's screen layer goes through in raster output. Median of the
// rounds, after a warm-up so the figure is of optimised code. Prints a table, merges its entry.
import { warpImage } from '../dist/paint/warp.js';
import { mergeResults, printTable } from './report.mjs';

const ROUNDS = Number(process.env.BENCH_WARP_ROUNDS ?? 15);
const width = 600;
const height = 1300;
const rgba = Buffer.alloc(width * height * 4);
for (let y = 0; y < height; y++) {
  for (let x = 0; x < width; x++) rgba.set([x % 256, y % 256, (x + y) % 256, 255], (y * width + x) * 4);
}
const src = { width, height, rgba };
const quad = [
  [40.5, 30.2],
  [585.3, 60.8],
  [600.1, 1290.4],
  [20.7, 1250.6],
];

warpImage(src, quad);
const times = [];
for (let i = 0; i < ROUNDS; i++) {
  const t0 = performance.now();
  warpImage(src, quad);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const entry = { name: 'warp 600x1300 → quad', p50Ms: times[Math.floor(times.length / 2)], minMs: times[0], rounds: ROUNDS };
printTable(
  [
    ['case', (e) => e.name],
    ['p50 ms', (e) => e.p50Ms.toFixed(1)],
    ['min ms', (e) => e.minMs.toFixed(1)],
  ],
  [entry],
);
mergeResults([entry]);
