// The Unicode bidirectional algorithm (bidi-js) for paragraphs with right-to-left text: embedding
// levels for itemization, and per-line visual order of clusters (rule L2).
import type { Bidi } from 'bidi-js';
import { lazyRequire } from '../lazy-require.js';

// bidi-js builds its character tables when its factory runs: only for a paragraph that needs it.
type Factory = () => Bidi;
const factory = lazyRequire<Factory & { default?: Factory }>('bidi-js');
let bidi: Bidi | undefined;

export type Direction = 'auto' | 'ltr' | 'rtl';

/** Characters of right-to-left scripts (bidi classes R and AL) and the explicit RTL controls. */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u200f\u202b\u202e\u2067\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** Whether a paragraph needs the bidi algorithm: it has right-to-left characters or is set rtl. */
export function needsBidi(text: string, direction: Direction): boolean {
  return direction === 'rtl' || RTL.test(text);
}

/** Levels per UTF-16 unit and the paragraph's base level (0 left to right, 1 right to left). */
export function embeddingLevels(text: string, direction: Direction): { levels: Uint8Array; base: number } {
  if (!bidi) {
    const mod = factory();
    bidi = (mod.default ?? mod)();
  }
  const result = bidi.getEmbeddingLevels(text, direction);
  return { levels: result.levels, base: result.paragraphs[0]?.level ?? (direction === 'rtl' ? 1 : 0) };
}

/**
 * The visual order of items with these levels (rule L2): from the highest level down to the lowest odd
 * one, every maximal sequence at that level or above is reversed. Returns indices into `levels`.
 */
export function visualOrder(levels: readonly number[]): number[] {
  const order = levels.map((_, i) => i);
  if (levels.length === 0) return order;
  const max = Math.max(...levels);
  let minOdd = Math.min(...levels);
  if (minOdd % 2 === 0) minOdd++;
  for (let level = max; level >= minOdd; level--) {
    for (let i = 0; i < order.length;) {
      if (levels[order[i]!]! < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && levels[order[j]!]! >= level) j++;
      const reversed = order.slice(i, j).reverse();
      order.splice(i, j - i, ...reversed);
      i = j;
    }
  }
  return order;
}
