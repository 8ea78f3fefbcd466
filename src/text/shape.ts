// Shaping: styled spans → paragraphs of clusters with advances in em, via HarfBuzz (kerning,
// ligatures, GSUB/GPOS). Shaped once per text object; any font size is a linear scale of it.
import type LineBreakerClass from 'linebreak';
import { lazyRequire } from '../lazy-require.js';
import type { SceneSpan } from '../scene/scene.js';
import type { FontFace, FontSet } from './fonts.js';

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
}

const WHITESPACE = /^\s+$/u;

function shapePiece(text: string, face: FontFace, span: number, offset: number, letterSpacing: number, byGrapheme = false): Cluster[] {
  const run = face.shaper.layout(text);
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
    });
    pos += length;
  });
  if (pos === text.length) return clusters;
  if (byGrapheme) {
    // One grapheme: whatever the glyphs claim, together they draw exactly this text.
    const glyphs = clusters.flatMap((c) => c.glyphs);
    const advance = glyphs.reduce((n, g) => n + g.advance, 0) + letterSpacing;
    return [{ start: offset, end: offset + text.length, advance, glyphs, span, face, whitespace: WHITESPACE.test(text) }];
  }
  // The glyphs claimed a different number of characters than the text has (a glyph shared by code
  // points of different lengths): shape grapheme by grapheme instead, exact at the cost of kerning
  // across graphemes, rather than misplace characters.
  const out: Cluster[] = [];
  for (const { segment, index } of graphemes().segment(text)) {
    const sub = shapePiece(segment, face, span, offset + index, letterSpacing, true);
    const first = sub[0];
    if (!first) continue;
    out.push({ ...first, end: offset + index + segment.length, glyphs: sub.flatMap((c) => c.glyphs), advance: sub.reduce((n, c) => n + c.advance, 0) });
  }
  return out;
}

// Creating a segmenter loads ICU's break data (~20 ms): on first use, not at import.
let graphemeSegmenter: Intl.Segmenter | undefined;
const graphemes = (): Intl.Segmenter => (graphemeSegmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' }));

// Templates re-render the same fixed texts (labels, brand lines) with every request, so shaped
// pieces are kept per face, keyed by text and letter spacing. Bounded; oldest entries go first.
const SHAPE_CACHE_ENTRIES = 4096;
const shapeCache = new WeakMap<FontFace, Map<string, Cluster[]>>();

function shapeCached(text: string, face: FontFace, span: number, offset: number, letterSpacing: number): Cluster[] {
  let cache = shapeCache.get(face);
  if (!cache) shapeCache.set(face, (cache = new Map()));
  const key = `${letterSpacing}\u0000${text}`;
  let clusters = cache.get(key);
  if (!clusters) {
    clusters = shapePiece(text, face, 0, 0, letterSpacing);
    if (cache.size >= SHAPE_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, clusters);
  }
  return clusters.map((c) => ({ ...c, start: c.start + offset, end: c.end + offset, span }));
}

/** Splits spans into paragraphs at \n and shapes each piece with its span's face. */
export function shapeText(spans: readonly SceneSpan[], family: string, fonts: FontSet, letterSpacing: number): ShapedParagraph[] {
  const paragraphs: { text: string; clusters: Cluster[] }[] = [{ text: '', clusters: [] }];
  spans.forEach((span, spanIndex) => {
    const face = fonts.face(span.family ?? family, span.weight, span.style);
    span.text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .forEach((piece, i) => {
        if (i > 0) paragraphs.push({ text: '', clusters: [] });
        const para = paragraphs[paragraphs.length - 1]!;
        if (piece.length === 0) return;
        para.clusters.push(...shapeCached(piece, face, spanIndex, para.text.length, letterSpacing));
        para.text += piece;
      });
  });
  return paragraphs.map((p) => ({ ...p, breaks: breakOpportunities(p.text, p.clusters) }));
}

function breakOpportunities(text: string, clusters: readonly Cluster[]): BreakOpportunity[] {
  const out: BreakOpportunity[] = [];
  const breaker = new (LineBreaker())(text);
  let ci = 0;
  for (let b = breaker.nextBreak(); b; b = breaker.nextBreak()) {
    // Map the character position to the first cluster that starts at or after it.
    while (ci < clusters.length && clusters[ci]!.start < b.position) ci++;
    const last = out[out.length - 1];
    if (last && last.cluster === ci) continue;
    if (ci > 0) out.push({ cluster: ci, required: b.required });
  }
  if (out.length === 0 || out[out.length - 1]!.cluster !== clusters.length) out.push({ cluster: clusters.length, required: false });
  return out;
}
