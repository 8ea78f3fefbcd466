// The Imprint design and objects a Polotno conversion builds, as the input types of their zod schemas:
// a field renamed or retyped in src/objects/* or src/design/schema.ts breaks the converters' build.
import type { z } from 'zod';
import type { Animation, AnimatedProperty } from '../../format/animation.js';
import type { Background, Design, FontFile, Slide } from '../schema.js';
import type { ImageObject } from '../../objects/image/schema.js';
import type { LineObject } from '../../objects/line/schema.js';
import type { ShapeObject } from '../../objects/shape/schema.js';
import type { SvgObject } from '../../objects/svg/schema.js';
import type { TextObject } from '../../objects/text/schema.js';
import type { VideoObject } from '../../objects/video/schema.js';

export type ImprintDesign = z.input<typeof Design>;
export type ImprintSlide = z.input<typeof Slide>;
export type ImprintBackground = z.input<typeof Background>;
export type ImprintFontFile = z.input<typeof FontFile>;
export type ImprintAudio = NonNullable<ImprintDesign['audio']>;

export type ImprintAnimation = z.input<typeof Animation>;
export type ImprintKeyframes = Extract<ImprintAnimation, { type: 'keyframes' }>;
export type ImprintAnimatedProperty = z.input<typeof AnimatedProperty>;

export type TextInput = z.input<typeof TextObject>;
export type ImageInput = z.input<typeof ImageObject>;
export type ShapeInput = z.input<typeof ShapeObject>;
export type VideoInput = z.input<typeof VideoObject>;
export type SvgInput = z.input<typeof SvgObject>;
export type LineInput = z.input<typeof LineObject>;

/** Every object a Polotno element becomes (a group's elements become objects of their own). */
export type ConvertedObject = TextInput | ImageInput | ShapeInput | VideoInput | SvgInput | LineInput;
