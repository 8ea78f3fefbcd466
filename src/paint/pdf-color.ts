// Colour glyphs (emoji) in pdf, as vector: each glyph's COLR op list (text/colr.ts) becomes one form
// XObject per document (a transparency group in font units, y up), drawn wherever the glyph appears.
// Clips are glyph paths (W n), solid paints are rg fills (ExtGState alpha when translucent), gradients
// are axial/radial shadings with Extend (repeat and reflect as a stitching function over the span the
// glyph takes, extend.ts) and sweeps function shadings (stop alphas through a luminosity soft mask), blend groups use /BM, and source-in groups draw the source through an alpha soft mask
// made of the backdrop.
import type { RGBA } from '../scene/scene.js';
import type { ColorBox, ColorComposite, ColorGlyph, ColorOp, ColorStopOp } from '../text/colr.js';
import { extendGradient, geometryAt, needsExtending, type ExtendedGradient } from './extend.js';
import { sweepShading } from './pdf-sweep.js';
import { sweepSegments } from './sweep.js';

/** The pdfkit internals this module uses (a subset of paint/pdf.ts's). */
export interface PdfColorDoc {
  ref(data?: Record<string, unknown>): { end(chunk?: string | Buffer): void };
}
type Ref = ReturnType<PdfColorDoc['ref']>;

const num = (v: number): string => {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
};

/** PDF blend mode names for the separable and non-separable modes COLR shares with pdf. */
const BLEND: Partial<Record<ColorComposite, string>> = {
  multiply: 'Multiply',
  screen: 'Screen',
  overlay: 'Overlay',
  darken: 'Darken',
  lighten: 'Lighten',
  'color-dodge': 'ColorDodge',
  'color-burn': 'ColorBurn',
  'hard-light': 'HardLight',
  'soft-light': 'SoftLight',
  difference: 'Difference',
  exclusion: 'Exclusion',
  hue: 'Hue',
  saturation: 'Saturation',
  color: 'Color',
  luminosity: 'Luminosity',
};

/** SVG path data (M L Q C Z, absolute, as HarfBuzz writes it) as pdf path operators; quadratics become cubics. */
export function svgToPdfPath(svg: string): string {
  const out: string[] = [];
  const tokens = svg.match(/[MLQCZ]|-?\d*\.?\d+(?:e[-+]?\d+)?/gi) ?? [];
  let i = 0;
  let [cx, cy, sx, sy] = [0, 0, 0, 0];
  const n = (): number => Number(tokens[i++]);
  while (i < tokens.length) {
    const cmd = tokens[i++]!.toUpperCase();
    if (cmd === 'M') {
      [cx, cy] = [n(), n()];
      [sx, sy] = [cx, cy];
      out.push(`${num(cx)} ${num(cy)} m`);
    } else if (cmd === 'L') {
      [cx, cy] = [n(), n()];
      out.push(`${num(cx)} ${num(cy)} l`);
    } else if (cmd === 'Q') {
      const [qx, qy, x, y] = [n(), n(), n(), n()];
      const c1 = [cx + (2 / 3) * (qx - cx), cy + (2 / 3) * (qy - cy)];
      const c2 = [x + (2 / 3) * (qx - x), y + (2 / 3) * (qy - y)];
      out.push(`${num(c1[0]!)} ${num(c1[1]!)} ${num(c2[0]!)} ${num(c2[1]!)} ${num(x)} ${num(y)} c`);
      [cx, cy] = [x, y];
    } else if (cmd === 'C') {
      const v = [n(), n(), n(), n(), n(), n()];
      out.push(`${v.map(num).join(' ')} c`);
      [cx, cy] = [v[4]!, v[5]!];
    } else if (cmd === 'Z') {
      out.push('h');
      [cx, cy] = [sx, sy];
    }
  }
  return out.join('\n');
}

