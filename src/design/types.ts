// The Scene: a design with overrides applied, defaults filled in and every value resolved
// (colours parsed, markup split into spans, aliases mapped). Layout reads only this.
import type { RGBA } from './color.js';
import type { ImageRef } from './image-ref.js';

export type { Design, DesignObject, TextObject, ImageObject, ShapeObject, ChartObject, MockupObject, ObjectType } from './schema.js';

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
  color: RGBA;
  underline: boolean;
  link?: string;
}

interface SceneBase {
  name?: string;
  box: Rect;
  rotation: number;
  opacity: number;
}

export interface SceneText extends SceneBase {
  type: 'text';
  spans: SceneSpan[];
  family: string;
  fontSize: number;
  minFontSize: number;
  align: 'left' | 'center' | 'right' | 'justify';
  lineHeight: number;
  letterSpacing: number;
  strategy: 'fit' | 'fixed-width';
  valign: 'top' | 'center' | 'bottom';
}

export type MediaFit = 'cover' | 'contain' | 'fill';

export interface SceneImage extends SceneBase {
  type: 'image';
  image: SceneImageRef;
  fit: MediaFit;
}

export type SceneFill = { kind: 'color'; color: RGBA } | { kind: 'image'; image: SceneImageRef };

export interface SceneShape extends SceneBase {
  type: 'shape';
  shape: 'rect' | 'rounded_rect' | 'ellipse';
  cornerRadius: number;
  fill: SceneFill | null;
  border: { width: number; color: RGBA; style: 'solid' | 'dashed' } | null;
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

export type SceneObject = SceneText | SceneImage | SceneShape | SceneChart | SceneMockup;

export interface Scene {
  width: number;
  height: number;
  background: SceneFill;
  /** Visible objects in z-order (hidden ones are dropped here). */
  objects: SceneObject[];
}
