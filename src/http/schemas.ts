// Interface A's request and response bodies as zod schemas: the server validates with them and the
// OpenAPI document is generated from them, so the two cannot drift apart. A field that is an engine
// option (quality, missing_fonts, time) takes the engine's schema, with the API's description.
import { z } from 'zod';
import { RenderOptionsSchema } from '../render/options.js';
import { PREVIEW_MAX_SIDE } from '../service/preview.js';
import { FontFamily, TaskProgress } from '../service/shapes.js';
import { TASK_FORMATS, TaskOptions } from '../service/tasks.js';

// The listing shapes are the service's (one source, which the Studio's types also come from).
export {
  AccountInfo,
  Box,
  DesignDetail,
  DesignList,
  DesignSummary,
  FontFamily,
  ObjectInfo,
  Prices,
  SlideInfo,
  TaskList,
  TaskListItem,
  TaskProgress,
} from '../service/shapes.js';

/** The engine's (and a task's) encoder quality, 1-100. */
const quality = TaskOptions.shape.quality.unwrap();

export const RenderRequest = z.strictObject({
  design_id: z
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ description: 'Id of the template design (imprint admin import-design prints it).', examples: [1] }),
  format: z.enum(TASK_FORMATS).meta({ description: 'Output format. mp4 needs an animated design of at most 15 s. webp and avif are additions to the spec.' }),
  quality: quality
    .meta({
      description: 'Addition to the spec: encoder quality 1-100 for jpg (default 90), webp (80) and avif (50); refused for other formats.',
      examples: [85],
    })
    .optional(),
  missing_fonts: RenderOptionsSchema.shape.missingFonts
    .unwrap()
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
  quality: quality.meta({ description: 'jpg quality 1-100 (default 90); refused for png.', examples: [80] }).optional(),
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
  time: RenderOptionsSchema.shape.time
    .unwrap()
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

export const Task = z
  .object({
    id: z.int(),
    state: z.enum(['queued', 'pending', 'done', 'error']),
    design_id: z.int(),
    result_url: z.string().meta({ description: 'Only when state is done; kept 30 days.' }).optional(),
    error: z
      .object({
        code: z.string().meta({
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

// ── additions to the spec (issue 17): query strings (the listing bodies are service/shapes.ts's) ──

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
