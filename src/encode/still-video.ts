// encode: a video whose every frame is the same picture. A short segment is encoded once and joined
// to itself by ffmpeg's concat demuxer without re-encoding, so a 15 s still costs a 2 s encode.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ImprintError } from '../errors.js';
import { concatArgs } from './ffmpeg-args.js';
import { defaultFfmpegPath, VideoEncoder, type VideoEncoderOptions } from './video.js';

/** Frames per segment: 2 s, the usual keyframe interval for streaming, so seeking stays quick. */
const SEGMENT_SECONDS = 2;

function cancelled(): ImprintError {
  return new ImprintError('render_cancelled', '$', 'the render was cancelled');
}

/** `options.totalFrames` copies of `frame` in one ffmpeg run. */
async function encodeOnce(frame: Buffer, options: VideoEncoderOptions): Promise<Buffer> {
  const encoder = await VideoEncoder.start({ ...options, repeatFrames: options.totalFrames });
  try {
    await encoder.writeFrame(frame);
    return await encoder.finish();
  } catch (e) {
    await encoder.abort();
    throw e;
  }
}

/** A segment of `frames` copies of `frame`, without sound or progress. */
function segment(frame: Buffer, frames: number, options: VideoEncoderOptions): Promise<Buffer> {
  const { audio: _a, clipSounds: _c, duration: _d, onProgress: _p, ...rest } = options;
  return encodeOnce(frame, { ...rest, totalFrames: frames });
}

/** `options.totalFrames` frames of `frame` as mp4 bytes, with the soundtrack if any. */
export async function encodeStillVideo(frame: Buffer, options: VideoEncoderOptions): Promise<Buffer> {
  const { totalFrames, fps, signal, onProgress } = options;
  const perSegment = SEGMENT_SECONDS * fps;
  const report = (framesEncoded: number) => onProgress?.({ framesWritten: 1, framesEncoded, totalFrames, fraction: framesEncoded / totalFrames });
  if (totalFrames <= 2 * perSegment) return encodeOnce(frame, options);
  const copies = Math.floor(totalFrames / perSegment);
  const rest = totalFrames - copies * perSegment;
  const dir = await mkdtemp(join(tmpdir(), 'imprint-still-'));
  try {
    const files = [join(dir, 'a.mp4')];
    await writeFile(files[0]!, await segment(frame, perSegment, options));
    if (rest > 0) {
      files.push(join(dir, 'b.mp4'));
      await writeFile(files[1]!, await segment(frame, rest, options));
    }
    report(perSegment + rest);
    const list = join(dir, 'list.txt');
    const names = [...Array<string>(copies).fill(files[0]!), ...files.slice(1)];
    await writeFile(list, names.map((f) => `file '${f.replaceAll("'", "'\\''")}'\n`).join(''));
    const output = join(dir, 'out.mp4');
    const r = await execa(options.ffmpegPath ?? (await defaultFfmpegPath()), concatArgs({ list, output, ...(options.audio ? { audio: options.audio } : {}) }), {
      reject: false,
      ...(signal ? { cancelSignal: signal } : {}),
    });
    if (signal?.aborted) throw cancelled();
    if (r.exitCode !== 0)
      throw new ImprintError('render_failed', '$', `ffmpeg failed: ${String(r.stderr).trim() || (r.shortMessage ?? `exit code ${String(r.exitCode)}`)}`);
    report(totalFrames);
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
