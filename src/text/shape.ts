// Shaping: styled spans → paragraphs of clusters with advances in em, via HarfBuzz (kerning,
// ligatures, GSUB/GPOS). Shaped once per text object; any font size is a linear scale of it.
import type LineBreakerClass from 'linebreak';
import { lazyRequire } from '../lazy-require.js';
import type { PositionedGlyph } from '../scene/display-list.js';
import type { SceneSpan } from '../scene/scene.js';
import { embeddingLevels, needsBidi, type Direction } from './bidi.js';
import type { FontFace, FontStyle } from './faces.js';
import type { FontSet } from './fonts.js';
import { graphemes, itemize, type SpanFaces } from './itemize.js';

// linebreak decodes its Unicode tables when loaded: on first use, not at `import 'imprint'`.
const LineBreaker = lazyRequire<typeof LineBreakerClass>('linebreak');

export interface ShapedGlyph {
  id: number;
  /** Advance and offsets in em. */
  advance: number;
  dx: number;
  dy: number;
}

/** The smallest unit that line breaking may split: one or more characters drawn by its glyphs. */
export interface Cluster {
  /** UTF-16 range in the paragraph text. */
  start: number;
  end: number;
  /** Advance in em, letter spacing included. */
  advance: number;
  glyphs: ShapedGlyph[];
  /** Index of the span the cluster came from. */
  span: number;
  face: FontFace;
  whitespace: boolean;
  /** Bidi embedding level (odd: right to left; its glyphs are in visual order). */
  level: number;
}

export interface BreakOpportunity {
  /** A line may end before this cluster index. */
  cluster: number;
  required: boolean;
}

export interface ShapedParagraph {
  text: string;
  clusters: Cluster[];
  /** Allowed line ends by UAX #14, ascending; the paragraph end is always last. */
  breaks: BreakOpportunity[];
  /** The paragraph's base direction: 0 left to right, 1 right to left. */
  level: number;
  /** Each family, weight and style its spans asked for, with the face the set gave (CSS matching, or a fallback family). */
  faces: readonly { family: string; weight: number; style: FontStyle; face: FontFace }[];
}

const WHITESPACE = /^\s+$/u;

function shapePiece(
  text: string,
  face: FontFace,
  level: number,
  offset: number,
  letterSpacing: number,
  lang: string | undefined,
  byGrapheme = false,
): Cluster[] {
  const span = 0;
  const run = face.shaper.layout(text, { direction: level % 2 === 1 ? 'rtl' : 'ltr', ...(lang === undefined ? {} : { language: lang }) });
  const em = face.unitsPerEm;
  const clusters: Cluster[] = [];
  let pos = 0;
  run.glyphs.forEach((g, i) => {
    const p = run.positions[i]!;
    const glyph: ShapedGlyph = { id: g.id, advance: p.xAdvance / em, dx: p.xOffset / em, dy: p.yOffset / em };
    const length = g.codePoints.reduce((n, cp) => n + (cp > 0xffff ? 2 : 1), 0);
    const last = clusters[clusters.length - 1];
    // Glyphs that consume no characters (marks, decomposition) belong to the previous cluster.
    if (length === 0 && last) {
      last.glyphs.push(glyph);
      last.advance += glyph.advance;
      return;
    }
    const slice = text.slice(pos, pos + length);
    clusters.push({
      start: offset + pos,
      end: offset + pos + length,
      advance: glyph.advance + letterSpacing,
      glyphs: [glyph],
      span,
      face,
      whitespace: WHITESPACE.test(slice),
      level,
    });
    pos += length;
  });
  if (pos === text.length) return clusters;
  if (byGrapheme) {
    // One grapheme: whatever the glyphs claim, together they draw exactly this text.
    const glyphs = clusters.flatMap((c) => c.glyphs);
    const advance = glyphs.reduce((n, g) => n + g.advance, 0) + letterSpacing;
    return [{ start: offset, end: offset + text.length, advance, glyphs, span, face, whitespace: WHITESPACE.test(text), level }];
  }
  // The glyphs claimed a different number of characters than the text has (a glyph shared by code
  // points of different lengths): shape grapheme by grapheme instead, exact at the cost of kerning
  // across graphemes, rather than misplace characters.
  const out: Cluster[] = [];
  for (const { segment, index } of graphemes().segment(text)) {
    const sub = shapePiece(segment, face, level, offset + index, letterSpacing, lang, true);
    const first = sub[0];
    if (!first) continue;
    out.push({ ...first, end: offset + index + segment.length, glyphs: sub.flatMap((c) => c.glyphs), advance: sub.reduce((n, c) => n + c.advance, 0) });
  }
  return out;
}

