// One video bench sample in its own process (spawned by bench/video.mjs, which samples this process's
// and its ffmpeg's memory): `node bench/video-case.mjs <case> <ours|raw>` renders the case once and
// prints {"ms","frames"} on stdout. `ours` is Imprint's render; `raw` draws the same frames (display
// lists sampled before the clock starts) with plain @napi-rs/canvas calls and pipes them to the same
// ffmpeg settings; `encoder` (promo cases) paints those frames into a file before the clock starts and
// times only piping them to the same ffmpeg: the floor that the encoder alone sets on this machine.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import sharp from 'sharp';
import { Engine, parseDesign, resolveScene, layout, bundledFonts, sampleScene, loadShaper } from '../dist/index.js';
import { VideoEncoder } from '../dist/encode/video.js';
import { example } from './fixtures.mjs';
import { drawRaw } from './raw-canvas.mjs';

const ROOT = join(import.meta.dirname, '..');
const [name, mode] = process.argv.slice(2);
// On the caller's thread, like the raw pipe it is compared with.
const engine = new Engine({ threads: 0 });

/** The promo's frames drawn by hand and piped to ffmpeg: the raw baseline. With `encoderOnly`, the
 *  frames are drawn into a file first and only the piping and encoding are timed. */
async function rawPromo(design, overrides, fps, encoderOnly = false) {
  await loadShaper();
  const fonts = bundledFonts();
  const dir = join(ROOT, 'examples', 'promo-15s');
  const images = new Map();
  for (const file of ['city-night.jpg', 'lake-sunset.jpg']) {
    const { data, info } = await sharp(join(dir, file)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const c = createCanvas(info.width, info.height);
    c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height), 0, 0);
    images.set(file, c);
  }
  const sizes = new Map([...images].map(([k, c]) => [k, { width: c.width, height: c.height }]));
  const scene = resolveScene(parseDesign(design), overrides);
  const lists = Array.from({ length: Math.round(15 * fps) }, (_, f) => layout(sampleScene(scene, f / fps), sizes, fonts).displayList);
  if (encoderOnly) return encodePainted(lists, images, fps);
  const t = performance.now();
  const enc = await VideoEncoder.start({ width: 1080, height: 1080, fps, totalFrames: lists.length });
  for (const list of lists) await enc.writeFrame(drawRaw(list, images).pixels);
  await enc.finish();
  return { ms: performance.now() - t, frames: lists.length };
}

/** Paints `lists` into a temporary file, then times piping its frames (read back from the page cache
 *  into one reused buffer) to the engine's ffmpeg settings. */
async function encodePainted(lists, images, fps) {
  const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-frames-'));
  try {
    const file = join(dir, 'frames.rgba');
    const out = openSync(file, 'w');
    for (const list of lists) writeSync(out, drawRaw(list, images).pixels);
    closeSync(out);
    const frame = Buffer.alloc(1080 * 1080 * 4);
    const t = performance.now();
    const input = openSync(file, 'r');
    const enc = await VideoEncoder.start({ width: 1080, height: 1080, fps, totalFrames: lists.length });
    for (let f = 0; f < lists.length; f++) {
      readSync(input, frame, 0, frame.length, f * frame.length);
      await enc.writeFrame(frame);
    }
    await enc.finish();
    closeSync(input);
    return { ms: performance.now() - t, frames: lists.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function timed(render) {
  const t = performance.now();
  const r = await render();
  return { ms: performance.now() - t, frames: r.frames };
}

const promo = example('promo-15s');
// Without the fade and the animations: nothing changes, so the video is one painted frame.
const stillDesign = { ...promo.design, objects: promo.design.objects.filter((o) => o.name !== 'fade').map(({ animations: _a, start: _s, ...o }) => o) };

const cases = {
  // Every frame differs: the photo zooms slowly for all 15 s.
  'promo-30': {
    ours: () => timed(() => engine.render({ ...promo, format: 'mp4', fps: 30 })),
    raw: () => rawPromo(promo.design, promo.overrides, 30),
    encoder: () => rawPromo(promo.design, promo.overrides, 30, true),
  },
  'promo-60': { ours: () => timed(() => engine.render({ ...promo, format: 'mp4', fps: 60 })), raw: () => rawPromo(promo.design, promo.overrides, 60) },
  static: {
    ours: () => timed(() => engine.render({ ...promo, design: stillDesign, format: 'mp4', fps: 30 })),
    raw: () => rawPromo(stillDesign, promo.overrides, 30),
  },
  'slides-sd': { ours: () => timed(() => engine.render({ ...example('slides-video'), format: 'mp4', size: 'sd', fps: 30 })) },
  'slides-hd': { ours: () => timed(() => engine.render({ ...example('slides-video'), format: 'mp4', size: 'hd', fps: 30 })) },
  clip: {
    // A 3 s 1920×1080 clip (ffmpeg's testsrc2, made here) looped full-frame under an animated title.
    ours: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-clip-'));
      try {
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
        return await timed(() => engine.render({ design, format: 'mp4', fps: 30, baseDir: dir }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
};

const run = cases[name]?.[mode];
if (!run) throw new Error(`usage: node bench/video-case.mjs <${Object.keys(cases).join('|')}> <ours|raw|encoder>`);
console.log(JSON.stringify(await run()));
