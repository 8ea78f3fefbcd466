// The one table of object types: a row per type (its handler: schema, override, merge, check, toScene,
// the files it draws), keyed by the names of types.ts. The design's object union, the override union and
// what a scene loads all derive from it; layout keeps the one other table, keyed by the same names.
import { z } from 'zod';
import type { AnySceneObject, SceneGroup, SceneImageRef, SceneObject, SceneVideo } from '../scene/scene.js';
import { chartHandler } from './chart/handler.js';
import type { PlacedObject } from './common.js';
import type { ObjectHandler, ObjectSchema, OverrideSchema } from './handler.js';
import { imageHandler } from './image/handler.js';
import { lineHandler } from './line/handler.js';
import { mockupHandler } from './mockup/handler.js';
import { shapeHandler } from './shape/handler.js';
import { svgHandler } from './svg/handler.js';
import { textHandler } from './text/handler.js';
import { OBJECT_TYPES, type ObjectType } from './types.js';
import { videoHandler } from './video/handler.js';

export { OBJECT_TYPES, type ObjectType } from './types.js';

/**
 * The table. Each row must be a handler of its own type that makes that type's scene object, and
 * every name of OBJECT_TYPES needs a row (and no other): a type added in one place and not the
 * others does not compile.
 */
const HANDLERS = {
  text: textHandler,
  image: imageHandler,
  shape: shapeHandler,
  chart: chartHandler,
  mockup: mockupHandler,
  video: videoHandler,
  svg: svgHandler,
  line: lineHandler,
} satisfies { [K in ObjectType]: ObjectHandler<z.ZodType<PlacedObject & { type: K }>, OverrideSchema, Extract<SceneObject, { type: K }>> };

type Handlers = typeof HANDLERS;

/** The rows in the published order, and those registered after them (registerObjectType). */
const ROWS = new Map<string, ObjectHandler>(OBJECT_TYPES.map((t) => [t, HANDLERS[t] as unknown as ObjectHandler]));

/** Set once the design's object schema has been built: a type registered later would not be in it. */
let sealed = false;

/**
 * Any object of a template, chosen by `type`: the union of the rows' schemas, in the published order.
 * Built on first use (zod's lazy schema), so a type registered before any parse is a member.
 */
export const DesignObject = z.lazy(() => {
  sealed = true;
  const schemas = [...ROWS.values()].map((h) => h.schema) as unknown as [z.ZodObject, ...z.ZodObject[]];
  return z.discriminatedUnion('type', schemas);
}) as unknown as z.ZodLazy<z.ZodDiscriminatedUnion<Handlers[ObjectType]['schema'][], 'type'>>;

export type DesignObject = z.infer<typeof DesignObject>;

export function handlerFor<T extends DesignObject>(object: T): ObjectHandler<z.ZodType<T>> {
  return ROWS.get(object.type) as unknown as ObjectHandler<z.ZodType<T>>;
}

export function handlerForType(type: string): ObjectHandler | undefined {
  return ROWS.get(type);
}

/** Every row, the published types first (in their order), then any registered ones. */
export function objectHandlers(): ObjectHandler[] {
  return [...ROWS.values()];
}

/**
 * Adds an object type beside the built-in ones: for a test that walks a throwaway type through the
 * whole pipeline (test/object-type-table.test.ts), not part of the package's API. Its layout is
 * registered with layout/layout.ts's registerObjectLayout. It must come before the first parse.
 */
export function registerObjectType<Schema extends ObjectSchema, Override extends OverrideSchema, S extends AnySceneObject>(
  handler: ObjectHandler<Schema, Override, S>,
): void {
  if (ROWS.has(handler.type)) throw new Error(`registerObjectType: there is an object type "${handler.type}" already`);
  if (sealed) throw new Error(`registerObjectType: "${handler.type}" comes too late, the design's object schema is built: register before the first parse`);
  ROWS.set(handler.type, handler as unknown as ObjectHandler);
}

/** Every file a scene's objects draw, in scene order (into groups; object by object as each row's `assets` lists them). */
export interface SceneAssets {
  images: SceneImageRef[];
  /** Every SVG file, drawings and clips alike. */
  svgs: SceneImageRef[];
  /** The SVG files of `svgs` that clip a picture. */
  svgClips: SceneImageRef[];
  videos: SceneVideo[];
}

export function sceneAssets(objects: readonly AnySceneObject[]): SceneAssets {
  const out: SceneAssets = { images: [], svgs: [], svgClips: [], videos: [] };
  const visit = (list: readonly AnySceneObject[]): void => {
    for (const o of list) {
      // A group (a slide) is the one scene type no row makes: its objects are visited in its place.
      if (o.type === 'group') visit((o as SceneGroup).objects);
      else {
        const found = ROWS.get(o.type)?.assets?.(o as SceneObject);
        if (!found) continue;
        out.images.push(...(found.images ?? []));
        out.svgs.push(...(found.svgs ?? []), ...(found.svgClips ?? []));
        out.svgClips.push(...(found.svgClips ?? []));
        out.videos.push(...(found.videos ?? []));
      }
    }
  };
  visit(objects);
  return out;
}

/** Dotted keys as the spec writes them: `{"config.text_replacement_strategy": "fit"}`. */
type DottedFields = { [dotted: `${string}.${string}`]: unknown };

/** One `objects_overrides` entry; which fields apply depends on the named object's type. */
export type ObjectOverride = z.input<Handlers[ObjectType]['override']> & DottedFields;
