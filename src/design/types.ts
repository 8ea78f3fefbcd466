// The Scene: a design with overrides applied, defaults filled in and every value resolved
// (colours parsed, markup split into spans, aliases mapped). Layout reads only this.
import type { RGBA } from './color.js';
import type { ImageRef } from './image-ref.js';

export type { Design, DesignObject, TextObject, ImageObject, ShapeObject, ObjectType } from './schema.js';

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

export type SceneObject = SceneText | SceneImage | SceneShape;

export interface Scene {
  width: number;
  height: number;
  background: SceneFill;
  /** Visible objects in z-order (hidden ones are dropped here). */
  objects: SceneObject[];
}
