// The JSON the service answers with around a render (a task of interface A or B, the render-accepted
// bodies, a preview with its text fit report and warnings, an upload, the fonts, an error) as zod
// schemas, one source for each: src/http/schemas.ts re-exports interface A's for validation and the
// OpenAPI document, the service's functions return their types, and the Studio (studio/src) imports
// those types, as types only. Like shapes.ts, this module imports
// nothing but zod and plain data, so the Studio's browser type check (no Node) can read it.
import { z } from 'zod';
import { FontFamily, TaskProgress } from './shapes.js';

/** The long side of a preview in pixels: a design × scale larger than this is previewed at a lower scale. */
export const PREVIEW_MAX_SIDE = 1600;

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
export type FontSubstitution = z.infer<typeof FontSubstitution>;

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
export type RenderWarning = z.infer<typeof RenderWarning>;

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
export type TextFitReport = z.infer<typeof TextFitReport>;

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
export type PreviewResult = z.infer<typeof PreviewResult>;

export const RenderAccepted = z.object({
  task_id: z.int().meta({ examples: [42] }),
  status_url: z.string().meta({ examples: ['https://render.example.com/public/v2/tasks/42'] }),
});
export type RenderAccepted = z.infer<typeof RenderAccepted>;

/** Why a task ended in error (A2's and B2's `error`, an addition to the spec). */
export const TaskError = z.object({
  code: z.string().meta({
    description: 'Stable code: validation_error, design_not_found, render_failed, render_timeout, render_out_of_memory, worker_lost, font_install_failed.',
  }),
  description: z.string().meta({ description: 'What went wrong and what to do about it.' }),
});
export type TaskError = z.infer<typeof TaskError>;

export const Task = z
  .object({
    id: z.int(),
    state: z.enum(['queued', 'pending', 'done', 'error']),
    design_id: z.int(),
    result_url: z.string().meta({ description: 'Only when state is done; kept 30 days.' }).optional(),
    error: TaskError.meta({ description: 'Addition to the spec: only when state is error, why the render failed.' }).optional(),
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
export type Task = z.infer<typeof Task>;

// ── interface B (B1, B2): not in the OpenAPI document (which is interface A's), typed here for the Studio ──

/** B1's answer: the task is queued; task_url is its B2 address. */
export const VideoRenderAccepted = z.strictObject({
  result: z.literal('true'),
  task_url: z.string(),
  task_id: z.int(),
});
export type VideoRenderAccepted = z.infer<typeof VideoRenderAccepted>;

/** B2's task body. Values not known yet are null; an error costs 0. */
export const VideoTask = z.strictObject({
  id: z.int(),
  video_id: z.int(),
  user_id: z.int(),
  wait_time: z.number().nullable(),
  billed_duration: z.number().nullable(),
  billed_price: z.number().nullable(),
  exec_time: z.number().nullable(),
  screenshot_url: z.string().nullable(),
  video_url: z.string().nullable(),
  start_date: z.string(),
  state_date: z.string(),
  state: Task.shape.state,
  /** An addition to the spec's fields: why the task ended in error (only in state error). */
  error: TaskError.optional(),
  /** An addition to the spec's fields: how far the render has got (pending and done), as in interface A. */
  progress: TaskProgress.optional(),
});
export type VideoTask = z.infer<typeof VideoTask>;

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
export type Font = z.infer<typeof Font>;

export const FontList = z.object({
  fonts: z.array(Font).meta({ description: "The account's library fonts." }),
  families: z.array(FontFamily).meta({
    description:
      'Addition: every family designs can use (library, bundled, installed), then with ?search= the font catalogue families whose name contains it; at most ?limit= (default 50, at most 200).',
  }),
  catalogue_families: z.int().meta({ description: 'Addition: how many families the font catalogue (the Google Fonts collection) has.' }),
});
export type FontList = z.infer<typeof FontList>;

export const UploadResult = z.object({
  result: z.enum(['success', 'error']),
  url: z.string().meta({ description: 'On success: use it as path, background.path or image_url in overrides.' }).optional(),
  reason: z.string().meta({ description: 'On error: what is wrong.' }).optional(),
});
export type UploadResult = z.infer<typeof UploadResult>;

export const ErrorBody = z.object({
  error: z.string().meta({ description: 'Stable code, e.g. validation_error, task_not_found, rate_limited.' }),
  description: z.string().meta({ description: 'What is wrong and how to fix it; includes the JSON path for validation errors.' }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const VersionConflictBody = ErrorBody.extend({
  error: z.literal('version_conflict'),
  latest_version: z
    .int()
    .min(1)
    .meta({ description: 'The latest saved version: load it and save again with it as base_version, or save the edits as a new design.' }),
}).meta({ description: 'A save made on a version that is no longer the latest (409): nothing was stored.' });
export type VersionConflictBody = z.infer<typeof VersionConflictBody>;
