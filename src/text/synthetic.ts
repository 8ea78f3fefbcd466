// Synthetic bold and italic, as Chromium draws them (Skia's fake bold and fake italic), shared by the
// raster and pdf painters so both outputs slant and embolden alike.

/** Horizontal skew per unit of height above the baseline (Skia's -1/4 skewX; about 14°, CSS's default oblique). */
export const SYNTHETIC_ITALIC_SKEW = 0.25;

/**
 * Width of the stroke drawn around glyphs for synthetic bold, px: Skia's fake bold outsets by
 * size/24 at 9 px and below and size/32 at 36 px and above, interpolated between.
 */
export function syntheticBoldStroke(size: number): number {
  const t = Math.min(1, Math.max(0, (size - 9) / (36 - 9)));
  return size * (1 / 24 + t * (1 / 32 - 1 / 24));
}
