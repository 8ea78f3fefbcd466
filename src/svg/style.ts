// Styles of an SVG file: <style> sheets (plain tag, .class and #id rules), the cascade of presentation
// attributes, sheet rules and style="", inheritance, and the properties refused because they would
// change the picture.
import { elementError } from './document.js';
import type { XmlElement } from './xml.js';

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
/** Properties a child takes from its parent unless it sets them. */
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
/** The inherited properties in force at an element, as declared (values are read where they are used). */
export type Inherited = Record<(typeof INHERITED)[number], string>;
export const INITIAL: Inherited = {
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

/** A rule of a <style> sheet: its selectors, declarations, and place in the file (later wins a tie). */
export interface CssRule {
  selectors: { tag?: string; id?: string; classes: string[]; specificity: number }[];
  declarations: [string, string][];
  order: number;
}

/** Appends the rules of a <style> element to `rules`; refuses what it cannot read. */
export function readStyleSheet(el: XmlElement, rules: CssRule[]): void {
  const type = el.attributes.type;
  if (type !== undefined && type !== 'text/css') throw elementError(el, `style sheets of type "${type}" are not supported: use text/css`);
  const css = withoutDarkScheme(el, el.text.replace(/\/\*[\s\S]*?\*\//g, ' '));
  const rule = /([^{}]*)\{([^{}]*)\}/g;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = rule.exec(css))) {
    const head = m[1]!.trim();
    if (head.startsWith('@')) throw elementError(el, `the CSS rule "${head}" is not supported: only plain selector rules (tag, .class, #id) are`);
    const selectors = head.split(',').map((s) => selector(el, s.trim()));
    rules.push({ selectors, declarations: declarations(m[2]!), order: rules.length });
    end = rule.lastIndex;
  }
  if (css.slice(end).trim() !== '')
    throw elementError(el, `could not read the style sheet near "${css.slice(end).trim().slice(0, 40)}": expected "selector { property: value; }"`);
}

/**
 * Drops `@media (prefers-color-scheme: dark) { … }` blocks: renders are in the light scheme, as a
 * browser's <img> is by default, so they never apply. Any other at-rule is refused by name.
 */
function withoutDarkScheme(el: XmlElement, css: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const at = css.indexOf('@', i);
    if (at < 0) return out + css.slice(i);
    const open = css.indexOf('{', at);
    const head = css.slice(at, open < 0 ? undefined : open).trim();
    if (open < 0 || !/^@media\s*\(\s*prefers-color-scheme\s*:\s*dark\s*\)$/i.test(head)) {
      throw elementError(
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
    if (depth !== 0) throw elementError(el, `the CSS block "${head}" is never closed with "}"`);
    out += css.slice(i, at);
    i = k + 1;
  }
}

function selector(el: XmlElement, s: string): CssRule['selectors'][number] {
  const m = /^(\*|[A-Za-z][\w-]*)?((?:[.#][\w-]+)*)$/.exec(s);
  if (!m || s === '')
    throw elementError(el, `the CSS selector "${s}" is not supported: use a tag, .class or #id (combinators, attributes and pseudo-classes are not supported)`);
  const parts = m[2]!.match(/[.#][\w-]+/g) ?? [];
  const id = parts.find((p) => p.startsWith('#'))?.slice(1);
  const classes = parts.filter((p) => p.startsWith('.')).map((p) => p.slice(1));
  const tag = m[1] && m[1] !== '*' ? m[1] : undefined;
  return { ...(tag ? { tag } : {}), ...(id ? { id } : {}), classes, specificity: (id ? 10000 : 0) + classes.length * 100 + (tag ? 1 : 0) };
}

/** An element's own declared properties: presentation attributes < style sheet < style="". */
export function declared(rules: readonly CssRule[], el: XmlElement): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(el.attributes)) if (PROPERTIES.has(k)) out.set(k, v.trim());
  if (rules.length) {
    const classes = (el.attributes.class ?? '').split(/\s+/).filter(Boolean);
    const matches: { specificity: number; order: number; declarations: [string, string][] }[] = [];
    for (const r of rules) {
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
    for (const m of matches) for (const [k, v] of m.declarations) property(el, out, k, v);
  }
  if (el.attributes.style !== undefined) for (const [k, v] of declarations(el.attributes.style)) property(el, out, k, v);
  for (const [k, keep] of Object.entries(REFUSED_PROPERTIES)) {
    const v = out.get(k);
    if (v !== undefined && v !== keep)
      throw elementError(el, `${k}="${v}" is not supported (it would change the picture): remove it or flatten the effect into plain shapes`);
  }
  return out;
}

function property(el: XmlElement, out: Map<string, string>, name: string, value: string): void {
  if (name === 'transform') throw elementError(el, 'a CSS transform in style is not supported: use the transform attribute');
  if (PROPERTIES.has(name)) out.set(name, value);
}

/** The inherited properties at an element: its parent's, with what it declares itself (but `inherit`). */
export function cascade(parent: Inherited, own: ReadonlyMap<string, string>): Inherited {
  const style: Inherited = { ...parent };
  for (const k of INHERITED) {
    const v = own.get(k);
    if (v !== undefined && v !== 'inherit') style[k] = v;
  }
  return style;
}

/** The `name: value` pairs of a declaration block (style="" or a rule's body), names in lower case. */
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
