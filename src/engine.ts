// The public library API: render(design, overrides, format) → png, jpg or pdf bytes or a stream, plus
// a fit report. Runs parse → resolve → load images → layout → paint → encode; each stage its own module.
import { Readable } from 'node:stream';
import { z } from 'zod';
import { ImageCache, loadImages, type LoadedImage } from './assets/load.js';
import { AssetNotFoundError, fileAssetResolver, type AssetResolver } from './assets/resolver.js';
import { parseDesign } from './design/parse.js';
import { issueToError } from './design/zod-error.js';
import { encoder, MIME_TYPES, type ImageFormat, type JpgOptions, type PngOptions } from './encode/image.js';
import { encodePdf } from './encode/pdf.js';
import { ImprintError } from './errors.js';
import type { DisplayList } from './layout/display-list.js';
import { layout, type FitReport } from './layout/layout.js';
import type { RasterImage } from './paint/backend.js';
import { rasterBackend } from './paint/raster.js';
import { resolveScene } from './overrides/resolve.js';
import { bundledFonts, type FontSet } from './text/fonts.js';

export type OutputFormat = ImageFormat | 'pdf';

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
  format: z.enum(['png', 'jpg', 'pdf']),
  png: z.strictObject({ compressionLevel: z.int().min(0).max(9).optional() }).optional(),
  jpg: z.strictObject({ quality: z.int().min(1).max(100).optional() }).optional(),
  assets: z.custom<AssetResolver>((v) => typeof v === 'function', { error: 'expected a function (ref) => Promise<Uint8Array>' }).optional(),
  baseDir: z.string().min(1).optional(),
});

const MIME: Record<OutputFormat, string> = { ...MIME_TYPES, pdf: 'application/pdf' };

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
      const later = got === 'mp4' ? ' (mp4 output is not part of this version)' : '';
      throw new ImprintError('validation_error', '$.format', `expected "png", "jpg" or "pdf" but received ${got === undefined ? 'nothing' : JSON.stringify(got)}${later}`);
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
}

export class Engine {
  readonly fonts: FontSet;
  private readonly images: ImageCache;

  constructor(options: EngineOptions = {}) {
    this.fonts = options.fonts ?? bundledFonts();
    this.images = new ImageCache(options.imageCacheBytes ?? 256 * 1024 * 1024);
  }

  /** parse → resolve → load → layout for one design; `at` roots its error paths. */
  private async layoutPage(design: unknown, overrides: unknown, resolver: AssetResolver, at: { design: string; overrides: string }): Promise<LaidOutPage> {
    const parsed = parseDesign(design, this.fonts, at.design);
    const scene = resolveScene(parsed, overrides ?? {}, this.fonts, at);
    const images = await loadImages(scene, resolver, this.images);
    const sizes = new Map([...images].map(([k, v]) => [k, { width: v.width, height: v.height, opaque: v.opaque }]));
    const { displayList, report } = layout(scene, sizes, this.fonts);
    return { displayList, report, images };
  }

  private pagesOf(options: RenderOptions): Promise<LaidOutPage[]> {
    const resolver = options.assets ?? (options.baseDir !== undefined ? fileAssetResolver({ baseDir: options.baseDir }) : noAssets);
    if (options.pages) {
      return Promise.all(
        options.pages.map((p, i) => this.layoutPage(p.design, p.overrides, p.assets ?? resolver, { design: `$.pages[${i}].design`, overrides: `$.pages[${i}].overrides` })),
      );
    }
    return Promise.all([this.layoutPage(options.design, options.overrides, resolver, { design: '$', overrides: '$.objects_overrides' })]);
  }

  /** Raster formats up to encoding: validated, laid out and painted. */
  async rasterize(options: RenderOptions): Promise<{ image: RasterImage; report: FitReport }> {
    validateOptions(options);
    return guard(async () => {
      const [page] = await this.pagesOf(options);
      const { displayList, report, images } = page!;
      const matte = options.format === 'jpg' ? JPG_MATTE : undefined;
      const image = await rasterBackend.paint(displayList, { images, fonts: this.fonts, cache: this.images }, matte ? { matte } : {});
      return { image, report };
    });
  }

  async render(options: RenderOptions): Promise<RenderResult> {
    if (options?.format === 'pdf') {
      validateOptions(options);
      return guard(async () => {
        const pages = await this.pagesOf(options);
        const bytes = await encodePdf(pages.map((p) => ({ list: p.displayList, images: p.images })), this.fonts, this.images);
        const first = pages[0]!.displayList;
        const report = pages.length > 1 ? pages.flatMap((p, page) => p.report.map((r) => ({ ...r, page }))) : pages[0]!.report;
        return { bytes, format: 'pdf', mimeType: MIME.pdf, width: first.width, height: first.height, report };
      });
    }
    const { image, report } = await this.rasterize(options);
    const format = options.format as ImageFormat;
    const bytes = await guard(() => encoder(image, format, options).toBuffer());
    return { bytes, format, mimeType: MIME[format], width: image.width, height: image.height, report };
  }

  /** Like render, but the bytes stream out (png/jpg as sharp encodes them). Input errors reject before any byte. */
  async renderStream(options: RenderOptions): Promise<RenderStream> {
    if (options?.format === 'pdf') {
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
