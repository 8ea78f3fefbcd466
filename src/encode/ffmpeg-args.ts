// encode: the ffmpeg command line for raw rgba frames on stdin → h264 mp4, built as plain data so it
// can be tested without ffmpeg. Bad settings throw a RangeError here rather than an ffmpeg error later.
import type { ClipSound } from '../assets/clips.js';
import { formatList, isFps, isVideoSize, VIDEO_FPS, type Fps, type VideoSize } from '../output-formats.js';

export const VIDEO_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'] as const;
export type VideoPreset = (typeof VIDEO_PRESETS)[number];

export interface VideoAudio {
  /** Audio file ffmpeg can read (mp3, m4a, wav, …). */
  path: string;
  /** Seconds into the file where the soundtrack starts. */
  start: number;
  /** Seconds of audio to use; normally the video's duration. */
  duration: number;
  /** Seconds of fade-out ending at `duration`; 0 for none. */
  fadeOut: number;
}

const MIX_RATE = 48_000;

/**
 * The rgb → yuv conversion, as scale filter options. Left to itself, ffmpeg (swscale) converts with the
 * BT.601 matrix and tags nothing, while browsers decode untagged HD video as BT.709: measured (CIE76),
 * pure green then shows ΔE 19, #1e88e5 ΔE 6. So the conversion uses BT.709, and COLOUR_TAGS say so,
 * so that every player decodes with the matrix the pixels were made with.
 *
 * Range: tv (limited, 16-235), not pc (full). Limited is what H.264 in yuv420p means to every player
 * and browser; a full-range flag is not honoured everywhere, and where it is ignored blacks crush and
 * whites clip. Limited range costs nothing visible at crf 20.
 */
const YUV_CONVERSION = 'out_color_matrix=bt709:out_range=tv';

/**
 * accurate_rnd: without it swscale's fast rgb → yuv path is off by one chroma code (measured on
 * #1e88e5 at the design's size: U/V 179/77 instead of 180/78); it costs no measurable time on 1080²
 * frames.
 */
const SWS_ROUNDING = '+accurate_rnd';

/**
 * The H.264 stream's colour description (its VUI), matching YUV_CONVERSION: primaries and transfer are
 * BT.709, whose primaries are sRGB's, so the design's sRGB colours need no gamut conversion.
 */
const COLOUR_TAGS = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'];

/**
 * write_colr: the same description in the mp4's colr box, which QuickTime and Safari read rather than
 * the H.264 stream (newer ffmpeg writes it by default; the bundled one only with this flag).
 */
const MOVFLAGS = '+faststart+write_colr';

export interface VideoEncodeSettings {
  /** Size of the raw input frames (rgba). */
  width: number;
  height: number;
  fps: Fps;
  /** Output file path (.mp4). */
  output: string;
  /** When given and different from the input size: scaled with lanczos to this (even) size. */
  outputWidth?: number;
  outputHeight?: number;
  /** x264 constant rate factor, 0-51. Default 20. */
  crf?: number;
  /** Default 'veryfast': measured as fast as ultrafast here, with files 7x smaller. */
  preset?: VideoPreset;
  /** Trimmed to `duration` seconds with a fade-out at the end; AAC 128k. */
  audio?: VideoAudio;
  /** Clip sounds mixed over the soundtrack (or alone); needs `duration`, the video's length. */
  clipSounds?: readonly ClipSound[];
  /** Seconds: the length of the mixed audio when there are clip sounds. */
  duration?: number;
  /** A still video: one input frame, repeated by ffmpeg to this many output frames after its
   *  conversion to yuv420p (measured: 1080² × 450 frames in 1.1 s instead of 3 s piped). */
  repeatFrames?: number;
}

export const VIDEO_DEFAULTS = { crf: 20, preset: 'veryfast' } as const satisfies { crf: number; preset: VideoPreset };

