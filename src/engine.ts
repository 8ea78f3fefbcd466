// The public library API: render(design, overrides, format) → png, jpg or pdf bytes or a stream, plus
// a fit report. Runs parse → resolve → load images → layout → paint → encode; each stage its own module.
import { Readable } from 'node:stream';
import { z } from 'zod';
import { clipSeconds, decodeClipFrame, loadClips, sceneVideos, type Clips } from './assets/clips.js';
import { ImageCache, loadImages, type DecodedImage, type LoadedImage } from './assets/load.js';
import { AssetNotFoundError, fileAssetResolver, type AssetResolver } from './assets/resolver.js';
import { parseDesign } from './design/parse.js';
import { issueToError } from './design/zod-error.js';
import { encoder, MIME_TYPES, type ImageFormat, type JpgOptions, type PngOptions } from './encode/image.js';
import { encodePdf } from './encode/pdf.js';
import type { VideoProgress } from './encode/video.js';
import { sampleScene } from './layout/timeline.js';
import type { Scene } from './design/types.js';
import { renderVideo, sizesOf } from './video.js';
import { prepareAudio } from './encode/audio.js';
import { Watermark, withWatermark, type WatermarkOptions } from './overrides/watermark.js';
import { clipFrameKey, imageRefKey, parseImageRef } from './design/image-ref.js';
import { ImprintError } from './errors.js';
import type { DisplayList } from './layout/display-list.js';
import { layout, type FitReport } from './layout/layout.js';
import type { RasterImage } from './paint/backend.js';
import { rasterBackend } from './paint/raster.js';
import { resolveScene } from './overrides/resolve.js';
import { bundledFonts, type FontSet } from './text/fonts.js';

export type OutputFormat = ImageFormat | 'pdf' | 'mp4';

export interface PageInput {
  design: unknown;
  overrides?: unknown;
  /** This page's images, when they resolve differently from the request's `assets` (e.g. another folder). */
  assets?: AssetResolver;
}

