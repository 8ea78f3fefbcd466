// Loads every image a scene references (the engine's only I/O before painting): bytes from the
// injected resolver, then only the header (size, orientation, alpha). Pixels are decoded later, by
// the backend, at the size they are painted at: a 1170×2532 screenshot shown 400 px wide is never
// decoded at full size, and a jpg decodes straight to its reduced size.
import { createHash } from 'node:crypto';
import type { Metadata } from 'sharp';
import type Sharp from 'sharp';
import { lazyRequire } from '../lazy-require.js';

const sharpModule = lazyRequire<typeof Sharp>('sharp');
const sharp = (...args: Parameters<typeof Sharp>): ReturnType<typeof Sharp> => sharpModule()(...args);
import { sceneAssets } from '../objects/registry.js';
import { imageRefKey } from '../scene/keys.js';
import type { Scene, SceneImageRef } from '../scene/scene.js';
import { ImprintError, validationError } from '../errors.js';
import { AssetNotFoundError, type AssetResolver } from './resolver.js';

/**
 * The one image limit of the whole system: uploads, design imports and renders all refuse what is
 * over it, with the messages below, so nothing is accepted that no render can use. 40 megapixels
 * because a render decodes its images (in sharp's memory, outside the thread's heap limit) and the
 * memory of a render is bounded.
 */
export const IMAGE_LIMITS = {
  maxBytes: 50 * 1024 * 1024,
  maxPixels: 40_000_000,
} as const;

/**
 * Why an image `subject` (`"photo.jpg"`, `the image`) of this size cannot be used, or undefined.
 * The size suggested keeps the aspect ratio, so the user can scale to it in one step.
 */
export function imagePixelsProblem(subject: string, width: number, height: number): string | undefined {
  if (width * height <= IMAGE_LIMITS.maxPixels) return undefined;
  const scale = Math.sqrt(IMAGE_LIMITS.maxPixels / (width * height));
  const [w, h] = [Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale))];
  return `${subject} is ${width}×${height}: images may have at most ${IMAGE_LIMITS.maxPixels / 1e6} megapixels: scale it down to ${w}×${h} or smaller`;
}

/** Why an image file `subject` of this many bytes cannot be used, or undefined. */
export function imageBytesProblem(subject: string, bytes: number): string | undefined {
  if (bytes <= IMAGE_LIMITS.maxBytes) return undefined;
  return `${subject} is ${(bytes / 1048576).toFixed(1)} MB: images may be at most ${IMAGE_LIMITS.maxBytes / 1048576} MB`;
}

export interface ImageHeader {
  meta: Metadata;
  /** After EXIF orientation. */
  width: number;
  height: number;
}

/**
 * Width and height from the header only (nothing decoded), after EXIF orientation; throws sharp's
 * error when there is no readable header. No pixel limit here: sharp's own (268 MP) would otherwise
 * hide the size that `imagePixelsProblem` reports.
 */
export async function imageHeader(bytes: Uint8Array): Promise<ImageHeader> {
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  const { width = 0, height = 0, orientation = 1 } = meta;
  const turned = orientation >= 5;
  return { meta, width: turned ? height : width, height: turned ? width : height };
}

const SUPPORTED = 'use a jpg, png, webp, gif, tiff or avif file';

/** An encoded image whose header has been read. Width and height are after EXIF orientation. */
export interface SourceImage {
  kind: 'source';
  hash: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  /** EXIF orientation other than "as stored": the pixels must be turned before use. */
  oriented: boolean;
  /** No alpha channel, so every pixel is opaque. */
  opaque: boolean;
}

/** A source image as one render uses it: `at` is the JSON path that referenced it, for errors. */
export type LoadedImage = SourceImage & { at: string; ref: string };

/** Straight (not premultiplied) RGBA pixels. */
export interface DecodedImage {
  kind: 'pixels';
  width: number;
  height: number;
  rgba: Buffer;
  hash: string;
  opaque: boolean;
}

/** The raster images a scene draws: its background's, then what each object lists (objects/registry.ts). */
export function sceneImageRefs(scene: Scene): SceneImageRef[] {
  return [...(scene.background.kind === 'image' ? [scene.background.image] : []), ...sceneAssets(scene.objects).images];
}

type Cached = SourceImage | DecodedImage;
const sizeOf = (v: Cached): number => (v.kind === 'source' ? v.bytes.byteLength : v.rgba.length);

