// Image objects in template format v1: a picture placed into its box, optionally cropped, fitted
// around a focal point, mirrored, colour-filtered, clipped to rounded corners or a circle/ellipse
// mask and bordered; an override may replace the picture and each of those choices.
import { Shadow } from '../../format/shadow.js';
import { z } from 'zod';
import { Color, doc, ImageRef, LIMITS } from '../../format/fields.js';
import { common, placementOverrideFields } from '../common.js';
import { MediaStrategy } from '../media.js';

const FRACTION_HINT = 'expected a fraction of the image from 0 (left/top edge) to 1 (right/bottom edge)';
const fraction = z.number().finite().min(0, { error: FRACTION_HINT }).max(1, { error: FRACTION_HINT });
const cropSide = z
  .number()
  .finite()
  .gt(0, { error: 'expected a crop size greater than 0 (a fraction of the image, up to 1)' })
  .max(1, { error: 'expected a crop size of at most 1 (the whole image)' });

export const ImageCrop = z
  .strictObject({
    x: doc(fraction, 'Left edge of the part used, as a fraction of the image width (0–1).', 0.1),
    y: doc(fraction, 'Top edge of the part used, as a fraction of the image height (0–1).', 0),
    width: doc(cropSide, 'Width of the part used, as a fraction of the image width (> 0, x + width ≤ 1).', 0.5),
    height: doc(cropSide, 'Height of the part used, as a fraction of the image height (> 0, y + height ≤ 1).', 0.8),
  })
  // The crop must lie inside the image: the error names the size that overshoots and how to fix it.
  .superRefine((c, ctx) => {
    if (c.x + c.width > 1 + 1e-9) {
      ctx.addIssue({
        code: 'custom',
        path: ['width'],
        message: `expected x + width to be at most 1 (the crop must lie inside the image): lower width to ${round(1 - c.x)} or less`,
      });
    }
    if (c.y + c.height > 1 + 1e-9) {
      ctx.addIssue({
        code: 'custom',
        path: ['height'],
        message: `expected y + height to be at most 1 (the crop must lie inside the image): lower height to ${round(1 - c.y)} or less`,
      });
    }
  })
  .meta({
    description:
      'The part of the source image that is used, before it is fitted into the box: fractions 0–1 of the image (as Polotno cropX/cropY/cropWidth/cropHeight). Default: the whole image.',
    examples: [{ x: 0.1, y: 0, width: 0.5, height: 0.8 }],
  });

export const FocalPoint = z
  .strictObject({
    x: doc(fraction, 'Horizontal position of the point to keep in view, as a fraction of the image width (0 = left, 1 = right).', 0.3),
    y: doc(fraction, 'Vertical position of the point to keep in view, as a fraction of the image height (0 = top, 1 = bottom).', 0.4),
  })
  .meta({
    description:
      'With cover, the point of the image (fractions 0–1 of the whole image, also when crop is set) kept as close to the centre of the box as the image allows. Default: the centre of the image (or of the crop). contain and fill ignore it.',
    examples: [{ x: 0.3, y: 0.4 }],
  });

export const ImageConfig = z
  .strictObject({
    media_replacement_strategy: MediaStrategy.optional(),
    focal_point: FocalPoint.optional(),
  })
  .meta({
    description: 'How the image is fitted: the strategy and, with cover, the focal point.',
    examples: [{ media_replacement_strategy: 'cover', focal_point: { x: 0.3, y: 0.4 } }],
  });

export const ImageMask = doc(
  z.enum(['none', 'circle', 'ellipse']),
  'Shape the picture is clipped to: none (default), circle (a circle of the shorter side, centred: avatars) or ellipse (the ellipse of the picture area). Overrides corner_radius.',
  'circle',
);

export const CornerRadius = doc(
  z.number().finite().min(0, { error: 'expected a corner radius of at least 0 pixels (0 = square corners)' }).max(LIMITS.maxObjectSide),
  'Radius of rounded corners in pixels, capped at half the shorter side of the picture area. Default 0 (square).',
  24,
);

