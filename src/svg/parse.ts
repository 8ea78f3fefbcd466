// SVG files → plain drawing data: the supported subset of SVG (shapes, groups, <use>, transforms,
// presentation attributes, style="" and simple <style> sheets, solid and gradient paint, masks) resolved
// into a tree of groups and paths that layout places and both painters draw as vectors. Anything that
// would change the picture and is not supported is refused with a message naming it: never approximated.
// This module walks the tree; style.ts, geometry.ts, units.ts and paint.ts read what the elements say.
import type { SvgContext } from './context.js';
import { elementError, SVG_LIMITS, SvgError, type SvgDocument, type SvgNode } from './document.js';
import { aspect, elementTransform, IDENTITY, multiply, shapePath, viewport } from './geometry.js';
import { paintedShape, readMask } from './paint.js';
import { cascade, declared, INITIAL, readStyleSheet, type CssRule, type Inherited } from './style.js';
import { attrLength, fraction } from './units.js';
import { parseXml, XmlError, type XmlElement } from './xml.js';

// What the rest of the engine takes from svg/: the parser, the parsed drawing's types and the matrix helpers.
export { SVG_LIMITS, SvgError } from './document.js';
export type { SvgAlign, SvgDocument, SvgGradient, SvgMask, SvgNode, SvgPaint, SvgStop, SvgStroke } from './document.js';
export { invert, multiply } from './geometry.js';
export { transformPath } from './path-data.js';

const SUPPORTED =
  'supported are svg, g, a, defs, symbol, use, mask, path, rect, circle, ellipse, line, polyline, polygon, linearGradient, radialGradient, stop, style, title, desc and metadata';
/** Elements that would change the picture; refused wherever they would be drawn. */
const UNSUPPORTED = new Set([
  'text',
  'tspan',
  'textPath',
  'image',
  'filter',
  'clipPath',
  'pattern',
  'foreignObject',
  'animate',
  'animateMotion',
  'animateTransform',
  'animateColor',
  'set',
  'marker',
  'switch',
  'svg',
]);
/** Elements that draw nothing themselves. */
const SILENT = new Set(['title', 'desc', 'metadata', 'defs', 'symbol', 'linearGradient', 'radialGradient', 'style', 'script', 'view', 'cursor', 'mask']);
const SHAPES = new Set(['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon']);

/** Parses the text of an SVG file. Throws SvgError with the element and position. */
export function parseSvg(text: string): SvgDocument {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (e) {
    if (e instanceof XmlError) throw new SvgError(`not well-formed XML: ${e.message}`);
    throw e;
  }
  if (root.name !== 'svg') throw new SvgError(`the root element is <${root.name}>, not <svg>: is this an SVG file?`);
  const ids = new Map<string, XmlElement>();
  const parents = new Map<XmlElement, XmlElement>();
  const rules: CssRule[] = [];
  const visit = (el: XmlElement): void => {
    const id = el.attributes.id;
    if (id !== undefined && !ids.has(id)) ids.set(id, el);
    if (el.name === 'style') readStyleSheet(el, rules);
    for (const c of el.children) {
      parents.set(c, el);
      visit(c);
    }
  };
  visit(root);
  const { viewBox, width, height } = viewport(root);
  const ctx: SvgContext = { ids, parents, rules, viewBox, masking: new Set(), masked: false, shapes: 0, visits: 0, useDepth: 0 };
  // preserveAspectRatio needs a viewBox: without one a browser's <img> stretches the drawing to the
  // box (as if viewBox were "0 0 width height" with preserveAspectRatio="none").
  const { align, slice } = root.attributes.viewBox === undefined ? { align: 'none' as const, slice: false } : aspect(root);
  const nodes = childNodes(ctx, root, { ...INITIAL }, new Set([root]));
  return { viewBox, align, slice, width, height, nodes, masked: ctx.masked };
}

function childNodes(ctx: SvgContext, el: XmlElement, inherited: Inherited, using: Set<XmlElement>): SvgNode[] {
  const out: SvgNode[] = [];
  for (const c of el.children) {
    const n = node(ctx, c, inherited, using);
    if (n) out.push(n);
  }
  return out;
}

