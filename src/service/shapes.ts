// The JSON the service answers with beyond a render (an account's designs, a design's named objects,
// its slides and prices, its versions and draft, the task list, the account, the font families, a
// task's progress), and the bodies the Studio sends to make, save and draft designs, as zod
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
    created_at: isoTime('When it was imported (or created).'),
    updated_at: isoTime('When its latest version was saved, or it was renamed.'),
    latest_version: z
      .int()
      .min(1)
      .meta({
        description: 'An addition: the number of its latest saved version, the one renders use unless they name design_version.',
        examples: [3],
      }),
    has_draft: z.boolean().meta({ description: 'An addition: an autosaved draft of it is kept (GET /public/v2/designs/<id>/draft).' }),
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
  version: z
    .int()
    .min(1)
    .meta({
      description: 'An addition: the version described: the one asked for with ?version=, by default the latest (latest_version).',
      examples: [3],
    }),
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

// ── the Studio's designs (issue 31, additions): versions, drafts, create from JSON, rename, duplicate ──

/** The longest design name, in characters (after trimming). */
export const DESIGN_NAME_MAX = 120;
/** The largest JSON body of a design made, saved or drafted over HTTP. */
export const DESIGN_JSON_MAX_BYTES = 2 * 1024 * 1024;
/** Versions kept per design: saving one more drops the oldest (and the files only it used, a day later). */
export const DESIGN_VERSIONS_KEPT = 100;
/** Files a design's `assets` map may name at once. */
export const DESIGN_ASSETS_MAX = 200;
export const DESIGN_NAME_RULE = `give the design a name of 1 to ${DESIGN_NAME_MAX} printable characters`;

const DesignName = z.string({ error: DESIGN_NAME_RULE }).meta({
  description: `1 to ${DESIGN_NAME_MAX} printable characters once trimmed; no other design of the account may have it.`,
  maxLength: DESIGN_NAME_MAX,
  examples: ['Summer sale post'],
});

export const TemplateJson = z.record(z.string(), z.unknown(), { error: 'expected the design as a JSON object: a template (docs/template-format.md)' }).meta({
  description: 'A design template (docs/template-format.md, docs/template.schema.json), or a Polotno document, as a zip import takes it.',
  examples: [{ width: 1080, height: 1080, background: { type: 'color', color: '#ffffff' }, objects: [] }],
});

export const DesignAssets = z.record(z.string(), z.string()).meta({
  description: `Files the template names that are not yet the design's: relative path as the template writes it (an image's path) → the URL POST /public/v2/upload returned, of this account and not expired. The file is copied into the design, so it keeps working after the upload expires. At most ${DESIGN_ASSETS_MAX}; a path the template does not use is refused. Files of earlier versions need no entry.`,
  examples: [{ 'photo.jpg': 'http://localhost:3000/public/v2/uploads/3f2a9c417be04c1d8e2f6a0b5c9d7e13.jpg' }],
});
export type DesignAssets = z.infer<typeof DesignAssets>;

export const NewDesignRequest = z
  .strictObject({ name: DesignName, design: TemplateJson, assets: DesignAssets.optional() })
  .meta({ description: 'POST /public/v2/designs with Content-Type: application/json: a design made from a template (its version 1).' });
export type NewDesignRequest = z.infer<typeof NewDesignRequest>;

const BaseVersion = z.int({ error: 'expected the number of the version the edits started from (an integer, 1 or more)' }).min(1).max(Number.MAX_SAFE_INTEGER);

export const SaveVersionRequest = z
  .strictObject({
    design: TemplateJson,
    base_version: BaseVersion.meta({
      description: 'The version the edits were made on; when another version was saved since, the save is refused with 409 version_conflict.',
      examples: [3],
    }),
    assets: DesignAssets.optional(),
  })
  .meta({ description: 'POST /public/v2/designs/<id>/versions: a new version, checked as an import is.' });
export type SaveVersionRequest = z.infer<typeof SaveVersionRequest>;

