// Mockup objects in template format v1: a base image (device, packaging, poster frame) with named layers placed
// in base-image pixels, each a replaceable image, a colour, or fixed artwork; an override changes layers by id.
import { z } from 'zod';
import { Color, doc, ImageRef } from '../../format/fields.js';
import { Shadow } from '../../format/shadow.js';
import { common, placementOverrideFields } from '../common.js';
import { MediaStrategy } from '../media.js';

export const MOCKUP_LIMITS = { maxLayers: 32, maxCoordinate: 100_000 } as const;

const coord = z.number().finite().min(-MOCKUP_LIMITS.maxCoordinate).max(MOCKUP_LIMITS.maxCoordinate);
const Point = z.tuple([coord, coord], { error: 'expected a corner as [x, y]' });

export const LayerArea = z
  .strictObject({
    x: doc(coord, 'Left edge in base-image pixels.', 118),
    y: doc(coord, 'Top edge in base-image pixels.', 96),
    width: doc(coord.gt(0), 'Width in base-image pixels.', 640),
    height: doc(coord.gt(0), 'Height in base-image pixels.', 1384),
  })
  .meta({ description: 'A rectangle in base-image pixels.', examples: [{ x: 118, y: 96, width: 640, height: 1384 }] });

export const LayerQuad = doc(
  z.tuple([Point, Point, Point, Point], { error: 'expected four corners [[x, y], [x, y], [x, y], [x, y]]' }),
  'Four corners in base-image pixels, clockwise from top-left: the layer is warped into them (perspective).',
  [
    [412, 180],
    [903, 255],
    [874, 1290],
    [371, 1228],
  ],
);

export const MockupLayer = z
  .strictObject({
    id: doc(
      z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'expected a layer id of 1-64 letters, digits, _ or -' }),
      'Key of the layer in mockup_data overrides.',
      'screen',
    ),
    kind: doc(
      z.enum(['image', 'color', 'artwork']),
      "image: a replaceable picture (image_url). color: a replaceable colour, filling the area or, with mask, the mask's opaque part. artwork: fixed base artwork (frame, glare, shadow), only hideable.",
      'image',
    ),
    area: LayerArea.optional(),
    quad: LayerQuad.optional(),
    path: doc(ImageRef, 'image: the picture shown until an override replaces it. artwork: the artwork (required).', 'screens/home.png').optional(),
    color: doc(Color, 'color: the colour (required).', '#e4572e').optional(),
    mask: doc(ImageRef, 'color: an image whose alpha says where the colour goes (e.g. the shirt of a t-shirt photo).', 'masks/shirt.png').optional(),
    fit: MediaStrategy.optional(),
    blend: doc(
      z.enum(['normal', 'multiply', 'screen']),
      'How the layer mixes with what is below: multiply for shading, screen for glare. Default normal.',
      'multiply',
    ).optional(),
    opacity: doc(z.number().min(0).max(1), 'Layer opacity. Default 1.', 0.9).optional(),
    hidden: doc(z.boolean(), 'true leaves the layer out. Default false.', false).optional(),
  })
  .meta({ description: 'One mockup layer: give area or quad.' });

export const MockupObject = z
  .strictObject({
    type: doc(z.literal('mockup'), 'Object type: a layered device or product mockup.', 'mockup'),
    ...common,
    base: doc(ImageRef, 'The base image; it fills the object box, and layer areas are in its pixels.', 'mockups/phone.png'),
    layers: doc(z.array(MockupLayer).max(MOCKUP_LIMITS.maxLayers), `Layers above the base, bottom first (at most ${MOCKUP_LIMITS.maxLayers}).`, []),
    shadow: Shadow.optional(),
  })
  .meta({ description: 'A base image with named layers.' });

const LayerOverride = z
  .strictObject({
    image_url: ImageRef.meta({
      description: 'image layers: the new picture, placed into the area (cover unless the layer says otherwise).',
      examples: ['asset:screenshot'],
    }).optional(),
    color: Color.meta({ description: 'color layers: the new colour.', examples: ['#17bebb'] }).optional(),
    hidden: z
      .boolean()
      .meta({ description: 'true hides the layer, false shows it.', examples: [true] })
      .optional(),
  })
  .meta({ description: 'Changes to one layer.', examples: [{ image_url: 'asset:screenshot' }] });

export const MockupOverride = z.strictObject({
  ...placementOverrideFields,
  mockup_data: z
    .record(z.string(), LayerOverride)
    .meta({ description: 'Layer id → changes to that layer.', examples: [{ screen: { image_url: 'asset:screenshot' }, case: { color: '#e4572e' } }] })
    .optional(),
  // Field by field, like a shape's: a colour alone recolours the template's shadow.
  shadow: Shadow.optional(),
});

export type MockupObject = z.infer<typeof MockupObject>;
export type MockupLayer = z.infer<typeof MockupLayer>;
export type LayerChanges = z.infer<typeof LayerOverride>;
