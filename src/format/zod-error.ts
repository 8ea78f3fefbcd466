// Turns the first zod issue into an ImprintError whose message says what was expected, what was
// received and where, in the style "expected a number for $.x but received string".
import { z } from 'zod';
import { validationError, type ImprintError } from '../errors.js';
import { jsonPath, type PathSegment } from './json-path.js';
import { closestNames, didYouMean } from './suggest.js';

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return Number.isFinite(value) ? `the number ${value}` : String(value);
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

const TYPE_NAMES: Record<string, string> = {
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  int: 'an integer',
  record: 'an object',
  tuple: 'a list',
};

/** A message given in the schema (`{ error: … }`), as opposed to zod's generic "Invalid input…". */
function customMessage(issue: z.core.$ZodIssue): string | undefined {
  return issue.message && !/^(Invalid|Too )/.test(issue.message) ? issue.message : undefined;
}

export interface IssueContext {
  /** Root of the formatted path, `$` unless the validated value sits inside a larger document. */
  root?: string;
  /** The schema that was validated, so "unknown field" messages can list the allowed fields. */
  schema?: z.ZodType;
  /** Names the object at a path in messages, e.g. "a text object"; default: the field name. */
  describe?: (path: readonly PathSegment[]) => string | undefined;
}

/** The object schema that validated the value at `path`, following unions by the input's discriminator. */
function objectSchemaAt(schema: z.ZodType, input: unknown, path: readonly PathSegment[]): z.ZodObject | undefined {
  let s: z.ZodType | undefined = schema;
  let v: unknown = input;
  for (let i = 0; ; i++) {
    // Unwrap until a plain schema remains; a union resolves to the member the input's tag chose
    // (that member is still the schema of this same path segment).
    for (;;) {
      // Lazy: the design's union of objects, built on first use (objects/registry.ts).
      if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodLazy) s = s.unwrap() as z.ZodType;
      else if (s instanceof z.ZodDiscriminatedUnion) {
        const key: string = (s as z.ZodDiscriminatedUnion<z.ZodObject[]>).def.discriminator;
        const tag: unknown = (v as Record<string, unknown> | null)?.[key];
        s = (s.options as z.ZodObject[]).find((o) => (o.shape[key] as z.ZodLiteral | undefined)?.values.has(tag as never));
        if (!s) return undefined;
      } else break;
    }
    if (i === path.length) return s instanceof z.ZodObject ? s : undefined;
    const seg = path[i]!;
    if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (s instanceof z.ZodRecord) s = s.valueType as z.ZodType;
    else if (s instanceof z.ZodObject) s = s.shape[String(seg)] as z.ZodType | undefined;
    else return undefined;
    v = (v as Record<PropertyKey, unknown> | null)?.[seg];
    if (!s) return undefined;
  }
}

/**
 * A required field that is missing because it was misspelt: zod reports the missing field before the
 * unknown key, so the hint goes here, e.g. `; "durtion" looks like a misspelling: rename it to "duration"`.
 */
function misspeltAs(rawPath: readonly PropertyKey[], segs: readonly PathSegment[], input: unknown, ctx: IssueContext): string {
  const field = segs[segs.length - 1];
  if (typeof field !== 'string' || valueAt(input, rawPath) !== undefined) return '';
  const parent = valueAt(input, rawPath.slice(0, -1));
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return '';
  const object = ctx.schema ? objectSchemaAt(ctx.schema, input, segs.slice(0, -1)) : undefined;
  const fields = object ? Object.keys(object.shape) : [field];
  const typo = Object.keys(parent).find((k) => !fields.includes(k) && closestNames(k, fields).includes(field));
  return typo === undefined ? '' : `; "${typo}" looks like a misspelling: rename it to "${field}"`;
}

export function issueToError(issue: z.core.$ZodIssue, input: unknown, ctx: IssueContext = {}): ImprintError {
  const segs = issue.path.filter((p): p is PathSegment => typeof p !== 'symbol');
  const at = (extra: PathSegment[] = []): string => jsonPath([...segs, ...extra], ctx.root ?? '$');
  const received = describe(valueAt(input, issue.path));

  switch (issue.code) {
    case 'invalid_type': {
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      if (issue.expected === 'number' && typeof valueAt(input, issue.path) === 'number') {
        return validationError(at(), `expected a finite number but received ${received}`);
      }
      return validationError(at(), `${customMessage(issue) ?? `expected ${expected}`} but received ${received}${misspeltAs(issue.path, segs, input, ctx)}`);
    }
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const last = segs[segs.length - 1];
      // A list entry is named with its list ("layers[2]"), not by its bare index.
      const named = typeof last === 'number' && segs.length > 1 ? `${String(segs[segs.length - 2])}[${last}]` : last;
      const what = ctx.describe?.(segs) ?? (named === undefined ? 'the document' : String(named));
      const object = ctx.schema ? objectSchemaAt(ctx.schema, input, segs) : undefined;
      const fields = object ? Object.keys(object.shape) : [];
      const allowed = object ? `; ${what} has: ${fields.join(', ')}` : '';
      const guess = didYouMean(key, fields);
      return validationError(at([key]), `unknown field "${key}" on ${what}: ${guess ? `${guess} Rename it or remove it` : 'remove it'}${allowed}`);
    }
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v)).join(', ');
      return validationError(at(), `${customMessage(issue) ?? `expected one of ${options}`} but received ${received}`);
    }
    case 'invalid_union': {
      if ('discriminator' in issue && issue.discriminator) {
        const options = (issue as { options?: unknown[] }).options ?? [];
        return validationError(at(), `expected one of ${options.map((o) => JSON.stringify(o)).join(', ')} but received ${received}`);
      }
      const value = valueAt(input, issue.path);
      if (typeof value === 'number' && !Number.isFinite(value)) return validationError(at(), `expected a finite number but received ${received}`);
      const custom = customMessage(issue);
      return validationError(at(), custom ? `${custom} but received ${received}` : `value does not match any allowed form (received ${received})`);
    }
    case 'too_small':
    case 'too_big': {
      const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      const inclusive = issue.inclusive !== false;
      const word = issue.code === 'too_small' ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
      const custom = customMessage(issue);
      if (custom) return validationError(at(), `${custom} but received ${received}`);
      if (issue.origin === 'string') {
        const value = valueAt(input, issue.path);
        const length = typeof value === 'string' ? value.length : 0;
        return validationError(at(), `expected ${word} ${bound} character${bound === 1 ? '' : 's'} but received ${length}`);
      }
      if (issue.origin === 'array') {
        const length = (valueAt(input, issue.path) as unknown[] | undefined)?.length ?? 0;
        return validationError(at(), `expected ${word} ${bound} item${bound === 1 ? '' : 's'} but received ${length}`);
      }
      return validationError(at(), `expected ${word} ${bound} but received ${received}`);
    }
    case 'invalid_format':
      return validationError(at(), `${issue.message} but received ${received}`);
    default:
      return validationError(at(), `${issue.message} (received ${received})`);
  }
}
