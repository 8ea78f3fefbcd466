// The display list: positioned paint primitives, the only input a paint backend reads. Plain data,
// so it can be asserted in tests, cached, or handed to another process.
import type { RGBA } from '../design/color.js';
import type { Rect } from '../design/types.js';

/** Affine matrix [a, b, c, d, e, f] as in canvas `transform(a, b, c, d, e, f)`. */
export type Matrix = readonly [number, number, number, number, number, number];

export type Geometry =
  | { kind: 'rect'; rect: Rect }
  | { kind: 'round_rect'; rect: Rect; radius: number }
  | { kind: 'ellipse'; rect: Rect };

export interface PositionedGlyph {
  id: number;
  /** Baseline origin of the glyph in the group's coordinates. */
  x: number;
  y: number;
}

export type DisplayItem =
  | {
      kind: 'group';
      transform: Matrix;
      opacity: number;
      /** Local rectangle that contains everything the group paints (for offscreen layers). */
      bounds: Rect;
      clip: Geometry | null;
      items: DisplayItem[];
    }
  | { kind: 'fill'; geometry: Geometry; color: RGBA }
  | { kind: 'stroke'; geometry: Geometry; color: RGBA; width: number; dash: readonly number[] | null }
  | { kind: 'image'; image: string; src: Rect; dst: Rect }
  | { kind: 'glyphs'; face: string; size: number; color: RGBA; glyphs: PositionedGlyph[]; text: string }
  | { kind: 'link'; rect: Rect; url: string };

export interface DisplayList {
  width: number;
  height: number;
  /** The background covers the canvas with full alpha, so every output pixel is opaque. */
  opaque: boolean;
  items: DisplayItem[];
}

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
