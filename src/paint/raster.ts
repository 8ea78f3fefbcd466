// Raster backend on @napi-rs/canvas (Skia). Glyphs are filled from their outlines, so what layout
// measured is exactly what is painted; groups with partial opacity go through an offscreen layer.
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type * as SkiaCanvas from '@napi-rs/canvas';
import { skiaCanvas } from '../lazy-require.js';

const skia = skiaCanvas;
import type { DecodedImage } from '../assets/load.js';
import type { RGBA } from '../scene/scene.js';
import { scaledSize, type BlendMode, type DisplayList, type Geometry, type Gradient, type Matrix } from '../scene/display-list.js';
import type { FontFace } from '../text/faces.js';
import type { FontSet } from '../text/fonts.js';
import { SYNTHETIC_ITALIC_SKEW, syntheticBoldStroke } from '../text/synthetic.js';
import type { GroupItem, ItemOf, PageInput, PaintBackend, PaintOptions, PaintResources, PreparedPage, RasterImage } from './backend.js';
import type { ColorGlyph } from '../text/colr.js';
import { drawColorGlyph, paintColorGlyph } from './color-glyphs.js';
import { glyphMasks, MAX_MASKED_EM_PX, svgPathBox, type GlyphOutline } from './glyph-masks.js';
import { prepareRasterImages } from './raster-images.js';
import { tracePathData } from './path-geometry.js';
import { paintPages } from './walk.js';

/** @napi-rs/canvas's gradient (it does not export the type; the DOM's, of the same name, is not in the server's types). */
type CanvasGradient = ReturnType<SKRSContext2D['createLinearGradient']>;

// Outlines per face and glyph, least recently used first out: design and library fonts make the set
// of faces open-ended, so the cache is bounded (a card draws a few hundred glyphs; CJK text more).
const GLYPH_PATHS = 16_384;
const glyphPaths = new Map<string, GlyphOutline>();
const imageCanvases = new WeakMap<DecodedImage, Canvas>();

function css([r, g, b, a]: RGBA): string {
  return `rgba(${r},${g},${b},${a})`;
}

function glyphOutline(fonts: FontSet, face: string, id: number): GlyphOutline {
  const key = `${face}:${id}`;
  let p = glyphPaths.get(key);
  if (p) {
    glyphPaths.delete(key);
  } else {
    const svg = fonts.byFaceKey(face).outlines.getGlyph(id).path.toSVG();
    p = { path: new (skia().Path2D)(svg), box: svgPathBox(svg) };
    if (glyphPaths.size >= GLYPH_PATHS) glyphPaths.delete(glyphPaths.keys().next().value!);
  }
  glyphPaths.set(key, p);
  return p;
}

function imageCanvas(image: DecodedImage): Canvas {
  let c = imageCanvases.get(image);
  if (!c) {
    c = skia().createCanvas(image.width, image.height);
    c.getContext('2d').putImageData(
      new (skia().ImageData)(new Uint8ClampedArray(image.rgba.buffer, image.rgba.byteOffset, image.rgba.length), image.width, image.height),
      0,
      0,
    );
    imageCanvases.set(image, c);
  }
  return c;
}

// Painting is synchronous and the pixels are copied out at the end, so one canvas per size serves
// every render: a new 4 MB+ surface per render is native memory that V8 only reclaims with full
// collections. A few sizes are kept; the oldest goes first.
const CANVAS_POOL_SIZES = 4;
const canvasPool = new Map<string, Canvas>();

function canvasFor(width: number, height: number): Canvas {
  const key = `${width}x${height}`;
  let canvas = canvasPool.get(key);
  if (canvas) canvasPool.delete(key);
  else canvas = skia().createCanvas(width, height);
  canvasPool.set(key, canvas);
  if (canvasPool.size > CANVAS_POOL_SIZES) canvasPool.delete(canvasPool.keys().next().value!);
  return canvas;
}

/**
 * Traces the geometry as the context's current path; path data (which the context cannot append to
 * its path) comes back as a Path2D for the caller to fill, stroke or clip instead.
 */
