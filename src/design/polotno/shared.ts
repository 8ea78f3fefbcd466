// Helpers every Polotno converter uses: converted numbers rounded, CSS colours and gradients as Imprint
// colours and gradient fields, font weights, and refusals at the Polotno JSON path of the field.
import { validationError } from '../../errors.js';
import { CSS_COLOR_HINT, cssColorToHex } from './css-color.js';
import { GradientSyntaxError, isCssGradient, parseLinearGradient, type LinearGradient } from './css-gradient.js';

/** Converted numbers to 6 decimals: float noise from the conversion would otherwise show in the design. */
export const round = (v: number): number => Math.round(v * 1e6) / 1e6;

/** Refuses a field of the element at `at` that Imprint cannot draw exactly; `why` says how to fix it. */
export function refuse(at: string, field: string, why: string): never {
  throw validationError(`${at}.${field}`, why);
}

/** A CSS colour as Imprint's hex colour; a gradient or anything else is refused. */
export function color(value: string, at: string): string {
  const hex = cssColorToHex(value);
  if (hex === undefined) {
    if (isCssGradient(value)) throw validationError(at, `a gradient is not accepted here: ${CSS_COLOR_HINT}`);
    throw validationError(at, `${CSS_COLOR_HINT} but received ${JSON.stringify(value.slice(0, 60))}`);
  }
  return hex;
}

/** A colour with its alpha multiplied (shadowOpacity, backgroundOpacity). */
export function colorWithAlpha(value: string, alpha: number, at: string): string {
  const hex = color(value, at);
  const h = hex.slice(1);
  const a = (h.length === 8 ? parseInt(h.slice(6), 16) / 255 : 1) * alpha;
  return `#${h.slice(0, 6)}${
    a >= 1
      ? ''
      : Math.round(a * 255)
          .toString(16)
          .padStart(2, '0')
  }`;
}

/** A CSS linear-gradient() as Imprint gradient fields, spread over a box of this size. */
export function linearGradient(value: string, width: number, height: number, at: string): LinearGradient {
  try {
    return parseLinearGradient(value, width, height);
  } catch (e) {
    if (e instanceof GradientSyntaxError) throw validationError(at, e.message);
    throw e;
  }
}

/** A colour, or a linear-gradient() as Imprint gradient fields. */
export function paint(value: string, width: number, height: number, at: string): { color: string } | LinearGradient {
  return isCssGradient(value) ? linearGradient(value, width, height, at) : { color: color(value, at) };
}

/** A CSS font weight (normal, bold, 100–900) as a number. */
export function fontWeightOf(v: string | number | undefined, at: string): number {
  if (v === undefined || v === 'normal') return 400;
  if (v === 'bold') return 700;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 100 || n > 900)
    throw validationError(at, `expected "normal", "bold" or a weight from 100 to 900 but received ${JSON.stringify(v)}`);
  return n;
}