/** Least-recently-used cache of source images and the pixels derived from them, bounded in bytes. */
export class ImageCache {
  private readonly entries = new Map<string, Cached>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  private take(key: string): Cached | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert to keep the map in least-recently-used order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  source(hash: string): SourceImage | undefined {
    const hit = this.take(`source:${hash}`);
    return hit?.kind === 'source' ? hit : undefined;
  }

  pixels(key: string): DecodedImage | undefined {
    const hit = this.take(key);
    return hit?.kind === 'pixels' ? hit : undefined;
  }

  set(image: Cached): void {
    const key = image.kind === 'source' ? `source:${image.hash}` : image.hash;
    const size = sizeOf(image);
    if (size > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, image);
    this.bytes += size;
    for (const [k, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= sizeOf(old);
    }
  }
}

async function fetchBytes(ref: SceneImageRef, resolver: AssetResolver): Promise<Uint8Array> {
  try {
    return await resolver(ref);
  } catch (e) {
    if (e instanceof ImprintError) throw e;
    if (e instanceof AssetNotFoundError) throw validationError(ref.at, e.message);
    throw new ImprintError('render_failed', ref.at, `could not read image "${imageRefKey(ref)}": ${(e as Error).message}`, { cause: e });
  }
}

async function inspect(bytes: Uint8Array, hash: string, ref: SceneImageRef): Promise<SourceImage> {
  let header: ImageHeader;
  try {
    header = await imageHeader(bytes);
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    throw validationError(ref.at, `"${imageRefKey(ref)}" is not a readable image (${reason}): ${SUPPORTED}`);
  }
  const { meta, width, height } = header;
  if (!(width > 0 && height > 0)) throw validationError(ref.at, `"${imageRefKey(ref)}" has no size: ${SUPPORTED}`);
  const tooBig = imagePixelsProblem(`"${imageRefKey(ref)}"`, width, height);
  if (tooBig) throw validationError(ref.at, tooBig);
  return { kind: 'source', hash, bytes, width, height, oriented: (meta.orientation ?? 1) !== 1, opaque: !meta.hasAlpha };
}

/** Resolves and inspects each distinct reference once. Keys are `imageRefKey`s. */
export async function loadImages(scene: Scene, resolver: AssetResolver, cache: ImageCache): Promise<Map<string, LoadedImage>> {
  const out = new Map<string, LoadedImage>();
  for (const ref of sceneImageRefs(scene)) {
    const key = imageRefKey(ref);
    if (!out.has(key)) out.set(key, await loadImage(ref, resolver, cache));
  }
  return out;
}

/** Resolves and inspects one reference (its header only; pixels are decoded when painted). */
export async function loadImage(ref: SceneImageRef, resolver: AssetResolver, cache: ImageCache): Promise<LoadedImage> {
  const key = imageRefKey(ref);
  const bytes = await fetchBytes(ref, resolver);
  const tooLarge = imageBytesProblem(`"${key}"`, bytes.byteLength);
  if (tooLarge) throw validationError(ref.at, tooLarge);
  const hash = createHash('sha256').update(bytes).digest('hex');
  let source = cache.source(hash);
  if (!source) {
    source = await inspect(bytes, hash, ref);
    cache.set(source);
  }
  return { ...source, at: ref.at, ref: key };
}

/**
 * The pixels of `ext` (oriented coordinates; the whole image when null) at `width`×`height`, decoded
 * and resampled (Lanczos 3) in one pass, cached. Errors name the image's JSON path.
 */
export async function decodePixels(image: LoadedImage, ext: { x: number; y: number; width: number; height: number } | null, width: number, height: number, cache: ImageCache): Promise<DecodedImage> {
  const crop = ext ?? { x: 0, y: 0, width: image.width, height: image.height };
  const key = `${image.hash}@${crop.x},${crop.y},${crop.width},${crop.height}→${width}x${height}`;
  const hit = cache.pixels(key);
  if (hit) return hit;
  try {
    // A turned image is oriented first, on its own, so the crop means oriented coordinates.
    const input = image.oriented ? await sharp(image.bytes).rotate().toBuffer() : image.bytes;
    let pipeline = sharp(input, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error' });
    const whole = crop.x === 0 && crop.y === 0 && crop.width === image.width && crop.height === image.height;
    if (!whole) pipeline = pipeline.extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height });
    if (width !== crop.width || height !== crop.height) pipeline = pipeline.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
    const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixels: DecodedImage = { kind: 'pixels', width: info.width, height: info.height, rgba: data, hash: key, opaque: image.opaque };
    cache.set(pixels);
    return pixels;
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    throw validationError(image.at, `"${image.ref}" could not be decoded (${reason}): ${SUPPORTED}`);
  }
}