function tracePath(ctx: SKRSContext2D, g: Geometry): SkiaCanvas.Path2D | undefined {
  ctx.beginPath();
  switch (g.kind) {
    case 'rect':
      ctx.rect(g.rect.x, g.rect.y, g.rect.width, g.rect.height);
      return;
    case 'round_rect':
      ctx.roundRect(g.rect.x, g.rect.y, g.rect.width, g.rect.height, g.radius);
      return;
    case 'ellipse': {
      const { x, y, width, height } = g.rect;
      ctx.ellipse(x + width / 2, y + height / 2, width / 2, height / 2, 0, 0, Math.PI * 2);
      return;
    }
    case 'polygon':
    case 'polyline':
      g.points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
      if (g.kind === 'polygon') ctx.closePath();
      return;
    case 'wedge':
      ctx.arc(g.cx, g.cy, g.radius, g.start, g.end);
      if (g.innerRadius > 0) ctx.arc(g.cx, g.cy, g.innerRadius, g.end, g.start, true);
      else ctx.lineTo(g.cx, g.cy);
      ctx.closePath();
      return;
    case 'path':
      tracePathData(g.d, {
        moveTo: (x, y) => ctx.moveTo(x, y),
        lineTo: (x, y) => ctx.lineTo(x, y),
        cubicTo: (x1, y1, x2, y2, x, y) => ctx.bezierCurveTo(x1, y1, x2, y2, x, y),
        quadTo: (x1, y1, x, y) => ctx.quadraticCurveTo(x1, y1, x, y),
        close: () => ctx.closePath(),
      });
      return;
  }
}

/** A page with its images decoded (and tinted or warped) at the size they are drawn. */
interface RasterPage extends PreparedPage {
  images: ReadonlyMap<string, DecodedImage>;
}

/** An offscreen layer being painted: where it goes on the surface below once it is done. */
interface Layer {
  below: SKRSContext2D;
  canvas: Canvas;
  left: number;
  top: number;
}

class RasterBackend implements PaintBackend<RasterImage[], RasterPage> {
  private canvas: Canvas | null = null;
  private ctx!: SKRSContext2D;
  private page!: RasterPage;
  /** The current page's canvas size and scale. */
  private device = { width: 0, height: 0, sx: 1, sy: 1 };
  private opaque = false;
  private readonly layers: Layer[] = [];
  /** Open masks: the layer context to return to and the mask's surface. */
  private readonly masks: { content: SKRSContext2D; canvas: Canvas }[] = [];
  private readonly done: RasterImage[] = [];

  constructor(
    private readonly resources: PaintResources,
    private readonly options: PaintOptions,
  ) {}

  /** The page's size on the canvas, and the transform from design pixels to canvas pixels. */
  private deviceOf(list: DisplayList): { width: number; height: number; sx: number; sy: number } {
    const scale = this.options.scale ?? 1;
    // A fractional page (a print size at a dpi) rounds to whole pixels as Polotno's export does
    // (Math.round: A4 at 300 dpi, 2480.315 × 3507.874, is 2480 × 3508), drawn 1:1 from the top-left.
    if (scale === 1) return { ...scaledSize(list.width, list.height), sx: 1, sy: 1 };
    const { width, height } = scaledSize(list.width, list.height, scale);
    // Each axis maps the design exactly onto whole pixels, so a full-canvas background stays opaque to
    // the last row; the two factors differ from `scale` (and each other) by under half a pixel.
    return { width, height, sx: width / list.width, sy: height / list.height };
  }

  async prepare(input: PageInput): Promise<RasterPage> {
    const { cache, steppedSizes } = this.resources;
    const { sx, sy } = this.deviceOf(input.list);
    // Images are decoded at the size they are painted on the canvas, so a small preview never decodes full-size photos.
    const prepared = prepareRasterImages(input.list, input.images, cache, input.ready, steppedSizes, Math.sqrt(sx * sy));
    // A process's first render loads Skia here, on this thread, while libvips decodes the images on its
    // own threads: the two (~150 ms and ~90 ms on a cold CLI render) overlap instead of adding up.
    skia();
    return prepared;
  }

  beginPage(page: RasterPage): void {
    const { list } = page;
    this.page = page;
    const device = this.deviceOf(list);
    this.device = device;
    // From here to endPage everything is synchronous, so the pooled canvas cannot be shared mid-render.
    this.canvas = canvasFor(device.width, device.height);
    const ctx = this.canvas.getContext('2d');
    this.ctx = ctx;
    ctx.reset();
    ctx.imageSmoothingQuality = 'high';
    const matte = this.options.matte && !list.opaque && this.options.matte[3] === 1 ? this.options.matte : undefined;
    if (matte) {
      ctx.fillStyle = css(matte);
      ctx.fillRect(0, 0, device.width, device.height);
    }
    if (device.sx !== 1 || device.sy !== 1) ctx.setTransform(device.sx, 0, 0, device.sy, 0, 0);
    this.opaque = list.opaque || matte !== undefined;
  }

