// Colour glyphs (emoji) in the raster backend: the op list text/colr.ts recorded, replayed on a Skia
// context as clips, gradient fills and offscreen groups composited with the font's modes, so the glyph
// stays vector down to the pixels (no bitmap strikes, no scaling artefacts).
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type * as SkiaCanvas from '@napi-rs/canvas';
import { skiaCanvas } from '../lazy-require.js';
import type { RGBA } from '../scene/scene.js';
import type { ColorBox, ColorGlyph, ColorStopOp } from '../text/colr.js';
import { extendedStops, extendGradient, geometryAt, needsExtending } from './extend.js';
import { sweepConicStops, sweepSegments } from './sweep.js';

const skia = skiaCanvas;

// Clip outlines are shared by many glyphs (Noto reuses its eye and mouth shapes), and colr.ts gives
// each outline one string, so each Path2D is built once; the oldest go first beyond MAX_CLIP_PATHS.
const clipPaths = new Map<string, SkiaCanvas.Path2D>();
const MAX_CLIP_PATHS = 4096;

const css = ([r, g, b, a]: RGBA): string => `rgba(${r},${g},${b},${a})`;

type Gradient = ReturnType<SKRSContext2D['createLinearGradient']>;

function addStops(gradient: Gradient, stops: readonly ColorStopOp[]): Gradient {
  for (const s of stops) gradient.addColorStop(Math.min(1, Math.max(0, s.offset)), css(s.color));
  return gradient;
}

const fillBox = (ctx: SKRSContext2D, [x0, y0, x1, y1]: ColorBox): void => ctx.fillRect(x0, y0, x1 - x0, y1 - y0);

