// The display list: positioned paint primitives, the only input a paint backend reads. Plain data,
// so it can be asserted in tests, cached, or handed to another process; and the pixel size of a scaled raster page.
import type { ColorFilters, RGBA, Point, Quad, Rect, Sides } from './scene.js';

/** Affine matrix [a, b, c, d, e, f] as in canvas `transform(a, b, c, d, e, f)`. */
export type Matrix = readonly [number, number, number, number, number, number];

export type Geometry =
  | { kind: 'rect'; rect: Rect }
  | { kind: 'round_rect'; rect: Rect; radius: number }
  | { kind: 'ellipse'; rect: Rect }
  /** Closed polygon. */
  | { kind: 'polygon'; points: readonly Point[] }
  /** Open line through the points (strokes only). */
  | { kind: 'polyline'; points: readonly Point[] }
  /** Pie or donut slice; angles in radians from the +x axis, clockwise (y points down). */
  | { kind: 'wedge'; cx: number; cy: number; radius: number; innerRadius: number; start: number; end: number }
  /** SVG path data in the normalised form of svg/path-data.ts: absolute M, L, C, Q and Z only (arcs are cubics). */
  | { kind: 'path'; d: string };

/** The geometries that fill a rectangle: shape outlines and canvas backgrounds. */
export type BoxGeometry = Extract<Geometry, { rect: Rect }>;

/** A colour at `offset` (0..1, ascending) of a gradient; colours between stops mix channel by channel, alpha included. */
export interface GradientStop {
  offset: number;
  color: RGBA;
}

/** A gradient in the item's coordinates; before the first stop and after the last the end colours extend. */
export type Gradient =
  /** Offset 0 at `from`, 1 at `to`, constant along perpendiculars. */
  | { kind: 'linear'; from: Point; to: Point; stops: readonly GradientStop[] }
  /** Offset 0 at the centre, 1 on the circle of `radius`. */
  | { kind: 'radial'; center: Point; radius: number; stops: readonly GradientStop[] };

/**
 * A drop shadow of a group: everything the group paints, as one silhouette in `color`, blurred (Gaussian
 * σ = blur / 2) and shifted by `offset`. Blur and offset are in page pixels, whatever the group's transform.
 */
export interface Shadow {
  color: RGBA;
  blur: number;
  offset: Point;
}

export type BlendMode = 'normal' | 'multiply' | 'screen';

export interface PositionedGlyph {
  id: number;
  /** Baseline origin of the glyph in the group's coordinates. */
  x: number;
  y: number;
  /**
   * The characters this glyph stands for, in reading order: each glyph its own where a cluster's
   * glyphs stand one for one for its characters (a letter and its marks), otherwise all of the
   * cluster's on its first glyph (last in right-to-left text; a ligature: several). Vector output maps
   * glyphs back to text with it.
   */
  chars?: string;
  /** With `chars`: the glyph's cluster runs right to left (its glyphs are in visual order). */
  rtl?: true;
}

export type DisplayItem =
  | {
      kind: 'group';
      transform: Matrix;
      opacity: number;
      /** Local rectangle that contains everything the group paints (for offscreen layers). */
      bounds: Rect;
      clip: Geometry | null;
      /** The clip's inside is by the even-odd rule (SVG clip shapes); default nonzero. */
      clipEvenOdd?: boolean;
      /** How the group composites onto what is below. Default normal. */
      blend?: BlendMode;
      /** Painted under the group's content, at the group's opacity. */
      shadow?: Shadow;
      /**
       * CSS filter: blur(<blur>px) of the composited group, shadow included, before its opacity:
       * a Gaussian of σ = blur page pixels. `bounds` already reach 3σ beyond the content.
       */
      blur?: number;
      /**
       * The group's content is kept only as much as these items paint, in the group's coordinates:
       * by their alpha, or (`luminance`) by their luminance × alpha over transparent black (SVG's
       * <mask>; Polotno's "source-in" of a picture over a drawing). Applied before shadow and opacity.
       */
      mask?: { items: DisplayItem[]; luminance: boolean };
      items: DisplayItem[];
    }
  /** `evenOdd`: the inside is by the even-odd rule (SVG fill-rule); default nonzero. */
  | { kind: 'fill'; geometry: Geometry; color: RGBA; evenOdd?: boolean }
  | { kind: 'gradient'; geometry: Geometry; gradient: Gradient; evenOdd?: boolean }
  | {
      kind: 'stroke';
      geometry: Geometry;
      color: RGBA;
      width: number;
      /** Dash and gap lengths, alternating (an even count; zeros allowed). */
      dash: readonly number[] | null;
      join?: 'miter' | 'round' | 'bevel';
      /** Default: round with round joins, else butt. */
      cap?: 'butt' | 'round' | 'square';
      /** Miter joins longer than this many widths are bevelled. Default 10 (canvas and pdf). */
      miterLimit?: number;
      /** Where the dash pattern starts, in px along the path. Default 0. */
      dashOffset?: number;
    }
  /**
   * `tint` replaces the image's colour and keeps its alpha (a coloured mask). `filters` change the
   * pixels' colours (CSS filter functions) before they are drawn; the painters key decoded pixels by them.
   */
  | { kind: 'image'; image: string; src: Rect; dst: Rect; tint?: RGBA; filters?: ColorFilters }
  /** The `src` part of the image, warped so its corners land on `quad` (perspective). */
  | { kind: 'image_quad'; image: string; src: Rect; quad: Quad; tint?: RGBA }
  | {
      kind: 'glyphs';
      face: string;
      size: number;
      color: RGBA;
      glyphs: PositionedGlyph[];
      text: string;
      /**
       * Present: the glyphs are outlined instead of filled, a stroke this wide (px, centred on each
       * outline, round joins) in `color`. Layout puts a text object's outlines before all its fills.
       */
      strokeWidth?: number;
      /**
       * Present: the glyphs are filled with this gradient (in the group's coordinates, spread over the
       * text's box) instead of `color`, as CSS background-clip: text paints them. Never on outlines.
       */
      gradient?: Gradient;
    }
  | { kind: 'link'; rect: Rect; url: string };

export interface DisplayList {
  /** Design pixels; may be fractional: a raster page is scaledSize() of them, a pdf page exactly them. */
  width: number;
  height: number;
  /** Pixels per inch (pdf points per pixel = 72 / dpi; png and jpg density); absent: 96, CSS pixels. */
  dpi?: number;
  /** Print bleed around the page: a pdf page grows by it and marks the canvas as its TrimBox; rasters leave it out. */
  bleed?: Sides;
  /** The background covers the canvas with full alpha, so every output pixel is opaque. */
  opaque: boolean;
  items: DisplayItem[];
}

/** Width and height of a raster page of a `width`×`height` design at `scale`: whole pixels, at least 1. */
export function scaledSize(width: number, height: number, scale = 1): { width: number; height: number } {
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
