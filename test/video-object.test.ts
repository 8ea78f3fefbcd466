// Video objects (clips placed on the canvas): the clip plays in the mp4 at the video's frame rate,
// trimmed, looped or held on its last frame, its sound mixed in unless muted; stills show the clip at their time; overrides cannot
// swap the clip; unreadable clips and impossible trims are refused with their JSON path.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { decodeGeometry } from '../src/assets/clips.js';
import type { Design } from '../src/design/schema.js';
import type { VideoObject } from '../src/objects/video/schema.js';
import type { DesignInput } from '../src/engine.js';
import { Engine, ImprintError } from '../src/index.js';
import type { Overrides } from '../src/resolve/types.js';

const engine = new Engine();
const dir = mkdtempSync(join(tmpdir(), 'imprint-clip-test-'));
// The engine's clip folders go to a folder of this file's own, so counting them is not confused by
// other test files rendering at the same time.
process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'imprint-clip-tmp-'));
const baseDir = dir;

// A 3 s clip: red, then blue, then green, one second each (at its own 25 fps).
beforeAll(() => {
  const inputs = ['red', 'blue', 'lime'].flatMap((c) => ['-f', 'lavfi', '-i', `color=c=${c}:s=160x120:r=25:d=1`]);
  execFileSync(ffmpegInstaller.path, ['-v', 'error', '-y', ...inputs, '-filter_complex', 'concat=n=3:v=1:a=0,format=yuv420p', join(dir, 'rgb.mp4')]);
  writeFileSync(join(dir, 'broken.mp4'), 'this is not a video');
  // A 2 s clip with a 440 Hz tone, and a quieter 220 Hz soundtrack.
  execFileSync(ffmpegInstaller.path, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=30:duration=2',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    join(dir, 'tone.mp4'),
  ]);
  execFileSync(ffmpegInstaller.path, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=5', '-af', 'volume=0.25', join(dir, 'music.wav')]);
});

/** A design around one video object, with `video`'s fields over the defaults. */
function design(video: Partial<z.input<typeof VideoObject>>, duration = 4): z.input<typeof Design> {
  return {
    width: 320,
    height: 180,
    duration,
    background: { type: 'color', color: '#000000' },
    objects: [{ type: 'video', name: 'clip', path: 'rgb.mp4', x: 80, y: 30, width: 160, height: 120, ...video }],
  };
}

/** Centre pixel of the frame shown at `time`. */
async function colourAt(mp4: Buffer, time: number): Promise<string> {
  const file = join(dir, `v-${time}-${mp4.length}.mp4`);
  writeFileSync(file, mp4);
  const png = execFileSync(ffmpegInstaller.path, ['-v', 'error', '-ss', String(time), '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-']);
  return centre(png);
}

async function centre(image: Buffer): Promise<string> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 3;
  const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
  const names: [string, number[]][] = [
    ['red', [255, 0, 0]],
    ['blue', [0, 0, 255]],
    ['green', [0, 255, 0]],
    ['black', [0, 0, 0]],
  ];
  const near = names.find(([, c]) => Math.abs(c[0]! - r) + Math.abs(c[1]! - g) + Math.abs(c[2]! - b) < 90);
  return near ? near[0] : `rgb(${r},${g},${b})`;
}

async function mp4(d: DesignInput, overrides?: Overrides): Promise<Buffer> {
  return (await engine.render({ design: d, format: 'mp4', baseDir, ...(overrides ? { overrides } : {}) })).bytes;
}

async function refusal(promise: Promise<unknown>): Promise<ImprintError> {
  const e = await promise.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ImprintError);
  return e as ImprintError;
}

describe('video object in an mp4', () => {
  it('plays the clip in time and holds its last frame once it ends', async () => {
    const video = await mp4(design({}));
    expect(await Promise.all([0.5, 1.5, 2.5, 3.5].map((t) => colourAt(video, t)))).toEqual(['red', 'blue', 'green', 'green']);
  });

  it('loops the clip from trim_start when loop is on', async () => {
    const video = await mp4(design({ loop: true }));
    expect(await colourAt(video, 3.5)).toBe('red');
  });

  it('trims: trim_start skips the start, trim_end shortens the loop', async () => {
    const video = await mp4(design({ trim_start: 1, trim_end: 2, loop: true }));
    expect(await Promise.all([0.5, 1.5, 2.5].map((t) => colourAt(video, t)))).toEqual(['blue', 'blue', 'blue']);
    const from = await mp4(design({ trim_start: 1 }));
    expect(await Promise.all([0.5, 1.5, 3.5].map((t) => colourAt(from, t)))).toEqual(['blue', 'green', 'green']);
  });

  it('starts playing when the object comes on screen', async () => {
    const video = await mp4(design({ start: 1 }));
    expect(await Promise.all([0.5, 1.5, 2.5].map((t) => colourAt(video, t)))).toEqual(['black', 'red', 'blue']);
  });

  it('leaves no decoder or temporary clip behind', async () => {
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('imprint-clips-')).length;
    await mp4(design({ loop: true }, 1));
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('imprint-clips-')).length).toBe(before);
  });
});

