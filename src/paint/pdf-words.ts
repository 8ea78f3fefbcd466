// The model of how pdftotext (poppler's TextOutputDev) groups a pdf's glyphs into words: the
// characters a glyph is given, a run split into words, and the gap and overlap rules that decide
// whether a word reads back as drawn or needs its text as one ActualText span (pdf-text.ts).
import type { PositionedGlyph } from '../scene/display-list.js';

/** A glyph of a run as the content stream shows it: its code, its advance there (px) and its text. */
export interface CodedGlyph {
  g: PositionedGlyph;
  hex: string;
  /** The advance of the font's width entry, which readers take as the glyph's extent. */
  advance: number;
  /** What the glyph stands for, as written for readers (textOf). */
  text: string;
  /** What the font's ToUnicode map says it stands for (its first use). */
  mapped: string;
}

/**
 * A glyph's characters as readers are given them. The content stream draws right-to-left text in
 * visual order, and readers put it back in reading order by reversing its characters one by one
 * (poppler's pdftotext, pdf.js and PDFium all do), not glyph by glyph: so the characters of one
 * right-to-left glyph (a letter with its points, a ligature) are written last to first, to come out
 * first to last. Written in reading order, pdftotext gave `שָׁלוֹם` as `ָׁשלֹום`, the points before their letter.
 * (Where poppler takes a page for left to right, it puts the characters that are neither letters nor
 * digits at the start of a right-to-left stretch before it: a point on the last letter of such a
 * stretch, with -raw of every word, still comes out first. Only a directional mark added to the
 * text would avoid that, and search would then miss the phrase.)
 */
export function textOf(g: PositionedGlyph): string {
  if (g.chars === undefined) return '';
  return g.rtl ? [...g.chars].reverse().join('') : g.chars;
}

/** The run's words: glyphs between whitespace glyphs, each whitespace glyph a word of its own. */
export function words(glyphs: readonly CodedGlyph[]): CodedGlyph[][] {
  const out: CodedGlyph[][] = [];
  let word: CodedGlyph[] = [];
  for (const c of glyphs) {
    if (c.text !== '' && /^\s+$/u.test(c.text)) {
      if (word.length > 0) out.push(word);
      out.push([c]);
      word = [];
    } else word.push(c);
  }
  if (word.length > 0) out.push(word);
  return out;
}

/**
 * Whether a reader that builds words from the glyphs' own text by position, as poppler does
 * (TextOutputDev), reads the word back as drawn: each glyph's characters spread over its font
 * advance, a new word started where a glyph is more than 0.1 em past the end of the one before or
 * 0.2 em back over it, where it starts within 0.1 em of the one before (taken for duplicated text)
 * or after a glyph standing for no text, and a space put between two such pieces 0.03 em or more
 * apart. So Latin with kerning, Arabic and unpointed Hebrew, CJK and Thai letters without marks read
 * as they are; a word with a mark that is its own character (drawn over its letter, so poppler makes
 * it a word apart or a line of its own), a Devanagari i sign drawn before its consonant (the
 * consonant's advance a gap with no text) or a Tamil two-part vowel does not, nor one whose text
 * stops short of its last glyph (a Thai sara am's aa drawn apart), and gets its text as one
 * ActualText span instead: poppler reads the span's characters as one piece from its first glyph to
 * the end of its last, so the word comes out whole and once.
 */
export function readsAsDrawn(word: readonly CodedGlyph[], size: number): boolean {
  let prev: CodedGlyph | null = null;
  let silent = false;
  for (const c of word) {
    // ToUnicode maps one text per glyph, fixed by its first use: where this use stands for other
    // characters (a letter alone and as the base of a cluster), the word's text goes in ActualText.
    if (c.text !== c.mapped) return false;
    if (c.text === '') {
      silent = true;
      continue;
    }
    if (prev) {
      const gap = c.g.x - (prev.g.x + prev.advance);
      if (Math.abs(c.g.x - prev.g.x) < 0.1 * size) return false;
      const breaks = silent || gap > 0.1 * size || gap < -0.2 * size || Math.abs(c.g.y - prev.g.y) > 1e-6;
      if (breaks && gap >= 0.03 * size) return false;
    } else if (c.g.x - Math.min(...word.map((w) => w.g.x)) >= 0.03 * size) return false;
    prev = c;
    silent = false;
  }
  // Glyphs with no text drawn after the last character: a gap before whatever the line draws next.
  return prev === null || Math.max(...word.map((w) => w.g.x + w.advance)) - (prev.g.x + prev.advance) < 0.03 * size;
}
