// Vector PDF backend on pdfkit: the display list the raster backend paints, as PDF operators,
// driven by the same walk (paint/walk.ts); this module only supplies the primitive operations.
// Text is real text in the bundled fonts (embedded, subset, with a ToUnicode map) placed glyph by
// glyph where layout put it; shapes and charts are paths; images are embedded once at source
// resolution (colour-filtered ones as their filtered pixels) and cropped by clipping; links become URI annotations over their glyphs.
import { decodePixels, type DecodedImage, type ImageCache, type LoadedImage } from '../assets/load.js';
import type { RGBA, Rect } from '../scene/scene.js';
import type { BlendMode, DisplayItem, DisplayList, Geometry, Matrix, PositionedGlyph } from '../scene/display-list.js';
import { bundledFonts, type FontFace, type FontSet } from '../text/fonts.js';
import { tableDirectory, withoutTables } from '../text/font-tables.js';
import { SYNTHETIC_ITALIC_SKEW, syntheticBoldStroke } from '../text/synthetic.js';
import { PdfColorGlyphs, svgToPdfPath } from './pdf-color.js';
import { applyFilters, filteredKey } from './image-filters.js';
import { prepareBlurs } from './pdf-blur.js';
import { paintShading } from './pdf-gradient.js';
import { boundsOf, compose, invert, prepareShadows, type PreparedShadow } from './pdf-shadow.js';
import type { GroupItem, ItemOf, PageInput, PaintBackend, PreparedPage } from './backend.js';
import { prepareQuad } from './raster-images.js';
import { tracePathData } from './path-geometry.js';
import { imageItems } from './walk.js';

/** CSS pixels to PDF points: 96 px per inch, 72 pt per inch. A 1080 px design is an 810 pt page. */
export const PT_PER_PX = 0.75;

/** A box coordinate as pdfkit writes the MediaBox: rounded to 1e-6 pt, so equal edges stay equal. */
const pdfNumber = (v: number): number => Math.round(v * 1e6) / 1e6;
/** Perspective layers are rasterised at this density of their area (300 dpi). */
const QUAD_PX_SCALE = 300 / 96;

// pdfkit's public types do not cover the internals a glyph-exact backend needs: the current font's
// subset, the page's resource dictionaries, raw references and the tracked transform.
interface PdfRef {
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
// The drawing calls made here, typed by this module rather than by @types/pdfkit: its global PDFKit
// namespace would otherwise appear in the published .d.ts, which a consumer could not resolve
// (@types/pdfkit is a devDependency). pdfkit's document satisfies this structurally.
/** pdfkit's chainable path, paint-state and font calls, in the forms this backend uses. */
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
type Doc = PdfDrawing & PdfInternals;

/** UTF-16BE hex of a text string (PDF text strings with a byte order mark). */
const utf16Hex = (s: string): string => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16).padStart(4, '0')).join('');

const num = (v: number): string => {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
};

/** A glyph of a run as the content stream shows it: its code, its advance there (px) and its text. */
interface CodedGlyph {
  g: PositionedGlyph;
  hex: string;
  /** The advance of the font's width entry, which readers take as the glyph's extent. */
  advance: number;
  /** What the glyph stands for, as written for readers (textOf). */
  text: string;
  /** What the font's ToUnicode map says it stands for (its first use). */
  mapped: string;
}

/**
 * A glyph's characters as readers are given them. The content stream draws right-to-left text in
 * visual order, and readers put it back in reading order by reversing its characters one by one
 * (poppler's pdftotext, pdf.js and PDFium all do), not glyph by glyph: so the characters of one
 * right-to-left glyph (a letter with its points, a ligature) are written last to first, to come out
 * first to last. Written in reading order, pdftotext gave `שָׁלוֹם` as `ָׁשלֹום`, the points before their letter.
 * (Where poppler takes a page for left to right, it puts the characters that are neither letters nor
 * digits at the start of a right-to-left stretch before it: a point on the last letter of such a
 * stretch, with -raw of every word, still comes out first. Only a directional mark added to the
 * text would avoid that, and search would then miss the phrase.)
 */
function textOf(g: PositionedGlyph): string {
  if (g.chars === undefined) return '';
  return g.rtl ? [...g.chars].reverse().join('') : g.chars;
}

