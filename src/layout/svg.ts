// SVG drawings → display items: the viewBox placed in the box (preserveAspectRatio or a fit), groups
// and shapes as nested groups with their transforms and opacity, fills (solid, gradient, even-odd),
// strokes with SVG's caps, joins and dashes, and colour replacement. Also an SVG's filled shapes as
// one clip path (image clip_svg). Pure: the file was parsed before layout.
import type { DisplayItem, Geometry, Gradient, Matrix } from '../scene/display-list.js';
import type { MediaFit, Rect, RGBA } from '../scene/scene.js';
import { colorKey } from '../svg/color.js';
import { invert, multiply, type SvgDocument, type SvgNode, type SvgPaint } from '../svg/parse.js';
import { filledShapes } from '../svg/clip.js';
import { pathDataString, reversePath, signedArea, transformPath, type PathSegment } from '../svg/path-data.js';

type Colors = Readonly<Record<string, RGBA>>;

/** The transform from the drawing's viewBox to `box`: the file's preserveAspectRatio, or a fit (centred). */
export function svgViewport(doc: SvgDocument, box: Rect, fit: MediaFit | null): Matrix {
  const { align, slice } = fit === null ? doc : { align: fit === 'fill' ? ('none' as const) : ('xMidYMid' as const), slice: fit === 'cover' };
  const vb = doc.viewBox;
  let sx = box.width / vb.width;
  let sy = box.height / vb.height;
  let [tx, ty] = [0, 0];
  if (align !== 'none') {
    sx = sy = slice ? Math.max(sx, sy) : Math.min(sx, sy);
    const room = (space: number, used: number, where: string): number => (where === 'Min' ? 0 : where === 'Mid' ? (space - used) / 2 : space - used);
    tx = room(box.width, vb.width * sx, align.slice(1, 4));
    ty = room(box.height, vb.height * sy, align.slice(5, 8));
  }
  return [sx, 0, 0, sy, box.x + tx - vb.x * sx, box.y + ty - vb.y * sy];
}

/** The drawing in `box` (local coordinates of its object), as one group; the caller clips to the box. */
export function svgItems(doc: SvgDocument, box: Rect, fit: MediaFit | null, colors: Colors): DisplayItem[] {
  const view = svgViewport(doc, box, fit);
  const group = wrap(view, 1, IDENTITY, box, nodesItems(doc.nodes, view, box, colors));
  return group ? [group] : [];
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const isIdentity = (m: Matrix): boolean => m[0] === 1 && m[1] === 0 && m[2] === 0 && m[3] === 1 && m[4] === 0 && m[5] === 0;

/**
 * A group with `transform` under a parent whose coordinates map to the box by `outer`; its bounds are
 * the box seen from inside (nothing outside the box shows: the object clips to it). Null when the
 * transform squashes everything to a line (SVG then draws nothing).
 */
function wrap(transform: Matrix, opacity: number, outer: Matrix, box: Rect, items: DisplayItem[]): DisplayItem | null {
  const inverse = invert(multiply(outer, transform));
  if (!inverse || items.length === 0) return null;
  return { kind: 'group', transform, opacity, bounds: mapRect(inverse, box), clip: null, items };
}

function mapRect(m: Matrix, r: Rect): Rect {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [r.x, r.y],
    [r.x + r.width, r.y],
    [r.x, r.y + r.height],
    [r.x + r.width, r.y + r.height],
  ] as const) {
    xs.push(m[0] * x + m[2] * y + m[4]);
    ys.push(m[1] * x + m[3] * y + m[5]);
  }
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function nodesItems(nodes: readonly SvgNode[], ctm: Matrix, box: Rect, colors: Colors): DisplayItem[] {
  const out: DisplayItem[] = [];
  for (const n of nodes) {
    const inner = multiply(ctm, n.transform);
    const items = n.kind === 'group' ? nodesItems(n.children, inner, box, colors) : shapeItems(n, inner, box, colors);
    if (n.kind === 'group' && n.mask) {
      // The mask's content, cut to its region, in the group's coordinates; an empty mask hides everything.
      const maskItems = nodesItems(n.mask.nodes, inner, box, colors);
      const g = wrap(n.transform, n.opacity, ctm, box, items);
      if (g?.kind === 'group' && maskItems.length) {
        const region = n.mask.region;
        g.mask = {
          items: [{ kind: 'group', transform: IDENTITY, opacity: 1, bounds: region, clip: { kind: 'rect', rect: region }, items: maskItems }],
          luminance: n.mask.luminance,
        };
        out.push(g);
      }
      continue;
    }
    if (isIdentity(n.transform) && n.opacity === 1) {
      out.push(...items);
      continue;
    }
    const g = wrap(n.transform, n.opacity, ctm, box, items);
    if (g) out.push(g);
  }
  return out;
}

