// SVG files → plain drawing data: the supported subset of SVG (shapes, groups, <use>, transforms,
// presentation attributes, style="" and simple <style> sheets, solid and gradient paint) resolved into
// a tree of groups and paths that layout places and both painters draw as vectors. Anything that would
// change the picture and is not supported is refused with a message naming it: never approximated.
import type { Matrix } from '../scene/display-list.js';
import type { RGBA } from '../scene/scene.js';
import { parseSvgColor } from './color.js';
import { parsePathData, PathDataError, pathBounds, transformPath, type Box, type PathSegment } from './path-data.js';
import { parseXml, XmlError, type XmlElement } from './xml.js';

export const SVG_LIMITS = {
  maxBytes: 2 * 1024 * 1024,
  /** Shapes drawn after <use> expansion (a <use> of a group of <use>s multiplies). */
  maxShapes: 50_000,
  /** Elements visited after <use> expansion, drawn or not (empty groups multiply too). */
  maxVisits: 200_000,
  /** <use> inside <use> inside … */
  maxUseDepth: 32,
} as const;

/** A refused or malformed SVG; the message says where and what to change. */
export class SvgError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvgError';
  }
}

export interface SvgStop {
  offset: number;
  color: RGBA;
}

/** A gradient in its own space; `transform` maps that space into the user space of the shape it paints. */
export type SvgGradient =
  | { kind: 'linear'; from: readonly [number, number]; to: readonly [number, number]; stops: SvgStop[]; transform: Matrix }
  | { kind: 'radial'; center: readonly [number, number]; radius: number; stops: SvgStop[]; transform: Matrix };

export type SvgPaint = { kind: 'color'; color: RGBA } | { kind: 'gradient'; gradient: SvgGradient };

export interface SvgStroke {
  paint: { kind: 'color'; color: RGBA };
  /** stroke-opacity (multiplies the colour's own alpha). */
  opacity: number;
  width: number;
  cap: 'butt' | 'round' | 'square';
  join: 'miter' | 'round' | 'bevel';
  miterLimit: number;
  dash: number[] | null;
  dashOffset: number;
}

/**
 * A <mask> applied to a group: its content (in the group's coordinates) keeps the group's pixels as
 * much as it paints them, by luminance × alpha (mask-type luminance, the default) or by alpha, inside
 * the mask's region only.
 */
export interface SvgMask {
  nodes: SvgNode[];
  region: { x: number; y: number; width: number; height: number };
  luminance: boolean;
}

export type SvgNode =
  | { kind: 'group'; transform: Matrix; opacity: number; children: SvgNode[]; mask?: SvgMask }
  | {
      kind: 'shape';
      /** In the shape's user space (its own transform not applied). */
      path: PathSegment[];
      transform: Matrix;
      opacity: number;
      fill: SvgPaint | null;
      fillOpacity: number;
      evenOdd: boolean;
      stroke: SvgStroke | null;
    };

export type SvgAlign = 'none' | `x${'Min' | 'Mid' | 'Max'}Y${'Min' | 'Mid' | 'Max'}`;

