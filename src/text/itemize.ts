// Itemization: a paragraph cut into runs of one face, one bidi level and one language, across span
// boundaries (colour, underline or link never split a run), the face chosen per grapheme cluster from
// the span's face and the bundled fallback chain (fallback.ts), Han forms by the span's language; a
// family split per Unicode subset draws each grapheme with its subset face (subset-faces.ts SegmentedFace).
import { fallbackFace, type FontFace } from './faces.js';
import { EMOJI_FAMILY, fallbackFamilies, hanFamilyFor, IGNORABLE, isCjk, isEmojiGrapheme, type CjkFamily, type CjkHint } from './fallback.js';

export interface ItemRun {
  /** UTF-16 range in the paragraph text. */
  start: number;
  end: number;
  face: FontFace;
  /** Bidi embedding level: odd runs are shaped right to left. */
  level: number;
  /** The language (BCP 47) the run is shaped in; absent: none given. */
  lang?: string;
}

/** What itemization needs of the span at an offset. */
export interface SpanFaces {
  /** The span's own face, then the set's other families at its weight and style. */
  face: FontFace;
  alternates: readonly FontFace[];
  weight: number;
  /** The span's language (BCP 47), if any. */
  lang?: string;
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

/** Whether `face` has a glyph for every character of the grapheme that needs one (a face split per subset: one subset has them all). */
function covers(face: FontFace, grapheme: string): boolean {
  if (face.subsetFor) return face.subsetFor(grapheme) !== undefined;
  for (const ch of grapheme) if (!IGNORABLE.test(ch) && !face.hasCodePoint(ch.codePointAt(0)!)) return false;
  return true;
}

/** The face that draws the grapheme: the subset face of a face split per subset, else the face itself. */
const drawing = (face: FontFace, grapheme: string): FontFace => face.subsetFor?.(grapheme) ?? face;

/**
 * The face that draws `grapheme`: emoji presentation goes to the colour emoji face; otherwise the
 * span's face when it has every glyph, else the first of the other families of the set (Greek in Lora
 * falls to Inter), else the face of the grapheme before (fullwidth punctuation after Chinese), else the
 * first bundled fallback face that has, else the span's face
 * (the character is then missing, drawn as its empty box and reported). With a language that names
 * Han forms (`han`), CJK characters skip the face of the grapheme before: Han and CJK punctuation go to
 * that language's face, kana to Japanese, Hangul to Korean, so a character one CJK face lacks (写 in
 * Traditional Chinese) does not pull the characters after it into another face.
 */
function faceFor(
  grapheme: string,
  primary: FontFace,
  alternates: readonly FontFace[],
  previous: FontFace | undefined,
  weight: number,
  hint: CjkHint,
  han: CjkFamily | null,
): FontFace {
  if (isEmojiGrapheme(grapheme)) {
    const emoji = fallbackFace(EMOJI_FAMILY, 400);
    const first = [...grapheme].find((ch) => !IGNORABLE.test(ch));
    if (emoji && first !== undefined && emoji.hasCodePoint(first.codePointAt(0)!)) return emoji;
  }
  if (covers(primary, grapheme)) return drawing(primary, grapheme);
  for (const face of alternates) if (covers(face, grapheme)) return drawing(face, grapheme);
  const first = [...grapheme].find((ch) => !IGNORABLE.test(ch));
  const byLanguage = han !== null && first !== undefined && isCjk(first);
  // Punctuation the span's face lacks (fullwidth ，？) stays in the face of the text it follows, unless
  // the language decides its CJK face.
  if (!byLanguage && previous && previous !== primary && covers(previous, grapheme)) return previous;
  if (first === undefined) return drawing(primary, grapheme);
  for (const family of fallbackFamilies(first, hint, han)) {
    const face = fallbackFace(family, weight);
    if (face && covers(face, grapheme)) return face;
  }
  // Missing everywhere: drawn as the empty box of the span's face (of a split one, its primary subset's).
  return primary.subsetFor ? (primary.subsetFor(' ') ?? primary) : primary;
}

/**
 * Runs of (face, level, language) over the paragraph `text`. `spanAt(i)` gives the span of UTF-16
 * offset i (SpanFaces); `levels` are the bidi levels per UTF-16 unit (null: all level 0).
 */
export function itemize(text: string, spanAt: (offset: number) => SpanFaces, levels: Uint8Array | null): ItemRun[] {
  const hint: CjkHint = { japanese: /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text), korean: /\p{Script=Hangul}/u.test(text) };
  const runs: ItemRun[] = [];
  const hanOf = new Map<string | undefined, CjkFamily | null>();
  for (const { segment, index } of graphemesOf(text)) {
    const { face: primary, alternates, weight, lang } = spanAt(index);
    let han = hanOf.get(lang);
    if (han === undefined) hanOf.set(lang, (han = hanFamilyFor(lang)));
    const face = faceFor(segment, primary, alternates, runs[runs.length - 1]?.face, weight, hint, han);
    const level = levels ? levels[index]! : 0;
    const last = runs[runs.length - 1];
    if (last && last.face === face && last.level === level && last.lang === lang) last.end = index + segment.length;
    else runs.push({ start: index, end: index + segment.length, face, level, ...(lang === undefined ? {} : { lang }) });
  }
  return runs;
}
