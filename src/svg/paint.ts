// Paint of an SVG file: fills and strokes, colours, linear and radial gradients (with what they
// inherit through href), and <mask>s; patterns and gradients on strokes are refused by name.
import type { Matrix } from '../scene/display-list.js';
import type { RGBA } from '../scene/scene.js';
import { parseSvgColor } from './color.js';
import type { SvgContext } from './context.js';
import { elementError, type SvgMask, type SvgNode, type SvgPaint, type SvgStop, type SvgStroke } from './document.js';
import { IDENTITY, multiply, nodeBounds, parseTransform } from './geometry.js';
import { pathBounds, type Box, type PathSegment } from './path-data.js';
import { cascade, declared, INITIAL, type Inherited } from './style.js';
import { fraction, length, unbounded } from './units.js';
import type { XmlElement } from './xml.js';

/** Reads the children of an element into nodes (the parse's tree walk), for a mask's content. */
export type ReadContent = (el: XmlElement, style: Inherited, using: Set<XmlElement>) => SvgNode[];

/** A shape node: the outline with its fill and stroke, or null where it paints nothing. */
export function paintedShape(ctx: SvgContext, el: XmlElement, path: PathSegment[], style: Inherited, transform: Matrix, opacity: number): SvgNode | null {
  const bbox = pathBounds(path);
  const fill = paint(ctx, el, 'fill', style, bbox);
  const strokePaint = paint(ctx, el, 'stroke', style, bbox);
  if (strokePaint?.kind === 'gradient')
    throw elementError(el, 'a gradient on a stroke is not supported: use a solid stroke colour, or outline the stroke into a filled path');
  const width = length(ctx.viewBox, el, 'stroke-width', style['stroke-width']);
  let stroke: SvgStroke | null = null;
  if (strokePaint && width > 0) {
    const cap = style['stroke-linecap'];
    const join = style['stroke-linejoin'];
    if (cap !== 'butt' && cap !== 'round' && cap !== 'square') throw elementError(el, `stroke-linecap="${cap}" is not valid: expected butt, round or square`);
    if (join !== 'miter' && join !== 'round' && join !== 'bevel')
      throw elementError(el, `stroke-linejoin="${join}" is not supported: expected miter, round or bevel`);
    const miterLimit = Number(style['stroke-miterlimit']);
    if (!(miterLimit >= 1)) throw elementError(el, `stroke-miterlimit="${style['stroke-miterlimit']}" must be a number of at least 1`);
    const dashText = style['stroke-dasharray'].trim();
    let dash: number[] | null = null;
    if (dashText !== 'none') {
      dash = dashText.split(/[\s,]+/).map((v) => length(ctx.viewBox, el, 'stroke-dasharray', v));
      if (dash.some((v) => v < 0)) throw elementError(el, `stroke-dasharray="${dashText}" has a negative length`);
      // An odd list repeats to an even one; an all-zero list draws a solid line.
      if (dash.length % 2 === 1) dash = [...dash, ...dash];
      if (dash.every((v) => v === 0)) dash = null;
    }
    stroke = {
      paint: strokePaint,
      opacity: fraction(el, 'stroke-opacity', style['stroke-opacity']),
      width,
      cap,
      join,
      miterLimit,
      dash,
      dashOffset: length(ctx.viewBox, el, 'stroke-dashoffset', style['stroke-dashoffset']),
    };
  }
  const rule = style['fill-rule'].trim();
  if (rule !== 'nonzero' && rule !== 'evenodd') throw elementError(el, `fill-rule="${rule}" is not valid: expected nonzero or evenodd`);
  if (!fill && !stroke) return null;
  return {
    kind: 'shape',
    path,
    transform,
    opacity,
    fill,
    fillOpacity: fraction(el, 'fill-opacity', style['fill-opacity']),
    evenOdd: rule === 'evenodd',
    stroke,
  };
}

/** The fill or stroke in force: none, a colour, or a gradient fitted to the shape's box. */
function paint(ctx: SvgContext, el: XmlElement, which: 'fill' | 'stroke', style: Inherited, bbox: Box | null): SvgPaint | null {
  const v = style[which].trim();
  if (v === 'none') return null;
  const url = /^url\(\s*['"]?#([^'")\s]+)['"]?\s*\)\s*(.*)$/.exec(v);
  if (!url) {
    if (v.startsWith('url(')) throw elementError(el, `${which}="${v}" must refer to an element of this file: url(#id)`);
    return { kind: 'color', color: color(el, which, v, style.color) };
  }
  const target = ctx.ids.get(url[1]!);
  const fallback = url[2]!.trim();
  if (!target) {
    // A missing paint server: the fallback, else nothing (SVG's rule).
    return fallback === '' || fallback === 'none' ? null : { kind: 'color', color: color(el, which, fallback, style.color) };
  }
  if (target.name !== 'linearGradient' && target.name !== 'radialGradient') {
    throw elementError(el, `${which}="${v}" refers to a <${target.name}>: only linearGradient and radialGradient paint servers are supported`);
  }
  return gradient(ctx, target, bbox);
}

