// The timeline in template format v1: when an object is on screen (start, end) and how it moves:
// keyframes on placement properties with easings, and presets (fade, slide, scale, text reveal).
import { z } from 'zod';
import { doc } from './fields.js';

export const TIMELINE_LIMITS = { maxAnimations: 16, maxKeyframes: 64, maxTime: 3600 } as const;

const seconds = z.number().finite().min(0).max(TIMELINE_LIMITS.maxTime);
const positive = z.number().finite().gt(0).max(TIMELINE_LIMITS.maxTime);

export const Easing = doc(
  z.string().max(64),
  'linear, ease-in, ease-out, ease-in-out, or cubic-bezier(x1, y1, x2, y2) as in CSS. Default ease-in-out for keyframes, ease-out for presets.',
  'ease-out',
);

export const AnimatedProperty = doc(
  z.enum(['x', 'y', 'width', 'height', 'rotation', 'opacity', 'scale']),
  'The animated field; scale (default 1) grows the object around the centre of its box.',
  'opacity',
);

const Keyframe = z
  .strictObject({
    time: doc(seconds, 'Seconds from the start of the video; keyframes go in increasing time.', 1.5),
    value: doc(z.number().finite().min(-100_000).max(100_000), 'The property value at that time.', 0.5),
  })
  .meta({ description: 'One keyframe.', examples: [{ time: 1.5, value: 0.5 }] });

const Keyframes = z
  .strictObject({
    type: doc(z.literal('keyframes'), 'Keyframes on one property.', 'keyframes'),
    property: AnimatedProperty,
    keyframes: doc(
      z.array(Keyframe).min(1).max(TIMELINE_LIMITS.maxKeyframes),
      'At least one; before the first the first value holds, after the last the last.',
      [
        { time: 0, value: 0 },
        { time: 1, value: 1 },
      ],
    ),
    easing: Easing.optional(),
  })
  .meta({ description: 'Keyframe animation.' });

const presetFields = {
  duration: doc(positive, 'Seconds the preset takes.', 0.6),
  delay: doc(seconds, 'Seconds after the object appears (in presets) or before it disappears (out presets). Default 0.', 0.2).optional(),
  easing: Easing.optional(),
};

const Edge = z.enum(['left', 'right', 'top', 'bottom']);

const Preset = <T extends string, E extends Record<string, z.ZodType> = Record<never, z.ZodType>>(type: T, description: string, extra?: E) =>
  z.strictObject({ type: doc(z.literal(type), description, type), ...presetFields, ...(extra ?? ({} as E)) }).meta({ description });

export const Animation = z.discriminatedUnion('type', [
  Keyframes,
  Preset('fade_in', 'Opacity from 0 to the object opacity when it appears.'),
  Preset('fade_out', 'Opacity down to 0 as it disappears.'),
  Preset('slide_in', 'Slides in from outside an edge of the canvas.', { from: doc(Edge, 'The edge it comes from. Default left.', 'bottom').optional() }),
  Preset('slide_out', 'Slides out past an edge of the canvas.', { to: doc(Edge, 'The edge it leaves by. Default right.', 'top').optional() }),
  Preset('scale_in', 'Grows from nothing around its centre.'),
  Preset('reveal', 'Text objects: the text appears word by word or line by line.', {
    by: doc(z.enum(['word', 'line']), 'Unit of the reveal. Default word.', 'line').optional(),
  }),
]);

export const Timeline = {
  start: doc(seconds, 'Second the object appears. Default 0.', 1).optional(),
  end: doc(positive, 'Second the object disappears. Default: the end of the video.', 12).optional(),
  animations: doc(z.array(Animation).max(TIMELINE_LIMITS.maxAnimations), 'Animations, applied in order.', [{ type: 'fade_in', duration: 0.6 }]).optional(),
};

export type Animation = z.infer<typeof Animation>;