/** The run's words: glyphs between whitespace glyphs, each whitespace glyph a word of its own. */
function words(glyphs: readonly CodedGlyph[]): CodedGlyph[][] {
  const out: CodedGlyph[][] = [];
  let word: CodedGlyph[] = [];
  for (const c of glyphs) {
    if (c.text !== '' && /^\s+$/u.test(c.text)) {
      if (word.length > 0) out.push(word);
      out.push([c]);
      word = [];
    } else word.push(c);
  }
  if (word.length > 0) out.push(word);
  return out;
}

/**
 * Whether a reader that builds words from the glyphs' own text by position, as poppler does
 * (TextOutputDev), reads the word back as drawn: each glyph's characters spread over its font
 * advance, a new word started where a glyph is more than 0.1 em past the end of the one before or
 * 0.2 em back over it, where it starts within 0.1 em of the one before (taken for duplicated text)
 * or after a glyph standing for no text, and a space put between two such pieces 0.03 em or more
 * apart. So Latin with kerning, Arabic and unpointed Hebrew, CJK and Thai letters without marks read
 * as they are; a word with a mark that is its own character (drawn over its letter, so poppler makes
 * it a word apart or a line of its own), a Devanagari i sign drawn before its consonant (the
 * consonant's advance a gap with no text) or a Tamil two-part vowel does not, nor one whose text
 * stops short of its last glyph (a Thai sara am's aa drawn apart), and gets its text as one
 * ActualText span instead: poppler reads the span's characters as one piece from its first glyph to
 * the end of its last, so the word comes out whole and once.
 */
