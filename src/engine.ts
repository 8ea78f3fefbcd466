// The public library API: render(design, overrides, format) → png, jpg, webp, avif, pdf or mp4 bytes or a
// stream, plus a fit report. Runs parse → resolve → load images → layout → paint → encode; each stage its own module.
import { Readable } from 'node:stream';
import { z as zod } from 'zod';
import { clipSeconds, decodeClipFrame, loadClips, sceneVideos, type Clips } from './assets/clips.js';
import { ImageCache, loadImage, loadImages, type DecodedImage, type LoadedImage } from './assets/load.js';
import { AssetNotFoundError, fileAssetResolver, type AssetResolver } from './assets/resolver.js';
import { parseDesign } from './design/parse.js';
import { issueToError } from './design/zod-error.js';
import { ALPHA_FORMATS, encoder, MIME_TYPES, type AvifOptions, type ImageFormat, type JpgOptions, type PngOptions, type WebpOptions } from './encode/image.js';
import { encodePdf } from './encode/pdf.js';
import type { VideoProgress } from './encode/video.js';
import { sampleScene, stillTime } from './layout/timeline.js';
import type { Scene } from './design/types.js';
import type { Design } from './design/schema.js';
import type { Overrides } from './overrides/types.js';
import { checkImagePixels, checkRenderable, formatList, OUTPUT_FORMATS, RENDER_LIMITS, type OutputFormat, type RenderLimits, type RenderPlan } from './render-checks.js';
import { renderVideo, sizesOf } from './video.js';
import { prepareAudio } from './encode/audio.js';
import { Watermark, withWatermark, type WatermarkOptions } from './overrides/watermark.js';
import { clipFrameKey, parseImageRef } from './design/image-ref.js';
import { ImprintError } from './errors.js';
import type { DisplayList } from './layout/display-list.js';
import { layout, type FitReport } from './layout/layout.js';
import type { RasterImage } from './paint/backend.js';
import { rasterBackend } from './paint/raster.js';
import { resolveScene } from './overrides/resolve.js';
import { bundledFonts, type FontSet } from './text/fonts.js';

export type { OutputFormat } from './render-checks.js';
export { MAX_VIDEO_SECONDS, MAX_SLIDE_VIDEO_SECONDS } from './render-checks.js';

/** A design document (template format v1, see docs/template-format.md) as an object, or its JSON text. */
export type DesignInput = zod.input<typeof Design> | string;

export interface PageInput {
  design: DesignInput;
  overrides?: Overrides;
  /** This page's images, when they resolve differently from the request's `assets` (e.g. another folder). */
  assets?: AssetResolver;
}

export interface RenderOptions {
  /** A design document (object) or its JSON text. Give this or `pages`. */
  design?: DesignInput;
  /** Interface A's objects_overrides (object name → fields to replace) or interface B's list. Default `{}`. */
  overrides?: Overrides;
  /** pdf only: several designs, each with its overrides, as the pages of one document. */
  pages?: PageInput[];
  /** png, jpg, webp, avif, pdf or mp4. A design without a background is transparent in png, webp and avif. */
  format: OutputFormat;
  png?: PngOptions;
  jpg?: JpgOptions;
  webp?: WebpOptions;
  avif?: AvifOptions;
  /** Supplies image bytes for references. Default: files under `baseDir`, if given. */
  assets?: AssetResolver;
  /** Folder for relative image paths when no `assets` resolver is given. */
  baseDir?: string;
  /**
   * A still (png, jpg, webp, avif, pdf) of an animated design: the second to show, at most its duration.
   * Default: the design's `poster_time`, else the moment its opening entrance animations have ended.
   */
  time?: number;
  /** mp4: frames per second, 30 (default) or 60. */
  fps?: 30 | 60;
  /** mp4: output size: the design's (default), or interface B's sd (short side 720) or hd (1080). */
  size?: 'design' | 'sd' | 'hd';
  /** mp4: longest allowed duration in seconds. Default 15 (interface A's limit); 300 for slide videos. */
  maxDuration?: number;
  /** mp4: also return a jpg poster of a frame (interface B's screenshot); `time` defaults as for a still. */
  poster?: { time?: number };
  /** A logo on top of every frame or page (interface B's demo mode): `{ image, position?, opacity?, width? }`. */
  watermark?: WatermarkOptions;
  /** mp4: called as frames are encoded. */
  onProgress?: (progress: VideoProgress) => void;
  /** Stops the render: ffmpeg is killed, temporary files removed, the promise rejects with render_cancelled. */
  signal?: AbortSignal;
  /** What one render may cost (canvas, video and image pixels), checked before it starts. Default RENDER_LIMITS. */
  limits?: Partial<RenderLimits>;
}

