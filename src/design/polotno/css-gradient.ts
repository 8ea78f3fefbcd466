// CSS `linear-gradient(…)` strings, as Polotno stores gradient fills and page backgrounds → Imprint's
// linear_gradient fields (angle in CSS degrees, stops with offsets 0–1, positions filled in as CSS does).
import { cssColorToHex } from './css-color.js';

export interface LinearGradient {
  type: 'linear_gradient';
  angle: number;
  stops: { offset: number; color: string }[];
}

export class GradientSyntaxError extends Error {}

/** Splits on commas that are not inside parentheses (rgba(…) holds commas of its own). */
function topLevelParts(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  parts.push(cur.trim());
  return parts;
}

const SIDES: Record<string, number> = { top: 0, right: 90, bottom: 180, left: 270 };

/** The CSS angle of `to <side> [<side>]` for a box of this size (corners depend on its aspect). */
function angleOfDirection(words: string[], width: number, height: number): number | undefined {
  if (words.length === 1) return SIDES[words[0]!];
  if (words.length !== 2) return undefined;
  const v = words.includes('top') ? 'top' : words.includes('bottom') ? 'bottom' : undefined;
  const h = words.includes('left') ? 'left' : words.includes('right') ? 'right' : undefined;
  if (!v || !h) return undefined;
  // The gradient line is perpendicular to the diagonal that does not touch the named corner.
  const a = (Math.atan2(height, width) * 180) / Math.PI;
  const toTopRight = 90 - a;
  if (v === 'top' && h === 'right') return toTopRight;
  if (v === 'bottom' && h === 'right') return 180 - toTopRight;
  if (v === 'bottom' && h === 'left') return 180 + toTopRight;
  return 360 - toTopRight;
}

function parseAngle(s: string): number | undefined {
  const m = /^(-?\d*\.?\d+)(deg|rad|turn|grad)$/.exec(s);
  if (!m) return undefined;
  const v = Number(m[1]);
  return m[2] === 'deg' ? v : m[2] === 'rad' ? (v * 180) / Math.PI : m[2] === 'turn' ? v * 360 : v * 0.9;
}

export function isCssGradient(s: string): boolean {
  return /^\s*(repeating-)?(linear|radial|conic)-gradient\s*\(/i.test(s);
}

/** A `linear-gradient(…)` for a box of `width`×`height`; radial, conic and repeating gradients are refused. */
export function parseLinearGradient(input: string, width: number, height: number): LinearGradient {
  const m = /^\s*linear-gradient\s*\(([\s\S]*)\)\s*$/i.exec(input);
  if (!m) {
    throw new GradientSyntaxError(
      `"${input.slice(0, 60)}" is not a supported gradient: only linear-gradient(<angle> or to <side>, <colour> [<percent>], …) is, not radial, conic or repeating gradients`,
    );
  }
  const parts = topLevelParts(m[1]!);
  let angle = 180;
  const first = parts[0]!.toLowerCase();
  if (first.startsWith('to ')) {
    const a = angleOfDirection(first.slice(3).trim().split(/\s+/), width, height);
    if (a === undefined) throw new GradientSyntaxError(`"${parts[0]}" is not a gradient direction: use to top, to right, to bottom right …`);
    angle = a;
    parts.shift();
  } else {
    const a = parseAngle(first);
    if (a !== undefined) {
      angle = a;
      parts.shift();
    }
  }
  if (parts.length < 2) throw new GradientSyntaxError('a linear-gradient needs at least two colours');
  const raw = parts.map((p) => {
    // The position is the last word when it ends in %; found by hand, not by a backtracking pattern.
    const space = p.lastIndexOf(' ');
    const last = space < 0 ? '' : p.slice(space + 1);
    const pm = /^-?(?:\d+(?:\.\d+)?|\.\d+)%$/.test(last) ? [p, p.slice(0, space).trim(), last.slice(0, -1)] : [p, p, undefined];
    const color = cssColorToHex(pm[1]!);
    if (color === undefined) throw new GradientSyntaxError(`"${pm[1]}" in the gradient is not a CSS colour`);
    return { color, offset: pm[2] === undefined ? undefined : Number(pm[2]) / 100 };
  });
  // CSS: missing first/last positions are 0 and 1; runs of missing positions are spread evenly; a
  // position below an earlier one is raised to it.
  raw[0]!.offset ??= 0;
  raw[raw.length - 1]!.offset ??= 1;
  for (let i = 1; i < raw.length; i++) {
    if (raw[i]!.offset !== undefined) continue;
    let j = i;
    while (raw[j]!.offset === undefined) j++;
    const from = raw[i - 1]!.offset!;
    const to = raw[j]!.offset!;
    for (let k = i; k < j; k++) raw[k]!.offset = from + ((to - from) * (k - i + 1)) / (j - i + 1);
  }
  let floor = 0;
  const stops = raw.map((r) => {
    if (r.offset! < 0 || r.offset! > 1) {
      throw new GradientSyntaxError('colour positions outside 0%–100% are not supported: move the stops into 0%–100%');
    }
    floor = Math.max(floor, r.offset!);
    return { offset: floor, color: r.color };
  });
  if (stops.length > 16) throw new GradientSyntaxError('a gradient may have at most 16 colours');
  return { type: 'linear_gradient', angle: ((angle % 360) + 360) % 360, stops };
}