function readsAsDrawn(word: readonly CodedGlyph[], size: number): boolean {
  let prev: CodedGlyph | null = null;
  let silent = false;
  for (const c of word) {
    // ToUnicode maps one text per glyph, fixed by its first use: where this use stands for other
    // characters (a letter alone and as the base of a cluster), the word's text goes in ActualText.
    if (c.text !== c.mapped) return false;
    if (c.text === '') {
      silent = true;
      continue;
    }
    if (prev) {
      const gap = c.g.x - (prev.g.x + prev.advance);
      if (Math.abs(c.g.x - prev.g.x) < 0.1 * size) return false;
      const breaks = silent || gap > 0.1 * size || gap < -0.2 * size || Math.abs(c.g.y - prev.g.y) > 1e-6;
      if (breaks && gap >= 0.03 * size) return false;
    } else if (c.g.x - Math.min(...word.map((w) => w.g.x)) >= 0.03 * size) return false;
    prev = c;
    silent = false;
  }
  // Glyphs with no text drawn after the last character: a gap before whatever the line draws next.
  return prev === null || Math.max(...word.map((w) => w.g.x + w.advance)) - (prev.g.x + prev.advance) < 0.03 * size;
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

function pathOf(doc: Doc, g: Geometry): void {
  switch (g.kind) {
    case 'rect':
      doc.rect(g.rect.x, g.rect.y, g.rect.width, g.rect.height);
      return;
    case 'round_rect':
      doc.roundedRect(g.rect.x, g.rect.y, g.rect.width, g.rect.height, g.radius);
      return;
    case 'ellipse': {
      // Started at 3 o'clock and drawn clockwise, as the raster backend does, so dashes line up.
      const { x, y, width, height } = g.rect;
      const [cx, cy, rx, ry] = [x + width / 2, y + height / 2, width / 2, height / 2];
      doc.moveTo(cx + rx, cy);
      arc(doc, cx, cy, rx, 0, 2 * Math.PI, ry);
      doc.closePath();
      return;
    }
    case 'polygon':
    case 'polyline':
      g.points.forEach(([x, y], i) => (i === 0 ? doc.moveTo(x, y) : doc.lineTo(x, y)));
      if (g.kind === 'polygon') doc.closePath();
      return;
    case 'wedge': {
      const at = (r: number, a: number): [number, number] => [g.cx + r * Math.cos(a), g.cy + r * Math.sin(a)];
      doc.moveTo(...at(g.radius, g.start));
      arc(doc, g.cx, g.cy, g.radius, g.start, g.end, g.radius);
      if (g.innerRadius > 0) {
        doc.lineTo(...at(g.innerRadius, g.end));
        arc(doc, g.cx, g.cy, g.innerRadius, g.end, g.start, g.innerRadius);
      } else doc.lineTo(g.cx, g.cy);
      doc.closePath();
      return;
    }
    case 'path':
      // pdfkit's quadraticCurveTo writes a `v` operator, which is a different curve: quadratics go
      // out as their exact cubic equivalents.
      tracePathData(g.d, {
        moveTo: (x, y) => doc.moveTo(x, y),
        lineTo: (x, y) => doc.lineTo(x, y),
        cubicTo: (x1, y1, x2, y2, x, y) => doc.bezierCurveTo(x1, y1, x2, y2, x, y),
        quadTo: (qx, qy, x, y, [px, py]) =>
          doc.bezierCurveTo(px + (2 / 3) * (qx - px), py + (2 / 3) * (qy - py), x + (2 / 3) * (qx - x), y + (2 / 3) * (qy - y), x, y),
        close: () => doc.closePath(),
      });
      return;
  }
}

/** An elliptical arc (radii r, ry) from the current point, as cubic Béziers of at most 90° each. */
function arc(doc: Doc, cx: number, cy: number, r: number, from: number, to: number, ry: number): void {
  const parts = Math.max(1, Math.ceil(Math.abs(to - from) / (Math.PI / 2) - 1e-9));
  const step = (to - from) / parts;
  const k = (4 / 3) * Math.tan(step / 4);
  for (let i = 0; i < parts; i++) {
    const a0 = from + i * step;
    const a1 = a0 + step;
    const [c0, s0, c1, s1] = [Math.cos(a0), Math.sin(a0), Math.cos(a1), Math.sin(a1)];
    doc.bezierCurveTo(cx + r * (c0 - k * s0), cy + ry * (s0 + k * c0), cx + r * (c1 + k * s1), cy + ry * (s1 - k * c1), cx + r * c1, cy + ry * s1);
  }
}

const isJpeg = (b: Uint8Array): boolean => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** What a page needs decoded before pdfkit's synchronous drawing starts. */
export interface PdfPagePixels {
  /** Perspective layers, rasterised at 300 dpi of their area (null: a degenerate quad, drawn as nothing). */
  quads: Map<DisplayItem, { image: DecodedImage; dst: Rect } | null>;
  /** Full-resolution pixels of images not embedded as their own jpg bytes, and of every mask, by hash. */
  sources: Map<string, DecodedImage>;
  /** Full-resolution pixels of colour-filtered pictures, by `filteredKey` (embedded instead of the source). */
  filtered?: Map<string, DecodedImage>;
  /** Images decoded by the caller (video frames), by display-list key. */
  ready?: ReadonlyMap<string, DecodedImage>;
  /** Shadows rasterised at 300 dpi of their area, by the group that casts them (null: nothing to draw). */
  shadows?: Map<GroupItem, PreparedShadow | null>;
}

export async function preparePdfPage(list: DisplayList, images: ReadonlyMap<string, LoadedImage>, cache: ImageCache): Promise<PdfPagePixels> {
  const quads: PdfPagePixels['quads'] = new Map();
  const sources: PdfPagePixels['sources'] = new Map();
  const filtered: PdfPagePixels['sources'] = new Map();
  const decodeSource = async (image: LoadedImage): Promise<void> => {
    if (!sources.has(image.hash)) sources.set(image.hash, await decodePixels(image, null, image.width, image.height, cache));
  };
  for (const { item: it, scale } of imageItems(list.items)) {
    if (it.kind === 'image_quad') {
      const source = images.get(it.image);
      const done = source ? await prepareQuad(it, source, scale * QUAD_PX_SCALE, cache) : null;
      quads.set(it, done ? { image: done.image, dst: done.item.dst } : null);
    } else {
      const source = images.get(it.image);
      if (!source) continue; // decoded by the caller (video frames)
      if (it.tint || !isJpeg(source.bytes) || source.oriented || it.filters) await decodeSource(source);
      const filters = it.filters;
      if (filters) {
        const key = filteredKey(source.hash, filters);
        if (!filtered.has(key)) {
          const px = sources.get(source.hash)!;
          filtered.set(key, cache.pixels(key) ?? applyFilters(px, filters));
          cache.set(filtered.get(key)!);
        }
      }
    }
  }
  return { quads, sources, filtered };
}

/** A page with everything decoded that pdfkit's synchronous drawing will need. */
export interface PdfPreparedPage extends PreparedPage {
  images: ReadonlyMap<string, LoadedImage>;
  prepared: PdfPagePixels;
}

/** An open transparency group: the form being painted and what to return to when it is done. */
interface Layer {
  form: PdfRef;
  pageContent: PdfRef;
  outer: number;
  /** The group's mask, painted as a form after the content: the soft mask the layer is drawn through. */
  mask?: { form: PdfRef; luminance: boolean };
}

/** The pdfkit document as the backend drives it: drawing, internals, pages and the byte stream. */
export interface PdfDocument extends PdfDrawing, PdfInternals {
  addPage(options: { size: [number, number]; margin: number }): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): void;
}

