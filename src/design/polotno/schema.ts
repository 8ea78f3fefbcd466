// The Polotno store JSON as Imprint reads it: every field of Polotno's published design schema
// (@polotno/schema, schemaVersion 4), checked for type and range, so a file from the editor is
// accepted as saved and anything else is refused at its JSON path before a single field is converted.
import { z } from 'zod';

const num = z.number().finite();
const size = (what: string) => num.gt(0, { error: `expected a ${what} greater than 0 pixels` }).max(100_000);
const fraction = num.min(0, { error: 'expected a fraction from 0 to 1' }).max(1, { error: 'expected a fraction from 0 to 1' });
const ms = num.min(0, { error: 'expected milliseconds (0 or more)' }).max(3_600_000);
/** Client data Polotno never reads, and neither does Imprint. */
const custom = z.unknown().optional();
/** A CSS colour or gradient: short, so no parser ever sees megabytes. */
const paint = z.string().max(2000, { error: 'expected a CSS colour or gradient of at most 2000 characters' });

export const PolotnoAnimation = z.strictObject({
  type: z.enum(['enter', 'exit', 'loop']),
  name: z.string().optional(),
  duration: ms.optional(),
  delay: ms.optional(),
  enabled: z.boolean().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  id: z.string().optional(),
});

/** Fields of the group and of every other element: identity, visibility, editor flags, animations. */
const nodeFields = {
  id: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
  custom,
  opacity: num.min(0).max(1).optional(),
  visible: z.boolean().optional(),
  selectable: z.boolean().optional(),
  removable: z.boolean().optional(),
  draggable: z.boolean().optional(),
  alwaysOnTop: z.boolean().optional(),
  showInExport: z.boolean().optional(),
  locked: z.boolean().optional(),
  animations: z.array(PolotnoAnimation).max(20).optional(),
};

/** The "Shape" base of every element but group: placement and effects. */
const shapeFields = {
  ...nodeFields,
  x: num.min(-100_000).max(100_000).optional(),
  y: num.min(-100_000).max(100_000).optional(),
  width: size('width').optional(),
  height: size('height').optional(),
  rotation: num.min(-36_000).max(36_000).optional(),
  resizable: z.boolean().optional(),
  contentEditable: z.boolean().optional(),
  styleEditable: z.boolean().optional(),
  blurEnabled: z.boolean().optional(),
  blurRadius: num.min(0).max(1000).optional(),
  brightnessEnabled: z.boolean().optional(),
  brightness: num.min(-1).max(1).optional(),
  sepiaEnabled: z.boolean().optional(),
  grayscaleEnabled: z.boolean().optional(),
  filters: z.union([z.record(z.string(), z.strictObject({ intensity: num.optional() })), z.array(z.unknown())]).optional(),
  shadowEnabled: z.boolean().optional(),
  shadowBlur: num.min(0).max(1000).optional(),
  shadowOffsetX: num.min(-10_000).max(10_000).optional(),
  shadowOffsetY: num.min(-10_000).max(10_000).optional(),
  shadowColor: paint.optional(),
  shadowOpacity: num.min(0).max(1).optional(),
};

export const PolotnoText = z.strictObject({
  type: z.literal('text'),
  ...shapeFields,
  // A text's height is derived by the editor: 0 means "not measured yet".
  height: num.min(0).max(100_000).optional(),
  text: z.string().max(100_000).optional(),
  placeholder: z.string().optional(),
  fontSize: num.gt(0, { error: 'expected a font size greater than 0 pixels' }).max(10_000).optional(),
  fontFamily: z.string().min(1).max(100).optional(),
  fontStyle: z.enum(['normal', 'italic']).optional(),
  fontWeight: z.union([z.string(), num]).optional(),
  textDecoration: z.string().optional(),
  textTransform: z.enum(['none', 'uppercase', 'lowercase', 'capitalize']).optional(),
  fill: paint.optional(),
  align: z.enum(['left', 'center', 'right', 'justify', 'start', 'end']).optional(),
  verticalAlign: z.enum(['top', 'middle', 'bottom']).optional(),
  stroke: paint.optional(),
  strokeWidth: num.min(0).max(1000).optional(),
  strokeLineJoin: z.enum(['round', 'miter', 'bevel']).optional(),
  lineHeight: z.union([num, z.string()]).optional(),
  letterSpacing: num.min(-10).max(10).optional(),
  backgroundEnabled: z.boolean().optional(),
  backgroundColor: paint.optional(),
  backgroundOpacity: num.min(0).max(1).optional(),
  backgroundCornerRadius: num.min(0).max(100).optional(),
  backgroundPadding: num.min(0).max(100).optional(),
  legacyBackground: z.boolean().optional(),
  curveEnabled: z.boolean().optional(),
  curvePower: num.min(-1).max(1).optional(),
  textOverflow: z.enum(['resize', 'ellipsis', 'fit', 'change-font-size']).optional(),
  maxLines: z.int().min(0).max(10_000).optional(),
  minFontSize: num.gt(0).max(10_000).optional(),
  maxFontSize: num.gt(0).max(10_000).optional(),
});

