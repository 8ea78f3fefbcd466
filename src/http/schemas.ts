// Interface A's request and response bodies as zod schemas: the server validates with them and the
// OpenAPI document is generated from them, so the two cannot drift apart.
import { z } from 'zod';
import { OBJECT_TYPES } from '../objects/types.js';
import { PREVIEW_MAX_SIDE } from '../service/preview.js';
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
  missing_fonts: z
    .enum(['error', 'fallback'])
    .meta({
      description:
        'Addition to the spec: a font family the design names that is neither available nor a Google Fonts family: "error" (default) refuses the request; "fallback" draws its texts with Inter and the task\'s warnings name each substitution (font_substituted).',
      examples: ['fallback'],
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

const PREVIEW_FORMATS = ['png', 'jpg'] as const;
const PREVIEW_SCALE = 'expected a scale more than 0 and at most 1 (a preview is at most the design size; render larger images with POST /public/v2/render)';

export const PreviewRequest = z.strictObject({
  design_id: RenderRequest.shape.design_id,
  format: z
    .enum(PREVIEW_FORMATS, { error: 'expected "png" or "jpg" (a preview is an image: render pdf, mp4, webp or avif with POST /public/v2/render)' })
    .meta({ description: 'png (default) or jpg.' })
    .optional(),
  quality: z
    .int()
    .min(1)
    .max(100)
    .meta({ description: 'jpg quality 1-100 (default 90); refused for png.', examples: [80] })
    .optional(),
  objects_overrides: z
    .union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(1000)], {
      error: 'expected an object { "<object name>": {…} }, or interface B\'s list [{ "name": …, "object" | "slide": {…} }]',
    })
    .meta({
      description:
        "Object name → fields to replace, as in a render request. Addition: also interface B's overrides list [{ name, object } | { name, slide }], whose slide entries replace a video design's slide background (path). Images must be URLs returned by the upload endpoint.",
    })
    .optional(),
  scale: z
    .number({ error: PREVIEW_SCALE })
    .gt(0, { error: PREVIEW_SCALE })
    .max(1, { error: PREVIEW_SCALE })
    .meta({
      description: `The image is the design's size × scale, in whole pixels (default 1). At most ${PREVIEW_MAX_SIDE} px on the long side: a larger scale is lowered to fit, and the answer gives the scale used.`,
      examples: [0.5],
    })
    .optional(),
  time: z
    .number()
    .min(0)
    .max(3600)
    .meta({
      description:
        'An animated or video design: the second to show, at most its duration (default: its poster_time, else the end of its opening animations). A still design looks the same at every time.',
      examples: [2.5],
    })
    .optional(),
});

export const FontSubstitution = z
  .object({
    family: z.string().meta({ description: 'The family the text asked for.' }),
    weight: z.int().meta({ description: 'The weight asked for.' }),
    style: z.enum(['normal', 'italic']),
    used_family: z
      .string()
      .meta({ description: 'The family it was drawn with (the default family when the one asked for is missing and missing_fonts is "fallback").' }),
    used_weight: z.int().meta({ description: 'The weight of the face used (CSS matching: the nearest the family has).' }),
    used_style: z.enum(['normal', 'italic']),
  })
  .meta({ description: 'A face asked for and the face drawn instead.' });

const warningBase = {
  object: z.string().nullable().meta({ description: 'Name of the text object; null when it has none.' }),
  page: z.int().meta({ description: 'Zero-based page, in a multi-page pdf only.' }).optional(),
  description: z.string().meta({ description: 'What was not drawn as meant and what to do about it.' }),
};

export const RenderWarning = z.union([
  z.object({
    code: z.literal('missing_characters').meta({ description: 'Stable code: characters no font of the fallback chain can draw.' }),
    ...warningBase,
    characters: z.array(z.string()).meta({ description: 'The characters, each once.' }),
  }),
  z.object({
    code: z
      .literal('font_substituted')
      .meta({ description: 'Addition: text drawn with another family (missing_fonts "fallback") or the nearest weight or style its family has.' }),
    ...warningBase,
    substitutions: z.array(FontSubstitution),
  }),
]);

