// The paint contract: a backend turns display-list pages plus decoded images into its own output.
// Backends only paint; every position and size was decided by layout. One walker (paint/walk.ts)
// drives every backend through the same primitive calls, so groups, transforms, opacity, layers
// and clipping mean the same thing in raster and pdf output.
import type { DecodedImage, ImageCache, LoadedImage } from '../assets/load.js';
import type { RGBA } from '../scene/scene.js';
import type { BlendMode, DisplayItem, DisplayList, Geometry, Matrix } from '../scene/display-list.js';
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
  /**
   * Raster: pixels per design pixel (default 1). The canvas is the list's size × scale in whole pixels
   * and everything is painted through that transform (text and shapes at the output size, images
   * decoded at the size they end up), never painted at full size and resampled.
   */
  scale?: number;
}

/** One page to paint: its display list and the images it names. */
export interface PageInput {
  list: DisplayList;
  images: ReadonlyMap<string, LoadedImage>;
  /** Images already decoded by the caller (video frames, static layers), by display-list key. */
  ready?: ReadonlyMap<string, DecodedImage>;
}

/** A page after the backend's asynchronous preparation; `list` is what gets walked (a backend may rewrite its images). */
export interface PreparedPage {
  list: DisplayList;
}

export type GroupItem = Extract<DisplayItem, { kind: 'group' }>;
export type ItemOf<K extends DisplayItem['kind']> = Extract<DisplayItem, { kind: K }>;

/**
 * What every backend implements. `paintPages` (walk.ts) calls `prepare` for all pages first (decoding
 * is asynchronous), then draws each page synchronously: beginPage, the primitive calls of the walk,
 * endPage; and finally `finish` for the output. Between beginPage and endPage nothing awaits, so a
 * backend may use shared surfaces (the raster canvas pool) without locking.
 */
export interface PaintBackend<Output, Page extends PreparedPage = PreparedPage> {
  prepare(page: PageInput): Promise<Page>;
  beginPage(page: Page): void;
  /** Saves the graphics state, including the opacity that `opacity` multiplies. */
  save(): void;
  restore(): void;
  transform(m: Matrix): void;
  /** Multiplies the opacity of everything painted until the matching restore. */
  opacity(alpha: number): void;
  /** Normal is the state every page and layer starts in, so it is never set. */
  blend(mode: Exclude<BlendMode, 'normal'>): void;
  /** `evenOdd`: the even-odd rule decides what is inside (SVG clip shapes). */
  clip(geometry: Geometry, evenOdd?: boolean): void;
  /**
   * Starts painting a group on its own (offscreen layer, transparency group), so overlapping parts
   * do not double their alpha; false when the layer would be empty, and then nothing is painted.
   */
  beginLayer(group: GroupItem): boolean;
  /** Composites the layer once, at the group's opacity and blend mode. */
  endLayer(group: GroupItem): void;
  /** Inside a layer, after its items: starts painting the group's mask (its own surface, same coordinates). */
  beginMask(group: GroupItem): void;
  /** Ends the mask and keeps the layer's content only as much as the mask paints (alpha or luminance). */
  endMask(group: GroupItem): void;
  fill(item: ItemOf<'fill'>): void;
  /** Fills the geometry with the gradient (in the same local coordinates as the geometry). */
  gradient(item: ItemOf<'gradient'>): void;
  stroke(item: ItemOf<'stroke'>): void;
  image(item: ItemOf<'image'>): void;
  imageQuad(item: ItemOf<'image_quad'>): void;
  glyphs(item: ItemOf<'glyphs'>): void;
  link(item: ItemOf<'link'>): void;
  endPage(): void;
  finish(): Promise<Output>;
}

/** Raster output: premultiplied RGBA, row-major, no padding. */
export interface RasterImage {
  width: number;
  height: number;
  pixels: Buffer;
  /** All alpha is 255, so the pixels are straight RGBA too and the alpha channel can be dropped. */
  opaque: boolean;
  /** The design's pixels per inch, written as the png or jpg density; absent: none written. */
  dpi?: number;
}
