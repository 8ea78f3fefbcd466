// The bundled fallback chain: Noto faces from versioned npm packages (OFL) that draw what the chosen
// family lacks. Pure data and path resolution; faces.ts opens a face only when a character needs it.
import { createRequire } from 'node:module';

/** One fallback family: its npm package and file stem, the weights it ships and the scripts it serves. */
export interface FallbackFamily {
  family: string;
  pkg: string;
  stem: string;
  weights: readonly number[];
  /** Unicode script names (as in \p{Script=…}) it is tried for; empty = tried for script-less characters. */
  scripts: readonly string[];
  /** An optional dependency (CJK): when it is not installed its characters stay missing. */
  optional?: boolean;
}

const ALL = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;
const REGULAR = [400] as const;

/** The chain, in the order it is tried for a character of no particular script (symbols, math). */
export const FALLBACK_FAMILIES: readonly FallbackFamily[] = [
  { family: 'Noto Sans Arabic', pkg: 'noto-sans-arabic', stem: 'NotoSansArabic', weights: ALL, scripts: ['Arabic'] },
  { family: 'Noto Sans Hebrew', pkg: 'noto-sans-hebrew', stem: 'NotoSansHebrew', weights: ALL, scripts: ['Hebrew'] },
  { family: 'Noto Sans Devanagari', pkg: 'noto-sans-devanagari', stem: 'NotoSansDevanagari', weights: ALL, scripts: ['Devanagari'] },
  { family: 'Noto Sans Bengali', pkg: 'noto-sans-bengali', stem: 'NotoSansBengali', weights: ALL, scripts: ['Bengali'] },
  { family: 'Noto Sans Tamil', pkg: 'noto-sans-tamil', stem: 'NotoSansTamil', weights: ALL, scripts: ['Tamil'] },
  { family: 'Noto Sans Thai', pkg: 'noto-sans-thai', stem: 'NotoSansThai', weights: ALL, scripts: ['Thai'] },
  { family: 'Noto Sans Khmer', pkg: 'noto-sans-khmer', stem: 'NotoSansKhmer', weights: ALL, scripts: ['Khmer'] },
  { family: 'Noto Sans Lao', pkg: 'noto-sans-lao', stem: 'NotoSansLao', weights: ALL, scripts: ['Lao'] },
  { family: 'Noto Sans Armenian', pkg: 'noto-sans-armenian', stem: 'NotoSansArmenian', weights: ALL, scripts: ['Armenian'] },
  { family: 'Noto Sans Georgian', pkg: 'noto-sans-georgian', stem: 'NotoSansGeorgian', weights: ALL, scripts: ['Georgian'] },
  { family: 'Noto Sans JP', pkg: 'noto-sans-jp', stem: 'NotoSansJP', weights: ALL, scripts: ['Hiragana', 'Katakana'], optional: true },
  { family: 'Noto Sans KR', pkg: 'noto-sans-kr', stem: 'NotoSansKR', weights: ALL, scripts: ['Hangul'], optional: true },
  { family: 'Noto Sans SC', pkg: 'noto-sans-sc', stem: 'NotoSansSC', weights: ALL, scripts: ['Han', 'Bopomofo'], optional: true },
  { family: 'Noto Sans TC', pkg: 'noto-sans-tc', stem: 'NotoSansTC', weights: ALL, scripts: [], optional: true },
  { family: 'Noto Sans Symbols', pkg: 'noto-sans-symbols', stem: 'NotoSansSymbols', weights: ALL, scripts: [] },
  { family: 'Noto Sans Symbols 2', pkg: 'noto-sans-symbols-2', stem: 'NotoSansSymbols2', weights: REGULAR, scripts: [] },
  { family: 'Noto Sans Math', pkg: 'noto-sans-math', stem: 'NotoSansMath', weights: REGULAR, scripts: [] },
  { family: 'Noto Color Emoji', pkg: 'noto-color-emoji', stem: 'NotoColorEmoji', weights: REGULAR, scripts: [] },
];

export const EMOJI_FAMILY = 'Noto Color Emoji';
const byFamily = new Map(FALLBACK_FAMILIES.map((f) => [f.family, f]));

const WEIGHT_NAMES: Record<number, string> = {
  100: 'Thin',
  200: 'ExtraLight',
  300: 'Light',
  400: 'Regular',
  500: 'Medium',
  600: 'SemiBold',
  700: 'Bold',
  800: 'ExtraBold',
  900: 'Black',
};

/** The shipped weight nearest to `weight` (ties to the heavier, as FontSet.face does). */
export function nearestWeight(weights: readonly number[], weight: number): number {
  let best = weights[0]!;
  for (const w of weights) if (Math.abs(w - weight) <= Math.abs(best - weight)) best = w;
  return best;
}

const require = createRequire(import.meta.url);
const resolved = new Map<string, string | null>();