export interface RenderResult {
  bytes: Buffer;
  format: OutputFormat;
  mimeType: string;
  /** Size in px of the (first) page. */
  width: number;
  height: number;
  /** Text objects of every page; entries of a multi-page pdf carry their page index. */
  report: FitReport;
  /** mp4: the number of frames. */
  frames?: number;
  /** mp4 with `poster`: the jpg of that frame. */
  poster?: Buffer;
}

export interface RenderStream extends Omit<RenderResult, 'bytes'> {
  stream: Readable;
}

export interface EngineOptions {
  fonts?: FontSet;
  /** Memory for images and the pixels derived from them, kept between renders. Default 256 MiB. */
  imageCacheBytes?: number;
}

export const MAX_PAGES = 100;

const Options = zod.strictObject({
  design: zod.unknown().optional(),
  overrides: zod.unknown().optional(),
  pages: zod
    .array(
      zod.strictObject({
        design: zod.unknown(),
        overrides: zod.unknown().optional(),
        assets: zod.custom<AssetResolver>((v) => typeof v === 'function', { error: 'expected a function (ref) => Promise<Uint8Array>' }).optional(),
      }),
    )
    .min(1)
    .max(MAX_PAGES)
    .optional(),
  format: zod.enum(OUTPUT_FORMATS),
  time: zod.number().finite().min(0).max(3600).optional(),
  fps: zod.union([zod.literal(30), zod.literal(60)], { error: 'expected fps 30 or 60' }).optional(),
  size: zod.enum(['design', 'sd', 'hd']).optional(),
  maxDuration: zod.number().finite().gt(0).max(3600).optional(),
  poster: zod.strictObject({ time: zod.number().finite().min(0).max(3600).optional() }).optional(),
  onProgress: zod.custom<(p: VideoProgress) => void>((v) => typeof v === 'function', { error: 'expected a function (progress) => void' }).optional(),
  signal: zod.custom<AbortSignal>((v) => v instanceof AbortSignal, { error: 'expected an AbortSignal' }).optional(),
  watermark: Watermark.optional(),
  png: zod.strictObject({ compressionLevel: zod.int().min(0).max(9).optional() }).optional(),
  jpg: zod.strictObject({ quality: zod.int().min(1).max(100).optional() }).optional(),
  webp: zod.strictObject({ quality: zod.int().min(1).max(100).optional(), lossless: zod.boolean().optional() }).optional(),
  avif: zod.strictObject({ quality: zod.int().min(1).max(100).optional() }).optional(),
  assets: zod.custom<AssetResolver>((v) => typeof v === 'function', { error: 'expected a function (ref) => Promise<Uint8Array>' }).optional(),
  baseDir: zod.string().min(1).optional(),
  limits: zod
    .strictObject({
      maxCanvasPixels: zod.number().int().positive().optional(),
      maxVideoFramePixels: zod.number().int().positive().optional(),
      maxVideoPixelFrames: zod.number().positive().optional(),
      maxImagePixels: zod.number().int().positive().optional(),
    })
    .optional(),
});

const limitsOf = (options: RenderOptions): RenderLimits => ({ ...RENDER_LIMITS, ...options.limits });

const MIME: Record<OutputFormat, string> = { ...MIME_TYPES, pdf: 'application/pdf', mp4: 'video/mp4' };

/** jpg has no alpha channel: transparent areas are painted onto white. */
const JPG_MATTE = [255, 255, 255, 1] as const;

/** How a caller of the library raises the video length limit. */
const ENGINE_LIMIT_HINT = 'raise the limit with the maxDuration option (CLI: --max-duration <s>) or shorten the design\'s duration';

/** The second a still of this page shows: the caller's `time` (checked by checkRenderable), or the design's poster time. */
function stillTimeOf(scene: Scene, options: RenderOptions): number {
  return options.time ?? stillTime(scene);
}

/** Everything about the request that decides, before loading anything, whether the scene can render. */
function planOf(options: RenderOptions): RenderPlan {
  return {
    format: options.format,
    limits: limitsOf(options),
    fps: options.fps ?? 30,
    overLimitHint: ENGINE_LIMIT_HINT,
    ...(options.maxDuration === undefined ? {} : { maxDuration: options.maxDuration }),
    ...(options.time === undefined ? {} : { time: options.time }),
  };
}

const noAssets: AssetResolver = async () => {
  throw new AssetNotFoundError('this render has no asset resolver: pass `assets` or `baseDir` to render()');
};

