// encode: raster pixels → png or jpg bytes through sharp. Same pixels and options, same bytes.
import sharp, { type Sharp } from 'sharp';
import type { RasterImage } from '../paint/backend.js';

export interface PngOptions {
  /** zlib level 0-9. Default 6; see docs/rendering.md for the measured size/speed trade. */
  compressionLevel?: number;
}

export interface JpgOptions {
  /** 1-100. Default 90. */
  quality?: number;
}

export const ENCODE_DEFAULTS = { png: { compressionLevel: 6 }, jpg: { quality: 90 } } as const;

export type ImageFormat = 'png' | 'jpg';

function source(image: RasterImage): Sharp {
  const { width, height, pixels, opaque } = image;
  // Opaque pixels are the same premultiplied or not: skip un-premultiplying and drop the alpha channel
  // (a third less data to filter and compress, and RGB png/jpg out).
  if (opaque) return sharp(pixels, { raw: { width, height, channels: 4 } }).removeAlpha();
  return sharp(pixels, { raw: { width, height, channels: 4, premultiplied: true } });
}

/** A sharp pipeline producing the encoded image; call toBuffer() or pipe it. */
export function encoder(image: RasterImage, format: ImageFormat, options: { png?: PngOptions; jpg?: JpgOptions } = {}): Sharp {
  if (format === 'png') {
    return source(image).png({ compressionLevel: options.png?.compressionLevel ?? ENCODE_DEFAULTS.png.compressionLevel, adaptiveFiltering: false });
  }
  // jpg has no alpha: transparent areas become white, as in most viewers. The engine paints jpg
  // onto a white matte already; flatten covers callers that hand in transparent pixels.
  const src = source(image);
  return (image.opaque ? src : src.flatten({ background: '#ffffff' }))
    .jpeg({ quality: options.jpg?.quality ?? ENCODE_DEFAULTS.jpg.quality, chromaSubsampling: '4:2:0' });
}

export function encodeImage(image: RasterImage, format: ImageFormat, options: { png?: PngOptions; jpg?: JpgOptions } = {}): Promise<Buffer> {
  return encoder(image, format, options).toBuffer();
}

export const MIME_TYPES: Record<ImageFormat, string> = { png: 'image/png', jpg: 'image/jpeg' };
