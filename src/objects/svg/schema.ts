// SVG objects in template format v1: a vector drawing from an .svg file, drawn as paths (never
// rasterised), with colours of the file replaced (Polotno's colorsReplace); an override may swap the
// file, replace further colours and move it.
import { z } from 'zod';
import { Color, doc, ImageRef, LIMITS } from '../../format/fields.js';
import { parseSvgColor } from '../../svg/color.js';
import { common, placementOverrideFields } from '../common.js';
import { MediaStrategy } from '../media.js';
import { Shadow } from '../../format/shadow.js';

const MAX_COLORS = 256;

export const SvgColors = z
  .record(z.string().min(1).max(64), Color)
  .superRefine((map, ctx) => {
    const keys = Object.keys(map);
    if (keys.length > MAX_COLORS) ctx.addIssue({ code: 'custom', message: `expected at most ${MAX_COLORS} colours to replace but received ${keys.length}` });
    for (const key of keys) {
      if (parseSvgColor(key) === null) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `expected the key "${key}" to be a colour as the SVG file writes it: a hex colour ("#ff0000"), rgb(…), hsl(…) or a CSS colour name`,
        });
      }
    }
  })
  .meta({
    description:
      'Colours of the file painted in another colour (Polotno\'s colorsReplace): every fill, stroke and gradient-stop colour equal to a key is painted in the key\'s value. Keys and file colours are compared after both are normalised to #rrggbbaa, so "red", "#F00" and "rgb(255,0,0)" are one key. Values are hex colours. An override merges key by key. Default: none.',
    examples: [{ '#000000': '#1e88e5', 'rgb(255, 255, 255)': '#fff8e1' }],
  });

export const SvgConfig = z
  .strictObject({
    media_replacement_strategy: doc(
      MediaStrategy,
      "How the drawing fills its box. Absent (default): as the file's own preserveAspectRatio says, which is what a browser's <img> of the file does (usually contain, centred). contain fits it whole, cover fills the box and crops, fill stretches. Aliases: fit = contain, crop = cover, stretch = fill.",
      'contain',
    ).optional(),
  })
  .meta({ description: 'How the drawing is fitted into its box.', examples: [{ media_replacement_strategy: 'contain' }] });

export const FillImage = doc(
  ImageRef,
  "A picture shown through the drawing instead of its paint (a frame: Polotno's maskSrc on an svg): scaled to cover the box and centred, and kept as much as the drawing, placed in the box as it would be drawn, paints each pixel (its alpha: the file's colours do not matter; strokes, see-through paint and masks show the picture partly). A path relative to the design folder or \"asset:<name>\". Default: none (the drawing's own colours).",
  'photos/portrait.jpg',
);

export const SvgCornerRadius = doc(
  z.number().finite().min(0, { error: 'expected a corner radius of at least 0 pixels (0 = square corners)' }).max(LIMITS.maxObjectSide),
  'Rounds the corners of the box the drawing (or its fill_image) is clipped to, px, capped at half the shorter side. Default 0.',
  24,
);

export const SvgBorder = z
  .strictObject({
    width: doc(
      z.number().finite().min(0, { error: 'expected a border width of at least 0 pixels (0 = no border)' }).max(1000),
      'Border width in pixels. 0 = none.',
      4,
    ),
    color: doc(Color, 'Border colour.', '#ffffff'),
  })
  .meta({
    description:
      "A border along the inside of the box, over the drawing, as Polotno draws a picture's border: a stroke of the given width centred on the box inset by half the width, its centre line's corners rounded by corner_radius less the width (square when that is 0 or less). It is not clipped by corner_radius, casts no shadow and takes the object's opacity on its own (the drawing shows through a see-through border). Default none.",
    examples: [{ width: 4, color: '#ffffff' }],
  });

export const SvgObject = z
  .strictObject({
    type: doc(z.literal('svg'), 'Object type: a vector drawing from an SVG file.', 'svg'),
    ...common,
    path: doc(
      ImageRef,
      'The SVG file: a path relative to the design folder, or "asset:<name>" resolved by the host. http(s) URLs are refused. At most 2 MB; text, images, filters, clip paths and patterns are refused (convert text to paths first).',
      'icons/star.svg',
    ),
    colors: SvgColors.optional(),
    config: SvgConfig.optional(),
    fill_image: FillImage.optional(),
    corner_radius: SvgCornerRadius.optional(),
    border: SvgBorder.optional(),
    shadow: Shadow.optional(),
  })
  .meta({ description: 'A vector drawing from an SVG file, drawn as paths in png and pdf alike.' });

export const SvgOverride = z.strictObject({
  ...placementOverrideFields,
  path: SvgObject.shape.path.optional(),
  colors: SvgColors.optional(),
  config: SvgConfig.optional(),
  fill_image: FillImage.optional(),
  corner_radius: SvgCornerRadius.optional(),
  border: SvgBorder.partial()
    .meta({ description: "The drawing's border, field by field (width and color both when the template has none).", examples: [{ color: '#ffca28' }] })
    .optional(),
  // Field by field, like a shape's: a colour alone recolours the template's shadow.
  shadow: Shadow.optional(),
});

export type SvgObject = z.infer<typeof SvgObject>;
