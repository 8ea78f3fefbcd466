// The render and engine options: one zod schema each that validates them at run time (once, in the
// façade, engine.ts), gives their TypeScript types (inferred, so JSDoc on each property shows in
// editors) and, through its JSDoc, the generated library reference in docs/reference.md
// (scripts/library-reference.mjs; test/docs.test.ts keeps it current).
import { availableParallelism } from 'node:os';
import { z as zod } from 'zod';
import type { AssetResolver } from '../assets/resolver.js';
import type { Design } from '../design/schema.js';
import type { PolotnoDocument } from '../design/polotno/schema.js';
import { issueToError } from '../format/zod-error.js';
import { AvifOptionsSchema, JpgOptionsSchema, PngOptionsSchema, WebpOptionsSchema } from '../encode/image.js';
import type { VideoProgress } from '../encode/video.js';
import { ImprintError } from '../errors.js';
import { jsonPath } from '../format/json-path.js';
import { DEFAULT_FPS, formatList, OUTPUT_FORMATS, VIDEO_FPS, VIDEO_SIZES, type OutputFormat } from '../output-formats.js';
import type { Overrides } from '../resolve/types.js';
import { Watermark } from '../resolve/watermark.js';
import { RENDER_LIMITS, RenderLimitsSchema, type RenderLimits, type RenderPlan } from '../render-checks.js';
import type { FontSet } from '../text/fonts.js';

/**
 * A design document (template format v1, see docs/template-format.md) or a Polotno store JSON
 * (docs/polotno.md), as an object or its JSON text.
 */
export type DesignInput = zod.input<typeof Design> | PolotnoDocument | string;

/** Most pages one pdf may have. */
export const MAX_PAGES = 100;

/** The largest `scale` of a raster still. */
export const MAX_SCALE = 4;
const SCALE_BOUNDS = `expected a scale more than 0 and at most ${MAX_SCALE} (0.5 paints the image at half the design's size)`;

// Values the engine passes through to a later stage, which checks them with JSON paths of its own
// (the design by parseDesign, overrides by resolveScene): here they only get their types.
const design = zod.custom<DesignInput>(() => true);
const overrides = zod.custom<Overrides>(() => true);
const resolver = zod.custom<AssetResolver>((v) => typeof v === 'function', { error: 'expected a function (ref) => Promise<Uint8Array>' });
const seconds = zod.number().finite().min(0).max(3600);

/** A video's frame rate, as the render options, the service's tasks and interface B check it. */
export const FpsSchema = zod.union(
  VIDEO_FPS.map((fps) => zod.literal(fps)),
  { error: `expected fps ${formatList(VIDEO_FPS)}` },
);

/** An mp4's size: the design's, or interface B's sd (short side 720) or hd (1080). */
export const VideoSizeSchema = zod.enum(['design', ...VIDEO_SIZES]);

export const PageInputSchema = zod.strictObject({
  /** This page's design document (object) or its JSON text. Required. */
  design,
  /**
   * This page's overrides, as `overrides` of a single design.
   * @default {}
   */
  overrides: overrides.optional(),
  /**
   * This page's images, when they resolve differently from the request's `assets` (e.g. another folder).
   * @default the request's `assets`
   */
  assets: resolver.optional(),
});
export type PageInput = zod.input<typeof PageInputSchema>;

