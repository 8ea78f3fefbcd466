// Sizing strategies. fit: the largest size ≤ the template size (in quarter pixels, by bisection) at
// which the text fits the box without splitting a word; fixed-width: the size stays, height follows.
import { breakLines, type Line } from './line-break.js';
import type { ShapedParagraph } from './shape.js';

export interface FitInput {
  paragraphs: readonly ShapedParagraph[];
  width: number;
  height: number;
  fontSize: number;
  minFontSize: number;
  /** Multiple of the font size. */
  lineHeight: number;
  /** em */
  letterSpacing: number;
  strategy: 'fit' | 'fixed-width';
  /** A word wider than the box stays whole and overflows it (fit shrinks until it fits, if it can). Default false: it is split. */
  keepWords?: boolean;
}

export interface FitResult {
  fontSize: number;
  lines: Line[];
  /** Height of all lines in px. */
  textHeight: number;
  /** Box height after sizing: the template height for fit, the text height for fixed-width. */
  boxHeight: number;
  shrunk: boolean;
  /** Text taller than the box even at the minimum size; painting clips it. */
  clipped: boolean;
  brokeWord: boolean;
}

const STEP = 0.25;
const EPSILON = 1e-6;

export function fitText(input: FitInput): FitResult {
  const at = (size: number) => {
    const { lines, brokeWord, overflowed } = breakLines(input.paragraphs, input.width / size, input.letterSpacing, input.keepWords ?? false);
    const textHeight = lines.length * size * input.lineHeight;
    return { size, lines, brokeWord, overflowed, textHeight };
  };
  const result = (r: ReturnType<typeof at>, boxHeight: number): FitResult => ({
    fontSize: r.size,
    lines: r.lines,
    textHeight: r.textHeight,
    boxHeight,
    shrunk: r.size < input.fontSize,
    clipped: r.textHeight > boxHeight + EPSILON,
    brokeWord: r.brokeWord,
  });

  if (input.strategy === 'fixed-width') {
    const r = at(input.fontSize);
    return result(r, r.textHeight);
  }

  const fits = (r: ReturnType<typeof at>): boolean => r.textHeight <= input.height + EPSILON && !r.brokeWord && !r.overflowed;
  const full = at(input.fontSize);
  if (fits(full)) return result(full, input.height);

  // Bisection over quarter-pixel sizes: lo is known to fail (or is the floor), hi is the first that fails.
  let lo = Math.ceil(input.minFontSize / STEP);
  let hi = Math.ceil(input.fontSize / STEP);
  let best = at(Math.min(lo * STEP, input.fontSize));
  if (lo >= hi || !fits(best)) return result(best, input.height);
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const r = at(mid * STEP);
    if (fits(r)) {
      lo = mid;
      best = r;
    } else hi = mid;
  }
  return result(best, input.height);
}
