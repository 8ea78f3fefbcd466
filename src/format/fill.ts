// Fills in template format v1, the one place for them: a colour, an image or a linear or radial gradient
// as a shape's background, the canvas's and a slide's, and a gradient as a text's fill. The fields, the
// type an override implies, the checks zod cannot express (stop order, the field a type needs) and the
// scene form; layout/fill.ts places a scene fill on a box.
import { z } from 'zod';
import { validationError } from '../errors.js';
import type { GradientSceneFill, SceneFill, SceneGradientStop } from '../scene/scene.js';
import { parseHexColor } from './color.js';
import { Color, doc, ImageRef } from './fields.js';
import { parseImageRef } from './image-ref.js';
import { childPath } from './json-path.js';

export const MAX_GRADIENT_STOPS = 16;

const fraction = (what: string) =>
  z
    .number()
    .finite()
    .min(0, { error: `expected ${what} from 0 to 1` })
    .max(1, { error: `expected ${what} from 0 to 1` });

export const GradientStop = z
  .strictObject({
    offset: doc(fraction('an offset'), 'Where the colour sits on the gradient: 0 = its start, 1 = its end. Offsets ascend from stop to stop.', 0.6),
    color: doc(Color, 'Colour at the stop; #rrggbbaa for see-through (#00000000 is transparent black).', '#000000cc'),
  })
  .meta({ description: 'A colour at a point of the gradient.', examples: [{ offset: 0.6, color: '#000000cc' }] });

export const GradientCenter = z
  .strictObject({
    x: doc(fraction('a fraction of the width'), 'Horizontal position as a fraction of the box width (0 = left edge).', 0.5),
    y: doc(fraction('a fraction of the height'), 'Vertical position as a fraction of the box height (0 = top edge).', 0.5),
  })
  .meta({ description: 'Centre of a radial gradient within the box.', examples: [{ x: 0.5, y: 0.3 }] });

/** The fields a background has for gradients, besides its `type`. */
export const gradientFields = {
  angle: doc(
    z.number().finite().min(-3600).max(3600),
    'linear_gradient: direction in degrees as in CSS linear-gradient: 0 = towards the top, 90 = towards the right, 180 (default) = towards the bottom.',
    180,
  ).optional(),
  center: GradientCenter.optional(),
  radius: doc(
    z.number().finite().gt(0, { error: 'expected a radius greater than 0' }).max(100),
    "radial_gradient: radius of the circle where the last stop sits, as a fraction of half the box's diagonal. Default 1 (a centred gradient then reaches the corners, like CSS farthest-corner).",
    0.8,
  ).optional(),
  stops: doc(
    z.array(GradientStop).min(2).max(MAX_GRADIENT_STOPS),
    `linear_gradient and radial_gradient: 2 to ${MAX_GRADIENT_STOPS} colour stops, offsets ascending (equal offsets make a hard edge).`,
    [
      { offset: 0, color: '#00000000' },
      { offset: 1, color: '#000000cc' },
    ],
  ).optional(),
};

export const FILL_TYPES = ['color', 'image', 'linear_gradient', 'radial_gradient'] as const;

export type FillType = (typeof FILL_TYPES)[number];

export type GradientType = Extract<FillType, 'linear_gradient' | 'radial_gradient'>;

export const isGradientType = (type: string): type is GradientType => type === 'linear_gradient' || type === 'radial_gradient';

interface GradientInput {
  type: GradientType;
  angle?: number | undefined;
  center?: { x: number; y: number } | undefined;
  radius?: number | undefined;
  stops?: { offset: number; color: string }[] | undefined;
}

