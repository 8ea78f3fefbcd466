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
  /** true: painted with the text object's gradient `fill` instead of `color` (no substyle colour of its own). */
  fill?: true;
  underline: boolean;
  /** A line through the text (font's OS/2 strikeout metrics). Absent: false. */
  strikethrough?: boolean;
  link?: string;
  /** A language other than the text object's (substyle lang), canonical BCP 47. */
  lang?: string;
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

/** What every scene object has, whatever its type: its box, turn, opacity, time on screen and effects. */
export interface SceneBase {
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
  /** Drop shadow under what the object paints; absent or null: none. */
  shadow?: SceneShadow | null;
  /** CSS filter: blur(<blur>px) of everything the object paints (its shadow too), canvas px; absent: none. */
  blur?: number;
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
  /** The text's language, canonical BCP 47 (its own lang, else the design's); absent: none given. */
  lang?: string;
  lineHeight: number;
  letterSpacing: number;
  strategy: 'fit' | 'fixed-width';
  valign: 'top' | 'center' | 'bottom';
  /** normal: a word wider than the box stays whole (overflows); absent or break-word: it is split. */
  overflowWrap?: 'normal' | 'break-word';
  /** fit: step down from fontSize by this many px, first fit wins (Polotno); absent: bisection. */
  fitStep?: number;
  /** fit: the box takes the text's height once the size is found (top edge fixed); absent: it keeps its height. */
  fitHeightFollowsText?: true;
  /** fit: a split word still fits (only the height counts); absent: false. */
  fitSplitWords?: true;
  /** A paragraph's last line aligns with its trailing spaces (when they fit), as Konva does; absent: they hang. */
  keepTrailingSpaces?: true;
  /** Gradient painted through the glyphs of spans marked `fill`, spread over the text's box (CSS background-clip: text). */
  fill?: GradientSceneFill;
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
  mode: 'lines' | 'box' | 'full_width';
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
  /** An SVG whose filled shapes (their union) clip the picture area, its viewBox stretched to it; wins over mask and cornerRadius. */
  clipSvg?: SceneImageRef;
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

/** A vector drawing from an SVG file, drawn as paths in both backends. */
export interface SceneSvg extends SceneBase {
  type: 'svg';
  svg: SceneImageRef;
  /** Colours of the file (as lower-case #rrggbbaa) painted in another colour. */
  colors: Readonly<Record<string, RGBA>>;
  /** How the drawing fills the box; null: as the file's preserveAspectRatio says (an <img> of it). */
  fit: MediaFit | null;
  /** A picture (cover, centred in the box) shown through the drawing's filled shapes instead of its paint. Absent: none. */
  fillImage?: SceneImageRef;
  /** Rounded corners of the box the drawing is clipped to, px (layout caps it). Absent: 0. */
  cornerRadius?: number;
  /** Border along the inside of the box, as Polotno draws it (see layout). Absent: none. */
  border?: { width: number; color: RGBA };
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

export type GradientSceneFill = Extract<SceneFill, { kind: 'linear_gradient' | 'radial_gradient' }>;

/** A drop shadow; blur and offsets in canvas pixels. */
export interface SceneShadow {
  color: RGBA;
  blur: number;
  offsetX: number;
  offsetY: number;
}

/** Outlines of shape objects; all but rect, rounded_rect and ellipse are drawn by layout/outlines.ts. */
export const SHAPE_OUTLINES = [
  'rect',
  'rounded_rect',
  'ellipse',
  'triangle',
  'right_triangle',
  'diamond',
  'pentagon',
  'hexagon',
  'octagon',
  'star',
  'cross',
  'arrow_right',
  'arrow_left',
  'arrow_up',
  'arrow_down',
  'heart',
  'speech_bubble',
  'polygon',
  'path',
] as const;

export type ShapeOutline = (typeof SHAPE_OUTLINES)[number];

/** Star defaults: 5 points and the inner radius of a regular pentagram, cos 72° / cos 36° ≈ 0.382. */
export const STAR_POINTS = 5;
export const STAR_INNER_RADIUS = Math.cos((2 * Math.PI) / 5) / Math.cos(Math.PI / 5);

export interface SceneShape extends SceneBase {
  type: 'shape';
  shape: ShapeOutline;
  cornerRadius: number;
  /** The star's points and inner radius (fraction of the outer); absent: 5 and a regular pentagram's. */
  star?: { points: number; innerRadius: number };
  /** A polygon's corners in fractions of the box (shape polygon). */
  vertices?: readonly Point[];
  /**
   * Shape path: SVG path data and the rectangle of its coordinates that is stretched to the box. Its
   * border is drawn in those coordinates (stretched with the outline), as an SVG stroke.
   */
  path?: { d: string; viewBox: Rect };
  /**
   * The "button" pattern: at layout the box becomes the named sibling text's laid-out lines grown by
   * `padding`, turned with the text; when that text is not on screen, the shape is not drawn either.
   */
  wrap?: { object: string; padding: { x: number; y: number } };
  fill: SceneFill | null;
  /** `dash`: lengths in multiples of the width (wins over style). */
  border: { width: number; color: RGBA; style: 'solid' | 'dashed'; dash?: readonly number[] } | null;
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
  /** The labels' language: the design's, canonical BCP 47; absent: none given. */
  lang?: string;
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

export type LineHead = 'none' | 'arrow' | 'triangle' | 'circle' | 'square' | 'bar';

/** A straight line from the left middle to the right middle of its box, with optional heads. */
export interface SceneLine extends SceneBase {
  type: 'line';
  color: RGBA;
  /** Stroke width, px. */
  width: number;
  /** Dash and gap lengths in multiples of the stroke width; empty: solid. */
  dash: number[];
  cap: 'butt' | 'round' | 'square';
  startHead: LineHead;
  endHead: LineHead;
}

export type SceneObject = SceneText | SceneImage | SceneShape | SceneChart | SceneMockup | SceneGroup | SceneVideo | SceneSvg | SceneLine;

/** A scene object of any type, one registered beside the built-in types included (objects/registry.ts): what all have, and a `type`. */
export type AnySceneObject = SceneBase & { type: string };

/** Print bleed of each side, in design pixels. */
export interface Sides {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface Scene {
  /** Design pixels; may be fractional (a print size at a dpi): rasters round them, a pdf keeps them. */
  width: number;
  height: number;
  /** The design's `dpi` (pdf points per pixel = 72 / dpi; png and jpg density); absent: 96, CSS pixels. */
  dpi?: number;
  /** Print bleed around the canvas (a pdf page grows by it); absent: none. */
  bleed?: Sides;
  /** Video length in seconds; null for a still design. */
  duration: number | null;
  /** A slide video (interface B's model; its longest default length is 300 s, not 15). */
  slides: boolean;
  /** The design's `poster_time`: the second a still shows; null = the default (layout/timeline's stillTime). */
  posterTime: number | null;
  /** mp4 soundtrack. */
  audio: { file: SceneImageRef; start: number; fadeOut: number } | null;
  background: SceneFill;
  /** The design's language, canonical BCP 47 (a pdf's /Lang); absent: none given. */
  lang?: string;
  /** Visible objects in z-order (hidden ones are dropped here). */
  objects: SceneObject[];
  /**
   * Named text objects left out because they are `hidden` (by the design or an override): not drawn,
   * but named in the fit report, so a caller learns why a text it looks for has no entry. Absent: none.
   */
  hiddenTexts?: HiddenText[];
}

/** A named text left out of a scene because it is `hidden`, and the slide it is on (null: no slides). */
export interface HiddenText {
  text: SceneText;
  slide: number | null;
}
