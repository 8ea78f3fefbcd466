// What parsing an SVG file gives: the tree of groups and shapes that layout places and both painters
// draw, the limits a file is held to, and the error that names the element a file goes wrong at.
import type { Matrix } from '../scene/display-list.js';
import type { RGBA } from '../scene/scene.js';
import type { PathSegment } from './path-data.js';
import type { XmlElement } from './xml.js';

export const SVG_LIMITS = {
  maxBytes: 2 * 1024 * 1024,
  /** Shapes drawn after <use> expansion (a <use> of a group of <use>s multiplies). */
  maxShapes: 50_000,
  /** Elements visited after <use> expansion, drawn or not (empty groups multiply too). */
  maxVisits: 200_000,
  /** <use> inside <use> inside … */
  maxUseDepth: 32,
} as const;

/** A refused or malformed SVG; the message says where and what to change. */
export class SvgError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvgError';
  }
}

export interface SvgStop {
  offset: number;
  color: RGBA;
}

/** A gradient in its own space; `transform` maps that space into the user space of the shape it paints. */
export type SvgGradient =
  | { kind: 'linear'; from: readonly [number, number]; to: readonly [number, number]; stops: SvgStop[]; transform: Matrix }
  | { kind: 'radial'; center: readonly [number, number]; radius: number; stops: SvgStop[]; transform: Matrix };

export type SvgPaint = { kind: 'color'; color: RGBA } | { kind: 'gradient'; gradient: SvgGradient };

export interface SvgStroke {
  paint: { kind: 'color'; color: RGBA };
  /** stroke-opacity (multiplies the colour's own alpha). */
  opacity: number;
  width: number;
  cap: 'butt' | 'round' | 'square';
  join: 'miter' | 'round' | 'bevel';
  miterLimit: number;
  dash: number[] | null;
  dashOffset: number;
}

/**
 * A <mask> applied to a group: its content (in the group's coordinates) keeps the group's pixels as
 * much as it paints them, by luminance × alpha (mask-type luminance, the default) or by alpha, inside
 * the mask's region only.
 */
export interface SvgMask {
  nodes: SvgNode[];
  region: { x: number; y: number; width: number; height: number };
  luminance: boolean;
}

export type SvgNode =
  | { kind: 'group'; transform: Matrix; opacity: number; children: SvgNode[]; mask?: SvgMask }
  | {
      kind: 'shape';
      /** In the shape's user space (its own transform not applied). */
      path: PathSegment[];
      transform: Matrix;
      opacity: number;
      fill: SvgPaint | null;
      fillOpacity: number;
      evenOdd: boolean;
      stroke: SvgStroke | null;
    };

export type SvgAlign = 'none' | `x${'Min' | 'Mid' | 'Max'}Y${'Min' | 'Mid' | 'Max'}`;

export interface SvgDocument {
  /** The user space shown: the root's viewBox (or 0 0 width height). */
  viewBox: { x: number; y: number; width: number; height: number };
  /** The root's preserveAspectRatio. */
  align: SvgAlign;
  slice: boolean;
  /** Intrinsic size in CSS pixels (width/height, else the viewBox's). */
  width: number;
  height: number;
  nodes: SvgNode[];
  /** Some group has a <mask>: the drawing's pixels are not just the union of its shapes. */
  masked: boolean;
}

/** An SvgError at an element: its name and position, then what is wrong and how to fix it. */
export function elementError(el: XmlElement, message: string): SvgError {
  return new SvgError(`<${el.name}> at line ${el.line}, column ${el.column}: ${message}`);
}
