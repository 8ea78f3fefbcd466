// The published JSON Schemas (template format v1 and override entries per object type) and the
// field reference generated from them, all derived from the zod source of truth.
import { z } from 'zod';
import { objectHandlers } from '../objects/registry.js';
import { Design } from './schema.js';

export type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  description?: string;
  examples?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
};

/** JSON Schema (draft 2020-12) of a zod schema, as every published schema of Imprint is made. */
export const toJson = (schema: z.ZodType): JsonSchema & Record<string, unknown> =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema & Record<string, unknown>;

export function designJsonSchema(): Record<string, unknown> {
  return { $id: 'https://imprint.dev/schema/design-1.json', ...toJson(Design) };
}

/** Schema of one objects_overrides entry, per object type. */
export function overridesJsonSchema(): Record<string, unknown> {
  const handlers = objectHandlers();
  const defs = Object.fromEntries(handlers.map((h) => [h.type, toJson(h.override)]));
  for (const d of Object.values(defs)) delete d.$schema;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://imprint.dev/schema/overrides-1.json',
    title: "objects_overrides: object name → override entry; the entry schema is the one of the named object's type",
    type: 'object',
    additionalProperties: { anyOf: handlers.map((h) => ({ $ref: `#/$defs/${h.type}` })) },
    $defs: defs,
  };
}

function typeOf(s: JsonSchema): string {
  if ((s as { not?: unknown }).not !== undefined && s.type === undefined) return 'not accepted';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  // A choice of forms (a padding given as a number or as {x, y}): each form's type.
  if (s.anyOf && s.type === undefined) return s.anyOf.map(typeOf).join(' \\| ');
  if (s.type === 'array') return s.items?.oneOf ? 'array of objects' : `array of ${s.items ? typeOf(s.items) : 'any'}`;
  let t = Array.isArray(s.type) ? s.type.join(' \\| ') : (s.type ?? 'any');
  const lo = s.minimum ?? s.exclusiveMinimum;
  if (lo !== undefined || s.maximum !== undefined) {
    t += ` (${s.exclusiveMinimum !== undefined ? '>' : '≥'} ${lo ?? '−∞'}, ≤ ${s.maximum ?? '∞'})`;
  }
  return t;
}

/**
 * Arrays whose entries are one of several shapes chosen by `type` (an object's `animations`), by
 * field name. Their fields are listed once in a section of their own rather than under every object
 * type that has them; `objects` is left out, as each object type already has its own table.
 */
type Unions = Map<string, JsonSchema[]>;

const unionAnchor = (key: string): string => `entries-of-${key.replace(/_/g, '-')}`;

function rows(props: Record<string, JsonSchema>, required: readonly string[], prefix: string, out: string[], unions: Unions): void {
  for (const [key, s] of Object.entries(props)) {
    const path = `${prefix}${key}`;
    const example = s.examples?.[0];
    const req = required.includes(key) ? 'yes' : '';
    const desc = (s.description ?? '').replace(/\|/g, '\\|').replace(/</g, '&lt;');
    const variants = s.type === 'array' && key !== 'objects' ? s.items?.oneOf : undefined;
    if (variants) unions.set(key, variants);
    const type = variants ? `${typeOf(s)} ([fields](#${unionAnchor(key)}))` : typeOf(s);
    out.push(`| \`${path}\` | ${type} | ${req} | ${desc} | ${example === undefined ? '' : `\`${JSON.stringify(example).replace(/\|/g, '\\|')}\``} |`);
    if (s.properties) rows(s.properties, s.required ?? [], `${path}.`, out, unions);
    if (s.type === 'array' && s.items?.properties) rows(s.items.properties, s.items.required ?? [], `${path}[].`, out, unions);
    const each = s.additionalProperties;
    if (typeof each === 'object' && each.properties) rows(each.properties, each.required ?? [], `${path}.<key>.`, out, unions);
  }
}

function table(title: string, s: JsonSchema, unions: Unions, prefix = ''): string {
  const out = [`### ${title}`, '', '| field | type | required | meaning | example |', '|---|---|---|---|---|'];
  rows(s.properties ?? {}, s.required ?? [], prefix, out, unions);
  return out.join('\n');
}

/** One section per collected union: a table per variant, its fields under `<key>[].`. */
function unionSections(unions: Unions): string[] {
  const parts: string[] = [];
  // A variant may itself hold a union; its section is added when the loop reaches it.
  for (const [key, variants] of unions) {
    parts.push('', `## Entries of \`${key}\``, '', `Each entry of \`${key}\` is one of the following, chosen by its \`type\`.`);
    for (const v of variants) {
      const name = v.properties?.type?.const;
      parts.push('', table(`\`${key}\` entry ${JSON.stringify(name)}${v.description ? `: ${v.description}` : ''}`, v, unions, `${key}[].`));
    }
  }
  return parts;
}

/** docs/reference.md: every field of designs and override entries, with type, meaning and example. */
export function fieldReferenceMarkdown(): string {
  const unions: Unions = new Map();
  const design = toJson(Design);
  const objects = design.properties!.objects!.items!.oneOf ?? [];
  const { objects: _objects, ...topProps } = design.properties!;
  const parts = [
    '# Field reference (generated)',
    '',
    'Generated from `src/design/schema.ts` by `npm run schema`; a test fails when this file is out of date.',
    'Concepts and worked examples are in [template-format.md](template-format.md) and [overrides.md](overrides.md).',
    '',
    '## Design',
    '',
    table('Design (top level)', { properties: { ...topProps, objects: design.properties!.objects! }, required: design.required ?? [] }, unions),
  ];
  for (const o of objects) parts.push('', table(`Object type ${JSON.stringify(o.properties?.type?.const)}`, o, unions, ''));
  const overrides = ['', '## Override entries (`objects_overrides.<name>`)', ''];
  overrides.push('Dotted keys such as `"config.text_replacement_strategy"` are accepted and mean the nested field.');
  for (const h of objectHandlers()) overrides.push('', table(`Overrides of a ${h.type} object`, toJson(h.override), unions));
  // The entry sections follow the design's object tables; the override tables may add to them.
  parts.push(...unionSections(unions), ...overrides);
  return `${parts.join('\n')}\n`;
}
