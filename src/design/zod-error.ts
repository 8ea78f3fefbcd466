// Turns the first zod issue into an ImprintError whose message says what was expected, what was
// received and where, in the style "expected a number for $.x but received string".
import type { z } from 'zod';
import { validationError, type ImprintError } from '../errors.js';
import { jsonPath, type PathSegment } from './json-path.js';

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
};

export interface IssueContext {
  /** Root of the formatted path, `$` unless the validated value sits inside a larger document. */
  root?: string;
  /** Names the allowed fields in an "unknown field" message, e.g. "a text object". */
  describeParent?: (path: readonly PathSegment[]) => { what: string; allowed: readonly string[] } | undefined;
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
      return validationError(at(), `expected ${expected} but received ${received}`);
    }
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const parent = ctx.describeParent?.(segs);
      const allowed = parent ? `; ${parent.what} has: ${parent.allowed.join(', ')}` : '';
      return validationError(at([key]), `unknown field "${key}"${parent ? ` on ${parent.what}` : ''}: remove it${allowed}`);
    }
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v)).join(', ');
      return validationError(at(), `expected one of ${options} but received ${received}`);
    }
    case 'invalid_union': {
      if ('discriminator' in issue && issue.discriminator) {
        const options = (issue as { options?: unknown[] }).options ?? [];
        return validationError(at(), `expected one of ${options.map((o) => JSON.stringify(o)).join(', ')} but received ${received}`);
      }
      return validationError(at(), `value does not match any allowed form (received ${received})`);
    }
    case 'too_small':
    case 'too_big': {
      const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      const inclusive = issue.inclusive !== false;
      const word = issue.code === 'too_small' ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
      let unit = '';
      if (issue.origin === 'string') unit = ' characters long';
      else if (issue.origin === 'array') unit = ' items';
      const msg = issue.message && !issue.message.startsWith('Too ') ? issue.message : `expected ${word} ${bound}${unit} but received ${received}`;
      return validationError(at(), msg.startsWith('expected') ? msg : `${msg} (received ${received})`);
    }
    case 'invalid_format':
      return validationError(at(), `${issue.message} but received ${received}`);
    default:
      return validationError(at(), `${issue.message} (received ${received})`);
  }
}
