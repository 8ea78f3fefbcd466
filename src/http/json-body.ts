// The JSON body parser of every route: Fastify's own answers one error for a syntax error and for a
// "__proto__" key alike, so the caller cannot tell which; this one says which, with JSON.parse's
// own words for the first and the key's JSON path for the second.
import type { FastifyInstance } from 'fastify';
import { validationError, type ImprintError } from '../errors.js';
import { jsonPath, type PathSegment } from '../format/json-path.js';

interface Visit {
  value: unknown;
  parent: Visit | null;
  key: PathSegment | null;
}

function pathOf(v: Visit): string {
  const segments: PathSegment[] = [];
  for (let at: Visit | null = v; at && at.key !== null; at = at.parent) segments.push(at.key);
  return jsonPath(segments.reverse());
}

/**
 * The first key that could reach an object's prototype once the body is merged into another object:
 * `__proto__`, or `constructor` holding `prototype` (what Fastify's parser refuses too). Walked with
 * a stack, not recursion, so a body nested 100 000 levels deep cannot exhaust the call stack.
 */
export function prototypeKey(value: unknown): ImprintError | undefined {
  const stack: Visit[] = [{ value, parent: null, key: null }];
  while (stack.length) {
    const v = stack.pop()!;
    if (v.value === null || typeof v.value !== 'object') continue;
    if (Array.isArray(v.value)) {
      v.value.forEach((child: unknown, i) => stack.push({ value: child, parent: v, key: i }));
      continue;
    }
    const o = v.value as Record<string, unknown>;
    if (Object.hasOwn(o, '__proto__')) {
      return validationError(
        pathOf({ value: null, parent: v, key: '__proto__' }),
        'a "__proto__" key is refused (it could reach the prototype of an object): rename or remove it',
      );
    }
    const ctor = Object.hasOwn(o, 'constructor') ? o.constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) {
      return validationError(
        pathOf({ value: null, parent: { value: ctor, parent: v, key: 'constructor' }, key: 'prototype' }),
        'a "constructor.prototype" key is refused (it could reach the prototype of an object): rename or remove it',
      );
    }
    for (const [key, child] of Object.entries(o)) stack.push({ value: child, parent: v, key });
  }
  return undefined;
}

/**
 * The errors this parser answered with: refused before any route handler ran, like Fastify's own
 * body errors, so a route with a body shape of its own (the upload's `{result, reason}`) gives them
 * that shape too.
 */
export const bodyParserErrors = new WeakSet<Error>();

const refuse = (e: ImprintError): ImprintError => (bodyParserErrors.add(e), e);

/** Replaces the default application/json parser of `app` (and the routes registered on it). */
export function jsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    // A byte order mark is not JSON, but editors write one: JSON.parse would refuse it.
    const text = (body as string).replace(/^\uFEFF/, '');
    if (text.length === 0) {
      done(refuse(validationError('$', 'the body is empty: send a JSON object')), undefined);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      done(refuse(validationError('$', `the body is not valid JSON (${(e as Error).message.slice(0, 200)}): fix the syntax`)), undefined);
      return;
    }
    const refused = prototypeKey(value);
    if (refused) done(refuse(refused), undefined);
    else done(null, value);
  });
}