export const RenderOptionsSchema = zod.strictObject({
  /**
   * A design document (object) or its JSON text. Give this or `pages`.
   * @default none
   */
  design: design.optional(),
  /**
   * Interface A's objects_overrides (object name → fields to replace) or interface B's list.
   * @default {}
   */
  overrides: overrides.optional(),
  /**
   * pdf only: several designs, each with its overrides, as the pages of one document (1-100).
   * @default none
   */
  pages: zod.array(PageInputSchema).min(1).max(MAX_PAGES).optional(),
  /** png, jpg, webp, avif, pdf or mp4. A design without a background is transparent in png, webp and avif. Required. */
  format: zod.enum(OUTPUT_FORMATS),
  /**
   * png encoder settings.
   * @default { compressionLevel: 3 }
   */
  png: PngOptionsSchema.optional(),
  /**
   * jpg encoder settings.
   * @default { quality: 90 }
   */
  jpg: JpgOptionsSchema.optional(),
  /**
   * webp encoder settings.
   * @default { quality: 80, lossless: false }
   */
  webp: WebpOptionsSchema.optional(),
  /**
   * avif encoder settings.
   * @default { quality: 50 }
   */
  avif: AvifOptionsSchema.optional(),
  /**
   * Supplies image bytes for references.
   * @default files under `baseDir` when it is given; otherwise a render that needs an image fails
   */
  assets: resolver.optional(),
  /**
   * Folder for relative image paths when no `assets` resolver is given; nothing outside it is read.
   * @default none
   */
  baseDir: zod.string().min(1).optional(),
  /**
   * The format of the design documents: Imprint's template format, or a Polotno store JSON (converted
   * on the fly, see docs/polotno.md). auto tells them apart by shape: a Polotno document has `pages`
   * with `children` and no `objects` or `slides` (CLI: --input-format).
   * @default "auto"
   */
  inputFormat: zod.enum(['auto', 'imprint', 'polotno']).optional(),
  /**
   * Polotno documents only, as Polotno's render option of that name: a text that shrinks to fit its
   * box may split a word too long for a line across lines, instead of shrinking until the word fits
   * whole (CLI: --text-split-allowed). true is refused with an Imprint design: a converted design keeps the
   * choice made when it was imported (`imprint import polotno --text-split-allowed`).
   * @default false
   */
  textSplitAllowed: zod.boolean({ error: 'expected textSplitAllowed true or false' }).optional(),
  /**
   * Font files (TTF, OTF, WOFF, WOFF2; at most 20 MB each) whose families designs may use, named by
   * the family inside each file; a design lists the family in `fonts` (CLI: --font <file>).
   * @default none
   */
  fontFiles: zod
    .array(zod.custom<Uint8Array>((v) => v instanceof Uint8Array, { error: 'expected the bytes of a font file (Uint8Array or Buffer)' }))
    .max(16)
    .optional(),
  /**
   * A family the design names that is neither bundled, installed, in the design's files nor in
   * `fontFiles`: "error" refuses the render (validation_error naming the family and how to install it);
   * "fallback" draws its texts with the default family (Inter) and names every such text in the report
   * (`font_substitutions`) and the warnings — never silently. Polotno's counterpart is skipFontError.
   * @default "error"
   */
  missingFonts: zod.enum(['error', 'fallback']).optional(),
  /**
   * A still (png, jpg, webp, avif, pdf) of an animated design: the second to show, at most its duration.
   * @default the design's `poster_time`, else the moment its opening entrance animations have ended
   */
  time: seconds.optional(),
  /**
   * Raster stills (png, jpg, webp, avif): paint the image at the design's size × scale (more than 0, at
   * most 4; width and height rounded to whole pixels). Text and shapes are painted at that size, not
   * resampled, and images are decoded at the size they are painted. Refused for pdf (vector: its pages
   * keep the design's size) and mp4 (use `size`).
   * @default 1
   */
  scale: zod.number({ error: SCALE_BOUNDS }).gt(0, { error: SCALE_BOUNDS }).max(MAX_SCALE, { error: SCALE_BOUNDS }).optional(),
  /**
   * mp4: frames per second, 30 or 60.
   * @default 30
   */
  fps: FpsSchema.optional(),
  /**
   * mp4: output size: the design's, or interface B's sd (short side 720) or hd (1080).
   * @default "design"
   */
  size: VideoSizeSchema.optional(),
  /**
   * mp4: longest allowed duration in seconds (a host or service plan sets its own).
   * @default 15, or 300 for a slide video
   */
  maxDuration: zod.number().finite().gt(0).max(3600).optional(),
  /**
   * mp4: also return a jpg poster of a frame (interface B's screenshot); `time` defaults as for a still.
   * @default none
   */
  poster: zod.strictObject({ time: seconds.optional() }).optional(),
  /**
   * A logo on top of every frame or page (interface B's demo mode): `{ image, position?, opacity?, width? }`.
   * @default none
   */
  watermark: Watermark.optional(),
  /**
   * mp4: called as frames are encoded.
   * @default none
   */
  onProgress: zod.custom<(progress: VideoProgress) => void>((v) => typeof v === 'function', { error: 'expected a function (progress) => void' }).optional(),
  /**
   * Stops the render: ffmpeg is killed, temporary files removed, the promise rejects with render_cancelled.
   * @default none
   */
  signal: zod.custom<AbortSignal>((v) => v instanceof AbortSignal, { error: 'expected an AbortSignal' }).optional(),
  /**
   * What one render may cost (canvas, video and image pixels), checked before it starts; give only the limits to change.
   * @default RENDER_LIMITS
   */
  limits: RenderLimitsSchema.partial().optional(),
});
export type RenderOptions = zod.input<typeof RenderOptionsSchema>;

