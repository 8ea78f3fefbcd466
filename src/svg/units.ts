// Values of SVG attributes and properties: lists of numbers, lengths in user units (absolute units,
// percentages of the viewBox), fractions from 0 to 1 and bounding-box coordinates.
import { elementError } from './document.js';
import type { XmlElement } from './xml.js';

/** What percentages of lengths are taken of: the viewBox's size (none while the root's own size is read). */
export type PercentBase = { readonly width: number; readonly height: number } | undefined;

/** A list of numbers separated by whitespace and/or commas, also in compact form ("1-2.5.5"). */
export function numbers(text: string, el: XmlElement, name: string): number[] {
  const out: number[] = [];
  const re = /\s*,?\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/y;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    pos = re.lastIndex;
    out.push(Number(m[1]));
  }
  if (text.slice(pos).trim() !== '' || out.some((v) => !Number.isFinite(v))) {
    throw elementError(el, `${name}="${text.trim().slice(0, 60)}" is not a list of numbers (near "${text.slice(pos).trim().slice(0, 20)}")`);
  }
  return out;
}

/** The length of attribute `name`, or `fallback` where the element has none. */
export function attrLength(viewBox: PercentBase, el: XmlElement, name: string, fallback: number): number {
  const v = el.attributes[name];
  return v === undefined ? fallback : length(viewBox, el, name, v);
}

/** A length in user units: a number, px or an absolute unit; percentages of the viewBox. */
export function length(viewBox: PercentBase, el: XmlElement, name: string, value: string): number {
  const m = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(px|pt|pc|mm|cm|in|%)?\s*$/.exec(value);
  if (!m)
    throw elementError(el, `${name}="${value}" is not a length: expected a number, optionally with px, pt, pc, mm, cm, in or % (em and ex are not supported)`);
  const v = Number(m[1]);
  const unit = m[2];
  if (!Number.isFinite(v)) throw elementError(el, `${name}="${value}" is out of range`);
  if (unit === '%') {
    // The root's own width/height never get here (rootLength); other percentages need the viewBox.
    const vb = viewBox ?? { width: 0, height: 0 };
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

/** A number from 0 to 1 or a percentage, clamped to 0–1 (opacities, gradient stop offsets). */
export function fraction(el: XmlElement, name: string, value: string): number {
  const v = value.trim();
  const n = v.endsWith('%') ? Number(v.slice(0, -1)) / 100 : Number(v);
  if (v === '' || !Number.isFinite(n)) throw elementError(el, `${name}="${value}" is not a number from 0 to 1 (or a percentage)`);
  return Math.min(1, Math.max(0, n));
}

/** A bounding-box coordinate: a number or a percentage, as a fraction (values outside 0–1 allowed). */
export function unbounded(v: string): number {
  const t = v.trim();
  return t.endsWith('%') ? Number(t.slice(0, -1)) / 100 : Number(t);
}
