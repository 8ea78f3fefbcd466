// Greedy line breaking over shaped paragraphs, in em: a line ends at the last UAX #14 opportunity
// that fits; a word wider than the line is split between clusters (and reported).
import type { ShapedParagraph } from './shape.js';

export interface Line {
  paragraph: number;
  /** Cluster range [start, end) in the paragraph, trailing whitespace included. */
  start: number;
  end: number;
  /** End of the visible part (trailing whitespace excluded). */
  visibleEnd: number;
  /** Visible width in em. */
  width: number;
  /** Last line of its paragraph (justify leaves it ragged). */
  last: boolean;
}

export interface LineBreakResult {
  lines: Line[];
  /** Some word did not fit on a line by itself and was split. */
  brokeWord: boolean;
  /** Some word did not fit on a line by itself and was kept whole (keepWords): it overflows. */
  overflowed: boolean;
}

const EPSILON = 1e-9;

/** `keepWords`: a word wider than the line stays whole and overflows (CSS overflow-wrap: normal). */
export function breakLines(paragraphs: readonly ShapedParagraph[], maxWidth: number, letterSpacing: number, keepWords = false): LineBreakResult {
  const lines: Line[] = [];
  let brokeWord = false;
  let overflowed = false;

  paragraphs.forEach((para, pi) => {
    const { clusters } = para;
    const widthOf = (start: number, end: number): { visibleEnd: number; width: number } => {
      let visibleEnd = end;
      while (visibleEnd > start && clusters[visibleEnd - 1]!.whitespace) visibleEnd--;
      let w = 0;
      for (let i = start; i < visibleEnd; i++) w += clusters[i]!.advance;
      // Letter spacing after the last visible character is not part of the line.
      return { visibleEnd, width: visibleEnd > start ? w - letterSpacing : 0 };
    };
    const push = (start: number, end: number): void => {
      lines.push({ paragraph: pi, start, end, ...widthOf(start, end), last: false });
    };

    if (clusters.length === 0) {
      lines.push({ paragraph: pi, start: 0, end: 0, visibleEnd: 0, width: 0, last: true });
      return;
    }

    let lineStart = 0;
    let lineEnd = 0; // end of the last opportunity committed to the current line
    for (const bo of para.breaks) {
      const candidate = widthOf(lineStart, bo.cluster);
      if (candidate.width <= maxWidth + EPSILON) {
        lineEnd = bo.cluster;
      } else {
        if (lineEnd > lineStart) {
          push(lineStart, lineEnd);
          lineStart = lineEnd;
        }
        // The segment alone may still be too wide: split it between clusters, or keep it whole.
        if (keepWords && widthOf(lineStart, bo.cluster).width > maxWidth + EPSILON) overflowed = true;
        while (!keepWords && widthOf(lineStart, bo.cluster).width > maxWidth + EPSILON) {
          let end = lineStart + 1;
          while (end < bo.cluster && widthOf(lineStart, end + 1).width <= maxWidth + EPSILON) end++;
          // A piece made only of whitespace cannot be the reason to split.
          if (widthOf(lineStart, end).visibleEnd === lineStart) break;
          brokeWord = true;
          push(lineStart, end);
          lineStart = end;
        }
        lineEnd = bo.cluster;
      }
      if (bo.required && lineEnd > lineStart) {
        push(lineStart, lineEnd);
        lineStart = lineEnd;
      }
    }
    if (lineEnd > lineStart) push(lineStart, lineEnd);
    lines[lines.length - 1]!.last = true;
  });
  return { lines, brokeWord, overflowed };
}
