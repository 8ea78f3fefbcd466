// A text object's markup (`Summer <substyle bold="700" color="#e53935">sale</substyle>`) as runs of
// styled text, so the editor shows formatting buttons and never tags: markup → runs → markup is
// stable (normalised: one attribute order, equal neighbours merged, empty tags dropped) and keeps
// every attribute the engine's substyle has (bold's weight, italic, font_family, color, underline,
// strikethrough, link, lang). Formats apply to a range of the plain text; typing takes the style of
// the character before the caret. The markup is read by substyle.ts's parser. No DOM.
import { checkLink, CLOSE, parsePieces, tag, type Attr } from './substyle.js';

/** How a run differs from its text object. Absent = as the object says. */
export interface RunStyle {
  /** The weight (markup `bold="<weight>"`), 100-900. */
  font_weight?: number;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  /** A hex colour. */
  color?: string;
  /** The URL the run links to (markup `link="(url:<url>)"`): http(s) or mailto. */
  link?: string;
  /** A family of the design's fonts. */
  font_family?: string;
  /** The run's language (BCP 47), when it differs from the object's. */
  lang?: string;
}

export interface Run {
  text: string;
  style: RunStyle;
}

/** The object's own settings a run falls back on: what "bold" means for a run without a weight. */
export interface BaseStyle {
  font_weight?: number;
}

export type Parsed = { ok: true; runs: Run[] } | { ok: false; message: string };

/** The engine's colour syntax (src/format/color.ts HEX_COLOR; the tests hold the two equal). */
export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const LANG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const LINK = /^\(url:(.+)\)$/;
/** From this weight on a run counts as bold (CSS's "bolder" threshold). */
export const BOLD_FROM = 600;
export const BOLD_WEIGHT = 700;

const KEYS = ['font_weight', 'italic', 'underline', 'strikethrough', 'color', 'link', 'font_family', 'lang'] as const satisfies readonly (keyof RunStyle)[];

