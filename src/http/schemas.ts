// Interface A's request and response bodies as zod schemas: the server validates with them and the
// OpenAPI document is generated from them, so the two cannot drift apart.
import { z } from 'zod';
import { TASK_FORMATS } from '../service/tasks.js';

export const RenderRequest = z.strictObject({
  design_id: z
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ description: 'Id of the template design (imprint admin import-design prints it).', examples: [1] }),
  format: z.enum(TASK_FORMATS).meta({ description: 'Output format. mp4 needs an animated design of at most 15 s. webp and avif are additions to the spec.' }),
  quality: z
    .int()
    .min(1)
    .max(100)
    .meta({
      description: 'Addition to the spec: encoder quality 1-100 for jpg (default 90), webp (80) and avif (50); refused for other formats.',
      examples: [85],
    })
    .optional(),
  webhook_url: z
    .string()
    .max(2048)
    .meta({
      description: 'Receives one POST with the task body when the task is done or in error (no retry).',
      examples: ['https://example.com/hooks/imprint'],
    })
    .optional(),
  objects_overrides: z
    .record(z.string(), z.unknown())
    .meta({ description: 'Object name → fields to replace (see the overrides reference). Images must be URLs returned by the upload endpoint.' })
    .optional(),
});

export const RenderAccepted = z.object({
  task_id: z.int().meta({ examples: [42] }),
  status_url: z.string().meta({ examples: ['https://render.example.com/public/v2/tasks/42'] }),
});

export const Task = z
  .object({
    id: z.int(),
    state: z.enum(['queued', 'pending', 'done', 'error']),
    design_id: z.int(),
    result_url: z.string().meta({ description: 'Only when state is done; kept 30 days.' }).optional(),
    error: z
      .object({
        code: z
          .string()
          .meta({ description: 'Stable code: validation_error, design_not_found, render_failed, render_timeout, render_out_of_memory, worker_lost.' }),
        description: z.string().meta({ description: 'What went wrong and what to do about it.' }),
      })
      .meta({ description: 'Addition to the spec: only when state is error, why the render failed.' })
      .optional(),
    warnings: z
      .array(
        z.object({
          code: z.literal('missing_characters').meta({ description: 'Stable code: characters no font of the fallback chain can draw.' }),
          object: z.string().nullable().meta({ description: 'Name of the text object; null when it has none.' }),
          page: z.int().meta({ description: 'Zero-based page, in a multi-page pdf only.' }).optional(),
          characters: z.array(z.string()).meta({ description: 'The characters, each once.' }),
          description: z.string().meta({ description: 'What was not drawn as meant and what to do about it.' }),
        }),
      )
      .meta({
        description:
          "Addition to the spec: only when state is done and the render could not draw everything as meant (characters shown as the font's empty box).",
      })
      .optional(),
  })
  .meta({ description: 'A render task; also the body of the webhook.' });

export const Font = z
  .object({
    id: z.int(),
    family: z.string().meta({ description: 'The family a design names in fonts or font_family (from the file: name id 16, else 1).' }),
    weight: z.int().meta({ description: "The file's own weight (OS/2); a variable font's default." }),
    weight_range: z
      .tuple([z.int(), z.int()])
      .meta({ description: 'A variable font: every weight from min to max is drawn exactly (its wght axis).' })
      .optional(),
    style: z.enum(['normal', 'italic']),
    format: z.enum(['ttf', 'otf', 'woff', 'woff2']).meta({ description: 'As uploaded (sniffed from the bytes); stored as TTF/OTF.' }),
    size: z.int().meta({ description: 'Bytes stored.' }),
    coverage: z
      .object({
        code_points: z.int(),
        scripts: z.record(z.string(), z.int()).meta({ description: 'Code points per Unicode script (Common: digits, punctuation, symbols).' }),
      })
      .meta({ description: 'What the font can draw.' }),
    created_at: z.string(),
  })
  .meta({ description: "A font of the account's library (an addition to the spec)." });

export const FontList = z.object({ fonts: z.array(Font) });

export const UploadResult = z.object({
  result: z.enum(['success', 'error']),
  url: z.string().meta({ description: 'On success: use it as path, background.path or image_url in overrides.' }).optional(),
  reason: z.string().meta({ description: 'On error: what is wrong.' }).optional(),
});

export const ErrorBody = z.object({
  error: z.string().meta({ description: 'Stable code, e.g. validation_error, task_not_found, rate_limited.' }),
  description: z.string().meta({ description: 'What is wrong and how to fix it; includes the JSON path for validation errors.' }),
});

// ── additions to the spec: designs, the task list, task events and the account (issue 17) ──────

const isoTime = (description: string) => z.string().meta({ description, examples: ['2026-11-21T12:00:00.000Z'] });
const priceKeys = ['sd/30', 'sd/60', 'hd/30', 'hd/60'] as const;

