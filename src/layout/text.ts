// Text layout: shape, size by strategy, then place lines and glyph runs (with underlines, line-throughs,
// link areas and the background boxes around the lines) in the object's own coordinates. Returns the
// items and the object's fit report.
import type { RGBA, Rect, SceneSpan, SceneText } from '../scene/scene.js';
import { IDENTITY } from './boxes.js';
import { fitText } from '../text/fit.js';
import type { FontFace } from '../text/faces.js';
import type { FontSet } from '../text/fonts.js';
import type { Line } from '../text/line-break.js';
import { visualOrder } from '../text/bidi.js';
import { pushClusterGlyphs, shapeParagraphs, type ShapedParagraph } from '../text/shape.js';
import type { DisplayItem, Gradient, PositionedGlyph } from '../scene/display-list.js';
import { placeGradient } from './fill.js';

export interface TextFitReport {
  name: string | null;
  type: 'text';
  /** Font size used, px. */
  font_size: number;
  line_count: number;
  /** The size is below the template size. */
  shrunk: boolean;
  /** Even at the minimum size the text is taller than its box; the overflow is cut off. */
  clipped: boolean;
  /** A word longer than the line was split. */
  word_broken: boolean;
  /** Characters the font has no glyph for (drawn as the font's empty box): pick another font or text. */
  missing_characters: string[];
  /** Box height after sizing (fixed-width grows or shrinks it). */
  height: number;
  /** Page index, in the report of a multi-page pdf. */
  page?: number;
  /** Present (true) when some text was drawn bolder than any face of its family (stroked). */
  synthetic_bold?: true;
  /** Present (true) when some text asked for italic was slanted because its family has no italic. */
  synthetic_italic?: true;
  /**
   * Present when some text was not drawn with the face it asked for: its family has no face of that
   * weight or style (CSS matching picked the nearest), or the family is missing and the render's
   * missing_fonts "fallback" drew it with the default family. One entry per face asked for.
   */
  font_substitutions?: FontSubstitution[];
  /**
   * Present (true) when the text is not on screen at the rendered time (its `hidden` is true, it has
   * not appeared yet or has already left): nothing was laid out, so font_size and height are the
   * template's, line_count is 0 and the flags are false.
   */
  hidden?: true;
  /** With hidden: why, for a person: `headline is hidden at 0 s (it appears at 0.4 s)`. */
  hidden_reason?: string;
  /** With hidden: the second (on the design's timeline) the text comes on screen, when it does later. */
  appears_at?: number;
}

export interface TextLayout {
  items: DisplayItem[];
  /** Box in local coordinates after sizing. */
  box: Rect;
  /**
   * The laid-out lines' rectangle in the same coordinates: from the leftmost line start to the
   * rightmost line end (trailing spaces and letter spacing left out), and from the first line's top
   * to the last line's bottom (line boxes of the line height). Empty text: a zero-size rect at the top.
   */
  lines: Rect;
  clip: boolean;
  report: TextFitReport;
}

