// Template format v1, the design as a whole: canvas, background, soundtrack, slides, and objects of the types
// the registry lists (src/objects/). Types, validation and the published JSON Schema all derive from it.
import { z } from 'zod';
import { doc, ImageRef, LIMITS } from '../format/fields.js';
import { fillFields } from '../format/fill.js';
import { LangTag } from '../format/lang.js';
import { DesignObject } from '../objects/registry.js';
import type { Sides } from '../scene/scene.js';

export const Background = z
  .strictObject(
    fillFields({
      type: 'color paints background.color; image covers the canvas with background.path; linear_gradient and radial_gradient paint background.stops across the canvas.',
      color: ['Canvas colour (with type color). Transparent (#0000) is kept in png; jpg flattens onto white.', '#fff8e1'],
      path: ['Canvas image (with type image), centre-cropped to cover.', 'photos/backdrop.jpg'],
    }),
  )
  .meta({
    description: 'Canvas background: a colour, a centre-cropped image, or a linear or radial gradient. Default white.',
    examples: [
      { type: 'color', color: '#fff8e1' },
      {
        type: 'radial_gradient',
        center: { x: 0.5, y: 0.4 },
        radius: 1,
        stops: [
          { offset: 0, color: '#fff8e1' },
          { offset: 1, color: '#ffb74d' },
        ],
      },
    ],
  });

export const MAX_SLIDES = 100;
/** Longest URL a design's `sources` records (and an import fetches): signed bucket URLs run to a few thousand characters. */
export const MAX_SOURCE_URL_LENGTH = 8192;

