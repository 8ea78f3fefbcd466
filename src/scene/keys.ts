// The names under which loaded images and clip frames are found: layout writes them into display
// items, assets and the frame loop load under them, paint looks them up. One definition for all three.
import type { ImageRef } from './scene.js';

export function imageRefKey(ref: ImageRef): string {
  return ref.kind === 'asset' ? `asset:${ref.name}` : ref.path;
}

/** Display-list key of a video object's frame at its sampled play time. */
export function clipFrameKey(v: { decodeKey: string; playTime: number; trimStart: number }): string {
  return `clip:${v.decodeKey}:${v.trimStart}:${v.playTime.toFixed(4)}`;
}

/** Layout's key of an SVG file's parsed drawing (its own namespace: the same file may also be a picture). */
export function svgRefKey(ref: ImageRef): string {
  return `svg:${imageRefKey(ref)}`;
}
