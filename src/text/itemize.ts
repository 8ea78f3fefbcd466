// Itemization: a paragraph cut into runs of one face and one bidi level, across span boundaries (only a
// change of face splits a run, never colour, underline or link), the face chosen per grapheme cluster
// from the span's face and the bundled fallback chain (fallback.ts).
import { fallbackFace, type FontFace } from './fonts.js';
import { EMOJI_FAMILY, fallbackFamilies, IGNORABLE, isEmojiGrapheme, type CjkHint } from './fallback.js';

export interface ItemRun {
  /** UTF-16 range in the paragraph text. */
  start: number;
  end: number;
  face: FontFace;
  /** Bidi embedding level: odd runs are shaped right to left. */
  level: number;
}

// Creating a segmenter loads ICU's break data (~20 ms): on first use, not at import.
let graphemeSegmenter: Intl.Segmenter | undefined;
export const graphemes = (): Intl.Segmenter => (graphemeSegmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' }));

// Characters that may join the character before or after them into one grapheme (marks, joiners,
// variation selectors, emoji modifiers, flags, Hangul jamo, prepended signs, Thai/Lao AM). Text
// without any is one grapheme per code point, and skips the segmenter (creating it costs ~30 ms).
const JOINS =
  /\p{Grapheme_Extend}|\p{M}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u0e33\u0eb3\uff9e\uff9f\u{110bd}\u{110cd}\u{111c2}\u{111c3}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}\u{113d1}]/u;

/** The graphemes of `text` with their offsets. */
function* graphemesOf(text: string): Generator<{ segment: string; index: number }> {
  if (!JOINS.test(text)) {
    let index = 0;
    for (const segment of text) {
      yield { segment, index };
      index += segment.length;
    }
    return;
  }
  yield* graphemes().segment(text);
}

/** Whether `face` has a glyph for every character of the grapheme that needs one. */
function covers(face: FontFace, grapheme: string): boolean {
  for (const ch of grapheme) if (!IGNORABLE.test(ch) && !face.hasCodePoint(ch.codePointAt(0)!)) return false;
  return true;
}

/**
 * The face that draws `grapheme`: emoji presentation goes to the colour emoji face; otherwise the
 * span's face when it has every glyph, else the first of the other families of the set (Greek in Lora
 * falls to Inter), else the face of the grapheme before (fullwidth punctuation after Chinese), else the
 * first bundled fallback face that has, else the span's face
 * (the character is then missing, drawn as its empty box and reported).
 */
function faceFor(
  grapheme: string,
  primary: FontFace,
  alternates: readonly FontFace[],
  previous: FontFace | undefined,
  weight: number,
  hint: CjkHint,
): FontFace {
  if (isEmojiGrapheme(grapheme)) {
    const emoji = fallbackFace(EMOJI_FAMILY, 400);
    const first = [...grapheme].find((ch) => !IGNORABLE.test(ch));
    if (emoji && first !== undefined && emoji.hasCodePoint(first.codePointAt(0)!)) return emoji;
  }
  if (covers(primary, grapheme)) return primary;
  for (const face of alternates) if (covers(face, grapheme)) return face;
  // Punctuation the span's face lacks (fullwidth ，？) stays in the face of the text it follows.
  if (previous && previous !== primary && covers(previous, grapheme)) return previous;
  const first = [...grapheme].find((ch) => !IGNORABLE.test(ch));
  if (first === undefined) return primary;
  for (const family of fallbackFamilies(first, hint)) {
    const face = fallbackFace(family, weight);
    if (face && covers(face, grapheme)) return face;
  }
  return primary;
}

/**
 * Runs of (face, level) over the paragraph `text`. `spanAt(i)` gives the span of UTF-16 offset i with
 * its primary face, the set's other families at its weight, and the weight; `levels` are the bidi levels per UTF-16 unit (null: all level 0).
 */
export function itemize(
  text: string,
  spanAt: (offset: number) => { face: FontFace; alternates: readonly FontFace[]; weight: number },
  levels: Uint8Array | null,
): ItemRun[] {
  const hint: CjkHint = { japanese: /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text), korean: /\p{Script=Hangul}/u.test(text) };
  const runs: ItemRun[] = [];
  for (const { segment, index } of graphemesOf(text)) {
    const { face: primary, alternates, weight } = spanAt(index);
    const face = faceFor(segment, primary, alternates, runs[runs.length - 1]?.face, weight, hint);
    const level = levels ? levels[index]! : 0;
    const last = runs[runs.length - 1];
    if (last && last.face === face && last.level === level) last.end = index + segment.length;
    else runs.push({ start: index, end: index + segment.length, face, level });
  }
  return runs;
}