function validateOptions(options: RenderOptions): void {
  const value = options as unknown;
  if (value === null || typeof value !== 'object') throw new ImprintError('validation_error', '$', 'expected render options { design, overrides, format }');
  const parsed = Options.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    if (first.path[0] === 'format' && first.code === 'invalid_value') {
      const got = (value as { format?: unknown }).format;
      throw new ImprintError('validation_error', '$.format', `expected ${formatList(OUTPUT_FORMATS.map((f) => `"${f}"`))} but received ${got === undefined ? 'nothing' : JSON.stringify(got)}`);
    }
    throw issueToError(first, value, { schema: Options, describe: (p) => (p.length === 0 ? 'the render options' : undefined) });
  }
  const { design, pages, overrides, format } = parsed.data;
  if (pages !== undefined) {
    if (format !== 'pdf') throw new ImprintError('validation_error', '$.pages', `pages make a multi-page pdf: use format "pdf", or render each design on its own as ${format}`);
    if (design !== undefined || overrides !== undefined) throw new ImprintError('validation_error', '$.design', 'give either design (with overrides) or pages, not both');
  } else if (design === undefined) {
    throw new ImprintError('validation_error', '$.design', 'expected a design (or, for a pdf, pages: [{ design, overrides }])');
  }
}

interface LaidOutPage {
  displayList: DisplayList;
  report: FitReport;
  images: Map<string, LoadedImage>;
  /** Frames of the video objects at the page's time. */
  ready: Map<string, DecodedImage>;
}

interface ScenePage {
  scene: Scene;
  images: Map<string, LoadedImage>;
  clips: Clips;
}

const STILL_CLIP_FPS = 30;

export class Engine {
  readonly fonts: FontSet;
  private readonly images: ImageCache;

  constructor(options: EngineOptions = {}) {
    this.fonts = options.fonts ?? bundledFonts();
    this.images = new ImageCache(options.imageCacheBytes ?? 256 * 1024 * 1024);
  }

  /** parse → resolve → load for one design; `at` roots its error paths. */
  private async scenePage(design: unknown, overrides: unknown, resolver: AssetResolver, at: { design: string; overrides: string }, options: RenderOptions): Promise<ScenePage> {
    const parsed = parseDesign(design, this.fonts, at.design);
    let scene = resolveScene(parsed, overrides ?? {}, this.fonts, at);
    // The budget and the format's needs are checked before a byte is loaded.
    checkRenderable(scene, { ...planOf(options), at: { size: `${at.design}.width` } });
    const { watermark } = options;
    if (watermark) {
      // The logo's size decides its box, so it is loaded first.
      const ref = { ...parseImageRef(watermark.image, '$.watermark.image'), at: '$.watermark.image' };
      scene = withWatermark(scene, watermark, await loadImage(ref, resolver, this.images), '$.watermark');
    }
    const images = await loadImages(scene, resolver, this.images);
    checkImagePixels(images.values(), limitsOf(options));
    return { scene, images, clips: await loadClips(scene, resolver) };
  }

  /** The scene at `time` laid out, with its video objects' frames at that time. */
  private async layoutAt({ scene, images, clips }: ScenePage, time: number): Promise<LaidOutPage> {
    const sampled = sampleScene(scene, time);
    const { displayList, report } = layout(sampled, sizesOf(images, clips), this.fonts);
    const ready = new Map<string, DecodedImage>();
    for (const v of sceneVideos(sampled.objects)) {
      const clip = clips.byKey.get(v.decodeKey)!;
      const key = clipFrameKey(v);
      if (!ready.has(key)) ready.set(key, await decodeClipFrame(clip, clipSeconds(v, clip, v.playTime, STILL_CLIP_FPS), key));
    }
    return { displayList, report, images, ready };
  }

  /** Runs `work` on the request's scenes, then removes their clips' temporary files. */
  private async withScenes<T>(options: RenderOptions, work: (pages: ScenePage[]) => Promise<T>): Promise<T> {
    const pages = await this.scenesOf(options);
    try {
      return await work(pages);
    } finally {
      await Promise.all(pages.map((p) => p.clips.remove()));
    }
  }

  private resolverOf(options: RenderOptions): AssetResolver {
    return options.assets ?? (options.baseDir !== undefined ? fileAssetResolver({ baseDir: options.baseDir }) : noAssets);
  }

  private scenesOf(options: RenderOptions): Promise<ScenePage[]> {
    const resolver = this.resolverOf(options);
    if (options.pages) {
      return Promise.all(
        options.pages.map((p, i) => this.scenePage(p.design, p.overrides, p.assets ?? resolver, { design: `$.pages[${i}].design`, overrides: `$.pages[${i}].overrides` }, options)),
      );
    }
    return Promise.all([this.scenePage(options.design, options.overrides, resolver, { design: '$', overrides: '$.objects_overrides' }, options)]);
  }