export function layoutText(t: SceneText, fonts: FontSet): TextLayout {
  const paragraphs = shapeParagraphs(t.spans, t.family, fonts, t.letterSpacing, t.direction ?? 'auto', t.lang);
  const fit = fitText({
    paragraphs,
    width: t.box.width,
    height: t.box.height,
    fontSize: t.fontSize,
    minFontSize: t.minFontSize,
    lineHeight: t.lineHeight,
    letterSpacing: t.letterSpacing,
    strategy: t.strategy,
    ...(t.overflowWrap === 'normal' ? { keepWords: true } : {}),
    ...(t.fitStep === undefined ? {} : { step: t.fitStep }),
    ...(t.fitSplitWords ? { splitWords: true } : {}),
    ...(t.fitHeightFollowsText ? { heightFollowsText: true } : {}),
  });
  const size = fit.fontSize;
  const lineHeightPx = size * t.lineHeight;
  const face = fonts.face(t.family, 400);
  // CSS-like half leading: the glyph box (ascent + descent) is centred in the line box.
  const baselineInLine = (lineHeightPx - (face.ascent + face.descent) * size) / 2 + face.ascent * size;

  let top = 0;
  if (t.strategy === 'fit' && fit.textHeight < fit.boxHeight) {
    const free = fit.boxHeight - fit.textHeight;
    top = t.valign === 'top' ? 0 : t.valign === 'bottom' ? free : free / 2;
  }

  const items: DisplayItem[] = [];
  // With a stroke, every run's outline goes before (under) every fill, so one run's outline never
  // covers the letters of the run before it (CSS paint-order: stroke over a whole text).
  const outlines: DisplayItem[] | null = t.stroke ? [] : null;
  const reveal = t.reveal ? revealAlpha(t.reveal, fit.lines, paragraphs) : null;
  const extents: LineExtent[] = [];
  const box: Rect = { x: 0, y: 0, width: t.box.width, height: fit.boxHeight };
  // One gradient over the whole box, as CSS background-clip: text paints the element's background.
  const gradient = t.fill ? placeGradient(t.fill, box) : null;
  let [left, right] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  fit.lines.forEach((line, i) => {
    const extent = placeLine(
      items,
      paragraphs[line.paragraph]!,
      line,
      t,
      size,
      top + i * lineHeightPx,
      baselineInLine,
      lineHeightPx,
      reveal ? (c) => reveal(i, c) : null,
      outlines,
      gradient,
    );
    if (extent.x1 > extent.x0 || t.background?.mode === 'full_width')
      extents.push({ x0: extent.x0, x1: extent.x1, top: top + i * lineHeightPx, height: lineHeightPx });
    left = Math.min(left, extent.x0);
    right = Math.max(right, extent.right);
  });
  if (outlines) items.unshift(...outlines);
  if (t.background) items.unshift(...backgroundItems(t.background, extents, t.box.width));
  const lines = right >= left ? { x: left, y: top, width: right - left, height: fit.lines.length * lineHeightPx } : { x: 0, y: top, width: 0, height: 0 };

  return {
    items,
    box,
    lines,
    clip: fit.clipped,
    report: {
      name: t.name ?? null,
      type: 'text',
      font_size: size,
      line_count: fit.lines.length,
      shrunk: fit.shrunk,
      clipped: fit.clipped,
      word_broken: fit.brokeWord,
      missing_characters: missingCharacters(paragraphs),
      height: fit.boxHeight,
      ...syntheticStyles(paragraphs),
      ...fontSubstitutions(paragraphs),
    },
  };
}

/** A family, weight and style a text asked for, and the face it was drawn with. */
export interface FontSubstitution {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  used_family: string;
  used_weight: number;
  used_style: 'normal' | 'italic';
}

function fontSubstitutions(paragraphs: readonly ShapedParagraph[]): Pick<TextFitReport, 'font_substitutions'> {
  const out = new Map<string, FontSubstitution>();
  for (const p of paragraphs) {
    for (const { family, weight, style, face } of p.faces) {
      if (face.family.toLowerCase() === family.toLowerCase() && face.weight === weight && face.style === style) continue;
      out.set(`${family}:${weight}:${style}`, { family, weight, style, used_family: face.family, used_weight: face.weight, used_style: face.style });
    }
  }
  return out.size > 0 ? { font_substitutions: [...out.values()] } : {};
}

function syntheticStyles(paragraphs: readonly ShapedParagraph[]): Pick<TextFitReport, 'synthetic_bold' | 'synthetic_italic'> {
  const faces = new Set(paragraphs.flatMap((p) => p.clusters.map((c) => c.face)));
  const used = [...faces].map((f) => f.synthetic ?? {});
  return { ...(used.some((s) => s.bold) ? { synthetic_bold: true } : {}), ...(used.some((s) => s.italic) ? { synthetic_italic: true } : {}) };
}

