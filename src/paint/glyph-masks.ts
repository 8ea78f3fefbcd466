// Glyph masks for the raster backend: each glyph at a device size, colour and quarter-pixel phase is
// filled from its outline once into a small canvas of its own, then copied pixel for pixel wherever it
// appears. Filling outlines costs ~10 µs a glyph in Skia's path rasterizer; a copy costs ~4 µs, and
// text is most of what a card or a video frame paints (bench/render.mjs). One canvas per mask, not a
// shared atlas: drawing from a canvas snapshots all of it after each change, and a 1024² atlas
// changed between copies cost ~2 ms per new glyph (a cold CLI render took 0.5 s more). The outline
// stays the source of truth (pdf draws the same outlines), and a mask is always made the same way, so
// the pixels do not depend on what the cache held before: a render gives the same bytes cold or warm.
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type * as SkiaCanvas from '@napi-rs/canvas';
import { skiaCanvas } from '../lazy-require.js';

const skia = skiaCanvas;

/** Glyph origins are snapped to this fraction of a pixel, as Skia does for its own glyph cache. */
const PHASES = 4;
/** Glyphs larger than this (em size in device px) are filled from their outlines directly: few, and big masks churn the cache. */
export const MAX_MASKED_EM_PX = 160;
/** Pixel memory the masks of one thread may hold; the least recently used go first. */
const CACHE_BYTES = 16 * 1024 * 1024;

/** A glyph's outline in font units: the Skia path and the box around its points (control points included). */
export interface GlyphOutline {
  path: SkiaCanvas.Path2D;
  /** [xMin, yMin, xMax, yMax] in font units, y up; null for a glyph with no outline (a space). */
  box: readonly [number, number, number, number] | null;
}

interface Mask {
  canvas: Canvas;
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

/** Glyph masks, least recently used first, within CACHE_BYTES. */
class GlyphMasks {
  private readonly masks = new Map<string, Mask>();
  private bytes = 0;

  /**
   * Paints `glyph` with its origin at device (x, y), scaled by `s` (device px per font unit), in `color`
   * (opaque CSS colour), onto `ctx`, whose transform must be the identity.
   */
  draw(ctx: SKRSContext2D, key: string, glyph: GlyphOutline, s: number, x: number, y: number, color: string): void {
    this.drawWith(ctx, key, glyph.box, s, x, y, color, (m) => {
      m.fillStyle = color;
      m.fill(glyph.path);
    });
  }

  /**
   * The same for any painting in font units (y up) within `box`: `paint` draws the glyph onto the
   * mask's context (colour glyphs), and `variant` names what else besides the glyph it depends on.
   */
  drawWith(
    ctx: SKRSContext2D,
    key: string,
    box: GlyphOutline['box'],
    s: number,
    x: number,
    y: number,
    variant: string,
    paint: (m: SKRSContext2D) => void,
  ): void {
    if (!box) return; // nothing to paint
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
    const id = `${key}|${s}|${fx}|${fy}|${variant}`;
    let mask = this.masks.get(id);
    if (mask) {
      // Most recently used last: eviction takes from the front.
      this.masks.delete(id);
      this.masks.set(id, mask);
    } else {
      const [xMin, yMin, xMax, yMax] = box;
      // One pixel of margin for antialiasing, one for the phase.
      const ox = Math.floor(xMin * s) - 1;
      const oy = Math.floor(-yMax * s) - 1;
      const w = Math.ceil(xMax * s) + 2 - ox;
      const h = Math.ceil(-yMin * s) + 2 - oy;
      const canvas = skia().createCanvas(w, h);
      const m = canvas.getContext('2d');
      m.setTransform(s, 0, 0, -s, -ox + fx / PHASES, -oy + fy / PHASES);
      paint(m);
      mask = { canvas, ox, oy };
      this.masks.set(id, mask);
      this.bytes += w * h * 4;
      for (const [old, o] of this.masks) {
        if (this.bytes <= CACHE_BYTES) break;
        this.masks.delete(old);
        this.bytes -= o.canvas.width * o.canvas.height * 4;
      }
    }
    ctx.drawImage(mask.canvas, ix + mask.ox, iy + mask.oy);
  }
}

/** One cache per thread: painting is synchronous, so renders never interleave on it. */
export const glyphMasks = new GlyphMasks();