export interface RenderOptions {
  /** A design document (object) or its JSON text. Give this or `pages`. */
  design?: unknown;
  /** Interface A's objects_overrides: object name → fields to replace. */
  overrides?: unknown;
  /** pdf only: several designs, each with its overrides, as the pages of one document. */
  pages?: PageInput[];
  format: OutputFormat;
  png?: PngOptions;
  jpg?: JpgOptions;
  /** Supplies image bytes for references. Default: files under `baseDir`, if given. */
  assets?: AssetResolver;
  /** Folder for relative image paths when no `assets` resolver is given. */
  baseDir?: string;
  /** png/jpg/pdf of an animated design: the second to show. Default 0. */
  time?: number;
  /** mp4: frames per second, 30 (default) or 60. */
  fps?: 30 | 60;
  /** mp4: output size: the design's (default), or interface B's sd (short side 720) or hd (1080). */
  size?: 'design' | 'sd' | 'hd';
  /** mp4: longest allowed duration in seconds. Default 15 (interface A's limit); 300 for slide videos. */
  maxDuration?: number;
  /** mp4: also return a jpg poster of the frame at this time (interface B's screenshot). */
  poster?: { time: number };
  /** A logo on top of every frame or page (interface B's demo mode): `{ image, position?, opacity?, width? }`. */
  watermark?: WatermarkOptions;
  /** mp4: called as frames are encoded. */
  onProgress?: (progress: VideoProgress) => void;
  /** Stops the render: ffmpeg is killed, temporary files removed, the promise rejects with render_cancelled. */
  signal?: AbortSignal;
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

const Options = z.strictObject({
  design: z.unknown().optional(),
  overrides: z.unknown().optional(),
  pages: z
    .array(
      z.strictObject({
        design: z.unknown(),
        overrides: z.unknown().optional(),
        assets: z.custom<AssetResolver>((v) => typeof v === 'function', { error: 'expected a function (ref) => Promise<Uint8Array>' }).optional(),
      }),
    )
    .min(1)
    .max(MAX_PAGES)
    .optional(),
  format: z.enum(['png', 'jpg', 'pdf', 'mp4']),
  time: z.number().finite().min(0).max(3600).optional(),
  fps: z.union([z.literal(30), z.literal(60)], { error: 'expected fps 30 or 60' }).optional(),
  size: z.enum(['design', 'sd', 'hd']).optional(),
  maxDuration: z.number().finite().gt(0).max(3600).optional(),
  poster: z.strictObject({ time: z.number().finite().min(0).max(3600) }).optional(),
  onProgress: z.custom<(p: VideoProgress) => void>((v) => typeof v === 'function', { error: 'expected a function (progress) => void' }).optional(),
  signal: z.custom<AbortSignal>((v) => v instanceof AbortSignal, { error: 'expected an AbortSignal' }).optional(),
  watermark: Watermark.optional(),
  png: z.strictObject({ compressionLevel: z.int().min(0).max(9).optional() }).optional(),
  jpg: z.strictObject({ quality: z.int().min(1).max(100).optional() }).optional(),
  assets: z.custom<AssetResolver>((v) => typeof v === 'function', { error: 'expected a function (ref) => Promise<Uint8Array>' }).optional(),
  baseDir: z.string().min(1).optional(),
});

const MIME: Record<OutputFormat, string> = { ...MIME_TYPES, pdf: 'application/pdf', mp4: 'video/mp4' };

/** Interface A's longest video. */
export const MAX_VIDEO_SECONDS = 15;
/** Longest slide video (interface B) unless `maxDuration` says otherwise. */
export const MAX_SLIDE_VIDEO_SECONDS = 300;

/** jpg has no alpha channel: transparent areas are painted onto white. */
const JPG_MATTE = [255, 255, 255, 1] as const;

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
      throw new ImprintError('validation_error', '$.format', `expected "png", "jpg", "pdf" or "mp4" but received ${got === undefined ? 'nothing' : JSON.stringify(got)}`);
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
  private async scenePage(design: unknown, overrides: unknown, resolver: AssetResolver, at: { design: string; overrides: string }, watermark?: WatermarkOptions): Promise<ScenePage> {
    const parsed = parseDesign(design, this.fonts, at.design);
    let scene = resolveScene(parsed, overrides ?? {}, this.fonts, at);
    if (watermark) {
      // The logo's size decides its box, so it is loaded first.
      const ref = { ...parseImageRef(watermark.image, '$.watermark.image'), at: '$.watermark.image' };
      const probe: Scene = { ...scene, background: { kind: 'image', image: ref }, objects: [] };
      const logo = (await loadImages(probe, resolver, this.images)).get(imageRefKey(ref))!;
      scene = withWatermark(scene, watermark, logo, '$.watermark');
    }
    const images = await loadImages(scene, resolver, this.images);
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
        options.pages.map((p, i) => this.scenePage(p.design, p.overrides, p.assets ?? resolver, { design: `$.pages[${i}].design`, overrides: `$.pages[${i}].overrides` }, options.watermark)),
      );
    }
    return Promise.all([this.scenePage(options.design, options.overrides, resolver, { design: '$', overrides: '$.objects_overrides' }, options.watermark)]);
  }

  private async video(options: RenderOptions, [page]: ScenePage[]): Promise<RenderResult> {
    const { scene, images, clips } = page!;
    const max = options.maxDuration ?? (scene.slides ? MAX_SLIDE_VIDEO_SECONDS : MAX_VIDEO_SECONDS);
    if (scene.duration === null) throw new ImprintError('validation_error', '$.duration', 'an mp4 needs the design\'s length: add "duration" in seconds');
    if (scene.duration > max) throw new ImprintError('validation_error', '$.duration', `the video lasts ${scene.duration} s: at most ${max} s are allowed`);
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
      const still = await this.layoutAt(page!, Math.min(options.poster.time, scene.duration));
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
        const { displayList, report, images, ready } = await this.layoutAt(scene!, options.time ?? 0);
        const matte = options.format === 'jpg' ? JPG_MATTE : undefined;
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
          const pages = await Promise.all(scenes.map((s) => this.layoutAt(s, options.time ?? 0)));
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
