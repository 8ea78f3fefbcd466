// The error catalogue: every failure Imprint reports carries a stable code, an HTTP status,
// the JSON path of the offending input and a message that says how to fix it.

export const ERROR_CATALOGUE = {
  /** The input (design, overrides, options, assets) is wrong; the caller must change it. */
  validation_error: { status: 400 },
  /** Something failed inside Imprint although the input was valid. */
  render_failed: { status: 500 },
  /** The caller's AbortSignal stopped the render; nothing was produced. */
  render_cancelled: { status: 499 },
  /** Service task: the render ran past the worker's time limit and was stopped. */
  render_timeout: { status: 504 },
  /** Service task: the render needed more memory than a render thread may use and was stopped. */
  render_out_of_memory: { status: 500 },
  /** Service task: the worker rendering it stopped (killed, crashed) twice; the task was not retried again. */
  worker_lost: { status: 500 },
  /** Service: no API key, or one that is not known. */
  unauthorized: { status: 401 },
  /** Service: the key is known but its role may not do this (a member key on an admin-only call). */
  forbidden: { status: 403 },
  /** Service: no such account (or not one the caller may see). */
  account_not_found: { status: 404 },
  /** Service: no such design or video design in this account. */
  design_not_found: { status: 404 },
  /** Service: no such font in this account's library. */
  font_not_found: { status: 404 },
  /** Service: no such task in this account. */
  task_not_found: { status: 404 },
  /** Service: the design has no such version (never saved, or older than the versions kept). */
  version_not_found: { status: 404 },
  /** Service: the design has no draft (none saved, or dropped by a save or a DELETE). */
  draft_not_found: { status: 404 },
  /** Service: the value must be unique (an account name, an API key) and is already taken. */
  conflict: { status: 409 },
  /**
   * Service: a design version was saved on a version that is no longer the latest (another tab or
   * client saved meanwhile); nothing was stored. The answer names the latest version.
   */
  version_conflict: { status: 409 },
  /** Service: the account already has as many queued and running tasks as its plan allows. */
  queue_full: { status: 429 },
  /** Service: the balance cannot cover the price of the render (interface B). */
  insufficient_funds: { status: 402 },
  /** Service: the plan's renders for today (UTC) are used up (interface B). */
  daily_limit_exceeded: { status: 429 },
  /** HTTP: no such route or resource. */
  not_found: { status: 404 },
  /** HTTP: the request body is larger than the limit. */
  payload_too_large: { status: 413 },
  /** HTTP: the body's content type is not the one the endpoint takes. */
  unsupported_media_type: { status: 415 },
  /** HTTP: too many requests for the plan, or a status address polled too often; see Retry-After. */
  rate_limited: { status: 429 },
  /**
   * A Google Fonts family the input names could not be downloaded (registry down, no network, npm
   * missing or too slow). The input is fine: retry later, or install from a folder of tarballs.
   */
  font_install_failed: { status: 503 },
  /** HTTP: something failed inside the service; the request can be retried. */
  internal_error: { status: 500 },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class ImprintError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** JSON path of the offending value, e.g. `$.objects[3].border.style`. */
  readonly path: string;
  /**
   * Machine-readable facts beside the message, sent as fields of the HTTP error body (a
   * version_conflict's `latest_version`), so a client acts on them without parsing the description.
   */
  readonly details: Readonly<Record<string, string | number>> | undefined;

  constructor(code: ErrorCode, path: string, message: string, options?: { cause?: unknown; details?: Readonly<Record<string, string | number>> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ImprintError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.path = path;
    this.details = options?.details;
  }

  /** One line, as the CLI prints it: `validation_error at $.path: message`. */
  override toString(): string {
    return `${this.code} at ${this.path}: ${this.message}`;
  }

  toJSON(): { error: ErrorCode; path: string; description: string } {
    return { error: this.code, path: this.path, description: this.message };
  }
}

export function validationError(path: string, message: string, cause?: unknown): ImprintError {
  return new ImprintError('validation_error', path, message, cause === undefined ? undefined : { cause });
}

export function isImprintError(e: unknown): e is ImprintError {
  return e instanceof ImprintError;
}