/**
 * The absolute path of a fallback family's file at the weight nearest `weight`, or null when its
 * package is not installed (the optional CJK packages). Resolved through node's module resolution,
 * so it works from src/, dist/ and an installed package alike.
 */
export function fallbackFile(family: string, weight: number): { file: string; weight: number } | null {
  const f = byFamily.get(family);
  if (!f) return null;
  const w = nearestWeight(f.weights, weight);
  const id = `@expo-google-fonts/${f.pkg}/${w}${WEIGHT_NAMES[w]}/${f.stem}_${w}${WEIGHT_NAMES[w]}.ttf`;
  let file = resolved.get(id);
  if (file === undefined) {
    try {
      file = require.resolve(id);
    } catch {
      file = null;
    }
    resolved.set(id, file);
  }
  return file === null ? null : { file, weight: w };
}

/** The family and weight of a fallback face key ("Noto Sans Arabic-700"), or null for any other key. */
export function parseFallbackKey(key: string): { family: string; weight: number } | null {
  const m = /^(.*)-(\d{3})$/.exec(key);
  if (!m || !byFamily.has(m[1]!)) return null;
  return { family: m[1]!, weight: Number(m[2]) };
}

/** What the paragraph says about which CJK forms to prefer for Han characters. */
export interface CjkHint {
  /** The paragraph has kana: Japanese. */
  japanese: boolean;
  /** The paragraph has Hangul: Korean. */
  korean: boolean;
}

/** The CJK fallback family whose forms a language writes Han characters in (Noto Sans SC, TC, JP or KR). */
export type CjkFamily = 'Noto Sans SC' | 'Noto Sans TC' | 'Noto Sans JP' | 'Noto Sans KR';

const HAN_BY_SCRIPT: Readonly<Record<string, CjkFamily>> = {
  hans: 'Noto Sans SC',
  hant: 'Noto Sans TC',
  jpan: 'Noto Sans JP',
  hrkt: 'Noto Sans JP',
  hira: 'Noto Sans JP',
  kana: 'Noto Sans JP',
  kore: 'Noto Sans KR',
  hang: 'Noto Sans KR',
  // Han with Bopomofo, and Bopomofo itself: Taiwan's usage.
  hanb: 'Noto Sans TC',
  bopo: 'Noto Sans TC',
};
const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo']);
// Chinese languages (ISO 639-3 codes under the zh macrolanguage that tags use): Cantonese, Hakka, Min
// Nan, Wu, Xiang, Gan, Min Dong, Jin, Pu-Xian, Min Zhong, Min Bei.
const CHINESE = new Set(['zh', 'yue', 'hak', 'nan', 'wuu', 'hsn', 'gan', 'cdo', 'cjy', 'cpx', 'czo', 'mnp']);

/**
 * The family whose Han forms the language `lang` (BCP 47) uses, or null when it says nothing about
 * them: a script subtag decides (zh-Hant → TC, zh-Hans → SC); else ja → JP, ko → KR, Chinese by
 * region (zh-TW, zh-HK, zh-MO → TC, other zh → SC; the other Chinese languages too, when a region is
 * given), Cantonese (yue) → TC, and Han with Bopomofo (Hanb, Bopo) → TC. Subtags are compared
 * case-insensitively, so ja-JP is ja and zh-hant-hk is Traditional, as CSS :lang() matches.
 */
export function hanFamilyFor(lang: string | undefined): CjkFamily | null {
  if (lang === undefined) return null;
  const [language = '', ...rest] = lang.toLowerCase().split('-');
  // Subtags after a singleton (-u-…, -x-…) are extensions, not script or region.
  const end = rest.findIndex((t) => t.length === 1);
  const subtags = end < 0 ? rest : rest.slice(0, end);
  const script = subtags.find((t) => t.length === 4 && /^[a-z]{4}$/.test(t));
  if (script !== undefined && HAN_BY_SCRIPT[script]) return HAN_BY_SCRIPT[script];
  if (language === 'ja') return 'Noto Sans JP';
  if (language === 'ko') return 'Noto Sans KR';
  if (CHINESE.has(language)) {
    const region = subtags.find((t) => /^([a-z]{2}|\d{3})$/.test(t));
    if (region !== undefined && TRADITIONAL_REGIONS.has(region)) return 'Noto Sans TC';
    // Cantonese is written in Traditional characters wherever it is written; the others follow the region.
    return language === 'yue' ? 'Noto Sans TC' : region !== undefined || language === 'zh' ? 'Noto Sans SC' : null;
  }
  return null;
}

const SCRIPT_NAMES = [...new Set(FALLBACK_FAMILIES.flatMap((f) => f.scripts))].map((name) => ({
  name,
  pattern: new RegExp(`^\\p{Script=${name}}`, 'u'),
  extensions: new RegExp(`^\\p{Script_Extensions=${name}}`, 'u'),
}));

