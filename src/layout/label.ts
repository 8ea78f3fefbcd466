// Single-line labels (chart ticks, categories, legends, titles) through the same shaper as text
// objects: measured exactly, aligned on a point, cut with an ellipsis when wider than allowed.
import type { RGBA } from '../scene/scene.js';
import type { FontSet } from '../text/fonts.js';
import { visualOrder } from '../text/bidi.js';
import { pushClusterGlyphs, shapeParagraphs, type Cluster } from '../text/shape.js';
import type { DisplayItem, PositionedGlyph } from '../scene/display-list.js';

export interface LabelStyle {
  family: string;
  size: number;
  weight: number;
  color: RGBA;
  /** The text's language (canonical BCP 47), as for text objects. */
  lang?: string;
}

export interface Label {
  /** Glyph runs, one per face, with their baseline at y = 0, starting at x = 0 (visual order). */
  runs: { face: string; glyphs: PositionedGlyph[]; text: string }[];
  text: string;
  width: number;
}

const ELLIPSIS = '…';

function clustersOf(text: string, style: LabelStyle, fonts: FontSet): { text: string; clusters: Cluster[] } {
  const spans = [{ text: text.replace(/\s*\n\s*/g, ' '), weight: style.weight, color: style.color, underline: false }];
  const [para] = shapeParagraphs(spans, style.family, fonts, 0, 'auto', style.lang);
  return para ?? { text: '', clusters: [] };
}

/** Shapes `text`; when `maxWidth` is given and exceeded, drops characters and ends with "…". */
export function shapeLabel(text: string, style: LabelStyle, fonts: FontSet, maxWidth = Infinity): Label {
  const { text: plain, clusters } = clustersOf(text, style, fonts);
  const advance = (cs: readonly Cluster[]): number => cs.reduce((w, c) => w + c.advance, 0) * style.size;
  let keep = clusters;
  let suffix: Cluster[] = [];
  const ellipsis = clustersOf(ELLIPSIS, style, fonts);
  // A hair of tolerance: callers often pass a width computed from this very label.
  if (advance(clusters) > maxWidth + 1e-6) {
    suffix = ellipsis.clusters;
    const room = maxWidth - advance(suffix);
    let w = 0;
    let n = 0;
    while (n < clusters.length && w + clusters[n]!.advance * style.size <= room) w += clusters[n++]!.advance * style.size;
    while (n > 0 && clusters[n - 1]!.whitespace) n--;
    keep = clusters.slice(0, n);
  }
  // Kept clusters in visual order (right-to-left text reordered), then the ellipsis at the end.
  const kept = keep.some((c) => c.level > 0) ? visualOrder(keep.map((c) => c.level)).map((k) => keep[k]!) : keep;
  const runs: Label['runs'] = [];
  let x = 0;
  for (const c of [...kept, ...suffix]) {
    const source = suffix.includes(c) ? ellipsis.text : plain;
    let run = runs[runs.length - 1];
    if (!run || run.face !== c.face.key) runs.push((run = { face: c.face.key, glyphs: [], text: '' }));
    run.text += source.slice(c.start, c.end);
    pushClusterGlyphs(run.glyphs, c, source.slice(c.start, c.end), x, 0, style.size);
    x += c.advance * style.size;
  }
  const shown = suffix.length ? `${plain.slice(0, keep[keep.length - 1]?.end ?? 0)}${ELLIPSIS}` : plain;
  return { runs: runs.filter((r) => r.glyphs.length > 0), text: shown, width: x };
}

/** Ascent and descent of the family in px at this size, for centring labels vertically. */
export function labelMetrics(style: LabelStyle, fonts: FontSet): { ascent: number; descent: number } {
  const face = fonts.face(style.family, style.weight);
  return { ascent: face.ascent * style.size, descent: face.descent * style.size };
}

/** The label as glyph runs (a group when several faces draw it), its baseline at `y`, anchored at `x` by `align`. */
export function placeLabel(label: Label, style: LabelStyle, x: number, y: number, align: 'left' | 'center' | 'right'): DisplayItem | null {
  if (label.runs.length === 0) return null;
  const x0 = align === 'left' ? x : align === 'center' ? x - label.width / 2 : x - label.width;
  const items: DisplayItem[] = label.runs.map((r) => ({
    kind: 'glyphs',
    face: r.face,
    size: style.size,
    color: style.color,
    glyphs: r.glyphs.map((g) => ({ ...g, x: g.x + x0, y: g.y + y })),
    text: label.runs.length === 1 ? label.text : r.text,
  }));
  if (items.length === 1) return items[0]!;
  const bounds = { x: x0 - style.size, y: y - 2 * style.size, width: label.width + 2 * style.size, height: 3 * style.size };
  return { kind: 'group', transform: [1, 0, 0, 1, 0, 0], opacity: 1, bounds, clip: null, items };
}
