// A Polotno store JSON read and checked before any field is converted: nulls and runtime keys dropped,
// element types Imprint does not draw refused by name, then the schema (schema.ts) with errors at their paths.
import { validationError } from '../../errors.js';
import { jsonPath, type PathSegment } from '../../format/json-path.js';
import { issueToError } from '../../format/zod-error.js';
import { PolotnoDesign, REFUSED_TYPES } from './schema.js';

type Json = Record<string, unknown>;

/** The document, checked against Polotno's schema; `root` is where it sits in the request, for error paths. */
export function readDocument(input: unknown, root: string): PolotnoDesign {
  const value = normalise(input);
  if (value !== null && typeof value === 'object' && Array.isArray((value as Json).pages)) {
    ((value as Json).pages as unknown[]).forEach((p, i) => {
      if (p !== null && typeof p === 'object') checkElementTypes((p as Json).children, jsonPath(['pages', i, 'children'], root));
    });
  }
  const parsed = PolotnoDesign.safeParse(value);
  if (!parsed.success) throw issueToError(parsed.error.issues[0]!, value, { root, schema: PolotnoDesign, describe: describePolotnoPath(value) });
  return parsed.data;
}

/** Strips nulls (Polotno reads null as "absent") and runtime keys (starting with "_") before validation. */
function normalise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalise);
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, val] of Object.entries(v)) {
    if (val === null || val === undefined || k.startsWith('_')) continue;
    out[k] = normalise(val);
  }
  return out;
}

function describePolotnoPath(input: unknown) {
  return (path: readonly PathSegment[]): string | undefined => {
    const n = path.length;
    if (n === 0) return 'a Polotno design';
    if (typeof path[n - 1] !== 'number') return undefined;
    const entry = path.reduce<unknown>((v, seg) => (v !== null && typeof v === 'object' ? (v as Record<PathSegment, unknown>)[seg] : undefined), input);
    const type = entry !== null && typeof entry === 'object' ? (entry as Json).type : undefined;
    if (path[n - 2] === 'children') return typeof type === 'string' ? `a ${type} element` : 'an element';
    if (path[n - 2] === 'pages') return 'a page';
    if (path[n - 2] === 'fonts') return 'a font';
    if (path[n - 2] === 'animations') return 'an animation';
    return undefined;
  };
}

/** Refuses element types Imprint does not draw by their name, before the schema reports them as unknown. */
function checkElementTypes(list: unknown, at: string): void {
  if (!Array.isArray(list)) return;
  list.forEach((e, i) => {
    if (e === null || typeof e !== 'object') return;
    const type = (e as Json).type;
    const here = `${at}[${i}]`;
    if (typeof type === 'string' && REFUSED_TYPES[type]) throw validationError(`${here}.type`, REFUSED_TYPES[type]);
    if (typeof type === 'string' && !['text', 'image', 'svg', 'line', 'figure', 'video', 'group'].includes(type)) {
      throw validationError(`${here}.type`, `unknown element type ${JSON.stringify(type)}: use one of text, image, svg, line, figure, video and group`);
    }
    if (type === 'group') checkElementTypes((e as Json).children, `${here}.children`);
  });
}
