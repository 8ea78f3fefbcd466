// Template format v1: the one schema source. Types, runtime validation, the override schemas and the
// published JSON Schema (docs/template.schema.json) are all derived from the definitions below.
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

const doc = <T extends z.ZodType>(schema: T, description: string, example: unknown): T =>
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

const TextAlign = doc(
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

const common = {
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

export const TextObject = z
  .strictObject({
    type: doc(z.literal('text'), 'Object type: a text box.', 'text'),
    ...common,
    text: doc(
      z.string().max(LIMITS.maxTextLength),
      'The text. \\n breaks lines. May contain <substyle bold="700" color="#hex" underline link="(url:https://…)">…</substyle> tags, never nested.',
      'Summer <substyle bold="700" color="#e53935">sale</substyle>',
    ),
    font_family: doc(z.string().min(1), 'A bundled font family (Inter, Lora), listed in the design fonts. Default Inter.', 'Inter').optional(),
    font_size: doc(z.number().finite().gt(0).max(LIMITS.maxFontSize), 'Font size in pixels; fit never exceeds it. Default 48.', 64).optional(),
    font_weight: doc(z.int().min(100).max(900), 'Weight 100-900; the nearest bundled face is used (400 regular, 700 bold; 550 and above is bold). Default 400.', 700).optional(),
    color: doc(Color, 'Text colour. Default #000000.', '#222222').optional(),
    text_align: TextAlign.optional(),
    line_height: doc(z.number().finite().min(0.5).max(5), 'Line height as a multiple of the font size. Default 1.2.', 1.1).optional(),
    letter_spacing: doc(z.number().finite().min(-0.5).max(2), 'Extra space after each character, in em (0.05 = 5% of the font size). Default 0.', 0.02).optional(),
    min_font_size: doc(z.number().finite().gt(0).max(LIMITS.maxFontSize), 'Smallest size fit may shrink to; below it the text is clipped. Default 6.', 12).optional(),
    config: TextConfig.optional(),
  })
  .meta({ description: 'A text box.' });

export const ImageObject = z
  .strictObject({
    type: doc(z.literal('image'), 'Object type: a picture.', 'image'),
    ...common,
    path: doc(ImageRef, 'The image: a path relative to the design folder, or "asset:<name>" resolved by the host. http(s) URLs are refused.', 'photos/beach.jpg'),
    config: MediaConfig.optional(),
  })
  .meta({ description: 'A picture placed into its box.' });

export const ShapeObject = z
  .strictObject({
    type: doc(z.literal('shape'), 'Object type: a filled and/or bordered shape.', 'shape'),
    ...common,
    shape: doc(z.enum(['rect', 'rounded_rect', 'ellipse']), 'Outline: rect, rounded_rect (uses corner_radius) or ellipse. Default rect.', 'rounded_rect').optional(),
    corner_radius: doc(z.number().finite().min(0).max(LIMITS.maxObjectSide), 'Corner radius in pixels for rounded_rect, capped at half the shorter side. Default 16.', 24).optional(),
    background: ShapeBackground.optional(),
    border: Border.optional(),
  })
  .meta({ description: 'A filled and/or bordered shape.' });

export const DesignObject = z.discriminatedUnion('type', [TextObject, ImageObject, ShapeObject]);

export const Background = z
  .strictObject({
  type: doc(z.enum(['color', 'image']), 'color paints background.color; image covers the canvas with background.path.', 'color'),
  color: doc(Color, 'Canvas colour (with type color). Transparent (#0000) is kept in png; jpg flattens onto white.', '#fff8e1').optional(),
  path: doc(ImageRef, 'Canvas image (with type image), centre-cropped to cover.', 'photos/backdrop.jpg').optional(),
  })
  .meta({ description: 'Canvas background: a colour or a centre-cropped image. Default white.', examples: [{ type: 'color', color: '#fff8e1' }] });

export const Design = z
  .strictObject({
    schema: doc(z.literal('imprint/design@1'), 'Format version. Always "imprint/design@1" for this version.', 'imprint/design@1').optional(),
    width: doc(z.int().min(1).max(LIMITS.maxCanvasSide), `Canvas width in pixels (1-${LIMITS.maxCanvasSide}).`, 1080),
    height: doc(z.int().min(1).max(LIMITS.maxCanvasSide), `Canvas height in pixels (1-${LIMITS.maxCanvasSide}).`, 1080),
    background: Background.optional(),
    fonts: doc(z.array(z.string().min(1)).max(16), 'Bundled font families the design uses. Default ["Inter"].', ['Inter', 'Lora']).optional(),
    objects: doc(z.array(DesignObject).max(LIMITS.maxObjects), 'Objects in z-order: the first is painted first (bottom).', []),
  })
  .meta({ title: 'Imprint design (template format v1)' });

export type Design = z.infer<typeof Design>;
export type DesignObject = z.infer<typeof DesignObject>;
export type TextObject = z.infer<typeof TextObject>;
export type ImageObject = z.infer<typeof ImageObject>;
export type ShapeObject = z.infer<typeof ShapeObject>;
export type ObjectType = DesignObject['type'];
export type MediaStrategyName = z.infer<typeof MediaStrategy>;