// Templates re-render the same fixed texts (labels, brand lines) with every request, so shaped runs
// are kept per face, keyed by direction, letter spacing, language and text. Bounded; oldest entries go first.
const SHAPE_CACHE_ENTRIES = 4096;
const shapeCache = new WeakMap<FontFace, Map<string, Cluster[]>>();

function shapeCached(text: string, face: FontFace, level: number, offset: number, letterSpacing: number, lang: string | undefined): Cluster[] {
  let cache = shapeCache.get(face);
  if (!cache) shapeCache.set(face, (cache = new Map()));
  const key = `${level}\u0000${letterSpacing}\u0000${lang ?? ''}\u0000${text}`;
  let clusters = cache.get(key);
  if (!clusters) {
    clusters = shapePiece(text, face, level, 0, letterSpacing, lang);
    if (cache.size >= SHAPE_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, clusters);
  }
  return clusters.map((c) => ({ ...c, start: c.start + offset, end: c.end + offset }));
}

/** A paragraph of spans' text: its pieces say which span each range of it comes from. */
interface Paragraph {
  text: string;
  pieces: { start: number; end: number; span: number }[];
}

/** The spans' text split into paragraphs at \n (and \r\n, \r). */
function paragraphsOf(spans: readonly SceneSpan[]): Paragraph[] {
  const paragraphs: Paragraph[] = [{ text: '', pieces: [] }];
  spans.forEach((span, spanIndex) => {
    span.text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .forEach((piece, i) => {
        if (i > 0) paragraphs.push({ text: '', pieces: [] });
        const para = paragraphs[paragraphs.length - 1]!;
        if (piece.length === 0) return;
        para.pieces.push({ start: para.text.length, end: para.text.length + piece.length, span: spanIndex });
        para.text += piece;
      });
  });
  return paragraphs;
}

/** The span a paragraph's UTF-16 offset is in. */
function spanIndexAt({ pieces }: Paragraph, offset: number): number {
  for (const p of pieces) if (offset < p.end) return p.span;
  return pieces[pieces.length - 1]?.span ?? 0;
}

// Only the text and where the face or language changes (family, weight, style, lang) decide the
// shaping: colour, underline and link do not.
function spanFace(s: SceneSpan, family: string, lang: string | undefined): SpanFace {
  const spanLang = s.lang ?? lang;
  return { family: s.family ?? family, weight: s.weight, style: s.style ?? 'normal', ...(spanLang === undefined ? {} : { lang: spanLang }) };
}

/**
 * Splits spans into paragraphs at \n and shapes each paragraph in runs of one face, bidi level and
 * language (itemize.ts): runs cross span boundaries, so a span that changes only colour, underline or
 * link keeps kerning and ligatures with its neighbours; each cluster then takes the span of its first
 * character. `lang` (BCP 47) is the text's language, which a span's own `lang` overrides: it picks the
 * forms of Han characters and is the shaper's language; default none.
 */
