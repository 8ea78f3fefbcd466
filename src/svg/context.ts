// The state one parse of an SVG file shares between its modules: the file's ids, parents and style
// rules, the viewBox that percentages resolve against, and what the limits and mask loops count.
import type { SvgDocument } from './document.js';
import type { CssRule } from './style.js';
import type { XmlElement } from './xml.js';

export interface SvgContext {
  /** Each id's first element. */
  readonly ids: ReadonlyMap<string, XmlElement>;
  readonly parents: ReadonlyMap<XmlElement, XmlElement>;
  /** The rules of the file's <style> sheets, in file order. */
  readonly rules: readonly CssRule[];
  readonly viewBox: SvgDocument['viewBox'];
  /** Masks being read (a mask whose content refers back to it loops). */
  readonly masking: Set<XmlElement>;
  /** Some group has a <mask> (SvgDocument.masked). */
  masked: boolean;
  /** Shapes drawn, elements visited and the current depth of <use> so far, against SVG_LIMITS. */
  shapes: number;
  visits: number;
  useDepth: number;
}
