// From an object's override schema (JSON Schema, the one the API validates with) to the model of its
// form: one field per property, with the control it needs (select for an enum, checkbox for a boolean,
// number input with the schema's bounds, text, colour, image, substyle text, chart grid, mockup layers,
// a fieldset for a nested object such as `config`, `border`, `background`). Nothing here names a field
// of a particular object type by hand except to pick a richer widget for it. No DOM: unit-tested.
import type { JsonSchema } from './json-schema.js';

/** A field's place in the override entry: `['border', 'width']`. */
export type FieldPath = string[];

interface FieldBase {
  key: string;
  path: FieldPath;
  /** The dotted path (`border.width`), also the control's data-field. */
  id: string;
  description: string;
}

export interface NumberBounds {
  integer: boolean;
  min?: number;
  max?: number;
  exclusiveMin?: number;
  exclusiveMax?: number;
}

export type Field =
  | (FieldBase & { kind: 'enum'; options: string[] })
  | (FieldBase & { kind: 'boolean' })
  | (FieldBase & { kind: 'number' } & NumberBounds)
  | (FieldBase & { kind: 'string'; widget: 'plain' | 'markup' | 'color' | 'image'; maxLength?: number; pattern?: string })
  | (FieldBase & { kind: 'group'; fields: Field[] })
  | (FieldBase & { kind: 'chart' })
  | (FieldBase & { kind: 'layers'; layer: Field[] })
  | (FieldBase & { kind: 'json' });

const IMAGE_KEYS = new Set(['path', 'image_url']);

function types(s: JsonSchema): string[] {
  if (Array.isArray(s.type)) return s.type;
  return s.type ? [s.type] : [];
}

/** A property that the schema refuses outright (`{"not": {}}`: "not accepted"). */
function refused(s: JsonSchema): boolean {
  return s.not !== undefined && s.type === undefined && s.enum === undefined && s.const === undefined;
}

function isHexColourPattern(p: string | undefined): boolean {
  return p !== undefined && p.startsWith('^#') && p.includes('0-9a-fA-F');
}

/** The form fields of a schema's properties, in the schema's order; properties it refuses are left out. */
export function formFields(schema: JsonSchema, parent: FieldPath = []): Field[] {
  const out: Field[] = [];
  for (const [key, s] of Object.entries(schema.properties ?? {})) {
    if (refused(s)) continue;
    const f = fieldOf(key, s, [...parent, key]);
    if (f) out.push(f);
  }
  return out;
}

function fieldOf(key: string, s: JsonSchema, path: FieldPath): Field | undefined {
  const base: FieldBase = { key, path, id: path.join('.'), description: s.description ?? '' };
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) return { ...base, kind: 'enum', options: s.enum };
  const t = types(s);
  if (t.includes('boolean') && t.length === 1) return { ...base, kind: 'boolean' };
  if ((t.includes('number') || t.includes('integer')) && t.length === 1) {
    const f: Field = { ...base, kind: 'number', integer: t[0] === 'integer' };
    if (s.minimum !== undefined) f.min = s.minimum;
    if (s.maximum !== undefined) f.max = s.maximum;
    if (s.exclusiveMinimum !== undefined) f.exclusiveMin = s.exclusiveMinimum;
    if (s.exclusiveMaximum !== undefined) f.exclusiveMax = s.exclusiveMaximum;
    return f;
  }
  if (t.length === 1 && t[0] === 'string') {
    const widget = path.length === 1 && key === 'text' ? 'markup' : IMAGE_KEYS.has(key) ? 'image' : isHexColourPattern(s.pattern) ? 'color' : 'plain';
    const f: Field = { ...base, kind: 'string', widget };
    if (s.maxLength !== undefined) f.maxLength = s.maxLength;
    if (s.pattern !== undefined) f.pattern = s.pattern;
    return f;
  }
  if (t.includes('array') && s.items && types(s.items).includes('array')) return { ...base, kind: 'chart' };
  if (t.includes('object') && s.properties) return { ...base, kind: 'group', fields: formFields(s, path) };
  const each = s.additionalProperties;
  if (t.includes('object') && typeof each === 'object' && each.properties) {
    return { ...base, kind: 'layers', layer: formFields(each, []) };
  }
  // Anything else (an array of objects, a union): edited as JSON, still checked by the service.
  return { ...base, kind: 'json' };
}

/** Every field of the tree, groups included, depth first. */
export function allFields(fields: Field[]): Field[] {
  return fields.flatMap((f) => (f.kind === 'group' ? [f, ...allFields(f.fields)] : [f]));
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** What a number input holds, checked against the field's bounds; '' means "no override". */
export function parseNumberInput(raw: string, f: NumberBounds): Parsed<number | undefined> {
  const text = raw.trim();
  if (text === '') return { ok: true, value: undefined };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return { ok: false, message: `"${text}" is not a number` };
  const n = Number(text);
  if (!Number.isFinite(n)) return { ok: false, message: `${text} is too large` };
  if (f.integer && !Number.isInteger(n)) return { ok: false, message: 'must be a whole number' };
  if (f.min !== undefined && n < f.min) return { ok: false, message: `must be at least ${f.min}` };
  if (f.exclusiveMin !== undefined && n <= f.exclusiveMin) return { ok: false, message: `must be more than ${f.exclusiveMin}` };
  if (f.max !== undefined && n > f.max) return { ok: false, message: `must be at most ${f.max}` };
  if (f.exclusiveMax !== undefined && n >= f.exclusiveMax) return { ok: false, message: `must be less than ${f.exclusiveMax}` };
  return { ok: true, value: n };
}

/** The HTML min/max attributes for a number input (exclusive bounds become inclusive ones the browser can show). */
export function numberInputBounds(f: NumberBounds): { min?: number; max?: number; step: string } {
  const out: { min?: number; max?: number; step: string } = { step: f.integer ? '1' : 'any' };
  const min = f.min ?? f.exclusiveMin;
  const max = f.max ?? f.exclusiveMax;
  if (min !== undefined) out.min = min;
  if (max !== undefined) out.max = max;
  return out;
}

/** A string input checked against the schema's pattern and length; '' means "no override". */
export function parseStringInput(raw: string, f: { maxLength?: number; pattern?: string; widget?: string }): Parsed<string | undefined> {
  if (raw === '') return { ok: true, value: undefined };
  if (f.maxLength !== undefined && raw.length > f.maxLength) return { ok: false, message: `at most ${f.maxLength} characters` };
  if (f.pattern !== undefined) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(f.pattern);
    } catch {
      re = undefined;
    }
    if (re && !re.test(raw)) return { ok: false, message: f.widget === 'color' ? 'a hex colour such as #1e88e5' : `does not match ${f.pattern}` };
  }
  return { ok: true, value: raw };
}

/** A colour in the form `<input type=color>` accepts (#rrggbb), from #rgb, #rgba, #rrggbb or #rrggbbaa; undefined otherwise. */
export function colourInputValue(hex: unknown): string | undefined {
  if (typeof hex !== 'string') return undefined;
  const m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(hex);
  if (!m) return undefined;
  const h = m[1]!;
  const six = h.length <= 4 ? [...h.slice(0, 3)].map((c) => c + c).join('') : h.slice(0, 6);
  return `#${six.toLowerCase()}`;
}
