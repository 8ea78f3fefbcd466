// Number formatting for axis ticks and data labels: thousands separators, decimals, unit prefix and
// suffix, and a typographic minus.
import type { SceneNumberFormat } from '../../scene/scene.js';

const MINUS = '\u2212';

export function formatNumber(value: number, f: SceneNumberFormat, decimals: number): string {
  const abs = Math.abs(value);
  const [int = '0', frac] = abs.toFixed(decimals).split('.');
  const grouped = f.thousands ? int.replace(/\B(?=(\d{3})+(?!\d))/g, f.thousands) : int;
  const digits = frac === undefined ? grouped : `${grouped}${f.decimal}${frac}`;
  // Rounding can turn a tiny negative into zero; zero has no sign.
  const negative = value < 0 && /[1-9]/.test(digits);
  return `${negative ? MINUS : ''}${f.prefix}${digits}${f.suffix}`;
}

/** Decimals for a data label: the format's, else what the value needs, at most 2. */
export function labelDecimals(value: number, f: SceneNumberFormat): number {
  if (f.decimals !== null) return f.decimals;
  for (let d = 0; d < 2; d++) if (Math.abs(Number(value.toFixed(d)) - value) < 1e-9) return d;
  return 2;
}
