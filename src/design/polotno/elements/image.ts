// Polotno image elements → Imprint image objects: the crop, the fit (cover from the crop's corner, or
// stretched), corners, mirroring, border and clip mask of the picture.
import { validationError } from '../../../errors.js';
import type { Converter } from '../context.js';
import type { ImageInput } from '../imprint-types.js';
import type { PolotnoImage } from '../schema.js';
import { color, round } from '../shared.js';
import { animationsOf, begin, commonEffects } from './common.js';

function crop(
  e: { cropX?: number | undefined; cropY?: number | undefined; cropWidth?: number | undefined; cropHeight?: number | undefined },
  at: string,
): ImageInput['crop'] {
  const x = e.cropX ?? 0;
  const y = e.cropY ?? 0;
  const width = e.cropWidth ?? 1;
  const height = e.cropHeight ?? 1;
  if (x === 0 && y === 0 && width === 1 && height === 1) return undefined;
  if (x + width > 1 + 1e-6)
    throw validationError(
      `${at}.cropWidth`,
      `expected cropX + cropWidth to be at most 1 (the crop must lie inside the image): lower cropWidth to ${round(1 - x)} or less`,
    );
  if (y + height > 1 + 1e-6)
    throw validationError(`${at}.cropHeight`, `expected cropY + cropHeight to be at most 1: lower cropHeight to ${round(1 - y)} or less`);
  return { x: round(x), y: round(y), width: round(Math.min(width, 1 - x)), height: round(Math.min(height, 1 - y)) };
}

function pictureFields(c: Converter, e: PolotnoImage, at: string, out: ImageInput, width: number, height: number): void {
  // Polotno trims the crop to the box's aspect from the crop's top-left corner: cover with the focal
  // point there does the same. stretchEnabled stretches the crop instead.
  const cr = crop(e, at);
  if (cr) out.crop = cr;
  out.config = e.stretchEnabled
    ? { media_replacement_strategy: 'fill' }
    : { media_replacement_strategy: 'cover', focal_point: { x: round(e.cropX ?? 0), y: round(e.cropY ?? 0) } };
  const radius = Math.min(e.cornerRadius ?? 0, width / 2, height / 2);
  if (radius > 0) out.corner_radius = round(radius);
  if (e.flipX) out.flip_x = true;
  if (e.flipY) out.flip_y = true;
  const borderSize = e.borderSize ?? 0;
  if (borderSize > 0) out.border = { width: borderSize, color: color(e.borderColor ?? 'black', `${at}.borderColor`) };
  if (e.clipSrc) out.clip_svg = c.source(e.clipSrc, `${at}.clipSrc`, 'clip mask', 'svg');
}

export function convertImage(c: Converter, e: PolotnoImage, at: string, pageSeconds: number): ImageInput {
  const { base, width, height } = begin(e, 'image', { defaultWidth: 100, height: e.height ?? 100 });
  const out: ImageInput = { ...base, path: c.source(e.src, `${at}.src`, 'image', 'image') };
  // maskSrc is not a field of Polotno's image elements: its renderer ignores it there and draws the
  // image whole, so it is ignored here too (a frame is an svg element with maskSrc: convertSvg).
  pictureFields(c, e, at, out, width, height);
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}