export const DesignSummary = z
  .strictObject({
    design_id: z.int().meta({ description: 'The id renders name (design_id in A1, video_id in B1).', examples: [2] }),
    name: z.string().meta({ description: 'Shown in listings; may be empty.', examples: ['card-1080'] }),
    kind: z.enum(['design', 'video']).meta({ description: 'video: a design with slides (interface B); design: everything else.' }),
    width: z.int().meta({ description: 'Canvas width in template pixels.', examples: [1080] }),
    height: z.int().meta({ description: 'Canvas height in template pixels.', examples: [1080] }),
    duration: z.number().nullable().meta({ description: 'Length in seconds; null for a still design.', examples: [15] }),
    animated: z.boolean().meta({ description: 'True when the design has a timeline (a duration or slides): it renders as mp4.' }),
    created_at: isoTime('When it was imported.'),
    updated_at: isoTime('When it was last replaced (or imported).'),
  })
  .meta({ description: 'A design of the account, as listed.' });

export const DesignList = z.strictObject({ designs: z.array(DesignSummary).meta({ description: 'Newest first.' }) });

export const Box = z
  .strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .meta({ description: 'Template pixels, before rotation.', examples: [{ x: 72, y: 732, width: 740, height: 150 }] });

export const ObjectInfo = z
  .strictObject({
    name: z.string().meta({ description: 'The key of its objects_overrides entry (interface B: overrides[].name).', examples: ['headline'] }),
    type: z.enum(['text', 'image', 'shape', 'chart', 'mockup', 'video']),
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
      .meta({ description: 'Mockups only (an addition): the layers mockup_data addresses by id; image takes image_url, color takes color, artwork only hidden.' })
      .optional(),
  })
  .meta({ description: 'A named object of a design: only named objects can be overridden.' });

export const SlideInfo = z
  .strictObject({
    name: z.string().nullable().meta({ description: 'Its name for slide overrides (interface B); null when it has none.', examples: ['intro'] }),
    duration: z.number().meta({ description: 'Seconds, its transition included.', examples: [3] }),
    start: z.number().meta({ description: 'An addition: the second of the video it starts at (transitions overlap the next slide).', examples: [0] }),
    objects: z.array(z.string()).meta({ description: 'Names of its named objects.' }),
  })
  .meta({ description: 'A slide of a video design.' });

export const Prices = z
  .strictObject(Object.fromEntries(priceKeys.map((k) => [k, z.number().nullable()])) as Record<(typeof priceKeys)[number], z.ZodNullable<z.ZodNumber>>)
  .meta({
    description:
      "Interface B's price of one paid render of this design on the account's plan, by <size_type>/<fps> (duration × the plan's rate); null for a combination B would refuse (too much work at 60 fps).",
    examples: [{ 'sd/30': 0.15, 'sd/60': 0.225, 'hd/30': 0.3, 'hd/60': 0.45 }],
  });

export const DesignDetail = DesignSummary.extend({
  background: z.string().nullable().meta({ description: 'The canvas colour (hex), or null for an image or no background.', examples: ['#f6f1ea'] }),
  slides: z.array(SlideInfo).meta({ description: 'In order; empty for a design without slides.' }),
  objects: z.array(ObjectInfo).meta({ description: 'The named objects, in z-order (slide by slide).' }),
  prices: Prices.nullable().meta({ description: 'Null when the design cannot be rendered as a video (a still).' }),
}).meta({ description: 'A design with its named objects, what each accepts, and its prices.' });

export const TaskListQuery = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: 'How many tasks, 1-100 (default 20).' }),
  before: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ description: 'Only tasks with a smaller id: the id of the last task of the previous page.' })
    .optional(),
});

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
    error: z
      .strictObject({ code: z.string(), description: z.string() })
      .meta({ description: 'Only in state error: why it failed.' })
      .optional(),
  })
  .meta({ description: 'A task of either interface, as the task list shows it.' });

export const TaskList = z.strictObject({ tasks: z.array(TaskListItem).meta({ description: 'Newest first.' }) });

export const AccountInfo = z
  .strictObject({
    account_id: z.int(),
    name: z.string(),
    plan: z.string().meta({ description: "The plan's name.", examples: ['basic'] }),
    balance: z.number().meta({ description: "Interface B's balance (renders queued or running still hold part of it).", examples: [20] }),
    requests_per_minute: z.int().meta({ description: "The plan's requests per minute.", examples: [50] }),
    video: z.strictObject({
      rates: z
        .strictObject(Object.fromEntries(priceKeys.map((k) => [k, z.number()])) as Record<(typeof priceKeys)[number], z.ZodNumber>)
        .meta({ description: 'Price per second of video by <size_type>/<fps>.', examples: [{ 'sd/30': 0.01, 'sd/60': 0.015, 'hd/30': 0.02, 'hd/60': 0.03 }] }),
      demo_renders_left_today: z.int().meta({ description: 'Free renders that may still be queued today (UTC days).', examples: [30] }),
      renders_left_today: z.int().meta({ description: 'Paid renders left today (done and running ones count).', examples: [1000] }),
    }),
  })
  .meta({ description: 'The account of the key (an addition to the spec).' });
