// The JSON the service answers with beyond a render (an account's designs, a design's named objects,
// its slides and prices, the task list, the account, the font families, a task's progress) as zod
// schemas, the one source of each shape: src/http/schemas.ts validates with them and generates the
// OpenAPI document from them, the service's functions return their inferred types, and the Studio
// (studio/src) imports those types, as types only. So this module imports nothing but zod and plain
// data: the Studio's type check (browser, no Node) reads it, and nothing of it reaches the bundle.
import { z } from 'zod';
import { OBJECT_TYPES } from '../objects/types.js';
import { VIDEO_FPS, VIDEO_SIZES } from '../output-formats.js';

export const TaskProgress = z
  .strictObject({
    fraction: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: 'frames_done / frames_total, 0 to 1 (four decimals); 1 when done.', examples: [0.42] }),
    frames_done: z
      .int()
      .min(0)
      .meta({ description: 'Frames encoded so far.', examples: [189] }),
    frames_total: z
      .int()
      .min(1)
      .meta({ description: 'Frames of the whole video (its duration × fps).', examples: [450] }),
    eta_seconds: z
      .number()
      .min(0)
      .nullable()
      .meta({ description: 'Seconds left at the pace so far (setup included); null until the first frame is encoded, 0 when done.', examples: [7.5] }),
  })
  .meta({
    description:
      'Addition to the spec: how far an mp4 render has got. Only on mp4 tasks, in state pending (updated by the worker at most every 250 ms) and done (fraction 1); absent when queued, in error and for other formats.',
  });
export type TaskProgress = z.infer<typeof TaskProgress>;

export const FontFamily = z
  .object({
    family: z.string(),
    source: z.enum(['library', 'bundled', 'installed', 'catalogue']).meta({
      description:
        "library: the account's font files; bundled: shipped with Imprint; installed: a Google Fonts family in the font folder; catalogue: a Google Fonts family installed when a design naming it is imported",
    }),
    category: z
      .string()
      .nullable()
      .meta({ description: "Google Fonts' category (sans-serif, serif, display, handwriting, monospace); null outside the catalogue." }),
    weights: z.array(z.int()),
    styles: z.array(z.enum(['normal', 'italic'])),
    version: z.string().meta({ description: 'source installed: the package version.' }).optional(),
  })
  .meta({ description: 'A family designs can name in fonts and font_family (an addition to the spec).' });
export type FontFamily = z.infer<typeof FontFamily>;

const isoTime = (description: string) => z.string().meta({ description, examples: ['2026-11-21T12:00:00.000Z'] });
/** Interface B's price of a render by `<size_type>/<fps>`: sd/30, sd/60, hd/30, hd/60. */
const PRICE_KEYS = VIDEO_SIZES.flatMap((size) => VIDEO_FPS.map((fps) => `${size}/${fps}` as const));
export type PriceKey = (typeof PRICE_KEYS)[number];

export const DesignSummary = z
  .strictObject({
    design_id: z.int().meta({ description: 'The id renders name (design_id in A1, video_id in B1).', examples: [2] }),
    name: z.string().meta({ description: 'Shown in listings; may be empty.', examples: ['card-1080'] }),
    kind: z.enum(['design', 'video']).meta({ description: 'video: a design with slides (interface B); design: everything else.' }),
    width: z.int().meta({ description: 'Canvas width in template pixels.', examples: [1080] }),
    height: z.int().meta({ description: 'Canvas height in template pixels.', examples: [1080] }),
    duration: z
      .number()
      .nullable()
      .meta({ description: 'Length in seconds; null for a still design.', examples: [15] }),
    animated: z.boolean().meta({ description: 'True when the design has a timeline (a duration or slides): it renders as mp4.' }),
    created_at: isoTime('When it was imported.'),
    updated_at: isoTime('When it was last replaced (or imported).'),
  })
  .meta({ description: 'A design of the account, as listed.' });
export type DesignSummary = z.infer<typeof DesignSummary>;

export const DesignList = z.strictObject({ designs: z.array(DesignSummary).meta({ description: 'Newest first.' }) });
export type DesignList = z.infer<typeof DesignList>;

export const Box = z
  .strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .meta({ description: 'Template pixels, before rotation.', examples: [{ x: 72, y: 732, width: 740, height: 150 }] });
export type Box = z.infer<typeof Box>;

export const ObjectInfo = z
  .strictObject({
    name: z.string().meta({
      description:
        'The key of its objects_overrides entry (interface B: overrides[].name). Several objects may share a name (a role): each is listed, and an override of the name applies to all of them.',
      examples: ['headline'],
    }),
    path: z.string().meta({
      description: 'An addition: where the object is in the template, unique where names repeat.',
      examples: ['$.objects[7]', '$.slides[1].objects[0]'],
    }),
    type: z.enum(OBJECT_TYPES),
    slide: z.string().nullable().meta({ description: 'The name of its slide; null in a design without slides or on a slide without a name.' }),
    box: Box,
    rotation: z.number().meta({ description: 'Degrees clockwise around the centre of the box.', examples: [0] }),
    override_schema: z.record(z.string(), z.unknown()).meta({
      description:
        "JSON Schema (draft 2020-12) of this object's override entry: the schema the API validates overrides with, made from the same zod source (the $defs of overrides.schema.json).",
    }),
    values: z.record(z.string(), z.unknown()).meta({
      description:
        "The template's current value of every field of override_schema.properties it sets; mockups also get mockup_data with each layer's colour and hidden (an addition).",
      examples: [{ x: 72, y: 732, width: 740, height: 150, text: 'Chase the golden hour\nacross the fjords', config: { text_replacement_strategy: 'fit' } }],
    }),
    layers: z
      .array(z.strictObject({ id: z.string(), kind: z.enum(['image', 'color', 'artwork']) }))
      .meta({
        description: 'Mockups only (an addition): the layers mockup_data addresses by id; image takes image_url, color takes color, artwork only hidden.',
      })
      .optional(),
  })
  .meta({ description: 'A named object of a design: only named objects can be overridden.' });