export class PdfBackend implements PaintBackend<Buffer, PdfPreparedPage> {
  /** Opacity of what is painted now; pdf has no current-alpha state, so it is tracked here and set per fill. */
  private alpha = 1;
  private readonly alphas: number[] = [];
  /** The transform from the current user space to the page's design pixels (shadows are placed in those). */
  private matrix: Matrix = [1, 0, 0, 1, 0, 0];
  private readonly matrices: Matrix[] = [];
  private readonly layers: Layer[] = [];
  /** Open masks: the layer content to return to and the opacity tracked there. */
  private readonly maskStack: { layerContent: PdfRef; alpha: number }[] = [];
  private images: ReadonlyMap<string, LoadedImage> = new Map();
  private prepared!: PdfPagePixels;
  private readonly res: PdfResources;
  private readonly bytes: Promise<Buffer>;

  constructor(
    private readonly doc: PdfDocument,
    fonts: FontSet,
    cache: ImageCache,
  ) {
    this.res = new PdfResources(fonts, cache);
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    this.bytes = new Promise<Buffer>((resolve, reject) => {
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
    });
  }

  async prepare(page: PageInput): Promise<PdfPreparedPage> {
    const resources = { images: page.images, fonts: this.res.fonts, cache: this.res.cache, ...(page.ready ? { ready: page.ready } : {}) };
    // Blurred groups become images first, so what they hold is neither embedded nor shadowed again.
    const blurred = await prepareBlurs(page.list, resources);
    const list = blurred.list;
    const pixels = await preparePdfPage(list, page.images, this.res.cache);
    const shadows = await prepareShadows(list.items, resources);
    const ready = new Map([...(page.ready ?? new Map<string, DecodedImage>()), ...blurred.images]);
    return { list, images: page.images, prepared: { ...pixels, shadows, ready } };
  }

  beginPage(page: PdfPreparedPage): void {
    this.images = page.images;
    this.prepared = page.prepared;
    const { list } = page;
    // Points per design pixel: 72 / dpi of a print design, else CSS pixels (96 dpi).
    const k = list.dpi === undefined ? PT_PER_PX : 72 / list.dpi;
    const b = list.bleed ?? { top: 0, right: 0, bottom: 0, left: 0 };
    const width = (list.width + b.left + b.right) * k;
    const height = (list.height + b.top + b.bottom) * k;
    this.doc.addPage({ size: [width, height], margin: 0 });
    if (list.bleed) {
      // The page grows by the bleed on each side (Polotno's toPDF with includeBleed); the TrimBox marks
      // where it is cut, and the BleedBox, the whole page, what the printer keeps (PDF boxes are from the bottom left).
      const trim = [b.left * k, b.bottom * k, (b.left + list.width) * k, (b.bottom + list.height) * k].map(pdfNumber);
      this.doc.page.dictionary.data.TrimBox = trim;
      this.doc.page.dictionary.data.BleedBox = [0, 0, width, height].map(pdfNumber);
    }
    this.doc.save();
    this.doc.transform(k, 0, 0, k, b.left * k, b.top * k);
    this.matrix = [1, 0, 0, 1, 0, 0];
  }

  endPage(): void {
    this.doc.restore();
  }

  finish(): Promise<Buffer> {
    this.doc.end();
    return this.bytes;
  }

  save(): void {
    this.doc.save();
    this.alphas.push(this.alpha);
    this.matrices.push(this.matrix);
  }

  restore(): void {
    this.doc.restore();
    this.alpha = this.alphas.pop()!;
    this.matrix = this.matrices.pop()!;
  }

  transform(m: Matrix): void {
    this.doc.transform(...m);
    this.matrix = compose(this.matrix, m);
  }

  opacity(alpha: number): void {
    this.alpha *= alpha;
  }

  blend(mode: Exclude<BlendMode, 'normal'>): void {
    this.state({ BM: blendName(mode) });
  }

