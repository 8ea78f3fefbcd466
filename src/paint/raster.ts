// Raster backend on @napi-rs/canvas (Skia). Glyphs are filled from their outlines, so what layout
// measured is exactly what is painted; groups with partial opacity go through an offscreen layer.
import { createCanvas, ImageData, Path2D, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { DecodedImage } from '../assets/load.js';
import type { RGBA } from '../design/color.js';
import type { DisplayItem, DisplayList, Geometry } from '../layout/display-list.js';
import type { FontSet } from '../text/fonts.js';
import type { PaintBackend, PaintOptions, PaintResources, RasterImage } from './backend.js';
import { prepareRasterImages } from './raster-images.js';

// Outlines per face and glyph; bounded by the glyph count of the bundled fonts.
const glyphPaths = new Map<string, Path2D>();
const imageCanvases = new WeakMap<DecodedImage, Canvas>();

function css([r, g, b, a]: RGBA): string {
  return `rgba(${r},${g},${b},${a})`;
}

function glyphPath(fonts: FontSet, face: string, id: number): Path2D {
  const key = `${face}:${id}`;
  let p = glyphPaths.get(key);
  if (!p) {
    p = new Path2D(fonts.byFaceKey(face).outlines.getGlyph(id).path.toSVG());
    glyphPaths.set(key, p);
  }
  return p;
}

function imageCanvas(image: DecodedImage): Canvas {
  let c = imageCanvases.get(image);
  if (!c) {
    c = createCanvas(image.width, image.height);
    c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(image.rgba.buffer, image.rgba.byteOffset, image.rgba.length), image.width, image.height), 0, 0);
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
  else canvas = createCanvas(width, height);
  canvasPool.set(key, canvas);
  if (canvasPool.size > CANVAS_POOL_SIZES) canvasPool.delete(canvasPool.keys().next().value!);
  return canvas;
}

