// The video encoder against the real ffmpeg: the mp4 is checked by ffprobe and by its own box layout,
// and every way out (finish, failure, abort) is checked for no leftover process, temp dir or hang.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import { afterAll, describe, expect, it } from 'vitest';
import { VideoEncoder, type VideoEncoderOptions, type VideoProgress } from '../src/encode/video.js';
import { ImprintError } from '../src/errors.js';

const tmp = mkdtempSync(join(tmpdir(), 'imprint-video-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const BACKGROUND = [200, 30, 40] as const;
const SQUARE = [20, 60, 220] as const;

/** A red frame with a blue 40px square moving right by 2px per frame. */
function frame(width: number, height: number, index: number): Buffer {
  const px = Buffer.alloc(width * height * 4);
  const x0 = (index * 2) % Math.max(1, width - 40);
  const y0 = Math.floor(height / 2) - 20;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inSquare = x >= x0 && x < x0 + 40 && y >= y0 && y < y0 + 40;
      const [r, g, b] = inSquare ? SQUARE : BACKGROUND;
      const i = (y * width + x) * 4;
      px[i] = r;
      px[i + 1] = g;
      px[i + 2] = b;
      px[i + 3] = 255;
    }
  }
  return px;
}

async function encode(options: VideoEncoderOptions): Promise<Buffer> {
  const encoder = await VideoEncoder.start(options);
  try {
    for (let i = 0; i < options.totalFrames; i++) await encoder.writeFrame(frame(options.width, options.height, i));
    return await encoder.finish();
  } finally {
    await encoder.abort();
  }
}

interface Probe {
  streams: {
    codec_type: string;
    codec_name: string;
    pix_fmt?: string;
    width?: number;
    height?: number;
    r_frame_rate: string;
    nb_frames?: string;
    nb_read_frames?: string;
    duration: string;
  }[];
  format: { duration: string; size: string; format_name: string };
}