export const TextFitReport = z
  .object({
    name: z.string().nullable().meta({ description: 'Name of the text object; null when it has none.' }),
    type: z.literal('text'),
    font_size: z.number().meta({ description: 'Font size used, in design pixels (whatever the scale).' }),
    line_count: z.int(),
    shrunk: z.boolean().meta({ description: 'The size is below the template size (fit).' }),
    clipped: z.boolean().meta({ description: 'Even at the minimum size the text is taller than its box; the overflow is cut off.' }),
    word_broken: z.boolean().meta({ description: 'A word longer than the line was split.' }),
    missing_characters: z.array(z.string()).meta({ description: 'Characters no font can draw (shown as the empty box).' }),
    height: z.number().meta({ description: 'Box height after sizing, in design pixels.' }),
    synthetic_bold: z.literal(true).meta({ description: 'Some text was drawn bolder than any face of its family.' }).optional(),
    synthetic_italic: z.literal(true).meta({ description: 'Some text was slanted because its family has no italic.' }).optional(),
    font_substitutions: z
      .array(FontSubstitution)
      .meta({
        description: 'Addition: faces asked for that the text was not drawn with (a missing weight or style, or a missing family drawn with the default one).',
      })
      .optional(),
    hidden: z
      .literal(true)
      .meta({
        description:
          "Addition: the text is not on screen at the previewed time (its hidden is true, it has not appeared yet or has left): nothing was laid out, so font_size and height are the template's, line_count is 0 and the flags are false.",
      })
      .optional(),
    hidden_reason: z
      .string()
      .meta({ description: 'With hidden: why, for a person.', examples: ['headline is hidden at 0 s (it appears at 0.4 s)'] })
      .optional(),
    appears_at: z
      .number()
      .meta({ description: 'With hidden: the second on the design timeline at which the text comes on screen, when it does later.' })
      .optional(),
  })
  .meta({ description: 'How one text object was fitted into its box, or why it was not (hidden).' });

export const PreviewResult = z
  .object({
    image: z.string().meta({ description: 'The image as a data URL: data:image/png;base64,… or data:image/jpeg;base64,…' }),
    width: z.int().meta({ description: 'Image width in pixels.' }),
    height: z.int().meta({ description: 'Image height in pixels.' }),
    scale: z.number().meta({ description: `The scale used: the one asked for, or lower to keep the long side within ${PREVIEW_MAX_SIDE} px.` }),
    report: z
      .array(TextFitReport)
      .meta({ description: 'Every text object of the design, as laid out; named texts not on screen at the previewed time with hidden: true and the reason.' }),
    warnings: z.array(RenderWarning).meta({ description: "What could not be drawn as meant (as a task's warnings); empty when nothing." }),
  })
  .meta({ description: 'The answer of POST /public/v2/preview with Accept: application/json.' });

export const RenderAccepted = z.object({
  task_id: z.int().meta({ examples: [42] }),
  status_url: z.string().meta({ examples: ['https://render.example.com/public/v2/tasks/42'] }),
});

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
          .meta({
            description:
              'Stable code: validation_error, design_not_found, render_failed, render_timeout, render_out_of_memory, worker_lost, font_install_failed.',
          }),
        description: z.string().meta({ description: 'What went wrong and what to do about it.' }),
      })
      .meta({ description: 'Addition to the spec: only when state is error, why the render failed.' })
      .optional(),
    warnings: z
      .array(RenderWarning)
      .meta({
        description:
          "Addition to the spec: only when state is done and the render could not draw everything as meant (characters shown as the font's empty box).",
      })
      .optional(),
    progress: TaskProgress.optional(),
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

export const FontList = z.object({
  fonts: z.array(Font).meta({ description: "The account's library fonts." }),
  families: z.array(FontFamily).meta({
    description:
      'Addition: every family designs can use (library, bundled, installed), then with ?search= the font catalogue families whose name contains it; at most ?limit= (default 50, at most 200).',
  }),
  catalogue_families: z.int().meta({ description: 'Addition: how many families the font catalogue (the Google Fonts collection) has.' }),
});

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
    duration: z
      .number()
      .nullable()
      .meta({ description: 'Length in seconds; null for a still design.', examples: [15] }),
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

export const Prices = z
  .strictObject(Object.fromEntries(priceKeys.map((k) => [k, z.number().nullable()])) as Record<(typeof priceKeys)[number], z.ZodNullable<z.ZodNumber>>)
  .meta({
    description:
      "Interface B's price of one paid render of this design on the account's plan, by <size_type>/<fps> (duration × the plan's rate); null for a combination B would refuse (too much work at 60 fps).",
    examples: [{ 'sd/30': 0.15, 'sd/60': 0.225, 'hd/30': 0.3, 'hd/60': 0.45 }],
  });

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

export const ResultQuery = z.object({
  download: z
    .string()
    .meta({
      description:
        'An addition: save the file under this name (Content-Disposition: attachment; the S3 presigned URL names it too), e.g. card-1080-task-12.png. Letters, digits, ".", "_" and "-" are kept, other characters become "-", the extension is the result\'s own; at most 120 characters.',
      examples: ['card-1080-task-12.png'],
    })
    .optional(),
});

export const TaskListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'How many tasks, 1-100 (default 20).' }),
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
    error: z.strictObject({ code: z.string(), description: z.string() }).meta({ description: 'Only in state error: why it failed.' }).optional(),
    progress: TaskProgress.optional(),
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