/** The colour function of a gradient on 0..1: one exponential segment per pair of stops, stitched (the end colours held beyond the stops). */
function colorFunction(line: readonly ColorStopOp[], channel: (c: RGBA) => number[]): Record<string, unknown> {
  const stops = [...line];
  if (stops[0]!.offset > 0) stops.unshift({ offset: 0, color: stops[0]!.color });
  if (stops[stops.length - 1]!.offset < 1) stops.push({ offset: 1, color: stops[stops.length - 1]!.color });
  const segment = (a: ColorStopOp, b: ColorStopOp): Record<string, unknown> => ({
    FunctionType: 2,
    Domain: [0, 1],
    C0: channel(a.color),
    C1: channel(b.color),
    N: 1,
  });
  if (stops.length === 2) return segment(stops[0]!, stops[1]!);
  const functions = [];
  const bounds = [];
  const encode = [];
  for (let k = 0; k + 1 < stops.length; k++) {
    functions.push(segment(stops[k]!, stops[k + 1]!));
    if (k > 0) bounds.push(stops[k]!.offset);
    encode.push(0, 1);
  }
  return { FunctionType: 3, Domain: [0, 1], Functions: functions, Bounds: bounds, Encode: encode };
}

const rgb01 = (c: RGBA): number[] => [c[0] / 255, c[1] / 255, c[2] / 255];

/** What one form being written holds: its operators and the resources they name. */
class FormBuilder {
  readonly ops: string[] = [];
  readonly extGStates: Record<string, Ref> = {};
  readonly shadings: Record<string, Ref> = {};
  readonly xobjects: Record<string, Ref> = {};
  constructor(readonly bounds: ColorBox) {}
}

/** Writes the colour glyph forms of one document, each once. */
export class PdfColorGlyphs {
  private readonly forms = new Map<string, Ref>();
  /** Outlines as pdf path operators, by their SVG string (colr.ts shares one string per outline). */
  private readonly paths = new Map<string, string>();
  private names = 0;

  constructor(private readonly doc: PdfColorDoc) {}

  /** The glyph's form (font units, y up; a transparency group, so an opacity applies to it as a whole). */
  form(key: string, glyph: ColorGlyph, foreground: RGBA): Ref {
    const id = glyph.usesForeground ? `${key}|${foreground.join(',')}` : key;
    let form = this.forms.get(id);
    if (!form) {
      form = this.write(glyph, foreground);
      this.forms.set(id, form);
    }
    return form;
  }

  private name(prefix: string): string {
    return `${prefix}${++this.names}`;
  }

  private finish(b: FormBuilder, group: Record<string, unknown> = { Type: 'Group', S: 'Transparency', CS: 'DeviceRGB', I: true }): Ref {
    const [x0, y0, x1, y1] = b.bounds;
    const form = this.doc.ref({
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [x0, y0, x1, y1].map(num).map(Number),
      Group: group,
      Resources: { ExtGState: b.extGStates, Shading: b.shadings, XObject: b.xobjects },
    });
    form.end(b.ops.join('\n'));
    return form;
  }

  private gs(b: FormBuilder, values: Record<string, unknown>): string {
    const ref = this.doc.ref({ Type: 'ExtGState', ...values });
    ref.end();
    const name = this.name('G');
    b.extGStates[name] = ref;
    return `/${name} gs`;
  }

  /** A shading filling the current clip, with its stops' alpha as a luminosity soft mask when any is translucent. */
  private shade(b: FormBuilder, op: Extract<ColorOp, { op: 'linear' | 'radial' }>): void {
    if (needsExtending(op)) {
      const g = extendGradient(op);
      if (g) this.extended(b, op, g);
      return;
    }
    const extend = op.extend === 'pad';
    const geometry =
      op.op === 'linear'
        ? { ShadingType: 2, Coords: [op.p0[0], op.p0[1], op.p1[0], op.p1[1]] }
        : { ShadingType: 3, Coords: [op.c0[0], op.c0[1], op.r0, op.c1[0], op.c1[1], op.r1] };
    const shading = (space: string, channel: (c: RGBA) => number[]): Ref => {
      const ref = this.doc.ref({ ...geometry, ColorSpace: space, Function: colorFunction(op.stops, channel), Extend: [extend, extend] });
      ref.end();
      return ref;
    };
    this.paint(b, op.bounds, shading('DeviceRGB', rgb01), op.stops.every((s) => s.color[3] === 1) ? undefined : shading('DeviceGray', (c) => [c[3]]));
  }

