// Shape objects in template format v1: an outline filled with a colour or an image and an optional
// border; an override may restyle the fill and the border field by field.
import { z } from 'zod';
import { Color, doc, LIMITS } from '../../format/fields.js';
import { fillFields } from '../../format/fill.js';
import { Shadow } from '../../format/shadow.js';
import { SHAPE_OUTLINES } from '../../scene/scene.js';
import { common, placementOverrideFields } from '../common.js';

export const ShapeBackground = z
  .strictObject(
    fillFields({
      type: 'color fills with background.color; image fills with background.path, centre-cropped; linear_gradient and radial_gradient fill with background.stops (and angle, or center and radius).',
      color: ['Fill colour (with type color).', '#1e88e5'],
      path: ['Fill image (with type image): a relative path or "asset:<name>".', 'photos/texture.jpg'],
    }),
  )
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
    dash: doc(
      z
        .array(z.number().finite().min(0, { error: 'expected dash and gap lengths of at least 0 (multiples of the border width)' }).max(1000))
        .max(16, { error: 'expected at most 16 dash and gap lengths' }),
      'Dash and gap lengths in multiples of the border width, repeated along the outline (as Polotno and SVG stroke-dasharray: an odd count is repeated twice); wins over style. [] = solid.',
      [2, 2],
    ).optional(),
  })
  .meta({ description: 'Border drawn inside the shape outline.', examples: [{ width: 4, color: '#ffffff', style: 'dashed' }] });

export const Wrap = z
  .strictObject({
    object: doc(
      z.string().min(1).max(LIMITS.maxNameLength),
      'Name of a text object of the same design (or the same slide) that the shape sizes itself around.',
      'cta_label',
    ),
    padding: doc(
      z.union([
        z.number().finite().min(0).max(LIMITS.maxObjectSide),
        z.strictObject({
          x: doc(z.number().finite().min(0).max(LIMITS.maxObjectSide), 'Padding left and right, px.', 32),
          y: doc(z.number().finite().min(0).max(LIMITS.maxObjectSide), 'Padding above and below, px.', 14),
        }),
      ]),
      "Space between the text's lines and the shape's edge, px: one number for all sides, or {x, y}. Default 0.",
      { x: 32, y: 14 },
    ).optional(),
  })
  .meta({
    description:
      "The button pattern: the shape's box becomes the rectangle of the named text's laid-out lines (the widest line across, all lines down, after fit and overrides) grown by padding and turned with the text; x, y, width, height and rotation of the shape are then ignored. A hidden text hides the shape too.",
    examples: [{ object: 'cta_label', padding: { x: 32, y: 14 } }],
  });

export const ShapeObject = z
  .strictObject({
    type: doc(z.literal('shape'), 'Object type: a filled and/or bordered shape.', 'shape'),
    ...common,
    shape: doc(
      z.enum(SHAPE_OUTLINES),
      'Outline, stretched to fill the box: rect, rounded_rect (uses corner_radius), ellipse, triangle, right_triangle (right angle bottom left), diamond, pentagon, hexagon (flat top), octagon, star (uses points and inner_radius), cross, arrow_right, arrow_left, arrow_up, arrow_down (block arrows), heart, speech_bubble (tail at the bottom left), polygon (corners from vertices) or path (an outline of SVG path data: path_data and view_box). Default rect.',
      'star',
    ).optional(),
    corner_radius: doc(
      z.number().finite().min(0).max(LIMITS.maxObjectSide),
      'Corner radius in pixels for rounded_rect, capped at half the shorter side. Default 16.',
      24,
    ).optional(),
    points: doc(z.number().int().min(3).max(20), 'Number of points of a star (shape star), 3 to 20. Default 5.', 6).optional(),
    inner_radius: doc(
      z.number().finite().min(0.05).max(1),
      'Inner corners of a star as a fraction of its outer radius, 0.05 to 1. Default 0.382 (a regular five-pointed star).',
      0.5,
    ).optional(),
    vertices: doc(
      z
        .array(
          z.tuple([z.number().finite().min(-10).max(11), z.number().finite().min(-10).max(11)], {
            error: 'expected a corner as [x, y]: fractions of the box width and height (0 = left/top edge, 1 = right/bottom edge)',
          }),
        )
        .min(3, { error: 'expected at least 3 corners for a polygon' })
        .max(256, { error: 'expected at most 256 corners for a polygon' }),
      'shape polygon: its corners in order, each [x, y] as fractions of the box (0 = left/top edge, 1 = right/bottom edge), joined by straight sides and closed. Other shapes ignore it.',
      [
        [0.5, 0],
        [1, 1],
        [0, 1],
      ],
    ).optional(),
    path_data: doc(
      z.string().min(1).max(100_000, { error: 'expected path data of at most 100000 characters' }),
      'shape path: the outline as SVG path data (M, L, H, V, C, S, Q, T, A, Z, absolute or relative), filled by the nonzero rule; its view_box is stretched to the box. Other shapes ignore it.',
      'M0 0H100L50 100Z',
    ).optional(),
    view_box: doc(
      z.tuple([
        z.number().finite().min(-1e6).max(1e6),
        z.number().finite().min(-1e6).max(1e6),
        z.number().finite().gt(0, { error: 'expected a view box width greater than 0' }).max(1e6),
        z.number().finite().gt(0, { error: 'expected a view box height greater than 0' }).max(1e6),
      ]),
      "shape path: the rectangle [x, y, width, height] of path_data's coordinates that is stretched to the box (as an SVG viewBox with preserveAspectRatio none; the path may reach outside it). The border is drawn in these coordinates, stretched with the outline as an SVG stroke is: where the box stretches the view box by k, the band is k × border.width wide. Default: the path's bounding box.",
      [0, 0, 100, 100],
    ).optional(),
    background: ShapeBackground.optional(),
    border: Border.optional(),
    shadow: Shadow.optional(),
    wrap: Wrap.optional(),
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
