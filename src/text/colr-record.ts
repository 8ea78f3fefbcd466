// Records colour glyphs (COLR v0/v1) as the op lists of colr.ts: HarfBuzz walks a glyph's paint graph
// once per glyph through PaintFuncs callbacks. Kept apart from colr.ts so the public types (FontFace's
// colorGlyph) do not reach HarfBuzz's.
import type * as HarfBuzz from 'harfbuzzjs';
import type { RGBA } from '../scene/scene.js';
import type { ColorBox, ColorComposite, ColorGlyph, ColorMatrix, ColorOp, ColorStopOp, GradientExtend } from './colr.js';

const COMPOSITES: Record<number, ColorComposite> = {
  0: 'clear',
  1: 'copy',
  2: 'destination',
  3: 'source-over',
  4: 'destination-over',
  5: 'source-in',
  6: 'destination-in',
  7: 'source-out',
  8: 'destination-out',
  9: 'source-atop',
  10: 'destination-atop',
  11: 'xor',
  12: 'lighter',
  13: 'screen',
  14: 'overlay',
  15: 'darken',
  16: 'lighten',
  17: 'color-dodge',
  18: 'color-burn',
  19: 'hard-light',
  20: 'soft-light',
  21: 'difference',
  22: 'exclusion',
  23: 'multiply',
  24: 'hue',
  25: 'saturation',
  26: 'color',
  27: 'luminosity',
};
const EXTENDS: Record<number, GradientExtend> = { 0: 'pad', 1: 'repeat', 2: 'reflect' };

