// Shape objects in template format v1: an outline filled with a colour or an image and an optional
// border; an override may restyle the fill and the border field by field.
import { z } from 'zod';
import { Color, doc, ImageRef, LIMITS } from '../../format/fields.js';
import { gradientFields } from '../../format/gradient.js';
import { Shadow } from '../../format/shadow.js';
import { common, placementOverrideFields } from '../common.js';

export const ShapeBackground = z
  .strictObject({
    type: doc(
      z.enum(['color', 'image', 'linear_gradient', 'radial_gradient']),
      'color fills with background.color; image fills with background.path, centre-cropped; linear_gradient and radial_gradient fill with background.stops (and angle, or center and radius).',
      'color',
    ),
    color: doc(Color, 'Fill colour (with type color).', '#1e88e5').optional(),
    path: doc(ImageRef, 'Fill image (with type image): a relative path or "asset:<name>".', 'photos/texture.jpg').optional(),
    ...gradientFields,
  })
  .meta({
    description: 'Fill of the shape: a colour, a centre-cropped image, or a linear or radial gradient. Fields of the other types are ignored.',
    examples: [
      { type: 'color', color: '#1e88e5' },
      {
        type: 'linear_gradient',
        angle: 180,
        stops: [
          { offset: 0, color: '#00000000' },
          { offset: 1, color: '#000000cc' },
        ],
      },
    ],
  });

export const Border = z
  .strictObject({
    width: doc(z.number().finite().min(0).max(1000), 'Border width in pixels, drawn inside the shape outline. 0 = no border.', 4),
    color: doc(Color, 'Border colour.', '#ffffff').optional(),
    style: doc(z.enum(['solid', 'dashed']), 'solid (default) or dashed (dashes 3× and gaps 2× the width).', 'dashed').optional(),
  })
  .meta({ description: 'Border drawn inside the shape outline.', examples: [{ width: 4, color: '#ffffff', style: 'dashed' }] });

export const ShapeObject = z
  .strictObject({
    type: doc(z.literal('shape'), 'Object type: a filled and/or bordered shape.', 'shape'),
    ...common,
    shape: doc(
      z.enum(['rect', 'rounded_rect', 'ellipse']),
      'Outline: rect, rounded_rect (uses corner_radius) or ellipse. Default rect.',
      'rounded_rect',
    ).optional(),
    corner_radius: doc(
      z.number().finite().min(0).max(LIMITS.maxObjectSide),
      'Corner radius in pixels for rounded_rect, capped at half the shorter side. Default 16.',
      24,
    ).optional(),
    background: ShapeBackground.optional(),
    border: Border.optional(),
    shadow: Shadow.optional(),
  })
  .meta({ description: 'A filled and/or bordered shape.' });

export const ShapeOverride = z.strictObject({
  ...placementOverrideFields,
  background: ShapeBackground.partial()
    .meta(ShapeBackground.meta() ?? {})
    .optional(),
  border: Border.partial()
    .meta(Border.meta() ?? {})
    .optional(),
  shadow: Shadow.optional(),
});

export type ShapeObject = z.infer<typeof ShapeObject>;
export type ShapeBackground = z.infer<typeof ShapeBackground>;