/** The largest `threads` an Engine takes. */
export const MAX_THREADS = 64;

/** A received option value as sharp's messages show it: numbers as they are, anything else with its type. */
const shown = (v: unknown): string => (typeof v === 'number' ? String(v) : `${JSON.stringify(v) ?? String(v)} of type ${typeof v}`);
/** An engine option's message, whichever check failed: what it takes and what it got. */
const expected =
  (what: string) =>
  (issue: { input?: unknown }): string =>
    `Expected ${what} but received ${shown(issue.input)}`;
const THREADS = expected(`an integer between 0 and ${MAX_THREADS} for threads`);
const FONTS_DIR = expected('a folder path for fontsDir');
const CACHE_BYTES = expected('a number of bytes, 0 or more, for imageCacheBytes');

/**
 * The fields of EngineOptions. Exported so that the published declarations keep each field's JSDoc:
 * EngineOptionsSchema's type names this object instead of repeating its fields without their comments.
 */
export const engineOptionsFields = {
  /**
   * The fonts designs may use.
   * @default the bundled set (fonts/manifest.json), shared by every engine of the process
   */
  fonts: zod.custom<FontSet>(() => true).optional(),
  /**
   * The font folder of installed catalogue families (`imprint fonts install`), looked up after the
   * bundled families. Not with `fonts` (a FontSet carries its own, FontSet.installed).
   * @default IMPRINT_FONTS_DIR, else `fonts` in IMPRINT_DATA_DIR (default ./data): ./data/fonts
   */
  fontsDir: zod.string({ error: FONTS_DIR }).min(1, { error: FONTS_DIR }).optional(),
  /**
   * Memory in bytes for images and the pixels derived from them, kept between renders; with
   * threads, each thread keeps its share (imageCacheBytes / threads).
   * @default 268_435_456 (256 MiB)
   */
  imageCacheBytes: zod
    // Infinity (no bound) is a number of bytes too.
    .custom<number>((v) => typeof v === 'number' && v >= 0, { error: CACHE_BYTES })
    .default(256 * 1024 * 1024),
  /**
   * Worker threads that render (every format) in parallel, started on first use. Engines made with
   * the same threads, fonts and imageCacheBytes share one set of threads in the process, so making an
   * engine per request costs nothing after the first; idle threads do not keep the process alive, and
   * threads no engine holds (closed, or dropped and collected) end after 10 s idle. Threads open
   * `fonts` from its folder. 0 renders on the caller's thread, which suits a process that renders once
   * (the CLI does: a thread costs a start-up). `rasterize()` always runs on the caller's thread.
   * @default os.availableParallelism() (the number of cores), at most 64
   */
  threads: zod
    .int({ error: THREADS })
    .min(0, { error: THREADS })
    .max(MAX_THREADS, { error: THREADS })
    .default(() => Math.min(availableParallelism(), MAX_THREADS)),
};
// Not strict: an engine has always ignored keys it does not know, so a host may pass a larger config.
export const EngineOptionsSchema: zod.ZodObject<typeof engineOptionsFields> = zod.object(engineOptionsFields, {
  error: 'expected engine options { fonts?, fontsDir?, imageCacheBytes?, threads? } (an object)',
});
export type EngineOptions = zod.input<typeof EngineOptionsSchema>;
/** EngineOptions checked, with the defaults filled in: what an Engine keeps. */
export type EngineSettings = zod.output<typeof EngineOptionsSchema>;

