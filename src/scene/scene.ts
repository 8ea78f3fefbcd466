// The Scene: a design with overrides applied, defaults filled in and every value resolved
// (colours parsed, markup split into spans, aliases mapped). Plain data: resolve writes it, layout reads only this.

/** A colour with channels 0..255 and alpha 0..1. */
export type RGBA = readonly [r: number, g: number, b: number, a: number];

/** A checked image (or clip, or sound) reference: a path inside the design folder, or an asset the host resolves. */
export type ImageRef = { kind: 'path'; path: string } | { kind: 'asset'; name: string };

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An image reference plus the JSON path it came from, so loading errors can point at it. */
export type SceneImageRef = ImageRef & { at: string };

export interface SceneSpan {
  text: string;
  weight: number;
  /** Default normal. */
  style?: 'normal' | 'italic';
  /** A family other than the text object's (substyle font_family). */
  family?: string;
  color: RGBA;
  underline: boolean;
  /** A line through the text (font's OS/2 strikeout metrics). Absent: false. */
  strikethrough?: boolean;
  link?: string;
}

/** A timing curve as CSS cubic-bezier control points (linear is 0, 0, 1, 1). */
export type Easing = readonly [x1: number, y1: number, x2: number, y2: number];

export type AnimatedProperty = 'x' | 'y' | 'width' | 'height' | 'rotation' | 'opacity' | 'scale';
export type Edge = 'left' | 'right' | 'top' | 'bottom';

export type SceneAnimation =
  | { kind: 'keyframes'; property: AnimatedProperty; keyframes: { time: number; value: number }[]; easing: Easing }
  | {
      kind: 'fade_in' | 'fade_out' | 'slide_in' | 'slide_out' | 'scale_in' | 'reveal';
      duration: number;
      delay: number;
      easing: Easing;
      edge: Edge;
      by: 'word' | 'line';
    };

interface SceneBase {
  name?: string;
  box: Rect;
  rotation: number;
  opacity: number;
  /** Grows the object around the centre of its box (animations). */
  scale: number;
  /** Seconds on the timeline; end null = to the end of the video. */
  start: number;
  end: number | null;
  animations: SceneAnimation[];
  /** Drop shadow under what the object paints (shapes, images, text take one); absent or null: none. */
  shadow?: SceneShadow | null;
}

export interface SceneText extends SceneBase {
  type: 'text';
  spans: SceneSpan[];
  family: string;
  fontSize: number;
  minFontSize: number;
  /** start and end follow each paragraph's direction. */
  align: 'left' | 'center' | 'right' | 'justify' | 'start' | 'end';
  /** Base direction of each paragraph; auto (default) takes it from the first strong character. */
  direction?: 'auto' | 'ltr' | 'rtl';
  lineHeight: number;
  letterSpacing: number;
  strategy: 'fit' | 'fixed-width';
  valign: 'top' | 'center' | 'bottom';
  /** Outline around the glyphs (px, centred on the outline, painted under the fill); absent: none. */
  stroke?: { color: RGBA; width: number };
  /** A box painted behind the laid-out text (per line or around all lines); absent: none. */
  background?: SceneTextBackground;
  /** Part of the text shown by a reveal animation at the sampled time (layout keeps the full text's lines). */
  reveal?: { by: 'word' | 'line'; progress: number };
}

export interface SceneTextBackground {
  color: RGBA;
  /** px added left and right (x) and above and below (y) of each line's (or the block's) extent. */
  padding: { x: number; y: number };
  cornerRadius: number;
  mode: 'lines' | 'box';
}

export type MediaFit = 'cover' | 'contain' | 'fill';

export interface SceneImage extends SceneBase {
  type: 'image';
  image: SceneImageRef;
  fit: MediaFit;
  /** Part of the source used, in fractions 0–1 of the image. Absent: the whole image. */
  crop?: Rect;
  /** With cover: the point kept nearest the box centre, in fractions 0–1 of the whole image. Absent: the crop's centre. */
  focus?: Point;
  /** Rounded corners of the picture area, px (layout caps it at half the shorter side). Absent: 0. */
  cornerRadius?: number;
  /** Clip shape of the picture area; wins over cornerRadius. Absent: none. */
  mask?: ImageMask;
  /** Mirror the picture inside its area (after crop and fit). Absent: false. */
  flipX?: boolean;
  flipY?: boolean;
  /** CSS colour filters on the picture's pixels; absent when they change nothing. */
  filters?: ColorFilters;
  /** Border inside the picture area, along its clip. Absent: none. */
  border?: { width: number; color: RGBA };
}

