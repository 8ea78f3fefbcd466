// The service's error answers as one typed object for the Studio: the stable code, the description,
// and the JSON path that a validation error's description starts with (`$.objects_overrides.photo.path: …`),
// split off so a form can show the message next to the field it is about. No DOM: unit-tested.

export type PathSegment = string | number;

/** An answer that is not a success, or no answer. `message` is the description without its path. */
export class ApiError extends Error {
  override name = 'ApiError';
  /** Seconds to wait, from a 429's retry-after header. */
  retryAfter?: number;
  constructor(
    /** HTTP status; 0 when the request never got an answer (network down). */
    readonly status: number,
    /** The service's stable code (validation_error, rate_limited, incorrect_data, …), or `network_error`. */
    readonly code: string,
    /** The description as the service sent it. */
    readonly description: string,
    /** The JSON path the description starts with (`$.objects[2].font_size`), or null. */
    readonly path: string | null,
    /** The path's segments (`['objects', 2, 'font_size']`), empty without a path. */
    readonly segments: PathSegment[],
    message: string,
  ) {
    super(message);
  }
}

export interface PathPrefix {
  path: string;
  segments: PathSegment[];
  rest: string;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*/;

/**
 * Reads the JSON path at the start of a description, written by the service's jsonPath():
 * `$`, then `.identifier`, `[index]` or `["any key"]` (a JSON string), then `: `. Undefined when the
 * description does not start with one.
 */
export function parsePathPrefix(description: string): PathPrefix | undefined {
  if (!description.startsWith('$')) return undefined;
  const segments: PathSegment[] = [];
  let i = 1;
  while (i < description.length) {
    const c = description[i];
    if (c === '.') {
      const m = IDENT.exec(description.slice(i + 1));
      if (!m) return undefined;
      segments.push(m[0]);
      i += 1 + m[0].length;
    } else if (c === '[') {
      if (description[i + 1] === '"') {
        const end = closingQuote(description, i + 2);
        if (end < 0 || description[end + 1] !== ']') return undefined;
        try {
          segments.push(JSON.parse(description.slice(i + 1, end + 1)) as string);
        } catch {
          return undefined;
        }
        i = end + 2;
      } else {
        const m = /^\[(\d+)\]/.exec(description.slice(i));
        if (!m) return undefined;
        segments.push(Number(m[1]));
        i += m[0].length;
      }
    } else break;
  }
  if (description[i] !== ':') return undefined;
  return { path: description.slice(0, i), segments, rest: description.slice(i + 1).trimStart() };
}

/** Index of the `"` closing a JSON string whose contents start at `from`, or -1. */
function closingQuote(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}

/** An ApiError from an answer's status and parsed body (interface A or B, the upload's shape, or anything else). */
export function apiErrorFrom(status: number, body: unknown, retryAfter?: string | null): ApiError {
  let code = `http_${status}`;
  let description = `the service answered HTTP ${status}`;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.error === 'string') code = b.error;
    if (typeof b.description === 'string') description = b.description;
    else if (b.result === 'error' && typeof b.reason === 'string') {
      // The upload's own shape ({result: "error", reason}) has no code: the status says which kind.
      code = status === 413 ? 'payload_too_large' : status === 401 ? 'unauthorized' : 'validation_error';
      description = b.reason;
    }
  } else if (typeof body === 'string' && body.trim() !== '') {
    description = body.trim().slice(0, 500);
  }
  const prefix = parsePathPrefix(description);
  const err = new ApiError(status, code, description, prefix?.path ?? null, prefix?.segments ?? [], prefix?.rest ?? description);
  const wait = retryAfter ? Number(retryAfter) : NaN;
  if (Number.isFinite(wait) && wait >= 0) err.retryAfter = wait;
  return err;
}

/** A request that got no answer. */
export function networkError(cause: unknown): ApiError {
  const why = cause instanceof Error ? cause.message : String(cause);
  const description = `the service did not answer (${why}): check that it is running and reachable`;
  return new ApiError(0, 'network_error', description, null, [], description);
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** One line for an alert: `validation_error at $.x: message`. */
export function describeError(e: ApiError): string {
  return e.path ? `${e.code} at ${e.path}: ${e.message}` : `${e.code}: ${e.message}`;
}
