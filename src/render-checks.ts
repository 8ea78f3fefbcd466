// What decides, before any pixel is painted, whether a render can succeed: the output formats and the
// checks on a resolved scene. The engine runs them before rendering and the service when it queues a
// task, so a task that could never render is refused at the door with the same message.
import type { Scene } from './design/types.js';
import { IMAGE_FORMATS, type ImageFormat } from './encode/image.js';
import { validationError } from './errors.js';

export type OutputFormat = ImageFormat | 'pdf' | 'mp4';
export const OUTPUT_FORMATS: readonly OutputFormat[] = [...IMAGE_FORMATS, 'pdf', 'mp4'];

/** Interface A's longest video. */
export const MAX_VIDEO_SECONDS = 15;
/** Longest slide video (interface B) unless `maxDuration` says otherwise. */
export const MAX_SLIDE_VIDEO_SECONDS = 300;

/** "png, jpg, webp, avif, pdf or mp4": for messages. */
export function formatList(formats: readonly string[] = OUTPUT_FORMATS): string {
  return `${formats.slice(0, -1).join(', ')} or ${formats[formats.length - 1]}`;
}

export interface RenderPlan {
  format: OutputFormat;
  /** mp4: longest allowed length in seconds. Default 15, or 300 for a slide video. */
  maxDuration?: number;
  /** Stills: the second to show, when the caller chose one. */
  time?: number;
  /** What the caller can do about a video over the limit (the engine's option, the CLI's flag…). */
  overLimitHint?: string;
  /** JSON paths the errors name: the request's field that the check concerns. */
  at?: { duration?: string; time?: string };
}

export function maxDurationOf(scene: Pick<Scene, 'slides'>, maxDuration: number | undefined): number {
  return maxDuration ?? (scene.slides ? MAX_SLIDE_VIDEO_SECONDS : MAX_VIDEO_SECONDS);
}

export function checkRenderable(scene: Pick<Scene, 'duration' | 'slides'>, plan: RenderPlan): void {
  const at = { duration: '$.duration', time: '$.time', ...plan.at };
  if (plan.format === 'mp4') {
    if (scene.duration === null) {
      throw validationError(at.duration, 'an mp4 needs an animated design: add "duration" (seconds) to the design, or render it as png, jpg, webp, avif or pdf');
    }
    const max = maxDurationOf(scene, plan.maxDuration);
    if (scene.duration > max) {
      throw validationError(at.duration, `the video lasts ${scene.duration} s: at most ${max} s are allowed; ${plan.overLimitHint ?? "shorten the design's duration"}`);
    }
  } else if (plan.time !== undefined && scene.duration !== null && plan.time > scene.duration) {
    throw validationError(at.time, `the design lasts ${scene.duration} s: give a time from 0 to ${scene.duration} (or leave it out to show the design's poster_time)`);
  }
}