export function shapeParagraphs(
  spans: readonly SceneSpan[],
  family: string,
  fonts: FontSet,
  letterSpacing: number,
  direction: Direction = 'auto',
  lang?: string,
): ShapedParagraph[] {
  return paragraphsOf(spans).map((para) => {
    const { text, pieces } = para;
    const faceOf = (s: SceneSpan): SpanFace => spanFace(s, family, lang);
    const faceKey = (f: SpanFace) => `${f.family}:${f.weight}:${f.style}:${f.lang ?? ''}`;
    const key = `${direction}\u0000${letterSpacing}\u0000${lang ?? ''}\u0000${pieces.map((p) => `${p.end}:${faceKey(faceOf(spans[p.span]!))}`).join(',')}\u0000${text}`;
    let shaped = paragraphCache(fonts).get(key);
    if (!shaped) {
      shaped = shapeParagraph(text, (offset) => faceOf(spans[spanIndexAt(para, offset)]!), fonts, letterSpacing, direction, lang);
      const cache = paragraphCache(fonts);
      if (cache.size >= SHAPE_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(key, shaped);
    }
    return { ...shaped, clusters: shaped.clusters.map((c) => ({ ...c, span: spanIndexAt(para, c.start) })) };
  });
}

/**
 * The faces shapeParagraphs draws these spans with: its itemization, without shaping. Asking for them
 * reads every font file the text needs (the faces itemization looks at, and the family's regular
 * face layout measures lines by), so the assets stage does that reading and layout none.
 */
export function textFaces(spans: readonly SceneSpan[], family: string, fonts: FontSet, lang?: string): FontFace[] {
  const out = new Set<FontFace>([fonts.face(family, 400)]);
  for (const para of paragraphsOf(spans)) {
    const { spanAt } = spanFaces(fonts, (offset) => spanFace(spans[spanIndexAt(para, offset)]!, family, lang));
    for (const run of itemize(para.text, spanAt, null)) out.add(run.face);
  }
  return [...out];
}

// Whole paragraphs are kept too (itemization looks at every character), per font set.
const paragraphCaches = new WeakMap<FontSet, Map<string, ShapedParagraph>>();
function paragraphCache(fonts: FontSet): Map<string, ShapedParagraph> {
  let cache = paragraphCaches.get(fonts);
  if (!cache) paragraphCaches.set(fonts, (cache = new Map()));
  return cache;
}

/** What a span asks of the fonts: its family (a substyle's font_family, else the object's), weight, style and language. */
interface SpanFace {
  family: string;
  weight: number;
  style: FontStyle;
  lang?: string;
}

/** The faces of each span face asked for, made once per paragraph, and the list of those asked. */
function spanFaces(fonts: FontSet, faceAt: (offset: number) => SpanFace): { spanAt: (offset: number) => SpanFaces; asked: ShapedParagraph['faces'] } {
  const byFace = new Map<string, SpanFaces>();
  const asked: ShapedParagraph['faces'][number][] = [];
  const spanAt = (offset: number): SpanFaces => {
    const want = faceAt(offset);
    const k = `${want.family}:${want.weight}:${want.style}:${want.lang ?? ''}`;
    let faces = byFace.get(k);
    if (!faces) {
      // The span's face, then the set's other families (the design's, the account's, the bundled ones).
      const alternates = fonts
        .alternateFamilies()
        .filter((f) => f !== want.family)
        .map((f) => fonts.face(f, want.weight, want.style));
      faces = {
        face: fonts.face(want.family, want.weight, want.style),
        alternates,
        weight: want.weight,
        ...(want.lang === undefined ? {} : { lang: want.lang }),
      };
      byFace.set(k, faces);
      asked.push({ family: want.family, weight: want.weight, style: want.style, face: faces.face });
    }
    return faces;
  };
  return { spanAt, asked };
}

function shapeParagraph(
  text: string,
  faceAt: (offset: number) => SpanFace,
  fonts: FontSet,
  letterSpacing: number,
  direction: Direction,
  lang: string | undefined,
): ShapedParagraph {
  const bidi = needsBidi(text, direction) ? embeddingLevels(text, direction) : null;
  const { spanAt, asked } = spanFaces(fonts, faceAt);
  const clusters: Cluster[] = [];
  for (const run of itemize(text, spanAt, bidi?.levels ?? null)) {
    clusters.push(...shapeCached(text.slice(run.start, run.end), run.face, run.level, run.start, letterSpacing, run.lang));
  }
  return { text, clusters, breaks: breakOpportunities(text, clusters, lang), level: bidi?.base ?? (direction === 'rtl' ? 1 : 0), faces: asked };
}

// Scripts written without spaces between words (line break class SA): UAX #14 gives no opportunity
// inside them, so their words come from ICU's dictionary word segmenter, as browsers do, in the text's
// language (one segmenter per language, made on first use: each loads ICU's break data). Keyed by the
// language subtag alone, which is all ICU's word rules depend on, so the map stays small whatever tags
// requests bring.
const SA_RUN = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;
const wordSegmenters = new Map<string, Intl.Segmenter>();
function words(lang = 'en'): Intl.Segmenter {
  const language = new Intl.Locale(lang).language;
  let segmenter = wordSegmenters.get(language);
  if (!segmenter) wordSegmenters.set(language, (segmenter = new Intl.Segmenter(language, { granularity: 'word' })));
  return segmenter;
}

// Small kana and the prolonged sound mark (class CJ) are treated as NS by the linebreak package (CSS
// line-break: strict); browsers default to normal, which allows a break before them after kana or an
// ideograph, as before any other ideograph.
const CJ_AFTER_CJK = /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰ-ㇿーｧ-ｯｰ]/gu;

/** Word boundaries strictly inside runs of SA scripts, and before small kana, as UTF-16 offsets. */
function extraBreaks(text: string, lang: string | undefined): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(SA_RUN)) {
    for (const { index } of words(lang).segment(m[0])) if (index > 0) out.push(m.index + index);
  }
  for (const m of text.matchAll(CJ_AFTER_CJK)) out.push(m.index);
  return out;
}

