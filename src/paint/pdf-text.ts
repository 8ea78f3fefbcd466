// Glyph runs as real pdf text: fonts registered and subset with their ToUnicode entries, TJ
// positioning, ActualText spans where pdftotext's word model (pdf-words.ts) would misread a word,
// outlined, gradient-filled and synthetic-bold text, and colour (emoji) runs with invisible text.
import type { PositionedGlyph } from '../scene/display-list.js';
import type { FontFace } from '../text/faces.js';
import { bundledFonts } from '../text/fonts.js';
import { tableDirectory, withoutTables } from '../text/font-tables.js';
import { SYNTHETIC_ITALIC_SKEW, syntheticBoldStroke } from '../text/synthetic.js';
import type { ItemOf } from './backend.js';
import { PdfColorGlyphs, svgToPdfPath } from './pdf-color.js';
import { paintShading } from './pdf-gradient.js';
import { num, rgb, setExtGState, type PdfDoc, type PdfRef, type PdfResources } from './pdf-kit.js';
import { readsAsDrawn, textOf, words, type CodedGlyph } from './pdf-words.js';

/** What drawing text needs of the backend: the document, its resources and the opacity painted at now. */
export interface PdfTextContext {
  readonly doc: PdfDoc;
  readonly res: PdfResources;
  /** Opacity of what is painted now (pdf has no current-alpha state; the backend tracks it). */
  readonly alpha: number;
}

/** UTF-16BE hex of a text string (PDF text strings with a byte order mark). */
const utf16Hex = (s: string): string => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16).padStart(4, '0')).join('');

/** Glyphs by id at the positions layout chose, as real text: TJ kerning makes up any difference from the font's advances. */
export function paintGlyphs(ctx: PdfTextContext, run: ItemOf<'glyphs'>): void {
  if (run.glyphs.length === 0) return;
  const face = ctx.res.fonts.byFaceKey(run.face);
  if (isColorFace(face)) return run.strokeWidth === undefined ? colorRun(ctx, run, face) : runAsText(ctx, run, face, plainFont(ctx, run.face, face));
  runAsText(ctx, run, face, run.face);
}

/** The run as real text in the pdfkit font registered as `fontKey`. */
function runAsText(ctx: PdfTextContext, run: ItemOf<'glyphs'>, face: FontFace, fontKey: string): void {
  const doc = ctx.doc;
  doc.font(fontKey);
  const font = doc._font;
  if (doc.page.fonts[font.id] == null) doc.page.fonts[font.id] = font.ref();
  if (run.strokeWidth === undefined && !run.gradient) doc.fillColor(rgb(run.color), ctx.alpha * run.color[3]);
  const size = run.size;
  const skew = face.synthetic?.italic ? num(SYNTHETIC_ITALIC_SKEW) : '0';
  const coded = run.glyphs.map((g): CodedGlyph => {
    const gid = font.subset.includeGlyph(g.id);
    if (font.widths[gid] == null) font.widths[gid] = face.outlines.getGlyph(g.id).advanceWidth * font.scale;
    const text = textOf(g);
    // The first use of a glyph fixes its ToUnicode entry (pdfkit needs one for every glyph, and it is
    // written at the end: changing it later would change the text of earlier uses).
    font.unicode[gid] ??= [...text].map((c) => c.codePointAt(0)!);
    return {
      g,
      hex: `0000${gid.toString(16)}`.slice(-4),
      advance: (font.widths[gid] / 1000) * size,
      text,
      mapped: String.fromCodePoint(...font.unicode[gid]),
    };
  });
  // An outline pass is read as no text at all (outlineText wraps it in an empty span): no spans
  // inside it, as readers keep one at a time (in poppler an inner span would end the outer one and
  // put the outline's text back).
  const spans = run.strokeWidth === undefined;
  const ops: string[] = [];
  let open = false;
  let penX = 0;
  let penY = Number.NaN;
  let tj: string[] = [];
  const flush = (): void => {
    if (tj.length) ops.push(`[${tj.join(' ')}] TJ`);
    tj = [];
  };
  for (const word of words(coded)) {
    // A word whose glyphs would not read back as its text gets it as one ActualText span.
    const whole = spans && !readsAsDrawn(word, size) ? word.map((c) => c.text).join('') : null;
    if (whole !== null) {
      flush();
      ops.push(`/Span <</ActualText <FEFF${utf16Hex(whole)}>>> BDC`);
    }
    for (const { g, hex, advance } of word) {
      if (!open || Math.abs(g.y - penY) > 1e-6) {
        flush();
        // Text space flipped back to y-up, since the page is drawn y-down (skewed for synthetic italic).
        ops.push(`1 0 ${skew} -1 ${num(g.x)} ${num(g.y)} Tm`);
        open = true;
        penY = g.y;
      } else {
        const gap = ((penX - g.x) * 1000) / size;
        if (Math.abs(gap) > 0.001) tj.push(num(gap));
      }
      tj.push(`<${hex}>`);
      penX = g.x + advance;
    }
    if (whole !== null) {
      flush();
      ops.push('EMC');
    }
  }
  flush();
  if (run.strokeWidth !== undefined) return outlineText(ctx, run, font.id, ops);
  if (run.gradient) return gradientText(ctx, run, font.id, ops);
  if (face.synthetic?.bold) {
    doc.save();
    doc.strokeColor(rgb(run.color), ctx.alpha * run.color[3]);
    doc.lineWidth(syntheticBoldStroke(size));
  }
  doc.addContent('BT');
  doc.addContent(`/${font.id} ${num(size)} Tf`);
  // Synthetic bold: fill and stroke the glyphs (2 Tr) with the raster painter's stroke width.
  if (face.synthetic?.bold) doc.addContent('2 Tr');
  for (const op of ops) doc.addContent(op);
  doc.addContent('ET');
  if (face.synthetic?.bold) doc.restore();
}

