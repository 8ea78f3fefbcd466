// The mp4 frame loop: samples the scene at each frame time, lays it out, paints it and pipes the
// pixels to ffmpeg. Objects that never change are painted once into a background image; a frame that
// equals the previous one is not painted again; ffmpeg encodes frame n while frame n+1 is painted.
import type { DecodedImage, ImageCache, LoadedImage } from './assets/load.js';
import type { Scene } from './design/types.js';
import { evenSize, sizeForType, type VideoAudio } from './encode/ffmpeg-args.js';
import { VideoEncoder, type VideoProgress } from './encode/video.js';
import { ImprintError } from './errors.js';
import type { DisplayItem, DisplayList } from './layout/display-list.js';
import { layout, type FitReport } from './layout/layout.js';
import { isStatic, sampleScene } from './layout/timeline.js';
import { rasterBackend } from './paint/raster.js';
import type { FontSet } from './text/fonts.js';

export interface VideoOptions {
  fps: 30 | 60;
  /** A soundtrack file ffmpeg reads, trimmed to the video with a fade-out. */
  audio?: VideoAudio;
  /** Output size: the design's (rounded down to even) or interface B's sd / hd. */
  size?: 'design' | 'sd' | 'hd';
  signal?: AbortSignal;
  onProgress?: (p: VideoProgress) => void;
}

const BLACK = [0, 0, 0, 1] as const;
const STATIC_KEY = '\u0000static-layers';

interface Frames {
  scene: Scene;
  images: ReadonlyMap<string, LoadedImage>;
  fonts: FontSet;
  cache: ImageCache;
}

/** The bottom objects that look the same all video long, painted once (with the background). */
async function staticLayers({ scene, images, fonts, cache }: Frames, duration: number): Promise<{ pixels: DecodedImage | null; rest: Scene }> {
  let n = 0;
  while (n < scene.objects.length && isStatic(scene.objects[n]!, duration)) n++;
  if (n === 0) return { pixels: null, rest: scene };
  const { displayList } = layout({ ...scene, objects: scene.objects.slice(0, n) }, sizesOf(images), fonts);
  const image = await rasterBackend.paint(displayList, { images, fonts, cache }, { matte: BLACK });
  const pixels: DecodedImage = { kind: 'pixels', width: image.width, height: image.height, rgba: image.pixels, hash: STATIC_KEY, opaque: true };
  return { pixels, rest: { ...scene, objects: scene.objects.slice(n) } };
}

function sizesOf(images: ReadonlyMap<string, LoadedImage>) {
  return new Map([...images].map(([k, v]) => [k, { width: v.width, height: v.height, opaque: v.opaque }]));
}

/** Renders `scene` (which has a duration) to H.264 mp4 bytes, plus the fit report of its first frame. */
export async function renderVideo(frames: Frames, options: VideoOptions): Promise<{ bytes: Buffer; report: FitReport; width: number; height: number; frames: number }> {
  const { scene, images, fonts, cache } = frames;
  const duration = scene.duration!;
  const totalFrames = Math.max(1, Math.round(duration * options.fps));
  const { width, height } = evenSize(scene.width, scene.height);
  const out = options.size === 'sd' || options.size === 'hd' ? sizeForType(width, height, options.size) : { width, height };
  const { pixels: background, rest } = await staticLayers(frames, duration);
  const ready = background ? new Map([[STATIC_KEY, background]]) : undefined;

  // Everything static: one frame, repeated by ffmpeg.
  const still = rest.objects.length === 0 && background !== null;
  const encoder = await VideoEncoder.start({
    width,
    height,
    fps: options.fps,
    totalFrames,
    ...(still ? { repeatFrames: totalFrames } : {}),
    ...(options.audio ? { audio: options.audio } : {}),
    ...(out.width !== width || out.height !== height ? { outputWidth: out.width, outputHeight: out.height } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  let report: FitReport = [];
  try {
    let previousKey = '';
    let previous: Buffer | null = null;
    for (let f = 0; f < (still ? 1 : totalFrames); f++) {
      if (options.signal?.aborted) throw new ImprintError('render_cancelled', '$', 'the render was cancelled');
      const sampled = sampleScene(rest, f / options.fps);
      // Same sampled scene as the frame before: same pixels.
      const key = JSON.stringify(sampled.objects);
      if (previous === null || key !== previousKey) {
        const laid = layout(sampled, sizesOf(images), fonts);
        if (f === 0) report = laid.report;
        const list: DisplayList = background ? withBackground(laid.displayList, width, height) : laid.displayList;
        const image = await rasterBackend.paint(cropped(list, width, height), { images, fonts, cache, steppedSizes: true, ...(ready ? { ready } : {}) }, { matte: BLACK });
        previous = image.pixels;
        previousKey = key;
      }
      await encoder.writeFrame(previous);
    }
    return { bytes: await encoder.finish(), report, width: out.width, height: out.height, frames: totalFrames };
  } catch (e) {
    await encoder.abort();
    throw e;
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
