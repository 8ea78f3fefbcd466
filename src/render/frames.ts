// The mp4 frame loop: samples the scene at each frame time, lays it out, paints it and pipes the
// pixels to ffmpeg. Objects that never change are painted once: those below every animated object
// into a background image, those above them into a transparent overlay; a frame that equals the
// previous one is not painted again; ffmpeg encodes frame n while frame n+1 is painted.
import { ClipReader, clipSeconds, clipSounds, sceneVideos, type Clips } from '../assets/clips.js';
import type { DecodedImage, ImageCache, LoadedImage } from '../assets/load.js';
import { clipFrameKey } from '../scene/keys.js';
import type { Scene } from '../scene/scene.js';
import { evenSize, sizeForType, type VideoAudio } from '../encode/ffmpeg-args.js';
import { encodeStillVideo } from '../encode/still-video.js';
import { VideoEncoder, type VideoEncoderOptions, type VideoProgress } from '../encode/video.js';
import { ImprintError } from '../errors.js';
import { isVideoSize, type Fps, type VideoSize } from '../output-formats.js';
import type { DisplayItem, DisplayList } from '../scene/display-list.js';
import { layout, type FitReport } from '../layout/layout.js';
import { absentTexts, isStatic, sampleScene } from '../layout/timeline.js';
import { rasterBackend } from '../paint/raster.js';
import type { FontSet } from '../text/fonts.js';
import { sizesOf } from './scenes.js';
import type { SvgDocument } from '../svg/parse.js';

export interface VideoOptions {
  fps: Fps;
  /** A soundtrack file ffmpeg reads, trimmed to the video with a fade-out. */
  audio?: VideoAudio;
  /** Output size: the design's (rounded down to even) or interface B's sd / hd. */
  size?: 'design' | VideoSize;
  signal?: AbortSignal;
  onProgress?: (p: VideoProgress) => void;
}

/** Video has no alpha: a transparent canvas (a design without a background) shows white, as in jpg and pdf. */
const MATTE = [255, 255, 255, 1] as const;
const STATIC_KEY = '\u0000static-layers';
const OVERLAY_KEY = '\u0000static-overlay';

interface Frames {
  scene: Scene;
  images: ReadonlyMap<string, LoadedImage>;
  clips: Clips;
  /** Parsed SVG files, by `svgRefKey`. */
  svgs?: ReadonlyMap<string, SvgDocument>;
  fonts: FontSet;
  cache: ImageCache;
}

/** The bottom objects that look the same all video long, painted once (with the background). */
async function staticLayers(
  { scene, images, clips, svgs, fonts, cache }: Frames,
  duration: number,
): Promise<{ pixels: DecodedImage | null; rest: Scene; report: FitReport }> {
  let n = 0;
  while (n < scene.objects.length && isStatic(scene.objects[n]!, duration)) n++;
  if (n === 0) return { pixels: null, rest: scene, report: [] };
  const { displayList, report } = layout({ ...scene, objects: scene.objects.slice(0, n) }, sizesOf(images, clips, svgs), fonts);
  const image = await rasterBackend.paint(displayList, { images, fonts, cache }, { matte: MATTE });
  const pixels: DecodedImage = { kind: 'pixels', width: image.width, height: image.height, rgba: image.pixels, hash: STATIC_KEY, opaque: true };
  return { pixels, rest: { ...scene, objects: scene.objects.slice(n) }, report };
}

/** Pixels painted once and laid over every frame, where they sit (their bounding box). */
interface Overlay {
  image: DecodedImage;
  item: DisplayItem;
}

/** Whether painting `items` onto a transparent layer and compositing it equals painting them in place. */
function composable(items: readonly DisplayItem[]): boolean {
  return items.every((it) => it.kind !== 'group' || ((it.blend ?? 'normal') === 'normal' && composable(it.items)));
}

