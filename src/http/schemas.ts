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