function missingCharacters(paragraphs: readonly ShapedParagraph[]): string[] {
  const missing = new Set<string>();
  for (const p of paragraphs) {
    for (const c of p.clusters) if (!c.whitespace && c.glyphs.some((g) => g.id === 0)) missing.add(p.text.slice(c.start, c.end));
  }
  return [...missing];
}

/**
 * A text reveal as an alpha per line and cluster: units (words or lines) appear one after another,
 * each fading in over its share of the animation. Lines and breaks are those of the full text.
 */
function revealAlpha(
  reveal: NonNullable<SceneText['reveal']>,
  lines: readonly Line[],
  paragraphs: readonly ShapedParagraph[],
): (line: number, cluster: number) => number {
  const unitOf = new Map<string, number>();
  let units = 0;
  lines.forEach((line, li) => {
    const para = paragraphs[line.paragraph]!;
    let inWord = false;
    for (let c = line.start; c < line.visibleEnd; c++) {
      const space = para.clusters[c]!.whitespace;
      if (reveal.by === 'word' && !space && !inWord) units++;
      inWord = !space;
      unitOf.set(`${li}:${c}`, reveal.by === 'line' ? li : Math.max(0, units - 1));
    }
    if (reveal.by === 'line') units = li + 1;
  });
  const shown = reveal.progress * units;
  return (line, cluster) => {
    const u = unitOf.get(`${line}:${cluster}`) ?? 0;
    return Math.min(1, Math.max(0, shown - u));
  };
}

/** The side a line is set against: start and end resolved by the paragraph's direction. */
function alignOf(align: SceneText['align'], rtl: boolean, lastOfJustified: boolean): 'left' | 'center' | 'right' | 'justify' {
  if (align === 'start' || (align === 'justify' && lastOfJustified)) return rtl ? 'right' : 'left';
  if (align === 'end') return rtl ? 'left' : 'right';
  return align;
}