export type ObjectInfo = z.infer<typeof ObjectInfo>;

export const SlideInfo = z
  .strictObject({
    name: z
      .string()
      .nullable()
      .meta({ description: 'Its name for slide overrides (interface B); null when it has none.', examples: ['intro'] }),
    duration: z.number().meta({ description: 'Seconds, its transition included.', examples: [3] }),
    start: z.number().meta({ description: 'An addition: the second of the video it starts at (transitions overlap the next slide).', examples: [0] }),
    objects: z.array(z.string()).meta({ description: 'Names of its named objects.' }),
  })
  .meta({ description: 'A slide of a video design.' });
export type SlideInfo = z.infer<typeof SlideInfo>;

export const Prices = z
  .strictObject(Object.fromEntries(PRICE_KEYS.map((k) => [k, z.number().nullable()])) as Record<PriceKey, z.ZodNullable<z.ZodNumber>>)
  .meta({
    description:
      "Interface B's price of one paid render of this design on the account's plan, by <size_type>/<fps> (duration × the plan's rate); null for a combination B would refuse (too much work at 60 fps).",
    examples: [{ 'sd/30': 0.15, 'sd/60': 0.225, 'hd/30': 0.3, 'hd/60': 0.45 }],
  });
export type Prices = z.infer<typeof Prices>;

export const DesignDetail = DesignSummary.extend({
  background: z
    .string()
    .nullable()
    .meta({ description: 'The canvas colour (hex), or null for an image or no background.', examples: ['#f6f1ea'] }),
  slides: z.array(SlideInfo).meta({ description: 'In order; empty for a design without slides.' }),
  objects: z.array(ObjectInfo).meta({ description: 'The named objects, in z-order (slide by slide).' }),
  prices: Prices.nullable().meta({ description: 'Null when the design cannot be rendered as a video (a still).' }),
  poster_time: z
    .number()
    .nullable()
    .meta({
      description:
        'An addition: the second a png, jpg or pdf of this design shows (its poster_time, else the end of its opening animations), where the Studio opens it; null for a still design.',
      examples: [1.2],
    }),
}).meta({ description: 'A design with its named objects, what each accepts, and its prices.' });
export type DesignDetail = z.infer<typeof DesignDetail>;

export const TaskListItem = z
  .strictObject({
    id: z.int(),
    interface: z.enum(['A', 'B']).meta({ description: 'A: a render of A1 (status at /public/v2/tasks/<id>); B: a video of B1 (/api/queue/<id>/).' }),
    design_id: z.int().meta({ description: 'The design (video_id in interface B).' }),
    format: z.string().meta({ examples: ['png'] }),
    state: z.enum(['queued', 'pending', 'done', 'error']),
    created_at: isoTime('When it was queued.'),
    started_at: z.string().nullable().meta({ description: 'When rendering started; null while queued.' }),
    finished_at: z.string().nullable().meta({ description: 'When it ended (done or error); null before.' }),
    result_url: z.string().meta({ description: 'Only when done and not expired (kept 30 days).' }).optional(),
    error: z.strictObject({ code: z.string(), description: z.string() }).meta({ description: 'Only in state error: why it failed.' }).optional(),
    progress: TaskProgress.optional(),
  })
  .meta({ description: 'A task of either interface, as the task list shows it.' });
export type TaskListItem = z.infer<typeof TaskListItem>;

export const TaskList = z.strictObject({ tasks: z.array(TaskListItem).meta({ description: 'Newest first.' }) });
export type TaskList = z.infer<typeof TaskList>;

export const AccountInfo = z
  .strictObject({
    account_id: z.int(),
    name: z.string(),
    plan: z.string().meta({ description: "The plan's name.", examples: ['basic'] }),
    balance: z.number().meta({ description: "Interface B's balance (renders queued or running still hold part of it).", examples: [20] }),
    requests_per_minute: z.int().meta({ description: "The plan's requests per minute.", examples: [50] }),
    video: z.strictObject({
      rates: z
        .strictObject(Object.fromEntries(PRICE_KEYS.map((k) => [k, z.number()])) as Record<PriceKey, z.ZodNumber>)
        .meta({ description: 'Price per second of video by <size_type>/<fps>.', examples: [{ 'sd/30': 0.01, 'sd/60': 0.015, 'hd/30': 0.02, 'hd/60': 0.03 }] }),
      demo_renders_left_today: z.int().meta({ description: 'Free renders that may still be queued today (UTC days).', examples: [30] }),
      renders_left_today: z.int().meta({ description: 'Paid renders left today (done and running ones count).', examples: [1000] }),
    }),
  })
  .meta({ description: 'The account of the key (an addition to the spec).' });
export type AccountInfo = z.infer<typeof AccountInfo>;
