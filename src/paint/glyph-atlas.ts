// Glyph masks for the raster backend: each glyph at a device size, colour and quarter-pixel phase is
// filled from its outline once into an atlas canvas, then copied pixel for pixel wherever it appears.
// Filling outlines costs ~10 µs a glyph in Skia's path rasterizer; a copy costs ~4 µs, and text is
// most of what a card or a video frame paints (bench/render.mjs). The outline stays the source of
// truth (pdf draws the same outlines), and a mask is always made the same way, so the pixels do not
// depend on what the cache held before: a render gives the same bytes cold or warm.
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type * as SkiaCanvas from '@napi-rs/canvas';
import { lazyRequire } from '../lazy-require.js';

const skia = lazyRequire<typeof SkiaCanvas>('@napi-rs/canvas');

/** Glyph origins are snapped to this fraction of a pixel, as Skia does for its own glyph cache. */
const PHASES = 4;
/** Glyphs larger than this (em size in device px) are filled from their outlines directly: few, and big masks churn the atlas. */
export const MAX_MASKED_EM_PX = 160;
const ATLAS_SIZE = 1024;

/** A glyph's outline in font units: the Skia path and the box around its points (control points included). */
export interface GlyphOutline {
  path: SkiaCanvas.Path2D;
  /** [xMin, yMin, xMax, yMax] in font units, y up; null for a glyph with no outline (a space). */
  box: readonly [number, number, number, number] | null;
}

interface Mask {
  /** Position in the atlas. */
  ax: number;
  ay: number;
  w: number;
  h: number;
  /** Offset of the mask's top-left from the glyph origin's pixel. */
  ox: number;
  oy: number;
}

/** Bounds of the numbers in an SVG path (control points bound the curves they shape). */
export function svgPathBox(svg: string): GlyphOutline['box'] {
  const nums = svg.match(/-?\d*\.?\d+(?:e-?\d+)?/gi);
  if (!nums || nums.length < 2) return null;
  let xMin = Infinity;
  let yMin = Infinity;
  let xMax = -Infinity;
  let yMax = -Infinity;
  for (let i = 0; i + 1 < nums.length; i += 2) {
    const x = Number(nums[i]);
    const y = Number(nums[i + 1]);
    if (x < xMin) xMin = x;
    if (x > xMax) xMax = x;
    if (y < yMin) yMin = y;
    if (y > yMax) yMax = y;
  }
  return [xMin, yMin, xMax, yMax];
}

/**
 * Shelf-packed masks in one canvas. When it is full it starts over empty: masks are remade on demand,
 * identically, so starting over changes speed, never pixels.
 */
class GlyphAtlas {
  private canvas: Canvas | undefined;
  private ctx: SKRSContext2D | undefined;
  private readonly masks = new Map<string, Mask>();
  private shelfY = 0;
  private shelfH = 0;
  private x = 0;

  private surface(): SKRSContext2D {
    if (!this.ctx) {
      this.canvas = skia().createCanvas(ATLAS_SIZE, ATLAS_SIZE);
      this.ctx = this.canvas.getContext('2d');
    }
    return this.ctx;
  }

  private place(w: number, h: number): { ax: number; ay: number } | null {
    if (w > ATLAS_SIZE || h > ATLAS_SIZE) return null;
    if (this.x + w > ATLAS_SIZE) {
      this.shelfY += this.shelfH;
      this.shelfH = 0;
      this.x = 0;
    }
    if (this.shelfY + h > ATLAS_SIZE) {
      this.masks.clear();
      const a = this.surface();
      a.resetTransform(); // clearRect is transformed like any drawing: the last glyph's transform is still set
      a.clearRect(0, 0, ATLAS_SIZE, ATLAS_SIZE);
      this.shelfY = this.shelfH = this.x = 0;
    }
    const at = { ax: this.x, ay: this.shelfY };
    this.x += w;
    this.shelfH = Math.max(this.shelfH, h);
    return at;
  }

  /**
   * Paints `glyph` with its origin at device (x, y), scaled by `s` (device px per font unit), in `color`
   * (opaque CSS colour), onto `ctx`, whose transform must be the identity. Returns false when the glyph
   * does not fit a mask (the caller fills its outline instead).
   */
  draw(ctx: SKRSContext2D, key: string, glyph: GlyphOutline, s: number, x: number, y: number, color: string): boolean {
    if (!glyph.box) return true; // nothing to paint
    let ix = Math.floor(x);
    let iy = Math.floor(y);
    let fx = Math.round((x - ix) * PHASES);
    let fy = Math.round((y - iy) * PHASES);
    if (fx === PHASES) {
      ix++;
      fx = 0;
    }
    if (fy === PHASES) {
      iy++;
      fy = 0;
    }
    const id = `${key}|${s}|${fx}|${fy}|${color}`;
    let mask = this.masks.get(id);
    if (!mask) {
      const [xMin, yMin, xMax, yMax] = glyph.box;
      // One pixel of margin for antialiasing, one for the phase.
      const ox = Math.floor(xMin * s) - 1;
      const oy = Math.floor(-yMax * s) - 1;
      const w = Math.ceil(xMax * s) + 2 - ox;
      const h = Math.ceil(-yMin * s) + 2 - oy;
      const at = this.place(w, h);
      if (!at) return false;
      const a = this.surface();
      a.setTransform(s, 0, 0, -s, at.ax - ox + fx / PHASES, at.ay - oy + fy / PHASES);
      a.fillStyle = color;
      a.fill(glyph.path);
      mask = { ...at, w, h, ox, oy };
      this.masks.set(id, mask);
    }
    ctx.drawImage(this.canvas!, mask.ax, mask.ay, mask.w, mask.h, ix + mask.ox, iy + mask.oy, mask.w, mask.h);
    return true;
  }
}

/** One atlas per thread: painting is synchronous, so renders never interleave on it. */
export const glyphAtlas = new GlyphAtlas();
