// mp4 output through the public API: ffprobe checks the streams, frames pulled out of the video match
// still renders of the scene sampled at the same time, cancellation leaves nothing behind, and bad
// timeline input is refused with its path.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { DesignInput } from '../src/engine.js';
import { Engine, fileAssetResolver, ImprintError } from '../src/index.js';
import type { ObjectsOverrides } from '../src/resolve/types.js';
import { REPO_ROOT } from './support/golden-compare.js';
import { frameAt as frameOf } from './support/video-frames.js';
import { waitUntil } from './support/wait.js';

const engine = new Engine();
const tmp = mkdtempSync(join(tmpdir(), 'imprint-video-test-'));
// The engine's temporary folders go to a folder of this file's own, so the checks that cancelling
// leaves none behind are not confused by other test files rendering video at the same time.
process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'imprint-video-tmp-'));

interface Probe {
  streams: { codec_name: string; pix_fmt: string; width: number; height: number; r_frame_rate: string; nb_frames: string }[];
  format: { duration: string };
}

function probe(bytes: Buffer, name: string): Probe {
  const file = join(tmp, `${name}.mp4`);
  writeFileSync(file, bytes);
  return JSON.parse(execFileSync(ffprobeInstaller.path, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' })) as Probe;
}

/** The frame shown at `time`, as png bytes. */
const frameAt = (bytes: Buffer, name: string, time: number): Buffer => frameOf(bytes, join(tmp, `${name}.mp4`), time);

/** Mean absolute difference per channel (0-255) between two images of one size. */
async function meanDiff(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((i) => sharp(i).flatten({ background: '#000' }).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x!.length; i++) sum += Math.abs(x![i]! - y![i]!);
  return sum / x!.length;
}

const small = {
  width: 320,
  height: 180,
  duration: 2,
  background: { type: 'color', color: '#102030' },
  objects: [
    { type: 'shape', name: 'bar', x: 0, y: 0, width: 320, height: 30, background: { type: 'color', color: '#335577' } },
    {
      type: 'text',
      name: 'title',
      x: 20,
      y: 50,
      width: 280,
      height: 60,
      font_size: 36,
      font_weight: 700,
      color: '#ffffff',
      text: 'Motion',
      animations: [{ type: 'slide_in', from: 'left', duration: 0.8 }],
    },
    {
      type: 'shape',
      name: 'dot',
      x: 140,
      y: 120,
      width: 40,
      height: 40,
      shape: 'ellipse',
      background: { type: 'color', color: '#e4572e' },
      animations: [
        {
          type: 'keyframes',
          property: 'x',
          keyframes: [
            { time: 0, value: 20 },
            { time: 2, value: 260 },
          ],
          easing: 'linear',
        },
      ],
    },
  ],
} satisfies DesignInput;

function promo() {
  const dir = join(REPO_ROOT, 'examples', 'promo-15s');
  return {
    design: JSON.parse(readFileSync(join(dir, 'design.json'), 'utf8')) as DesignInput,
    overrides: (JSON.parse(readFileSync(join(dir, 'overrides.json'), 'utf8')) as { objects_overrides: ObjectsOverrides }).objects_overrides,
    assets: fileAssetResolver({ baseDir: dir }),
  };
}

describe('mp4', () => {
  it.each([30, 60] as const)('H.264, yuv420p, %d fps, the right frame count, duration and size', async (fps) => {
    const { bytes, frames, mimeType } = await engine.render({ design: small, format: 'mp4', fps });
    expect(mimeType).toBe('video/mp4');
    const p = probe(bytes, `small-${fps}`);
    expect(p.streams[0]).toMatchObject({
      codec_name: 'h264',
      pix_fmt: 'yuv420p',
      width: 320,
      height: 180,
      r_frame_rate: `${fps}/1`,
      nb_frames: String(2 * fps),
    });
    expect(frames).toBe(2 * fps);
    expect(Number(p.format.duration)).toBeCloseTo(2, 2);
    // +faststart: the index comes before the media data.
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
  });

  it('the promo example: 15 s at 30 fps, 1080×1080, with a poster frame', async () => {
    const { bytes, poster } = await engine.render({ ...promo(), format: 'mp4', poster: { time: 3 } });
    const p = probe(bytes, 'promo');
    expect(p.streams[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 1080, height: 1080, r_frame_rate: '30/1', nb_frames: '450' });
    expect(Number(p.format.duration)).toBeCloseTo(15, 1);
    expect(await sharp(poster).metadata()).toMatchObject({ format: 'jpeg', width: 1080, height: 1080 });
  }, 120_000);

  it('a design without animation is painted once and repeated by ffmpeg, still with every frame', async () => {
    const still = { ...small, objects: small.objects.map(({ animations: _a, ...o }) => o) };
    const seen: number[] = [];
    const { bytes, frames } = await engine.render({ design: still, format: 'mp4', onProgress: (p) => seen.push(p.framesWritten) });
    expect(frames).toBe(60);
    expect(Math.max(...seen)).toBe(1);
    expect(probe(bytes, 'still').streams[0]).toMatchObject({ nb_frames: '60', r_frame_rate: '30/1', pix_fmt: 'yuv420p' });
    const frame = frameAt(bytes, 'still', 1.5);
    expect(await meanDiff(frame, (await engine.render({ design: still, format: 'png' })).bytes)).toBeLessThan(3);
  });

  it('a long still is a short segment joined to itself: every frame, the soundtrack, the fit report, progress to 1', async () => {
    const still = { ...small, duration: 5, objects: small.objects.map(({ animations: _a, ...o }) => o), audio: { path: 'asset:tone', fade_out: 0 } };
    const tone = join(tmp, 'still-tone.wav');
    execFileSync(ffmpegInstaller.path, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6', '-y', tone]);
    const fractions: number[] = [];
    const { bytes, frames, report } = await engine.render({
      design: still,
      format: 'mp4',
      size: 'sd',
      assets: async () => readFileSync(tone),
      onProgress: (p) => fractions.push(p.fraction),
    });
    expect(frames).toBe(150); // 2 s segment twice + 1 s
    const p = probe(bytes, 'long-still');
    const video = p.streams.find((x) => x.codec_name === 'h264')!;
    expect(video).toMatchObject({ nb_frames: '150', r_frame_rate: '30/1', pix_fmt: 'yuv420p', width: 1280, height: 720 });
    expect(p.streams.map((x) => x.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(Number(p.format.duration)).toBeCloseTo(5, 1);
    expect(fractions.at(-1)).toBe(1);
    expect(report.map((r) => r.name)).toContain('title');
    const png = await sharp((await engine.render({ design: { ...still, audio: undefined }, format: 'png' })).bytes)
      .resize(1280, 720)
      .png()
      .toBuffer();
    for (const time of [0.5, 4.5]) expect(await meanDiff(frameAt(bytes, 'long-still', time), png), `frame at ${time} s`).toBeLessThan(4);
  });

  it('cancelling a long still leaves no ffmpeg process and no temporary folder', async () => {
    const still = { ...small, duration: 15, objects: [] };
    const dirs = () => readdirSync(tmpdir()).filter((f) => f.startsWith('imprint-video-') || f.startsWith('imprint-still-'));
    const before = new Set(dirs());
    const controller = new AbortController();
    const ffmpegs = () => spawnSync('pgrep', ['-P', String(process.pid), '-f', ffmpegInstaller.path], { encoding: 'utf8' }).stdout.trim();
    const rendering = engine.render({ design: still, format: 'mp4', size: 'hd', signal: controller.signal });
    rendering.catch(() => undefined); // awaited below
    // Cancelled while an ffmpeg of its own runs, the moment that has something to clean up.
    await waitUntil('the render’s ffmpeg to start', () => ffmpegs() !== '', 30_000, 5);
    controller.abort();
    await expect(rendering).rejects.toMatchObject({ code: 'render_cancelled' });
    expect(ffmpegs()).toBe('');
    expect(dirs().filter((f) => !before.has(f))).toEqual([]);
  });

  it('sd and hd keep the aspect ratio with even sizes', async () => {
    const wide = { ...small, width: 640, height: 360 };
    expect(probe((await engine.render({ design: wide, format: 'mp4', size: 'sd' })).bytes, 'sd').streams[0]).toMatchObject({ width: 1280, height: 720 });
    expect(probe((await engine.render({ design: wide, format: 'mp4', size: 'hd' })).bytes, 'hd').streams[0]).toMatchObject({ width: 1920, height: 1080 });
  });

  it('frames match still renders of the scene sampled at the same times', async () => {
    // H.264 at crf 20 in yuv420p: measured mean differences stay below 3 of 255 per channel; a frame
    // from another time (the dot moved) differs by more than 4.
    const { bytes } = await engine.render({ design: small, format: 'mp4' });
    for (const time of [0.5, 1.0, 1.5]) {
      const frame = frameAt(bytes, 'frames', time);
      const still = (await engine.render({ design: small, format: 'png', time })).bytes;
      expect(await meanDiff(frame, still), `frame at ${time} s`).toBeLessThan(3);
    }
    const other = (await engine.render({ design: small, format: 'png', time: 0.2 })).bytes;
    expect(await meanDiff(frameAt(bytes, 'frames', 1.5), other)).toBeGreaterThan(4);
  });

  it('reports progress up to the last frame', async () => {
    const seen: number[] = [];
    await engine.render({ design: small, format: 'mp4', onProgress: (p) => seen.push(p.framesEncoded) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[seen.length - 1]).toBe(60);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('cancelling halfway leaves no ffmpeg process and no temporary folder', async () => {
    const before = new Set(readdirSync(tmpdir()).filter((f) => f.startsWith('imprint-video-')));
    const controller = new AbortController();
    const run = engine.render({
      ...promo(),
      format: 'mp4',
      signal: controller.signal,
      onProgress: (p) => p.framesWritten > 60 && controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ code: 'render_cancelled', status: 499 });
    const ffmpegs = spawnSync('pgrep', ['-P', String(process.pid), '-f', ffmpegInstaller.path], { encoding: 'utf8' }).stdout.trim();
    expect(ffmpegs).toBe('');
    const after = readdirSync(tmpdir()).filter((f) => f.startsWith('imprint-video-') && !before.has(f));
    expect(after).toEqual([]);
  });

  it('a corrupt asset is a validation error before ffmpeg starts', async () => {
    const design = { ...small, objects: [{ type: 'image', x: 0, y: 0, width: 100, height: 100, path: 'asset:broken' }] } satisfies DesignInput;
    const e = await engine.render({ design, format: 'mp4', assets: async () => Buffer.from('not an image') }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ImprintError);
    expect(e).toMatchObject({ code: 'validation_error', path: '$.objects[0].path' });
  });

  it.each([
    ['over 15 s', { ...small, duration: 16 }, {}, '$.duration', 'at most 15 s'],
    ['no duration', { ...small, duration: undefined }, {}, '$.duration', 'add "duration"'],
    ['fps 25', small, { fps: 25 }, '$.fps', 'fps 30 or 60'],
    ['negative start', { ...small, objects: [{ ...small.objects[0], start: -1 }] }, {}, '$.objects[0].start', 'at least 0'],
    ['end before start', { ...small, objects: [{ ...small.objects[0], start: 1, end: 0.5 }] }, {}, '$.objects[0].end', 'must come after start'],
    [
      'keyframes out of order',
      {
        ...small,
        objects: [
          {
            ...small.objects[2],
            animations: [
              {
                type: 'keyframes',
                property: 'x',
                keyframes: [
                  { time: 1, value: 0 },
                  { time: 0.5, value: 10 },
                ],
              },
            ],
          },
        ],
      },
      {},
      '$.objects[0].animations[0].keyframes[1].time',
      'increasing time',
    ],
    [
      'unknown easing',
      { ...small, objects: [{ ...small.objects[1], animations: [{ type: 'fade_in', duration: 1, easing: 'bounce' }] }] },
      {},
      '$.objects[0].animations[0].easing',
      'unknown easing "bounce"',
    ],
    [
      'unknown preset',
      { ...small, objects: [{ ...small.objects[1], animations: [{ type: 'spin', duration: 1 }] }] },
      {},
      '$.objects[0].animations[0].type',
      'expected one of',
    ],
    [
      'reveal on a shape',
      { ...small, objects: [{ ...small.objects[0], animations: [{ type: 'reveal', duration: 1 }] }] },
      {},
      '$.objects[0].animations[0].type',
      'text objects',
    ],
    ['a maximum of 10 s', small, { maxDuration: 1 }, '$.duration', 'at most 1 s'],
  ])('refuses %s', async (_, design, extra, path, message) => {
    const e = await engine.render({ design, format: 'mp4', ...extra } as never).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toMatchObject({ code: 'validation_error', path });
    expect((e as Error).message).toContain(message);
  });
});

const slideDesign = {
  width: 320,
  height: 180,
  slides: [
    {
      name: 'one',
      duration: 1,
      background: { type: 'color', color: '#e4572e' },
      objects: [{ type: 'text', name: 'first', x: 20, y: 60, width: 280, height: 60, font_size: 32, color: '#ffffff', text: 'One' }],
      transition: { type: 'crossfade', duration: 0.4 },
    },
    { name: 'two', duration: 1, background: { type: 'color', color: '#2f6fed' }, objects: [], transition: { type: 'push', duration: 0.4, direction: 'left' } },
    { name: 'three', duration: 1, background: { type: 'color', color: '#17bebb' }, objects: [] },
  ],
} satisfies DesignInput;

async function meanColor(png: Buffer): Promise<[number, number, number]> {
  const { channels } = await sharp(png).stats();
  return [channels[0]!.mean, channels[1]!.mean, channels[2]!.mean];
}

describe('slide videos', () => {
  it('lasts the slides minus the transitions, and a crossfade frame lies between the two slides', async () => {
    const { bytes, frames } = await engine.render({ design: slideDesign, format: 'mp4' });
    // 1 + 1 + 1 - 0.4 - 0.4 = 2.2 s
    expect(frames).toBe(66);
    const p = probe(bytes, 'slides');
    expect(Number(p.format.duration)).toBeCloseTo(2.2, 1);
    const before = await meanColor(frameAt(bytes, 'slides', 0.3));
    const after = await meanColor(frameAt(bytes, 'slides', 1.2));
    const mid = await meanColor(frameAt(bytes, 'slides', 0.8));
    for (let c = 0; c < 3; c++) {
      const lo = Math.min(before[c]!, after[c]!);
      const hi = Math.max(before[c]!, after[c]!);
      if (hi - lo > 20) {
        expect(mid[c]!).toBeGreaterThan(lo + (hi - lo) * 0.2);
        expect(mid[c]!).toBeLessThan(hi - (hi - lo) * 0.2);
      }
    }
  });

  it('a push shows both slides side by side halfway', async () => {
    const still = (await engine.render({ design: slideDesign, format: 'png', time: 1.4 })).bytes;
    const { data } = await sharp(still).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number): number[] => [...data.subarray((90 * 320 + x) * 3, (90 * 320 + x) * 3 + 3)];
    expect(at(20)).toEqual([47, 111, 237]); // slide two, leaving to the left
    expect(at(300)).toEqual([23, 190, 187]); // slide three, coming in from the right
  });

  it("takes interface B's overrides: { name, object } and { name, slide: { path } }", async () => {
    const overrides = [
      { name: 'first', object: { text: 'Uno' } },
      { name: 'two', slide: { path: 'asset:photo' } },
    ];
    const photo = readFileSync(join(REPO_ROOT, 'golden', 'assets', 'photo.jpg'));
    const { report } = await engine.render({ design: slideDesign, overrides, format: 'png', time: 0.1, assets: async () => photo });
    expect(report[0]).toMatchObject({ name: 'first' });
    const frame = (await engine.render({ design: slideDesign, overrides, format: 'png', time: 1.1, assets: async () => photo })).bytes;
    const [r, g, b] = await meanColor(frame);
    expect(Math.abs(r - 47) + Math.abs(g - 111) + Math.abs(b - 237)).toBeGreaterThan(60); // not the blue background any more
  });

  it.each([
    ['an unknown slide', [{ name: 'four', slide: { path: 'x.png' } }], '$.objects_overrides[0].name', 'no slide named "four"'],
    ['a slide override field', [{ name: 'two', slide: { path: 'x.png', color: '#fff' } }], '$.objects_overrides[0].slide.color', 'unknown field'],
    ['both object and slide', [{ name: 'two', slide: { path: 'x.png' }, object: {} }], '$.objects_overrides[0]', 'exactly one of object or slide'],
    ['an external slide image', [{ name: 'two', slide: { path: 'https://x.io/a.png' } }], '$.objects_overrides[0].slide.path', 'external image URLs'],
  ])('refuses %s', async (_, overrides, path, message) => {
    const e = await engine.render({ design: slideDesign, overrides, format: 'mp4' }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toMatchObject({ code: 'validation_error', path });
    expect((e as Error).message).toContain(message);
  });

  it('allows 300 s by default for slide videos, and checks transitions and objects', async () => {
    const long = { ...slideDesign, slides: [{ duration: 301, objects: [] }] };
    await expect(engine.render({ design: long, format: 'mp4' })).rejects.toMatchObject({
      path: '$.duration',
      message: expect.stringContaining('at most 300 s'),
    });
    const tooLong = {
      ...slideDesign,
      slides: [{ ...slideDesign.slides[0]!, transition: { type: 'crossfade', duration: 2 } }, slideDesign.slides[1]!],
    } satisfies DesignInput;
    await expect(engine.render({ design: tooLong, format: 'mp4' })).rejects.toMatchObject({ path: '$.slides[0].transition.duration' });
    const both = { ...slideDesign, objects: [{ type: 'shape', x: 0, y: 0, width: 1, height: 1 }] } satisfies DesignInput;
    await expect(engine.render({ design: both, format: 'mp4' })).rejects.toMatchObject({
      path: '$.objects',
      message: expect.stringContaining('either objects or slides'),
    });
  });
});

describe('watermark', () => {
  const logo = sharp({ create: { width: 100, height: 50, channels: 4, background: '#ffc914' } })
    .png()
    .toBuffer();
  const still = { width: 320, height: 180, duration: 1, background: { type: 'color', color: '#102030' }, objects: [] } satisfies DesignInput;

  it('puts the logo in the corner, at the given share of the width and opacity, on videos and stills', async () => {
    const assets = async () => logo;
    const watermark = { image: 'asset:logo', position: 'bottom-right' as const, opacity: 1, width: 0.25 };
    const png = (await engine.render({ design: still, format: 'png', watermark, assets })).bytes;
    const { data } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number): number[] => [...data.subarray((y * 320 + x) * 3, (y * 320 + x) * 3 + 3)];
    // 80×40 logo, 5.4 px from the right and bottom edges.
    expect(px(280, 150)).toEqual([255, 201, 20]);
    expect(px(200, 150)).toEqual([16, 32, 48]);
    expect(px(280, 120)).toEqual([16, 32, 48]);
    const video = (await engine.render({ design: still, format: 'mp4', watermark, assets })).bytes;
    expect(await meanDiff(frameAt(video, 'wm', 0.5), png)).toBeLessThan(3);
  });

  it('refuses an external logo URL at its path', async () => {
    await expect(engine.render({ design: still, format: 'png', watermark: { image: 'https://x.io/logo.png' } })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.watermark.image',
    });
  });
});

describe('soundtrack', () => {
  const tone = join(tmp, 'tone.wav');
  execFileSync(ffmpegInstaller.path, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=5', '-y', tone]);
  const withAudio = { ...small, audio: { path: 'asset:tone', start: 1, fade_out: 0.5 } };

  it('is trimmed to the video, as AAC beside the H.264 stream', async () => {
    const { bytes } = await engine.render({ design: withAudio, format: 'mp4', assets: async () => readFileSync(tone) });
    const p = probe(bytes, 'audio');
    expect(p.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(Number(p.format.duration)).toBeCloseTo(2, 1);
  });

  it('is loaded with the other assets, for an mp4 only: a Polotno track given as a data: URL plays, a still never reads it', async () => {
    const src = `data:audio/wav;base64,${readFileSync(tone).toString('base64')}`;
    const rect = { id: 'r', type: 'figure', subType: 'rect', x: 0, y: 0, width: 32, height: 32, fill: 'red' };
    const fading = { ...rect, animations: [{ type: 'enter', name: 'fade', duration: 500, enabled: true }] };
    const polotno = { width: 64, height: 64, schemaVersion: 4, audios: [{ src, duration: 5000 }], pages: [{ id: 'p', duration: 2000, children: [fading] }] };
    const { bytes } = await engine.render({ design: polotno, format: 'mp4' });
    expect(
      probe(bytes, 'polotno-audio')
        .streams.map((s) => s.codec_name)
        .sort(),
    ).toEqual(['aac', 'h264']);
    const asked: string[] = [];
    const assets = async (ref: { kind: string; id?: string }) => {
      asked.push(ref.id ?? ref.kind);
      return readFileSync(tone);
    };
    await engine.render({ design: withAudio, format: 'png', assets });
    expect(asked).toEqual([]);
  });

  it('a file that is not sound is a validation error at $.audio.path, and leaves no temporary files', async () => {
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('imprint-audio-')).length;
    await expect(engine.render({ design: withAudio, format: 'mp4', assets: async () => Buffer.from('no sound here') })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.audio.path',
    });
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('imprint-audio-')).length).toBe(before);
    await expect(engine.render({ design: { ...small, audio: { path: 'https://x.io/a.mp3' } }, format: 'mp4' })).rejects.toMatchObject({ path: '$.audio.path' });
  });
});
