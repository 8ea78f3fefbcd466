// Colour glyphs (COLR v0/v1, e.g. Noto Color Emoji) as plain data: a list of drawing operations in
// font units, y up, recorded from HarfBuzz by colr-record.ts. Both painters replay the same list (raster
// with Skia, pdf as vector operators), so it holds no canvas, pdf or HarfBuzz types.
import type { RGBA } from '../scene/scene.js';

/** An affine matrix [xx, yx, xy, yy, dx, dy]: x' = xx·x + xy·y + dx, y' = yx·x + yy·y + dy (canvas order a..f). */
export type ColorMatrix = readonly [number, number, number, number, number, number];
/** [xMin, yMin, xMax, yMax]. */
export type ColorBox = readonly [number, number, number, number];
/** A gradient stop; offsets are normalised to 0..1 and sorted (the gradient's geometry absorbs the rest). */
export interface ColorStopOp {
  offset: number;
  color: RGBA;
}
/** How a group is composited onto what was painted before it in the enclosing group. */
export type ColorComposite =
  | 'source-over'
  | 'source-in'
  | 'source-out'
  | 'source-atop'
  | 'destination-over'
  | 'destination-in'
  | 'destination-out'
  | 'destination-atop'
  | 'xor'
  | 'lighter'
  | 'copy'
  | 'clear'
  | 'destination'
  | 'multiply'
  | 'screen'
  | 'overlay'
  | 'darken'
  | 'lighten'
  | 'color-dodge'
  | 'color-burn'
  | 'hard-light'
  | 'soft-light'
  | 'difference'
  | 'exclusion'
  | 'hue'
  | 'saturation'
  | 'color'
  | 'luminosity';

/**
 * One drawing operation. Paints (`solid`, `linear`, `radial`, `sweep`) fill the whole current clip;
 * `bounds` is the glyph's box in the paint's own coordinates (the accumulated transform undone), a
 * rectangle that covers the clip for painters that must fill a shape.
 */
export type ColorOp =
  | { op: 'push_transform'; matrix: ColorMatrix }
  | { op: 'pop_transform' }
  /** Clip to a glyph outline (SVG path data in font units, y up, as the font draws it). */
  | { op: 'push_clip_path'; path: string }
  | { op: 'push_clip_rect'; rect: ColorBox }
  | { op: 'pop_clip' }
  /** `foreground`: the text's own colour with `color`'s alpha as a factor (the rgb of `color` is then black). */
  | { op: 'solid'; color: RGBA; foreground: boolean; bounds: ColorBox }
  /** An axial gradient from p0 (offset 0) to p1 (offset 1), colour lines perpendicular to p0→p1. */
  | { op: 'linear'; p0: readonly [number, number]; p1: readonly [number, number]; stops: readonly ColorStopOp[]; extend: GradientExtend; bounds: ColorBox }
  /**
   * A two-circle radial gradient: circle 0 (offset 0) to circle 1 (offset 1), as canvas and pdf shadings
   * define it (a point takes the largest t whose circle passes through it). A radius may be negative
   * where the font's colour line reaches past the circle where the radius is 0: only circles with r ≥ 0
   * paint (COLRv1; Skia projects such circles likewise).
   */
  | {
      op: 'radial';
      c0: readonly [number, number];
      r0: number;
      c1: readonly [number, number];
      r1: number;
      stops: readonly ColorStopOp[];
      extend: GradientExtend;
      bounds: ColorBox;
    }
  /** A sweep (conic) gradient around `center` from `start` to `end` radians, counter-clockwise in font space. */
  | { op: 'sweep'; center: readonly [number, number]; start: number; end: number; stops: readonly ColorStopOp[]; extend: GradientExtend; bounds: ColorBox }
  /** Starts an isolated group on a transparent backdrop; `bounds` covers what it can paint. */
  | { op: 'push_group'; bounds: ColorBox }
  | { op: 'pop_group'; composite: ColorComposite };

export type GradientExtend = 'pad' | 'repeat' | 'reflect';

/** A colour glyph: its operations and the box they paint in (font units, y up). */
export interface ColorGlyph {
  ops: readonly ColorOp[];
  box: ColorBox;
  /** Whether any paint uses the text colour (then painters must not share one image across colours). */
  usesForeground: boolean;
}