/** A gradient element with the attributes and stops it inherits through href. */
function gradient(ctx: SvgContext, g: XmlElement, bbox: Box | null): SvgPaint | null {
  const chain: XmlElement[] = [];
  for (let cur: XmlElement | undefined = g; cur;) {
    if (chain.includes(cur)) throw elementError(g, 'gradient href chain loops back on itself');
    chain.push(cur);
    const href: string | undefined = cur.attributes.href ?? cur.attributes['xlink:href'];
    cur = href?.startsWith('#') ? ctx.ids.get(href.slice(1)) : undefined;
    if (cur && cur.name !== 'linearGradient' && cur.name !== 'radialGradient') cur = undefined;
  }
  const attr = (name: string): string | undefined => chain.find((c) => c.attributes[name] !== undefined)?.attributes[name];
  const stopsFrom = chain.find((c) => c.children.some((s) => s.name === 'stop'));
  const stops: SvgStop[] = [];
  let last = 0;
  for (const s of stopsFrom?.children ?? []) {
    if (s.name !== 'stop') continue;
    const own = declared(ctx.rules, s);
    const offset = Math.max(last, fraction(s, 'offset', s.attributes.offset ?? '0'));
    last = offset;
    const [r, gr, b, a] = color(s, 'stop-color', own.get('stop-color') ?? 'black', own.get('color') ?? 'black');
    stops.push({ offset, color: [r, gr, b, a * fraction(s, 'stop-opacity', own.get('stop-opacity') ?? '1')] });
  }
  if (stops.length === 0) return null;
  if (stops.length === 1) return { kind: 'color', color: stops[0]!.color };
  const spread = attr('spreadMethod') ?? 'pad';
  if (spread !== 'pad') throw elementError(g, `spreadMethod="${spread}" is not supported: only pad (the default)`);
  const units = attr('gradientUnits') ?? 'objectBoundingBox';
  if (units !== 'objectBoundingBox' && units !== 'userSpaceOnUse')
    throw elementError(g, `gradientUnits="${units}" is not valid: expected objectBoundingBox or userSpaceOnUse`);
  let transform = IDENTITY;
  const obb = units === 'objectBoundingBox';
  if (obb) {
    // A zero-width or zero-height box cannot carry a bounding-box gradient: SVG draws no paint.
    if (!bbox || bbox.x1 - bbox.x0 <= 0 || bbox.y1 - bbox.y0 <= 0) return null;
    transform = [bbox.x1 - bbox.x0, 0, 0, bbox.y1 - bbox.y0, bbox.x0, bbox.y0];
  }
  const gt = attr('gradientTransform');
  if (gt !== undefined) transform = multiply(transform, parseTransform(g, gt, 'gradientTransform'));
  // Bounding-box units: fractions (a percentage is the same fraction); user space: lengths.
  const coord = (name: string, fallback: string): number => {
    const v = attr(name) ?? fallback;
    if (!obb) return length(ctx.viewBox, g, name, v);
    const n = unbounded(v);
    if (!Number.isFinite(n)) throw elementError(g, `${name}="${v}" is not a number or percentage`);
    return n;
  };
  if (g.name === 'linearGradient') {
    return {
      kind: 'gradient',
      gradient: { kind: 'linear', from: [coord('x1', '0%'), coord('y1', '0%')], to: [coord('x2', '100%'), coord('y2', '0%')], stops, transform },
    };
  }
  const cx = coord('cx', '50%');
  const cy = coord('cy', '50%');
  const r = coord('r', '50%');
  const fx = attr('fx') === undefined ? cx : coord('fx', '50%');
  const fy = attr('fy') === undefined ? cy : coord('fy', '50%');
  const fr = attr('fr') === undefined ? 0 : coord('fr', '0%');
  if (Math.abs(fx - cx) > 1e-9 || Math.abs(fy - cy) > 1e-9 || fr !== 0) {
    throw elementError(g, 'a radial gradient with a focal point (fx, fy or fr other than the centre) is not supported: remove fx/fy/fr');
  }
  if (r <= 0) return { kind: 'color', color: stops[stops.length - 1]!.color };
  return { kind: 'gradient', gradient: { kind: 'radial', center: [cx, cy], radius: r, stops, transform } };
}

