// Vector PDF backend on pdfkit: the display list the raster backend paints, as PDF operators,
// driven by the same walk (paint/walk.ts); this module only supplies the primitive operations.
// Text is real text in the bundled fonts (pdf-text.ts); shapes and charts are paths; images are
// embedded once at source resolution (colour-filtered ones as their filtered pixels) and cropped by
// clipping; links become URI annotations over their glyphs.
import { decodePixels, type DecodedImage, type ImageCache, type LoadedImage } from '../assets/load.js';
import type { RGBA, Rect } from '../scene/scene.js';
import type { BlendMode, DisplayItem, DisplayList, Geometry, Matrix } from '../scene/display-list.js';
import type { FontSet } from '../text/fonts.js';
import { applyFilters, filteredKey } from './image-filters.js';
import { prepareBlurs } from './pdf-blur.js';
import { paintShading } from './pdf-gradient.js';
import { num, PdfResources, rgb, setExtGState, type PdfDoc, type PdfDocument, type PdfRef } from './pdf-kit.js';
import { boundsOf, compose, invert, prepareShadows, type PreparedShadow } from './pdf-shadow.js';
import { paintGlyphs } from './pdf-text.js';
import type { GroupItem, ItemOf, PageInput, PaintBackend, PreparedPage } from './backend.js';
import { prepareQuad } from './raster-images.js';
import { tracePathData } from './path-geometry.js';
import { imageItems } from './walk.js';

// What encode/pdf.ts needs beside the backend, from one place: whether a face is a colour font (its
// embedding is left to the painter) and pdfkit's internals.
export { isColorFace } from './pdf-text.js';
export type { PdfInternals } from './pdf-kit.js';

/** CSS pixels to PDF points: 96 px per inch, 72 pt per inch. A 1080 px design is an 810 pt page. */
export const PT_PER_PX = 0.75;

/** A box coordinate as pdfkit writes the MediaBox: rounded to 1e-6 pt, so equal edges stay equal. */
const pdfNumber = (v: number): number => Math.round(v * 1e6) / 1e6;
/** Perspective layers are rasterised at this density of their area (300 dpi). */
const QUAD_PX_SCALE = 300 / 96;

function pathOf(doc: PdfDoc, g: Geometry): void {
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
function arc(doc: PdfDoc, cx: number, cy: number, r: number, from: number, to: number, ry: number): void {
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
    setExtGState(this.doc, this.res, values);
  }

  /** Glyphs by id at the positions layout chose, as real text (pdf-text.ts). */
  glyphs(run: ItemOf<'glyphs'>): void {
    paintGlyphs({ doc: this.doc, res: this.res, alpha: this.alpha }, run);
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

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

function blendName(b: BlendMode): string {
  return b === 'multiply' ? 'Multiply' : b === 'screen' ? 'Screen' : 'Normal';
}

/** An image XObject from straight RGBA: RGB data plus, unless opaque, the alpha as a soft mask. */
function rawImage(doc: PdfDoc, rgba: Buffer, width: number, height: number, opaque: boolean): PdfRef {
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