const pictureFields = {
  src: z.string().max(50_000_000).optional(),
  cropX: fraction.optional(),
  cropY: fraction.optional(),
  cropWidth: num.gt(0, { error: 'expected a crop size greater than 0 (a fraction of the image)' }).max(1).optional(),
  cropHeight: num.gt(0, { error: 'expected a crop size greater than 0 (a fraction of the image)' }).max(1).optional(),
  cornerRadius: num.min(0).max(100_000).optional(),
  flipX: z.boolean().optional(),
  flipY: z.boolean().optional(),
  clipSrc: z.string().max(5_000_000).optional(),
  borderColor: paint.optional(),
  borderSize: num.min(0).max(1000).optional(),
  keepRatio: z.boolean().optional(),
  stretchEnabled: z.boolean().optional(),
};

export const PolotnoImage = z.strictObject({
  type: z.literal('image'),
  ...shapeFields,
  ...pictureFields,
  // Not a field of Polotno's image model (frames are svg elements): read only to explain that.
  maskSrc: z.string().max(5_000_000).optional(),
});

export const PolotnoSvg = z.strictObject({
  type: z.literal('svg'),
  ...shapeFields,
  ...pictureFields,
  svgSource: z.string().max(5_000_000).optional(),
  maskSrc: z.string().max(5_000_000).optional(),
  colorsReplace: z.union([z.record(z.string(), z.string()), z.array(z.unknown())]).optional(),
});

export const PolotnoLine = z.strictObject({
  type: z.literal('line'),
  ...shapeFields,
  color: paint.optional(),
  dash: z.array(num.min(0).max(1000)).max(32).optional(),
  startHead: z.string().optional(),
  endHead: z.string().optional(),
});

export const PolotnoFigure = z.strictObject({
  type: z.literal('figure'),
  ...shapeFields,
  subType: z.string().max(50).optional(),
  fill: paint.optional(),
  stroke: paint.optional(),
  strokeWidth: num.min(0).max(1000).optional(),
  cornerRadius: num.min(0).max(100_000).optional(),
  dash: z.array(num.min(0).max(1000)).max(32).optional(),
});

export const PolotnoVideo = z.strictObject({
  type: z.literal('video'),
  ...shapeFields,
  ...pictureFields,
  duration: ms.optional(),
  startTime: fraction.optional(),
  endTime: fraction.optional(),
  volume: num.min(0).max(1).optional(),
  speed: num.gt(0).max(16).optional(),
});

export interface PolotnoGroupInput {
  type: 'group';
  id?: string | undefined;
  name?: string | undefined;
  opacity?: number | undefined;
  visible?: boolean | undefined;
  showInExport?: boolean | undefined;
  alwaysOnTop?: boolean | undefined;
  animations?: z.infer<typeof PolotnoAnimation>[] | undefined;
  children?: PolotnoElement[] | undefined;
}

export const PolotnoGroup: z.ZodType<PolotnoGroupInput> = z.strictObject({
  type: z.literal('group'),
  ...nodeFields,
  get children() {
    return z.array(PolotnoElement).max(2000).optional();
  },
});

/** Types Polotno has that Imprint cannot draw exactly; refused by name rather than as unknown. */
export const REFUSED_TYPES: Record<string, string> = {
  gif: 'GIF elements are not supported: convert the GIF to an mp4 clip and use a video element',
  table: 'table elements are not supported: build the table from text and figure elements',
  lottie: 'lottie elements are not supported: export the animation as an mp4 clip and use a video element',
};

