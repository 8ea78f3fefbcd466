// pdfkit's document as the pdf painter drives it: the internals it reaches past pdfkit's public types,
// the per-document resources its pages share, and the number and colour forms of content streams.
import type { ImageCache } from '../assets/load.js';
import type { RGBA } from '../scene/scene.js';
import type { FontSet } from '../text/fonts.js';
import type { PdfColorGlyphs } from './pdf-color.js';

// pdfkit's public types do not cover the internals a glyph-exact painter needs: the current font's
// subset, the page's resource dictionaries, raw references and the tracked transform.
export interface PdfRef {
  write(chunk: string | Buffer): void;
  end(chunk?: string | Buffer): void;
  data: Record<string, unknown>;
}
interface PdfFont {
  id: string;
  ref(): PdfRef;
  subset: { includeGlyph(id: number): number };
  widths: number[];
  unicode: number[][];
  scale: number;
}
interface PdfPage {
  /** The page dictionary (MediaBox, and the TrimBox and BleedBox of a page with bleed). */
  dictionary: PdfRef;
  content: PdfRef;
  resources: PdfRef;
  fonts: Record<string, PdfRef>;
  xobjects: Record<string, PdfRef>;
  ext_gstates: Record<string, PdfRef>;
  annotations: PdfRef[];
}
export interface PdfInternals {
  page: PdfPage;
  _font: PdfFont;
  _ctm: number[];
  _registeredFonts: Record<string, unknown>;
  ref(data?: Record<string, unknown>): PdfRef;
  addContent(op: string): unknown;
  openImage(src: Buffer): { obj?: PdfRef; label: string; width: number; height: number; embed(doc: unknown): void };
}
// The drawing calls the pdf painter makes, typed here rather than by @types/pdfkit: its global PDFKit
// namespace would otherwise appear in the published .d.ts, which a consumer could not resolve
// (@types/pdfkit is a devDependency). pdfkit's document satisfies this structurally.
/** pdfkit's chainable path, paint-state and font calls, in the forms the pdf painter uses. */
export interface PdfDrawing {
  save(): PdfDrawing;
  restore(): PdfDrawing;
  transform(a: number, b: number, c: number, d: number, e: number, f: number): PdfDrawing;
  moveTo(x: number, y: number): PdfDrawing;
  lineTo(x: number, y: number): PdfDrawing;
  bezierCurveTo(cp1x: number, cp1y: number, cp2x: number, cp2y: number, x: number, y: number): PdfDrawing;
  rect(x: number, y: number, width: number, height: number): PdfDrawing;
  roundedRect(x: number, y: number, width: number, height: number, radius: number): PdfDrawing;
  closePath(): PdfDrawing;
  clip(rule?: 'even-odd'): PdfDrawing;
  fill(rule?: 'even-odd'): PdfDrawing;
  stroke(): PdfDrawing;
  fillColor(color: [number, number, number], opacity?: number): PdfDrawing;
  strokeColor(color: [number, number, number], opacity?: number): PdfDrawing;
  lineWidth(width: number): PdfDrawing;
  dash(length: number, options: { space: number }): PdfDrawing;
  undash(): PdfDrawing;
  lineJoin(join: 'miter' | 'round' | 'bevel'): PdfDrawing;
  lineCap(cap: 'butt' | 'round' | 'square'): PdfDrawing;
  miterLimit(limit: number): PdfDrawing;
  font(name: string): PdfDrawing;
  registerFont(name: string, src: Buffer): PdfDrawing;
}
/** The document as drawing code sees it: pdfkit's drawing calls and the internals reached past them. */
export type PdfDoc = PdfDrawing & PdfInternals;

/** The pdfkit document as the backend drives it: drawing, internals, pages and the byte stream. */
export interface PdfDocument extends PdfDrawing, PdfInternals {
  addPage(options: { size: [number, number]; margin: number }): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): void;
}

/** A number as content streams write it: to 0.001, never -0. */
export const num = (v: number): string => {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
};

/** The colour channels of an RGBA, as pdfkit's fillColor and strokeColor take them. */
export function rgb([r, g, b]: RGBA): [number, number, number] {
  return [r, g, b];
}

/** Per-document state: embedded images and graphics states are created once and reused by every page. */
export class PdfResources {
  readonly images = new Map<string, PdfRef>();
  readonly states = new Map<string, { name: string; ref: PdfRef }>();
  forms = 0;
  /** Shadings and gradient soft masks so far: their resource names. */
  readonly shadings = { shadings: 0 };
  /** Colour glyph forms (emoji), made on first use, and the names pages know them by. */
  colorGlyphs: PdfColorGlyphs | undefined;
  readonly colorGlyphNames = new Map<unknown, string>();
  constructor(
    readonly fonts: FontSet,
    readonly cache: ImageCache,
  ) {}
}

/** Sets an ExtGState, created once per document for each distinct set of values. */
export function setExtGState(doc: PdfDoc, res: PdfResources, values: Record<string, number | string>): void {
  const key = JSON.stringify(values);
  let s = res.states.get(key);
  if (!s) {
    s = { name: `Gi${res.states.size + 1}`, ref: doc.ref({ Type: 'ExtGState', ...values }) };
    s.ref.end();
    res.states.set(key, s);
  }
  doc.page.ext_gstates[s.name] = s.ref;
  doc.addContent(`/${s.name} gs`);
}
