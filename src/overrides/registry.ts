// The one registry of per-type override handlers. Adding an object type means adding a handler here.
import type { DesignObject } from '../design/schema.js';
import { chartHandler } from './chart.js';
import type { ObjectHandler } from './handler.js';
import { imageHandler } from './image.js';
import { mockupHandler } from './mockup.js';
import { shapeHandler } from './shape.js';
import { textHandler } from './text.js';
import { videoHandler } from './video.js';

const HANDLERS = {
  text: textHandler,
  image: imageHandler,
  shape: shapeHandler,
  chart: chartHandler,
  mockup: mockupHandler,
  video: videoHandler,
} satisfies { [K in DesignObject['type']]: ObjectHandler<Extract<DesignObject, { type: K }>> };

export function handlerFor<T extends DesignObject>(object: T): ObjectHandler<T> {
  return HANDLERS[object.type] as unknown as ObjectHandler<T>;
}

export function handlerForType(type: string): ObjectHandler | undefined {
  return (HANDLERS as Record<string, ObjectHandler | undefined>)[type];
}
