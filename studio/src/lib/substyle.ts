// The text toolbar's editing of substyle tags (`<substyle bold="700" color="#e4572e">…</substyle>`):
// applies or removes one attribute over the textarea's selection. The service's markup cannot nest
// tags, so the text is read as a flat run of pieces, each with its attributes; the selection's pieces
// get the attribute (or lose it, when they all had it already: the buttons toggle), and the pieces
// are written back with neighbours of equal style merged. The parser and the tag writer are also
// rich-text.ts's, which edits the same markup as runs of styled text. No DOM: unit-tested.

export interface Attr {
  name: string;
  /** null for a bare attribute (`underline`, `italic`). */
  value: string | null;
}

export interface Piece {
  text: string;
  attrs: Attr[];
  /** Where the piece's text starts and ends in the source, and where its whole tag starts and ends. */
  contentStart: number;
  contentEnd: number;
  outerStart: number;
  outerEnd: number;
}

const OPEN = '<substyle';
export const CLOSE = '</substyle>';
const ATTR = /^\s+([a-z_]+)(?:="([^"]*)")?(?=\s|$)/;
/** The order attributes are written in, as the engine's markup lists them; others follow in their order. */
const ORDER = ['bold', 'italic', 'font_family', 'color', 'underline', 'strikethrough', 'link', 'lang'];

function parseAttrs(src: string): Attr[] | undefined {
  const out: Attr[] = [];
  let rest = src;
  while (rest.trim() !== '') {
    const m = ATTR.exec(rest);
    if (!m) return undefined;
    out.push({ name: m[1]!, value: m[2] ?? null });
    rest = rest.slice(m[0].length);
  }
  return out;
}

/** The text as pieces, or undefined when its tags are malformed (the service's own check says where). */
export function parsePieces(source: string): Piece[] | undefined {
  const pieces: Piece[] = [];
  let plainStart = 0;
  let i = 0;
  const plain = (end: number) => {
    if (end > plainStart)
      pieces.push({ text: source.slice(plainStart, end), attrs: [], contentStart: plainStart, contentEnd: end, outerStart: plainStart, outerEnd: end });
  };
  while (i < source.length) {
    if (source.startsWith(CLOSE, i)) return undefined;
    if (!source.startsWith(OPEN, i) || !/[\s>]/.test(source[i + OPEN.length] ?? '')) {
      i++;
      continue;
    }
    plain(i);
    const tagEnd = source.indexOf('>', i);
    if (tagEnd < 0) return undefined;
    const attrs = parseAttrs(source.slice(i + OPEN.length, tagEnd));
    const closeAt = source.indexOf(CLOSE, tagEnd + 1);
    const nextOpen = source.indexOf(OPEN, tagEnd + 1);
    if (!attrs || closeAt < 0 || (nextOpen >= 0 && nextOpen < closeAt)) return undefined;
    pieces.push({
      text: source.slice(tagEnd + 1, closeAt),
      attrs,
      contentStart: tagEnd + 1,
      contentEnd: closeAt,
      outerStart: i,
      outerEnd: closeAt + CLOSE.length,
    });
    i = closeAt + CLOSE.length;
    plainStart = i;
  }
  plain(source.length);
  return pieces;
}

/** The text without its tags: what the render shows. */
export function plainText(source: string): string {
  return (parsePieces(source) ?? []).map((p) => p.text).join('');
}

/** A source offset as an offset in the plain text; an offset inside a tag's markup snaps to its content. */
function toPlain(pieces: Piece[], pos: number, side: 'start' | 'end'): number {
  let plain = 0;
  for (const p of pieces) {
    if (pos < p.outerEnd || (side === 'end' && pos === p.outerEnd)) {
      const inside = Math.min(Math.max(pos, p.contentStart), p.contentEnd) - p.contentStart;
      return plain + inside;
    }
    plain += p.text.length;
  }
  return plain;
}

function sameAttrs(a: Attr[], b: Attr[]): boolean {
  return a.length === b.length && a.every((x) => b.some((y) => y.name === x.name && y.value === x.value));
}

function sorted(attrs: Attr[]): Attr[] {
  const rank = (n: string) => {
    const r = ORDER.indexOf(n);
    return r < 0 ? ORDER.length : r;
  };
  return [...attrs].sort((a, b) => rank(a.name) - rank(b.name));
}