/** Checks an Engine's options and fills in the defaults (once, when the engine is made). */
export function engineSettings(options: EngineOptions): EngineSettings {
  const parsed = EngineOptionsSchema.safeParse(options);
  if (!parsed.success) {
    // Each check of the schema carries the whole message, with the value as received.
    const first = parsed.error.issues[0]!;
    throw new ImprintError('validation_error', jsonPath(first.path.filter((p) => typeof p !== 'symbol')), first.message);
  }
  const settings = parsed.data;
  if (settings.fonts && settings.fontsDir !== undefined) {
    throw new ImprintError('validation_error', '$.fontsDir', 'give either fonts (a FontSet, which names its own font folder) or fontsDir, not both');
  }
  return settings;
}

/** jpg (and video) have no alpha channel: transparent areas are painted onto white. */
export const JPG_MATTE = [255, 255, 255, 1] as const;

/** How a caller of the library raises the video length limit. */
const ENGINE_LIMIT_HINT = "raise the limit with the maxDuration option (CLI: --max-duration <s>) or shorten the design's duration";

export const limitsOf = (options: RenderOptions): RenderLimits => ({ ...RENDER_LIMITS, ...options.limits });

/** Everything about the request that decides, before loading anything, whether the scene can render. */
export function planOf(options: RenderOptions): RenderPlan {
  return {
    format: options.format,
    limits: limitsOf(options),
    fps: options.fps ?? DEFAULT_FPS,
    overLimitHint: ENGINE_LIMIT_HINT,
    ...(options.maxDuration === undefined ? {} : { maxDuration: options.maxDuration }),
    ...(options.time === undefined ? {} : { time: options.time }),
    ...(options.scale === undefined ? {} : { scale: options.scale }),
  };
}

/** What to use instead of `scale` for the formats that refuse it. */
const NO_SCALE_BECAUSE: Partial<Record<OutputFormat, string>> = {
  pdf: "a pdf is vector and its pages keep the design's size (viewers zoom it): leave scale out, or render png, jpg, webp or avif to get a scaled image",
  mp4: 'an mp4\'s frame size is chosen with size: "sd" (short side 720) or "hd" (1080) (CLI: --size sd|hd); leave scale out',
};

/** Checks the options' shape and combinations; the design and overrides are checked when parsed. */
export function validateOptions(options: RenderOptions): void {
  const value = options as unknown;
  if (value === null || typeof value !== 'object') throw new ImprintError('validation_error', '$', 'expected render options { design, overrides, format }');
  const parsed = RenderOptionsSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    if (first.path[0] === 'format' && first.code === 'invalid_value') {
      const got = (value as { format?: unknown }).format;
      throw new ImprintError(
        'validation_error',
        '$.format',
        `expected ${formatList(OUTPUT_FORMATS.map((f) => `"${f}"`))} but received ${got === undefined ? 'nothing' : JSON.stringify(got)}`,
      );
    }
    throw issueToError(first, value, { schema: RenderOptionsSchema, describe: (p) => (p.length === 0 ? 'the render options' : undefined) });
  }
  const { design, pages, overrides, format, scale } = parsed.data;
  const noScale = NO_SCALE_BECAUSE[format];
  if (scale !== undefined && noScale) throw new ImprintError('validation_error', '$.scale', `scale applies to png, jpg, webp and avif only: ${noScale}`);
  if (pages !== undefined) {
    if (format !== 'pdf')
      throw new ImprintError('validation_error', '$.pages', `pages make a multi-page pdf: use format "pdf", or render each design on its own as ${format}`);
    if (design !== undefined || overrides !== undefined)
      throw new ImprintError('validation_error', '$.design', 'give either design (with overrides) or pages, not both');
  } else if (design === undefined) {
    throw new ImprintError('validation_error', '$.design', 'expected a design (or, for a pdf, pages: [{ design, overrides }])');
  }
}