function tracePath(ctx: SKRSContext2D, g: Geometry): void {
  ctx.beginPath();
  switch (g.kind) {
    case 'rect':
      return ctx.rect(g.rect.x, g.rect.y, g.rect.width, g.rect.height);
    case 'round_rect':
      return ctx.roundRect(g.rect.x, g.rect.y, g.rect.width, g.rect.height, g.radius);
    case 'ellipse': {
      const { x, y, width, height } = g.rect;
      return ctx.ellipse(x + width / 2, y + height / 2, width / 2, height / 2, 0, 0, Math.PI * 2);
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
  }
}

function leafCount(items: readonly DisplayItem[]): number {
  let n = 0;
  for (const it of items) n += it.kind === 'group' ? leafCount(it.items) + (it.clip ? 1 : 0) : it.kind === 'link' ? 0 : 1;
  return n;
}

interface Prepared {
  images: ReadonlyMap<string, DecodedImage>;
  fonts: FontSet;
}

class RasterPainter {
  constructor(private readonly res: Prepared, private readonly width: number, private readonly height: number) {}

  items(ctx: SKRSContext2D, items: readonly DisplayItem[]): void {
    for (const it of items) this.item(ctx, it);
  }

  item(ctx: SKRSContext2D, it: DisplayItem): void {
    switch (it.kind) {
      case 'group':
        return this.group(ctx, it);
      case 'fill':
        ctx.fillStyle = css(it.color);
        tracePath(ctx, it.geometry);
        ctx.fill();
        return;
      case 'stroke':
        ctx.strokeStyle = css(it.color);
        ctx.lineWidth = it.width;
        ctx.setLineDash(it.dash ? [...it.dash] : []);
        ctx.lineJoin = it.join ?? 'miter';
        ctx.lineCap = it.join === 'round' ? 'round' : 'butt';
        tracePath(ctx, it.geometry);
        ctx.stroke();
        return;
      case 'image_quad':
        throw new Error('raster: perspective images must go through prepareRasterImages first');
      case 'image': {
        if (it.tint) throw new Error('raster: tinted images must go through prepareRasterImages first');
        const image = this.res.images.get(it.image);
        if (!image) throw new Error(`raster: image ${it.image} was not loaded`);
        const { src, dst } = it;
        // Images were decoded at (or up to 9 % above) the painted size, so bilinear is exact enough
        // and much cheaper than the cubic/mipmap filter that real downscaling or enlarging needs.
        const m = ctx.getTransform();
        const k = (Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) * dst.width) / src.width;
        ctx.imageSmoothingQuality = k > 0.9 && k < 1.05 ? 'low' : 'high';
        // (0.9: video frames decode up to 9 % larger; stills decode at the painted size, k ≈ 1.)
        ctx.drawImage(imageCanvas(image), src.x, src.y, src.width, src.height, dst.x, dst.y, dst.width, dst.height);
        return;
      }
      case 'glyphs': {
        const upem = this.res.fonts.byFaceKey(it.face).unitsPerEm;
        const s = it.size / upem;
        const run = new Path2D();
        for (const g of it.glyphs) run.addPath(glyphPath(this.res.fonts, it.face, g.id), { a: s, b: 0, c: 0, d: -s, e: g.x, f: g.y });
        ctx.fillStyle = css(it.color);
        ctx.fill(run);
        return;
      }
      case 'link':
        return; // links only exist in vector output
    }
  }

  group(ctx: SKRSContext2D, g: Extract<DisplayItem, { kind: 'group' }>): void {
    if (g.opacity <= 0) return;
    ctx.save();
    ctx.transform(...g.transform);
    if ((g.opacity < 1 || (g.blend ?? 'normal') !== 'normal') && leafCount(g.items) > 1) {
      this.layer(ctx, g);
    } else {
      ctx.globalAlpha *= g.opacity;
      if (g.blend && g.blend !== 'normal') ctx.globalCompositeOperation = g.blend;
      if (g.clip) {
        tracePath(ctx, g.clip);
        ctx.clip();
      }
      this.items(ctx, g.items);
    }
    ctx.restore();
  }

  /** Paints the group alone, then composites it once, so overlapping parts do not double their alpha. */
  layer(ctx: SKRSContext2D, g: Extract<DisplayItem, { kind: 'group' }>): void {
    const m = ctx.getTransform();
    const { x, y, width, height } = g.bounds;
    const xs = [x, x + width].flatMap((px) => [y, y + height].map((py) => m.a * px + m.c * py + m.e));
    const ys = [x, x + width].flatMap((px) => [y, y + height].map((py) => m.b * px + m.d * py + m.f));
    const left = Math.max(0, Math.floor(Math.min(...xs)));
    const top = Math.max(0, Math.floor(Math.min(...ys)));
    const right = Math.min(this.width, Math.ceil(Math.max(...xs)));
    const bottom = Math.min(this.height, Math.ceil(Math.max(...ys)));
    if (right <= left || bottom <= top) return;
    const off = createCanvas(right - left, bottom - top);
    const octx = off.getContext('2d');
    octx.imageSmoothingQuality = 'high';
    octx.setTransform(m.a, m.b, m.c, m.d, m.e - left, m.f - top);
    if (g.clip) {
      tracePath(octx, g.clip);
      octx.clip();
    }
    this.items(octx, g.items);
    ctx.resetTransform();
    ctx.globalAlpha *= g.opacity;
    if (g.blend && g.blend !== 'normal') ctx.globalCompositeOperation = g.blend;
    ctx.drawImage(off, left, top);
  }
}

export const rasterBackend: PaintBackend<RasterImage> = {
  async paint(input: DisplayList, resources: PaintResources, options: PaintOptions = {}): Promise<RasterImage> {
    const { list, images } = await prepareRasterImages(input, resources.images, resources.cache, resources.ready, resources.steppedSizes);
    // From here on everything is synchronous, so the pooled canvas cannot be shared mid-render.
    const canvas = canvasFor(list.width, list.height);
    const ctx = canvas.getContext('2d');
    ctx.reset();
    ctx.imageSmoothingQuality = 'high';
    const matte = options.matte && !list.opaque && options.matte[3] === 1 ? options.matte : undefined;
    if (matte) {
      ctx.fillStyle = css(matte);
      ctx.fillRect(0, 0, list.width, list.height);
    }
    new RasterPainter({ images, fonts: resources.fonts }, list.width, list.height).items(ctx, list.items);
    return { width: list.width, height: list.height, pixels: canvas.data(), opaque: list.opaque || matte !== undefined };
  },
};
