// Colour arithmetic for tests: 8-bit sRGB → CIELAB (D65) and the CIE76 colour difference, so a test can
// say how far apart two colours look rather than how many code values they differ by.

export type Rgb = readonly [number, number, number];
export type Lab = readonly [number, number, number];

/** The sRGB transfer function undone: an 8-bit code value to linear light, 0-1. */
function linear(code: number): number {
  const c = code / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** D65 white of the sRGB standard (IEC 61966-2-1), Y = 1. */
const WHITE = [0.95047, 1, 1.08883] as const;

/** 8-bit sRGB → CIELAB with a D65 white point (sRGB's own, so no chromatic adaptation is needed). */
export function srgbToLab([r, g, b]: Rgb): Lab {
  const R = linear(r);
  const G = linear(g);
  const B = linear(b);
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / WHITE[0];
  const y = (0.2126729 * R + 0.7151522 * G + 0.072175 * B) / WHITE[1];
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / WHITE[2];
  // CIE's exact constants (ε = 216/24389, κ = 24389/27) rather than the rounded 0.008856 / 903.3.
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/**
 * CIE76 ΔE: the Euclidean distance in Lab. Chosen over CIEDE2000 because it is the stricter of the two
 * for saturated colours (CIEDE2000 discounts chroma differences of vivid colours such as pure blue), and
 * 1 is about the smallest difference a viewer notices side by side.
 */
export function deltaE76(a: Rgb, b: Rgb): number {
  const p = srgbToLab(a);
  const q = srgbToLab(b);
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}
