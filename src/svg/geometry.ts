// The geometry of an SVG file: the root's viewport (viewBox, size, preserveAspectRatio), basic shapes
// as path outlines, transform lists and the matrices they make, and the bounds of a node's shapes.
import type { Matrix } from '../scene/display-list.js';
import { elementError, type SvgAlign, type SvgDocument, type SvgNode } from './document.js';
import { parsePathData, PathDataError, pathBounds, transformPath, type Box, type PathSegment } from './path-data.js';
import { attrLength, length, numbers, type PercentBase } from './units.js';
import type { XmlElement } from './xml.js';

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** The root's viewport: the user space shown and the drawing's intrinsic size in CSS pixels. */
export function viewport(root: XmlElement): Pick<SvgDocument, 'viewBox' | 'width' | 'height'> {
  const vb = root.attributes.viewBox;
  const w = rootLength(root, 'width');
  const h = rootLength(root, 'height');
  let viewBox: SvgDocument['viewBox'];
  let width: number;
  let height: number;
  if (vb !== undefined) {
    const n = numbers(vb, root, 'viewBox');
    if (n.length !== 4) throw elementError(root, `viewBox="${vb}" must be four numbers: min-x min-y width height`);
    const [x, y, vw, vh] = n as [number, number, number, number];
    if (!(vw > 0 && vh > 0)) throw elementError(root, `viewBox="${vb}" needs a width and height greater than 0`);
    viewBox = { x, y, width: vw, height: vh };
    // An <img> sizes an SVG by its width/height, else by the viewBox's aspect ratio.
    width = w ?? (h !== undefined ? (h * vw) / vh : vw);
    height = h ?? (w !== undefined ? (w * vh) / vw : vh);
  } else {
    if (w === undefined || h === undefined) throw elementError(root, 'the <svg> needs a viewBox (or a width and a height in px) to know what area to draw');
    viewBox = { x: 0, y: 0, width: w, height: h };
    [width, height] = [w, h];
  }
  if (!(width > 0 && height > 0)) throw elementError(root, 'the <svg> has a width or height of 0: it draws nothing');
  return { viewBox, width, height };
}

/** The root's width or height in user units; undefined where it is missing, auto or a percentage. */
function rootLength(root: XmlElement, name: 'width' | 'height'): number | undefined {
  const v = root.attributes[name];
  if (v === undefined || v.trim() === 'auto' || v.trim().endsWith('%')) return undefined;
  return length(undefined, root, name, v);
}

/** An element's preserveAspectRatio: how its viewBox is fitted to its box. */
export function aspect(el: XmlElement): { align: SvgAlign; slice: boolean } {
  const v = (el.attributes.preserveAspectRatio ?? 'xMidYMid meet').trim();
  const m = /^(?:defer\s+)?(none|x(?:Min|Mid|Max)Y(?:Min|Mid|Max))(?:\s+(meet|slice))?$/.exec(v);
  if (!m) throw elementError(el, `preserveAspectRatio="${v}" is not valid: expected none or x(Min|Mid|Max)Y(Min|Mid|Max), then optionally meet or slice`);
  return { align: m[1] as SvgAlign, slice: m[2] === 'slice' };
}

/** The outline of a basic shape or path element in its user space (null: it draws nothing). */
export function shapePath(viewBox: PercentBase, el: XmlElement): PathSegment[] | null {
  const len = (n: string, d = 0): number => attrLength(viewBox, el, n, d);
  switch (el.name) {
    case 'path': {
      const d = el.attributes.d;
      if (d === undefined || d.trim() === '' || d.trim() === 'none') return null;
      try {
        const segs = parsePathData(d);
        return segs.length ? segs : null;
      } catch (e) {
        if (e instanceof PathDataError) throw elementError(el, `${e.message}: fix the d attribute`);
        throw e;
      }
    }
    case 'rect': {
      const [x, y, w, h] = [len('x'), len('y'), len('width'), len('height')];
      if (w < 0 || h < 0) throw elementError(el, 'a rect needs a width and height of at least 0');
      if (w === 0 || h === 0) return null;
      const rxA = el.attributes.rx;
      const ryA = el.attributes.ry;
      let rx = rxA === undefined || rxA === 'auto' ? undefined : len('rx');
      let ry = ryA === undefined || ryA === 'auto' ? undefined : len('ry');
      rx ??= ry ?? 0;
      ry ??= rx;
      rx = Math.min(Math.abs(rx), w / 2);
      ry = Math.min(Math.abs(ry), h / 2);
      if (rx === 0 || ry === 0) {
        return [
          { cmd: 'M', args: [x, y] },
          { cmd: 'L', args: [x + w, y] },
          { cmd: 'L', args: [x + w, y + h] },
          { cmd: 'L', args: [x, y + h] },
          { cmd: 'Z', args: [] },
        ];
      }
      // SVG 2's rect path: from (x + rx, y), clockwise, the corners as quarter ellipses.
      return parsePathData(
        `M ${x + rx} ${y} H ${x + w - rx} A ${rx} ${ry} 0 0 1 ${x + w} ${y + ry} V ${y + h - ry} A ${rx} ${ry} 0 0 1 ${x + w - rx} ${y + h} H ${x + rx} A ${rx} ${ry} 0 0 1 ${x} ${y + h - ry} V ${y + ry} A ${rx} ${ry} 0 0 1 ${x + rx} ${y} Z`,
      );
    }
    case 'circle':
    case 'ellipse': {
      const [cx, cy] = [len('cx'), len('cy')];
      let rx: number;
      let ry: number;
      if (el.name === 'circle') rx = ry = len('r');
      else {
        const a = el.attributes.rx;
        const b = el.attributes.ry;
        rx = a === undefined || a === 'auto' ? (b === undefined || b === 'auto' ? 0 : len('ry')) : len('rx');
        ry = b === undefined || b === 'auto' ? rx : len('ry');
      }
      if (rx < 0 || ry < 0) throw elementError(el, 'radii must be at least 0');
      if (rx === 0 || ry === 0) return null;
      // From (cx + rx, cy), clockwise (SVG 2), in four quarter arcs.
      return parsePathData(
        `M ${cx + rx} ${cy} A ${rx} ${ry} 0 0 1 ${cx} ${cy + ry} A ${rx} ${ry} 0 0 1 ${cx - rx} ${cy} A ${rx} ${ry} 0 0 1 ${cx} ${cy - ry} A ${rx} ${ry} 0 0 1 ${cx + rx} ${cy} Z`,
      );
    }
    case 'line':
      return [
        { cmd: 'M', args: [len('x1'), len('y1')] },
        { cmd: 'L', args: [len('x2'), len('y2')] },
      ];
    case 'polyline':
    case 'polygon': {
      const n = numbers(el.attributes.points ?? '', el, 'points');
      if (n.length % 2 === 1) throw elementError(el, `points has an odd count of numbers (${n.length}): give x,y pairs`);
      if (n.length < 2) return null;
      const segs: PathSegment[] = [];
      for (let k = 0; k < n.length; k += 2) segs.push({ cmd: k === 0 ? 'M' : 'L', args: [n[k]!, n[k + 1]!] });
      if (el.name === 'polygon') segs.push({ cmd: 'Z', args: [] });
      return segs;
    }
  }
  return null;
}

