// What the designs grid needs to make, name and find designs: the size presets of a new blank
// design (social posts, a story, a link card, A4 for print at 300 dpi, or a custom size), the blank
// design each makes, the name rules the service applies, and the grid's search. No DOM: unit-tested.
import type { DesignSummary } from '../../../src/service/shapes.js';

/** The largest canvas side the engine takes (LIMITS.maxCanvasSide in src/format/fields.ts; a test keeps the two equal, the bundle takes no zod). */
export const MAX_CANVAS_SIDE = 8192;
/** The longest design name the service takes. */
export const MAX_NAME_LENGTH = 120;

export interface SizePreset {
  id: string;
  /** What the person reads in the list. */
  label: string;
  width: number;
  height: number;
  /** Pixels per inch, for a print size (the pdf's page size follows it). */
  dpi?: number;
}

// A4 is 210 × 297 mm: at 300 dpi 2480.315 × 3507.874 px, kept exact so a pdf is exactly A4 (rasters round).
const MM_PER_INCH = 25.4;
const a4At = (dpi: number) => ({ width: +((210 / MM_PER_INCH) * dpi).toFixed(3), height: +((297 / MM_PER_INCH) * dpi).toFixed(3), dpi });

export const SIZE_PRESETS: readonly SizePreset[] = [
  { id: 'square', label: 'Square post 1080 × 1080', width: 1080, height: 1080 },
  { id: 'portrait', label: 'Portrait post 1080 × 1350', width: 1080, height: 1350 },
  { id: 'story', label: 'Story 1080 × 1920', width: 1080, height: 1920 },
  { id: 'link', label: 'Link card 1200 × 628', width: 1200, height: 628 },
  { id: 'a4', label: 'A4 print, 300 dpi (2480 × 3508)', ...a4At(300) },
];

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

/** The blank design of a size: a white page with no objects, in the engine's design format. */
export function blankDesign(size: Pick<SizePreset, 'width' | 'height' | 'dpi'>): Record<string, unknown> {
  return {
    schema: 'imprint/design@1',
    width: size.width,
    height: size.height,
    ...(size.dpi === undefined ? {} : { dpi: size.dpi }),
    background: { type: 'color', color: '#ffffff' },
    objects: [],
  };
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