const multiply = (m: ColorMatrix, n: ColorMatrix): ColorMatrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** The box in a space whose matrix to glyph space is `m`: the glyph box's corners mapped back. */
function localBox(box: ColorBox, m: ColorMatrix): ColorBox {
  const det = m[0] * m[3] - m[1] * m[2];
  if (Math.abs(det) < 1e-12) return [-1e6, -1e6, 1e6, 1e6];
  const inv: ColorMatrix = [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const x of [box[0], box[2]])
    for (const y of [box[1], box[3]]) {
      xs.push(inv[0] * x + inv[2] * y + inv[4]);
      ys.push(inv[1] * x + inv[3] * y + inv[5]);
    }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

const rgba = (c: HarfBuzz.ColorStop['color']): RGBA => [c.red, c.green, c.blue, c.alpha / 255];

/**
 * Stops sorted and spread over 0..1: returns the stops and the [min, max] offsets of the original
 * line, which the caller folds into the gradient's geometry (as HarfBuzz's cairo painter does).
 */
function normaliseStops(line: HarfBuzz.ColorLine, foreground: boolean[]): { stops: ColorStopOp[]; min: number; max: number } {
  const sorted = [...line.colorStops].sort((a, b) => a.offset - b.offset);
  if (sorted.some((s) => s.isForeground)) foreground[0] = true;
  const min = sorted[0]?.offset ?? 0;
  const max = sorted[sorted.length - 1]?.offset ?? 1;
  const span = max - min;
  const stops = sorted.map((s) => ({ offset: span > 0 ? (s.offset - min) / span : 0, color: rgba(s.color) }));
  if (stops.length === 1) stops.push({ offset: 1, color: stops[0]!.color });
  return { stops, min: span > 0 ? min : 0, max: span > 0 ? max : 1 };
}

type Builder = { ops: ColorOp[]; matrices: ColorMatrix[]; box: ColorBox; foreground: boolean[]; paths: Map<number, string> };

let funcs: HarfBuzz.PaintFuncs | undefined;
let current: Builder | undefined;

/** The paint callbacks, made once per process; they append to the glyph being recorded. */
function paintFuncs(lib: typeof HarfBuzz): HarfBuzz.PaintFuncs {
  if (funcs) return funcs;
  const f = new lib.PaintFuncs();
  const b = (): Builder => current!;
  const bounds = (): ColorBox => localBox(b().box, b().matrices[b().matrices.length - 1]!);
  f.setPushTransformFunc((xx, yx, xy, yy, dx, dy) => {
    const matrix: ColorMatrix = [xx, yx, xy, yy, dx, dy];
    const m = b().matrices;
    m.push(multiply(m[m.length - 1]!, matrix));
    b().ops.push({ op: 'push_transform', matrix });
  });
  f.setPopTransformFunc(() => {
    b().matrices.pop();
    b().ops.push({ op: 'pop_transform' });
  });
  f.setColorGlyphFunc(() => false);
  f.setPushClipGlyphFunc((glyph, font) => {
    // One string per outline, shared by every colour glyph that uses it (Noto reuses eyes, hands, skin).
    const paths = b().paths;
    let path = paths.get(glyph);
    if (path === undefined) {
      path = font.glyphToPath(glyph);
      paths.set(glyph, path);
    }
    b().ops.push({ op: 'push_clip_path', path });
  });
  f.setPushClipRectangleFunc((x0, y0, x1, y1) => b().ops.push({ op: 'push_clip_rect', rect: [x0, y0, x1, y1] }));
  f.setPopClipFunc(() => b().ops.push({ op: 'pop_clip' }));
  f.setColorFunc((isForeground, color) => {
    if (isForeground) b().foreground[0] = true;
    b().ops.push({ op: 'solid', color: rgba(color), foreground: isForeground, bounds: bounds() });
  });
  f.setLinearGradientFunc((line, x0, y0, x1, y1, x2, y2) => {
    // COLRv1 gives p0, p1 and a rotation point p2: colour lines run parallel to p0→p2, so the axis is
    // p0 to p1 projected onto the normal of p0→p2 (OpenType COLR spec; HarfBuzz's cairo painter).
    const [q2x, q2y, q1x, q1y] = [x2 - x0, y2 - y0, x1 - x0, y1 - y0];
    const s = q2x * q2x + q2y * q2y;
    const k = s < 1e-6 ? 0 : (q2x * q1x + q2y * q1y) / s;
    const [ex, ey] = [x1 - k * q2x, y1 - k * q2y];
    const { stops, min, max } = normaliseStops(line, b().foreground);
    const at = (t: number): [number, number] => [x0 + t * (ex - x0), y0 + t * (ey - y0)];
    b().ops.push({ op: 'linear', p0: at(min), p1: at(max), stops, extend: EXTENDS[line.extend] ?? 'pad', bounds: bounds() });
  });
  f.setRadialGradientFunc((line, x0, y0, r0, x1, y1, r1) => {
    const { stops, min, max } = normaliseStops(line, b().foreground);
    const at = (t: number): [number, number, number] => [x0 + t * (x1 - x0), y0 + t * (y1 - y0), r0 + t * (r1 - r0)];
    const [ax, ay, ar] = at(min);
    const [bx, by, br] = at(max);
    b().ops.push({
      op: 'radial',
      c0: [ax, ay],
      r0: ar,
      c1: [bx, by],
      r1: br,
      stops,
      extend: EXTENDS[line.extend] ?? 'pad',
      bounds: bounds(),
    });
  });
  f.setSweepGradientFunc((line, cx, cy, start, end) => {
    const { stops, min, max } = normaliseStops(line, b().foreground);
    const at = (t: number): number => start + t * (end - start);
    b().ops.push({ op: 'sweep', center: [cx, cy], start: at(min), end: at(max), stops, extend: EXTENDS[line.extend] ?? 'pad', bounds: bounds() });
  });
  f.setPushGroupFunc(() => b().ops.push({ op: 'push_group', bounds: bounds() }));
  f.setPopGroupFunc((mode) => b().ops.push({ op: 'pop_group', composite: COMPOSITES[mode] ?? 'source-over' }));
  // Bitmap glyphs are not drawn (the tables are dropped when a font has COLR; see font-tables.ts).
  f.setImageFunc(() => true);
  funcs = f;
  return f;
}

/**
 * Colour glyphs whose op lists a face keeps (least recently used go first). An emoji is ~200 ops,
 * ~30 KB; all 3993 of Noto Color Emoji would hold 125 MB, and recording one again costs ~0.4 ms.
 */
const MAX_CACHED_GLYPHS = 512;
/** Outline strings a face keeps for sharing between glyphs (oldest go first). */
const MAX_CACHED_OUTLINES = 4096;

/** Records a face's colour glyphs on demand, keeping the most recently used (see MAX_CACHED_GLYPHS). */
export function colorGlyphs(lib: typeof HarfBuzz, face: HarfBuzz.Face, font: HarfBuzz.Font): ((id: number) => ColorGlyph | undefined) | undefined {
  const paint = face.hasColorPaint();
  const layers = face.hasColorLayers();
  if (!paint && !layers) return undefined;
  const cache = new Map<number, ColorGlyph | null>();
  const paths = new Map<number, string>();
  return (id) => {
    let glyph = cache.get(id);
    if (glyph !== undefined) {
      cache.delete(id);
      cache.set(id, glyph);
    } else {
      glyph = null;
      if ((paint && face.glyphHasColorPaint(id)) || (layers && face.getGlyphColorLayers(id).length > 0)) {
        const e = font.glyphExtents(id);
        const box: ColorBox = e ? [e.xBearing, e.yBearing + e.height, e.xBearing + e.width, e.yBearing] : [0, 0, face.upem, face.upem];
        current = { ops: [], matrices: [[1, 0, 0, 1, 0, 0]], box, foreground: [false], paths };
        try {
          font.paintGlyph(id, paintFuncs(lib), undefined, 0, { red: 0, green: 0, blue: 0, alpha: 255 });
          glyph = { ops: current.ops, box, usesForeground: current.foreground[0]! };
        } finally {
          current = undefined;
        }
      }
      cache.set(id, glyph);
      if (cache.size > MAX_CACHED_GLYPHS) cache.delete(cache.keys().next().value!);
      while (paths.size > MAX_CACHED_OUTLINES) paths.delete(paths.keys().next().value!);
    }
    return glyph ?? undefined;
  };
}
