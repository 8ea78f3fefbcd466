// Gradients in vector pdf: an axial (type 2) or radial (type 3) shading painted with `sh` inside the
// item's clip path, and, where a stop is see-through, a luminosity soft mask made of the same shading
// in grey (the stops' alphas), so colour and alpha are interpolated separately as Skia does.
//
// Why not pdfkit's linearGradient/radialGradient: they do support opacity per stop (the same soft-mask
// construction, inside a page-sized tiling pattern), but a pattern is positioned by pdfkit from the
// page's absolute transform, which is wrong inside the transparency-group forms of see-through groups
// (a form's patterns live in the form's space), and its stitching function assumes the first stop at 0
// and the last at 1. `sh` paints in the current user space, so neither problem arises.
import type { Gradient, GradientStop, Geometry } from '../scene/display-list.js';
import type { Rect } from '../scene/scene.js';

/** The part of pdfkit a shading needs: indirect objects, the page's resources, raw content. */
export interface ShadingDoc {
  ref(data?: Record<string, unknown>): { end(chunk?: string | Buffer): void; data: Record<string, unknown> };
  page: { resources: { data: Record<string, unknown> }; ext_gstates: Record<string, unknown> };
  addContent(op: string): unknown;
}

/** Per-document counter so every shading and soft mask gets its own resource name. */
export interface ShadingNames {
  shadings: number;
}

/** Stops with one at 0 and one at 1 (the end colours extended), as a stitching function's domain needs. */
export function paddedStops(stops: readonly GradientStop[]): GradientStop[] {
  const out = [...stops];
  if (out[0]!.offset > 0) out.unshift({ offset: 0, color: out[0]!.color });
  if (out[out.length - 1]!.offset < 1) out.push({ offset: 1, color: out[out.length - 1]!.color });
  return out;
}

/** A function of t in 0..1 through the stops: one linear piece per pair, stitched at the inner offsets. */
function stopFunction(doc: ShadingDoc, stops: readonly GradientStop[], channels: (s: GradientStop) => number[]): unknown {
  const pieces = stops.slice(1).map((s, i) => {
    const f = doc.ref({ FunctionType: 2, Domain: [0, 1], C0: channels(stops[i]!), C1: channels(s), N: 1 });
    f.end();
    return f;
  });
  if (pieces.length === 1) return pieces[0];
  // Equal offsets (a hard edge) give an empty piece, which the stitching skips.
  const f = doc.ref({
    FunctionType: 3,
    Domain: [0, 1],
    Functions: pieces,
    Bounds: stops.slice(1, -1).map((s) => s.offset),
    Encode: pieces.flatMap(() => [0, 1]),
  });
  f.end();
  return f;
}

function shading(doc: ShadingDoc, g: Gradient, colorSpace: 'DeviceRGB' | 'DeviceGray', fn: unknown): unknown {
  const coords = g.kind === 'linear' ? [g.from[0], g.from[1], g.to[0], g.to[1]] : [g.center[0], g.center[1], 0, g.center[0], g.center[1], g.radius];
  const sh = doc.ref({ ShadingType: g.kind === 'linear' ? 2 : 3, ColorSpace: colorSpace, Coords: coords, Function: fn, Extend: [true, true] });
  sh.end();
  return sh;
}

function bounds(g: Geometry): Rect {
  if ('rect' in g) return g.rect;
  if (g.kind === 'wedge') return { x: g.cx - g.radius, y: g.cy - g.radius, width: 2 * g.radius, height: 2 * g.radius };
  const points = g.kind === 'path' ? pathPoints(g.d) : g.points;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** End and control points of absolute path data (M, L, C, Q, Z: every number pair is a point); they contain the path. */
function pathPoints(d: string): [number, number][] {
  const v = (d.match(/-?\d*\.?\d+(?:e[-+]?\d+)?/gi) ?? []).map(Number);
  return Array.from({ length: Math.floor(v.length / 2) }, (_, i) => [v[2 * i]!, v[2 * i + 1]!]);
}

/**
 * Paints the gradient over the current clip (the caller has clipped to the item's geometry and set
 * the group's opacity); `geometry` bounds the soft mask.
 */
export function paintShading(doc: ShadingDoc, names: ShadingNames, g: Gradient, geometry: Geometry): void {
  const stops = paddedStops(g.stops);
  const resources = doc.page.resources.data;
  const shadings = (resources.Shading ??= {}) as Record<string, unknown>;
  if (stops.some((s) => s.color[3] < 1)) {
    const alpha = shading(
      doc,
      g,
      'DeviceGray',
      stopFunction(doc, stops, (s) => [s.color[3]]),
    );
    const { x, y, width, height } = bounds(geometry);
    const form = doc.ref({
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [x, y, x + width, y + height],
      Group: { Type: 'Group', S: 'Transparency', CS: 'DeviceGray' },
      Resources: { Shading: { Sa: alpha } },
    });
    form.end('/Sa sh');
    // The mask's form is placed by the transform in force at `gs`: the item's own local space.
    const state = doc.ref({ Type: 'ExtGState', SMask: { Type: 'Mask', S: 'Luminosity', G: form } });
    state.end();
    const name = `Gm${++names.shadings}`;
    doc.page.ext_gstates[name] = state;
    doc.addContent(`/${name} gs`);
  }
  const color = shading(
    doc,
    g,
    'DeviceRGB',
    stopFunction(doc, stops, (s) => [s.color[0] / 255, s.color[1] / 255, s.color[2] / 255]),
  );
  const name = `Sh${++names.shadings}`;
  shadings[name] = color;
  doc.addContent(`/${name} sh`);
}