/** Checks what the schema cannot: stops are given and their offsets never descend. `field` names it in messages. */
function checkGradient(bg: GradientInput, at: string, field = 'background'): void {
  const stops = bg.stops;
  if (stops === undefined) {
    throw validationError(
      childPath(at, 'stops'),
      `${field}.type is "${bg.type}" but no ${field}.stops are given: add at least 2 stops such as [{"offset": 0, "color": "#00000000"}, {"offset": 1, "color": "#000000"}]`,
    );
  }
  for (let i = 1; i < stops.length; i++) {
    if (stops[i]!.offset < stops[i - 1]!.offset) {
      throw validationError(
        childPath(at, 'stops', i, 'offset'),
        `expected offsets in ascending order: at least ${stops[i - 1]!.offset} (the offset of stop ${i - 1}) for stops[${i}].offset but received ${stops[i]!.offset}`,
      );
    }
  }
}

/** The scene form of a checked gradient: defaults filled in, colours parsed. */
function gradientFill(bg: GradientInput): GradientSceneFill {
  const stops: SceneGradientStop[] = (bg.stops ?? []).map((s) => ({ offset: s.offset, color: parseHexColor(s.color) }));
  if (bg.type === 'linear_gradient') return { kind: 'linear_gradient', angle: bg.angle ?? 180, stops };
  return { kind: 'radial_gradient', center: [bg.center?.x ?? 0.5, bg.center?.y ?? 0.5], radius: bg.radius ?? 1, stops };
}

/**
 * The fields of a colour, image or gradient fill (a shape's background, the canvas's), with the words
 * of the place that uses it: what `type` does there, and `color`'s and `path`'s description and example.
 */
export function fillFields(text: {
  type: string;
  color: readonly [description: string, example: string];
  path: readonly [description: string, example: string];
}) {
  return {
    type: doc(z.enum(FILL_TYPES), text.type, 'color'),
    color: doc(Color, ...text.color).optional(),
    path: doc(ImageRef, ...text.path).optional(),
    ...gradientFields,
  };
}

/** A fill as a template gives it: a background (any type) or a text's fill (a gradient). */
interface FillInput extends Omit<GradientInput, 'type'> {
  type: FillType;
  color?: string | undefined;
  path?: string | undefined;
}

/**
 * The type an override of a fill implies when it names none: `path` an image, `color` a colour, `angle`
 * a linear gradient, `center` or `radius` a radial one, `stops` alone the template's gradient type
 * (linear when the template's fill is not a gradient); undefined when its fields imply nothing.
 */
export function impliedFillType(fields: Partial<FillInput>, current: FillType | undefined): FillType | undefined {
  if (fields.path !== undefined) return 'image';
  if (fields.color !== undefined) return 'color';
  if (fields.angle !== undefined) return 'linear_gradient';
  if (fields.center !== undefined || fields.radius !== undefined) return 'radial_gradient';
  if (fields.stops !== undefined) return current !== undefined && isGradientType(current) ? current : 'linear_gradient';
  return undefined;
}

/** Checks what the schema cannot: a type's own field is given, and a gradient's stops ascend. `field` names the fill in messages. */
export function checkFill(fill: FillInput, at: string, field = 'background'): void {
  if (isGradientType(fill.type)) checkGradient({ ...fill, type: fill.type }, at, field);
  if (fill.type === 'color' && fill.color === undefined) {
    throw validationError(childPath(at, 'color'), `${field}.type is "color" but no ${field}.color is given: add a hex colour such as "#1e88e5"`);
  }
  if (fill.type === 'image') {
    if (fill.path === undefined) {
      throw validationError(childPath(at, 'path'), `${field}.type is "image" but no ${field}.path is given: add an image reference`);
    }
    parseImageRef(fill.path, childPath(at, 'path'));
  }
}

/** The scene form of a checked fill; `at` is where it came from (an image's loading errors point there). */
export function fillOf(fill: FillInput & { type: GradientType }, at: string): GradientSceneFill;
export function fillOf(fill: FillInput, at: string): SceneFill;
export function fillOf(fill: FillInput, at: string): SceneFill {
  if (fill.type === 'image') {
    const pathAt = childPath(at, 'path');
    return { kind: 'image', image: { ...parseImageRef(fill.path ?? '', pathAt), at: pathAt } };
  }
  if (isGradientType(fill.type)) return gradientFill({ ...fill, type: fill.type });
  return { kind: 'color', color: parseHexColor(fill.color ?? '#000000') };
}