/**
 * The top objects that look the same all video long (above every animated one), painted once onto a
 * transparent layer cropped to what they cover. Not when one of them blends with what is below it
 * (multiply, screen…): that needs the frame underneath.
 */
async function staticOverlay(
  { scene, images, clips, svgs, fonts, cache }: Frames,
  duration: number,
): Promise<{ overlay: Overlay | null; rest: Scene; report: FitReport }> {
  let m = scene.objects.length;
  while (m > 0 && isStatic(scene.objects[m - 1]!, duration)) m--;
  const top = scene.objects.slice(m);
  if (top.length === 0 || m === 0) return { overlay: null, rest: scene, report: [] };
  const { displayList, report } = layout({ ...scene, objects: top }, sizesOf(images, clips, svgs), fonts);
  // Each object is one item after the background's: keep the objects' only.
  const items = displayList.items.slice(displayList.items.length - top.length);
  if (!composable(items)) return { overlay: null, rest: scene, report: [] };
  const painted = await rasterBackend.paint({ ...displayList, opaque: false, items }, { images, fonts, cache });
  const image = overlayImage(painted.width, painted.height, painted.pixels);
  if (!image) return { overlay: null, rest: { ...scene, objects: scene.objects.slice(0, m) }, report };
  const { x, y, pixels } = image;
  const rect = { x, y, width: pixels.width, height: pixels.height };
  return {
    overlay: { image: pixels, item: { kind: 'image', image: OVERLAY_KEY, src: { ...rect, x: 0, y: 0 }, dst: rect } },
    rest: { ...scene, objects: scene.objects.slice(0, m) },
    report,
  };
}

/**
 * Premultiplied RGBA (the painter's output) → the straight RGBA of its non-transparent bounding box,
 * as a decoded image (what image items draw); null when nothing is visible.
 */
function overlayImage(width: number, height: number, premultiplied: Buffer): { x: number; y: number; pixels: DecodedImage } | null {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (premultiplied[(y * width + x) * 4 + 3]! > 0) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  if (x1 < 0) return null;
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const rgba = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = ((y0 + y) * width + x0 + x) * 4;
      const o = (y * w + x) * 4;
      const a = premultiplied[i + 3]!;
      rgba[o + 3] = a;
      if (a === 0) continue;
      for (let c = 0; c < 3; c++) rgba[o + c] = Math.min(255, Math.round((premultiplied[i + c]! * 255) / a));
    }
  return { x: x0, y: y0, pixels: { kind: 'pixels', width: w, height: h, rgba, hash: OVERLAY_KEY, opaque: false } };
}

/**
 * The frames of the video objects on screen at one frame of the render. One sequential decoder per
 * clip placement (clip + trim start) follows the render's frame clock, so a clip plays at the video's
 * frame rate whatever its own.
 */
class ClipFrames {
  private readers = new Map<string, ClipReader>();
  constructor(
    private readonly clips: Clips,
    private readonly fps: number,
  ) {}

  async at(scene: Scene): Promise<Map<string, DecodedImage>> {
    const ready = new Map<string, DecodedImage>();
    for (const v of sceneVideos(scene.objects)) {
      const key = clipFrameKey(v);
      if (ready.has(key)) continue;
      const clip = this.clips.byKey.get(v.decodeKey)!;
      const id = `${v.decodeKey}:${v.trimStart}`;
      let reader = this.readers.get(id);
      if (!reader) this.readers.set(id, (reader = new ClipReader(clip, this.fps, v.trimStart)));
      const index = Math.round((clipSeconds(v, clip, v.playTime, this.fps) - v.trimStart) * this.fps);
      ready.set(key, await reader.frame(index, key));
    }
    return ready;
  }

  close(): void {
    for (const r of this.readers.values()) r.close();
  }
}

