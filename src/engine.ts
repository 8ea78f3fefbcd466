// The public library API, a thin façade: render(options) → png, jpg, webp, avif, pdf or mp4 bytes or a
// stream, plus a fit report. It checks the options once and hands them to one render path (src/render/):
// stills here, pdf and mp4 imported on first use so that a png render never loads pdfkit or ffmpeg code.
import { Readable } from 'node:stream';
import { ImageCache } from './assets/load.js';
import { encoder } from './encode/image.js';
import { ImprintError } from './errors.js';
import type { FitReport } from './layout/layout.js';
import { MIME_TYPES, type ImageFormat } from './output-formats.js';
import type { RasterImage } from './paint/backend.js';
import { engineSettings, validateOptions, type EngineOptions, type RenderOptions } from './render/options.js';
import { RenderPool } from './render/pool.js';
import type { RenderResult, RenderStream } from './render/result.js';
import type { EngineContext } from './render/scenes.js';
import { rasterizeStill } from './render/still.js';
import { renderOnThread } from './render/threaded.js';
import { bundledFonts, FONTS_DIR, FontSet } from './text/fonts.js';
import { InstalledFonts } from './text/installed.js';

export { MAX_PAGES, type DesignInput, type EngineOptions, type PageInput, type RenderOptions } from './render/options.js';
export type { RenderResult, RenderStream } from './render/result.js';
export type { OutputFormat } from './output-formats.js';
export { MAX_VIDEO_SECONDS, MAX_SLIDE_VIDEO_SECONDS } from './render-checks.js';

/** A raster still painted and not yet encoded: the encoder makes its bytes or its stream. */
interface Painted {
  image: RasterImage;
  report: FitReport;
  format: ImageFormat;
}

// An engine dropped without close() must not leave its threads behind (a host that makes an engine
// per request would collect them): when it is garbage-collected, its pool is closed.
const orphanedPools = new FinalizationRegistry<RenderPool>((pool) => void pool.close());

export class Engine {
  readonly fonts: FontSet;
  /** Render threads (0: renders run on the caller's thread). */
  readonly threads: number;
  private readonly context: EngineContext;
  private readonly imageCacheBytes: number;
  private pool: RenderPool | undefined;

  constructor(options: EngineOptions = {}) {
    const { fonts, fontsDir, threads, imageCacheBytes } = engineSettings(options);
    this.fonts = fonts ?? (fontsDir === undefined ? bundledFonts() : new FontSet(FONTS_DIR, [], { installed: new InstalledFonts(fontsDir) }));
    this.threads = threads;
    this.imageCacheBytes = imageCacheBytes;
    // With threads the caller's thread only rasterizes on request; the threads hold the image caches.
    this.context = { fonts: this.fonts, images: new ImageCache(threads > 0 ? this.imageCacheBytes / threads : this.imageCacheBytes) };
  }

  private threadPool(): RenderPool {
    this.pool ??= new RenderPool({
      size: this.threads,
      lazy: true,
      // A thread paints one render while sharp encodes the one before (bench/threads.mjs).
      rendersPerThread: 2,
      imageCacheBytes: Math.floor(this.imageCacheBytes / this.threads),
      ...(this.fonts === bundledFonts() ? {} : { fontsDir: this.fonts.dir, ...(this.fonts.installed ? { installedDir: this.fonts.installed.dir } : {}) }),
    });
    orphanedPools.register(this, this.pool, this);
    return this.pool;
  }

  /** Stops the render threads (renders running or waiting reject with render_cancelled); the engine can render again after. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    orphanedPools.unregister(this);
    await pool?.close();
  }

  /** Raster formats up to encoding: validated, laid out and painted. */
  async rasterize(options: RenderOptions): Promise<{ image: RasterImage; report: FitReport }> {
    validateOptions(options);
    return guard(() => rasterizeStill(this.context, options));
  }

  async render(options: RenderOptions): Promise<RenderResult> {
    const out = await this.dispatch(options);
    if (!('image' in out)) return out;
    const { image, report, format } = out;
    const bytes = await guard(() => encoder(image, format, options).toBuffer());
    return { bytes, format, mimeType: MIME_TYPES[format], width: image.width, height: image.height, report };
  }

  /** Like render, but the bytes stream out (png/jpg as sharp encodes them). Input errors reject before any byte. */
  async renderStream(options: RenderOptions): Promise<RenderStream> {
    const out = await this.dispatch(options);
    if (!('image' in out)) {
      const { bytes, ...rest } = out;
      return { ...rest, stream: Readable.from([bytes]) };
    }
    const { image, report, format } = out;
    return { stream: encoder(image, format, options), format, mimeType: MIME_TYPES[format], width: image.width, height: image.height, report };
  }

  /**
   * The one format dispatch of render and renderStream, after the one check of the options (bad
   * options reject at once, with threads or without): a render thread, the mp4 or pdf path, which
   * give finished bytes, or a raster still painted here and left for the caller to encode.
   */
  private async dispatch(options: RenderOptions): Promise<RenderResult | Painted> {
    validateOptions(options);
    if (this.threads > 0) return guard(() => renderOnThread(this.threadPool(), options));
    const format = options.format;
    if (format === 'mp4') return guard(async () => (await import('./render/video.js')).renderMp4(this.context, options));
    if (format === 'pdf') return guard(async () => (await import('./render/pdf.js')).renderPdf(this.context, options));
    const { image, report } = await guard(() => rasterizeStill(this.context, options));
    return { image, report, format };
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

/** Like `render`, with the bytes as a stream; errors in the input reject before any byte. */
export function renderStream(options: RenderOptions): Promise<RenderStream> {
  return engine().renderStream(options);
}