export function ffmpegArgs(s: VideoEncodeSettings): string[] {
  if (!isFps(s.fps)) throw new RangeError(`video fps must be ${formatList(VIDEO_FPS)}, got ${String(s.fps)}`);
  positiveInteger('width', s.width);
  positiveInteger('height', s.height);
  if (typeof s.output !== 'string' || s.output === '') throw new RangeError('video output path must be a non-empty string');
  if ((s.outputWidth === undefined) !== (s.outputHeight === undefined)) {
    throw new RangeError('video outputWidth and outputHeight must be given together');
  }
  const outWidth = s.outputWidth ?? s.width;
  const outHeight = s.outputHeight ?? s.height;
  positiveInteger('outputWidth', outWidth);
  positiveInteger('outputHeight', outHeight);
  // yuv420p stores chroma per 2x2 block: x264 refuses odd sizes.
  if (outWidth % 2 !== 0 || outHeight % 2 !== 0) {
    throw new RangeError(`video size must be even for yuv420p, got ${outWidth}x${outHeight} (see evenSize)`);
  }
  const crf = s.crf ?? VIDEO_DEFAULTS.crf;
  if (!Number.isInteger(crf) || crf < 0 || crf > 51) throw new RangeError(`video crf must be an integer 0-51, got ${String(crf)}`);
  const preset = s.preset ?? VIDEO_DEFAULTS.preset;
  if (!(VIDEO_PRESETS as readonly string[]).includes(preset)) {
    throw new RangeError(`video preset must be one of ${VIDEO_PRESETS.join(', ')}, got ${String(preset)}`);
  }
  if (s.audio !== undefined) checkAudio(s.audio);
  const sounds = s.clipSounds ?? [];
  if (sounds.length) {
    if (!(s.duration !== undefined && Number.isFinite(s.duration) && s.duration > 0))
      throw new RangeError(`video duration must be > 0 seconds with clip sounds, got ${String(s.duration)}`);
    sounds.forEach(checkClipSound);
  }

  const fps = String(s.fps);
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostats',
    '-progress',
    'pipe:1',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    '-s',
    `${s.width}x${s.height}`,
    '-framerate',
    fps,
    '-i',
    'pipe:0',
  ];
  if (s.audio) args.push(...soundtrackInput(s.audio));
  for (const c of sounds) args.push('-i', c.path);
  if (sounds.length) {
    args.push('-filter_complex', mixGraph(s.audio, sounds, s.duration!), '-map', '0:v:0', '-map', '[aout]');
  } else if (s.audio) {
    // Explicit maps: an mp3 with cover art has a video stream that ffmpeg's default selection could pick.
    args.push('-map', '0:v:0', '-map', '1:a:0');
  }
  // One scale filter resizes (sd / hd) and converts rgba → yuv420p with the BT.709 matrix; the format
  // filter after it makes that scaler the one doing the conversion, not one ffmpeg would insert itself.
  const resize = outWidth !== s.width || outHeight !== s.height ? `${outWidth}:${outHeight}:flags=lanczos` : 'flags=bicubic';
  const filters = [`scale=${resize}${SWS_ROUNDING}:${YUV_CONVERSION}`, 'format=yuv420p'];
  if (s.repeatFrames !== undefined) {
    positiveInteger('repeatFrames', s.repeatFrames);
    filters.push(`loop=loop=${s.repeatFrames - 1}:size=1:start=0`, `setpts=N/${fps}/TB`);
  }
  args.push('-vf', filters.join(','));
  args.push('-c:v', 'libx264', '-preset', preset, '-crf', String(crf), '-pix_fmt', 'yuv420p', ...COLOUR_TAGS, '-r', fps, '-movflags', MOVFLAGS);
  if (sounds.length) args.push('-c:a', 'aac', '-b:a', '128k');
  else args.push(...soundtrackOutput(s.audio));
  args.push('-y', s.output);
  return args;
}

// Input options: seeking before -i is exact for audio and skips decoding the part before `start`.
function soundtrackInput(a: VideoAudio): string[] {
  return ['-ss', seconds(a.start), '-t', seconds(a.duration), '-i', a.path];
}

function soundtrackOutput(a: VideoAudio | undefined): string[] {
  if (!a) return ['-an'];
  const fade = a.fadeOut > 0 ? ['-af', `afade=t=out:st=${seconds(a.duration - a.fadeOut)}:d=${seconds(a.fadeOut)}`] : [];
  return ['-c:a', 'aac', '-b:a', '128k', ...fade, '-shortest'];
}

/**
 * The audio graph with clip sounds: every input brought to 48 kHz stereo, placed on the video's
 * timeline (trimmed, looped, delayed to when its object appears) and padded to the video's length, then
 * summed. amix divides by the number of inputs; the volume filter after it undoes that, so each sound
 * keeps its own level as in the editors users know.
 */
function mixGraph(audio: VideoAudio | undefined, sounds: readonly ClipSound[], duration: number): string {
  const common = `aresample=${MIX_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo`;
  const end = `apad,atrim=end=${seconds(duration)}`;
  const parts: string[] = [];
  const labels: string[] = [];
  if (audio) {
    const fade = audio.fadeOut > 0 ? `,afade=t=out:st=${seconds(audio.duration - audio.fadeOut)}:d=${seconds(audio.fadeOut)}` : '';
    parts.push(`[1:a:0]${common}${fade},${end}[a0]`);
    labels.push('[a0]');
  }
  const first = audio ? 2 : 1;
  sounds.forEach((c, k) => {
    const length = c.trimEnd - c.trimStart;
    const loop = c.loop ? `,aloop=loop=-1:size=${Math.max(1, Math.round(length * MIX_RATE))}` : '';
    const delay = Math.round(c.from * 1000);
    const label = `[c${k}]`;
    parts.push(
      `[${first + k}:a:0]${common},atrim=start=${seconds(c.trimStart)}:end=${seconds(c.trimEnd)},asetpts=PTS-STARTPTS${loop},atrim=end=${seconds(c.until - c.from)},adelay=${delay}|${delay},${end}${label}`,
    );
    labels.push(label);
  });
  parts.push(
    labels.length === 1
      ? `${labels[0]}anull[aout]`
      : `${labels.join('')}amix=inputs=${labels.length}:duration=longest:dropout_transition=0,volume=${labels.length}[aout]`,
  );
  return parts.join(';');
}