  endPage(): void {
    const { width, height } = this.device;
    const dpi = this.page.list.dpi;
    this.done.push({ width, height, pixels: this.canvas!.data(), opaque: this.opaque, ...(dpi === undefined ? {} : { dpi }) });
  }

  async finish(): Promise<RasterImage[]> {
    return this.done;
  }

  save(): void {
    this.ctx.save();
  }

  restore(): void {
    this.ctx.restore();
  }

  transform(m: Matrix): void {
    this.ctx.transform(...m);
  }

  opacity(alpha: number): void {
    this.ctx.globalAlpha *= alpha;
  }

  blend(mode: Exclude<BlendMode, 'normal'>): void {
    this.ctx.globalCompositeOperation = mode;
  }

  clip(geometry: Geometry, evenOdd = false): void {
    tracePath(this.ctx, geometry);
    this.ctx.clip(evenOdd ? 'evenodd' : 'nonzero');
  }

  beginLayer(g: GroupItem): boolean {
    const m = this.ctx.getTransform();
    const { x, y, width, height } = g.bounds;
    const { width: pageWidth, height: pageHeight } = this.device;
    const xs = [x, x + width].flatMap((px) => [y, y + height].map((py) => m.a * px + m.c * py + m.e));
    const ys = [x, x + width].flatMap((px) => [y, y + height].map((py) => m.b * px + m.d * py + m.f));
    // Only what can show is painted: the page, and for a shadow also what casts it onto the page.
    let [x0, y0, x1, y1] = [0, 0, pageWidth, pageHeight];
    if (g.shadow) {
      const { dx, dy, reach } = this.shadowDevice(g.shadow);
      [x0, y0, x1, y1] = [
        Math.min(0, -dx) - reach,
        Math.min(0, -dy) - reach,
        Math.max(pageWidth, pageWidth - dx) + reach,
        Math.max(pageHeight, pageHeight - dy) + reach,
      ];
    }
    // A blur spreads what lies within 3σ off the page onto it.
    const blurReach = g.blur ? Math.ceil(3 * this.blurDevice(g.blur)) : 0;
    [x0, y0, x1, y1] = [x0 - blurReach, y0 - blurReach, x1 + blurReach, y1 + blurReach];
    const left = Math.max(Math.floor(x0), Math.floor(Math.min(...xs)));
    const top = Math.max(Math.floor(y0), Math.floor(Math.min(...ys)));
    const right = Math.min(Math.ceil(x1), Math.ceil(Math.max(...xs)));
    const bottom = Math.min(Math.ceil(y1), Math.ceil(Math.max(...ys)));
    if (right <= left || bottom <= top) return false;
    const canvas = skia().createCanvas(right - left, bottom - top);
    const octx = canvas.getContext('2d');
    octx.imageSmoothingQuality = 'high';
    octx.setTransform(m.a, m.b, m.c, m.d, m.e - left, m.f - top);
    this.layers.push({ below: this.ctx, canvas, left, top });
    this.ctx = octx;
    return true;
  }

  endLayer(g: GroupItem): void {
    const layer = this.layers.pop()!;
    const ctx = layer.below;
    this.ctx = ctx;
    ctx.resetTransform();
    ctx.globalAlpha *= g.opacity;
    if (g.blend && g.blend !== 'normal') ctx.globalCompositeOperation = g.blend;
    const shadowed = g.shadow ? this.withShadow(layer, g.shadow) : layer;
    // The blur filters the layer with its shadow as it composites, before the opacity applies: CSS's
    // order (filter, then opacity). Skia's blur(Npx) is a Gaussian of σ = N, as CSS filter: blur is;
    // the filtered image may reach past the layer's canvas, which bounds already grew by 3σ to hold.
    if (g.blur) ctx.filter = `blur(${this.blurDevice(g.blur)}px)`;
    ctx.drawImage(shadowed.canvas, shadowed.left, shadowed.top);
    if (g.blur) ctx.filter = 'none';
  }

