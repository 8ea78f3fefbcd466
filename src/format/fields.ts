// Field schemas shared by every object type and by overrides: limits, colours, image references,
// placement and the `doc` helper that attaches a description and an example to each field.
import { z } from 'zod';
import { HEX_COLOR, HEX_COLOR_HINT } from './color.js';

/** Limits that keep a single render bounded in memory and time. Documented in docs/template-format.md. */
export const LIMITS = {
  maxCanvasSide: 8192,
  maxCoordinate: 100_000,
  maxObjectSide: 100_000,
  maxObjects: 1000,
  maxTextLength: 10_000,
  maxFontSize: 1000,
  maxNameLength: 200,
} as const;

export const doc = <T extends z.ZodType>(schema: T, description: string, example: unknown): T =>
  schema.meta({ description, examples: [example] });

// ── field schemas, shared by templates and overrides ─────────────────────────────────────────

export const Color = z.string().regex(HEX_COLOR, { error: HEX_COLOR_HINT });

export const ImageRef = z
  .string()
  .min(1, { error: 'expected a non-empty image reference: a relative path or "asset:<name>"' })
  .max(2048, { error: 'image reference is too long (at most 2048 characters)' });

const coordinate = z.number().finite().min(-LIMITS.maxCoordinate).max(LIMITS.maxCoordinate);
const side = z.number().finite().gt(0, { error: 'expected a size greater than 0' }).max(LIMITS.maxObjectSide);

export const Placement = {
  x: doc(coordinate, 'Left edge of the object box, in pixels from the canvas left edge.', 80),
  y: doc(coordinate, 'Top edge of the object box, in pixels from the canvas top edge.', 120),
  width: doc(side, 'Width of the object box in pixels (> 0).', 920),
  height: doc(side, 'Height of the object box in pixels (> 0).', 240),
  rotation: doc(
    z.number().finite().min(-3600).max(3600),
    'Clockwise rotation in degrees around the centre of the box. Default 0.',
    -8,
  ),
  opacity: doc(z.number().finite().min(0).max(1), 'Opacity of the whole object, 0 (invisible) to 1 (default).', 0.85),
  hidden: doc(z.boolean(), 'true skips the object when rendering. Default false.', false),
};

export const TextAlign = doc(
  z.enum(['left', 'center', 'right', 'justify']),
  'Horizontal alignment of each line. justify stretches every line but the last of a paragraph. Default left.',
  'center',
);

export const TextConfig = z
  .strictObject({
  text_replacement_strategy: doc(
    z.enum(['fit', 'fixed-width']),
    'fit (default): keep the box, shrink the font until the text fits (never grow). fixed-width: keep width and font size; the box height follows the text, top edge fixed.',
    'fit',
  ).optional(),
  text_replacement_strategy_fit_valign: doc(
    z.enum(['top', 'center', 'bottom']),
    'With fit, where the text sits vertically when it is shorter than the box. Default center.',
    'top',
  ).optional(),
  })
  .meta({ description: 'How replaced text is sized.', examples: [{ text_replacement_strategy: 'fit', text_replacement_strategy_fit_valign: 'top' }] });

export type MediaStrategyName = z.infer<typeof MediaStrategy>;

export const MediaStrategy = doc(
  z.enum(['cover', 'contain', 'fill', 'stretch', 'fit', 'crop']),
  'How an image fills its box. cover (default) crops to fill, contain fits whole with empty bands, fill stretches. Aliases: crop = cover, fit = contain, stretch = fill.',
  'contain',
);

export const MediaConfig = z
  .strictObject({ media_replacement_strategy: MediaStrategy.optional() })
  .meta({ description: 'How a replaced image is fitted.', examples: [{ media_replacement_strategy: 'cover' }] });

export const ShapeBackground = z
  .strictObject({
  type: doc(z.enum(['color', 'image']), 'color fills with background.color; image fills with background.path, centre-cropped.', 'color'),
  color: doc(Color, 'Fill colour (with type color).', '#1e88e5').optional(),
  path: doc(ImageRef, 'Fill image (with type image): a relative path or "asset:<name>".', 'photos/texture.jpg').optional(),
  })
  .meta({ description: 'Fill of the shape: a colour or a centre-cropped image.', examples: [{ type: 'color', color: '#1e88e5' }] });

export const Border = z
  .strictObject({
  width: doc(z.number().finite().min(0).max(1000), 'Border width in pixels, drawn inside the shape outline. 0 = no border.', 4),
  color: doc(Color, 'Border colour.', '#ffffff').optional(),
  style: doc(z.enum(['solid', 'dashed']), 'solid (default) or dashed (dashes 3× and gaps 2× the width).', 'dashed').optional(),
  })
  .meta({ description: 'Border drawn inside the shape outline.', examples: [{ width: 4, color: '#ffffff', style: 'dashed' }] });

// ── objects ───────────────────────────────────────────────────────────────────────────────────

export const common = {
  name: doc(
    z.string().min(1).max(LIMITS.maxNameLength),
    'Name used as the key in objects_overrides. Unique within the design; unnamed objects cannot be overridden.',
    'headline',
  ).optional(),
  x: Placement.x,
  y: Placement.y,
  width: Placement.width,
  height: Placement.height,
  rotation: Placement.rotation.optional(),
  opacity: Placement.opacity.optional(),
  hidden: Placement.hidden.optional(),
};

