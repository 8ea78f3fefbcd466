// Field schemas shared by every object type and by overrides: limits, colours, image references,
// placement and the `doc` helper that attaches a description and an example to each field.
import { z } from 'zod';
import { HEX_COLOR, HEX_COLOR_HINT } from './color.js';

/** Limits that keep a single render bounded in memory and time. Documented in docs/template-format.md. */
export const LIMITS = {
  maxCanvasSide: 8192,
  maxCoordinate: 100_000,
  maxObjectSide: 100_000,
  maxObjects: 1000,
  maxTextLength: 10_000,
  maxFontSize: 1000,
  maxNameLength: 200,
} as const;

export const doc = <T extends z.ZodType>(schema: T, description: string, example: unknown): T => schema.meta({ description, examples: [example] });

// ── field schemas, shared by templates and overrides ─────────────────────────────────────────

export const Color = z.string().regex(HEX_COLOR, { error: HEX_COLOR_HINT });

export const ImageRef = z
  .string()
  .min(1, { error: 'expected a non-empty image reference: a relative path or "asset:<name>"' })
  .max(2048, { error: 'image reference is too long (at most 2048 characters)' });

const coordinate = z.number().finite().min(-LIMITS.maxCoordinate).max(LIMITS.maxCoordinate);
const side = z.number().finite().gt(0, { error: 'expected a size greater than 0' }).max(LIMITS.maxObjectSide);

export const Placement = {
  x: doc(coordinate, 'Left edge of the object box, in pixels from the canvas left edge.', 80),
  y: doc(coordinate, 'Top edge of the object box, in pixels from the canvas top edge.', 120),
  width: doc(side, 'Width of the object box in pixels (> 0).', 920),
  height: doc(side, 'Height of the object box in pixels (> 0).', 240),
  rotation: doc(z.number().finite().min(-3600).max(3600), 'Clockwise rotation in degrees around the centre of the box. Default 0.', -8),
  opacity: doc(z.number().finite().min(0).max(1), 'Opacity of the whole object, 0 (invisible) to 1 (default).', 0.85),
  hidden: doc(z.boolean(), 'true skips the object when rendering. Default false.', false),
};