export const Transition = z
  .strictObject({
    type: doc(
      z.enum(['cut', 'crossfade', 'slide', 'push']),
      'cut (default), crossfade, slide (the next slide slides over this one) or push (it pushes this one out).',
      'crossfade',
    ),
    duration: doc(z.number().finite().gt(0).max(10), 'Seconds; the next slide starts this long before this one ends. Default 0.5.', 0.6).optional(),
    direction: doc(
      z.enum(['left', 'right', 'up', 'down']),
      'slide and push: the way the next slide moves. Default left (it comes in from the right).',
      'up',
    ).optional(),
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

const canvasSide = z
  .number({ error: 'expected the canvas size in pixels, as a number' })
  .finite()
  .min(1, { error: 'expected a canvas size of at least 1 pixel' })
  .max(LIMITS.maxCanvasSide, { error: `expected a canvas size of at most ${LIMITS.maxCanvasSide} pixels: make the design smaller` });

const bleedSide = z
  .number({ error: 'expected the bleed in pixels, as a number' })
  .finite()
  .min(0, { error: 'expected a bleed of 0 pixels or more (0 for none)' })
  .max(1000, { error: 'expected a bleed of at most 1000 pixels' });

export const Bleed = z
  .strictObject({
    top: doc(bleedSide, 'Pixels above the canvas. Default 0.', 35.433).optional(),
    right: doc(bleedSide, 'Pixels right of the canvas. Default 0.', 35.433).optional(),
    bottom: doc(bleedSide, 'Pixels below the canvas. Default 0.', 35.433).optional(),
    left: doc(bleedSide, 'Pixels left of the canvas. Default 0.', 35.433).optional(),
  })
  .meta({ description: 'Bleed per side, in pixels.', examples: [{ top: 35.433, right: 35.433, bottom: 35.433, left: 35.433 }] });

/** A font file shipped with the design (src/assets/design-fonts.ts loads it). */
export const FontFile = z
  .strictObject({
    family: doc(
      z.string().min(1).max(100),
      'The family name font_family and substyle font_family use (it may differ from the name inside the file).',
      'Brand Sans',
    ),
    path: doc(
      ImageRef,
      'The font file beside design.json (TTF, OTF, WOFF or WOFF2, at most 20 MB): a relative path or "asset:<name>".',
      'fonts/BrandSans-Variable.woff2',
    ),
    weight: doc(
      z.int().min(100).max(900),
      "The weight this file is (default: the file's own OS/2 weight). A variable font covers its whole wght axis whatever this says.",
      700,
    ).optional(),
    style: doc(z.enum(['normal', 'italic']), "normal or italic (default: the file's own italic flag).", 'italic').optional(),
  })
  .meta({ description: 'A font file shipped with the design.', examples: [{ family: 'Brand Sans', path: 'fonts/BrandSans-Variable.woff2' }] });

/** A catalogue family pinned to the package version it was installed from (imprint fonts install, the service's imports). */
export const FontPackage = z
  .strictObject({
    family: doc(z.string().min(1).max(100), 'The Google Fonts family, as the font catalogue names it.', 'Montserrat'),
    package: doc(
      z.string().regex(/^@(?:expo-google-fonts|fontsource)\/[a-z0-9-]{1,100}$/, {
        error: 'expected an @expo-google-fonts/<family> or @fontsource/<family> package name',
      }),
      "The npm package the family's files come from: @expo-google-fonts/<family>, or @fontsource/<family> for a family without an expo package.",
      '@expo-google-fonts/montserrat',
    ),
    version: doc(
      z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, { error: 'expected a package version like "0.4.2"' }),
      'The package version.',
      '0.4.2',
    ),
    integrity: doc(
      z.string().regex(/^sha512-[A-Za-z0-9+/]{86}==$/, { error: 'expected a sha512 integrity ("sha512-…", as npm records it)' }),
      "The package tarball's integrity: an install that differs is refused, so the design renders with the same bytes years later.",
      'sha512-Xyq7rKJhhZOE1Xk4wKSSVoUeOkFmQEMhtZ3pdFrgYckGZMs115Apmld1AI8Ju+yrl5GzDdfRCCqRr33dvEDYUA==',
    ),
  })
  .meta({
    description: 'A Google Fonts family from the font catalogue, pinned to a package version (written by imports; a plain family name works too).',
    examples: [
      {
        family: 'Montserrat',
        package: '@expo-google-fonts/montserrat',
        version: '0.4.2',
        integrity: 'sha512-Xyq7rKJhhZOE1Xk4wKSSVoUeOkFmQEMhtZ3pdFrgYckGZMs115Apmld1AI8Ju+yrl5GzDdfRCCqRr33dvEDYUA==',
      },
    ],
  });

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
    width: doc(
      canvasSide,
      `Canvas width in pixels (1-${LIMITS.maxCanvasSide}). May be fractional for a print size at a dpi (A4 at 300 dpi is 2480.315 × 3507.874): png, jpg, webp and avif round it to whole pixels (2480 × 3508), a pdf keeps it exact.`,
      1080,
    ),
    height: doc(canvasSide, `Canvas height in pixels (1-${LIMITS.maxCanvasSide}); may be fractional, as width.`, 1080),
    dpi: doc(
      z
        .number({ error: 'expected dpi as a number of pixels per inch, such as 300' })
        .finite()
        .gt(0, { error: 'expected dpi greater than 0 (the pixels per inch the design is made at, such as 72, 96 or 300)' })
        .max(10_000, { error: 'expected dpi of at most 10000: give the pixels per inch the design was made at, such as 300' }),
      "Pixels per inch of the design: a pdf page is width × 72 / dpi points wide (A4 at 300 dpi: 2480.315 px → 595.276 pt), and png and jpg carry it as their density. Default 96 (CSS pixels: a 1080 px design is an 810 pt page). Rasters are always the design's pixels.",
      300,
    ).optional(),
    bleed: doc(
      z.union([bleedSide, Bleed], {
        error: 'expected bleed as pixels (a number, 0 or more) or as {"top", "right", "bottom", "left"} in pixels',
      }),
      'Print bleed in pixels, on every side (a number) or per side: a pdf page grows by it on each side and its TrimBox marks the canvas; objects reaching past the canvas edge show in it, the background covers it. png, jpg, webp and avif are the canvas without it. Default 0.',
      35.433,
    ).optional(),
    background: Background.optional(),
    fonts: doc(
      z
        .array(
          z.union([z.string().min(1), FontFile, FontPackage], {
            error:
              'expected a family name, a font file as {"family": …, "path": …, "weight"?: 100-900, "style"?: "normal" or "italic"}, or a pinned catalogue family as {"family": …, "package": …, "version": …, "integrity": …}',
          }),
        )
        .max(32),
      'Font families the design uses: bundled family names (Inter, Lora, Roboto), Google Fonts families of the font catalogue installed in the font folder (imprint fonts install), families of font files given with the render, font files shipped beside design.json as {family, path, weight?, style?}, and catalogue families pinned to a package version as {family, package, version, integrity}. Default ["Inter"].',
      ['Inter', { family: 'Brand Sans', path: 'fonts/BrandSans-Variable.woff2' }],
    ).optional(),
    lang: doc(
      LangTag,
      "The design's language as a BCP 47 tag (ja, ko, zh-Hans, zh-Hant, zh-TW, zh-HK, en-US, ar…): the lang of every text object that gives none (it picks the forms of Chinese characters: Japanese, Korean, Simplified or Traditional Chinese), and the language a pdf declares (its /Lang, read by screen readers). Default none.",
      'zh-Hant',
    ).optional(),
    duration: doc(z.number().finite().gt(0).max(3600), 'Length of the video in seconds (mp4). Interface A renders at most 15 s.', 15).optional(),
    poster_time: doc(
      z.number().finite().min(0).max(3600),
      "Animated designs: the second a still (png, jpg, webp, avif, pdf) and interface B's screenshot show. Default: the moment the opening entrance animations have ended.",
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
    objects: doc(
      z.array(DesignObject).max(LIMITS.maxObjects),
      'Objects in z-order: the first is painted first (bottom). Give objects or slides.',
      [],
    ).optional(),
    slides: doc(
      z.array(Slide).min(1).max(MAX_SLIDES),
      'A slide video: slides in order, each with its own objects and a transition to the next. Give objects or slides.',
      [],
    ).optional(),
    // Provenance only: a render reads the stored files, never these URLs (renders never fetch).
    sources: doc(
      z.record(z.string().min(1).max(1000), z.string().min(1).max(MAX_SOURCE_URL_LENGTH)),
      "Ignored by rendering. Where files of the design were downloaded from when it was imported (a Polotno document's remote URLs, fetched once by `imprint import polotno` or the service's import): the file's relative path → the http(s) URL it came from. Never fetched again.",
      { 'embedded/5d41402abc4b2a76b9719d91.jpg': 'https://cdn.example.com/photos/lake.jpg' },
    ).optional(),
  })
  .meta({ title: 'Imprint design (template format v1)' });

export type Slide = z.infer<typeof Slide>;

export type Design = z.infer<typeof Design>;

/** A design's `bleed` as four sides; null without one (or one of 0 everywhere). */
export function bleedOf(design: Pick<Design, 'bleed'>): Sides | null {
  const b = design.bleed;
  if (b === undefined) return null;
  const sides =
    typeof b === 'number' ? { top: b, right: b, bottom: b, left: b } : { top: b.top ?? 0, right: b.right ?? 0, bottom: b.bottom ?? 0, left: b.left ?? 0 };
  return sides.top || sides.right || sides.bottom || sides.left ? sides : null;
}
