// Substyle markup: `<substyle bold="700" italic font_family="Lora" color="#hex" underline strikethrough link="(url:…)" lang="ja">…</substyle>`,
// never nested, parsed into styled spans. Anything that is not a substyle tag is literal text.
import { HEX_COLOR, HEX_COLOR_HINT } from '../format/color.js';
import { canonicalLang, LANG_HINT } from '../format/lang.js';

export interface SpanStyle {
  weight?: number;
  italic?: boolean;
  /** A font family other than the object's (checked against the design's fonts by the object). */
  family?: string;
  color?: string;
  underline?: boolean;
  strikethrough?: boolean;
  link?: string;
  /** The span's language (BCP 47, canonical), when it differs from the object's. */
  lang?: string;
}

export interface Span {
  text: string;
  style: SpanStyle;
}

export class MarkupError extends Error {
  /** 0-based character offset in the source text. */
  readonly offset: number;
  constructor(offset: number, message: string) {
    super(`${message} (at character ${offset + 1})`);
    this.offset = offset;
  }
}

const OPEN = '<substyle';
const CLOSE = '</substyle>';
const ATTR = /^\s+([a-z_]+)(?:="([^"]*)")?(?=\s|$)/;
const LINK = /^\(url:(.+)\)$/;
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

function parseAttributes(src: string, offset: number): SpanStyle {
  const style: SpanStyle = {};
  let rest = src;
  let pos = offset;
  while (rest.trim().length > 0) {
    const m = ATTR.exec(rest);
    if (!m) throw new MarkupError(pos, 'malformed substyle attribute: write attributes as name="value" in double quotes, separated by spaces');
    const [whole, name, value] = m as unknown as [string, string, string | undefined];
    switch (name) {
      case 'bold': {
        const weight = Number(value);
        if (value === undefined || !/^\d{1,4}$/.test(value) || weight < 100 || weight > 900) {
          throw new MarkupError(
            pos,
            `bold needs a numeric weight from 100 to 900 such as bold="700", received ${value === undefined ? 'no value' : JSON.stringify(value)}`,
          );
        }
        style.weight = weight;
        break;
      }
      case 'italic':
        if (value !== undefined) throw new MarkupError(pos, 'italic is a bare attribute: write <substyle italic>, without a value');
        style.italic = true;
        break;
      case 'font_family':
        if (value === undefined || value.trim() === '') throw new MarkupError(pos, 'font_family needs a family name such as font_family="Lora"');
        style.family = value;
        break;
      case 'color':
        if (value === undefined || !HEX_COLOR.test(value)) {
          throw new MarkupError(pos, `substyle color: ${HEX_COLOR_HINT}, received ${value === undefined ? 'no value' : JSON.stringify(value)}`);
        }
        style.color = value;
        break;
      case 'underline':
        if (value !== undefined) throw new MarkupError(pos, 'underline is a bare attribute: write <substyle underline>, without a value');
        style.underline = true;
        break;
      case 'strikethrough':
        if (value !== undefined) throw new MarkupError(pos, 'strikethrough is a bare attribute: write <substyle strikethrough>, without a value');
        style.strikethrough = true;
        break;
      case 'link': {
        const url = value === undefined ? undefined : LINK.exec(value)?.[1];
        if (url === undefined) throw new MarkupError(pos, 'link must look like link="(url:https://example.com)"');
        if (!SAFE_LINK.test(url)) throw new MarkupError(pos, `link URL must start with http://, https:// or mailto:, received ${JSON.stringify(url)}`);
        style.link = url;
        break;
      }
      case 'lang': {
        const lang = value === undefined ? null : canonicalLang(value);
        if (lang === null) throw new MarkupError(pos, `substyle lang: ${LANG_HINT}, received ${value === undefined ? 'no value' : JSON.stringify(value)}`);
        style.lang = lang;
        break;
      }
      default:
        throw new MarkupError(pos, `unknown substyle attribute "${name}": use bold, italic, font_family, color, underline, strikethrough, link or lang`);
    }
    rest = rest.slice(whole.length);
    pos += whole.length;
  }
  return style;
}

/** Splits text into spans. Throws MarkupError on nested, unclosed or stray tags and bad attributes. */
export function parseMarkup(source: string): Span[] {
  const spans: Span[] = [];
  let i = 0;
  let plainStart = 0;
  const pushPlain = (end: number): void => {
    if (end > plainStart) spans.push({ text: source.slice(plainStart, end), style: {} });
  };
  while (i < source.length) {
    if (source.startsWith(CLOSE, i)) throw new MarkupError(i, '</substyle> without a matching <substyle …>: remove it or add the opening tag');
    if (!source.startsWith(OPEN, i) || !/[\s>]/.test(source[i + OPEN.length] ?? '')) {
      i++;
      continue;
    }
    pushPlain(i);
    const tagEnd = source.indexOf('>', i);
    if (tagEnd < 0) throw new MarkupError(i, 'unterminated <substyle tag: close it with >');
    const style = parseAttributes(source.slice(i + OPEN.length, tagEnd), i + OPEN.length);
    const closeAt = source.indexOf(CLOSE, tagEnd + 1);
    const nextOpen = source.indexOf(OPEN, tagEnd + 1);
    if (nextOpen >= 0 && (closeAt < 0 || nextOpen < closeAt)) {
      throw new MarkupError(nextOpen, 'substyle tags cannot be nested: close the first </substyle> before opening another');
    }
    if (closeAt < 0) throw new MarkupError(i, '<substyle> is never closed: add </substyle>');
    const inner = source.slice(tagEnd + 1, closeAt);
    if (inner.length > 0) spans.push({ text: inner, style });
    i = closeAt + CLOSE.length;
    plainStart = i;
  }
  pushPlain(source.length);
  return mergeAdjacent(spans);
}

function mergeAdjacent(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && Object.keys(last.style).length === 0 && Object.keys(s.style).length === 0) last.text += s.text;
    else out.push({ text: s.text, style: s.style });
  }
  return out;
}