function paintColor(c: RGBA, colors: Colors, opacity: number): RGBA {
  const [r, g, b, a] = colors[colorKey(c)] ?? c;
  return [r, g, b, a * opacity];
}

/** A shape's fill then its stroke (SVG's paint order), in its own user space (`ctm` maps it to the box). */
function shapeItems(s: Extract<SvgNode, { kind: 'shape' }>, ctm: Matrix, box: Rect, colors: Colors): DisplayItem[] {
  const items: DisplayItem[] = [];
  const geometry: Geometry = { kind: 'path', d: pathDataString(s.path) };
  if (s.fill) {
    const item = fillItem(s.fill, s.path, geometry, ctm, box, colors, s.fillOpacity, s.evenOdd);
    if (item) items.push(item);
  }
  const st = s.stroke;
  if (st) {
    items.push({
      kind: 'stroke',
      geometry,
      color: paintColor(st.paint.color, colors, st.opacity),
      width: st.width,
      dash: st.dash,
      join: st.join,
      cap: st.cap,
      miterLimit: st.miterLimit,
      ...(st.dash && st.dashOffset !== 0 ? { dashOffset: st.dashOffset } : {}),
    });
  }
  return items;
}

function fillItem(
  paint: SvgPaint,
  path: PathSegment[],
  geometry: Geometry,
  ctm: Matrix,
  box: Rect,
  colors: Colors,
  opacity: number,
  evenOdd: boolean,
): DisplayItem | null {
  const rule = evenOdd ? { evenOdd: true } : {};
  if (paint.kind === 'color') return { kind: 'fill', geometry, color: paintColor(paint.color, colors, opacity), ...rule };
  // The gradient is drawn in its own space (a group with the gradient's transform) and the path is
  // carried into that space, so any gradientTransform and bounding-box scaling is exact.
  const g = paint.gradient;
  const inverse = invert(g.transform);
  if (!inverse) return null;
  const stops = g.stops.map((s) => ({ offset: s.offset, color: paintColor(s.color, colors, opacity) }));
  const gradient: Gradient =
    g.kind === 'linear' ? { kind: 'linear', from: g.from, to: g.to, stops } : { kind: 'radial', center: g.center, radius: g.radius, stops };
  const item: DisplayItem = { kind: 'gradient', geometry: { kind: 'path', d: pathDataString(transformPath(path, inverse)) }, gradient, ...rule };
  if (isIdentity(g.transform)) return item;
  return wrap(g.transform, 1, ctm, box, [item]);
}

/**
 * The drawing's filled shapes as one clip path over `dst`, the viewBox stretched to it (Polotno's
 * clipSrc). Several shapes are combined into one nonzero path, each turned to wind the same way, so
 * their union is inside (a shape's own holes stay holes). Checked by svgClipProblem at load.
 */
export function svgClip(doc: SvgDocument, dst: Rect): { geometry: Geometry; evenOdd: boolean } {
  const vb = doc.viewBox;
  const sx = dst.width / vb.width;
  const sy = dst.height / vb.height;
  return svgClipBy(doc, [sx, 0, 0, sy, dst.x - vb.x * sx, dst.y - vb.y * sy]);
}

/** The drawing's filled shapes as one clip path, its viewBox mapped by `view` (svgViewport: an svg object's fill_image). */
export function svgClipBy(doc: SvgDocument, view: Matrix): { geometry: Geometry; evenOdd: boolean } {
  const shapes = filledShapes(doc.nodes, view);
  if (shapes.length === 1) return { geometry: { kind: 'path', d: pathDataString(shapes[0]!.path) }, evenOdd: shapes[0]!.evenOdd };
  const all = shapes.flatMap((s) => (signedArea(s.path) < 0 ? reversePath(s.path) : s.path));
  return { geometry: { kind: 'path', d: pathDataString(all) }, evenOdd: false };
}
