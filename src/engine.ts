// The public library API, a thin façade: render(options) → png, jpg, webp, avif, pdf or mp4 bytes or a
// stream, plus a fit report. It validates the options and hands them to one render path (src/render/):
// stills here, pdf and mp4 imported on first use so that a png render never loads pdfkit or ffmpeg code.
import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { ImageCache } from './assets/load.js';
import { encoder } from './encode/image.js';
import { ImprintError } from './errors.js';
import type { FitReport } from './layout/layout.js';
import type { RasterImage } from './paint/backend.js';
import { MAX_THREADS, MIME, validateOptions, type EngineOptions, type RenderOptions } from './render/options.js';
import { RenderPool } from './render/pool.js';
import type { RenderResult, RenderStream } from './render/result.js';
import type { EngineContext } from './render/scenes.js';
import { rasterizeStill } from './render/still.js';
import { renderOnThread } from './render/threaded.js';
import { bundledFonts, FONTS_DIR, FontSet } from './text/fonts.js';
import { InstalledFonts } from './text/installed.js';

export { MAX_PAGES, type DesignInput, type EngineOptions, type PageInput, type RenderOptions } from './render/options.js';
export type { RenderResult, RenderStream } from './render/result.js';
export type { OutputFormat } from './render-checks.js';
export { MAX_VIDEO_SECONDS, MAX_SLIDE_VIDEO_SECONDS } from './render-checks.js';

const DEFAULT_IMAGE_CACHE_BYTES = 256 * 1024 * 1024;

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
    const threads = options.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 0 || threads > MAX_THREADS) {
      throw new ImprintError(
        'validation_error',
        '$.threads',
        `Expected an integer between 0 and ${MAX_THREADS} for threads but received ${shown(options.threads)}`,
      );
    }
    if (options.fontsDir !== undefined && (typeof options.fontsDir !== 'string' || options.fontsDir === '')) {
      throw new ImprintError('validation_error', '$.fontsDir', `Expected a folder path for fontsDir but received ${shown(options.fontsDir)}`);
    }
    if (options.fonts && options.fontsDir !== undefined) {
      throw new ImprintError('validation_error', '$.fontsDir', 'give either fonts (a FontSet, which names its own font folder) or fontsDir, not both');
    }
    this.fonts =
      options.fonts ?? (options.fontsDir === undefined ? bundledFonts() : new FontSet(FONTS_DIR, [], { installed: new InstalledFonts(options.fontsDir) }));
    this.threads = threads;
    this.imageCacheBytes = options.imageCacheBytes ?? DEFAULT_IMAGE_CACHE_BYTES;
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
    if (this.threads > 0) {
      // Validated here too, so bad options reject at once, as without threads.
      validateOptions(options);
      return guard(() => renderOnThread(this.threadPool(), options));
    }
    if (options?.format === 'mp4') {
      validateOptions(options);
      return guard(async () => (await import('./render/video.js')).renderMp4(this.context, options));
    }
    if (options?.format === 'pdf') {
      validateOptions(options);
      return guard(async () => (await import('./render/pdf.js')).renderPdf(this.context, options));
    }
    const { image, report } = await this.rasterize(options);
    const format = options.format;
    const bytes = await guard(() => encoder(image, format, options).toBuffer());
    return { bytes, format, mimeType: MIME[format], width: image.width, height: image.height, report };
  }

  /** Like render, but the bytes stream out (png/jpg as sharp encodes them). Input errors reject before any byte. */
  async renderStream(options: RenderOptions): Promise<RenderStream> {
    if (this.threads > 0 || options?.format === 'pdf' || options?.format === 'mp4') {
      const { bytes, ...rest } = await this.render(options);
      return { ...rest, stream: Readable.from([bytes]) };
    }
    const { image, report } = await this.rasterize(options);
    const format = options.format;
    return { stream: encoder(image, format, options), format, mimeType: MIME[format], width: image.width, height: image.height, report };
  }
}

/** A received option value as sharp's messages show it: numbers as they are, anything else with its type. */
const shown = (v: unknown): string => (typeof v === 'number' ? String(v) : `${JSON.stringify(v) ?? String(v)} of type ${typeof v}`);

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
