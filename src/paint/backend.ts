// The paint contract: a backend turns a display list plus decoded images into its own output.
// Backends only paint; every position and size was decided by layout.
import type { DecodedImage, ImageCache, LoadedImage } from '../assets/load.js';
import type { RGBA } from '../design/color.js';
import type { DisplayList } from '../layout/display-list.js';
import type { FontSet } from '../text/fonts.js';

export interface PaintResources {
  /** The scene's images by reference, headers read; backends decode what they need. */
  images: ReadonlyMap<string, LoadedImage>;
  fonts: FontSet;
  /** Where a backend keeps images it derives (resampled, warped, tinted) between renders. */
  cache: ImageCache;
  /** Images already decoded by the caller (e.g. a video's pre-painted static layers), by key. */
  ready?: ReadonlyMap<string, DecodedImage>;
  /** Video frames: decode images at sizes rounded up in 9 % steps, so an animated zoom reuses them. */
  steppedSizes?: boolean;
}

export interface PaintOptions {
  /** Painted under everything, for outputs without alpha (jpg). */
  matte?: RGBA;
}

export interface PaintBackend<Output> {
  paint(list: DisplayList, resources: PaintResources, options?: PaintOptions): Promise<Output>;
}

/** Raster output: premultiplied RGBA, row-major, no padding. */
export interface RasterImage {
  width: number;
  height: number;
  pixels: Buffer;
  /** All alpha is 255, so the pixels are straight RGBA too and the alpha channel can be dropped. */
  opaque: boolean;
}
