// The public library API, a thin façade: render(options) → png, jpg, webp, avif, pdf or mp4 bytes or a
// stream, plus a fit report. It checks the options once and hands them to one render path (src/render/):
// stills here, pdf and mp4 imported on first use so that a png render never loads pdfkit or ffmpeg code.
import { setMaxListeners } from 'node:events';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { ImageCache } from './assets/load.js';
import { encoder } from './encode/image.js';
import { ImprintError } from './errors.js';
import type { FitReport } from './layout/layout.js';
import { MIME_TYPES, type ImageFormat } from './output-formats.js';
import type { RasterImage } from './paint/backend.js';
import { engineSettings, validateOptions, type EngineOptions, type RenderOptions } from './render/options.js';
import { RenderFailure, type RenderPool } from './render/pool.js';
import { leasePool, type PoolLease } from './render/shared-pools.js';
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

// An engine dropped without close() gives its hold on the shared render threads back when it is
// garbage-collected (src/render/shared-pools.ts ends threads no engine holds once they are idle).
const droppedEngines = new FinalizationRegistry<PoolLease>((lease) => lease.release());

/** An engine's close signal: every render in flight listens to it, so it takes any number of listeners. */
function closingController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** What an engine's renders on the shared threads end with when it is closed. */
const closedEngine = () => new RenderFailure('cancelled', 'the render was cancelled: its engine was closed', 'render_cancelled');

// Caches an engine keeps on the caller's thread, shared by the engines that ask for the same: a host
// that makes an engine per request decodes each font and image once per process, not per engine.
const imageCaches = new Map<number, ImageCache>();
const fontSets = new Map<string, FontSet>();
const imageCacheOf = (bytes: number): ImageCache => imageCaches.get(bytes) ?? imageCaches.set(bytes, new ImageCache(bytes)).get(bytes)!;
function installedFontSet(fontsDir: string): FontSet {
  const dir = resolve(fontsDir);
  let set = fontSets.get(dir);
  if (!set) fontSets.set(dir, (set = new FontSet(FONTS_DIR, [], { installed: new InstalledFonts(dir) })));
  return set;
}

export class Engine {
  readonly fonts: FontSet;
  /** Render threads (0: renders run on the caller's thread). */
  readonly threads: number;
  private readonly context: EngineContext;
  private readonly imageCacheBytes: number;
  /** The engine's hold on the process's render threads, taken on its first threaded render. */
  private lease: PoolLease | undefined;
  /** Aborted by close(): every render this engine has on the shared threads. */
  private closing = closingController();

  constructor(options: EngineOptions = {}) {
    const { fonts, fontsDir, threads, imageCacheBytes } = engineSettings(options);
    this.fonts = fonts ?? (fontsDir === undefined ? bundledFonts() : installedFontSet(fontsDir));
    this.threads = threads;
    this.imageCacheBytes = imageCacheBytes;
    // With threads the caller's thread only rasterizes on request; the threads hold the image caches.
    this.context = { fonts: this.fonts, images: imageCacheOf(threads > 0 ? this.imageCacheBytes / threads : this.imageCacheBytes) };
  }

  private threadPool(): RenderPool {
    if (!this.lease) {
      this.lease = leasePool({
        size: this.threads,
        // A thread paints one render while sharp encodes the one before (bench/threads.mjs).
        rendersPerThread: 2,
        imageCacheBytes: Math.floor(this.imageCacheBytes / this.threads),
        ...(this.fonts === bundledFonts() ? {} : { fontsDir: this.fonts.dir, ...(this.fonts.installed ? { installedDir: this.fonts.installed.dir } : {}) }),
      });
      droppedEngines.register(this, this.lease, this);
    }
    return this.lease.pool;
  }

  /**
   * Cancels this engine's renders on the render threads (running or waiting: they reject with
   * render_cancelled) and lets the threads go. The threads are the process's, shared by the engines
   * made with the same settings; they end once no engine holds them and they have been idle for 10 s.
   * The engine can render again after.
   */
  async close(): Promise<void> {
    const lease = this.lease;
    this.lease = undefined;
    droppedEngines.unregister(this);
    this.closing.abort(closedEngine());
    this.closing = closingController();
    lease?.release();
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
    if (this.threads > 0) {
      const pool = this.threadPool();
      return guard(() => eitherSignal(options.signal, this.closing.signal, (signal) => renderOnThread(pool, { ...options, signal })));
    }
    const format = options.format;
    if (format === 'mp4') return guard(async () => (await import('./render/video.js')).renderMp4(this.context, options));
    if (format === 'pdf') return guard(async () => (await import('./render/pdf.js')).renderPdf(this.context, options));
    const { image, report } = await guard(() => rasterizeStill(this.context, options));
    return { image, report, format };
  }
}

/**
 * Runs `work` with a signal that aborts, with its reason, when either `a` (the caller's) or `b` (the
 * engine's close) does; its listeners go when the work ends. (AbortSignal.any would keep a reference
 * in the engine's long-lived signal for every render on Node 20.)
 */
async function eitherSignal<T>(a: AbortSignal | undefined, b: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (!a) return work(b);
  const both = new AbortController();
  const fromA = () => both.abort(a.reason);
  const fromB = () => both.abort(b.reason);
  if (a.aborted) fromA();
  else if (b.aborted) fromB();
  a.addEventListener('abort', fromA, { once: true });
  b.addEventListener('abort', fromB, { once: true });
  try {
    return await work(both.signal);
  } finally {
    a.removeEventListener('abort', fromA);
    b.removeEventListener('abort', fromB);
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