function placeLine(
  items: DisplayItem[],
  para: ShapedParagraph,
  line: Line,
  t: SceneText,
  size: number,
  lineTop: number,
  baselineInLine: number,
  lineHeightPx: number,
  alphaOf: ((cluster: number) => number) | null,
  outlines: DisplayItem[] | null,
  gradient: Gradient | null,
): { x0: number; x1: number; right: number } {
  const rtl = para.level % 2 === 1;
  const trailing = t.keepTrailingSpaces ? keptTrailingSpaces(para, line, t.box.width / size) * size : 0;
  const widthPx = line.width * size + trailing;
  const free = t.box.width - widthPx;
  const align = alignOf(t.align, rtl, line.last || free <= 0);
  let x = align === 'center' ? free / 2 : align === 'right' ? free : 0;
  const x0 = x;
  // Kept trailing spaces take their room at the line's logical end: the left in a right-to-left paragraph.
  if (rtl) x += trailing;
  let extraPerSpace = 0;
  if (align === 'justify' && free > 0) {
    let spaces = 0;
    for (let i = line.start; i < line.visibleEnd; i++) if (para.clusters[i]!.whitespace) spaces++;
    if (spaces > 0) extraPerSpace = free / spaces;
  }
  const baseline = lineTop + baselineInLine;

  // Clusters are in logical order; a line with right-to-left text is drawn in visual order (rule L2
  // over the clusters' levels; its trailing whitespace is not drawn).
  const indices: number[] = [];
  let bidi = false;
  for (let i = line.start; i < line.visibleEnd; i++) {
    indices.push(i);
    if (para.clusters[i]!.level > 0) bidi = true;
  }
  const order = bidi ? visualOrder(indices.map((i) => para.clusters[i]!.level)).map((k) => indices[k]!) : indices;

  let run: { span: number; alpha: number; face: FontFace; glyphs: PositionedGlyph[]; textStart: number; textEnd: number; x0: number; x1: number } | null = null;
  const flush = (): void => {
    if (!run || run.glyphs.length === 0 || run.alpha <= 0) return;
    const base = t.spans[run.span]!;
    const span = run.alpha === 1 ? base : { ...base, color: [base.color[0], base.color[1], base.color[2], base.color[3] * run.alpha] as const };
    const text = para.text.slice(run.textStart, run.textEnd);
    // A reveal fades the gradient as it fades a colour: through the alpha of every stop.
    const fill = base.fill && gradient ? (run.alpha === 1 ? gradient : fadedGradient(gradient, run.alpha)) : null;
    items.push({ kind: 'glyphs', face: run.face.key, size, color: span.color, glyphs: run.glyphs, text, ...(fill ? { gradient: fill } : {}) });
    // Colour glyphs (emoji) paint themselves and are not outlined.
    const face = run.face;
    const plain = face.colorGlyph ? run.glyphs.filter((g) => !face.colorGlyph!(g.id)) : run.glyphs;
    if (t.stroke && outlines && plain.length > 0) {
      const [r, g, b, a] = t.stroke.color;
      outlines.push({ kind: 'glyphs', face: face.key, size, color: [r, g, b, a * run.alpha], glyphs: plain, text, strokeWidth: t.stroke.width });
    }
    decorate(items, span, run.face, run.x0, run.x1, baseline, lineTop, lineHeightPx, size, fill);
  };

  for (const i of order) {
    const c = para.clusters[i]!;
    const alpha = alphaOf ? alphaOf(i) : 1;
    if (!run || run.span !== c.span || run.alpha !== alpha || run.face !== c.face) {
      flush();
      run = { span: c.span, alpha, face: c.face, glyphs: [], textStart: c.start, textEnd: c.end, x0: x, x1: x };
    }
    pushClusterGlyphs(run.glyphs, c, para.text.slice(c.start, c.end), x, baseline, size);
    x += c.advance * size + (c.whitespace ? extraPerSpace : 0);
    run.textStart = Math.min(run.textStart, c.start);
    run.textEnd = Math.max(run.textEnd, c.end);
    // Letter spacing after the run's last character is not underlined.
    run.x1 = x - t.letterSpacing * size;
  }
  flush();
  // x0–x1: the line's advance width, trailing letter spacing included (as CSS sizes an inline box, for
  // backgrounds; kept trailing spaces too, as Konva's line width); right: where its glyphs end, without
  // that spacing (as underlines, for wrap).
  return { x0, x1: rtl ? x : x + trailing, right: order.length > 0 ? x - t.letterSpacing * size : x0 };
}

/**
 * The advance (em) of the spaces that end a paragraph's last line, when the line with them still fits
 * `maxWidth` (em): Konva keeps a paragraph's last line untrimmed when it fits, trims a line at a wrap,
 * and drops trailing spaces that would not fit (its prefix search stops before them). Otherwise 0.
 */
function keptTrailingSpaces(para: ShapedParagraph, line: Line, maxWidth: number): number {
  if (!line.last || line.end <= line.visibleEnd) return 0;
  let spaces = 0;
  for (let i = line.visibleEnd; i < line.end; i++) spaces += para.clusters[i]!.advance;
  // The visible width leaves out the letter spacing after its last character; with spaces after it, it counts.
  const withSpaces = line.visibleEnd > line.start ? line.width + spaces : spaces;
  return withSpaces <= maxWidth + 1e-9 ? withSpaces - line.width : 0;
}

/** Where a laid-out line's glyphs run, horizontally, and its line box. */
interface LineExtent {
  x0: number;
  x1: number;
  top: number;
  height: number;
}

/**
 * The background of a text: in `lines` mode a rounded box per line around its advance width × line
 * box, grown by the padding; in `box` mode one box around all of them; in `full_width` mode one box
 * across the object's width from the first line's top to the last line's bottom. Several boxes are painted as
 * one: opaque fills in a group at the colour's alpha, which the painters composite once (a layer), so
 * where boxes overlap the alpha does not double (the union, as a nonzero fill of all the boxes).
 */