/** Mean loudness in dB of the mp4's sound from `time` for 0.4 s (about -91 for silence); null without sound. */
function loudness(mp4: Buffer, time: number): number | null {
  const file = join(dir, `a-${time}-${mp4.length}.mp4`);
  writeFileSync(file, mp4);
  const r = spawnSync(ffmpegInstaller.path, ['-hide_banner', '-ss', String(time), '-t', '0.4', '-i', file, '-vn', '-af', 'volumedetect', '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  const m = /mean_volume: (-?[\d.]+) dB/.exec(r.stderr);
  return m ? Number(m[1]) : null;
}

const SILENT = -80;

describe('video object sound', () => {
  const sounding = (video: Partial<z.input<typeof VideoObject>>) => design({ path: 'tone.mp4', ...video });

  it('plays the clip sound while the object is on screen, once, then silence', async () => {
    const video = await mp4(sounding({ start: 1 }));
    const levels = [0.2, 1.2, 2.5, 3.5].map((t) => loudness(video, t)!);
    expect(levels[0]).toBeLessThan(SILENT);
    expect(levels[1]).toBeGreaterThan(-40);
    expect(levels[2]).toBeGreaterThan(-40);
    expect(levels[3]).toBeLessThan(SILENT);
  });

  it('loops the sound with the picture, and stops when the object ends', async () => {
    const video = await mp4(sounding({ start: 1, end: 3.6, loop: true }));
    expect(loudness(video, 3.1)!).toBeGreaterThan(-40);
    expect(loudness(video, 3.65)!).toBeLessThan(SILENT);
  });

  it('has no sound track when the clip is muted or has no sound', async () => {
    expect(loudness(await mp4(sounding({ muted: true })), 0.5)).toBeNull();
    expect(loudness(await mp4(design({})), 0.5)).toBeNull();
  });

  it('mixes the clip over the design soundtrack', async () => {
    const video = await mp4({ ...sounding({ start: 2 }), audio: { path: 'music.wav', fade_out: 0 } });
    const [music, both] = [loudness(video, 0.5)!, loudness(video, 2.5)!];
    expect(music).toBeGreaterThan(SILENT);
    expect(both).toBeGreaterThan(music + 3);
  });

  it('times clips inside slides from the slide start', async () => {
    const slides = {
      width: 320,
      height: 180,
      slides: [
        { name: 'one', duration: 2, background: { type: 'color', color: '#000000' }, objects: [] },
        {
          name: 'two',
          duration: 2,
          background: { type: 'color', color: '#000000' },
          objects: [{ type: 'video', name: 'clip', path: 'tone.mp4', x: 0, y: 0, width: 160, height: 120, start: 0.5 }],
        },
      ],
    } satisfies DesignInput;
    const video = await mp4(slides);
    expect(loudness(video, 2.0)!).toBeLessThan(SILENT);
    expect(loudness(video, 2.7)!).toBeGreaterThan(-40);
  });
});

describe('video object in stills', () => {
  it('shows the clip at the render time', async () => {
    const at = async (time: number) => centre((await engine.render({ design: design({}), format: 'png', time, baseDir })).bytes);
    expect([await at(0.5), await at(1.5), await at(2.5)]).toEqual(['red', 'blue', 'green']);
  });

  it('places the clip exactly as an image of the same frame, for cover, contain and fill', async () => {
    const frame = join(dir, 'frame-1.5.png');
    execFileSync(ffmpegInstaller.path, ['-v', 'error', '-y', '-ss', '1.5', '-i', join(dir, 'tone.mp4'), '-frames:v', '1', frame]);
    for (const strategy of ['contain', 'fill', 'cover'] as const) {
      const box = { y: 10, width: 300, height: 100, config: { media_replacement_strategy: strategy } };
      const side = {
        width: 640,
        height: 120,
        background: { type: 'color', color: '#000000' },
        objects: [
          { type: 'video', name: 'clip', path: 'tone.mp4', x: 10, ...box },
          { type: 'image', name: 'image', path: 'frame-1.5.png', x: 330, ...box },
        ],
      } satisfies DesignInput;
      const png = (await engine.render({ design: side, format: 'png', time: 1.5, baseDir })).bytes;
      const half = (left: number) => sharp(png).extract({ left, top: 10, width: 300, height: 100 }).png().toBuffer();
      const [a, b] = await Promise.all([half(10), half(330)]);
      const [x, y] = await Promise.all([a, b].map((i) => sharp(i).removeAlpha().raw().toBuffer()));
      let sum = 0;
      for (let i = 0; i < x!.length; i++) sum += Math.abs(x![i]! - y![i]!);
      // ffmpeg's bicubic vs sharp's lanczos on testsrc's hard edges: measured 2.7-4.4; the frame
      // stretched instead of cut (cover) measures far above.
      expect(sum / x!.length, strategy).toBeLessThan(6);
    }
  });

  it('places a phone clip (stored sideways with a rotation tag) upright', async () => {
    execFileSync(ffmpegInstaller.path, [
      '-v',
      'error',
      '-y',
      '-i',
      join(dir, 'rgb.mp4'),
      '-c',
      'copy',
      '-metadata:s:v:0',
      'rotate=90',
      join(dir, 'sideways.mp4'),
    ]);
    // 160×120 stored, 120×160 shown: contained in a 300×300 box it is 225 wide, with background beside it.
    const d = {
      width: 300,
      height: 300,
      background: { type: 'color', color: '#000000' },
      objects: [{ type: 'video', name: 'clip', path: 'sideways.mp4', x: 0, y: 0, width: 300, height: 300, config: { media_replacement_strategy: 'contain' } }],
    } satisfies DesignInput;
    const png = (await engine.render({ design: d, format: 'png', baseDir })).bytes;
    const at = async (left: number) => centre(await sharp(png).extract({ left, top: 140, width: 20, height: 20 }).png().toBuffer());
    expect([await at(10), await at(140), await at(270)]).toEqual(['black', 'red', 'black']);
  });

  it('puts the clip frame into a pdf as an image', async () => {
    const pdf = await engine.render({ design: design({}), format: 'pdf', time: 1.5, baseDir });
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.bytes.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
  });
});

describe('decodeGeometry', () => {
  it('cuts the centre to the box aspect for cover and scales to the box', () => {
    expect(decodeGeometry({ width: 1920, height: 1080 }, { box: { x: 0, y: 0, width: 1080, height: 1080 }, fit: 'cover' })).toEqual({
      width: 1080,
      height: 1080,
      filter: 'crop=1080:1080:420:0,scale=1080:1080:flags=bicubic',
    });
    expect(decodeGeometry({ width: 320, height: 180 }, { box: { x: 0, y: 0, width: 640, height: 360 }, fit: 'cover' })).toEqual({
      width: 640,
      height: 360,
      filter: 'scale=640:360:flags=bicubic',
    });
  });

  it('keeps the whole frame for contain and stretches for fill; never above 3840 px', () => {
    expect(decodeGeometry({ width: 1920, height: 1080 }, { box: { x: 0, y: 0, width: 500, height: 500 }, fit: 'contain' })).toMatchObject({
      width: 500,
      height: 282,
    });
    expect(decodeGeometry({ width: 1920, height: 1080 }, { box: { x: 0, y: 0, width: 500, height: 500 }, fit: 'fill' })).toMatchObject({
      width: 500,
      height: 500,
    });
    expect(decodeGeometry({ width: 320, height: 180 }, { box: { x: 0, y: 0, width: 8000, height: 4500 }, fit: 'cover' })).toMatchObject({
      width: 3840,
      height: 2160,
    });
  });
});

describe('video object: bad input', () => {
  it('refuses an override that replaces the clip', async () => {
    const e = await refusal(mp4(design({}), { clip: { path: 'other.mp4' } }));
    expect(e.code).toBe('validation_error');
    expect(e.path).toBe('$.objects_overrides.clip.path');
    expect(e.message).toMatch(/cannot be replaced/);
  });

  it('still lets an override move the clip', async () => {
    const video = await mp4(design({}, 1), { clip: { x: 0 } });
    expect(await colourAt(video, 0.5)).toBe('black'); // the centre is now the background, the clip is left of it
  });

  it('refuses a file that is not a video, at its path', async () => {
    const e = await refusal(mp4(design({ path: 'broken.mp4' })));
    expect(e.code).toBe('validation_error');
    expect(e.path).toBe('$.objects[0].path');
    expect(e.message).toMatch(/not a readable video/);
  });

  it('refuses a missing clip, a trim past its end and a trim_end before trim_start', async () => {
    expect((await refusal(mp4(design({ path: 'missing.mp4' })))).path).toBe('$.objects[0].path');
    const late = await refusal(mp4(design({ trim_start: 5 })));
    expect([late.path, late.message]).toEqual(['$.objects[0].trim_start', 'the clip lasts 3.00 s: trim_start (5 s) must be earlier']);
    expect((await refusal(mp4(design({ trim_start: 2, trim_end: 1 })))).path).toBe('$.objects[0].trim_end');
  });

  it('refuses a muted that is not a boolean', async () => {
    const e = await refusal(mp4(design({ muted: 'yes' as never })));
    expect(e.path).toBe('$.objects[0].muted');
  });
});