  clip(geometry: Geometry, evenOdd = false): void {
    pathOf(this.doc, geometry);
    this.doc.clip(evenOdd ? 'even-odd' : undefined);
  }

  fill(it: ItemOf<'fill'>): void {
    const doc = this.doc;
    pathOf(doc, it.geometry);
    doc.fillColor(rgb(it.color), this.alpha * it.color[3]);
    doc.fill(it.evenOdd ? 'even-odd' : undefined);
  }

  gradient(it: ItemOf<'gradient'>): void {
    const doc = this.doc;
    doc.save();
    pathOf(doc, it.geometry);
    doc.clip(it.evenOdd ? 'even-odd' : undefined);
    // Always set, as for images: `sh` paints at whatever alpha the last fill left.
    this.state({ ca: this.alpha });
    paintShading(doc, this.res.shadings, it.gradient, it.geometry);
    doc.restore();
  }

  stroke(it: ItemOf<'stroke'>): void {
    const doc = this.doc;
    pathOf(doc, it.geometry);
    doc.lineWidth(it.width);
    // The whole pattern, zeros included (dots with round caps): pdfkit's dash() refuses zero lengths.
    if (it.dash) doc.addContent(`[${it.dash.map(num).join(' ')}] ${num(it.dashOffset ?? 0)} d`);
    else doc.undash();
    doc.lineJoin(it.join ?? 'miter').lineCap(it.cap ?? (it.join === 'round' ? 'round' : 'butt'));
    doc.miterLimit(it.miterLimit ?? 10);
    doc.strokeColor(rgb(it.color), this.alpha * it.color[3]);
    doc.stroke();
  }

  image(it: ItemOf<'image'>): void {
    const source = it.filters && this.images.get(it.image);
    if (source && it.filters) {
      // The filtered pixels at the source's resolution, so src (in source pixels) still applies.
      const px = this.prepared.filtered?.get(filteredKey(source.hash, it.filters));
      if (!px) throw new Error(`pdf: filtered pixels of ${source.ref} were not prepared`);
      return this.pixels(px, it.src, it.dst);
    }
    this.imageIn(it.image, it.src, it.dst, it.tint);
  }

  imageQuad(it: ItemOf<'image_quad'>): void {
    const done = this.prepared.quads.get(it);
    if (done) this.pixels(done.image, { x: 0, y: 0, width: done.image.width, height: done.image.height }, done.dst);
  }

  /** Opens a form XObject with a transparency group; endLayer draws it once at the group's opacity. */
  beginLayer(g: GroupItem): boolean {
    const doc = this.doc;
    const shadow = g.shadow && this.prepared.shadows?.get(g);
    // A shadow is painted inside the group, so the group's opacity applies to shadow and content at once
    // (as the png does); the form's box grows to hold it.
    const toLocal = invert(this.matrix);
    const { x, y, width, height } = shadow ? union(g.bounds, boundsOf(toLocal, shadow.dst)) : g.bounds;
    const form = doc.ref({
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [x, y, x + width, y + height],
      Group: { Type: 'Group', S: 'Transparency' },
      Resources: doc.page.resources,
    });
    this.layers.push({ form, pageContent: doc.page.content, outer: this.alpha });
    doc.page.content = form;
    this.alpha = 1;
    doc.save();
    if (shadow) {
      // The rasterised shadow is placed in page pixels: undo the group's transform (and its parents').
      doc.save();
      doc.transform(...toLocal);
      this.pixels(shadow.image, { x: 0, y: 0, width: shadow.image.width, height: shadow.image.height }, shadow.dst);
      doc.restore();
    }
    return true;
  }

  endLayer(g: GroupItem): void {
    const doc = this.doc;
    const { form, pageContent, outer, mask } = this.layers.pop()!;
    doc.restore();
    doc.page.content = pageContent;
    this.alpha = outer;
    form.end();
    const name = `Fx${++this.res.forms}`;
    doc.page.xobjects[name] = form;
    const a = outer * g.opacity;
    const blend = g.blend ?? 'normal';
    this.state({ ca: a, CA: a, ...(blend === 'normal' ? {} : { BM: blendName(blend) }) });
    if (mask) {
      // The mask's form is placed by the transform in force at gs: the group's own, as its content's.
      const state = doc.ref({ Type: 'ExtGState', SMask: { Type: 'Mask', S: mask.luminance ? 'Luminosity' : 'Alpha', G: mask.form } });
      state.end();
      const gs = `Gk${++this.res.forms}`;
      doc.page.ext_gstates[gs] = state;
      doc.addContent(`/${gs} gs`);
    }
    doc.addContent(`/${name} Do`);
  }

