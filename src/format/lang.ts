// Language tags (BCP 47) for text: the `lang` field of designs and text objects and the substyle
// attribute, validated and canonicalised by the runtime's own ICU (Intl.getCanonicalLocales).
import { z } from 'zod';

/** Longest tag accepted: RFC 5646 asks for at least 35 characters; extensions may need more. */
export const MAX_LANG_LENGTH = 64;

/** What a valid tag looks like, for every message that refuses one. */
export const LANG_HINT =
  'expected a BCP 47 language tag: a language code, optionally with a script and a region, such as "ja", "zh-Hant", "zh-TW", "ko" or "en-US"';

// The shape of a tag: a language code of 2 or 3 letters (every registered one; "chinese" or "english"
// are well formed but name no language), then subtags. Published in the JSON Schema for editors;
// ICU checks the rest (subtag order, singletons, duplicates).
const LANG_SHAPE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/**
 * An extended language subtag (zh-yue, zh-cmn-Hant: a language, then a 3-letter subtag) in the form
 * RFC 5646 §4.5 prefers, the extlang alone as the language (yue, cmn-Hant), which ICU accepts.
 */
function withoutExtlang(tag: string): string {
  return tag.replace(/^[A-Za-z]{2,3}-([A-Za-z]{3})(?=-|$)/, '$1');
}

/** The canonical form of `tag` ("zh-hant-tw" → "zh-Hant-TW", "iw" → "he"), or null when it is not a well-formed language tag. */
export function canonicalLang(tag: string): string | null {
  if (tag.length > MAX_LANG_LENGTH || !LANG_SHAPE.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(withoutExtlang(tag))[0] ?? null;
  } catch {
    return null;
  }
}

export const LangTag = z
  .string()
  .max(MAX_LANG_LENGTH, { error: `expected a language tag of at most ${MAX_LANG_LENGTH} characters` })
  .regex(LANG_SHAPE, { error: LANG_HINT })
  .refine((tag) => canonicalLang(tag) !== null, { error: LANG_HINT, abort: true });