/** The fallback script of a code point: one of the scripts the chain serves, or null. */
function scriptOf(ch: string): string | null {
  return SCRIPT_NAMES.find((s) => s.pattern.test(ch))?.name ?? null;
}

/** Scripts the chain serves that use this script-less character (its Script_Extensions: ।, 、, 。). */
function extensionsOf(ch: string): string[] {
  return SCRIPT_NAMES.filter((s) => s.extensions.test(ch)).map((s) => s.name);
}

const SYMBOLS = ['Noto Sans Symbols', 'Noto Sans Symbols 2', 'Noto Sans Math'];
const NO_SCRIPT = /^[\p{Script=Common}\p{Script=Inherited}]/u;
const CJK_SCRIPTS = new Set(['Han', 'Bopomofo', 'Hiragana', 'Katakana', 'Hangul']);
// Punctuation and symbols made for CJK text whose shape and place in the em box differ by language
// (。 sits in the corner in Japanese and Simplified Chinese, centred in Traditional): CJK Symbols and
// Punctuation, vertical and compatibility forms, Halfwidth and Fullwidth Forms, enclosed CJK.
const CJK_PUNCTUATION = /^[\u3000-\u303f\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef\u3200-\u33ff]/u;

/**
 * Whether the forms of `ch` depend on the CJK language: a Han or Bopomofo character, or CJK punctuation
 * (script-less characters used by the CJK scripts, and the CJK punctuation, compatibility and
 * fullwidth blocks).
 */
export function isHanLike(ch: string): boolean {
  const script = scriptOf(ch);
  if (script === 'Han' || script === 'Bopomofo') return true;
  // Kana, Hangul and the other served scripts have faces of their own.
  if (script !== null) return false;
  // Fullwidth Latin letters (Ｉｍｐｒｉｎｔ) are drawn by the CJK faces too. A script-less character used
  // only with kana (ー, the prolonged sound mark) stays with the kana's face, so a katakana word in a
  // Chinese text is not split between two faces.
  return CJK_PUNCTUATION.test(ch) || (NO_SCRIPT.test(ch) && extensionsOf(ch).some((s) => s === 'Han' || s === 'Bopomofo'));
}

/** Whether `ch` is drawn by the CJK faces: Han-like (isHanLike), kana or Hangul. */
export function isCjk(ch: string): boolean {
  const script = scriptOf(ch);
  return (
    script === 'Hiragana' ||
    script === 'Katakana' ||
    script === 'Hangul' ||
    isHanLike(ch) ||
    (NO_SCRIPT.test(ch) && extensionsOf(ch).some((s) => CJK_SCRIPTS.has(s)))
  );
}

/**
 * The fallback families to try, in order, for a grapheme whose first non-ignorable character is `ch`:
 * its script's families; for CJK, kana → JP and Hangul → KR first, Han and CJK punctuation in the
 * forms of `han` (the text's language, hanFamilyFor) when given, else by the paragraph's hint (kana → JP,
 * Hangul → KR, else SC), then the other CJK faces; for characters of no script, the faces of the scripts
 * that use them (Script_Extensions), then the symbol and math faces, then the emoji face.
 * A script the chain does not serve gets none, so no font is opened in vain.
 */
export function fallbackFamilies(ch: string, hint: CjkHint, han: CjkFamily | null = null): string[] {
  const script = scriptOf(ch);
  const scripts = script !== null ? [script] : NO_SCRIPT.test(ch) ? extensionsOf(ch) : [];
  const out: string[] = [];
  if (han !== null && isHanLike(ch)) out.push(han);
  for (const sc of scripts) {
    if (CJK_SCRIPTS.has(sc)) {
      // The CJK faces share kana and ideographs: the paragraph's language picks the forms.
      const first = hint.japanese || sc === 'Hiragana' || sc === 'Katakana' ? ['Noto Sans JP'] : hint.korean || sc === 'Hangul' ? ['Noto Sans KR'] : [];
      out.push(...first, 'Noto Sans SC', 'Noto Sans TC', 'Noto Sans JP', 'Noto Sans KR');
    } else out.push(...FALLBACK_FAMILIES.filter((f) => f.scripts.includes(sc)).map((f) => f.family));
  }
  if (script === null && NO_SCRIPT.test(ch)) out.push(...SYMBOLS, EMOJI_FAMILY);
  return [...new Set(out)];
}

/** Code points that never need a glyph of their own (joiners, variation selectors, format controls). */
export const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/u;

/** A grapheme drawn with emoji presentation: by default, or asked for with VS16, a keycap or a flag. */
export function isEmojiGrapheme(g: string): boolean {
  return (
    /\p{Emoji_Presentation}|\u{FE0F}|\u{20E3}|\p{Regional_Indicator}|\p{Emoji_Modifier}/u.test(g) ||
    (g.includes('\u200d') && /\p{Extended_Pictographic}/u.test(g))
  );
}
