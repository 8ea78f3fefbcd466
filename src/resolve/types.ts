// The override shapes a host writes, as TypeScript types derived from the object types' schemas (the
// same source the runtime validation and the published JSON Schema come from).
import type { z } from 'zod';
import type { ObjectOverride } from '../objects/registry.js';
import type { SlideOverride } from './resolve.js';

export type { ObjectOverride };

/** Interface A's `objects_overrides`: object name → fields to replace. */
export type ObjectsOverrides = Record<string, ObjectOverride>;

/** Interface B's `overrides[]` entry: an object or a slide, by name. */
export type OverrideListEntry = { name: string; object: ObjectOverride } | { name: string; slide: z.input<typeof SlideOverride> };

/** What `render({ overrides })` takes: interface A's map or interface B's list. */
export type Overrides = ObjectsOverrides | readonly OverrideListEntry[];
