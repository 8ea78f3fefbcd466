// What decides, before any pixel is painted, whether a render can succeed: the limits and the checks
// on a resolved scene (the formats themselves are output-formats.ts's). The engine runs them before rendering and the service when it queues a
// task, so a task that could never render is refused at the door with the same message.
import { z } from 'zod';
import { scaledSize } from './scene/display-list.js';
import type { Scene } from './scene/scene.js';
import { validationError } from './errors.js';
import { DEFAULT_FPS, type Fps, type OutputFormat } from './output-formats.js';

/** Interface A's longest video. */
export const MAX_VIDEO_SECONDS = 15;
/** Longest slide video (interface B) unless `maxDuration` says otherwise. */
export const MAX_SLIDE_VIDEO_SECONDS = 300;

/**
 * What one render may cost, checked before it starts so that memory stays bounded whatever is accepted:
 * Skia's canvas, sharp's and ffmpeg's buffers live outside the JavaScript heap limit of a render thread.
 * Measured (docs/api.md#limits): a render adds about 21 MB per megapixel of canvas to the process (the
 * canvas, its pixels read back, the encoder's copy, images decoded at their painted size), and an mp4's
 * ffmpeg about 80 MB per megapixel of frame; two renders at these limits keep the server under 1 GB.
 */
export const RenderLimitsSchema = z.strictObject({
  /**
   * A raster still (png, jpg, webp, avif): canvas width × height (at its `scale`), e.g. 3840 × 2600 or A4 at 300 dpi. pdf pages are vector and exempt.
   * @default 10_000_000
   */
  maxCanvasPixels: z.int().positive(),
  /**
   * mp4: the painted frame, width × height (2048 × 2048, or 2560 × 1600).
   * @default 4_194_304
   */
  maxVideoFramePixels: z.int().positive(),
  /**
   * mp4: frame pixels × frames, the work of the whole video (1920 × 1080 at 60 fps for 300 s).
   * @default 37_324_800_000
   */
  maxVideoPixelFrames: z.number().positive(),
  /**
   * All distinct images of a render together, in source pixels (each image: at most 40 MP).
   * @default 160_000_000
   */
  maxImagePixels: z.int().positive(),
});
export type RenderLimits = z.infer<typeof RenderLimitsSchema>;

export const RENDER_LIMITS: RenderLimits = {
  maxCanvasPixels: 10_000_000,
  maxVideoFramePixels: 2048 * 2048,
  maxVideoPixelFrames: 1920 * 1080 * 60 * 300,
  maxImagePixels: 160_000_000,
};

const mp = (px: number): string => `${Math.round(px / 1e5) / 10} megapixels`;
/** "16.8 megapixels (4096×4096)": the limit with the square of that area, for a feel of its size. */
const area = (px: number): string => `${mp(px)} (${Math.floor(Math.sqrt(px))}×${Math.floor(Math.sqrt(px))})`;

export interface RenderPlan {
  format: OutputFormat;
  /** mp4: longest allowed length in seconds. Default 15, or 300 for a slide video. */
  maxDuration?: number;
  /** Stills: the second to show, when the caller chose one. */
  time?: number;
  /** Raster stills: the canvas is the design's size × scale (default 1). */
  scale?: number;
  /** What the caller can do about a video over the limit (the engine's option, the CLI's flag…). */
  overLimitHint?: string;
  /** mp4: frames per second (default 30), for the video's total work. */
  fps?: Fps;
  /** The budget; default RENDER_LIMITS. */
  limits?: RenderLimits;
  /** JSON paths the errors name: the request's field that the check concerns. */
  at?: { duration?: string; time?: string; size?: string };
}

export function maxDurationOf(scene: Pick<Scene, 'slides'>, maxDuration: number | undefined): number {
  return maxDuration ?? (scene.slides ? MAX_SLIDE_VIDEO_SECONDS : MAX_VIDEO_SECONDS);
}

export function checkRenderable(scene: Pick<Scene, 'duration' | 'slides' | 'width' | 'height'>, plan: RenderPlan): void {
  const at = { duration: '$.duration', time: '$.time', size: '$.width', ...plan.at };
  const limits = plan.limits ?? RENDER_LIMITS;
  const pixels = scene.width * scene.height;
  const size = `${scene.width}×${scene.height}`;
  // A pdf page is drawn as vectors (photos embedded as they are): only raster stills pay for the canvas.
  if (plan.format !== 'mp4' && plan.format !== 'pdf') {
    const scale = plan.scale ?? 1;
    const canvas = scaledSize(scene.width, scene.height, scale);
    const painted = canvas.width * canvas.height;
    if (painted > limits.maxCanvasPixels) {
      const scaled = scale === 1 ? '' : ` at scale ${scale} (${canvas.width}×${canvas.height}, ${mp(painted)})`;
      throw validationError(
        at.size,
        `a ${plan.format} may have at most ${area(limits.maxCanvasPixels)} and this design is ${size} (${mp(pixels)})${scaled}: make the canvas ${scale === 1 ? 'smaller' : 'or the scale smaller'}`,
      );
    }
  }
  if (plan.format === 'mp4') {
    if (pixels > limits.maxVideoFramePixels) {
      throw validationError(
        at.size,
        `mp4 frames may have at most ${area(limits.maxVideoFramePixels)} and this design is ${size} (${mp(pixels)}): make the canvas smaller`,
      );
    }
    if (scene.duration === null) {
      throw validationError(
        at.duration,
        'an mp4 needs an animated design: add "duration" (seconds) to the design, or render it as png, jpg, webp, avif or pdf',
      );
    }
    const max = maxDurationOf(scene, plan.maxDuration);
    if (scene.duration > max) {
      throw validationError(
        at.duration,
        `the video lasts ${scene.duration} s: at most ${max} s are allowed; ${plan.overLimitHint ?? "shorten the design's duration"}`,
      );
    }
    const work = pixels * Math.round(scene.duration * (plan.fps ?? DEFAULT_FPS));
    if (work > limits.maxVideoPixelFrames) {
      throw validationError(
        at.duration,
        `the video is ${size} for ${scene.duration} s at ${plan.fps ?? DEFAULT_FPS} fps: a render may paint at most ` +
          `${Math.round(limits.maxVideoPixelFrames / 1e8) / 10} gigapixels of frames (width × height × frames): make it shorter, smaller or use 30 fps`,
      );
    }
  } else if (plan.time !== undefined && scene.duration !== null && plan.time > scene.duration) {
    throw validationError(
      at.time,
      `the design lasts ${scene.duration} s: give a time from 0 to ${scene.duration} (or leave it out to show the design's poster_time)`,
    );
  }
}

/** The images of one render together: each may have 40 MP, but not dozens of them at once. */
export function checkImagePixels(images: Iterable<{ width: number; height: number; at: string }>, limits: RenderLimits = RENDER_LIMITS): void {
  let total = 0;
  for (const image of images) {
    total += image.width * image.height;
    if (total > limits.maxImagePixels) {
      throw validationError(
        image.at,
        `the images of this render have more than ${mp(limits.maxImagePixels)} together (this one brings the sum to ${mp(total)}): use fewer or smaller images`,
      );
    }
  }
}
