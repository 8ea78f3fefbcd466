// Template format v1: the one schema source. Types, runtime validation, the override schemas and the
// published JSON Schema (docs/template.schema.json) are all derived from the definitions below.
import { z } from 'zod';
import { Border, Color, common as placementFields, doc, ImageRef, LIMITS, MediaConfig, ShapeBackground, TextAlign, TextConfig } from '../format/fields.js';
import { Timeline } from '../format/animation.js';
import { ChartObject } from './schema-chart.js';
import { MockupObject } from './schema-mockup.js';

export { ChartObject } from './schema-chart.js';
export { MockupObject } from './schema-mockup.js';

export { Border, Color, ImageRef, LIMITS, MediaConfig, MediaStrategy, Placement, ShapeBackground, TextConfig, type MediaStrategyName } from '../format/fields.js';

/** Every object: placement, name, visibility, and its place on the timeline. */
export const common = { ...placementFields, ...Timeline };

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

export const VideoObject = z
  .strictObject({
    type: doc(z.literal('video'), 'Object type: a clip from the template\'s own assets (it cannot be replaced by an upload).', 'video'),
    ...common,
    path: doc(ImageRef, 'The clip (mp4, mov, webm…): a relative path or "asset:<name>".', 'clips/waves.mp4'),
    trim_start: doc(z.number().finite().min(0).max(3600), 'Second of the clip to start from. Default 0.', 1.5).optional(),
    trim_end: doc(z.number().finite().gt(0).max(3600), 'Second of the clip to stop at. Default: its end.', 6).optional(),
    loop: doc(z.boolean(), 'Start again from trim_start when the trimmed clip ends; otherwise its last frame stays. Default false.', true).optional(),
    muted: doc(z.boolean(), 'true silences the clip; otherwise its sound is mixed over the design\'s audio while the object is on screen. Default false.', true).optional(),
    config: MediaConfig.optional(),
  })
  .meta({ description: 'A video clip placed into its box.' });

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

export const DesignObject = z.discriminatedUnion('type', [TextObject, ImageObject, ShapeObject, ChartObject, MockupObject, VideoObject]);

export const Background = z
  .strictObject({
  type: doc(z.enum(['color', 'image']), 'color paints background.color; image covers the canvas with background.path.', 'color'),
  color: doc(Color, 'Canvas colour (with type color). Transparent (#0000) is kept in png; jpg flattens onto white.', '#fff8e1').optional(),
  path: doc(ImageRef, 'Canvas image (with type image), centre-cropped to cover.', 'photos/backdrop.jpg').optional(),
  })
  .meta({ description: 'Canvas background: a colour or a centre-cropped image. Default white.', examples: [{ type: 'color', color: '#fff8e1' }] });

export const MAX_SLIDES = 100;

export const Transition = z
  .strictObject({
    type: doc(z.enum(['cut', 'crossfade', 'slide', 'push']), 'cut (default), crossfade, slide (the next slide slides over this one) or push (it pushes this one out).', 'crossfade'),
    duration: doc(z.number().finite().gt(0).max(10), 'Seconds; the next slide starts this long before this one ends. Default 0.5.', 0.6).optional(),
    direction: doc(z.enum(['left', 'right', 'up', 'down']), 'slide and push: the way the next slide moves. Default left (it comes in from the right).', 'up').optional(),
  })
  .meta({ description: 'How the video passes to the next slide.', examples: [{ type: 'push', duration: 0.6, direction: 'left' }] });

export const Slide = z
  .strictObject({
    name: doc(z.string().min(1).max(LIMITS.maxNameLength), 'Name for slide overrides (interface B: {name, slide: {path}}).', 'intro').optional(),
    duration: doc(z.number().finite().gt(0).max(3600), 'Seconds the slide lasts, its transition in included.', 3),
    background: Background.optional(),
    objects: doc(z.array(DesignObject).max(LIMITS.maxObjects), 'Objects in z-order; their times are seconds from the start of the slide.', []),
    transition: Transition.optional(),
  })
  .meta({ description: 'One slide of a slide video.' });

export const Design = z
  .strictObject({
    // Editors (VS Code and others) read "$schema" to offer completion and checks; a template that
    // carries it must still render, so it is accepted here and ignored by everything downstream.
    $schema: doc(
      z.string().max(2048),
      'Ignored by rendering. The JSON Schema an editor uses for completion and checks: a path or URL of template.schema.json.',
      '../../docs/template.schema.json',
    ).optional(),
    schema: doc(z.literal('imprint/design@1'), 'Format version. Always "imprint/design@1" for this version.', 'imprint/design@1').optional(),
    width: doc(z.int().min(1).max(LIMITS.maxCanvasSide), `Canvas width in pixels (1-${LIMITS.maxCanvasSide}).`, 1080),
    height: doc(z.int().min(1).max(LIMITS.maxCanvasSide), `Canvas height in pixels (1-${LIMITS.maxCanvasSide}).`, 1080),
    background: Background.optional(),
    fonts: doc(z.array(z.string().min(1)).max(16), 'Bundled font families the design uses. Default ["Inter"].', ['Inter', 'Lora']).optional(),
    duration: doc(z.number().finite().gt(0).max(3600), 'Length of the video in seconds (mp4). Interface A renders at most 15 s.', 15).optional(),
    poster_time: doc(
      z.number().finite().min(0).max(3600),
      'Animated designs: the second a still (png, jpg, webp, avif, pdf) and interface B\'s screenshot show. Default: the moment the opening entrance animations have ended.',
      2.5,
    ).optional(),
    audio: z
      .strictObject({
        path: doc(ImageRef, 'The sound file (mp3, m4a, wav, ogg…) from the template\'s assets: a relative path or "asset:<name>".', 'music/upbeat.mp3'),
        start: doc(z.number().finite().min(0).max(3600), 'Second of the file to start from. Default 0.', 12).optional(),
        fade_out: doc(z.number().finite().min(0).max(30), 'Seconds of fade-out at the end of the video. Default 1.', 1.5).optional(),
      })
      .meta({ description: 'mp4: a soundtrack, trimmed to the video and faded out at its end.', examples: [{ path: 'music/upbeat.mp3', fade_out: 1.5 }] })
      .optional(),
    objects: doc(z.array(DesignObject).max(LIMITS.maxObjects), 'Objects in z-order: the first is painted first (bottom). Give objects or slides.', []).optional(),
    slides: doc(z.array(Slide).min(1).max(MAX_SLIDES), 'A slide video: slides in order, each with its own objects and a transition to the next. Give objects or slides.', []).optional(),
  })
  .meta({ title: 'Imprint design (template format v1)' });

export type Slide = z.infer<typeof Slide>;

export type Design = z.infer<typeof Design>;
export type DesignObject = z.infer<typeof DesignObject>;
export type TextObject = z.infer<typeof TextObject>;
export type ImageObject = z.infer<typeof ImageObject>;
export type ShapeObject = z.infer<typeof ShapeObject>;
export type VideoObject = z.infer<typeof VideoObject>;
export type ObjectType = DesignObject['type'];
