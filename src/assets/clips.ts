// Video clips of a scene: bytes from the asset resolver, written where ffmpeg can read them, probed
// (size, duration) by ffmpeg itself, and read back as RGBA frames cut and scaled to each placement's
// box: sequentially for a video render, one at a time for a still.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import type * as Execa from 'execa';
import type { ResultPromise } from 'execa';
import { sceneAssets } from '../objects/registry.js';
import { imageRefKey } from '../scene/keys.js';
import type { Scene, SceneImageRef, SceneObject, SceneVideo } from '../scene/scene.js';
import { ImprintError, validationError } from '../errors.js';
import type { DecodedImage } from './load.js';
import { AssetNotFoundError, type AssetResolver } from './resolver.js';
import { loadExeca } from '../lazy-require.js';

/** Longest side a clip is decoded at, whatever its box: bounds the bytes piped per frame. */
const MAX_CLIP_SIDE = 3840;

/** A clip as one placement decodes it. */
export interface Clip {
  file: string;
  /** The size frames are decoded at (the box's, see decodeGeometry), which layout places. */
  width: number;
  height: number;
  /** ffmpeg filters that cut and scale a source frame to width × height. */
  filter: string;
  duration: number;
  /** Whether the clip has a sound track to mix in. */
  hasAudio: boolean;
}

export interface Clips {
  byKey: Map<string, Clip>;
  remove(): Promise<void>;
}

/** The video placements among `objects` (into groups), in scene order. */
export function sceneVideos(objects: readonly SceneObject[]): SceneVideo[] {
  return sceneAssets(objects).videos;
}

const DURATION = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/;
const SIZE = /Stream #\S+.*Video: .*?(\d{2,5})x(\d{2,5})/;
const AUDIO = /Stream #\S+.*Audio: /;
// Phone clips store their pixels sideways with a rotation tag; ffmpeg turns them upright when decoding.
const ROTATION = /rotation of (-?\d+(?:\.\d+)?) degrees|rotate\s*:\s*(-?\d+)/;

interface Probed {
  width: number;
  height: number;
  duration: number;
  hasAudio: boolean;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * How a placement decodes its clip: cut to the box's aspect (cover) and scaled to the size the box
 * paints it, by ffmpeg once per frame, so Skia draws it 1:1 with a cheap filter instead of resampling
 * a whole source frame every frame. The picture is the same as placing the source with that fit.
 */
export function decodeGeometry(source: { width: number; height: number }, v: Pick<SceneVideo, 'box' | 'fit'>): { width: number; height: number; filter: string } {
  const { width: sw, height: sh } = source;
  const { width: bw, height: bh } = v.box;
  let crop = '';
  let w = bw;
  let h = bh;
  if (v.fit === 'cover') {
    // The centred part of the source with the box's aspect.
    const cw = Math.min(sw, Math.round(sh * (bw / bh)));
    const ch = Math.min(sh, Math.round(sw * (bh / bw)));
    if (cw < sw || ch < sh) crop = `crop=${cw}:${ch}:${Math.floor((sw - cw) / 2)}:${Math.floor((sh - ch) / 2)},`;
  } else if (v.fit === 'contain') {
    const k = Math.min(bw / sw, bh / sh);
    w = sw * k;
    h = sh * k;
  }
  const k = Math.min(1, MAX_CLIP_SIDE / Math.max(w, h));
  const width = even(w * k);
  const height = even(h * k);
  return { width, height, filter: `${crop}scale=${width}:${height}:flags=bicubic` };
}

async function probe(file: string, ref: SceneImageRef): Promise<Probed> {
  const { execa } = await loadExeca();
  const r = await execa(ffmpegInstaller.path, ['-hide_banner', '-i', file], { reject: false, timeout: 20_000 });
  const d = DURATION.exec(r.stderr);
  const s = SIZE.exec(r.stderr);
  if (!d || !s) {
    const reason = r.stderr.trim().split('\n').pop() ?? 'no video stream';
    throw validationError(ref.at, `"${imageRefKey(ref)}" is not a readable video (${reason}): use an mp4, mov or webm clip`);
  }
  const turn = ROTATION.exec(r.stderr);
  const sideways = turn !== null && Math.abs(Math.round(Number(turn[1] ?? turn[2]) / 90)) % 2 === 1;
  const [width, height] = sideways ? [Number(s[2]), Number(s[1])] : [Number(s[1]), Number(s[2])];
  return { width, height, duration: Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]), hasAudio: AUDIO.test(r.stderr) };
}