/** The opening tag of a piece with these attributes, written in the one order (rich-text.ts writes with it too). */
export function tag(attrs: Attr[]): string {
  return `<substyle${sorted(attrs)
    .map((a) => (a.value === null ? ` ${a.name}` : ` ${a.name}="${a.value}"`))
    .join('')}>`;
}

export interface Edit {
  text: string;
  /** The selection to restore: the same characters, now styled. */
  start: number;
  end: number;
  /** Why nothing changed (no selection, malformed tags), for the toolbar to say. */
  note?: string;
}

/**
 * Sets `attr` on the selected characters, or removes it when every selected character already has
 * that attribute with that value (`toggle`, the default) — so "Bold" twice gives the text back.
 */
export function applySubstyle(source: string, selStart: number, selEnd: number, attr: Attr, mode: 'toggle' | 'set' = 'toggle'): Edit {
  const [s0, s1] = selStart <= selEnd ? [selStart, selEnd] : [selEnd, selStart];
  const pieces = parsePieces(source);
  if (!pieces) return { text: source, start: s0, end: s1, note: 'the text has a malformed <substyle> tag: fix it first (the preview says where)' };
  const from = toPlain(pieces, s0, 'start');
  const to = toPlain(pieces, s1, 'end');
  if (to <= from) return { text: source, start: s0, end: s1, note: 'select some text first' };
  if (attr.value !== null && attr.value.includes('"')) return { text: source, start: s0, end: s1, note: 'a value cannot contain "' };

  // One piece per character range of equal style, split at the selection's two ends.
  const runs: { text: string; attrs: Attr[]; selected: boolean }[] = [];
  let at = 0;
  for (const p of pieces) {
    const cuts = [0, from - at, to - at, p.text.length].filter((c) => c >= 0 && c <= p.text.length).sort((a, b) => a - b);
    for (let k = 0; k + 1 < cuts.length; k++) {
      const a = cuts[k]!;
      const b = cuts[k + 1]!;
      if (b > a) runs.push({ text: p.text.slice(a, b), attrs: p.attrs, selected: at + a >= from && at + b <= to });
    }
    at += p.text.length;
  }
  const chosen = runs.filter((r) => r.selected);
  const allHave = chosen.every((r) => r.attrs.some((a) => a.name === attr.name && a.value === attr.value));
  const remove = mode === 'toggle' && allHave;
  for (const r of chosen) {
    const rest = r.attrs.filter((a) => a.name !== attr.name);
    r.attrs = remove ? rest : [...rest, attr];
  }

  // Merge equal neighbours, then write the text back, noting where the selected characters land.
  const merged: { text: string; attrs: Attr[]; selFrom?: number; selTo?: number }[] = [];
  let plainAt = 0;
  for (const r of runs) {
    const last = merged[merged.length - 1];
    const selFrom = r.selected ? plainAt : undefined;
    const selTo = r.selected ? plainAt + r.text.length : undefined;
    if (last && sameAttrs(last.attrs, r.attrs)) {
      if (selFrom !== undefined) last.selFrom ??= selFrom;
      if (selTo !== undefined) last.selTo = selTo;
      last.text += r.text;
    } else merged.push({ text: r.text, attrs: r.attrs, ...(selFrom !== undefined ? { selFrom } : {}), ...(selTo !== undefined ? { selTo } : {}) });
    plainAt += r.text.length;
  }
  let out = '';
  let start = -1;
  let end = -1;
  let plain = 0;
  for (const m of merged) {
    const open = m.attrs.length ? tag(m.attrs) : '';
    const contentAt = out.length + open.length;
    if (m.selFrom !== undefined && start < 0) start = contentAt + (m.selFrom - plain);
    if (m.selTo !== undefined) end = contentAt + (m.selTo - plain);
    out += open + m.text + (m.attrs.length ? CLOSE : '');
    plain += m.text.length;
  }
  return { text: out, start, end };
}

/** The attribute of each toolbar button. */
export const BOLD: Attr = { name: 'bold', value: '700' };
export const UNDERLINE: Attr = { name: 'underline', value: null };
export const colourAttr = (hex: string): Attr => ({ name: 'color', value: hex });
export const linkAttr = (url: string): Attr => ({ name: 'link', value: `(url:${url})` });

/** A link the service accepts (http, https or mailto), or a message saying what is wrong. */
export function checkLink(url: string): string | undefined {
  if (!/^(https?:\/\/|mailto:)\S+$/i.test(url.trim())) return 'a link starts with http://, https:// or mailto:';
  if (/[")]/.test(url)) return 'a link cannot contain " or )';
  return undefined;
}
