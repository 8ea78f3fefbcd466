// One error body for every failure of the HTTP interfaces: `{error, description}` with a stable code
// and the catalogue's status; interface B answers the same errors in its spec's codes and statuses.
// Framework errors (bad JSON, too large, unknown route) get the same shape, and nothing ever shows a stack trace.
import { ERROR_CATALOGUE, type ImprintError, type ErrorCode } from '../errors.js';

export interface ErrorReply {
  status: number;
  /** `error` and `description`, and for some codes facts beside them (version_conflict: `latest_version`). */
  body: { error: string; description: string } & Record<string, string | number>;
}

/** An error answer decided by the adapter itself (auth, limits), with any headers it needs. */
export class HttpFailure extends Error {
  constructor(
    readonly reply: ErrorReply,
    readonly headers: Record<string, string> = {},
  ) {
    super(reply.body.description);
    this.name = 'HttpFailure';
  }
}

/** Longer descriptions are cut: they may quote the caller's input (a 100 000-character object name). */
const MAX_DESCRIPTION = 1000;

export function errorReply(code: ErrorCode, description: string): ErrorReply {
  if (description.length > MAX_DESCRIPTION) {
    const end = /[\uD800-\uDBFF]/.test(description.charAt(MAX_DESCRIPTION - 1)) ? MAX_DESCRIPTION - 1 : MAX_DESCRIPTION;
    description = `${description.slice(0, end)}…`;
  }
  return { status: ERROR_CATALOGUE[code].status, body: { error: code, description } };
}

/** An answer in interface B's own codes (incorrect_data, auth_required, …), decided by its adapter. */
export function bFailure(code: string, status: number, description: string, headers?: Record<string, string>): HttpFailure {
  return new HttpFailure({ status, body: { error: code, description } }, headers);
}

/** Interface B's error codes, from the service's. */
const B_CODES: Partial<Record<ErrorCode, [string, number]>> = {
  validation_error: ['incorrect_data', 400],
  design_not_found: ['incorrect_data', 400],
  unauthorized: ['auth_required', 403],
  forbidden: ['auth_required', 403],
  task_not_found: ['not_found', 404],
  not_found: ['not_found', 404],
  insufficient_funds: ['insufficient_funds', 402],
  daily_limit_exceeded: ['daily_limit_exceeded', 429],
  queue_full: ['queue_full', 429],
  payload_too_large: ['incorrect_data', 413],
  unsupported_media_type: ['incorrect_data', 415],
};

/** Requests to interface B (mounted at /api) get its error shape. */
export const isInterfaceB = (url: string): boolean => /^\/api(?:[/?]|$)/.test(url);

/**
 * A reply of interface A's catalogue as interface B answers it. A code B's spec has no word for
 * keeps its own code and status, or, with `unmapped`, becomes that (a service error B never expects
 * is an internal error there).
 */
export function asInterfaceB(out: ErrorReply, unmapped?: [string, number]): ErrorReply {
  const b = B_CODES[out.body.error as ErrorCode] ?? unmapped;
  return { status: b ? b[1] : out.status, body: { error: b ? b[0] : out.body.error, description: out.body.description } };
}

/**
 * Where an HTTP caller finds what an unknown id should have been: the service's messages name no
 * adapter (the CLI points to its admin command instead, src/cli/main.ts).
 */
const HTTP_HINTS: Partial<Record<ErrorCode, string>> = {
  design_not_found: 'GET /public/v2/designs lists them',
};

/** The description of a validation error carries its JSON path, as the CLI prints it. */
export function fromImprintError(e: ImprintError): ErrorReply {
  const path = e.path.length > 200 ? `${e.path.slice(0, 200)}…` : e.path;
  const hint = HTTP_HINTS[e.code];
  const message = hint === undefined ? e.message : `${e.message} (${hint})`;
  const description = e.code === 'validation_error' || e.code === 'conflict' ? `${path}: ${message}` : message;
  const out = errorReply(e.code, description);
  // Facts a client acts on (a version_conflict's latest_version) ride beside the two fields.
  return e.details === undefined ? out : { status: out.status, body: { ...e.details, ...out.body } };
}

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/** Errors raised by Fastify itself before a handler runs (content parsing, limits). */
export function fromFrameworkError(e: FrameworkError): ErrorReply | undefined {
  const code = e.code ?? '';
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return errorReply('payload_too_large', 'the request body is larger than the limit: send less (large images go through the upload endpoint)');
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return errorReply('unsupported_media_type', 'send the body as application/json (uploads: multipart/form-data)');
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return errorReply('validation_error', '$: the body is empty: send a JSON object');
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return errorReply('validation_error', '$: the Content-Length header does not match the body');
  // Only from a parser other than src/http/json-body.ts's, which tells the two causes apart.
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return errorReply('validation_error', '$: the body is not valid JSON, or it has a "__proto__" or "constructor.prototype" key: send a plain JSON object');
  if (code === 'FST_ERR_BAD_URL') return errorReply('validation_error', '$: the URL is not valid percent-encoding: encode it with encodeURIComponent');
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') return errorReply('not_found', 'no such resource: a path segment is longer than 100 characters');
  if (e.statusCode === 400 && (code.startsWith('FST_ERR_CTP') || /JSON|Unexpected|token|prototype/i.test(e.message ?? ''))) {
    return errorReply('validation_error', `$: the body is not valid JSON (${(e.message ?? '').slice(0, 200)}): send a JSON object`);
  }
  if (e.statusCode === 413) return errorReply('payload_too_large', 'the request body is larger than the limit');
  if (e.statusCode === 415) return errorReply('unsupported_media_type', 'the content type is not accepted here');
  if (e.statusCode === 404) return errorReply('not_found', 'no such route');
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500)
    return errorReply('validation_error', `$: ${(e.message ?? 'bad request').slice(0, 300)}`);
  return undefined;
}

/** How deep a JSON value nests, without recursion (a hostile body must not exhaust the stack). */
export function jsonDepth(value: unknown, max: number): number {
  const stack: [unknown, number][] = [[value, 1]];
  let deepest = 0;
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d);
    if (deepest > max) return deepest;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}