export async function loadClips(scene: Scene, resolver: AssetResolver): Promise<Clips> {
  const videos = sceneVideos(scene.objects);
  const dir = videos.length ? await mkdtemp(join(tmpdir(), 'imprint-clips-')) : null;
  const remove = async (): Promise<void> => {
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  const files = new Map<string, Probed & { file: string }>();
  const byKey = new Map<string, Clip>();
  try {
    for (const v of videos) {
      const key = imageRefKey(v.clip);
      if (files.has(key)) continue;
      let bytes: Uint8Array;
      try {
        bytes = await resolver(v.clip);
      } catch (e) {
        if (e instanceof ImprintError) throw e;
        if (e instanceof AssetNotFoundError) throw validationError(v.clip.at, e.message);
        throw new ImprintError('render_failed', v.clip.at, `could not read the clip: ${(e as Error).message}`, { cause: e });
      }
      const file = join(dir!, `clip-${files.size}`);
      await writeFile(file, bytes);
      files.set(key, { file, ...(await probe(file, v.clip)) });
    }
    for (const v of videos) {
      const source = files.get(imageRefKey(v.clip))!;
      if (v.trimStart >= source.duration) throw validationError(`${v.at}.trim_start`, `the clip lasts ${source.duration.toFixed(2)} s: trim_start (${v.trimStart} s) must be earlier`);
      byKey.set(v.decodeKey, { file: source.file, duration: source.duration, hasAudio: source.hasAudio, ...decodeGeometry(source, v) });
    }
  } catch (e) {
    await remove();
    throw e;
  }
  return { byKey, remove };
}

/** The sound of a video object's clip, mixed in while the object is on screen. */
export interface ClipSound {
  /** The clip file (its first audio stream is used). */
  path: string;
  /** The part of the clip that plays, in clip seconds. */
  trimStart: number;
  trimEnd: number;
  /** Play the part again and again while on screen; otherwise once, then silence. */
  loop: boolean;
  /** Seconds into the video when the object appears and disappears. */
  from: number;
  until: number;
}

/**
 * The sounds of the unmuted clips on the video's timeline. Times inside groups (slides) count from
 * the group's start, and a group's end cuts its children.
 */
export function clipSounds(scene: Scene, clips: Clips, duration: number): ClipSound[] {
  const out: ClipSound[] = [];
  const walk = (objects: readonly SceneObject[], offset: number, limit: number): void => {
    for (const o of objects) {
      const from = offset + o.start;
      const until = Math.min(limit, o.end === null ? limit : offset + o.end);
      if (until <= from) continue;
      if (o.type === 'group') walk(o.objects, from, until);
      if (o.type !== 'video' || o.muted) continue;
      const clip = clips.byKey.get(o.decodeKey)!;
      if (!clip.hasAudio) continue;
      out.push({ path: clip.file, trimStart: o.trimStart, trimEnd: Math.min(o.trimEnd ?? clip.duration, clip.duration), loop: o.loop, from, until });
    }
  };
  walk(scene.objects, 0, duration);
  return out;
}

/** Where each video is in its clip at its sampled time: trimmed, looped, or held on the last frame. */
export function clipSeconds(v: SceneVideo, clip: Clip, local: number, fps: number): number {
  const end = Math.min(v.trimEnd ?? clip.duration, clip.duration);
  const length = Math.max(1 / fps, end - v.trimStart);
  const into = v.loop ? ((local % length) + length) % length : Math.min(local, length - 1 / fps);
  return v.trimStart + Math.max(0, into);
}

function frameOf(clip: Clip, rgba: Buffer, key: string): DecodedImage {
  return { kind: 'pixels', width: clip.width, height: clip.height, rgba, hash: key, opaque: true };
}

/** One frame at `seconds` (for stills). */
export async function decodeClipFrame(clip: Clip, seconds: number, key: string): Promise<DecodedImage> {
  const { execa } = await loadExeca();
  const r = await execa(
    ffmpegInstaller.path,
    ['-v', 'error', '-ss', seconds.toFixed(3), '-i', clip.file, '-frames:v', '1', '-vf', clip.filter, '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'],
    { encoding: 'buffer', reject: false, timeout: 20_000 },
  );
  const size = clip.width * clip.height * 4;
  const out = Buffer.from(r.stdout);
  if (r.exitCode !== 0 || out.length < size) throw new ImprintError('render_failed', '$', `could not decode a frame of a clip: ${String(r.stderr).slice(-500)}`);
  return frameOf(clip, out.subarray(0, size), key);
}

/**
 * Sequential frames of one clip at the video's frame rate, from `start` seconds on (looping when
 * asked). Frames are asked for in increasing clip time, or from the start again after a loop.
 */
export class ClipReader {
  private proc: ResultPromise<{ buffer: false; stdout: 'pipe'; stderr: 'pipe'; reject: false }> | null = null;
  /** Decoded bytes not yet taken, as ffmpeg delivered them (joined once per frame, not per chunk). */
  private chunks: Buffer[] = [];
  private pending = 0;
  private index = -1;
  private last: DecodedImage | null = null;
  private ended = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly clip: Clip, private readonly fps: number, private readonly start: number) {}

  private open(execa: typeof Execa.execa): void {
    const proc = execa(ffmpegInstaller.path, ['-v', 'error', '-ss', this.start.toFixed(3), '-i', this.clip.file, '-vf', `fps=${this.fps},${this.clip.filter}`, '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], {
      buffer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      reject: false,
    });
    this.proc = proc;
    this.chunks = [];
    this.pending = 0;
    this.index = -1;
    this.ended = false;
    // A closed decoder may still deliver buffered output: only the current one feeds the reader.
    proc.stdout.on('data', (chunk: Buffer) => {
      if (this.proc !== proc) return;
      this.chunks.push(chunk);
      this.pending += chunk.length;
      // Backpressure: pause ffmpeg while two frames wait.
      if (this.pending >= 2 * this.frameBytes) this.proc?.stdout.pause();
      this.wake();
    });
    proc.stdout.on('end', () => {
      if (this.proc !== proc) return;
      this.ended = true;
      this.wake();
    });
  }

  private get frameBytes(): number {
    return this.clip.width * this.clip.height * 4;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private async next(key: string): Promise<DecodedImage | null> {
    while (this.pending < this.frameBytes) {
      if (this.ended) return null;
      this.proc?.stdout.resume();
      await new Promise<void>((r) => this.waiters.push(r));
    }
    const rgba = Buffer.allocUnsafe(this.frameBytes);
    let filled = 0;
    while (filled < this.frameBytes) {
      const chunk = this.chunks[0]!;
      const n = Math.min(chunk.length, this.frameBytes - filled);
      chunk.copy(rgba, filled, 0, n);
      filled += n;
      if (n === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(n);
    }
    this.pending -= this.frameBytes;
    this.index++;
    return frameOf(this.clip, rgba, key);
  }

  /** The frame `frame` (0 = the reader's start); the last decoded frame once the clip has ended. */
  async frame(frame: number, key: string): Promise<DecodedImage> {
    if (!this.proc || frame < this.index) {
      this.close();
      this.open((await loadExeca()).execa);
    }
    while (this.index < frame) {
      const f = await this.next(key);
      if (!f) break;
      this.last = f;
    }
    if (!this.last) throw new ImprintError('render_failed', '$', 'a clip gave no frames');
    return { ...this.last, hash: key };
  }

  close(): void {
    this.proc?.kill('SIGKILL');
    this.proc = null;
  }
}
