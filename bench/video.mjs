// Video bench (spawned by bench/render.mjs, or run alone): examples/promo-15s at 30 and 60 fps and as
// a static design against a raw baseline in the same process (the same frames, sampled beforehand,
// drawn with plain @napi-rs/canvas calls and piped to the same ffmpeg settings), and the 5-slide video
// at sd and hd, and a full-frame video clip. Prints one line per case, then the entries as JSON on the last line.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import sharp from 'sharp';
import { Engine, fileAssetResolver, parseDesign, resolveScene, layout, bundledFonts, sampleScene, loadShaper } from '../dist/index.js';
import { VideoEncoder } from '../dist/encode/video.js';
import { drawRaw } from './raw-canvas.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
await loadShaper();
const fonts = bundledFonts();
// On the caller's thread, like the raw pipe it is compared with.
const engine = new Engine({ threads: 0 });
const entries = [];
const rss = () => process.resourceUsage().maxRSS / 1024;
const example = (name) => {
  const dir = join(ROOT, 'examples', name);
  const file = JSON.parse(readFileSync(join(dir, 'overrides.json'), 'utf8'));
  return {
    design: JSON.parse(readFileSync(join(dir, 'design.json'), 'utf8')),
    overrides: file.objects_overrides ?? file.overrides,
    assets: fileAssetResolver({ baseDir: dir }),
  };
};

// Video: examples/promo-15s (15 s, 1080×1080) at 30 and 60 fps and as a static design, each against a
// raw baseline in the same run: the same frames (display lists sampled beforehand) drawn with plain
// @napi-rs/canvas calls and piped to the same ffmpeg settings.
{
  const dir = join(ROOT, 'examples', 'promo-15s');
  const promo = example('promo-15s');
  const stillDesign = { ...promo.design, objects: promo.design.objects.filter((o) => o.name !== 'fade').map(({ animations, start, ...o }) => o) };
  const promoScene = resolveScene(parseDesign(promo.design), promo.overrides);
  const promoImages = new Map();
  for (const name of ['city-night.jpg', 'lake-sunset.jpg']) {
    const { data, info } = await sharp(join(dir, name)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const c = createCanvas(info.width, info.height);
    c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height), 0, 0);
    promoImages.set(name, c);
  }
  const promoSizes = new Map([...promoImages].map(([k, c]) => [k, { width: c.width, height: c.height }]));
  const video = async (name, render, rawFrames, fps) => {
    const measure = async (fn) => {
      const t = performance.now();
      const frames = await fn();
      return { ms: performance.now() - t, frames };
    };
    const ours = await measure(async () => (await render()).frames);
    const raw = await measure(async () => {
      const enc = await VideoEncoder.start({ width: 1080, height: 1080, fps, totalFrames: rawFrames.length });
      for (const list of rawFrames) await enc.writeFrame(drawRaw(list, promoImages).pixels);
      await enc.finish();
      return rawFrames.length;
    });
    const fpsOurs = (ours.frames / ours.ms) * 1000;
    const fpsRaw = (raw.frames / raw.ms) * 1000;
    const entry = {
      name,
      unit: 'fps',
      p50: +fpsOurs.toFixed(1),
      p95: null,
      baseline_p50: +fpsRaw.toFixed(1),
      ratio_to_baseline: +(fpsOurs / fpsRaw).toFixed(3),
      peak_rss_mb: +rss().toFixed(1),
      wall_ms: +ours.ms.toFixed(0),
      realtime_factor: +(ours.frames / fps / (ours.ms / 1000)).toFixed(2),
      baseline: 'plain @napi-rs/canvas frames, same ffmpeg',
    };
    entries.push(entry);
    console.log(
      `${name}: ${entry.p50} fps, ${entry.realtime_factor}× real time, ${(ours.ms / 1000).toFixed(2)} s | raw baseline ${entry.baseline_p50} fps | ratio ${entry.ratio_to_baseline} | peak RSS ${entry.peak_rss_mb} MB`,
    );
  };
  const framesOf = (scene, fps) => Array.from({ length: Math.round(15 * fps) }, (_, f) => layout(sampleScene(scene, f / fps), promoSizes, fonts).displayList);
  await video('video promo-15s 1080x1080 30 fps', () => engine.render({ ...promo, format: 'mp4', fps: 30 }), framesOf(promoScene, 30), 30);
  await video('video promo-15s 1080x1080 60 fps', () => engine.render({ ...promo, format: 'mp4', fps: 60 }), framesOf(promoScene, 60), 60);
  const stillScene = resolveScene(parseDesign(stillDesign), promo.overrides);
  await video(
    'video static design 1080x1080 30 fps',
    () => engine.render({ ...promo, design: stillDesign, format: 'mp4', fps: 30 }),
    framesOf(stillScene, 30),
    30,
  );

  // The 5-slide video (1920×1080 design, 12.4 s) at interface B's sizes; no raw baseline (transitions
  // would need the same group compositing the engine does).
  const slides = example('slides-video');
  for (const size of ['sd', 'hd']) {
    const t = performance.now();
    const r = await engine.render({ ...slides, format: 'mp4', size, fps: 30 });
    const ms = performance.now() - t;
    const entry = {
      name: `video slides-video ${size} 30 fps`,
      unit: 'fps',
      p50: +((r.frames / ms) * 1000).toFixed(1),
      p95: null,
      baseline_p50: null,
      ratio_to_baseline: null,
      peak_rss_mb: +rss().toFixed(1),
      wall_ms: +ms.toFixed(0),
      realtime_factor: +(r.frames / 30 / (ms / 1000)).toFixed(2),
      size: `${r.width}x${r.height}`,
    };
    entries.push(entry);
    console.log(
      `${entry.name} (${entry.size}): ${entry.p50} fps, ${entry.realtime_factor}× real time, ${(ms / 1000).toFixed(2)} s | peak RSS ${entry.peak_rss_mb} MB`,
    );
  }
}