  /** Opens the mask's form (a transparency group, painted in the layer's coordinates); endMask closes it. */
  beginMask(g: GroupItem): void {
    const doc = this.doc;
    const layer = this.layers[this.layers.length - 1]!;
    const { x, y, width, height } = g.bounds;
    const form = doc.ref({
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [x, y, x + width, y + height],
      // A luminosity mask is measured in RGB, over the black backdrop of the soft mask's default.
      Group: { Type: 'Group', S: 'Transparency', CS: 'DeviceRGB' },
      Resources: doc.page.resources,
    });
    this.maskStack.push({ layerContent: doc.page.content, alpha: this.alpha });
    layer.mask = { form, luminance: g.mask?.luminance === true };
    doc.page.content = form;
    this.alpha = 1;
    doc.save();
  }

  endMask(): void {
    const doc = this.doc;
    const { layerContent, alpha } = this.maskStack.pop()!;
    doc.restore();
    doc.page.content = layerContent;
    this.alpha = alpha;
    this.layers[this.layers.length - 1]!.mask!.form.end();
  }

  /** Sets an ExtGState, created once per document for each distinct set of values. */
  private state(values: Record<string, number | string>): void {
    const key = JSON.stringify(values);
    let s = this.res.states.get(key);
    if (!s) {
      s = { name: `Gi${this.res.states.size + 1}`, ref: this.doc.ref({ Type: 'ExtGState', ...values }) };
      s.ref.end();
      this.res.states.set(key, s);
    }
    this.doc.page.ext_gstates[s.name] = s.ref;
    this.doc.addContent(`/${s.name} gs`);
  }

  /** Glyphs by id at the positions layout chose, as real text: TJ kerning makes up any difference from the font's advances. */
  glyphs(run: Extract<DisplayItem, { kind: 'glyphs' }>): void {
    if (run.glyphs.length === 0) return;
    const face = this.res.fonts.byFaceKey(run.face);
    if (isColorFace(face)) return run.strokeWidth === undefined ? this.colorRun(run, face) : this.text(run, face, this.plainFont(run.face, face));
    this.text(run, face, run.face);
  }

