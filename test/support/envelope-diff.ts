// Compares two renders of one design made by different rasterisers (ours and poppler's). A pixel
// matches when each channel lies within the range its 3×3 neighbourhood spans in the other image
// (± a small tolerance): any anti-aliasing blend between neighbours matches, a line moved by 2 px or
// a glyph of another size does not.
import sharp from 'sharp';

export const ENVELOPE_TOLERANCE = 16;

async function rgb(png: Buffer | string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function outside(a: Buffer, b: Buffer, w: number, h: number, tol: number): number {
  let bad = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) {
        let lo = 255;
        let hi = 0;
        for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
          for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) {
            const v = b[(yy * w + xx) * 3 + c]!;
            if (v < lo) lo = v;
            if (v > hi) hi = v;
          }
        }
        const v = a[i + c]!;
        if (v < lo - tol || v > hi + tol) {
          bad++;
          break;
        }
      }
    }
  }
  return bad;
}

/** Share of pixels (0..1) that match in neither direction; Infinity when the sizes differ. */
export async function envelopeMismatch(expected: Buffer | string, actual: Buffer | string, tol = ENVELOPE_TOLERANCE): Promise<number> {
  const [e, a] = await Promise.all([rgb(expected), rgb(actual)]);
  if (e.width !== a.width || e.height !== a.height) return Number.POSITIVE_INFINITY;
  const n = e.width * e.height;
  return Math.max(outside(a.data, e.data, e.width, e.height, tol), outside(e.data, a.data, e.width, e.height, tol)) / n;
}