export interface SvgDocument {
  /** The user space shown: the root's viewBox (or 0 0 width height). */
  viewBox: { x: number; y: number; width: number; height: number };
  /** The root's preserveAspectRatio. */
  align: SvgAlign;
  slice: boolean;
  /** Intrinsic size in CSS pixels (width/height, else the viewBox's). */
  width: number;
  height: number;
  nodes: SvgNode[];
  /** Some group has a <mask>: the drawing's pixels are not just the union of its shapes. */
  masked: boolean;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** The bounding box of what a node's shapes cover (geometry, no strokes) in the node's own user space, its transform not applied. */
function nodeBounds(n: SvgNode): Box | null {
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
/** Properties that would change the picture and are not supported, unless `none`/`normal`. */
const REFUSED_PROPERTIES: Record<string, string> = {
  filter: 'none',
  'clip-path': 'none',
  marker: 'none',
  'marker-start': 'none',
  'marker-mid': 'none',
  'marker-end': 'none',
  'mix-blend-mode': 'normal',
  'paint-order': 'normal',
  'vector-effect': 'none',
};
const INHERITED = [
  'fill',
  'stroke',
  'stroke-width',
  'fill-opacity',
  'stroke-opacity',
  'fill-rule',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'color',
  'visibility',
] as const;
type Inherited = Record<(typeof INHERITED)[number], string>;
const INITIAL: Inherited = {
  fill: 'black',
  stroke: 'none',
  'stroke-width': '1',
  'fill-opacity': '1',
  'stroke-opacity': '1',
  'fill-rule': 'nonzero',
  'stroke-linecap': 'butt',
  'stroke-linejoin': 'miter',
  'stroke-miterlimit': '4',
  'stroke-dasharray': 'none',
  'stroke-dashoffset': '0',
  color: 'black',
  visibility: 'visible',
};
const PROPERTIES = new Set<string>([...INHERITED, 'opacity', 'display', 'stop-color', 'stop-opacity', 'mask', 'mask-type', ...Object.keys(REFUSED_PROPERTIES)]);

interface CssRule {
  selectors: { tag?: string; id?: string; classes: string[]; specificity: number }[];
  declarations: [string, string][];
  order: number;
}

/** Parses the text of an SVG file. Throws SvgError with the element and position. */
export function parseSvg(text: string): SvgDocument {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (e) {
    if (e instanceof XmlError) throw new SvgError(`not well-formed XML: ${e.message}`);
    throw e;
  }
  return new SvgReader(root).document();
}

class SvgReader {
  private readonly ids = new Map<string, XmlElement>();
  private readonly parents = new Map<XmlElement, XmlElement>();
  private masked = false;
  /** Masks being read (a mask whose content refers back to it loops). */
  private readonly masking = new Set<XmlElement>();
  private readonly rules: CssRule[] = [];
  private shapes = 0;
  private visits = 0;
  private useDepth = 0;
  private readonly viewBox: SvgDocument['viewBox'];
  private readonly width: number;
  private readonly height: number;

  constructor(private readonly root: XmlElement) {
    if (root.name !== 'svg') throw new SvgError(`the root element is <${root.name}>, not <svg>: is this an SVG file?`);
    const visit = (el: XmlElement): void => {
      const id = el.attributes.id;
      if (id !== undefined && !this.ids.has(id)) this.ids.set(id, el);
      if (el.name === 'style') this.readStyle(el);
      for (const c of el.children) {
        this.parents.set(c, el);
        visit(c);
      }
    };
    visit(root);
    const vb = root.attributes.viewBox;
    const w = this.rootLength(root, 'width');
    const h = this.rootLength(root, 'height');
    if (vb !== undefined) {
      const n = numbers(vb, root, 'viewBox');
      if (n.length !== 4) throw this.error(root, `viewBox="${vb}" must be four numbers: min-x min-y width height`);
      const [x, y, width, height] = n as [number, number, number, number];
      if (!(width > 0 && height > 0)) throw this.error(root, `viewBox="${vb}" needs a width and height greater than 0`);
      this.viewBox = { x, y, width, height };
      // An <img> sizes an SVG by its width/height, else by the viewBox's aspect ratio.
      this.width = w ?? (h !== undefined ? (h * width) / height : width);
      this.height = h ?? (w !== undefined ? (w * height) / width : height);
    } else {
      if (w === undefined || h === undefined) throw this.error(root, 'the <svg> needs a viewBox (or a width and a height in px) to know what area to draw');
      this.viewBox = { x: 0, y: 0, width: w, height: h };
      [this.width, this.height] = [w, h];
    }
    if (!(this.width > 0 && this.height > 0)) throw this.error(root, 'the <svg> has a width or height of 0: it draws nothing');
  }

  document(): SvgDocument {
    // preserveAspectRatio needs a viewBox: without one a browser's <img> stretches the drawing to the
    // box (as if viewBox were "0 0 width height" with preserveAspectRatio="none").
    const { align, slice } = this.root.attributes.viewBox === undefined ? { align: 'none' as const, slice: false } : this.aspect(this.root);
    const nodes = this.children(this.root, { ...INITIAL }, new Set([this.root]));
    return { viewBox: this.viewBox, align, slice, width: this.width, height: this.height, nodes, masked: this.masked };
  }

  private error(el: XmlElement, message: string): SvgError {
    return new SvgError(`<${el.name}> at line ${el.line}, column ${el.column}: ${message}`);
  }

  private rootLength(root: XmlElement, name: 'width' | 'height'): number | undefined {
    const v = root.attributes[name];
    if (v === undefined || v.trim() === 'auto' || v.trim().endsWith('%')) return undefined;
    return this.length(root, name, v);
  }

  private aspect(el: XmlElement): { align: SvgAlign; slice: boolean } {
    const v = (el.attributes.preserveAspectRatio ?? 'xMidYMid meet').trim();
    const m = /^(?:defer\s+)?(none|x(?:Min|Mid|Max)Y(?:Min|Mid|Max))(?:\s+(meet|slice))?$/.exec(v);
    if (!m) throw this.error(el, `preserveAspectRatio="${v}" is not valid: expected none or x(Min|Mid|Max)Y(Min|Mid|Max), then optionally meet or slice`);
    return { align: m[1] as SvgAlign, slice: m[2] === 'slice' };
  }

  // ── style ──────────────────────────────────────────────────────────────────────────────────

  private readStyle(el: XmlElement): void {
    const type = el.attributes.type;
    if (type !== undefined && type !== 'text/css') throw this.error(el, `style sheets of type "${type}" are not supported: use text/css`);
    const css = this.withoutDarkScheme(el, el.text.replace(/\/\*[\s\S]*?\*\//g, ' '));
    const rule = /([^{}]*)\{([^{}]*)\}/g;
    let m: RegExpExecArray | null;
    let end = 0;
    while ((m = rule.exec(css))) {
      const head = m[1]!.trim();
      if (head.startsWith('@')) throw this.error(el, `the CSS rule "${head}" is not supported: only plain selector rules (tag, .class, #id) are`);
      const selectors = head.split(',').map((s) => this.selector(el, s.trim()));
      this.rules.push({ selectors, declarations: declarations(m[2]!), order: this.rules.length });
      end = rule.lastIndex;
    }
    if (css.slice(end).trim() !== '')
      throw this.error(el, `could not read the style sheet near "${css.slice(end).trim().slice(0, 40)}": expected "selector { property: value; }"`);
  }

  /**
   * Drops `@media (prefers-color-scheme: dark) { … }` blocks: renders are in the light scheme, as a
   * browser's <img> is by default, so they never apply. Any other at-rule is refused by name.
   */
  private withoutDarkScheme(el: XmlElement, css: string): string {
    let out = '';
    let i = 0;
    for (;;) {
      const at = css.indexOf('@', i);
      if (at < 0) return out + css.slice(i);
      const open = css.indexOf('{', at);
      const head = css.slice(at, open < 0 ? undefined : open).trim();
      if (open < 0 || !/^@media\s*\(\s*prefers-color-scheme\s*:\s*dark\s*\)$/i.test(head)) {
        throw this.error(
          el,
          `the CSS rule "${head.slice(0, 60)}" is not supported: only plain selector rules (tag, .class, #id) are, and @media (prefers-color-scheme: dark) blocks, which are skipped`,
        );
      }
      let depth = 0;
      let k = open;
      for (; k < css.length; k++) {
        if (css[k] === '{') depth++;
        else if (css[k] === '}' && --depth === 0) break;
      }
      if (depth !== 0) throw this.error(el, `the CSS block "${head}" is never closed with "}"`);
      out += css.slice(i, at);
      i = k + 1;
    }
  }

  private selector(el: XmlElement, s: string): CssRule['selectors'][number] {
    const m = /^(\*|[A-Za-z][\w-]*)?((?:[.#][\w-]+)*)$/.exec(s);
    if (!m || s === '')
      throw this.error(el, `the CSS selector "${s}" is not supported: use a tag, .class or #id (combinators, attributes and pseudo-classes are not supported)`);
    const parts = m[2]!.match(/[.#][\w-]+/g) ?? [];
    const id = parts.find((p) => p.startsWith('#'))?.slice(1);
    const classes = parts.filter((p) => p.startsWith('.')).map((p) => p.slice(1));
    const tag = m[1] && m[1] !== '*' ? m[1] : undefined;
    return { ...(tag ? { tag } : {}), ...(id ? { id } : {}), classes, specificity: (id ? 10000 : 0) + classes.length * 100 + (tag ? 1 : 0) };
  }

  /** An element's own declared properties: presentation attributes < style sheet < style="". */
  private declared(el: XmlElement): Map<string, string> {
    const out = new Map<string, string>();
    for (const [k, v] of Object.entries(el.attributes)) if (PROPERTIES.has(k)) out.set(k, v.trim());
    if (this.rules.length) {
      const classes = (el.attributes.class ?? '').split(/\s+/).filter(Boolean);
      const matches: { specificity: number; order: number; declarations: [string, string][] }[] = [];
      for (const r of this.rules) {
        let best = -1;
        for (const s of r.selectors) {
          if (s.tag && s.tag !== el.name) continue;
          if (s.id && s.id !== el.attributes.id) continue;
          if (!s.classes.every((c) => classes.includes(c))) continue;
          best = Math.max(best, s.specificity);
        }
        if (best >= 0) matches.push({ specificity: best, order: r.order, declarations: r.declarations });
      }
      matches.sort((a, b) => a.specificity - b.specificity || a.order - b.order);
      for (const m of matches) for (const [k, v] of m.declarations) this.property(el, out, k, v);
    }
    if (el.attributes.style !== undefined) for (const [k, v] of declarations(el.attributes.style)) this.property(el, out, k, v);
    for (const [k, keep] of Object.entries(REFUSED_PROPERTIES)) {
      const v = out.get(k);
      if (v !== undefined && v !== keep)
        throw this.error(el, `${k}="${v}" is not supported (it would change the picture): remove it or flatten the effect into plain shapes`);
    }
    return out;
  }

  private property(el: XmlElement, out: Map<string, string>, name: string, value: string): void {
    if (name === 'transform') throw this.error(el, 'a CSS transform in style is not supported: use the transform attribute');
    if (PROPERTIES.has(name)) out.set(name, value);
  }

  // ── tree ───────────────────────────────────────────────────────────────────────────────────

  private children(el: XmlElement, inherited: Inherited, using: Set<XmlElement>): SvgNode[] {
    const out: SvgNode[] = [];
    for (const c of el.children) {
      const n = this.node(c, inherited, using);
      if (n) out.push(n);
    }
    return out;
  }

  private node(el: XmlElement, parent: Inherited, using: Set<XmlElement>): SvgNode | null {
    const n = this.unmaskedNode(el, parent, using);
    if (!n) return null;
    const ref = el.name.includes(':') || SILENT.has(el.name) ? undefined : this.declared(el).get('mask');
    if (ref === undefined || ref === 'none') return n;
    // The mask is in the element's user space (its transform applies to it too), and its opacity
    // applies after the mask: a group with both, around the element drawn without them.
    const mask = this.mask(el, ref, n, using);
    const inner: SvgNode = { ...n, transform: IDENTITY, opacity: 1 };
    return mask ? { kind: 'group', transform: n.transform, opacity: n.opacity, children: [inner], mask } : null;
  }

  /**
   * The <mask> that `mask="url(#id)"` names, read for `node` (drawn in its own user space). Null
   * when the mask hides everything (an empty region); SVG draws nothing then.
   */
  private mask(el: XmlElement, ref: string, node: SvgNode, using: Set<XmlElement>): SvgMask | null {
    const url = /^url\(\s*['"]?#([^'")\s]+)['"]?\s*\)$/.exec(ref);
    if (!url) throw this.error(el, `mask="${ref}" must refer to a <mask> of this file: url(#id)`);
    const target = this.ids.get(url[1]!);
    // A mask reference to nothing: SVG renders the element as if it had none... browsers hide it; be explicit.
    if (!target) throw this.error(el, `mask="${ref}" names no element: no id="${url[1]}" in the file`);
    if (target.name !== 'mask') throw this.error(el, `mask="${ref}" refers to a <${target.name}>, not a <mask>`);
    if (this.masking.has(target)) throw this.error(target, 'the mask is used inside its own content');
    const own = this.declared(target);
    const type = (own.get('mask-type') ?? 'luminance').trim();
    if (type !== 'luminance' && type !== 'alpha') throw this.error(target, `mask-type="${type}" is not valid: expected luminance or alpha`);
    const units = (target.attributes.maskUnits ?? 'objectBoundingBox').trim();
    const contentUnits = (target.attributes.maskContentUnits ?? 'userSpaceOnUse').trim();
    for (const [name, v] of [
      ['maskUnits', units],
      ['maskContentUnits', contentUnits],
    ] as const) {
      if (v !== 'objectBoundingBox' && v !== 'userSpaceOnUse')
        throw this.error(target, `${name}="${v}" is not valid: expected objectBoundingBox or userSpaceOnUse`);
    }
    const box = nodeBounds(node);
    const bw = box ? box.x1 - box.x0 : 0;
    const bh = box ? box.y1 - box.y0 : 0;
    // Bounding-box units with a flat box: SVG does not draw the element.
    if ((units === 'objectBoundingBox' || contentUnits === 'objectBoundingBox') && !(bw > 0 && bh > 0)) return null;
    const coord = (name: 'x' | 'y' | 'width' | 'height', fallback: string): number => {
      const v = target.attributes[name] ?? fallback;
      if (units === 'userSpaceOnUse') return this.length(target, name, v);
      const f = unbounded(v);
      if (!Number.isFinite(f)) throw this.error(target, `${name}="${v}" is not a number or percentage`);
      return f;
    };
    let region = { x: coord('x', '-10%'), y: coord('y', '-10%'), width: coord('width', '120%'), height: coord('height', '120%') };
    if (units === 'objectBoundingBox')
      region = { x: box!.x0 + region.x * bw, y: box!.y0 + region.y * bh, width: region.width * bw, height: region.height * bh };
    if (!(region.width > 0 && region.height > 0)) return null;
    // The mask's content inherits from the mask's own ancestors, not from the element it masks.
    let style: Inherited = { ...INITIAL };
    const chain: XmlElement[] = [];
    for (let cur: XmlElement | undefined = target; cur; cur = this.parents.get(cur)) chain.unshift(cur);
    for (const a of chain) {
      const d = this.declared(a);
      style = { ...style };
      for (const k of INHERITED) {
        const v = d.get(k);
        if (v !== undefined && v !== 'inherit') style[k] = v;
      }
    }
    this.masking.add(target);
    let nodes: SvgNode[];
    try {
      nodes = this.children(target, style, new Set([...using, target]));
    } finally {
      this.masking.delete(target);
    }
    if (contentUnits === 'objectBoundingBox' && nodes.length)
      nodes = [{ kind: 'group', transform: [bw, 0, 0, bh, box!.x0, box!.y0], opacity: 1, children: nodes }];
    this.masked = true;
    return { nodes, region, luminance: type === 'luminance' };
  }

  private unmaskedNode(el: XmlElement, parent: Inherited, using: Set<XmlElement>): SvgNode | null {
    const name = el.name;
    // Editors' own elements (sodipodi:namedview, inkscape:…) draw nothing.
    if (name.includes(':')) return null;
    if (SILENT.has(name)) return null;
    if (UNSUPPORTED.has(name)) {
      const what = name === 'svg' ? 'a nested <svg>' : `<${name}>`;
      throw this.error(el, `${what} is not supported (it would change the picture): ${SUPPORTED}. Convert text to paths and flatten effects before exporting`);
    }
    if (name !== 'g' && name !== 'a' && name !== 'use' && !SHAPES.has(name)) throw this.error(el, `unknown element <${name}>: ${SUPPORTED}`);
    if (++this.visits > SVG_LIMITS.maxVisits)
      throw this.error(el, `more than ${SVG_LIMITS.maxVisits} elements to visit after <use> expansion: simplify the drawing`);
    const own = this.declared(el);
    if (own.get('display') === 'none') return null;
    const style: Inherited = { ...parent };
    for (const k of INHERITED) {
      const v = own.get(k);
      if (v !== undefined && v !== 'inherit') style[k] = v;
    }
    const opacity = this.fraction(el, 'opacity', own.get('opacity') ?? '1');
    let transform = this.transform(el);
    if (name === 'g' || name === 'a') {
      const children = this.children(el, style, new Set([...using, el]));
      return children.length ? { kind: 'group', transform, opacity, children } : null;
    }
    if (name === 'use') {
      const href = el.attributes.href ?? el.attributes['xlink:href'];
      if (href === undefined || !href.startsWith('#'))
        throw this.error(el, `<use> needs href="#id" of an element in this file (got ${href === undefined ? 'none' : `"${href}"`})`);
      const target = this.ids.get(href.slice(1));
      if (!target) throw this.error(el, `<use href="${href}"> names no element: no id="${href.slice(1)}" in the file`);
      if (using.has(target)) throw this.error(el, `<use href="${href}"> refers to itself (directly or through its ancestors)`);
      if (target.name === 'symbol' || target.name === 'svg') throw this.error(el, `<use> of a <${target.name}> is not supported: use a <g> instead`);
      const [x, y] = [this.attrLength(el, 'x', 0), this.attrLength(el, 'y', 0)];
      transform = multiply(transform, [1, 0, 0, 1, x, y]);
      if (this.useDepth >= SVG_LIMITS.maxUseDepth)
        throw this.error(el, `<use> elements refer through each other more than ${SVG_LIMITS.maxUseDepth} deep: flatten them`);
      this.useDepth++;
      let child: SvgNode | null;
      try {
        child = this.node(target, style, new Set([...using, target]));
      } finally {
        this.useDepth--;
      }
      return child ? { kind: 'group', transform, opacity, children: [child] } : null;
    }
    if (++this.shapes > SVG_LIMITS.maxShapes)
      throw this.error(el, `more than ${SVG_LIMITS.maxShapes} shapes to draw (after <use> expansion): simplify the drawing`);
    const path = this.geometry(el);
    if (!path || style.visibility === 'hidden' || style.visibility === 'collapse') return null;
    return this.shape(el, path, style, transform, opacity);
  }

  private shape(el: XmlElement, path: PathSegment[], style: Inherited, transform: Matrix, opacity: number): SvgNode | null {
    const bbox = pathBounds(path);
    const fill = this.paint(el, 'fill', style, bbox);
    const strokePaint = this.paint(el, 'stroke', style, bbox);
    if (strokePaint?.kind === 'gradient')
      throw this.error(el, 'a gradient on a stroke is not supported: use a solid stroke colour, or outline the stroke into a filled path');
    const width = this.length(el, 'stroke-width', style['stroke-width']);
    let stroke: SvgStroke | null = null;
    if (strokePaint && width > 0) {
      const cap = style['stroke-linecap'];
      const join = style['stroke-linejoin'];
      if (cap !== 'butt' && cap !== 'round' && cap !== 'square') throw this.error(el, `stroke-linecap="${cap}" is not valid: expected butt, round or square`);
      if (join !== 'miter' && join !== 'round' && join !== 'bevel')
        throw this.error(el, `stroke-linejoin="${join}" is not supported: expected miter, round or bevel`);
      const miterLimit = Number(style['stroke-miterlimit']);
      if (!(miterLimit >= 1)) throw this.error(el, `stroke-miterlimit="${style['stroke-miterlimit']}" must be a number of at least 1`);
      const dashText = style['stroke-dasharray'].trim();
      let dash: number[] | null = null;
      if (dashText !== 'none') {
        dash = dashText.split(/[\s,]+/).map((v) => this.length(el, 'stroke-dasharray', v));
        if (dash.some((v) => v < 0)) throw this.error(el, `stroke-dasharray="${dashText}" has a negative length`);
        // An odd list repeats to an even one; an all-zero list draws a solid line.
        if (dash.length % 2 === 1) dash = [...dash, ...dash];
        if (dash.every((v) => v === 0)) dash = null;
      }
      stroke = {
        paint: strokePaint,
        opacity: this.fraction(el, 'stroke-opacity', style['stroke-opacity']),
        width,
        cap,
        join,
        miterLimit,
        dash,
        dashOffset: this.length(el, 'stroke-dashoffset', style['stroke-dashoffset']),
      };
    }
    const rule = style['fill-rule'].trim();
    if (rule !== 'nonzero' && rule !== 'evenodd') throw this.error(el, `fill-rule="${rule}" is not valid: expected nonzero or evenodd`);
    if (!fill && !stroke) return null;
    return {
      kind: 'shape',
      path,
      transform,
      opacity,
      fill,
      fillOpacity: this.fraction(el, 'fill-opacity', style['fill-opacity']),
      evenOdd: rule === 'evenodd',
      stroke,
    };
  }

  // ── geometry ───────────────────────────────────────────────────────────────────────────────

  private geometry(el: XmlElement): PathSegment[] | null {
    const len = (n: string, d = 0): number => this.attrLength(el, n, d);
    switch (el.name) {
      case 'path': {
        const d = el.attributes.d;
        if (d === undefined || d.trim() === '' || d.trim() === 'none') return null;
        try {
          const segs = parsePathData(d);
          return segs.length ? segs : null;
        } catch (e) {
          if (e instanceof PathDataError) throw this.error(el, `${e.message}: fix the d attribute`);
          throw e;
        }
      }
      case 'rect': {
        const [x, y, w, h] = [len('x'), len('y'), len('width'), len('height')];
        if (w < 0 || h < 0) throw this.error(el, 'a rect needs a width and height of at least 0');
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
        if (rx < 0 || ry < 0) throw this.error(el, 'radii must be at least 0');
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
        if (n.length % 2 === 1) throw this.error(el, `points has an odd count of numbers (${n.length}): give x,y pairs`);
        if (n.length < 2) return null;
        const segs: PathSegment[] = [];
        for (let k = 0; k < n.length; k += 2) segs.push({ cmd: k === 0 ? 'M' : 'L', args: [n[k]!, n[k + 1]!] });
        if (el.name === 'polygon') segs.push({ cmd: 'Z', args: [] });
        return segs;
      }
    }
    return null;
  }

  // ── values ─────────────────────────────────────────────────────────────────────────────────

  private attrLength(el: XmlElement, name: string, fallback: number): number {
    const v = el.attributes[name];
    return v === undefined ? fallback : this.length(el, name, v);
  }

  /** A length in user units: a number, px or an absolute unit; percentages of the viewBox. */
  length(el: XmlElement, name: string, value: string): number {
    const m = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(px|pt|pc|mm|cm|in|%)?\s*$/.exec(value);
    if (!m)
      throw this.error(el, `${name}="${value}" is not a length: expected a number, optionally with px, pt, pc, mm, cm, in or % (em and ex are not supported)`);
    const v = Number(m[1]);
    const unit = m[2];
    if (!Number.isFinite(v)) throw this.error(el, `${name}="${value}" is out of range`);
    if (unit === '%') {
      // The root's own width/height never get here (rootLength); other percentages need the viewBox.
      const vb = this.viewBox ?? { width: 0, height: 0 };
      const ref = /^(x|cx|x1|x2|width|rx|dx)$/.test(name)
        ? vb.width
        : /^(y|cy|y1|y2|height|ry|dy)$/.test(name)
          ? vb.height
          : Math.hypot(vb.width, vb.height) / Math.SQRT2;
      return (v / 100) * ref;
    }
    const scale: number = { px: 1, pt: 4 / 3, pc: 16, mm: 96 / 25.4, cm: 96 / 2.54, in: 96 }[(unit ?? 'px') as 'px'];
    return v * scale;
  }

  private fraction(el: XmlElement, name: string, value: string): number {
    const v = value.trim();
    const n = v.endsWith('%') ? Number(v.slice(0, -1)) / 100 : Number(v);
    if (v === '' || !Number.isFinite(n)) throw this.error(el, `${name}="${value}" is not a number from 0 to 1 (or a percentage)`);
    return Math.min(1, Math.max(0, n));
  }

  private color(el: XmlElement, name: string, value: string, current: string): RGBA {
    const v = value.trim();
    if (v === 'currentColor' || v === 'currentcolor') return this.color(el, 'color', current, 'black');
    const c = parseSvgColor(v);
    if (!c) throw this.error(el, `${name}="${value}" is not a colour: expected a hex colour, rgb(), hsl(), a CSS colour name or currentColor`);
    return c;
  }

  private paint(el: XmlElement, which: 'fill' | 'stroke', style: Inherited, bbox: Box | null): SvgPaint | null {
    const v = style[which].trim();
    if (v === 'none') return null;
    const url = /^url\(\s*['"]?#([^'")\s]+)['"]?\s*\)\s*(.*)$/.exec(v);
    if (!url) {
      if (v.startsWith('url(')) throw this.error(el, `${which}="${v}" must refer to an element of this file: url(#id)`);
      return { kind: 'color', color: this.color(el, which, v, style.color) };
    }
    const target = this.ids.get(url[1]!);
    const fallback = url[2]!.trim();
    if (!target) {
      // A missing paint server: the fallback, else nothing (SVG's rule).
      return fallback === '' || fallback === 'none' ? null : { kind: 'color', color: this.color(el, which, fallback, style.color) };
    }
    if (target.name !== 'linearGradient' && target.name !== 'radialGradient') {
      throw this.error(el, `${which}="${v}" refers to a <${target.name}>: only linearGradient and radialGradient paint servers are supported`);
    }
    return this.gradient(target, bbox);
  }

  /** A gradient element with the attributes and stops it inherits through href. */
  private gradient(g: XmlElement, bbox: Box | null): SvgPaint | null {
    const chain: XmlElement[] = [];
    for (let cur: XmlElement | undefined = g; cur;) {
      if (chain.includes(cur)) throw this.error(g, 'gradient href chain loops back on itself');
      chain.push(cur);
      const href: string | undefined = cur.attributes.href ?? cur.attributes['xlink:href'];
      cur = href?.startsWith('#') ? this.ids.get(href.slice(1)) : undefined;
      if (cur && cur.name !== 'linearGradient' && cur.name !== 'radialGradient') cur = undefined;
    }
    const attr = (name: string): string | undefined => chain.find((c) => c.attributes[name] !== undefined)?.attributes[name];
    const stopsFrom = chain.find((c) => c.children.some((s) => s.name === 'stop'));
    const stops: SvgStop[] = [];
    let last = 0;
    for (const s of stopsFrom?.children ?? []) {
      if (s.name !== 'stop') continue;
      const own = this.declared(s);
      const offset = Math.max(last, this.fraction(s, 'offset', s.attributes.offset ?? '0'));
      last = offset;
      const [r, gr, b, a] = this.color(s, 'stop-color', own.get('stop-color') ?? 'black', own.get('color') ?? 'black');
      stops.push({ offset, color: [r, gr, b, a * this.fraction(s, 'stop-opacity', own.get('stop-opacity') ?? '1')] });
    }
    if (stops.length === 0) return null;
    if (stops.length === 1) return { kind: 'color', color: stops[0]!.color };
    const spread = attr('spreadMethod') ?? 'pad';
    if (spread !== 'pad') throw this.error(g, `spreadMethod="${spread}" is not supported: only pad (the default)`);
    const units = attr('gradientUnits') ?? 'objectBoundingBox';
    if (units !== 'objectBoundingBox' && units !== 'userSpaceOnUse')
      throw this.error(g, `gradientUnits="${units}" is not valid: expected objectBoundingBox or userSpaceOnUse`);
    let transform = IDENTITY;
    const obb = units === 'objectBoundingBox';
    if (obb) {
      // A zero-width or zero-height box cannot carry a bounding-box gradient: SVG draws no paint.
      if (!bbox || bbox.x1 - bbox.x0 <= 0 || bbox.y1 - bbox.y0 <= 0) return null;
      transform = [bbox.x1 - bbox.x0, 0, 0, bbox.y1 - bbox.y0, bbox.x0, bbox.y0];
    }
    const gt = attr('gradientTransform');
    if (gt !== undefined) transform = multiply(transform, this.parseTransform(g, gt, 'gradientTransform'));
    // Bounding-box units: fractions (a percentage is the same fraction); user space: lengths.
    const coord = (name: string, fallback: string): number => {
      const v = attr(name) ?? fallback;
      if (!obb) return this.length(g, name, v);
      const n = unbounded(v);
      if (!Number.isFinite(n)) throw this.error(g, `${name}="${v}" is not a number or percentage`);
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
      throw this.error(g, 'a radial gradient with a focal point (fx, fy or fr other than the centre) is not supported: remove fx/fy/fr');
    }
    if (r <= 0) return { kind: 'color', color: stops[stops.length - 1]!.color };
    return { kind: 'gradient', gradient: { kind: 'radial', center: [cx, cy], radius: r, stops, transform } };
  }

  private transform(el: XmlElement): Matrix {
    const t = el.attributes.transform;
    return t === undefined ? IDENTITY : this.parseTransform(el, t, 'transform');
  }

  parseTransform(el: XmlElement, text: string, name: string): Matrix {
    let m = IDENTITY;
    const re = /\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?/gy;
    let pos = 0;
    let hit: RegExpExecArray | null;
    while ((hit = re.exec(text))) {
      pos = re.lastIndex;
      const fn = hit[1]!;
      const a = numbers(hit[2]!, el, name);
      const bad = (): never => {
        throw this.error(el, `${name}: ${fn}(${hit![2]!.trim()}) has the wrong number of values`);
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
      throw this.error(
        el,
        `${name}="${text}" could not be read near "${text.slice(pos).trim().slice(0, 30)}": expected matrix(), translate(), scale(), rotate(), skewX() or skewY()`,
      );
    }
    return m;
  }
}

/** A bounding-box coordinate: a number or a percentage, as a fraction (values outside 0–1 allowed). */
function unbounded(v: string): number {
  const t = v.trim();
  return t.endsWith('%') ? Number(t.slice(0, -1)) / 100 : Number(t);
}

function declarations(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of text.split(';')) {
    const k = part.indexOf(':');
    if (k < 0) continue;
    const name = part.slice(0, k).trim().toLowerCase();
    const value = part
      .slice(k + 1)
      .replace(/!important\s*$/i, '')
      .trim();
    if (name) out.push([name, value]);
  }
  return out;
}

/** A list of numbers separated by whitespace and/or commas, also in compact form ("1-2.5.5"). */
function numbers(text: string, el: XmlElement, name: string): number[] {
  const out: number[] = [];
  const re = /\s*,?\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/y;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    pos = re.lastIndex;
    out.push(Number(m[1]));
  }
  if (text.slice(pos).trim() !== '' || out.some((v) => !Number.isFinite(v))) {
    throw new SvgError(
      `<${el.name}> at line ${el.line}, column ${el.column}: ${name}="${text.trim().slice(0, 60)}" is not a list of numbers (near "${text.slice(pos).trim().slice(0, 20)}")`,
    );
  }
  return out;
}

/** m × n: n applied first, then m (as canvas `transform(m)` then `transform(n)`). */
export function multiply(m: Matrix, n: Matrix): Matrix {
  const [a, b, c, d, e, f] = m;
  const [a2, b2, c2, d2, e2, f2] = n;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

export function invert([a, b, c, d, e, f]: Matrix): Matrix | null {
  const det = a * d - b * c;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export { transformPath };
