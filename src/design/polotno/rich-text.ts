// Polotno rich text (the HTML its editor saves in a text element: p, div, br, span, b/strong, i/em, u,
// s/strike/del with inline color, font-family, font-weight, font-style, text-decoration) → styled
// runs. Imprint's substyles never nest, so nested tags are flattened into one style per run.

/** The style of a run, as far as it differs from the element's own. */
export interface RunStyle {
  weight?: number;
  italic?: boolean;
  color?: string;
  family?: string;
  underline?: boolean;
  strikethrough?: boolean;
}

export interface Run {
  text: string;
  style: RunStyle;
}

/** A problem in the markup, with a message that says how to fix it. */
export class RichTextError extends Error {}

const BLOCK = new Set(['p', 'div', 'li']);
const DROPPED = new Set(['style', 'script']);
const VOID = new Set(['br', 'img', 'hr', 'wbr']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** True when the text holds tags that rich-text mode would interpret (plain text is taken as written). */
export function looksLikeRichText(text: string): boolean {
  return /<\/?(p|div|br|span|b|strong|i|em|u|s|strike|del|ul|ol|li)\b[^>]*>/i.test(text);
}

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function parseStyleAttribute(css: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const decl of css.split(';')) {
    const i = decl.indexOf(':');
    if (i < 0) continue;
    out.set(decl.slice(0, i).trim().toLowerCase(), decl.slice(i + 1).trim());
  }
  return out;
}

function attributes(src: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of src.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    out.set(m[1]!.toLowerCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return out;
}

function weightOf(v: string): number | undefined {
  if (v === 'bold' || v === 'bolder') return 700;
  if (v === 'normal' || v === 'lighter') return 400;
  const n = Number(v);
  return Number.isInteger(n) && n >= 100 && n <= 900 ? n : undefined;
}

/** A tag's effect on the style of the text inside it. */
function styleOfTag(tag: string, attrs: Map<string, string>, base: RunStyle): RunStyle {
  const s: RunStyle = { ...base };
  if (tag === 'b' || tag === 'strong') s.weight = 700;
  if (tag === 'i' || tag === 'em') s.italic = true;
  if (tag === 'u') s.underline = true;
  if (tag === 's' || tag === 'strike' || tag === 'del') s.strikethrough = true;
  const css = attrs.get('style');
  if (css === undefined) return s;
  for (const [prop, value] of parseStyleAttribute(css)) {
    switch (prop) {
      case 'color':
        s.color = value;
        break;
      case 'font-family':
        s.family = value
          .split(',')[0]!
          .trim()
          .replace(/^["']|["']$/g, '');
        break;
      case 'font-weight': {
        const w = weightOf(value.toLowerCase());
        if (w === undefined) throw new RichTextError(`font-weight "${value}" in the rich text is not a weight: use normal, bold or 100-900`);
        s.weight = w;
        break;
      }
      case 'font-style':
        s.italic = value.toLowerCase() === 'italic' || value.toLowerCase() === 'oblique';
        break;
      case 'text-decoration':
      case 'text-decoration-line': {
        const v = value.toLowerCase();
        if (v.includes('underline')) s.underline = true;
        if (v.includes('line-through')) s.strikethrough = true;
        if (v === 'none') {
          s.underline = false;
          s.strikethrough = false;
        }
        break;
      }
      case 'font-size':
        throw new RichTextError(
          `font-size "${value}" inside the rich text is not supported (a text object has one size, which fit may shrink): set the element's fontSize instead and remove font-size from the span`,
        );
      default:
        // Layout-neutral properties the editor writes (e.g. white-space) change nothing that is drawn.
        break;
    }
  }
  return s;
}

/**
 * Runs of the HTML with their styles; block elements become line breaks. Lists are refused: their
 * bullets and indents are not part of Imprint's text model.
 */
export function parseRichText(html: string): Run[] {
  const runs: Run[] = [];
  const stack: { tag: string; style: RunStyle }[] = [{ tag: '#root', style: {} }];
  let dropping = 0;
  // Browsers' rule: a block starts and ends on a line of its own; <br> always breaks.
  let endsWithBreak = true;
  let closedBlockLast = false;
  const emit = (text: string): void => {
    if (text === '') return;
    const style = stack[stack.length - 1]!.style;
    const last = runs[runs.length - 1];
    if (last && sameStyle(last.style, style)) last.text += text;
    else runs.push({ text, style: { ...style } });
    endsWithBreak = text.endsWith('\n');
    closedBlockLast = false;
  };
  const blockEdge = (): void => {
    if (!endsWithBreak) emit('\n');
  };
  // Linear: the attribute part is one [^>]* run (nested or overlapping repetition here would backtrack
  // for ever on a long run of spaces); a closing "/" is found by hand.
  const re = /<!--[\s\S]*?-->|<\/?([a-zA-Z][\w-]*)([^>]*)>|([^<]+)|(<)/g;
  for (const m of html.matchAll(re)) {
    const [whole, rawTag, rawAttrs, text, lone] = m;
    const attrSrc = rawAttrs?.trimEnd().replace(/\/$/, '');
    const selfClose = rawAttrs?.trimEnd().endsWith('/') ? '/' : '';
    if (whole.startsWith('<!--')) continue;
    if (text !== undefined || lone !== undefined) {
      if (dropping === 0) emit(decodeEntities(text ?? lone!));
      continue;
    }
    const tag = rawTag!.toLowerCase();
    const closing = whole.startsWith('</');
    if (DROPPED.has(tag)) {
      dropping = Math.max(0, dropping + (closing ? -1 : 1));
      continue;
    }
    if (dropping > 0) continue;
    if (tag === 'ul' || tag === 'ol') {
      throw new RichTextError('lists (<ul>, <ol>) in rich text are not supported: write the items as lines of text (for example with "• " in front)');
    }
    if (tag === 'br') {
      emit('\n');
      continue;
    }
    if (VOID.has(tag) || selfClose === '/') continue;
    if (closing) {
      const i = stack.map((s) => s.tag).lastIndexOf(tag);
      if (i > 0) stack.length = i;
      if (BLOCK.has(tag) && runs.length > 0) {
        blockEdge();
        closedBlockLast = true;
      }
      continue;
    }
    if (BLOCK.has(tag) && runs.length > 0) blockEdge();
    stack.push({ tag, style: styleOfTag(tag, attributes(attrSrc ?? ''), stack[stack.length - 1]!.style) });
  }
  // The break after the last block is not a line of its own.
  const last = runs[runs.length - 1];
  if (last && closedBlockLast && last.text.endsWith('\n')) last.text = last.text.slice(0, -1);
  return runs.filter((r) => r.text !== '');
}

function sameStyle(a: RunStyle, b: RunStyle): boolean {
  return (
    a.weight === b.weight &&
    a.italic === b.italic &&
    a.color === b.color &&
    a.family === b.family &&
    a.underline === b.underline &&
    a.strikethrough === b.strikethrough
  );
}