/**
 * CSS Filter Effects 1 colour filters, applied in this order: grayscale, sepia (amounts 0–1, 0 =
 * none), brightness, contrast, saturate (factors, 1 = none). Every field is present.
 */
export interface ColorFilters {
  grayscale: number;
  sepia: number;
  brightness: number;
  contrast: number;
  saturate: number;
}

export type ImageMask = 'none' | 'circle' | 'ellipse';

export interface SceneGradientStop {
  /** 0..1 along the gradient; ascending. */
  offset: number;
  color: RGBA;
}

export type SceneFill =
  | { kind: 'color'; color: RGBA }
  | { kind: 'image'; image: SceneImageRef }
  /** CSS angle in degrees: 0 = towards the top, clockwise. */
  | { kind: 'linear_gradient'; angle: number; stops: SceneGradientStop[] }
  /** Centre as fractions of the box; radius as a fraction of the box's half-diagonal. */
  | { kind: 'radial_gradient'; center: Point; radius: number; stops: SceneGradientStop[] };

/** A drop shadow; blur and offsets in canvas pixels. */
export interface SceneShadow {
  color: RGBA;
  blur: number;
  offsetX: number;
  offsetY: number;
}

export interface SceneShape extends SceneBase {
  type: 'shape';
  shape: 'rect' | 'rounded_rect' | 'ellipse';
  cornerRadius: number;
  fill: SceneFill | null;
  border: { width: number; color: RGBA; style: 'solid' | 'dashed' } | null;
  shadow: SceneShadow | null;
}

export interface SceneNumberFormat {
  /** null: as many as the axis step needs. */
  decimals: number | null;
  thousands: string;
  decimal: string;
  prefix: string;
  suffix: string;
}

export interface SceneChart extends SceneBase {
  type: 'chart';
  chartType: 'bar' | 'column' | 'stacked_column' | 'line' | 'area' | 'pie' | 'donut';
  categories: string[];
  /** One entry per data row; null is a gap. */
  series: { name: string; values: (number | null)[] }[];
  colors: RGBA[];
  family: string;
  fontSize: number;
  textColor: RGBA;
  title: string | null;
  legend: 'top' | 'bottom' | 'right' | 'none';
  dataLabels: boolean;
  gridlines: boolean;
  numberFormat: SceneNumberFormat;
  donutHole: number;
  lineWidth: number;
}

export type Point = readonly [x: number, y: number];
export type Quad = readonly [Point, Point, Point, Point];

/** Where a mockup layer goes, in base-image pixels. */
export type LayerArea = { kind: 'rect'; rect: Rect } | { kind: 'quad'; quad: Quad };

interface SceneLayerBase {
  id: string;
  area: LayerArea;
  opacity: number;
  blend: 'normal' | 'multiply' | 'screen';
}

export type SceneMockupLayer =
  | (SceneLayerBase & { kind: 'image'; image: SceneImageRef | null; fit: MediaFit })
  | (SceneLayerBase & { kind: 'color'; color: RGBA; mask: SceneImageRef | null })
  | (SceneLayerBase & { kind: 'artwork'; image: SceneImageRef });

export interface SceneMockup extends SceneBase {
  type: 'mockup';
  base: SceneImageRef;
  /** Visible layers, bottom first. */
  layers: SceneMockupLayer[];
}

export interface SceneVideo extends SceneBase {
  type: 'video';
  /** JSON path of the object, for errors found once the clip is probed. */
  at: string;
  clip: SceneImageRef;
  /** The clip as this placement decodes it (clip, box size, fit): frames are cut and scaled to the box by ffmpeg. */
  decodeKey: string;
  trimStart: number;
  trimEnd: number | null;
  loop: boolean;
  muted: boolean;
  fit: MediaFit;
  /** Seconds the object has been on screen at the sampled time (set by sampling); the clip position follows from it. */
  playTime: number;
}

/** Objects moved, faded and timed together: a slide of a slide video. Children's times are relative to its start. */
export interface SceneGroup extends SceneBase {
  type: 'group';
  objects: SceneObject[];
}

export type SceneObject = SceneText | SceneImage | SceneShape | SceneChart | SceneMockup | SceneGroup | SceneVideo;

export interface Scene {
  width: number;
  height: number;
  /** Video length in seconds; null for a still design. */
  duration: number | null;
  /** A slide video (interface B's model; its longest default length is 300 s, not 15). */
  slides: boolean;
  /** The design's `poster_time`: the second a still shows; null = the default (layout/timeline's stillTime). */
  posterTime: number | null;
  /** mp4 soundtrack. */
  audio: { file: SceneImageRef; start: number; fadeOut: number } | null;
  background: SceneFill;
  /** Visible objects in z-order (hidden ones are dropped here). */
  objects: SceneObject[];
}
