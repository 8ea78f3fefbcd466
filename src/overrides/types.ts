// The override shapes a host writes, as TypeScript types derived from the handlers' schemas (the same
// source the runtime validation and the published JSON Schema come from).
import type { z } from 'zod';
import type { ChartOverride } from './chart.js';
import type { ImageOverride } from './image.js';
import type { MockupOverride } from './mockup.js';
import type { SlideOverride } from './resolve.js';
import type { ShapeOverride } from './shape.js';
import type { TextOverride } from './text.js';
import type { VideoOverride } from './video.js';

/** Dotted keys as the spec writes them: `{"config.text_replacement_strategy": "fit"}`. */
type DottedFields = { [dotted: `${string}.${string}`]: unknown };

/** One `objects_overrides` entry; which fields apply depends on the named object's type. */
export type ObjectOverride = (
  | z.input<typeof TextOverride>
  | z.input<typeof ImageOverride>
  | z.input<typeof ShapeOverride>
  | z.input<typeof ChartOverride>
  | z.input<typeof MockupOverride>
  | z.input<typeof VideoOverride>
) &
  DottedFields;

/** Interface A's `objects_overrides`: object name → fields to replace. */
export type ObjectsOverrides = Record<string, ObjectOverride>;

/** Interface B's `overrides[]` entry: an object or a slide, by name. */
export type OverrideListEntry = { name: string; object: ObjectOverride } | { name: string; slide: z.input<typeof SlideOverride> };

/** What `render({ overrides })` takes: interface A's map or interface B's list. */
export type Overrides = ObjectsOverrides | readonly OverrideListEntry[];