  /** The run as real text in the pdfkit font registered as `fontKey`. */
  private text(run: Extract<DisplayItem, { kind: 'glyphs' }>, face: FontFace, fontKey: string): void {
    const doc = this.doc;
    doc.font(fontKey);
    const font = doc._font;
    if (doc.page.fonts[font.id] == null) doc.page.fonts[font.id] = font.ref();
    if (run.strokeWidth === undefined && !run.gradient) doc.fillColor(rgb(run.color), this.alpha * run.color[3]);
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
    if (run.strokeWidth !== undefined) return this.outlineText(run, font.id, ops);
    if (run.gradient) return this.gradientText(run, font.id, ops);
    if (face.synthetic?.bold) {
      doc.save();
      doc.strokeColor(rgb(run.color), this.alpha * run.color[3]);
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
  private gradientText(run: ItemOf<'glyphs'>, fontId: string, ops: readonly string[]): void {
    const doc = this.doc;
    doc.save();
    doc.addContent('BT');
    doc.addContent(`/${fontId} ${num(run.size)} Tf`);
    doc.addContent('7 Tr');
    for (const op of ops) doc.addContent(op);
    doc.addContent('ET');
    // Always set: `sh` paints at whatever alpha the last fill left.
    this.state({ ca: this.alpha });
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
    paintShading(doc, this.res.shadings, run.gradient!, { kind: 'rect', rect });
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
  private outlineText(run: Extract<DisplayItem, { kind: 'glyphs' }>, fontId: string, ops: readonly string[]): void {
    const doc = this.doc;
    const alpha = this.alpha * run.color[3];
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
    const name = `Fx${++this.res.forms}`;
    doc.page.xobjects[name] = form;
    doc.save();
    this.state({ ca: alpha, CA: alpha });
    doc.addContent(`/${name} Do`);
    doc.restore();
  }

  /**
   * A run in a colour font (emoji): each colour glyph is its vector form (pdf-color.ts) with its
   * characters as invisible text (3 Tr) in an ActualText span, so copying and search give them. The
   * run's other glyphs stay real text, in a copy of the font without its colour tables (pdfkit cannot
   * subset a COLR font); a glyph standing for no character (a variation selector's) is its outline.
   */
  private colorRun(run: Extract<DisplayItem, { kind: 'glyphs' }>, face: FontFace): void {
    const doc = this.doc;
    const s = run.size / face.unitsPerEm;
    const alpha = this.alpha;
    this.res.colorGlyphs ??= new PdfColorGlyphs(doc);
    const plain: PositionedGlyph[] = [];
    for (const g of run.glyphs) {
      const at = `${num(s)} 0 0 ${num(-s)} ${num(g.x)} ${num(g.y)} cm`;
      const colour = face.colorGlyph?.(g.id);
      if (colour) {
        const form = this.res.colorGlyphs.form(`${run.face}:${g.id}`, colour, run.color);
        let name = this.res.colorGlyphNames.get(form);
        if (!name) {
          name = `Em${this.res.colorGlyphNames.size + 1}`;
          this.res.colorGlyphNames.set(form, name);
        }
        doc.page.xobjects[name] = form as PdfRef;
        doc.addContent('q');
        // Always set: a fill before may have left another alpha in the graphics state (see place).
        this.state({ ca: alpha, CA: alpha });
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
    this.invisibleText(run, face);
    if (plain.length === 0) return;
    this.text({ ...run, glyphs: plain }, face, this.plainFont(run.face, face));
  }

  /** A colour font's plain glyphs as real text: a copy of the font without its colour tables (pdfkit cannot subset a COLR font). */
  private plainFont(faceKey: string, face: FontFace): string {
    const key = `${faceKey}#text`;
    if (!this.doc._registeredFonts[key]) this.doc.registerFont(key, withoutTables(face.bytes, ['COLR', 'CPAL']));
    return key;
  }

  /** Each colour glyph's cluster as an invisible space (bundled Inter) stretched over its advance, standing for its characters. */
  private invisibleText(run: Extract<DisplayItem, { kind: 'glyphs' }>, face: FontFace): void {
    const doc = this.doc;
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

  /** The image `src` part drawn into `dst`: the whole image is embedded once and clipped to `dst`. */
  private imageIn(key: string, src: Rect, dst: Rect, tint?: RGBA): void {
    const decoded = this.prepared.ready?.get(key);
    if (decoded) return this.pixels(decoded, src, dst);
    const image = this.images.get(key);
    if (!image) throw new Error(`pdf: image ${key} was not loaded`);
    const name = tint ? this.tintedXObject(image, tint) : this.xobject(image);
    this.place(name, image.width, image.height, src, dst);
  }

  private pixels(image: DecodedImage, src: Rect, dst: Rect): void {
    let ref = this.res.images.get(image.hash);
    if (!ref) {
      ref = rawImage(this.doc, image.rgba, image.width, image.height, image.opaque);
      this.res.images.set(image.hash, ref);
    }
    this.place(this.register(ref, image.hash), image.width, image.height, src, dst);
  }

  private place(name: string, width: number, height: number, src: Rect, dst: Rect): void {
    const doc = this.doc;
    const sx = dst.width / src.width;
    const sy = dst.height / src.height;
    doc.save();
    doc.rect(dst.x, dst.y, dst.width, dst.height).clip();
    // Always set: fills and text set their alpha in the graphics state and leave it there, so an
    // image after a see-through fill (the transparent canvas of a design without a background) would
    // otherwise be painted at that fill's alpha.
    this.state({ ca: this.alpha, CA: this.alpha });
    // Image space is the unit square, y up; the page here is y down.
    doc.transform(width * sx, 0, 0, -height * sy, dst.x - src.x * sx, dst.y - src.y * sy + height * sy);
    doc.addContent(`/${name} Do`);
    doc.restore();
  }

  private register(ref: PdfRef, key: string): string {
    const name = `Im${[...this.res.images.keys()].indexOf(key) + 1}`;
    this.doc.page.xobjects[name] = ref;
    return name;
  }

  /** jpgs as they are (DCT data untouched); anything else as deflated pixels with an alpha soft mask. */
  private xobject(image: LoadedImage): string {
    let ref = this.res.images.get(image.hash);
    if (!ref) {
      if (isJpeg(image.bytes) && !image.oriented) {
        const jpeg = this.doc.openImage(Buffer.from(image.bytes));
        if (!jpeg.obj) jpeg.embed(this.doc);
        ref = jpeg.obj!;
      } else {
        const px = this.prepared.sources.get(image.hash);
        if (!px) throw new Error(`pdf: pixels of ${image.ref} were not decoded`);
        ref = rawImage(this.doc, px.rgba, px.width, px.height, image.opaque);
      }
      this.res.images.set(image.hash, ref);
    }
    return this.register(ref, image.hash);
  }

  /** A colour through a mask: a 1×1 image of the colour whose soft mask is the mask image's alpha. */
  private tintedXObject(image: LoadedImage, tint: RGBA): string {
    const key = `${image.hash}#${tint.join(',')}`;
    let ref = this.res.images.get(key);
    if (!ref) {
      const px = this.prepared.sources.get(image.hash);
      if (!px) throw new Error(`pdf: pixels of ${image.ref} were not decoded`);
      const alpha = Buffer.alloc(px.width * px.height);
      for (let i = 0; i < alpha.length; i++) alpha[i] = Math.round(px.rgba[i * 4 + 3]! * tint[3]);
      const mask = this.doc.ref({ Type: 'XObject', Subtype: 'Image', Width: px.width, Height: px.height, BitsPerComponent: 8, ColorSpace: 'DeviceGray' });
      mask.end(alpha);
      ref = this.doc.ref({ Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, BitsPerComponent: 8, ColorSpace: 'DeviceRGB', SMask: mask });
      ref.end(Buffer.from([tint[0], tint[1], tint[2]]));
      this.res.images.set(key, ref);
    }
    return this.register(ref, key);
  }

  link({ rect, url }: ItemOf<'link'>): void {
    const m = this.doc._ctm;
    const corners = [
      [rect.x, rect.y],
      [rect.x + rect.width, rect.y],
      [rect.x + rect.width, rect.y + rect.height],
      [rect.x, rect.y + rect.height],
    ].map(([x, y]) => [m[0]! * x! + m[2]! * y! + m[4]!, m[1]! * x! + m[3]! * y! + m[5]!] as const);
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    // QuadPoints order (PDF 1.7): bottom-left, bottom-right, top-right, top-left in page space.
    const [tl, tr, br, bl] = corners;
    const annot = this.doc.ref({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map((v) => Math.round(v * 1000) / 1000),
      QuadPoints: [bl!, br!, tr!, tl!].flatMap(([x, y]) => [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000]),
      Border: [0, 0, 0],
      F: 4,
      A: { Type: 'Action', S: 'URI', URI: new String(url) },
    });
    annot.end();
    this.doc.page.annotations.push(annot);
  }
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

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

function rgb([r, g, b]: RGBA): [number, number, number] {
  return [r, g, b];
}

function blendName(b: BlendMode): string {
  return b === 'multiply' ? 'Multiply' : b === 'screen' ? 'Screen' : 'Normal';
}

/** An image XObject from straight RGBA: RGB data plus, unless opaque, the alpha as a soft mask. */
function rawImage(doc: Doc, rgba: Buffer, width: number, height: number, opaque: boolean): PdfRef {
  const rgbData = Buffer.allocUnsafe(width * height * 3);
  const alpha = opaque ? null : Buffer.allocUnsafe(width * height);
  let hasAlpha = false;
  for (let i = 0, j = 0; i < width * height; i++, j += 4) {
    rgbData[i * 3] = rgba[j]!;
    rgbData[i * 3 + 1] = rgba[j + 1]!;
    rgbData[i * 3 + 2] = rgba[j + 2]!;
    if (alpha) {
      alpha[i] = rgba[j + 3]!;
      if (rgba[j + 3] !== 255) hasAlpha = true;
    }
  }
  let smask: PdfRef | undefined;
  if (alpha && hasAlpha) {
    smask = doc.ref({ Type: 'XObject', Subtype: 'Image', Width: width, Height: height, BitsPerComponent: 8, ColorSpace: 'DeviceGray' });
    smask.end(alpha);
  }
  const ref = doc.ref({
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    BitsPerComponent: 8,
    ColorSpace: 'DeviceRGB',
    ...(smask ? { SMask: smask } : {}),
  });
  ref.end(rgbData);
  return ref;
}