/** The device-pixel rectangle (clamped to the canvas) that `box` covers under ctx's transform. */
function deviceRect(ctx: SKRSContext2D, [x0, y0, x1, y1]: ColorBox): { left: number; top: number; width: number; height: number } {
  const m = ctx.getTransform();
  const xs = [x0, x1].flatMap((x) => [y0, y1].map((y) => m.a * x + m.c * y + m.e));
  const ys = [x0, x1].flatMap((x) => [y0, y1].map((y) => m.b * x + m.d * y + m.f));
  const left = Math.max(0, Math.floor(Math.min(...xs)) - 1);
  const top = Math.max(0, Math.floor(Math.min(...ys)) - 1);
  const right = Math.min(ctx.canvas.width, Math.ceil(Math.max(...xs)) + 1);
  const bottom = Math.min(ctx.canvas.height, Math.ceil(Math.max(...ys)) + 1);
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

interface Group {
  below: SKRSContext2D;
  canvas: Canvas | null;
  left: number;
  top: number;
}

/**
 * Paints `glyph` on `ctx`, whose transform maps font units (y up) to the device; `foreground` is the
 * text colour, used only where the font's paint asks for it. Leaves ctx's state as it found it.
 */
export function paintColorGlyph(target: SKRSContext2D, glyph: ColorGlyph, foreground: RGBA): void {
  let ctx = target;
  const groups: Group[] = [];
  // Within a group that fell outside the canvas nothing is painted (its ops must still balance).
  let skipping = 0;
  ctx.save();
  for (const op of glyph.ops) {
    if (skipping > 0) {
      if (op.op === 'push_group') skipping++;
      else if (op.op === 'pop_group') skipping--;
      if (skipping > 0 || op.op !== 'pop_group') continue;
      groups.pop();
      continue;
    }
    switch (op.op) {
      case 'push_transform':
        ctx.save();
        ctx.transform(...op.matrix);
        break;
      case 'pop_transform':
      case 'pop_clip':
        ctx.restore();
        break;
      case 'push_clip_path': {
        let path = clipPaths.get(op.path);
        if (!path) {
          path = new (skia().Path2D)(op.path);
          clipPaths.set(op.path, path);
          if (clipPaths.size > MAX_CLIP_PATHS) clipPaths.delete(clipPaths.keys().next().value!);
        }
        ctx.save();
        ctx.clip(path);
        break;
      }
      case 'push_clip_rect': {
        const [x0, y0, x1, y1] = op.rect;
        ctx.save();
        ctx.beginPath();
        ctx.rect(x0, y0, x1 - x0, y1 - y0);
        ctx.clip();
        break;
      }
      case 'solid':
        ctx.fillStyle = css(op.foreground ? [foreground[0], foreground[1], foreground[2], foreground[3] * op.color[3]] : op.color);
        fillBox(ctx, op.bounds);
        break;
      case 'linear':
      case 'radial': {
        if (!needsExtending(op)) {
          ctx.fillStyle = addStops(
            op.op === 'linear'
              ? ctx.createLinearGradient(op.p0[0], op.p0[1], op.p1[0], op.p1[1])
              : ctx.createRadialGradient(op.c0[0], op.c0[1], op.r0, op.c1[0], op.c1[1], op.r1),
            op.stops,
          );
          fillBox(ctx, op.bounds);
          break;
        }
        // Canvas gradients only pad: the gradient re-parametrised over the span of t the box takes,
        // its stops the copies of the colour line there (extend.ts), so padding never shows.
        const g = extendGradient(op);
        if (!g) break;
        const [a, b] = [geometryAt(op, g.from), geometryAt(op, g.to)];
        const gradient = op.op === 'linear' ? ctx.createLinearGradient(a[0], a[1], b[0], b[1]) : ctx.createRadialGradient(a[0], a[1], a[2], b[0], b[1], b[2]);
        ctx.fillStyle = addStops(gradient, extendedStops(g));
        fillBox(ctx, op.bounds);
        break;
      }
      case 'sweep': {
        // A conic gradient from angle 0 over the whole turn, its stops the sweep resolved over the turn
        // (sweep.ts: start and end angles, direction and extend mode). The canvas measures angles from
        // +x towards +y of the current space, which is font space with y up: counter-clockwise, as COLR.
        const segments = sweepSegments(op.start, op.end, op.stops, op.extend);
        if (segments.length === 0) break;
        ctx.fillStyle = addStops(ctx.createConicGradient(0, op.center[0], op.center[1]), sweepConicStops(segments));
        fillBox(ctx, op.bounds);
        break;
      }
      case 'push_group': {
        const r = deviceRect(ctx, op.bounds);
        if (r.width === 0 || r.height === 0) {
          groups.push({ below: ctx, canvas: null, left: 0, top: 0 });
          skipping = 1;
          break;
        }
        const canvas = skia().createCanvas(r.width, r.height);
        const layer = canvas.getContext('2d');
        const m = ctx.getTransform();
        layer.setTransform(m.a, m.b, m.c, m.d, m.e - r.left, m.f - r.top);
        groups.push({ below: ctx, canvas, left: r.left, top: r.top });
        ctx = layer;
        break;
      }
      case 'pop_group': {
        const group = groups.pop()!;
        ctx = group.below;
        if (op.composite === 'destination' || !group.canvas) break;
        ctx.save();
        ctx.resetTransform();
        ctx.globalCompositeOperation = op.composite === 'clear' ? 'destination-out' : op.composite;
        ctx.drawImage(group.canvas, group.left, group.top);
        ctx.restore();
        break;
      }
    }
  }
  ctx.restore();
}

/**
 * Paints a colour glyph through an offscreen layer of its device box, so the context's opacity and
 * blend mode apply to the glyph as a whole (its overlapping paints must not show through each other).
 * `m` maps font units to ctx's current space.
 */
export function drawColorGlyph(ctx: SKRSContext2D, glyph: ColorGlyph, foreground: RGBA, m: readonly [number, number, number, number, number, number]): void {
  const outer = ctx.getTransform();
  ctx.save();
  ctx.transform(...m);
  const r = deviceRect(ctx, glyph.box);
  if (r.width > 0 && r.height > 0) {
    const canvas = skia().createCanvas(r.width, r.height);
    const layer = canvas.getContext('2d');
    const t = ctx.getTransform();
    layer.setTransform(t.a, t.b, t.c, t.d, t.e - r.left, t.f - r.top);
    paintColorGlyph(layer, glyph, foreground);
    ctx.resetTransform();
    ctx.drawImage(canvas, r.left, r.top);
  }
  ctx.restore();
  ctx.setTransform(outer);
}