function probe(bytes: Buffer, name: string): Probe {
  const file = join(tmp, name);
  writeFileSync(file, bytes);
  return JSON.parse(
    execFileSync(ffprobeInstaller.path, ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' }),
  ) as Probe;
}

/** Top-level mp4 boxes in file order. */
function topLevelBoxes(bytes: Buffer): { type: string; offset: number }[] {
  const boxes: { type: string; offset: number }[] = [];
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    if (size === 0) size = bytes.length - offset;
    boxes.push({ type, offset });
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

/** One decoded frame as rgb24, through the same ffmpeg. */
function decodeFrame(bytes: Buffer, name: string, index: number): Buffer {
  const file = join(tmp, name);
  writeFileSync(file, bytes);
  return execFileSync(
    ffmpegInstaller.path,
    ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${index})`, '-vframes', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { maxBuffer: 64 << 20 },
  );
}

function pixel(rgb: Buffer, width: number, x: number, y: number): number[] {
  const i = (y * width + x) * 3;
  return [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
}

function expectColor(actual: number[], expected: readonly number[]): void {
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThanOrEqual(8));
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function ffmpegChildren(): string {
  const ps = spawnSync('ps', ['--ppid', String(process.pid), '-o', 'pid=,comm='], { encoding: 'utf8' });
  return (ps.stdout ?? '')
    .split('\n')
    .filter((l) => /ffmpeg|fail/.test(l))
    .join('\n');
}

function script(name: string, body: string): string {
  const file = join(tmp, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('VideoEncoder', () => {
  it('60 frames at 30 fps: h264 yuv420p, 2 s, every frame, faststart, the right colours', async () => {
    const bytes = await encode({ width: 320, height: 240, fps: 30, totalFrames: 60 });
    const info = probe(bytes, 'square-30.mp4');
    expect(info.streams).toHaveLength(1);
    const video = info.streams[0]!;
    expect(video).toMatchObject({
      codec_type: 'video',
      codec_name: 'h264',
      pix_fmt: 'yuv420p',
      width: 320,
      height: 240,
      r_frame_rate: '30/1',
      nb_frames: '60',
      nb_read_frames: '60',
    });
    expect(Number(info.format.duration)).toBeCloseTo(2, 2);
    expect(Number(info.format.size)).toBe(bytes.length);

    const boxes = topLevelBoxes(bytes).map((b) => b.type);
    expect(boxes[0]).toBe('ftyp');
    expect(boxes).toContain('moov');
    expect(boxes).toContain('mdat');
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

    // Channel order and colour survive the rgba → yuv420p → rgb round trip (frame 10: square at x 20-59).
    const rgb = decodeFrame(bytes, 'square-30-dec.mp4', 10);
    expect(rgb.length).toBe(320 * 240 * 3);
    expectColor(pixel(rgb, 320, 5, 5), BACKGROUND);
    expectColor(pixel(rgb, 320, 40, 120), SQUARE);
    expectColor(pixel(rgb, 320, 200, 120), BACKGROUND);
  });

  it('60 fps, scaled to an even output size', async () => {
    const bytes = await encode({ width: 321, height: 241, fps: 60, totalFrames: 60, outputWidth: 640, outputHeight: 480 });
    const video = probe(bytes, 'square-60.mp4').streams[0]!;
    expect(video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 640, height: 480, r_frame_rate: '60/1', nb_read_frames: '60' });
    expect(Number(video.duration)).toBeCloseTo(1, 2);
  });

  it('reports progress: framesEncoded never goes back and ends at totalFrames', async () => {
    const seen: VideoProgress[] = [];
    const encoder = await VideoEncoder.start({ width: 320, height: 240, fps: 30, totalFrames: 90, onProgress: (p) => seen.push(p) });
    for (let i = 0; i < 90; i++) {
      await encoder.writeFrame(frame(320, 240, i));
      // Input paced over ~1.4 s, so that ffmpeg's own twice-a-second report clock (wall time, ticking
      // only as input arrives) fires mid-stream. Not a wait before an assertion: a slower machine
      // only stretches the stream further; no event could stand in for ffmpeg's clock.
      await new Promise((r) => setTimeout(r, 15));
    }
    await encoder.finish();
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.framesEncoded).toBeGreaterThanOrEqual(seen[i - 1]!.framesEncoded);
    expect(seen.some((p) => p.framesEncoded > 0 && p.framesEncoded < 90)).toBe(true);
    for (const p of seen) {
      expect(p.totalFrames).toBe(90);
      expect(p.framesEncoded).toBeLessThanOrEqual(p.framesWritten);
      expect(p.fraction).toBe(p.framesEncoded / 90);
    }
    expect(seen.at(-1)).toMatchObject({ framesWritten: 90, framesEncoded: 90, fraction: 1 });
  });

  it('removes its temp dir after finish and leaves no ffmpeg behind', async () => {
    const encoder = await VideoEncoder.start({ width: 64, height: 64, fps: 30, totalFrames: 3 });
    expect(existsSync(encoder.tempDir)).toBe(true);
    expect(encoder.tempDir.startsWith(join(tmpdir(), 'imprint-video-'))).toBe(true);
    for (let i = 0; i < 3; i++) await encoder.writeFrame(frame(64, 64, i));
    const bytes = await encoder.finish();
    expect(bytes.length).toBeGreaterThan(0);
    expect(existsSync(encoder.tempDir)).toBe(false);
    expect(processGone(encoder.pid!)).toBe(true);
    await expect(encoder.writeFrame(frame(64, 64, 0))).rejects.toThrow(/after finish/);
    await encoder.abort(); // after finish: nothing to do
  });

  it('abort through the signal halfway: the pending write rejects, ffmpeg is killed, the temp dir is gone', async () => {
    const controller = new AbortController();
    const encoder = await VideoEncoder.start({ width: 320, height: 240, fps: 30, totalFrames: 60, signal: controller.signal });
    for (let i = 0; i < 30; i++) await encoder.writeFrame(frame(320, 240, i));
    const pid = encoder.pid!;
    expect(processGone(pid)).toBe(false);

    const pending = encoder.writeFrame(frame(320, 240, 30));
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImprintError);
    expect(error).toMatchObject({ code: 'render_cancelled', status: 499, message: 'the render was cancelled' });

    await expect(encoder.writeFrame(frame(320, 240, 31))).rejects.toThrow(/cancelled/);
    await expect(encoder.finish()).rejects.toThrow(/cancelled/);
    await encoder.abort();
    await encoder.abort();
    expect(processGone(pid)).toBe(true);
    expect(ffmpegChildren()).toBe('');
    expect(existsSync(encoder.tempDir)).toBe(false);
  });

  it('abort while finish waits for ffmpeg rejects finish', async () => {
    const encoder = await VideoEncoder.start({ width: 640, height: 480, fps: 30, totalFrames: 60, preset: 'medium' });
    for (let i = 0; i < 60; i++) await encoder.writeFrame(frame(640, 480, i));
    const finishing = encoder.finish();
    await encoder.abort();
    await expect(finishing).rejects.toThrow(/cancelled/);
    expect(processGone(encoder.pid!)).toBe(true);
    expect(existsSync(encoder.tempDir)).toBe(false);
  });

  it('an already aborted signal: start rejects without spawning anything', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(VideoEncoder.start({ width: 64, height: 64, fps: 30, totalFrames: 3, signal: controller.signal })).rejects.toThrow(/cancelled/);
  });

  it('ffmpeg dying at start: writes reject with render_failed and its stderr, no hang', { timeout: 10_000 }, async () => {
    const ffmpegPath = script('fail-early.sh', 'echo "Unknown encoder: boom" >&2\nexit 1');
    const encoder = await VideoEncoder.start({ width: 320, height: 240, fps: 30, totalFrames: 60, ffmpegPath });
    let error: unknown;
    for (let i = 0; i < 60 && error === undefined; i++)
      await encoder.writeFrame(frame(320, 240, i)).catch((e: unknown) => {
        error = e;
      });
    expect(error).toBeInstanceOf(ImprintError);
    expect(error).toMatchObject({ code: 'render_failed', status: 500, path: '$', message: 'ffmpeg failed: Unknown encoder: boom' });
    await expect(encoder.finish()).rejects.toBe(error);
    expect(existsSync(encoder.tempDir)).toBe(false);
  });

  it('ffmpeg failing at the end: finish rejects with the last 2000 characters of stderr', { timeout: 10_000 }, async () => {
    const ffmpegPath = script(
      'fail-late.sh',
      'cat > /dev/null\ni=0\nwhile [ $i -lt 200 ]; do echo "noise line $i" >&2; i=$((i+1)); done\necho "final: muxer exploded" >&2\nexit 3',
    );
    const encoder = await VideoEncoder.start({ width: 64, height: 64, fps: 30, totalFrames: 5, ffmpegPath });
    for (let i = 0; i < 5; i++) await encoder.writeFrame(frame(64, 64, i));
    const error = await encoder.finish().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImprintError);
    const message = (error as ImprintError).message;
    expect(message.startsWith('ffmpeg failed: ')).toBe(true);
    expect(message.endsWith('final: muxer exploded')).toBe(true);
    expect(message).not.toContain('noise line 0\n');
    expect(message.length).toBeLessThanOrEqual('ffmpeg failed: '.length + 2000);
    expect(existsSync(encoder.tempDir)).toBe(false);
  });

  it('real ffmpeg failure (missing audio file) names the file', { timeout: 10_000 }, async () => {
    const missing = join(tmp, 'no-such-song.mp3');
    const encoder = await VideoEncoder.start({ width: 64, height: 64, fps: 30, totalFrames: 30, audio: { path: missing, start: 0, duration: 1, fadeOut: 0 } });
    const error = await (async () => {
      for (let i = 0; i < 30; i++) await encoder.writeFrame(frame(64, 64, i));
      return encoder.finish();
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImprintError);
    expect((error as ImprintError).message).toMatch(/^ffmpeg failed: .*no-such-song\.mp3: No such file or directory/);
    expect(processGone(encoder.pid!)).toBe(true);
    expect(existsSync(encoder.tempDir)).toBe(false);
  });

  it('a binary that cannot be started fails with render_failed, no hang', { timeout: 10_000 }, async () => {
    const encoder = await VideoEncoder.start({ width: 64, height: 64, fps: 30, totalFrames: 3, ffmpegPath: join(tmp, 'no-ffmpeg-here') });
    const error = await (async () => {
      for (let i = 0; i < 3; i++) await encoder.writeFrame(frame(64, 64, i));
      return encoder.finish();
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'render_failed' });
    expect((error as Error).message).toMatch(/^ffmpeg failed: .*ENOENT/);
    expect(existsSync(encoder.tempDir)).toBe(false);
  });

  it('wrong frame size and too many frames are caller errors, caught before ffmpeg', async () => {
    const encoder = await VideoEncoder.start({ width: 64, height: 64, fps: 30, totalFrames: 1 });
    try {
      await expect(encoder.writeFrame(Buffer.alloc(64 * 64 * 3))).rejects.toThrow(/must be 64x64x4 = 16384 bytes, got 12288/);
      await encoder.writeFrame(frame(64, 64, 0));
      await expect(encoder.writeFrame(frame(64, 64, 1))).rejects.toThrow(/past totalFrames/);
      expect((await encoder.finish()).length).toBeGreaterThan(0);
    } finally {
      await encoder.abort();
    }
    await expect(VideoEncoder.start({ width: 63, height: 64, fps: 30, totalFrames: 1 })).rejects.toThrow(RangeError);
    await expect(VideoEncoder.start({ width: 64, height: 64, fps: 30, totalFrames: 0 })).rejects.toThrow(/totalFrames/);
  });

  it('audio: trimmed to the duration, aac, alongside the video', async () => {
    const wav = join(tmp, 'tone.wav');
    execFileSync(ffmpegInstaller.path, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6', '-y', wav]);
    const bytes = await encode({ width: 160, height: 120, fps: 30, totalFrames: 60, audio: { path: wav, start: 1, duration: 2, fadeOut: 0.5 } });
    const info = probe(bytes, 'with-audio.mp4');
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    const audio = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(video).toMatchObject({ codec_name: 'h264', nb_read_frames: '60' });
    expect(audio).toMatchObject({ codec_name: 'aac' });
    expect(Number(audio.duration)).toBeGreaterThan(1.9);
    expect(Number(audio.duration)).toBeLessThan(2.1);
    expect(Number(info.format.duration)).toBeLessThan(2.1);
  });
});