export const DraftRequest = z
  .strictObject({
    design: TemplateJson.meta({ description: 'The template as the editor has it; it need not be valid yet (it is never rendered).' }),
    base_version: BaseVersion.meta({ description: 'The version the draft was edited from (a version the design has).', examples: [3] }),
    assets: z
      .record(z.string(), z.string())
      .meta({ description: "The draft's pending files (relative path → upload URL), kept as sent and checked when a version is saved." })
      .optional(),
  })
  .meta({ description: `PUT /public/v2/designs/<id>/draft: the design's one draft, replaced; the body is at most ${DESIGN_JSON_MAX_BYTES / 1048576} MB.` });
export type DraftRequest = z.infer<typeof DraftRequest>;

export const RenameRequest = z.strictObject({ name: DesignName }).meta({ description: 'PATCH /public/v2/designs/<id>: a new name.' });
export type RenameRequest = z.infer<typeof RenameRequest>;

export const DuplicateRequest = z
  .strictObject({ name: DesignName.meta({ description: 'Default: "<name> copy" (then "copy 2", …).' }).optional() })
  .meta({ description: 'POST /public/v2/designs/<id>/duplicate: a new design made of its latest version.' });
export type DuplicateRequest = z.infer<typeof DuplicateRequest>;

export const DesignVersionInfo = z
  .strictObject({
    version: z
      .int()
      .min(1)
      .meta({ examples: [3] }),
    created_at: isoTime('When it was saved.'),
    kind: DesignSummary.shape.kind,
    width: DesignSummary.shape.width,
    height: DesignSummary.shape.height,
    duration: DesignSummary.shape.duration,
    size: z.int().meta({ description: 'Bytes of its template (JSON).', examples: [3822] }),
    files: z.int().meta({ description: 'Files it uses (images, fonts, clips), each counted once.', examples: [2] }),
  })
  .meta({ description: 'A saved version of a design.' });
export type DesignVersionInfo = z.infer<typeof DesignVersionInfo>;

export const DesignVersionList = z
  .strictObject({
    design_id: z.int(),
    latest_version: z.int().min(1),
    oldest_version: z
      .int()
      .min(1)
      .meta({ description: `The oldest version kept (the last ${DESIGN_VERSIONS_KEPT} are).` }),
    versions: z.array(DesignVersionInfo).meta({ description: 'Newest first; the next page is ?before=<the last version of this one>.' }),
  })
  .meta({ description: "A design's saved versions." });
export type DesignVersionList = z.infer<typeof DesignVersionList>;

export const DraftSaved = z
  .strictObject({
    design_id: z.int(),
    base_version: z.int().min(1).meta({ description: 'The version the draft was edited from.' }),
    latest_version: z.int().min(1).meta({ description: 'The latest saved version now: when it is above base_version, another save came since.' }),
    updated_at: isoTime('When the draft was stored.'),
  })
  .meta({ description: 'The answer of PUT /public/v2/designs/<id>/draft.' });
export type DraftSaved = z.infer<typeof DraftSaved>;

export const DesignDraft = DraftSaved.extend({
  design: z.record(z.string(), z.unknown()).meta({ description: 'The template as the editor last sent it.' }),
  assets: z.record(z.string(), z.string()).meta({ description: 'Its pending files as sent ({} when none).' }),
}).meta({ description: "A design's autosaved draft (GET /public/v2/designs/<id>/draft)." });
export type DesignDraft = z.infer<typeof DesignDraft>;

export const TaskListItem = z
  .strictObject({
    id: z.int(),
    interface: z.enum(['A', 'B']).meta({ description: 'A: a render of A1 (status at /public/v2/tasks/<id>); B: a video of B1 (/api/queue/<id>/).' }),
    design_id: z.int().meta({ description: 'The design (video_id in interface B).' }),
    design_version: z
      .int()
      .min(1)
      .meta({
        description:
          'An addition: the version of the design it renders (the latest when it was queued, unless the request named one); absent for tasks queued before versions.',
        examples: [3],
      })
      .optional(),
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
