// Sizing strategies. fit: the largest size ≤ the template size (in quarter pixels, by bisection) at
// which the text fits the box without splitting a word, or with a step, the first size stepping down
// from the template size that fits (Polotno's change-font-size); fixed-width: the size stays, height follows.
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
  /**
   * fit: try the template size, then step down by this many px, and take the first size that fits
   * (sizes below minFontSize are not tried: minFontSize is the last). Fitting is not monotonic in the
   * size (line breaks move), so this can differ from the bisection's largest fitting size: Polotno's
   * change-font-size steps down by 0.5 px this way. Default: bisection over quarter pixels.
   */
  step?: number;
  /** fit: once the size is found, the box height becomes the text height (as fixed-width's). Default false. */
  heightFollowsText?: boolean;
  /** fit: a size at which a word is split across lines (not kept whole) still fits; only the height counts. Default false. */
  splitWords?: boolean;
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
  const result = (r: ReturnType<typeof at>, height: number): FitResult => {
    const boxHeight = input.heightFollowsText ? r.textHeight : height;
    return {
      fontSize: r.size,
      lines: r.lines,
      textHeight: r.textHeight,
      boxHeight,
      shrunk: r.size < input.fontSize,
      clipped: r.textHeight > boxHeight + EPSILON,
      brokeWord: r.brokeWord,
    };
  };

  if (input.strategy === 'fixed-width') {
    const r = at(input.fontSize);
    return result(r, r.textHeight);
  }

  const fits = (r: ReturnType<typeof at>): boolean => r.textHeight <= input.height + EPSILON && (input.splitWords === true || (!r.brokeWord && !r.overflowed));
  const full = at(input.fontSize);
  if (fits(full)) return result(full, input.height);

  if (input.step !== undefined && input.step > 0) {
    // Linear from the top, as Polotno's loop: the first size that fits wins, not the largest. A size
    // whose lines cannot fit whatever the breaks (each line holds at most the box width of glyphs) is
    // skipped without breaking lines, which keeps a long text at a large size from costing seconds.
    const ink = input.paragraphs.map((p) => p.clusters.reduce((n, c) => n + (c.whitespace ? 0 : c.advance), 0));
    // (A kept word may overflow its line, but then the size only fits when split words are accepted.)
    const bounded = !(input.keepWords && input.splitWords);
    const surelyTooTall = (size: number): boolean => {
      if (!bounded) return false;
      const perLine = input.width / size + Math.abs(input.letterSpacing);
      const lines = ink.reduce((n, w) => n + Math.max(1, Math.ceil(w / perLine - 1e-9)), 0);
      return lines * size * input.lineHeight > input.height + EPSILON;
    };
    for (let k = 1; ; k++) {
      const size = input.fontSize - k * input.step;
      if (size < input.minFontSize - EPSILON) return result(at(Math.min(input.minFontSize, input.fontSize)), input.height);
      if (surelyTooTall(size)) continue;
      const r = at(size);
      if (fits(r)) return result(r, input.height);
    }
  }

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