export const PolotnoElement = z.discriminatedUnion('type', [
  PolotnoText,
  PolotnoImage,
  PolotnoSvg,
  PolotnoLine,
  PolotnoFigure,
  PolotnoVideo,
  PolotnoGroup as never,
]);

export type PolotnoText = z.infer<typeof PolotnoText>;
export type PolotnoImage = z.infer<typeof PolotnoImage>;
export type PolotnoSvg = z.infer<typeof PolotnoSvg>;
export type PolotnoLine = z.infer<typeof PolotnoLine>;
export type PolotnoFigure = z.infer<typeof PolotnoFigure>;
export type PolotnoVideo = z.infer<typeof PolotnoVideo>;
export type PolotnoAnimation = z.infer<typeof PolotnoAnimation>;
export type PolotnoElement = PolotnoText | PolotnoImage | PolotnoSvg | PolotnoLine | PolotnoFigure | PolotnoVideo | PolotnoGroupInput;

const pageSide = z.union([size('page size'), z.literal('auto')]);
/** A page's print bleed in pixels (Polotno's resolveBleed: `bleed` for every side, bleedTop… per side). */
const bleed = num.min(0, { error: 'expected a bleed of 0 pixels or more (0 for none)' }).max(1000, { error: 'expected a bleed of at most 1000 pixels' });

export const PolotnoPage = z.strictObject({
  id: z.string().max(200).optional(),
  width: pageSide.optional(),
  height: pageSide.optional(),
  background: z.string().max(50_000_000).optional(),
  bleed: bleed.optional(),
  bleedTop: bleed.optional(),
  bleedRight: bleed.optional(),
  bleedBottom: bleed.optional(),
  bleedLeft: bleed.optional(),
  duration: ms.optional(),
  children: z.array(PolotnoElement).max(2000, { error: 'expected at most 2000 elements on a page' }),
  custom,
});

export const PolotnoFontStyle = z.strictObject({
  src: z.string().max(50_000_000),
  fontStyle: z.string().optional(),
  fontWeight: z.union([z.string(), num]).optional(),
});

export const PolotnoFont = z.strictObject({
  fontFamily: z.string().min(1).max(100),
  url: z.string().max(50_000_000).optional(),
  styles: z.array(PolotnoFontStyle).max(32).optional(),
  id: z.string().optional(),
});

export const PolotnoAudio = z.strictObject({
  id: z.string().optional(),
  name: z.string().optional(),
  src: z.string().max(50_000_000).optional(),
  duration: ms.optional(),
  startTime: fraction.optional(),
  endTime: fraction.optional(),
  volume: num.min(0).max(1).optional(),
  delay: ms.optional(),
  speed: num.gt(0).max(16).optional(),
  custom,
});

export const PolotnoDesign = z.strictObject({
  width: size('width').max(20_000).optional(),
  height: size('height').max(20_000).optional(),
  fonts: z.array(PolotnoFont).max(32).optional(),
  pages: z.array(PolotnoPage).min(1, { error: 'expected at least one page' }).max(100, { error: 'expected at most 100 pages' }),
  audios: z.array(PolotnoAudio).max(8).optional(),
  unit: z.enum(['px', 'pt', 'mm', 'cm', 'in'], { error: 'expected unit "px", "pt", "mm", "cm" or "in" (the editor\'s store.setUnit)' }).optional(),
  dpi: z
    .number({ error: 'expected dpi as a number of pixels per inch, such as 300' })
    .finite()
    .gt(0, { error: "expected dpi greater than 0 (the pixels per inch of the document, such as 300; Polotno's default is 72)" })
    .max(10_000, { error: 'expected dpi of at most 10000' })
    .optional(),
  custom,
  schemaVersion: z.int().min(0).max(100).optional(),
});

export type PolotnoDesign = z.infer<typeof PolotnoDesign>;
/** A Polotno store JSON as `store.toJSON()` saves it (what `render({ design })` accepts besides Imprint designs). */
export type PolotnoDocument = z.input<typeof PolotnoDesign>;
export type PolotnoPage = z.infer<typeof PolotnoPage>;