function backgroundItems(bg: NonNullable<SceneText['background']>, lines: readonly LineExtent[], boxWidth: number): DisplayItem[] {
  if (lines.length === 0 || bg.color[3] <= 0) return [];
  const { x: px, y: py } = bg.padding;
  const grow = (x0: number, x1: number, top: number, bottom: number): Rect => ({
    x: x0 - px,
    y: top - py,
    width: x1 - x0 + 2 * px,
    height: bottom - top + 2 * py,
  });
  const rects =
    bg.mode === 'full_width'
      ? [grow(0, boxWidth, lines[0]!.top, lines[lines.length - 1]!.top + lines[lines.length - 1]!.height)]
      : bg.mode === 'box'
        ? [
            grow(
              Math.min(...lines.map((l) => l.x0)),
              Math.max(...lines.map((l) => l.x1)),
              lines[0]!.top,
              lines[lines.length - 1]!.top + lines[lines.length - 1]!.height,
            ),
          ]
        : lines.map((l) => grow(l.x0, l.x1, l.top, l.top + l.height));
  const fills = (color: RGBA): DisplayItem[] =>
    rects.map((rect) => {
      const radius = Math.min(bg.cornerRadius, rect.width / 2, rect.height / 2);
      return { kind: 'fill', geometry: radius > 0 ? { kind: 'round_rect', rect, radius } : { kind: 'rect', rect }, color };
    });
  if (rects.length === 1 || bg.color[3] === 1) return fills(bg.color);
  const [r, g, b, a] = bg.color;
  const x = Math.min(...rects.map((q) => q.x));
  const y = Math.min(...rects.map((q) => q.y));
  const bounds = { x, y, width: Math.max(...rects.map((q) => q.x + q.width)) - x, height: Math.max(...rects.map((q) => q.y + q.height)) - y };
  return [{ kind: 'group', transform: IDENTITY, opacity: a, bounds, clip: null, items: fills([r, g, b, 1]) }];
}

/** The gradient with every stop's alpha multiplied by `alpha`. */
function fadedGradient(g: Gradient, alpha: number): Gradient {
  const stops = g.stops.map((s) => ({ offset: s.offset, color: [s.color[0], s.color[1], s.color[2], s.color[3] * alpha] as const }));
  return { ...g, stops };
}

function decorate(
  items: DisplayItem[],
  span: SceneSpan,
  face: FontFace,
  x0: number,
  x1: number,
  baseline: number,
  lineTop: number,
  lineHeightPx: number,
  size: number,
  gradient: Gradient | null,
): void {
  if (span.underline && x1 > x0) {
    const thickness = Math.max(1, face.underlineThickness * size);
    const y = baseline + face.underlinePosition * size - thickness / 2;
    const geometry = { kind: 'rect', rect: { x: x0, y, width: x1 - x0, height: thickness } } as const;
    // The underline is painted like its glyphs (CSS clips the background to decorations too).
    items.push(gradient ? { kind: 'gradient', geometry, gradient } : { kind: 'fill', geometry, color: span.color });
  }
  if (span.strikethrough && x1 > x0) {
    const thickness = Math.max(1, face.strikeoutThickness * size);
    const y = baseline - face.strikeoutPosition * size - thickness / 2;
    const geometry = { kind: 'rect', rect: { x: x0, y, width: x1 - x0, height: thickness } } as const;
    items.push(gradient ? { kind: 'gradient', geometry, gradient } : { kind: 'fill', geometry, color: span.color });
  }
  if (span.link !== undefined && x1 > x0) {
    items.push({ kind: 'link', rect: { x: x0, y: lineTop, width: x1 - x0, height: lineHeightPx }, url: span.link });
  }
}