function checkClipSound(c: ClipSound, k: number): void {
  const at = `video clipSounds[${k}]`;
  if (typeof c.path !== 'string' || c.path === '') throw new RangeError(`${at} path must be a non-empty string`);
  if (!(Number.isFinite(c.trimStart) && c.trimStart >= 0 && Number.isFinite(c.trimEnd) && c.trimEnd > c.trimStart)) {
    throw new RangeError(`${at} must have 0 <= trimStart < trimEnd, got ${String(c.trimStart)}..${String(c.trimEnd)}`);
  }
  if (!(Number.isFinite(c.from) && c.from >= 0 && Number.isFinite(c.until) && c.until > c.from)) {
    throw new RangeError(`${at} must have 0 <= from < until, got ${String(c.from)}..${String(c.until)}`);
  }
}

export interface ConcatSettings {
  /** A concat-demuxer list file naming the mp4 segments, in order. */
  list: string;
  output: string;
  /** Added while copying the video: trimmed, faded and encoded as in ffmpegArgs. */
  audio?: VideoAudio;
}

/**
 * Joins h264 mp4 segments without re-encoding (a still video: a short segment repeated), adding the
 * soundtrack if any. Segments must share size, fps and codec settings.
 */
export function concatArgs(s: ConcatSettings): string[] {
  if (typeof s.list !== 'string' || s.list === '') throw new RangeError('video concat list must be a non-empty path');
  if (typeof s.output !== 'string' || s.output === '') throw new RangeError('video output path must be a non-empty string');
  if (s.audio !== undefined) checkAudio(s.audio);
  const args = ['-hide_banner', '-loglevel', 'error', '-nostats', '-f', 'concat', '-safe', '0', '-i', s.list];
  if (s.audio) args.push(...soundtrackInput(s.audio), '-map', '0:v:0', '-map', '1:a:0');
  // Stream copy keeps the segments' colour tags; write_colr repeats them in the joined file's colr box.
  args.push('-c:v', 'copy', '-movflags', MOVFLAGS, ...soundtrackOutput(s.audio), '-y', s.output);
  return args;
}

/** Rounds each side down to even (x264 with yuv420p needs even sizes), at least 2. */
export function evenSize(width: number, height: number): { width: number; height: number } {
  positiveFinite('width', width);
  positiveFinite('height', height);
  return { width: Math.max(2, Math.floor(width / 2) * 2), height: Math.max(2, Math.floor(height / 2) * 2) };
}

/** The delivery size for a video type: short side 720 (sd) or 1080 (hd), aspect kept, both sides even. */
export function sizeForType(width: number, height: number, type: VideoSize): { width: number; height: number } {
  positiveFinite('width', width);
  positiveFinite('height', height);
  if (!isVideoSize(type)) throw new RangeError(`video type must be 'sd' or 'hd', got ${String(type)}`);
  const short = type === 'sd' ? 720 : 1080;
  const scale = short / Math.min(width, height);
  const nearestEven = (v: number) => Math.max(2, Math.round(v / 2) * 2);
  return { width: nearestEven(width * scale), height: nearestEven(height * scale) };
}

function checkAudio(a: VideoAudio): void {
  if (typeof a.path !== 'string' || a.path === '') throw new RangeError('video audio path must be a non-empty string');
  if (!(Number.isFinite(a.start) && a.start >= 0)) throw new RangeError(`video audio start must be >= 0 seconds, got ${String(a.start)}`);
  if (!(Number.isFinite(a.duration) && a.duration > 0)) throw new RangeError(`video audio duration must be > 0 seconds, got ${String(a.duration)}`);
  if (!(Number.isFinite(a.fadeOut) && a.fadeOut >= 0 && a.fadeOut <= a.duration)) {
    throw new RangeError(`video audio fadeOut must be between 0 and the duration (${a.duration} s), got ${String(a.fadeOut)}`);
  }
}

function positiveInteger(name: string, v: number): void {
  if (!(Number.isInteger(v) && v > 0)) throw new RangeError(`video ${name} must be a positive integer, got ${String(v)}`);
}

function positiveFinite(name: string, v: number): void {
  if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be a positive number, got ${String(v)}`);
}

/** Seconds for an ffmpeg option: at most millisecond precision and never exponent notation. */
function seconds(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}
