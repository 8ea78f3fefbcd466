// Single-line labels (chart ticks, categories, legends, titles) through the same shaper as text
// objects: measured exactly, aligned on a point, cut with an ellipsis when wider than allowed.
import type { RGBA } from '../scene/scene.js';
import type { FontSet } from '../text/fonts.js';
import { shapeText, type Cluster } from '../text/shape.js';
import type { DisplayItem, PositionedGlyph } from '../scene/display-list.js';

export interface LabelStyle {
  family: string;
  size: number;
  weight: number;
  color: RGBA;
}

export interface Label {
  /** Glyph run with its baseline at y = 0, starting at x = 0. */
  glyphs: PositionedGlyph[];
  face: string;
  text: string;
  width: number;
}

const ELLIPSIS = '…';

function clustersOf(text: string, style: LabelStyle, fonts: FontSet): { text: string; clusters: Cluster[] } {
  const spans = [{ text: text.replace(/\s*\n\s*/g, ' '), weight: style.weight, color: style.color, underline: false }];
  const [para] = shapeText(spans, style.family, fonts, 0);
  return para ?? { text: '', clusters: [] };
}

/** Shapes `text`; when `maxWidth` is given and exceeded, drops characters and ends with "…". */
export function shapeLabel(text: string, style: LabelStyle, fonts: FontSet, maxWidth = Infinity): Label {
  const { text: plain, clusters } = clustersOf(text, style, fonts);
  const face = fonts.face(style.family, style.weight);
  const advance = (cs: readonly Cluster[]): number => cs.reduce((w, c) => w + c.advance, 0) * style.size;
  let keep = clusters;
  let suffix: Cluster[] = [];
  // A hair of tolerance: callers often pass a width computed from this very label.
  if (advance(clusters) > maxWidth + 1e-6) {
    suffix = clustersOf(ELLIPSIS, style, fonts).clusters;
    const room = maxWidth - advance(suffix);
    let w = 0;
    let n = 0;
    while (n < clusters.length && w + clusters[n]!.advance * style.size <= room) w += clusters[n++]!.advance * style.size;
    while (n > 0 && clusters[n - 1]!.whitespace) n--;
    keep = clusters.slice(0, n);
  }
  const glyphs: PositionedGlyph[] = [];
  let x = 0;
  const ellipsisText = clustersOf(ELLIPSIS, style, fonts).text;
  for (const c of [...keep, ...suffix]) {
    let gx = x;
    let chars: string | undefined = suffix.includes(c) ? ellipsisText.slice(c.start, c.end) : plain.slice(c.start, c.end);
    for (const g of c.glyphs) {
      if (!(c.whitespace && g.id === 0)) {
        glyphs.push({ id: g.id, x: gx + g.dx * style.size, y: -g.dy * style.size, ...(chars === undefined ? {} : { chars }) });
        chars = undefined;
      }
      gx += g.advance * style.size;
    }
    x += c.advance * style.size;
  }
  const shown = suffix.length ? `${plain.slice(0, keep[keep.length - 1]?.end ?? 0)}${ELLIPSIS}` : plain;
  return { glyphs, face: face.key, text: shown, width: x };
}

/** Ascent and descent of the family in px at this size, for centring labels vertically. */
export function labelMetrics(style: LabelStyle, fonts: FontSet): { ascent: number; descent: number } {
  const face = fonts.face(style.family, style.weight);
  return { ascent: face.ascent * style.size, descent: face.descent * style.size };
}

/** The label as a glyph run, its baseline at `y`, anchored at `x` by `align`. */
export function placeLabel(label: Label, style: LabelStyle, x: number, y: number, align: 'left' | 'center' | 'right'): DisplayItem | null {
  if (label.glyphs.length === 0) return null;
  const x0 = align === 'left' ? x : align === 'center' ? x - label.width / 2 : x - label.width;
  return {
    kind: 'glyphs',
    face: label.face,
    size: style.size,
    color: style.color,
    glyphs: label.glyphs.map((g) => ({ ...g, x: g.x + x0, y: g.y + y })),
    text: label.text,
  };
}
