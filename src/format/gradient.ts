// Gradient fills in template format v1: the fields a shape or canvas background takes with type
// linear_gradient or radial_gradient, the checks zod cannot express (stop order) and their scene form.
import { z } from 'zod';
import { validationError } from '../errors.js';
import type { GradientSceneFill, SceneGradientStop } from '../scene/scene.js';
import { parseHexColor } from './color.js';
import { Color, doc } from './fields.js';
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

export type GradientType = 'linear_gradient' | 'radial_gradient';

export const isGradientType = (type: string): type is GradientType => type === 'linear_gradient' || type === 'radial_gradient';

interface GradientInput {
  type: GradientType;
  angle?: number | undefined;
  center?: { x: number; y: number } | undefined;
  radius?: number | undefined;
  stops?: { offset: number; color: string }[] | undefined;
}

/** Checks what the schema cannot: stops are given and their offsets never descend. `field` names it in messages. */
export function checkGradient(bg: GradientInput, at: string, field = 'background'): void {
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

/** The scene form of a checked gradient background: defaults filled in, colours parsed. */
export function gradientFill(bg: GradientInput): GradientSceneFill {
  const stops: SceneGradientStop[] = (bg.stops ?? []).map((s) => ({ offset: s.offset, color: parseHexColor(s.color) }));
  if (bg.type === 'linear_gradient') return { kind: 'linear_gradient', angle: bg.angle ?? 180, stops };
  return { kind: 'radial_gradient', center: [bg.center?.x ?? 0.5, bg.center?.y ?? 0.5], radius: bg.radius ?? 1, stops };
}
