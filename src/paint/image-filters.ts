// CSS colour filters on decoded pixels, shared by the raster and pdf painters so both show the same
// pixels: the Filter Effects 1 definitions of grayscale(), sepia(), brightness(), contrast() and saturate().
import type { DecodedImage } from '../assets/load.js';
import type { ColorFilters } from '../scene/scene.js';

type Matrix3 = readonly [number, number, number, number, number, number, number, number, number];

/** The feColorMatrix of grayscale(amount): Rec. 709 luma weights, mixed with the identity by 1 − amount. */
function grayscale(amount: number): Matrix3 {
  const a = 1 - amount;
  return [
    0.2126 + 0.7874 * a,
    0.7152 - 0.7152 * a,
    0.0722 - 0.0722 * a,
    0.2126 - 0.2126 * a,
    0.7152 + 0.2848 * a,
    0.0722 - 0.0722 * a,
    0.2126 - 0.2126 * a,
    0.7152 - 0.7152 * a,
    0.0722 + 0.9278 * a,
  ];
}

function sepia(amount: number): Matrix3 {
  const a = 1 - amount;
  return [
    0.393 + 0.607 * a,
    0.769 - 0.769 * a,
    0.189 - 0.189 * a,
    0.349 - 0.349 * a,
    0.686 + 0.314 * a,
    0.168 - 0.168 * a,
    0.272 - 0.272 * a,
    0.534 - 0.534 * a,
    0.131 + 0.869 * a,
  ];
}

/** feColorMatrix type="saturate" (the spec's rounded weights 0.213 / 0.715 / 0.072). */
function saturate(s: number): Matrix3 {
  return [
    0.213 + 0.787 * s,
    0.715 - 0.715 * s,
    0.072 - 0.072 * s,
    0.213 - 0.213 * s,
    0.715 + 0.285 * s,
    0.072 - 0.072 * s,
    0.213 - 0.213 * s,
    0.715 - 0.715 * s,
    0.072 + 0.928 * s,
  ];
}

/** One step of the chain: a colour matrix, or a linear transfer c·slope + intercept on each channel. */
type Step = { matrix: Matrix3 } | { slope: number; intercept: number };

/** The steps in the fixed order grayscale, sepia, brightness, contrast, saturate; identities left out. */
function steps(f: ColorFilters): Step[] {
  const out: Step[] = [];
  if (f.grayscale !== 0) out.push({ matrix: grayscale(f.grayscale) });
  if (f.sepia !== 0) out.push({ matrix: sepia(f.sepia) });
  if (f.brightness !== 1) out.push({ slope: f.brightness, intercept: 0 });
  // contrast(c): feFuncX type="linear" slope c, intercept −0.5·c + 0.5.
  if (f.contrast !== 1) out.push({ slope: f.contrast, intercept: 0.5 - 0.5 * f.contrast });
  if (f.saturate !== 1) out.push({ matrix: saturate(f.saturate) });
  return out;
}

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);

/** The cache key of `hash`'s pixels with these filters. */
export function filteredKey(hash: string, f: ColorFilters): string {
  return `${hash}|filters(${f.grayscale},${f.sepia},${f.brightness},${f.contrast},${f.saturate})`;
}

/**
 * The pixels with the filters applied: on straight (unpremultiplied) sRGB values as 0–1 floats,
 * each step clamped to 0–1 as the filter primitives clamp, rounded to 8 bits once at the end.
 * Alpha is untouched.
 */
export function applyFilters(image: DecodedImage, f: ColorFilters): DecodedImage {
  const chain = steps(f);
  const src = image.rgba;
  const out = Buffer.allocUnsafe(src.length);
  for (let i = 0; i < src.length; i += 4) {
    let r = src[i]! / 255;
    let g = src[i + 1]! / 255;
    let b = src[i + 2]! / 255;
    for (const s of chain) {
      if ('matrix' in s) {
        const m = s.matrix;
        const nr = m[0] * r + m[1] * g + m[2] * b;
        const ng = m[3] * r + m[4] * g + m[5] * b;
        const nb = m[6] * r + m[7] * g + m[8] * b;
        r = clamp01(nr);
        g = clamp01(ng);
        b = clamp01(nb);
      } else {
        r = clamp01(r * s.slope + s.intercept);
        g = clamp01(g * s.slope + s.intercept);
        b = clamp01(b * s.slope + s.intercept);
      }
    }
    out[i] = Math.round(r * 255);
    out[i + 1] = Math.round(g * 255);
    out[i + 2] = Math.round(b * 255);
    out[i + 3] = src[i + 3]!;
  }
  return { kind: 'pixels', width: image.width, height: image.height, rgba: out, hash: filteredKey(image.hash, f), opaque: image.opaque };
}