/** The element's transform attribute as a matrix (identity where it has none). */
export function elementTransform(el: XmlElement): Matrix {
  const t = el.attributes.transform;
  return t === undefined ? IDENTITY : parseTransform(el, t, 'transform');
}

/** A transform list (transform, gradientTransform) as one matrix. */
export function parseTransform(el: XmlElement, text: string, name: string): Matrix {
  let m = IDENTITY;
  const re = /\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?/gy;
  let pos = 0;
  let hit: RegExpExecArray | null;
  while ((hit = re.exec(text))) {
    pos = re.lastIndex;
    const fn = hit[1]!;
    const a = numbers(hit[2]!, el, name);
    const bad = (): never => {
      throw elementError(el, `${name}: ${fn}(${hit![2]!.trim()}) has the wrong number of values`);
    };
    let t: Matrix;
    switch (fn) {
      case 'matrix':
        if (a.length !== 6) bad();
        t = a as unknown as Matrix;
        break;
      case 'translate':
        if (a.length < 1 || a.length > 2) bad();
        t = [1, 0, 0, 1, a[0]!, a[1] ?? 0];
        break;
      case 'scale':
        if (a.length < 1 || a.length > 2) bad();
        t = [a[0]!, 0, 0, a[1] ?? a[0]!, 0, 0];
        break;
      case 'rotate': {
        if (a.length !== 1 && a.length !== 3) bad();
        const r = (a[0]! * Math.PI) / 180;
        const [c, s] = [Math.cos(r), Math.sin(r)];
        const [x, y] = [a[1] ?? 0, a[2] ?? 0];
        t = [c, s, -s, c, x - c * x + s * y, y - s * x - c * y];
        break;
      }
      case 'skewX':
        if (a.length !== 1) bad();
        t = [1, 0, Math.tan((a[0]! * Math.PI) / 180), 1, 0, 0];
        break;
      default:
        if (a.length !== 1) bad();
        t = [1, Math.tan((a[0]! * Math.PI) / 180), 0, 1, 0, 0];
    }
    m = multiply(m, t);
  }
  if (text.slice(pos).trim() !== '') {
    throw elementError(
      el,
      `${name}="${text}" could not be read near "${text.slice(pos).trim().slice(0, 30)}": expected matrix(), translate(), scale(), rotate(), skewX() or skewY()`,
    );
  }
  return m;
}

/** m × n: n applied first, then m (as canvas `transform(m)` then `transform(n)`). */
export function multiply(m: Matrix, n: Matrix): Matrix {
  const [a, b, c, d, e, f] = m;
  const [a2, b2, c2, d2, e2, f2] = n;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

/** The inverse of a transform, or null where it flattens the plane. */
export function invert([a, b, c, d, e, f]: Matrix): Matrix | null {
  const det = a * d - b * c;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** The bounding box of what a node's shapes cover (geometry, no strokes) in the node's own user space, its transform not applied. */
export function nodeBounds(n: SvgNode): Box | null {
  if (n.kind === 'shape') return pathBounds(n.path);
  let out: Box | null = null;
  for (const c of n.children) {
    const b = nodeBounds(c);
    if (!b) continue;
    const corners = transformPath(
      [
        { cmd: 'M', args: [b.x0, b.y0] },
        { cmd: 'L', args: [b.x1, b.y0] },
        { cmd: 'L', args: [b.x1, b.y1] },
        { cmd: 'L', args: [b.x0, b.y1] },
      ],
      c.transform,
    );
    const cb = pathBounds(corners)!;
    out = out ? { x0: Math.min(out.x0, cb.x0), y0: Math.min(out.y0, cb.y0), x1: Math.max(out.x1, cb.x1), y1: Math.max(out.y1, cb.y1) } : cb;
  }
  return out;
}