  /** Paints the mask on a surface of the layer's size, in the layer's coordinates. */
  beginMask(): void {
    const layer = this.layers[this.layers.length - 1]!;
    const canvas = skia().createCanvas(layer.canvas.width, layer.canvas.height);
    const mctx = canvas.getContext('2d');
    mctx.imageSmoothingQuality = 'high';
    const m = this.ctx.getTransform();
    mctx.setTransform(m.a, m.b, m.c, m.d, m.e, m.f);
    this.masks.push({ content: this.ctx, canvas });
    this.ctx = mctx;
  }

  /** Keeps the layer's pixels as much as the mask paints them: its alpha, or its luminance × alpha. */
  endMask(g: GroupItem): void {
    const { content, canvas } = this.masks.pop()!;
    this.ctx = content;
    if (g.mask?.luminance) {
      const mctx = canvas.getContext('2d');
      const img = mctx.getImageData(0, 0, canvas.width, canvas.height);
      const d = img.data;
      // SVG's luminance mask (Filter Effects' luminanceToAlpha of sRGB values), times the alpha.
      for (let i = 0; i < d.length; i += 4) {
        d[i + 3] = Math.round(((0.2125 * d[i]! + 0.7154 * d[i + 1]! + 0.0721 * d[i + 2]!) * d[i + 3]!) / 255);
        d[i] = d[i + 1] = d[i + 2] = 0;
      }
      mctx.putImageData(img, 0, 0);
    }
    content.save();
    content.resetTransform();
    content.globalAlpha = 1;
    content.globalCompositeOperation = 'destination-in';
    content.drawImage(canvas, 0, 0);
    content.restore();
  }

  /** A blur's σ in device pixels: blurs are in page pixels, scaled to the page as rendered. */
  private blurDevice(blur: number): number {
    const { sx, sy } = this.device;
    return blur * Math.sqrt(sx * sy);
  }

  /**
   * The layer over its shadow, as one image: the group's opacity and blend then apply to both at once,
   * as CSS applies opacity after filter: drop-shadow (a see-through shape does not show its own shadow
   * through itself).
   */
  /**
   * A shadow in device pixels: canvas shadows are untouched by the transform, so they are scaled to
   * the page as rendered. Skia blurs with σ = shadowBlur / 2, as CSS does; 3σ is as far as it reaches.
   */
  private shadowDevice(shadow: NonNullable<GroupItem['shadow']>): { blur: number; dx: number; dy: number; reach: number } {
    const { sx, sy } = this.device;
    const blur = shadow.blur * Math.sqrt(sx * sy);
    return { blur, dx: shadow.offset[0] * sx, dy: shadow.offset[1] * sy, reach: Math.ceil(1.5 * blur) + 1 };
  }

  private withShadow(layer: Layer, shadow: NonNullable<GroupItem['shadow']>): { canvas: Canvas; left: number; top: number } {
    const { blur, dx, dy, reach } = this.shadowDevice(shadow);
    const { width, height } = layer.canvas;
    const left = Math.floor(layer.left + Math.min(0, dx) - reach);
    const top = Math.floor(layer.top + Math.min(0, dy) - reach);
    const canvas = skia().createCanvas(
      Math.ceil(layer.left + width + Math.max(0, dx) + reach) - left,
      Math.ceil(layer.top + height + Math.max(0, dy) + reach) - top,
    );
    const ctx = canvas.getContext('2d');
    ctx.shadowColor = css(shadow.color);
    ctx.shadowBlur = blur;
    ctx.shadowOffsetX = dx;
    ctx.shadowOffsetY = dy;
    ctx.drawImage(layer.canvas, layer.left - left, layer.top - top);
    return { canvas, left, top };
  }

  fill(it: ItemOf<'fill'>): void {
    const ctx = this.ctx;
    ctx.fillStyle = css(it.color);
    tracePath(ctx, it.geometry);
    ctx.fill(it.evenOdd ? 'evenodd' : 'nonzero');
  }

  gradient(it: ItemOf<'gradient'>): void {
    const ctx = this.ctx;
    ctx.fillStyle = this.gradientPaint(it.gradient);
    tracePath(ctx, it.geometry);
    ctx.fill(it.evenOdd ? 'evenodd' : 'nonzero');
  }

