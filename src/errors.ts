// The error catalogue: every failure Imprint reports carries a stable code, an HTTP status,
// the JSON path of the offending input and a message that says how to fix it.

export const ERROR_CATALOGUE = {
  /** The input (design, overrides, options, assets) is wrong; the caller must change it. */
  validation_error: { status: 400 },
  /** Something failed inside Imprint although the input was valid. */
  render_failed: { status: 500 },
  /** The caller's AbortSignal stopped the render; nothing was produced. */
  render_cancelled: { status: 499 },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class ImprintError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** JSON path of the offending value, e.g. `$.objects[3].border.style`. */
  readonly path: string;

  constructor(code: ErrorCode, path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImprintError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.path = path;
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