/**
 * Glyphs filled with a gradient (a text `fill`, CSS background-clip: text), in vector: the run as
 * clipping text (7 Tr), which stays real, extractable text, then the gradient's shading painted
 * through that clip. Synthetic bold clips to the plain outlines (pdf cannot clip to a stroke), so
 * such glyphs are a hair thinner than in the png.
 */
function gradientText(ctx: PdfTextContext, run: ItemOf<'glyphs'>, fontId: string, ops: readonly string[]): void {
  const doc = ctx.doc;
  doc.save();
  doc.addContent('BT');
  doc.addContent(`/${fontId} ${num(run.size)} Tf`);
  doc.addContent('7 Tr');
  for (const op of ops) doc.addContent(op);
  doc.addContent('ET');
  // Always set: `sh` paints at whatever alpha the last fill left.
  setExtGState(ctx.doc, ctx.res, { ca: ctx.alpha });
  // The soft mask of see-through stops needs a box: every glyph's em square and more.
  const pad = run.size * 1.5;
  const xs = run.glyphs.map((g) => g.x);
  const ys = run.glyphs.map((g) => g.y);
  const rect = {
    x: Math.min(...xs) - pad,
    y: Math.min(...ys) - pad,
    width: Math.max(...xs) - Math.min(...xs) + 2 * pad,
    height: Math.max(...ys) - Math.min(...ys) + 2 * pad,
  };
  paintShading(doc, ctx.res.shadings, run.gradient!, { kind: 'rect', rect });
  doc.restore();
}

/**
 * A text outline (`stroke` of a text object): the run as stroke-only text (1 Tr), drawn before the
 * fills (layout's order), so they keep their full shape (CSS paint-order: stroke); PDF's
 * fill-and-stroke mode (2 Tr) strokes over the fill and would eat into the letters. Inside an empty
 * ActualText span, so copying and search read the text once, from the fill. A translucent outline is
 * stroked opaque in a transparency group drawn once at its alpha: viewers stroke glyph by glyph, and
 * the overlaps of neighbouring glyphs' outlines would otherwise be darker than the png's one path.
 */
function outlineText(ctx: PdfTextContext, run: ItemOf<'glyphs'>, fontId: string, ops: readonly string[]): void {
  const doc = ctx.doc;
  const alpha = ctx.alpha * run.color[3];
  const pageContent = doc.page.content;
  let form: PdfRef | null = null;
  if (alpha < 1) {
    // The group's box: every glyph's em square and more (italic slant, wide glyphs), plus the outline.
    const pad = run.size * 1.5 + run.strokeWidth!;
    const xs = run.glyphs.map((g) => g.x);
    const ys = run.glyphs.map((g) => g.y);
    form = doc.ref({
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) + pad, Math.max(...ys) + pad],
      Group: { Type: 'Group', S: 'Transparency' },
      Resources: doc.page.resources,
    });
    doc.page.content = form;
  }
  doc.save();
  doc.strokeColor(rgb(run.color), form ? 1 : alpha);
  doc.lineWidth(run.strokeWidth!);
  doc.lineJoin('round');
  doc.addContent('/Span <</ActualText <FEFF>>> BDC');
  doc.addContent('BT');
  doc.addContent(`/${fontId} ${num(run.size)} Tf`);
  doc.addContent('1 Tr');
  for (const op of ops) doc.addContent(op);
  doc.addContent('ET');
  doc.addContent('EMC');
  doc.restore();
  if (!form) return;
  doc.page.content = pageContent;
  form.end();
  const name = `Fx${++ctx.res.forms}`;
  doc.page.xobjects[name] = form;
  doc.save();
  setExtGState(ctx.doc, ctx.res, { ca: alpha, CA: alpha });
  doc.addContent(`/${name} Do`);
  doc.restore();
}

/**
 * A run in a colour font (emoji): each colour glyph is its vector form (pdf-color.ts) with its
 * characters as invisible text (3 Tr) in an ActualText span, so copying and search give them. The
 * run's other glyphs stay real text, in a copy of the font without its colour tables (pdfkit cannot
 * subset a COLR font); a glyph standing for no character (a variation selector's) is its outline.
 */
