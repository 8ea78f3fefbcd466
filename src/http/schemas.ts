// Interface A's request and response bodies as zod schemas: the server validates with them and the
// OpenAPI document is generated from them, so the two cannot drift apart. A field that is an engine
// option (quality, missing_fonts, time) takes the engine's schema, with the API's description.
import { z } from 'zod';
import { RenderOptionsSchema } from '../render/options.js';
import { PREVIEW_MAX_SIDE } from '../service/answers.js';
import { DesignAssets, TemplateJson } from '../service/shapes.js';
import { TASK_FORMATS, TaskOptions } from '../service/tasks.js';

// The answer and listing shapes are the service's (one source, which the Studio's types also come from).
export {
  ErrorBody,
  Font,
  FontList,
  FontSubstitution,
  PreviewResult,
  RenderAccepted,
  RenderWarning,
  Task,
  TextFitReport,
  UploadResult,
  VersionConflictBody,
} from '../service/answers.js';
export {
  AccountInfo,
  Box,
  DesignAssets,
  DesignDetail,
  DesignDraft,
  DesignList,
  DesignSummary,
  DesignVersionInfo,
  DesignVersionList,
  DraftRequest,
  DraftSaved,
  DuplicateRequest,
  NewDesignRequest,
  RenameRequest,
  SaveVersionRequest,
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
  design_version: z
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({
      description:
        'Addition to the spec: the saved version of the design to render (GET /public/v2/designs/<id>/versions lists them); default the latest. A version the design does not keep is a validation_error at $.design_version. Drafts are never rendered.',
      examples: [3],
    })
    .optional(),
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
  design_version: RenderRequest.shape.design_version,
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
  design: TemplateJson.meta({
    description:
      "Addition for the Studio's editor: the design as edited and not saved yet (an Imprint template), previewed in place of the saved version that design_version names (default the latest), whose files it may name. Its errors are at $.design…. Renders (POST /public/v2/render) only ever use saved versions.",
  }).optional(),
  assets: DesignAssets.meta({
    description:
      'With design: images the edited design names that are uploads not saved into it yet (relative path → the URL POST /public/v2/upload returned), as a save (POST /public/v2/designs/<id>/versions) takes them.',
  }).optional(),
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

export const DesignQuery = z.strictObject({
  version: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ description: 'An addition: describe this saved version (GET /public/v2/designs/<id>/versions lists them); default the latest.' })
    .optional(),
});

export const VersionListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'How many versions, 1-100 (default 20).' }),
  before: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ description: 'Only versions below this number: the last version of the previous page.' })
    .optional(),
});