// A video object: a 3 s 1920×1080 clip (ffmpeg's testsrc2, made here) looped full-frame under an
// animated title, 15 s at 1080×1080. No raw baseline: the cost on top of a plain video is the clip's
// decoding, cutting and scaling, and x264 encoding full-frame motion.
{
  const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-clip-'));
  execFileSync(ffmpegInstaller.path, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=1920x1080:r=30:d=3',
    '-pix_fmt',
    'yuv420p',
    '-y',
    join(dir, 'clip-hd.mp4'),
  ]);
  const design = {
    width: 1080,
    height: 1080,
    duration: 15,
    background: { type: 'color', color: '#000000' },
    objects: [
      { type: 'video', name: 'clip', path: 'clip-hd.mp4', x: 0, y: 0, width: 1080, height: 1080, loop: true },
      {
        type: 'text',
        name: 'title',
        x: 80,
        y: 820,
        width: 920,
        height: 160,
        font_size: 96,
        font_weight: 700,
        color: '#ffffff',
        text: 'Clip behind text',
        animations: [{ type: 'slide_in', from: 'left', duration: 1 }],
      },
    ],
  };
  const t = performance.now();
  const r = await engine.render({ design, format: 'mp4', fps: 30, baseDir: dir });
  rmSync(dir, { recursive: true, force: true });
  const ms = performance.now() - t;
  const entry = {
    name: 'video clip object 1080x1080 30 fps',
    unit: 'fps',
    p50: +((r.frames / ms) * 1000).toFixed(1),
    p95: null,
    baseline_p50: null,
    ratio_to_baseline: null,
    peak_rss_mb: +rss().toFixed(1),
    wall_ms: +ms.toFixed(0),
    realtime_factor: +(r.frames / 30 / (ms / 1000)).toFixed(2),
  };
  entries.push(entry);
  console.log(`${entry.name}: ${entry.p50} fps, ${entry.realtime_factor}× real time, ${(ms / 1000).toFixed(2)} s | peak RSS ${entry.peak_rss_mb} MB`);
}

console.log(JSON.stringify(entries));
