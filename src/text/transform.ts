// text_transform: the case change applied to a text object's spans before shaping, like CSS
// text-transform. Locale-independent (Unicode default case mappings), so every machine renders the same.

export type TextTransform = 'none' | 'uppercase' | 'lowercase' | 'capitalize';

/**
 * Titlecase of one code point (Unicode's Titlecase_Mapping, which JavaScript does not expose): the
 * four Latin digraph letters have their own titlecase form; a letter whose uppercase is several
 * letters (ß → SS, ﬁ → FI) keeps only the first one capital (Ss, Fi), as SpecialCasing.txt gives.
 */
function titlecase(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0x1c4 && cp <= 0x1cc) return String.fromCodePoint(0x1c5 + Math.floor((cp - 0x1c4) / 3) * 3);
  if (cp >= 0x1f1 && cp <= 0x1f3) return '\u01f2';
  const upper = ch.toUpperCase();
  const [first, ...rest] = upper;
  return rest.length === 0 ? upper : first! + rest.join('').toLowerCase();
}

const LETTER = /^\p{L}$/u;

/**
 * Offsets (in UTF-16 units of the joined text) of the first code point of each word that starts
 * with a letter: Unicode word boundaries (UAX #29, root locale), so "don't" is one word and
 * "e-mail" two; a word that starts with a digit ("3rd") is left alone.
 */
function wordStarts(text: string): Set<number> {
  const starts = new Set<number>();
  for (const s of new Intl.Segmenter('und', { granularity: 'word' }).segment(text)) {
    if (s.isWordLike && LETTER.test(String.fromCodePoint(s.segment.codePointAt(0)!))) starts.add(s.index);
  }
  return starts;
}

/**
 * The texts with the transform applied, one per input text. Several texts are one run of text split
 * by substyle tags: capitalize finds words across them ("sum<substyle>mer</substyle>" is one word).
 */
export function transformTexts(texts: readonly string[], transform: TextTransform): string[] {
  switch (transform) {
    case 'none':
      return [...texts];
    case 'uppercase':
      return texts.map((t) => t.toUpperCase());
    case 'lowercase':
      return texts.map((t) => t.toLowerCase());
    case 'capitalize': {
      const starts = wordStarts(texts.join(''));
      let offset = 0;
      return texts.map((t) => {
        let out = '';
        let i = 0;
        for (const ch of t) {
          out += starts.has(offset + i) ? titlecase(ch) : ch;
          i += ch.length;
        }
        offset += t.length;
        return out;
      });
    }
  }
}
