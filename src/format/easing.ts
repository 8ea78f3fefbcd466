// Easing curves: the CSS keywords and cubic-bezier(), parsed into control points and evaluated.
import type { Easing } from '../scene/scene.js';

export const EASINGS: Record<string, Easing> = {
  linear: [0, 0, 1, 1],
  'ease-in': [0.42, 0, 1, 1],
  'ease-out': [0, 0, 0.58, 1],
  'ease-in-out': [0.42, 0, 0.58, 1],
};

const CUBIC = /^cubic-bezier\(\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\)$/;

/** The control points, or null when the text names no easing (x1 and x2 must lie in 0..1, as in CSS). */
export function parseEasing(text: string): Easing | null {
  const named = EASINGS[text];
  if (named) return named;
  const m = CUBIC.exec(text);
  if (!m) return null;
  const [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number];
  if (![x1, y1, x2, y2].every(Number.isFinite) || x1 < 0 || x1 > 1 || x2 < 0 || x2 > 1) return null;
  return [x1, y1, x2, y2];
}

/** y for x in 0..1 on the curve: x(s) is solved by bisection (monotonic for x1, x2 in 0..1). */
export function ease([x1, y1, x2, y2]: Easing, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const bez = (a: number, b: number, s: number): number => 3 * a * s * (1 - s) ** 2 + 3 * b * s * s * (1 - s) + s ** 3;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (bez(x1, x2, mid) < x) lo = mid;
    else hi = mid;
  }
  return bez(y1, y2, (lo + hi) / 2);
}
