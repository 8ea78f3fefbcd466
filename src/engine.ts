// The public library API: render(design, overrides, format) → bytes or a stream, plus a fit report.
// Runs parse → resolve → load images → layout → paint → encode; each stage is its own module.
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ImageCache, loadImages } from './assets/load.js';
import { AssetNotFoundError, fileAssetResolver, type AssetResolver } from './assets/resolver.js';
import { parseDesign } from './design/parse.js';
import { issueToError } from './design/zod-error.js';
import { encoder, MIME_TYPES, type ImageFormat, type JpgOptions, type PngOptions } from './encode/image.js';
import { ImprintError } from './errors.js';
import { layout, type FitReport } from './layout/layout.js';
import type { RasterImage } from './paint/backend.js';
import { rasterBackend } from './paint/raster.js';
import { resolveScene } from './overrides/resolve.js';
import { bundledFonts, type FontSet } from './text/fonts.js';

export interface RenderOptions {
  /** A design document (object) or its JSON text. */
  design: unknown;
  /** Interface A's objects_overrides: object name → fields to replace. */
  overrides?: unknown;
  format: ImageFormat;
  png?: PngOptions;
  jpg?: JpgOptions;
  /** Supplies image bytes for references. Default: files under `baseDir`, if given. */
  assets?: AssetResolver;
  /** Folder for relative image paths when no `assets` resolver is given. */
  baseDir?: string;
}

export interface RenderResult {
  bytes: Buffer;
  format: ImageFormat;
  mimeType: string;
  width: number;
  height: number;
  report: FitReport;
}

export interface RenderStream extends Omit<RenderResult, 'bytes'> {
  stream: Readable;
}

export interface EngineOptions {
  fonts?: FontSet;
  /** Memory for decoded images kept between renders. Default 256 MiB. */
  imageCacheBytes?: number;
}

const Options = z.strictObject({
  design: z.unknown(),
  overrides: z.unknown().optional(),
  format: z.enum(['png', 'jpg']),
  png: z.strictObject({ compressionLevel: z.int().min(0).max(9).optional() }).optional(),
  jpg: z.strictObject({ quality: z.int().min(1).max(100).optional() }).optional(),
  assets: z.custom<AssetResolver>((v) => typeof v === 'function', { error: 'expected a function (ref) => Promise<Uint8Array>' }).optional(),
  baseDir: z.string().min(1).optional(),
});

/** jpg has no alpha channel: transparent areas are painted onto white. */
const JPG_MATTE = [255, 255, 255, 1] as const;

const noAssets: AssetResolver = async () => {
  throw new AssetNotFoundError('this render has no asset resolver: pass `assets` or `baseDir` to render()');
};

function validateOptions(options: RenderOptions): RenderOptions {
  const value = options as unknown;
  if (value === null || typeof value !== 'object') throw new ImprintError('validation_error', '$', 'expected render options { design, overrides, format }');
  const parsed = Options.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    if (first.path[0] === 'format' && first.code === 'invalid_value') {
      const got = (value as { format?: unknown }).format;
      const later = got === 'pdf' || got === 'mp4' ? ` (${String(got)} output is not part of this version)` : '';
      throw new ImprintError('validation_error', '$.format', `expected "png" or "jpg" but received ${got === undefined ? 'nothing' : JSON.stringify(got)}${later}`);
    }
    throw issueToError(first, value, { schema: Options, describe: (p) => (p.length === 0 ? 'the render options' : undefined) });
  }
  return options;
}

export class Engine {
  readonly fonts: FontSet;
  private readonly images: ImageCache;

  constructor(options: EngineOptions = {}) {
    this.fonts = options.fonts ?? bundledFonts();
    this.images = new ImageCache(options.imageCacheBytes ?? 256 * 1024 * 1024);
  }

  /** Everything up to encoding: validated, laid out and painted. */
  async rasterize(options: RenderOptions): Promise<{ image: RasterImage; report: FitReport }> {
    validateOptions(options);
    return guard(async () => {
      const design = parseDesign(options.design, this.fonts);
      const scene = resolveScene(design, options.overrides ?? {}, this.fonts);
      const resolver = options.assets ?? (options.baseDir !== undefined ? fileAssetResolver({ baseDir: options.baseDir }) : noAssets);
      const images = await loadImages(scene, resolver, this.images);
      const sizes = new Map([...images].map(([k, v]) => [k, { width: v.width, height: v.height, opaque: v.opaque }]));
      const { displayList, report } = layout(scene, sizes, this.fonts);
      const matte = options.format === 'jpg' ? JPG_MATTE : undefined;
      const image = await rasterBackend.paint(displayList, { images, fonts: this.fonts, cache: this.images }, matte ? { matte } : {});
      return { image, report };
    });
  }

  async render(options: RenderOptions): Promise<RenderResult> {
    const { image, report } = await this.rasterize(options);
    const bytes = await guard(() => encoder(image, options.format, options).toBuffer());
    return { bytes, format: options.format, mimeType: MIME_TYPES[options.format], width: image.width, height: image.height, report };
  }

  /** Like render, but the encoded bytes stream out as sharp produces them. Input errors reject before any byte. */
  async renderStream(options: RenderOptions): Promise<RenderStream> {
    const { image, report } = await this.rasterize(options);
    return { stream: encoder(image, options.format, options), format: options.format, mimeType: MIME_TYPES[options.format], width: image.width, height: image.height, report };
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