  /**
   * A canvas gradient of a display-list gradient. Skia pads with the end colours outside the stops, as
   * CSS does; the gradient is in the same local coordinates as the path (or glyphs) it fills, so the
   * group transform moves and rotates both together.
   */
  private gradientPaint(g: Gradient): CanvasGradient {
    const ctx = this.ctx;
    const paint =
      g.kind === 'linear'
        ? ctx.createLinearGradient(g.from[0], g.from[1], g.to[0], g.to[1])
        : ctx.createRadialGradient(g.center[0], g.center[1], 0, g.center[0], g.center[1], g.radius);
    for (const s of g.stops) paint.addColorStop(s.offset, css(s.color));
    return paint;
  }

  stroke(it: ItemOf<'stroke'>): void {
    const ctx = this.ctx;
    ctx.strokeStyle = css(it.color);
    ctx.lineWidth = it.width;
    ctx.setLineDash(it.dash ? [...it.dash] : []);
    ctx.lineDashOffset = it.dashOffset ?? 0;
    ctx.lineJoin = it.join ?? 'miter';
    ctx.lineCap = it.cap ?? (it.join === 'round' ? 'round' : 'butt');
    ctx.miterLimit = it.miterLimit ?? 10;
    tracePath(ctx, it.geometry);
    ctx.stroke();
  }

  imageQuad(): void {
    throw new Error('raster: perspective images must go through prepareRasterImages first');
  }

