// Video bench (spawned by bench/render.mjs, or run alone after `npm run build`): every sample is a new
// process (bench/video-case.mjs) whose memory, with its ffmpeg's, is read from /proc every 20 ms, so
// each case's peak RSS is its own and counts the encoder. Per case: one warm-up sample of each side,
// then BENCH_VIDEO_SAMPLES (3) samples, Imprint and the raw baseline alternating (and, for the 30 fps
// promo, the encoder alone on frames painted before its clock: the floor). Cases: the promo
// (15 s 1080², every frame differs: the photo zooms all along) at 30 and 60 fps and without its
// animations (one painted frame), each against the raw pipe of the same frames; the 5-slide video at
// sd and hd and a full-frame video clip, without a raw baseline (transitions and clip decoding would
// need the engine's own compositing). Prints one line per case, then the entries as JSON on the last line.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SAMPLES = Math.max(3, Number(process.env.BENCH_VIDEO_SAMPLES ?? 3));

/** Resident memory of `pid` and all its descendants, in kB (0 when it has ended). */
function treeRssKb(pid) {
  let kb = 0;
  try {
    kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) kb += treeRssKb(Number(child));
    }
  } catch {
    // the process ended between two reads
  }
  return kb;
}

/** One sample in a child process: its render time, frames and the peak RSS of it and its ffmpeg. */
function sample(name, mode) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'video-case.mjs'), name, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let peakKb = 0;
    const timer = setInterval(() => (peakKb = Math.max(peakKb, treeRssKb(child.pid))), 20);
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`video-case ${name} ${mode} exited ${code}`));
      resolve({ ...JSON.parse(out.trim().split('\n').pop()), peakMb: peakKb / 1024 });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const cases = [
  { name: 'promo-30', title: 'video promo-15s 1080x1080 30 fps, every frame differs', fps: 30, raw: true, encoder: true },
  { name: 'promo-60', title: 'video promo-15s 1080x1080 60 fps, every frame differs', fps: 60, raw: true },
  { name: 'static', title: 'video static design 1080x1080 30 fps', fps: 30, raw: true },
  { name: 'slides-sd', title: 'video slides-video sd 30 fps (1280x720)', fps: 30, raw: false },
  { name: 'slides-hd', title: 'video slides-video hd 30 fps (1920x1080)', fps: 30, raw: false },
  { name: 'clip', title: 'video clip object 1080x1080 30 fps', fps: 30, raw: false },
];

// BENCH_VIDEO_CASES=promo-30,clip: only these cases (default: all).
const only = process.env.BENCH_VIDEO_CASES?.split(',');
const entries = [];
for (const c of cases.filter((k) => !only || only.includes(k.name))) {
  const sides = ['ours', ...(c.raw ? ['raw'] : []), ...(c.encoder ? ['encoder'] : [])];
  for (const side of sides) await sample(c.name, side); // warm-up: page cache, ffmpeg's first start
  const load = [loadavg()];
  const got = { ours: [], raw: [], encoder: [] };
  for (let i = 0; i < SAMPLES; i++) for (const side of sides) got[side].push(await sample(c.name, side));
  load.push(loadavg());
  const fps = (s) => (s.frames / s.ms) * 1000;
  const ours = median(got.ours.map(fps));
  const raw = c.raw ? median(got.raw.map(fps)) : null;
  const encoder = c.encoder ? median(got.encoder.map(fps)) : null;
  const entry = {
    name: c.title,
    unit: 'fps',
    p50: +ours.toFixed(1),
    p95: null,
    baseline_p50: raw === null ? null : +raw.toFixed(1),
    // Time ratio, as for stills: Imprint's time over the raw pipe's for the same frames (≤ 1 is faster).
    ratio_to_baseline: raw === null ? null : +(raw / ours).toFixed(3),
    realtime_factor: +(ours / c.fps).toFixed(2),
    peak_rss_mb: +Math.max(...got.ours.map((s) => s.peakMb)).toFixed(1),
    baseline_peak_rss_mb: c.raw ? +Math.max(...got.raw.map((s) => s.peakMb)).toFixed(1) : null,
    samples: SAMPLES,
    baseline: c.raw ? 'plain @napi-rs/canvas frames, same ffmpeg (child process)' : null,
    // The encoder alone: the same frames painted before the clock, then only piped and encoded. No
    // renderer on this machine can be faster than this with these encoder settings.
    encoder_only_fps: encoder === null ? null : +encoder.toFixed(1),
    encoder_only_realtime_factor: encoder === null ? null : +(encoder / c.fps).toFixed(2),
    load_avg_1_5_15: load[1].map((x, k) => +((x + load[0][k]) / 2).toFixed(2)),
  };
  entries.push(entry);
  console.log(
    `${c.title}: ${entry.p50} fps, ${entry.realtime_factor}× real time, peak RSS node + ffmpeg ${entry.peak_rss_mb} MB` +
      (c.raw ? ` | raw ${entry.baseline_p50} fps (peak ${entry.baseline_peak_rss_mb} MB) | time ratio ${entry.ratio_to_baseline}` : '') +
      (c.encoder ? ` | encoder alone ${entry.encoder_only_fps} fps (${entry.encoder_only_realtime_factor}× real time)` : '') +
      ` | median of ${SAMPLES}, load ${entry.load_avg_1_5_15[0]}`,
  );
}
console.log(JSON.stringify(entries));
