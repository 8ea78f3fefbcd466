// Script itemization: a text is shaped in runs of one Unicode script, as browsers do, so each run gets
// its script's shaping features and no kerning applies across a change of script. Characters of no
// script of their own (spaces, digits, punctuation: Common; combining marks: Inherited) join the run
// before them, or the first run when the text starts with them.
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Nko',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Cherokee',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Han',
  'Bopomofo',
  'Yi',
  'Tifinagh',
].map((name) => ({ name, pattern: new RegExp(`^\\p{Script=${name}}`, 'u') }));
const NO_SCRIPT = /^[\p{Script=Common}\p{Script=Inherited}]/u;

/** The script of the character at the start of `s`; null for Common and Inherited characters. */
export function scriptAt(s: string): string | null {
  if (NO_SCRIPT.test(s)) return null;
  // Scripts not listed still get runs of their own, one per character run of the unknown script.
  return SCRIPTS.find((sc) => sc.pattern.test(s))?.name ?? 'other';
}

/** `text` cut where the script changes; the pieces joined give `text` back. */
export function scriptRuns(text: string): string[] {
  const runs: string[] = [];
  let current: string | null = null;
  let start = 0;
  let offset = 0;
  for (const ch of text) {
    const script = scriptAt(ch);
    if (script !== null && current !== null && script !== current) {
      runs.push(text.slice(start, offset));
      start = offset;
    }
    if (script !== null) current = script;
    offset += ch.length;
  }
  runs.push(text.slice(start));
  return runs;
}
