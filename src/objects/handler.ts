// The contract every object type implements: which override fields it accepts, how an override
// merges into the template object, what must hold after merging, and how it becomes a Scene object.
import type { z } from 'zod';
import type { SceneObject } from '../scene/scene.js';
import type { FontSet } from '../text/fonts.js';
import type { PlacedObject } from './common.js';

export interface CheckContext {
  fonts: FontSet;
  /** Font families the design declares in `fonts`. */
  designFonts: readonly string[];
  /** Families of the design's own font files, available though `fonts` (the FontSet) may not have loaded them. */
  fileFamilies?: readonly string[];
  /** The design's `lang`, canonical (text objects without a lang of their own take it). */
  lang?: string;
  /** Checking objects with overrides applied: a Google Fonts family from the font folder may be picked without being in `fonts`. */
  overrides?: boolean;
}

export interface ObjectHandler<T extends PlacedObject = PlacedObject> {
  type: T['type'];
  /** For messages: "a text object". */
  what: string;
  /** Strict schema of an override entry for this type (placement fields included). */
  override: z.ZodType<Partial<Record<string, unknown>>>;
  /** `at` is the override entry's path, for errors only a merge can see (e.g. an unknown mockup layer). */
  merge(object: T, override: Record<string, unknown>, at: string): T;
  /** Checks what the schema alone cannot (markup, references, font names). `at` is the object's path. */
  check(object: T, at: string, ctx: CheckContext): void;
  /** `fieldPath("path")` is where a field came from: the override if it set it, else the template. */
  toScene(object: T, fieldPath: (field: string) => string, ctx: CheckContext): SceneObject;
}