  private async video(options: RenderOptions, [page]: ScenePage[]): Promise<RenderResult> {
    const { scene, images, clips } = page!;
    if (scene.duration === null) throw new Error('checkRenderable lets no mp4 without a duration through');
    const audio = scene.audio ? await prepareAudio(scene.audio.file, this.resolverOf(options)) : null;
    const video = await renderVideo(
      { scene, images, clips, fonts: this.fonts, cache: this.images },
      {
        fps: options.fps ?? 30,
        ...(options.size ? { size: options.size } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(audio && scene.audio ? { audio: { path: audio.path, start: scene.audio.start, duration: scene.duration, fadeOut: Math.min(scene.audio.fadeOut, scene.duration) } } : {}),
      },
    ).finally(() => audio?.remove());
    let poster: Buffer | undefined;
    if (options.poster) {
      const still = await this.layoutAt(page!, Math.min(options.poster.time ?? stillTime(scene), scene.duration));
      const image = await rasterBackend.paint(still.displayList, { images, fonts: this.fonts, cache: this.images, ready: still.ready }, { matte: JPG_MATTE });
      // The same size as the video (sd/hd scale the frames after painting, as ffmpeg does for the video).
      const jpg = encoder(image, 'jpg', options);
      poster = await (image.width !== video.width || image.height !== video.height ? jpg.resize(video.width, video.height, { fit: 'fill' }) : jpg).toBuffer();
    }
    return { bytes: video.bytes, format: 'mp4', mimeType: MIME.mp4, width: video.width, height: video.height, report: video.report, frames: video.frames, ...(poster ? { poster } : {}) };
  }

  /** Raster formats up to encoding: validated, laid out and painted. */
  async rasterize(options: RenderOptions): Promise<{ image: RasterImage; report: FitReport }> {
    validateOptions(options);
    return guard(() =>
      this.withScenes(options, async ([scene]) => {
        const { displayList, report, images, ready } = await this.layoutAt(scene!, stillTimeOf(scene!.scene, options));
        // Formats without alpha are flattened onto white; png, webp and avif keep transparency.
        const matte = ALPHA_FORMATS.has(options.format) ? undefined : JPG_MATTE;
        const image = await rasterBackend.paint(displayList, { images, fonts: this.fonts, cache: this.images, ready }, matte ? { matte } : {});
        return { image, report };
      }),
    );
  }

  async render(options: RenderOptions): Promise<RenderResult> {
    if (options?.format === 'mp4') {
      validateOptions(options);
      return guard(() => this.withScenes(options, (pages) => this.video(options, pages)));
    }
    if (options?.format === 'pdf') {
      validateOptions(options);
      return guard(() =>
        this.withScenes(options, async (scenes) => {
          const pages = await Promise.all(scenes.map((s) => this.layoutAt(s, stillTimeOf(s.scene, options))));
          const bytes = await encodePdf(pages.map((p) => ({ list: p.displayList, images: p.images, ready: p.ready })), this.fonts, this.images);
          const first = pages[0]!.displayList;
          const report = pages.length > 1 ? pages.flatMap((p, page) => p.report.map((r) => ({ ...r, page }))) : pages[0]!.report;
          return { bytes, format: 'pdf' as const, mimeType: MIME.pdf, width: first.width, height: first.height, report };
        }),
      );
    }
    const { image, report } = await this.rasterize(options);
    const format = options.format as ImageFormat;
    const bytes = await guard(() => encoder(image, format, options).toBuffer());
    return { bytes, format, mimeType: MIME[format], width: image.width, height: image.height, report };
  }

  /** Like render, but the bytes stream out (png/jpg as sharp encodes them). Input errors reject before any byte. */
  async renderStream(options: RenderOptions): Promise<RenderStream> {
    if (options?.format === 'pdf' || options?.format === 'mp4') {
      const { bytes, ...rest } = await this.render(options);
      return { ...rest, stream: Readable.from([bytes]) };
    }
    const { image, report } = await this.rasterize(options);
    const format = options.format as ImageFormat;
    return { stream: encoder(image, format, options), format, mimeType: MIME[format], width: image.width, height: image.height, report };
  }
}

/** Lets ImprintErrors through and reports anything else as render_failed, never as a crash. */
async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ImprintError) throw e;
    throw new ImprintError('render_failed', '$', `rendering failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
}

let defaultEngine: Engine | undefined;
function engine(): Engine {
  defaultEngine ??= new Engine();
  return defaultEngine;
}

/** Renders with a process-wide engine (shared font and image caches). */
export function render(options: RenderOptions): Promise<RenderResult> {
  return engine().render(options);
}

export function renderStream(options: RenderOptions): Promise<RenderStream> {
  return engine().renderStream(options);
}