/** A colour value (currentColor is `current`, the color property in force). */
function color(el: XmlElement, name: string, value: string, current: string): RGBA {
  const v = value.trim();
  if (v === 'currentColor' || v === 'currentcolor') return color(el, 'color', current, 'black');
  const c = parseSvgColor(v);
  if (!c) throw elementError(el, `${name}="${value}" is not a colour: expected a hex colour, rgb(), hsl(), a CSS colour name or currentColor`);
  return c;
}

/**
 * The <mask> that `mask="url(#id)"` names, read for `node` (drawn in its own user space), its
 * content through `content`. Null when the mask hides everything (an empty region); SVG draws nothing then.
 */
export function readMask(ctx: SvgContext, el: XmlElement, ref: string, node: SvgNode, using: Set<XmlElement>, content: ReadContent): SvgMask | null {
  const url = /^url\(\s*['"]?#([^'")\s]+)['"]?\s*\)$/.exec(ref);
  if (!url) throw elementError(el, `mask="${ref}" must refer to a <mask> of this file: url(#id)`);
  const target = ctx.ids.get(url[1]!);
  // A mask reference to nothing: SVG renders the element as if it had none... browsers hide it; be explicit.
  if (!target) throw elementError(el, `mask="${ref}" names no element: no id="${url[1]}" in the file`);
  if (target.name !== 'mask') throw elementError(el, `mask="${ref}" refers to a <${target.name}>, not a <mask>`);
  if (ctx.masking.has(target)) throw elementError(target, 'the mask is used inside its own content');
  const own = declared(ctx.rules, target);
  const type = (own.get('mask-type') ?? 'luminance').trim();
  if (type !== 'luminance' && type !== 'alpha') throw elementError(target, `mask-type="${type}" is not valid: expected luminance or alpha`);
  const units = (target.attributes.maskUnits ?? 'objectBoundingBox').trim();
  const contentUnits = (target.attributes.maskContentUnits ?? 'userSpaceOnUse').trim();
  for (const [name, v] of [
    ['maskUnits', units],
    ['maskContentUnits', contentUnits],
  ] as const) {
    if (v !== 'objectBoundingBox' && v !== 'userSpaceOnUse')
      throw elementError(target, `${name}="${v}" is not valid: expected objectBoundingBox or userSpaceOnUse`);
  }
  const box = nodeBounds(node);
  const bw = box ? box.x1 - box.x0 : 0;
  const bh = box ? box.y1 - box.y0 : 0;
  // Bounding-box units with a flat box: SVG does not draw the element.
  if ((units === 'objectBoundingBox' || contentUnits === 'objectBoundingBox') && !(bw > 0 && bh > 0)) return null;
  const coord = (name: 'x' | 'y' | 'width' | 'height', fallback: string): number => {
    const v = target.attributes[name] ?? fallback;
    if (units === 'userSpaceOnUse') return length(ctx.viewBox, target, name, v);
    const f = unbounded(v);
    if (!Number.isFinite(f)) throw elementError(target, `${name}="${v}" is not a number or percentage`);
    return f;
  };
  let region = { x: coord('x', '-10%'), y: coord('y', '-10%'), width: coord('width', '120%'), height: coord('height', '120%') };
  if (units === 'objectBoundingBox') region = { x: box!.x0 + region.x * bw, y: box!.y0 + region.y * bh, width: region.width * bw, height: region.height * bh };
  if (!(region.width > 0 && region.height > 0)) return null;
  // The mask's content inherits from the mask's own ancestors, not from the element it masks.
  let style: Inherited = { ...INITIAL };
  const chain: XmlElement[] = [];
  for (let cur: XmlElement | undefined = target; cur; cur = ctx.parents.get(cur)) chain.unshift(cur);
  for (const a of chain) style = cascade(style, declared(ctx.rules, a));
  ctx.masking.add(target);
  let nodes: SvgNode[];
  try {
    nodes = content(target, style, new Set([...using, target]));
  } finally {
    ctx.masking.delete(target);
  }
  if (contentUnits === 'objectBoundingBox' && nodes.length)
    nodes = [{ kind: 'group', transform: [bw, 0, 0, bh, box!.x0, box!.y0], opacity: 1, children: nodes }];
  ctx.masked = true;
  return { nodes, region, luminance: type === 'luminance' };
}