export const ImageBorder = z
  .strictObject({
    width: doc(
      z.number().finite().min(0, { error: 'expected a border width of at least 0 pixels (0 = no border)' }).max(1000),
      'Border width in pixels, drawn inside the picture area along its rounded corners or circle/ellipse mask (CSS border with border-radius on the picture). 0 = none.',
      6,
    ),
    color: doc(Color, 'Border colour; a #rrggbbaa alpha makes it see-through (the photo shows under it).', '#ffffff'),
  })
  .meta({
    description:
      'A border inside the picture area (after fit: the fitted picture with contain), following corner_radius or the mask; the outer edge is the clip, the inner corners have the radius less the width (never below 0), as CSS draws border-radius. Default none.',
    examples: [{ width: 6, color: '#ffffff' }],
  });

// CSS Filter Effects 1 amounts: the same ranges a designer gets from an editor's sliders.
const amount = (what: string) =>
  z
    .number()
    .finite()
    .min(0, { error: `expected a ${what} amount from 0 (none) to 1 (full)` })
    .max(1, { error: `expected a ${what} amount from 0 (none) to 1 (full)` });
const factor = (what: string) =>
  z
    .number()
    .finite()
    .min(0, { error: `expected a ${what} factor from 0 to 5 (1 = unchanged)` })
    .max(5, { error: `expected a ${what} factor from 0 to 5 (1 = unchanged)` });

export const ImageFilters = z
  .strictObject({
    grayscale: doc(amount('grayscale'), 'CSS grayscale(): 0 = unchanged (default), 1 = fully grey (Rec. 709 luma weights).', 1).optional(),
    sepia: doc(amount('sepia'), 'CSS sepia(): 0 = unchanged (default), 1 = full sepia tone.', 0.6).optional(),
    brightness: doc(
      factor('brightness'),
      'CSS brightness(): multiplies every channel; 1 = unchanged (default), 0 = black, 1.5 = half as bright again.',
      1.2,
    ).optional(),
    contrast: doc(factor('contrast'), 'CSS contrast(): scales every channel about mid-grey; 1 = unchanged (default), 0 = all grey.', 1.3).optional(),
    saturate: doc(factor('saturate'), 'CSS saturate(): 1 = unchanged (default), 0 = grey, above 1 more vivid.', 1.5).optional(),
  })
  .meta({
    description:
      'Colour filters on the picture, exactly the CSS Filter Effects 1 functions, applied to its pixels (sRGB values, each step clamped to 0–1) in this fixed order whatever the order written: grayscale, sepia, brightness, contrast, saturate (CSS `filter: grayscale() sepia() brightness() contrast() saturate()`). png and pdf show the same filtered pixels (pdf embeds the filtered image). Blur is not one of them. Default none.',
    examples: [{ grayscale: 1, contrast: 1.2 }],
  });

export const ImageObject = z
  .strictObject({
    type: doc(z.literal('image'), 'Object type: a picture.', 'image'),
    ...common,
    path: doc(
      ImageRef,
      'The image: a path relative to the design folder, or "asset:<name>" resolved by the host. http(s) URLs are refused.',
      'photos/beach.jpg',
    ),
    crop: ImageCrop.optional(),
    config: ImageConfig.optional(),
    corner_radius: CornerRadius.optional(),
    mask: ImageMask.optional(),
    flip_x: doc(
      z.boolean(),
      'Mirror the picture left to right inside its area (after crop and fit; corners, mask and border stay put). Default false.',
      true,
    ).optional(),
    flip_y: doc(z.boolean(), 'Mirror the picture top to bottom inside its area (after crop and fit). Default false.', false).optional(),
    filters: ImageFilters.optional(),
    border: ImageBorder.optional(),
    shadow: Shadow.optional(),
  })
  .meta({ description: 'A picture placed into its box.' });

export const ImageOverride = z.strictObject({
  ...placementOverrideFields,
  path: ImageObject.shape.path.optional(),
  crop: ImageCrop.optional(),
  config: ImageConfig.optional(),
  corner_radius: CornerRadius.optional(),
  mask: ImageMask.optional(),
  flip_x: ImageObject.shape.flip_x,
  flip_y: ImageObject.shape.flip_y,
  // Field by field: { grayscale: 0 } alone takes one filter off and keeps the others.
  filters: ImageFilters.optional(),
  // Field by field, like a shape's border: a colour alone recolours the template's border.
  border: ImageBorder.partial()
    .meta({ description: "The picture's border, field by field (width and color both when the template has none).", examples: [{ color: '#ffca28' }] })
    .optional(),
  // Field by field, like a shape's: a colour alone recolours the template's shadow.
  shadow: Shadow.optional(),
});

export type ImageObject = z.infer<typeof ImageObject>;

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
