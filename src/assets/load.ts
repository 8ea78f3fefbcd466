// Loads and decodes every image a scene references (the engine's only I/O before painting).
// Decoded pixels are cached by content hash, so a template's fixed images decode once per process.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { imageRefKey } from '../design/image-ref.js';
import type { Scene, SceneImageRef } from '../design/types.js';
import { ImprintError, validationError } from '../errors.js';
import { AssetNotFoundError, type AssetResolver } from './resolver.js';

export const IMAGE_LIMITS = {
  maxBytes: 50 * 1024 * 1024,
  maxPixels: 40_000_000,
} as const;

/** Straight (not premultiplied) RGBA pixels. */
export interface DecodedImage {
  width: number;
  height: number;
  rgba: Buffer;
  hash: string;
  /** Every pixel has full alpha. */
  opaque: boolean;
}

function isOpaque(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

export function sceneImageRefs(scene: Scene): SceneImageRef[] {
  const refs: SceneImageRef[] = [];
  if (scene.background.kind === 'image') refs.push(scene.background.image);
  for (const o of scene.objects) {
    if (o.type === 'image') refs.push(o.image);
    else if (o.type === 'shape' && o.fill?.kind === 'image') refs.push(o.fill.image);
    else if (o.type === 'mockup') {
      refs.push(o.base);
      for (const l of o.layers) {
        const ref = l.kind === 'color' ? l.mask : l.image;
        if (ref) refs.push(ref);
      }
    }
  }
  return refs;
}

export class ImageCache {
  private readonly entries = new Map<string, DecodedImage>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(hash: string): DecodedImage | undefined {
    const hit = this.entries.get(hash);
    if (hit) {
      // Re-insert to keep the map in least-recently-used order.
      this.entries.delete(hash);
      this.entries.set(hash, hit);
    }
    return hit;
  }

  set(image: DecodedImage): void {
    if (image.rgba.length > this.maxBytes) return;
    this.entries.set(image.hash, image);
    this.bytes += image.rgba.length;
    for (const [key, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= old.rgba.length;
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

async function decode(bytes: Uint8Array, hash: string, ref: SceneImageRef): Promise<DecodedImage> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error' })
      .rotate() // honour EXIF orientation, as photo viewers do
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, rgba: data, hash, opaque: isOpaque(data) };
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    throw validationError(ref.at, `"${imageRefKey(ref)}" is not a readable image (${reason}): use a jpg, png, webp, gif, tiff or avif file of at most ${IMAGE_LIMITS.maxPixels / 1e6} megapixels`);
  }
}

/** Resolves and decodes each distinct reference once. Keys are `imageRefKey`s. */
export async function loadImages(scene: Scene, resolver: AssetResolver, cache: ImageCache): Promise<Map<string, DecodedImage>> {
  const out = new Map<string, DecodedImage>();
  for (const ref of sceneImageRefs(scene)) {
    const key = imageRefKey(ref);
    if (out.has(key)) continue;
    const bytes = await fetchBytes(ref, resolver);
    if (bytes.byteLength > IMAGE_LIMITS.maxBytes) {
      throw validationError(ref.at, `"${key}" is ${(bytes.byteLength / 1048576).toFixed(1)} MB: images may be at most ${IMAGE_LIMITS.maxBytes / 1048576} MB`);
    }
    const hash = createHash('sha256').update(bytes).digest('hex');
    let image = cache.get(hash);
    if (!image) {
      image = await decode(bytes, hash, ref);
      cache.set(image);
    }
    out.set(key, image);
  }
  return out;
}