/** A style without its false or empty entries, in one key order: what equal styles compare by. */
function clean(style: RunStyle): RunStyle {
  const out: RunStyle = {};
  for (const k of KEYS) {
    const v = style[k];
    if (v === undefined || v === false || v === '') continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

const sameStyle = (a: RunStyle, b: RunStyle): boolean => {
  const ca = clean(a);
  const cb = clean(b);
  return KEYS.every((k) => ca[k] === cb[k]);
};

/** Runs without empty ones, with clean styles and equal neighbours merged. */
export function normalizeRuns(runs: readonly Run[]): Run[] {
  const out: Run[] = [];
  for (const r of runs) {
    if (r.text === '') continue;
    const last = out[out.length - 1];
    if (last && sameStyle(last.style, r.style)) last.text += r.text;
    else out.push({ text: r.text, style: clean(r.style) });
  }
  return out;
}

function styleOf(attrs: readonly Attr[]): RunStyle | string {
  const style: RunStyle = {};
  for (const { name, value } of attrs) {
    switch (name) {
      case 'bold': {
        const weight = Number(value);
        if (value === null || !/^\d{1,4}$/.test(value) || weight < 100 || weight > 900) return `bold needs a weight from 100 to 900 such as bold="700"`;
        style.font_weight = weight;
        break;
      }
      case 'italic':
      case 'underline':
      case 'strikethrough':
        if (value !== null) return `${name} is a bare attribute: write <substyle ${name}>, without a value`;
        style[name] = true;
        break;
      case 'font_family':
        if (value === null || value.trim() === '') return 'font_family needs a family name such as font_family="Lora"';
        style.font_family = value;
        break;
      case 'color':
        if (value === null || !HEX_COLOR.test(value)) return `substyle color needs a hex colour such as "#ff8800", received ${JSON.stringify(value)}`;
        style.color = value;
        break;
      case 'link': {
        const url = value === null ? undefined : LINK.exec(value)?.[1];
        if (url === undefined || checkLink(url) !== undefined) return 'link must look like link="(url:https://example.com)"';
        style.link = url;
        break;
      }
      case 'lang':
        if (value === null || !LANG.test(value)) return `substyle lang needs a language tag such as "ja" or "zh-Hant", received ${JSON.stringify(value)}`;
        style.lang = value;
        break;
      default:
        return `unknown substyle attribute "${name}": use bold, italic, font_family, color, underline, strikethrough, link or lang`;
    }
  }
  return style;
}

/** The markup as runs; or, for malformed markup, what is wrong (the engine's own check says where). */
export function parseRich(markup: string): Parsed {
  const pieces = parsePieces(markup);
  if (!pieces) return { ok: false, message: 'the text has a malformed or nested <substyle> tag: fix it in the JSON first' };
  const runs: Run[] = [];
  for (const p of pieces) {
    const style = styleOf(p.attrs);
    if (typeof style === 'string') return { ok: false, message: style };
    runs.push({ text: p.text, style });
  }
  return { ok: true, runs: normalizeRuns(runs) };
}

function attrsOf(style: RunStyle): Attr[] {
  const s = clean(style);
  const out: Attr[] = [];
  if (s.font_weight !== undefined) out.push({ name: 'bold', value: String(s.font_weight) });
  if (s.italic) out.push({ name: 'italic', value: null });
  if (s.font_family !== undefined) out.push({ name: 'font_family', value: s.font_family });
  if (s.color !== undefined) out.push({ name: 'color', value: s.color });
  if (s.underline) out.push({ name: 'underline', value: null });
  if (s.strikethrough) out.push({ name: 'strikethrough', value: null });
  if (s.link !== undefined) out.push({ name: 'link', value: `(url:${s.link})` });
  if (s.lang !== undefined) out.push({ name: 'lang', value: s.lang });
  return out;
}

/** The runs as markup: plain runs as they are, styled ones in one tag each (attributes in one order). */
export function toMarkup(runs: readonly Run[]): string {
  return normalizeRuns(runs)
    .map((r) => {
      const attrs = attrsOf(r.style);
      return attrs.length === 0 ? r.text : `${tag(attrs)}${r.text}${CLOSE}`;
    })
    .join('');
}

export const plainOf = (runs: readonly Run[]): string => runs.map((r) => r.text).join('');

export type Edited = { ok: true; runs: Run[] } | { ok: false; message: string };

/**
 * The runs, if their markup reads back as the same runs: the engine's markup has no escapes, so a
 * text holding `</substyle>` (or `<substyle ` inside a styled run) cannot be written.
 */
function written(runs: Run[]): Edited {
  const norm = normalizeRuns(runs);
  const back = parseRich(toMarkup(norm));
  const same = back.ok && back.runs.length === norm.length && back.runs.every((r, i) => r.text === norm[i]!.text && sameStyle(r.style, norm[i]!.style));
  return same ? { ok: true, runs: norm } : { ok: false, message: 'the text cannot hold "<substyle" or "</substyle>": the markup has no way to write them' };
}

/** An offset clamped into the text and moved off the middle of a surrogate pair (an emoji is one character). */
function offset(text: string, at: number, side: 'start' | 'end'): number {
  let i = Math.min(Math.max(0, Math.round(Number.isFinite(at) ? at : 0)), text.length);
  const code = text.charCodeAt(i);
  if (i > 0 && i < text.length && code >= 0xdc00 && code <= 0xdfff) i += side === 'end' ? 1 : -1;
  return i;
}

/** The range as [start, end] in order, clamped. */
function range(runs: readonly Run[], start: number, end: number): [number, number] {
  const text = plainOf(runs);
  const [a, b] = start <= end ? [start, end] : [end, start];
  return [offset(text, a, 'start'), offset(text, b, 'end')];
}

/** The runs cut at `at`: every run lies wholly before or after it. */
function split(runs: readonly Run[], at: number): Run[] {
  const out: Run[] = [];
  let pos = 0;
  for (const r of runs) {
    const end = pos + r.text.length;
    if (at > pos && at < end) out.push({ text: r.text.slice(0, at - pos), style: r.style }, { text: r.text.slice(at - pos), style: r.style });
    else out.push(r);
    pos = end;
  }
  return out;
}

/** Calls `f` with each run's start offset; runs are cut at `start` and `end` first. */
function eachIn(runs: readonly Run[], start: number, end: number): { runs: Run[]; inside: (pos: number, r: Run) => boolean } {
  const cut = split(split(runs, start), end);
  return { runs: cut, inside: (pos, r) => pos >= start && pos + r.text.length <= end && r.text.length > 0 };
}

/** A change of format: a value sets, null removes; `bold` sets or clears the weight (see BaseStyle). */
export interface FormatChange {
  bold?: boolean;
  font_weight?: number | null;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  color?: string | null;
  link?: string | null;
  font_family?: string | null;
  lang?: string | null;
}

/** Why a change cannot be written, or undefined. */
function checkChange(change: FormatChange): string | undefined {
  const w = change.font_weight;
  if (w !== undefined && w !== null && !(Number.isInteger(w) && w >= 100 && w <= 900)) return 'a weight is a whole number from 100 to 900';
  if (change.color !== undefined && change.color !== null && !HEX_COLOR.test(change.color)) return 'a colour is a hex colour such as #e53935';
  if (change.link !== undefined && change.link !== null) {
    const bad = checkLink(change.link);
    if (bad) return bad;
    if (change.link.includes('>')) return 'a link cannot contain >';
  }
  const family = change.font_family;
  if (family !== undefined && family !== null && (family.trim() === '' || /["<>]/.test(family))) return 'a font family is a name without ", < or >';
  if (change.lang !== undefined && change.lang !== null && !LANG.test(change.lang)) return 'a language is a tag such as ja, en-US or zh-Hant';
  return undefined;
}

/** A style with a change applied. */
export function withFormat(style: RunStyle, change: FormatChange, base: BaseStyle = {}): RunStyle {
  const out: RunStyle = { ...style };
  const set = <K extends keyof RunStyle>(k: K, v: RunStyle[K] | null | undefined) => {
    if (v === undefined) return;
    if (v === null || v === false) delete out[k];
    else out[k] = v;
  };
  if (change.bold !== undefined) {
    const baseBold = (base.font_weight ?? 400) >= BOLD_FROM;
    // Bold on a bold object is its own weight; bold off on a bold object needs a weight to undo it.
    if (change.bold) set('font_weight', baseBold ? null : BOLD_WEIGHT);
    else set('font_weight', baseBold ? 400 : null);
  }
  set('font_weight', change.font_weight);
  set('italic', change.italic);
  set('underline', change.underline);
  set('strikethrough', change.strikethrough);
  set('color', change.color);
  set('link', change.link?.trim() ?? change.link);
  set('font_family', change.font_family);
  set('lang', change.lang);
  return clean(out);
}

/** Applies a format to the characters from `start` to `end` (plain-text offsets). */
export function applyFormat(runs: readonly Run[], start: number, end: number, change: FormatChange, base: BaseStyle = {}): Edited {
  const bad = checkChange(change);
  if (bad) return { ok: false, message: bad };
  const [a, b] = range(runs, start, end);
  if (b <= a) return { ok: false, message: 'select some text first' };
  const { runs: cut, inside } = eachIn(runs, a, b);
  let pos = 0;
  const out = cut.map((r) => {
    const next = inside(pos, r) ? { text: r.text, style: withFormat(r.style, change, base) } : r;
    pos += r.text.length;
    return next;
  });
  return written(out);
}

/** Whether a style is bold, given the object's own weight. */
export const isBold = (style: RunStyle, base: BaseStyle = {}): boolean => (style.font_weight ?? base.font_weight ?? 400) >= BOLD_FROM;

export type Toggle = 'bold' | 'italic' | 'underline' | 'strikethrough';

/** A toolbar button: on for the range when any of it lacks the format, off when all of it has it. */
export function toggleFormat(runs: readonly Run[], start: number, end: number, format: Toggle, base: BaseStyle = {}): Edited {
  const state = formatOf(runs, start, end, base)[format];
  return applyFormat(runs, start, end, { [format]: state !== true }, base);
}

/** A value the whole range shares, or 'mixed'. */
export type Uniform<T> = T | 'mixed';

/** What the toolbar shows for a range: each format as the whole range has it, or 'mixed'. */
export interface FormatState {
  bold: Uniform<boolean>;
  italic: Uniform<boolean>;
  underline: Uniform<boolean>;
  strikethrough: Uniform<boolean>;
  /** null: the object's own. */
  font_weight: Uniform<number | null>;
  color: Uniform<string | null>;
  link: Uniform<string | null>;
  font_family: Uniform<string | null>;
  lang: Uniform<string | null>;
}

/** The style typing at `at` would get: the character's before it (the first character's at the start). */
export function styleAt(runs: readonly Run[], at: number): RunStyle {
  const [a] = range(runs, at, at);
  let pos = 0;
  for (const r of runs) {
    const end = pos + r.text.length;
    if (a > pos && a <= end) return clean(r.style);
    pos = end;
  }
  return clean(runs.find((r) => r.text.length > 0)?.style ?? {});
}

/** The toolbar's state for a range; for a caret (start = end), the style typing there gets. */
export function formatOf(runs: readonly Run[], start: number, end: number, base: BaseStyle = {}): FormatState {
  const [a, b] = range(runs, start, end);
  const styles: RunStyle[] = [];
  if (b <= a) styles.push(styleAt(runs, a));
  else {
    const { runs: cut, inside } = eachIn(runs, a, b);
    let pos = 0;
    for (const r of cut) {
      if (inside(pos, r)) styles.push(clean(r.style));
      pos += r.text.length;
    }
  }
  const uniform = <T>(f: (s: RunStyle) => T): Uniform<T> => {
    const first = f(styles[0] ?? {});
    return styles.every((s) => f(s) === first) ? first : 'mixed';
  };
  return {
    bold: uniform((s) => isBold(s, base)),
    italic: uniform((s) => s.italic === true),
    underline: uniform((s) => s.underline === true),
    strikethrough: uniform((s) => s.strikethrough === true),
    font_weight: uniform((s) => s.font_weight ?? null),
    color: uniform((s) => s.color ?? null),
    link: uniform((s) => s.link ?? null),
    font_family: uniform((s) => s.font_family ?? null),
    lang: uniform((s) => s.lang ?? null),
  };
}

/** The style of the character at `i`: the first one typed over when a selection is replaced. */
function styleOfChar(runs: readonly Run[], i: number): RunStyle {
  let pos = 0;
  for (const r of runs) {
    if (i >= pos && i < pos + r.text.length) return clean(r.style);
    pos += r.text.length;
  }
  return styleAt(runs, i);
}

/**
 * Replaces the characters from `start` to `end` with `text` (typing, pasting, deleting with text
 * ""): the new text takes `style`, by default that of the first character replaced, or for a caret
 * that of the character before it (styleAt), as word processors do.
 */
export function replaceText(runs: readonly Run[], start: number, end: number, text: string, style?: RunStyle): Edited {
  const [a, b] = range(runs, start, end);
  const typed = style ?? (b > a ? styleOfChar(runs, a) : styleAt(runs, a));
  const cut = split(split(runs, a), b);
  const out: Run[] = [];
  let pos = 0;
  let placed = false;
  for (const r of cut) {
    if (!placed && pos >= a) {
      out.push({ text, style: typed });
      placed = true;
    }
    if (pos + r.text.length <= a || pos >= b) out.push(r);
    pos += r.text.length;
  }
  if (!placed) out.push({ text, style: typed });
  return written(out);
}

export const insertText = (runs: readonly Run[], at: number, text: string, style?: RunStyle): Edited => replaceText(runs, at, at, text, style);
export const deleteText = (runs: readonly Run[], start: number, end: number): Edited => replaceText(runs, start, end, '');

/** Applies a format to a range of markup's plain text, markup in and out: for a caller that keeps the markup. */
export function formatMarkup(
  markup: string,
  start: number,
  end: number,
  change: FormatChange,
  base: BaseStyle = {},
): { ok: true; markup: string } | { ok: false; message: string } {
  const parsed = parseRich(markup);
  if (!parsed.ok) return parsed;
  const edited = applyFormat(parsed.runs, start, end, change, base);
  return edited.ok ? { ok: true, markup: toMarkup(edited.runs) } : edited;
}
