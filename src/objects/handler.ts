// The contract every object type implements, one row of the registry's table: the template object's
// schema and the override entry's, how an override merges into the template object, what must hold
// after merging, how it becomes a Scene object, and which files that scene object draws.
import type { z } from 'zod';
import type { AnySceneObject, SceneImageRef, SceneObject, SceneVideo } from '../scene/scene.js';
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

/** The files a scene object draws: the asset stage reads every one before layout, which does no I/O. */
export interface ObjectAssets {
  /** Raster images: headers read before layout (which places them by their size), pixels decoded to paint. */
  images?: readonly SceneImageRef[];
  /** SVG files drawn as vectors: parsed into drawings before layout. */
  svgs?: readonly SceneImageRef[];
  /** SVG files that clip a picture: parsed like `svgs`, and checked for what a clip can follow. */
  svgClips?: readonly SceneImageRef[];
  /** Placements of video clips: each clip is probed before layout and decoded frame by frame. */
  videos?: readonly SceneVideo[];
}

/** The zod schema of a template object of one type (a member of the design's union of objects, by `type`). */
export type ObjectSchema = z.ZodType<PlacedObject>;

/** The zod schema of an override entry of one type (placement fields included). */
export type OverrideSchema = z.ZodType<Partial<Record<string, unknown>>>;

/**
 * One object type: `Schema` is its template object's schema, `Override` its override entry's, `S` the
 * scene object it becomes. The registry keeps these types, so the design's object union, the override
 * union and the tables keyed by type (layout's included) follow from its rows.
 */
export interface ObjectHandler<
  Schema extends ObjectSchema = ObjectSchema,
  Override extends OverrideSchema = OverrideSchema,
  S extends AnySceneObject = SceneObject,
> {
  type: z.output<Schema>['type'];
  /** For messages: "a text object". */
  what: string;
  /** Strict schema of the template object; its `type` is a literal, the union's discriminator. */
  schema: Schema;
  /** Strict schema of an override entry for this type (placement fields included). */
  override: Override;
  /** `at` is the override entry's path, for errors only a merge can see (e.g. an unknown mockup layer). */
  merge(object: z.output<Schema>, override: Record<string, unknown>, at: string): z.output<Schema>;
  /** Checks what the schema alone cannot (markup, references, font names). `at` is the object's path. */
  check(object: z.output<Schema>, at: string, ctx: CheckContext): void;
  /** `fieldPath("path")` is where a field came from: the override if it set it, else the template. */
  toScene(object: z.output<Schema>, fieldPath: (field: string) => string, ctx: CheckContext): S;
  /** The files the scene object draws (absent: none), which the asset stage loads before layout. */
  assets?(object: S): ObjectAssets;
}