  /**
   * A repeated, reflected (or negative-radius) gradient: the shading's Coords are its geometry at the
   * ends of the span of t the glyph takes, its Domain that span, its Function a stitching function (type
   * 3) with one piece per copy of the colour line, each Encode mapping the piece to the line (reversed
   * for a mirrored copy) and all sharing one line function. poppler and Ghostscript split shadings at a
   * stitching function's Bounds, so the copies' hard edges stay sharp.
   */
  private extended(b: FormBuilder, op: Extract<ColorOp, { op: 'linear' | 'radial' }>, g: ExtendedGradient): void {
    const [p, q] = [geometryAt(op, g.from), geometryAt(op, g.to)];
    const coords = op.op === 'linear' ? { ShadingType: 2, Coords: [p[0], p[1], q[0], q[1]] } : { ShadingType: 3, Coords: [p[0], p[1], p[2], q[0], q[1], q[2]] };
    const shading = (space: string, channel: (c: RGBA) => number[]): Ref => {
      const line = this.doc.ref(colorFunction(g.stops, channel));
      line.end();
      const fn =
        g.pieces.length === 1
          ? { FunctionType: 3, Domain: [g.from, g.to], Functions: [line], Bounds: [], Encode: [g.pieces[0]!.u0, g.pieces[0]!.u1] }
          : {
              FunctionType: 3,
              Domain: [g.from, g.to],
              Functions: g.pieces.map(() => line),
              Bounds: g.pieces.slice(1).map((piece) => piece.t0),
              Encode: g.pieces.flatMap((piece) => [piece.u0, piece.u1]),
            };
      const ref = this.doc.ref({ ...coords, ColorSpace: space, Domain: [g.from, g.to], Function: fn, Extend: [true, true] });
      ref.end();
      return ref;
    };
    this.paint(b, op.bounds, shading('DeviceRGB', rgb01), g.stops.every((s) => s.color[3] === 1) ? undefined : shading('DeviceGray', (c) => [c[3]]));
  }

  /** A sweep gradient filling the current clip: a function shading (pdf-sweep.ts), its alpha a luminosity soft mask. */
  private sweep(b: FormBuilder, op: Extract<ColorOp, { op: 'sweep' }>): void {
    const segments = sweepSegments(op.start, op.end, op.stops, op.extend);
    const shading = (space: string, channel: (c: RGBA) => number[]): Ref | undefined => {
      const s = sweepShading(op.center, op.bounds, segments, channel);
      if (!s) return undefined;
      const fn = this.doc.ref(s.fn);
      fn.end(s.program);
      const ref = this.doc.ref({ ...s.shading, ColorSpace: space, Function: fn });
      ref.end();
      return ref;
    };
    const color = shading('DeviceRGB', rgb01);
    if (!color) return;
    const seeThrough = segments.some((s) => s.c0[3] < 1 || s.c1[3] < 1);
    this.paint(b, op.bounds, color, seeThrough ? shading('DeviceGray', (c) => [c[3]]) : undefined);
  }

  /** Paints the shading `color` over the current clip, through a luminosity soft mask made of the shading `alpha` if given. */
  private paint(b: FormBuilder, bounds: ColorBox, color: Ref, alpha: Ref | undefined): void {
    const name = this.name('S');
    b.shadings[name] = color;
    if (!alpha) {
      b.ops.push(`/${name} sh`);
      return;
    }
    const mask = new FormBuilder(bounds);
    const a = this.name('S');
    mask.shadings[a] = alpha;
    mask.ops.push(`/${a} sh`);
    const g = this.finish(mask, { Type: 'Group', S: 'Transparency', CS: 'DeviceGray' });
    b.ops.push('q', this.gs(b, { SMask: { Type: 'Mask', S: 'Luminosity', G: g } }), `/${name} sh`, 'Q');
  }

