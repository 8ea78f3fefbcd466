// What the designs grid needs to name and find designs besides the editor's operations (the size
// presets and the blank design are design-ops.ts's): a custom size as typed, the name rules the service
// applies, a copy's default name and the grid's search. No DOM: unit-tested.
import type { DesignSummary } from '../../../src/service/shapes.js';

/** The largest canvas side the engine takes (LIMITS.maxCanvasSide in src/format/fields.ts; a test keeps the two equal, the bundle takes no zod). */
export const MAX_CANVAS_SIDE = 8192;
/** The longest design name the service takes. */
export const MAX_NAME_LENGTH = 120;

/** A field's problem, in the service's words: where and how to fix it. */
export interface FieldProblem {
  field: 'name' | 'width' | 'height';
  message: string;
}

/** A custom canvas side typed by the person, or the problem with it. */
export function parseSide(field: 'width' | 'height', text: string): number | FieldProblem {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) return { field, message: `Enter the ${field} in pixels, a number such as 1080.` };
  if (value < 1 || value > MAX_CANVAS_SIDE) return { field, message: `The ${field} must be between 1 and ${MAX_CANVAS_SIDE} pixels.` };
  return value;
}

/** The name as the service stores it (trimmed), or the problem with it. */
export function checkName(text: string): string | FieldProblem {
  const name = text.trim();
  if (!name) return { field: 'name', message: 'Give the design a name.' };
  if (name.length > MAX_NAME_LENGTH) return { field: 'name', message: `Keep the name to ${MAX_NAME_LENGTH} characters (it has ${name.length}).` };
  return name;
}

/** The designs whose name or id contains every word of the query (any case); all of them for an empty query. */
export function searchDesigns<T extends Pick<DesignSummary, 'design_id' | 'name'>>(designs: readonly T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...designs];
  return designs.filter((d) => {
    const hay = `${d.name.toLowerCase()} ${d.design_id}`;
    return words.every((w) => hay.includes(w));
  });
}

/** The name a copy gets by default: "Summer sale copy", then "Summer sale copy 2"… among the names taken. */
export function copyName(name: string, taken: readonly string[]): string {
  const base = `${name.trim() || 'Design'} copy`.slice(0, MAX_NAME_LENGTH);
  const names = new Set(taken);
  if (!names.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = ` ${n}`;
    const candidate = `${base.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
    if (!names.has(candidate)) return candidate;
  }
}