/** Renders `scene` (which has a duration) to H.264 mp4 bytes, plus the fit report of its first frame. */
export async function renderVideo(
  frames: Frames,
  options: VideoOptions,
): Promise<{ bytes: Buffer; report: FitReport; width: number; height: number; frames: number }> {
  const { scene, images, clips, fonts, cache } = frames;
  const duration = scene.duration!;
  const totalFrames = Math.max(1, Math.round(duration * options.fps));
  const { width, height } = evenSize(scene.width, scene.height);
  const out = isVideoSize(options.size) ? sizeForType(width, height, options.size) : { width, height };
  const { pixels: background, rest: aboveBackground, report: staticReport } = await staticLayers(frames, duration);
  const { overlay, rest, report: overlayReport } = await staticOverlay({ ...frames, scene: aboveBackground }, duration);
  const clipFrames = new ClipFrames(clips, options.fps);
  const sizes = sizesOf(images, clips, frames.svgs);

  const sounds = clipSounds(scene, clips, duration);
  const settings: VideoEncoderOptions = {
    width,
    height,
    fps: options.fps,
    totalFrames,
    ...(options.audio ? { audio: options.audio } : {}),
    ...(sounds.length ? { clipSounds: sounds, duration } : {}),
    ...(out.width !== width || out.height !== height ? { outputWidth: out.width, outputHeight: out.height } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
  const result = (bytes: Buffer, report: FitReport) => ({ bytes, report, width: out.width, height: out.height, frames: totalFrames });

  /** The pixels of `sampled` (objects above the static layers at one time) and its fit report. */
  const paintFrame = async (sampled: Scene) => {
    const laid = layout(sampled, sizes, fonts);
    let list: DisplayList = background ? withBackground(laid.displayList, width, height) : laid.displayList;
    if (overlay) list = { ...list, items: [...list.items, overlay.item] };
    const ready = await clipFrames.at(sampled);
    if (background) ready.set(STATIC_KEY, background);
    if (overlay) ready.set(OVERLAY_KEY, overlay.image);
    const image = await rasterBackend.paint(cropped(list, width, height), { images, fonts, cache, steppedSizes: true, ready }, { matte: MATTE });
    return { pixels: image.pixels, report: laid.report };
  };

  // Everything static: one frame, repeated without painting or encoding it again.
  if (rest.objects.length === 0 && background !== null) {
    const { pixels } = await paintFrame(rest);
    return result(await encodeStillVideo(pixels, settings), [...staticReport, ...absentTexts(scene, 0)]);
  }

  const encoder = await VideoEncoder.start(settings);
  let report: FitReport = [];
  try {
    let previousKey = '';
    let previous: Buffer | null = null;
    for (let f = 0; f < totalFrames; f++) {
      if (options.signal?.aborted) throw new ImprintError('render_cancelled', '$', 'the render was cancelled');
      const sampled = sampleScene(rest, f / options.fps);
      // Same sampled scene as the frame before: same pixels.
      const key = JSON.stringify(sampled.objects);
      if (previous === null || key !== previousKey) {
        const frame = await paintFrame(sampled);
        if (f === 0) report = [...staticReport, ...frame.report, ...overlayReport, ...absentTexts(scene, 0)];
        previous = frame.pixels;
        previousKey = key;
      }
      await encoder.writeFrame(previous);
    }
    return result(await encoder.finish(), report);
  } catch (e) {
    await encoder.abort();
    throw e;
  } finally {
    clipFrames.close();
  }
}

/** The frame's own background item replaced by the pre-painted static layers. */
function withBackground(list: DisplayList, width: number, height: number): DisplayList {
  const bg: DisplayItem = { kind: 'image', image: STATIC_KEY, src: { x: 0, y: 0, width, height }, dst: { x: 0, y: 0, width, height } };
  return { ...list, opaque: true, items: [bg, ...list.items.slice(1)] };
}

/** Odd design sizes lose their last row or column: H.264 in yuv420p needs even sizes. */
function cropped(list: DisplayList, width: number, height: number): DisplayList {
  return list.width === width && list.height === height ? list : { ...list, width, height };
}