  private write(glyph: ColorGlyph, foreground: RGBA): Ref {
    const stack = [new FormBuilder(glyph.box)];
    const top = (): FormBuilder => stack[stack.length - 1]!;
    for (const op of glyph.ops) {
      const b = top();
      switch (op.op) {
        case 'push_transform':
          b.ops.push('q', `${op.matrix.map(num).join(' ')} cm`);
          break;
        case 'pop_transform':
        case 'pop_clip':
          b.ops.push('Q');
          break;
        case 'push_clip_path':
          if (!this.paths.has(op.path)) this.paths.set(op.path, svgToPdfPath(op.path));
          b.ops.push('q', this.paths.get(op.path)!, 'W n');
          break;
        case 'push_clip_rect': {
          const [x0, y0, x1, y1] = op.rect;
          b.ops.push('q', `${num(x0)} ${num(y0)} ${num(x1 - x0)} ${num(y1 - y0)} re W n`);
          break;
        }
        case 'solid': {
          const c: RGBA = op.foreground ? [foreground[0], foreground[1], foreground[2], foreground[3] * op.color[3]] : op.color;
          const [x0, y0, x1, y1] = op.bounds;
          const fill = `${rgb01(c).map(num).join(' ')} rg ${num(x0)} ${num(y0)} ${num(x1 - x0)} ${num(y1 - y0)} re f`;
          if (c[3] < 1) b.ops.push('q', this.gs(b, { ca: c[3] }), fill, 'Q');
          else b.ops.push(fill);
          break;
        }
        case 'linear':
        case 'radial':
          this.shade(b, op);
          break;
        case 'sweep':
          this.sweep(b, op);
          break;
        case 'push_group':
          stack.push(new FormBuilder(op.bounds));
          break;
        case 'pop_group': {
          const inner = stack.pop()!;
          const outer = top();
          this.composite(outer, inner, op.composite);
          break;
        }
      }
    }
    return this.finish(stack[0]!);
  }

  /** Draws the finished group `inner` onto `outer` with the COLR composite mode. */
  private composite(outer: FormBuilder, inner: FormBuilder, mode: ColorComposite): void {
    if (mode === 'destination') return;
    const name = this.name('X');
    outer.xobjects[name] = this.finish(inner);
    const blend = BLEND[mode];
    if (blend) {
      outer.ops.push('q', this.gs(outer, { BM: blend }), `/${name} Do`, 'Q');
      return;
    }
    if (mode === 'source-in' && balanced(outer.ops)) {
      // Source where the backdrop is, and nothing of the backdrop itself: the group painted so far
      // becomes the alpha mask of the source, and is dropped.
      const backdrop = new FormBuilder(outer.bounds);
      backdrop.ops.push(...outer.ops);
      Object.assign(backdrop.extGStates, outer.extGStates);
      Object.assign(backdrop.shadings, outer.shadings);
      Object.assign(backdrop.xobjects, outer.xobjects);
      delete backdrop.xobjects[name];
      const mask = this.finish(backdrop);
      outer.ops.length = 0;
      outer.ops.push('q', this.gs(outer, { SMask: { Type: 'Mask', S: 'Alpha', G: mask } }), `/${name} Do`, 'Q');
      return;
    }
    // Other Porter-Duff modes (none in Noto Color Emoji) are drawn source-over.
    outer.ops.push(`/${name} Do`);
  }
}

/** Whether every q in these operators is closed (the group so far is self-contained). */
function balanced(ops: readonly string[]): boolean {
  let depth = 0;
  for (const o of ops) {
    if (o === 'q') depth++;
    else if (o === 'Q') depth--;
  }
  return depth === 0;
}