  image(it: ItemOf<'image'>): void {
    if (it.tint) throw new Error('raster: tinted images must go through prepareRasterImages first');
    const image = this.page.images.get(it.image);
    if (!image) throw new Error(`raster: image ${it.image} was not loaded`);
    const ctx = this.ctx;
    const { src, dst } = it;
    // Images were decoded at (or up to 9 % above) the painted size, so bilinear is exact enough
    // and much cheaper than the cubic/mipmap filter that real downscaling or enlarging needs.
    const m = ctx.getTransform();
    const k = (Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) * dst.width) / src.width;
    ctx.imageSmoothingQuality = k > 0.9 && k < 1.05 ? 'low' : 'high';
    // (0.9: video frames decode up to 9 % larger; stills decode at the painted size, k ≈ 1.)
    ctx.drawImage(imageCanvas(image), src.x, src.y, src.width, src.height, dst.x, dst.y, dst.width, dst.height);
  }

  glyphs(item: ItemOf<'glyphs'>): void {
    const fonts = this.resources.fonts;
    const ctx = this.ctx;
    const face = fonts.byFaceKey(item.face);
    const upem = face.unitsPerEm;
    const s = item.size / upem;
    // Colour glyphs (emoji) paint themselves in the font's colours; the rest of the run is plain text.
    let it = item;
    if (face.colorGlyph && item.glyphs.some((g) => face.colorGlyph!(g.id))) {
      const plain = item.glyphs.filter((g) => !face.colorGlyph!(g.id));
      for (const g of item.glyphs) {
        const colour = face.colorGlyph(g.id);
        if (colour) this.colorGlyph(item, colour, g.id, g.x, g.y, s);
      }
      if (plain.length === 0) return;
      it = { ...item, glyphs: plain };
    }
    const color = css(it.color);
    if (it.strokeWidth !== undefined) return this.outline(it, s, color, face.synthetic?.italic ? SYNTHETIC_ITALIC_SKEW * s : 0);
    // A gradient fill (CSS background-clip: text) paints the glyph outlines with the gradient.
    const paint = it.gradient ? this.gradientPaint(it.gradient) : color;
    if (face.synthetic) return this.syntheticGlyphs(it, face.synthetic, s, paint);
    const m = ctx.getTransform();
    // Glyph masks (glyph-masks.ts) where a copy equals a fill: upright, unskewed, unmirrored text at a
    // moderate size, an opaque colour drawn source-over at full opacity (masks of overlapping glyphs
    // would otherwise show their overlap). Anything else fills the run's outlines as one path.
    const masked =
      !it.gradient &&
      m.b === 0 &&
      m.c === 0 &&
      m.a > 0 &&
      m.a === m.d &&
      it.size * m.a <= MAX_MASKED_EM_PX &&
      it.color[3] === 1 &&
      ctx.globalAlpha === 1 &&
      ctx.globalCompositeOperation === 'source-over';
    if (masked) {
      const smoothing = ctx.imageSmoothingEnabled;
      ctx.resetTransform();
      ctx.imageSmoothingEnabled = false;
      for (const g of it.glyphs)
        glyphMasks.draw(ctx, `${it.face}:${g.id}`, glyphOutline(fonts, it.face, g.id), s * m.a, m.a * g.x + m.e, m.d * g.y + m.f, color);
      ctx.setTransform(m);
      ctx.imageSmoothingEnabled = smoothing;
      return;
    }
    const run = new (skia().Path2D)();
    for (const g of it.glyphs) run.addPath(glyphOutline(fonts, it.face, g.id).path, { a: s, b: 0, c: 0, d: -s, e: g.x, f: g.y });
    ctx.fillStyle = paint;
    ctx.fill(run);
  }

  /** The run's outlines as one path (skewed by `skew` per unit of y for synthetic italic). */
  private runPath(it: ItemOf<'glyphs'>, s: number, skew: number): InstanceType<typeof SkiaCanvas.Path2D> {
    const run = new (skia().Path2D)();
    for (const g of it.glyphs) run.addPath(glyphOutline(this.resources.fonts, it.face, g.id).path, { a: s, b: 0, c: skew, d: -s, e: g.x, f: g.y });
    return run;
  }

  /**
   * A text outline (`stroke` of a text object): the run's outlines stroked, never filled; layout puts
   * it under the fills, so they keep their full shape and half the width shows outside (CSS
   * paint-order: stroke). Round joins, so sharp corners grow no miter spikes; pdf strokes alike.
   */
  private outline(it: ItemOf<'glyphs'>, s: number, color: string, skew: number): void {
    const ctx = this.ctx;
    ctx.strokeStyle = color;
    ctx.lineWidth = it.strokeWidth!;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.setLineDash([]);
    ctx.stroke(this.runPath(it, s, skew));
  }

  /**
   * Synthetic styles as Chromium (Skia) draws them: italic is a skew of -1/4 (x += y/4 above the
   * baseline, about 14°), bold a fill plus a stroke 1/24 (at 9 px) to 1/32 (at 36 px and up) of the size wide.
   */
  private syntheticGlyphs(it: ItemOf<'glyphs'>, synthetic: NonNullable<FontFace['synthetic']>, s: number, color: string | CanvasGradient): void {
    const run = this.runPath(it, s, synthetic.italic ? SYNTHETIC_ITALIC_SKEW * s : 0);
    const ctx = this.ctx;
    ctx.fillStyle = color;
    ctx.fill(run);
    if (synthetic.bold) {
      ctx.strokeStyle = color;
      ctx.lineWidth = syntheticBoldStroke(it.size);
      ctx.lineJoin = 'miter';
      ctx.stroke(run);
    }
  }

  /** One colour glyph: through a cached mask where a copy equals painting it, else painted in place. */
  private colorGlyph(it: ItemOf<'glyphs'>, glyph: ColorGlyph, id: number, x: number, y: number, s: number): void {
    const ctx = this.ctx;
    const m = ctx.getTransform();
    if (m.b === 0 && m.c === 0 && m.a > 0 && m.a === m.d && it.size * m.a <= MAX_MASKED_EM_PX) {
      // The mask is the glyph painted at full opacity; the copy takes the context's opacity and blend.
      const variant = glyph.usesForeground ? css(it.color) : 'colr';
      ctx.resetTransform();
      const smoothing = ctx.imageSmoothingEnabled;
      ctx.imageSmoothingEnabled = false;
      glyphMasks.drawWith(ctx, `${it.face}:${id}`, glyph.box, s * m.a, m.a * x + m.e, m.d * y + m.f, variant, (mask) => paintColorGlyph(mask, glyph, it.color));
      ctx.imageSmoothingEnabled = smoothing;
      ctx.setTransform(m);
      return;
    }
    drawColorGlyph(ctx, glyph, it.color, [s, 0, 0, -s, x, y]);
  }

  link(): void {
    // links only exist in vector output
  }
}

/** Paints one display list to pixels: the single-page form of paintPages with the raster backend. */
export const rasterBackend = {
  async paint(list: DisplayList, resources: PaintResources, options: PaintOptions = {}): Promise<RasterImage> {
    const [image] = await paintPages(new RasterBackend(resources, options), [{ list, images: resources.images, ready: resources.ready }]);
    return image!;
  },
};