function breakOpportunities(text: string, clusters: readonly Cluster[], lang: string | undefined): BreakOpportunity[] {
  const positions: { position: number; required: boolean }[] = [];
  const breaker = new (LineBreaker())(text);
  for (let b = breaker.nextBreak(); b; b = breaker.nextBreak()) positions.push({ position: b.position, required: b.required });
  const extra = extraBreaks(text, lang);
  if (extra.length > 0) {
    const known = new Set(positions.map((p) => p.position));
    for (const position of extra) if (!known.has(position)) positions.push({ position, required: false });
    positions.sort((a, b) => a.position - b.position);
  }
  const out: BreakOpportunity[] = [];
  let ci = 0;
  for (const b of positions) {
    // Map the character position to the first cluster that starts at or after it.
    while (ci < clusters.length && clusters[ci]!.start < b.position) ci++;
    const last = out[out.length - 1];
    if (last && last.cluster === ci) continue;
    if (ci > 0) out.push({ cluster: ci, required: b.required });
  }
  if (out.length === 0 || out[out.length - 1]!.cluster !== clusters.length) out.push({ cluster: clusters.length, required: false });
  return out;
}

/**
 * The cluster's characters split over its glyphs, each glyph its own, where that can be told (a letter
 * and its marks, each mark its own glyph: Hebrew and Arabic points, Thai tone marks, Latin accents;
 * a Devanagari consonant and its vowel sign), else null. Vector output then maps every glyph to its
 * own characters, so a glyph's text is the same wherever it is drawn. A glyph takes a code point its
 * cmap maps to it; the code points left over (a letter shaping substituted, such as an Arabic joining
 * form, or a conjunct's half form with its virama) go together to the first glyph left, in reading
 * order; further glyphs (a letter's dots drawn apart) take none. The glyphs in reading order (visual
 * order reversed for right-to-left text) must then spell the cluster, up to the canonical order of
 * its marks (shaping sorts them by combining class): a reordered cluster (a Devanagari i sign drawn
 * before its consonant) or a single glyph for all of it (a ligature, a conjunct) gives null.
 */
function glyphCharacters(c: Cluster, chars: string): (string | undefined)[] | null {
  const n = c.glyphs.length;
  // An emoji's characters stay whole on its colour glyph (vector output writes them as one invisible text).
  if (n < 2 || c.glyphs.some((g) => c.face.colorGlyph?.(g.id))) return null;
  const cps = [...chars];
  const rtl = c.level % 2 === 1;
  // Glyph indices in reading order.
  const order = Array.from({ length: n }, (_, k) => (rtl ? n - 1 - k : k));
  const own: (string | undefined)[] = Array.from({ length: n }, () => undefined);
  const nominal = cps.map((cp) => c.face.nominalGlyph(cp.codePointAt(0)!));
  const used = cps.map(() => false);
  for (const k of order) {
    const i = nominal.findIndex((id, j) => !used[j] && id === c.glyphs[k]!.id);
    if (i < 0) continue;
    own[k] = cps[i];
    used[i] = true;
  }
  const left = cps.filter((_, j) => !used[j]).join('');
  if (left !== '') {
    const k = order.find((k) => own[k] === undefined);
    if (k === undefined) return null;
    own[k] = left;
  }
  const spelled = order.map((k) => own[k] ?? '').join('');
  return spelled.normalize('NFD') === chars.normalize('NFD') ? own : null;
}

/**
 * Appends a cluster's glyphs with the pen at `x` on the baseline `y`, at `size` px. The cluster's text
 * goes with its glyphs (vector output maps glyphs back to text with it): each glyph its own characters
 * where glyphCharacters can tell them, otherwise all of it on the base glyph: the first glyph, or in
 * a right-to-left cluster, whose glyphs are in visual order, the last one. A whitespace cluster the
 * font has no glyph for draws nothing.
 */
export function pushClusterGlyphs(out: PositionedGlyph[], c: Cluster, chars: string, x: number, y: number, size: number): void {
  const own = c.whitespace ? null : glyphCharacters(c, chars);
  const rtl = c.level % 2 === 1;
  const base = rtl ? c.glyphs.length - 1 : 0;
  let gx = x;
  c.glyphs.forEach((g, k) => {
    const text = own ? own[k] : k === base ? chars : undefined;
    if (g.id !== 0 || !c.whitespace) {
      out.push({
        id: g.id,
        x: gx + g.dx * size,
        y: y - g.dy * size,
        ...(text === undefined ? {} : rtl ? { chars: text, rtl: true as const } : { chars: text }),
      });
    }
    gx += g.advance * size;
  });
}