/** An element as a node with its mask, or null where it draws nothing. */
function node(ctx: SvgContext, el: XmlElement, parent: Inherited, using: Set<XmlElement>): SvgNode | null {
  const n = unmaskedNode(ctx, el, parent, using);
  if (!n) return null;
  const ref = el.name.includes(':') || SILENT.has(el.name) ? undefined : declared(ctx.rules, el).get('mask');
  if (ref === undefined || ref === 'none') return n;
  // The mask is in the element's user space (its transform applies to it too), and its opacity
  // applies after the mask: a group with both, around the element drawn without them.
  const mask = readMask(ctx, el, ref, n, using, (target, style, nested) => childNodes(ctx, target, style, nested));
  const inner: SvgNode = { ...n, transform: IDENTITY, opacity: 1 };
  return mask ? { kind: 'group', transform: n.transform, opacity: n.opacity, children: [inner], mask } : null;
}

/** An element as a node, its mask left to `node`: a group, a <use> as the group of what it uses, or a shape. */
function unmaskedNode(ctx: SvgContext, el: XmlElement, parent: Inherited, using: Set<XmlElement>): SvgNode | null {
  const name = el.name;
  // Editors' own elements (sodipodi:namedview, inkscape:…) draw nothing.
  if (name.includes(':')) return null;
  if (SILENT.has(name)) return null;
  if (UNSUPPORTED.has(name)) {
    const what = name === 'svg' ? 'a nested <svg>' : `<${name}>`;
    throw elementError(el, `${what} is not supported (it would change the picture): ${SUPPORTED}. Convert text to paths and flatten effects before exporting`);
  }
  if (name !== 'g' && name !== 'a' && name !== 'use' && !SHAPES.has(name)) throw elementError(el, `unknown element <${name}>: ${SUPPORTED}`);
  if (++ctx.visits > SVG_LIMITS.maxVisits)
    throw elementError(el, `more than ${SVG_LIMITS.maxVisits} elements to visit after <use> expansion: simplify the drawing`);
  const own = declared(ctx.rules, el);
  if (own.get('display') === 'none') return null;
  const style = cascade(parent, own);
  const opacity = fraction(el, 'opacity', own.get('opacity') ?? '1');
  let transform = elementTransform(el);
  if (name === 'g' || name === 'a') {
    const children = childNodes(ctx, el, style, new Set([...using, el]));
    return children.length ? { kind: 'group', transform, opacity, children } : null;
  }
  if (name === 'use') {
    const href = el.attributes.href ?? el.attributes['xlink:href'];
    if (href === undefined || !href.startsWith('#'))
      throw elementError(el, `<use> needs href="#id" of an element in this file (got ${href === undefined ? 'none' : `"${href}"`})`);
    const target = ctx.ids.get(href.slice(1));
    if (!target) throw elementError(el, `<use href="${href}"> names no element: no id="${href.slice(1)}" in the file`);
    if (using.has(target)) throw elementError(el, `<use href="${href}"> refers to itself (directly or through its ancestors)`);
    if (target.name === 'symbol' || target.name === 'svg') throw elementError(el, `<use> of a <${target.name}> is not supported: use a <g> instead`);
    const [x, y] = [attrLength(ctx.viewBox, el, 'x', 0), attrLength(ctx.viewBox, el, 'y', 0)];
    transform = multiply(transform, [1, 0, 0, 1, x, y]);
    if (ctx.useDepth >= SVG_LIMITS.maxUseDepth)
      throw elementError(el, `<use> elements refer through each other more than ${SVG_LIMITS.maxUseDepth} deep: flatten them`);
    ctx.useDepth++;
    let child: SvgNode | null;
    try {
      child = node(ctx, target, style, new Set([...using, target]));
    } finally {
      ctx.useDepth--;
    }
    return child ? { kind: 'group', transform, opacity, children: [child] } : null;
  }
  if (++ctx.shapes > SVG_LIMITS.maxShapes)
    throw elementError(el, `more than ${SVG_LIMITS.maxShapes} shapes to draw (after <use> expansion): simplify the drawing`);
  const path = shapePath(ctx.viewBox, el);
  if (!path || style.visibility === 'hidden' || style.visibility === 'collapse') return null;
  return paintedShape(ctx, el, path, style, transform, opacity);
}
