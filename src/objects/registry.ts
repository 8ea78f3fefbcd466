// The one registry of object types: the template's object union, each type's handler, and the union of
// override entries. Adding an object type means a folder beside text/ … video/ and a line in each list.
import { z } from 'zod';
import { chartHandler } from './chart/handler.js';
import { ChartObject, type ChartOverride } from './chart/schema.js';
import type { ObjectHandler } from './handler.js';
import { imageHandler } from './image/handler.js';
import { ImageObject, type ImageOverride } from './image/schema.js';
import { lineHandler } from './line/handler.js';
import { LineObject, type LineOverride } from './line/schema.js';
import { mockupHandler } from './mockup/handler.js';
import { MockupObject, type MockupOverride } from './mockup/schema.js';
import { svgHandler } from './svg/handler.js';
import { SvgObject, type SvgOverride } from './svg/schema.js';
import { shapeHandler } from './shape/handler.js';
import { ShapeObject, type ShapeOverride } from './shape/schema.js';
import { textHandler } from './text/handler.js';
import { TextObject, type TextOverride } from './text/schema.js';
import { videoHandler } from './video/handler.js';
import { VideoObject, type VideoOverride } from './video/schema.js';

/** Any object of a template, chosen by `type`; the order is the published schema's. */
export const DesignObject = z.discriminatedUnion('type', [TextObject, ImageObject, ShapeObject, ChartObject, MockupObject, VideoObject, SvgObject, LineObject]);

export type DesignObject = z.infer<typeof DesignObject>;
export type ObjectType = DesignObject['type'];

const HANDLERS = {
  text: textHandler,
  image: imageHandler,
  shape: shapeHandler,
  chart: chartHandler,
  mockup: mockupHandler,
  video: videoHandler,
  svg: svgHandler,
  line: lineHandler,
} satisfies { [K in ObjectType]: ObjectHandler<Extract<DesignObject, { type: K }>> };

/** The object types in the order of the published override schemas and the field reference. */
export const OBJECT_TYPES = Object.keys(HANDLERS) as ObjectType[];

export function handlerFor<T extends DesignObject>(object: T): ObjectHandler<T> {
  return HANDLERS[object.type] as unknown as ObjectHandler<T>;
}

export function handlerForType(type: string): ObjectHandler | undefined {
  return (HANDLERS as Record<string, ObjectHandler | undefined>)[type];
}

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
  | z.input<typeof SvgOverride>
  | z.input<typeof LineOverride>
) &
  DottedFields;