function colorRun(ctx: PdfTextContext, run: ItemOf<'glyphs'>, face: FontFace): void {
  const doc = ctx.doc;
  const s = run.size / face.unitsPerEm;
  const alpha = ctx.alpha;
  ctx.res.colorGlyphs ??= new PdfColorGlyphs(doc);
  const plain: PositionedGlyph[] = [];
  for (const g of run.glyphs) {
    const at = `${num(s)} 0 0 ${num(-s)} ${num(g.x)} ${num(g.y)} cm`;
    const colour = face.colorGlyph?.(g.id);
    if (colour) {
      const form = ctx.res.colorGlyphs.form(`${run.face}:${g.id}`, colour, run.color);
      let name = ctx.res.colorGlyphNames.get(form);
      if (!name) {
        name = `Em${ctx.res.colorGlyphNames.size + 1}`;
        ctx.res.colorGlyphNames.set(form, name);
      }
      doc.page.xobjects[name] = form as PdfRef;
      doc.addContent('q');
      // Always set: a fill before may have left another alpha in the graphics state (see PdfBackend.place).
      setExtGState(ctx.doc, ctx.res, { ca: alpha, CA: alpha });
      doc.addContent(at);
      doc.addContent(`/${name} Do`);
      doc.addContent('Q');
      continue;
    }
    if (g.chars) {
      plain.push(g);
      continue;
    }
    const svg = face.outlines.getGlyph(g.id).path.toSVG();
    if (!svg) continue;
    doc.addContent('q');
    doc.fillColor(rgb(run.color), alpha * run.color[3]);
    doc.addContent(at);
    doc.addContent(`${svgToPdfPath(svg)}\nf`);
    doc.addContent('Q');
  }
  invisibleText(ctx, run, face);
  if (plain.length === 0) return;
  runAsText(ctx, { ...run, glyphs: plain }, face, plainFont(ctx, run.face, face));
}

/** A colour font's plain glyphs as real text: a copy of the font without its colour tables (pdfkit cannot subset a COLR font). */
function plainFont(ctx: PdfTextContext, faceKey: string, face: FontFace): string {
  const key = `${faceKey}#text`;
  if (!ctx.doc._registeredFonts[key]) ctx.doc.registerFont(key, withoutTables(face.bytes, ['COLR', 'CPAL']));
  return key;
}

/** Each colour glyph's cluster as an invisible space (bundled Inter) stretched over its advance, standing for its characters. */
function invisibleText(ctx: PdfTextContext, run: ItemOf<'glyphs'>, face: FontFace): void {
  const doc = ctx.doc;
  const inter = bundledFonts().face('Inter', 400);
  const space = inter.shaper.layout(' ').glyphs[0]!.id;
  // Its own name: the set's "Inter-400" may be another file whose space has another glyph id.
  if (!doc._registeredFonts[INVISIBLE_TEXT_FONT]) doc.registerFont(INVISIBLE_TEXT_FONT, inter.bytes);
  doc.font(INVISIBLE_TEXT_FONT);
  const font = doc._font;
  if (doc.page.fonts[font.id] == null) doc.page.fonts[font.id] = font.ref();
  const gid = font.subset.includeGlyph(space);
  if (font.widths[gid] == null) font.widths[gid] = inter.outlines.getGlyph(space).advanceWidth * font.scale;
  if (font.unicode[gid] == null) font.unicode[gid] = [32];
  const spaceAdvance = (font.widths[gid] / 1000) * run.size;
  const hex = `0000${gid.toString(16)}`.slice(-4);
  const s = run.size / face.unitsPerEm;
  // q/Q: the render mode and horizontal scale are graphics state and would outlive ET (and poppler
  // reads an ActualText span with the state at its EMC, so the Q comes after the last one).
  doc.addContent('q');
  run.glyphs.forEach((g, i) => {
    if (!g.chars || !face.colorGlyph?.(g.id)) return;
    // The cluster's advance: up to the next cluster, or the glyph's own width for the last one.
    const next = run.glyphs.slice(i + 1).find((n) => n.chars && Math.abs(n.y - g.y) < 1e-6);
    const advance = next ? next.x - g.x : face.outlines.getGlyph(g.id).advanceWidth * s;
    const utf16 = [...Buffer.from(g.chars, 'utf16le').swap16()].map((b) => b.toString(16).padStart(2, '0')).join('');
    doc.addContent(`/Span <</ActualText <FEFF${utf16}>>> BDC`);
    doc.addContent(
      `BT 3 Tr /${font.id} ${num(run.size)} Tf ${num(Math.max(1, (advance / spaceAdvance) * 100))} Tz 1 0 0 -1 ${num(g.x)} ${num(g.y)} Tm <${hex}> Tj ET`,
    );
    doc.addContent('EMC');
  });
  doc.addContent('Q');
}

const INVISIBLE_TEXT_FONT = 'Imprint-invisible-text';

const colorFaces = new WeakMap<FontFace, boolean>();
/** Whether the face has a COLR table (pdfkit's font embedding cannot subset those). */
export function isColorFace(face: FontFace): boolean {
  let colour = colorFaces.get(face);
  if (colour === undefined) {
    colour = face.colorGlyph !== undefined && (tableDirectory(face.bytes)?.some((t) => t.tag === 'COLR') ?? false);
    colorFaces.set(face, colour);
  }
  return colour;
}
