// encode: raster pixels → png, jpg, webp or avif bytes through sharp. Same pixels and options, same bytes.
import type { Sharp } from 'sharp';
import type SharpModule from 'sharp';
import { z } from 'zod';
import { lazyRequire } from '../lazy-require.js';
import type { ImageFormat } from '../output-formats.js';
import type { RasterImage } from '../paint/backend.js';

const sharpModule = lazyRequire<typeof SharpModule>('sharp');
const sharp = (...args: Parameters<typeof SharpModule>): Sharp => sharpModule()(...args);

// The encoder options are zod schemas: the render options schema (src/render/options.ts) embeds them and
// their TypeScript types are inferred, so the option, its check and its documentation are one source.
export const PngOptionsSchema = z.strictObject({
  /**
   * zlib level 0-9; see docs/rendering.md for the measured size/speed trade.
   * @default 3
   */
  compressionLevel: z.int().min(0).max(9).optional(),
});
export type PngOptions = z.input<typeof PngOptionsSchema>;

export const JpgOptionsSchema = z.strictObject({
  /**
   * 1-100.
   * @default 90
   */
  quality: z.int().min(1).max(100).optional(),
});
export type JpgOptions = z.input<typeof JpgOptionsSchema>;

export const WebpOptionsSchema = z.strictObject({
  /**
   * 1-100 (ignored when `lossless`).
   * @default 80
   */
  quality: z.int().min(1).max(100).optional(),
  /**
   * Exact pixels, like png, usually smaller.
   * @default false
   */
  lossless: z.boolean().optional(),
});
export type WebpOptions = z.input<typeof WebpOptionsSchema>;

export const AvifOptionsSchema = z.strictObject({
  /**
   * 1-100, on AVIF's scale: 50 looks about like jpg 80-85 at half the size.
   * @default 50
   */
  quality: z.int().min(1).max(100).optional(),
});
export type AvifOptions = z.input<typeof AvifOptionsSchema>;

export const ENCODE_DEFAULTS = { png: { compressionLevel: 3 }, jpg: { quality: 90 }, webp: { quality: 80, lossless: false }, avif: { quality: 50 } } as const;

/** Formats whose encoder takes a quality 1-100 (`jpg.quality`, `webp.quality`, `avif.quality`). */
export const QUALITY_FORMATS: readonly ImageFormat[] = ['jpg', 'webp', 'avif'];

/** Formats with an alpha channel: a design without a background stays transparent in them. */
export const ALPHA_FORMATS: ReadonlySet<string> = new Set<ImageFormat>(['png', 'webp', 'avif']);

export interface EncodeOptions {
  png?: PngOptions;
  jpg?: JpgOptions;
  webp?: WebpOptions;
  avif?: AvifOptions;
}

function source(image: RasterImage): Sharp {
  const { width, height, pixels, opaque } = image;
  // Opaque pixels are the same premultiplied or not: skip un-premultiplying and drop the alpha channel
  // (a third less data to filter and compress, and RGB out).
  if (opaque) return sharp(pixels, { raw: { width, height, channels: 4 } }).removeAlpha();
  return sharp(pixels, { raw: { width, height, channels: 4, premultiplied: true } });
}

/** A sharp pipeline producing the encoded image; call toBuffer() or pipe it. */
export function encoder(image: RasterImage, format: ImageFormat, options: EncodeOptions = {}): Sharp {
  const out = encoderOf(image, format, options);
  // A print design's dpi as png pHYs / jpg JFIF density, as Polotno's export writes it: not for 72,
  // the density every reader assumes without one (so a Polotno card's bytes stay as they were).
  return image.dpi !== undefined && image.dpi !== 72 && (format === 'png' || format === 'jpg') ? out.withDensity(image.dpi) : out;
}

function encoderOf(image: RasterImage, format: ImageFormat, options: EncodeOptions): Sharp {
  switch (format) {
    case 'png':
      return source(image).png({ compressionLevel: options.png?.compressionLevel ?? ENCODE_DEFAULTS.png.compressionLevel, adaptiveFiltering: false });
    case 'webp': {
      const lossless = options.webp?.lossless ?? ENCODE_DEFAULTS.webp.lossless;
      // alphaQuality 100 keeps transparent edges exact; effort 4 is libwebp's own default.
      return source(image).webp({ quality: options.webp?.quality ?? ENCODE_DEFAULTS.webp.quality, lossless, alphaQuality: 100, effort: 4 });
    }
    case 'avif':
      // effort 2, measured on the promo example at 1080²: 1.1 s and 43 KB, against 8 s and 38 KB at sharp's
      // default 4 (0: 0.5 s, 52 KB). A render service pays for every second; 12 % of size is cheaper.
      return source(image).avif({ quality: options.avif?.quality ?? ENCODE_DEFAULTS.avif.quality, effort: 2, chromaSubsampling: '4:2:0' });
    case 'jpg': {
      // jpg has no alpha: transparent areas become white, as in most viewers. The engine paints jpg
      // onto a white matte already; flatten covers callers that hand in transparent pixels.
      const src = source(image);
      return (image.opaque ? src : src.flatten({ background: '#ffffff' })).jpeg({
        quality: options.jpg?.quality ?? ENCODE_DEFAULTS.jpg.quality,
        chromaSubsampling: '4:2:0',
      });
    }
  }
}

export function encodeImage(image: RasterImage, format: ImageFormat, options: EncodeOptions = {}): Promise<Buffer> {
  return encoder(image, format, options).toBuffer();
}
