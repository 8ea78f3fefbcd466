// The OpenAPI 3.1 document of interface A and its additions (designs, tasks, account), generated from
// the zod schemas the server validates with and the published overrides schema, served at /public/v2/openapi.json.
import { z } from 'zod';
import { overridesJsonSchema } from '../design/json-schema.js';
import { MAX_DESIGN_ZIP_BYTES, MAX_ZIP_ENTRIES } from '../service/design-zip.js';
import { DESIGN_JSON_MAX_BYTES, DESIGN_NAME_MAX, DESIGN_VERSIONS_KEPT } from '../service/shapes.js';
import {
  AccountInfo,
  DesignDetail,
  DesignDraft,
  DesignList,
  DesignQuery,
  DesignSummary,
  DesignVersionList,
  DraftRequest,
  DraftSaved,
  DuplicateRequest,
  ErrorBody,
  NewDesignRequest,
  RenameRequest,
  SaveVersionRequest,
  VersionConflictBody,
  VersionListQuery,
  Font,
  FontList,
  PreviewRequest,
  PreviewResult,
  RenderAccepted,
  RenderRequest,
  Task,
  TaskList,
  ResultQuery,
  TaskListQuery,
  UploadResult,
} from './schemas.js';

const json = (schema: z.ZodType): Record<string, unknown> => {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  delete out.$schema;
  delete out.id;
  return out;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const content = (name: string) => ({ 'application/json': { schema: ref(name) } });
const error = (description: string) => ({ description, content: content('Error') });
/** A multipart body with one file field named "file" (uploads and fonts). */
const fileUpload = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: { type: 'object', properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } }, required: ['file'] },
    },
  },
};

/** A design zip: the file field "file" and an optional "name" (design import and replace). */
const designUpload = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        properties: {
          file: {
            type: 'string',
            contentMediaType: 'application/zip',
            description: `A zip of the design folder: design.json (or the folder's one .json file, whatever its name, such as a Polotno export's polotno.json; overrides.json aside) at its root or in its single top-level folder, and the files it names; at most ${MAX_DESIGN_ZIP_BYTES / 1048576} MB and ${MAX_ZIP_ENTRIES} entries.`,
          },
          name: {
            type: 'string',
            maxLength: DESIGN_NAME_MAX,
            description: "Shown in listings. Default: the zip's top-level folder (import) or the current name (replace).",
          },
        },
        required: ['file'],
      },
    },
  },
};

/** A JSON body of a design (at most DESIGN_JSON_MAX_BYTES). */
const designJson = (name: string, required = true) => ({ required, content: content(name) });
const MB = DESIGN_JSON_MAX_BYTES / 1048576;

/** The query parameters of a zod object schema, each with its own JSON Schema and description. */
function queryParameters(schema: z.ZodObject): Record<string, unknown>[] {
  const s = json(schema) as { properties: Record<string, { description?: string }>; required?: string[] };
  return Object.entries(s.properties).map(([name, p]) => ({
    name,
    in: 'query',
    required: (s.required ?? []).includes(name),
    description: p.description,
    schema: p,
  }));
}

const designIdParam = { name: 'design_id', in: 'path', required: true, schema: { type: 'integer' } };

export function openApiDocument(serverUrl: string, version: string): Record<string, unknown> {
  const render = json(RenderRequest) as { properties: Record<string, unknown> };
  const overrides = overridesJsonSchema();
  delete overrides.$schema;
  delete overrides.$id;
  render.properties.objects_overrides = ref('ObjectsOverrides');
  const preview = json(PreviewRequest) as { properties: Record<string, unknown> };
  preview.properties.objects_overrides = {
    description: (preview.properties.objects_overrides as { description?: string }).description,
    oneOf: [ref('ObjectsOverrides'), { type: 'array', maxItems: 1000, items: { type: 'object' } }],
  };
  const image = (type: string) => ({ schema: { type: 'string', contentMediaType: type } });
  const auth = {
    401: error('Missing or unknown API key (unauthorized)'),
    403: error('A member key: interface A is admin-only (forbidden)'),
    429: error("Over the plan's requests per minute (rate_limited); see Retry-After"),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Imprint interface A',
      version,
      description:
        'Render designs with overrides into png, jpg, pdf or mp4; upload images; poll tasks or receive a webhook. Every error body is {error, description}.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An admin API key of the account (imprint admin create-account prints one).' },
      },
      schemas: {
        RenderRequest: render,
        RenderAccepted: json(RenderAccepted),
        PreviewRequest: preview,
        PreviewResult: json(PreviewResult),
        Task: json(Task),
        UploadResult: json(UploadResult),
        Font: json(Font),
        FontList: json(FontList),
        Error: json(ErrorBody),
        DesignList: json(DesignList),
        DesignSummary: json(DesignSummary),
        DesignDetail: json(DesignDetail),
        NewDesignRequest: json(NewDesignRequest),
        SaveVersionRequest: json(SaveVersionRequest),
        DesignVersionList: json(DesignVersionList),
        RenameRequest: json(RenameRequest),
        DuplicateRequest: json(DuplicateRequest),
        DraftRequest: json(DraftRequest),
        DraftSaved: json(DraftSaved),
        DesignDraft: json(DesignDraft),
        VersionConflict: json(VersionConflictBody),
        TaskList: json(TaskList),
        Account: json(AccountInfo),
        ObjectsOverrides: overrides,
      },
    },
    paths: {
      '/public/v2/render': {
        post: {
          summary: 'Queue a render',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              schema: { type: 'string', maxLength: 255 },
              description: 'The same key and body within 24 h return the same task (no second render).',
            },
          ],
          requestBody: { required: true, content: content('RenderRequest') },
          responses: {
            202: { description: 'Queued', content: content('RenderAccepted') },
            400: error('validation_error: a field is wrong; description holds its JSON path'),
            404: error('design_not_found'),
            409: error('conflict: the Idempotency-Key was used with another body'),
            ...auth,
          },
        },
      },
      '/public/v2/preview': {
        post: {
          summary: 'Render a preview now (png or jpg, at most 1600 px on the long side; no task stored; an addition to the spec)',
          description:
            'The image bytes by default; with Accept: application/json, the image as a data URL with the fit report and warnings. ' +
            "Counted against the plan's requests per minute like every call; rendered in the service's preview threads.",
          requestBody: { required: true, content: content('PreviewRequest') },
          responses: {
            200: {
              description: 'The image (or, with Accept: application/json, the PreviewResult)',
              headers: {
                'x-imprint-scale': { description: 'The scale used (lower than asked when the long side would pass 1600 px)', schema: { type: 'number' } },
                'server-timing': { description: 'render;dur=<ms>: time spent in the service for this preview', schema: { type: 'string' } },
              },
              content: { 'image/png': image('image/png'), 'image/jpeg': image('image/jpeg'), 'application/json': { schema: ref('PreviewResult') } },
            },
            400: error('validation_error: a field is wrong (unknown object name, bad override, bad scale, time past the end); description holds its JSON path'),
            404: error('design_not_found'),
            413: error('payload_too_large: the body is larger than the limit'),
            415: error('unsupported_media_type: the body is not JSON'),
            ...auth,
            500: error('render_failed'),
            504: error('render_timeout: the preview took longer than the render time limit'),
          },
        },
      },
      '/public/v2/tasks/{task_id}': {
        get: {
          summary: 'Get a task',
          parameters: [{ name: 'task_id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            200: { description: 'The task', content: content('Task') },
            404: error('task_not_found'),
            ...auth,
            429: error("rate_limited: polled more than once per 5 s, or over the plan's rate"),
          },
        },
      },
      '/public/v2/upload': {
        post: {
          summary: 'Upload an image (png, jpeg, webp, gif or avif; at most 10 MB)',
          requestBody: fileUpload,
          responses: {
            201: { description: 'Stored; url is usable in overrides for 30 days', content: content('UploadResult') },
            400: { description: 'Not an image, corrupt, too many pixels, or no file field', content: content('UploadResult') },
            413: { description: 'Larger than 10 MB', content: content('UploadResult') },
            415: { description: 'Not multipart/form-data', content: content('UploadResult') },
            ...auth,
          },
        },
      },
      '/public/v2/fonts': {
        post: {
          summary: "Add a font to the account's library (TTF, OTF, WOFF, WOFF2; at most 20 MB; an addition to the spec)",
          requestBody: fileUpload,
          responses: {
            201: { description: "Added; the account's designs may name its family", content: content('Font') },
            200: { description: 'The same file is already in the library: that font', content: content('Font') },
            400: error('validation_error: not a font (sniffed from the bytes), corrupt, a collection, or no file field'),
            413: error('payload_too_large: larger than 20 MB'),
            415: error('unsupported_media_type: not multipart/form-data'),
            ...auth,
          },
        },
        get: {
          summary: "List the account's fonts and every family its designs can name; ?search= looks through the Google Fonts catalogue too",
          parameters: [
            {
              name: 'search',
              in: 'query',
              required: false,
              schema: { type: 'string', maxLength: 100 },
              description: 'Families whose name contains it (letters, digits, spaces), the catalogue included',
            },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
          ],
          responses: {
            200: { description: 'The library fonts, and the families by source', content: content('FontList') },
            400: error('validation_error: search or limit out of range'),
            ...auth,
          },
        },
      },
      '/public/v2/fonts/{font_id}': {
        delete: {
          summary: 'Remove a font from the library',
          parameters: [{ name: 'font_id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { 204: { description: 'Removed' }, 404: error('font_not_found'), ...auth },
        },
      },
      '/public/v2/designs': {
        get: {
          summary: "List the account's designs, newest first (an addition to the spec)",
          responses: { 200: { description: 'The designs with size, kind and length', content: content('DesignList') }, ...auth },
        },
        post: {
          summary:
            "Import a design from a zip of its folder (multipart; the same validation as imprint admin import-design), or make one from a template sent as JSON (the Studio's new design); an addition to the spec",
          description: `Either body makes the design's version 1. JSON: {name, design, assets?}, at most ${MB} MB; template errors are at their path under $.design.`,
          requestBody: { required: true, content: { ...designUpload.content, ...content('NewDesignRequest') } },
          responses: {
            201: { description: 'Made: the design with its named objects', content: content('DesignDetail') },
            400: error(
              'validation_error at $.file (not a zip, no design.json, more than 1000 entries, over 500 MB unpacked, a path with .. or an absolute one), or a template error at its JSON path ($.objects[2].font_size for a zip, $.design.objects[2].font_size for JSON), $.name, or $.assets["<path>"] (not an upload of this account, expired, a file the design does not use)',
            ),
            409: error('conflict at $.name (JSON only): another design of the account has the name'),
            413: error(`payload_too_large: the zip is over 100 MB, or the JSON over ${MB} MB`),
            415: error('unsupported_media_type: neither multipart/form-data nor application/json'),
            ...auth,
          },
        },
      },
      '/public/v2/designs/{design_id}': {
        get: {
          summary:
            'A design with its named objects, the override schema each accepts, their values, slides and video prices, at its latest version or ?version= (an addition to the spec)',
          parameters: [designIdParam, ...queryParameters(DesignQuery)],
          responses: {
            200: { description: 'The design', content: content('DesignDetail') },
            400: error('validation_error: version is not a positive integer, or an unknown parameter'),
            404: error('design_not_found, or version_not_found: the design does not keep that version (the message names those it keeps)'),
            ...auth,
          },
        },
        put: {
          summary: 'Replace a design from a zip of its folder: a new version, its id stays (an addition to the spec)',
          parameters: [designIdParam],
          requestBody: designUpload,
          responses: {
            200: { description: 'Replaced: the design with its named objects, at its new version', content: content('DesignDetail') },
            400: error('validation_error, as for POST /public/v2/designs'),
            404: error('design_not_found'),
            413: error('payload_too_large: the zip is over 100 MB'),
            415: error('unsupported_media_type: not multipart/form-data'),
            ...auth,
          },
        },
        patch: {
          summary: 'Rename a design (no new version; an addition to the spec)',
          parameters: [designIdParam],
          requestBody: designJson('RenameRequest'),
          responses: {
            200: { description: 'Renamed: the design as listed', content: content('DesignSummary') },
            400: error(`validation_error at $.name: not 1 to ${DESIGN_NAME_MAX} printable characters`),
            404: error('design_not_found'),
            409: error('conflict at $.name: another design of the account has the name'),
            415: error('unsupported_media_type: not application/json'),
            ...auth,
          },
        },
        delete: {
          summary: 'Delete a design with its versions and draft (an addition to the spec); its files stay one day for renders under way',
          parameters: [designIdParam],
          responses: { 204: { description: 'Deleted' }, 404: error('design_not_found'), ...auth },
        },
      },
      '/public/v2/designs/{design_id}/template': {
        get: {
          summary: "A saved version's template as stored, the JSON a save takes back (an addition to the spec, for the Studio's editor)",
          parameters: [designIdParam, ...queryParameters(DesignQuery)],
          responses: {
            200: {
              description: 'The template (docs/template-format.md); the header X-Imprint-Design-Version names its version',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            404: error('design_not_found, or version_not_found for a ?version= the design does not keep'),
            ...auth,
          },
        },
      },
      '/public/v2/designs/{design_id}/versions': {
        get: {
          summary: `A design's saved versions, newest first (the last ${DESIGN_VERSIONS_KEPT} are kept; an addition to the spec)`,
          parameters: [designIdParam, ...queryParameters(VersionListQuery)],
          responses: {
            200: { description: 'A page of versions; the next page is ?before=<the last version of this one>', content: content('DesignVersionList') },
            400: error('validation_error: limit not 1-100, before not a positive integer, or an unknown parameter'),
            404: error('design_not_found'),
            ...auth,
          },
        },
        post: {
          summary: "Save a new version of a design, made on base_version (an addition to the spec); drops the design's draft",
          description: `The template is checked as an import is (errors at their path under $.design). Files it names come from assets (uploads, copied into the design) or from the design's earlier versions. At most ${MB} MB.`,
          parameters: [designIdParam],
          requestBody: designJson('SaveVersionRequest'),
          responses: {
            201: { description: 'Saved: the design at its new version', content: content('DesignDetail') },
            400: error('validation_error: a template error at $.design…, $.assets["<path>"], or $.base_version above the latest'),
            404: error('design_not_found'),
            409: { description: 'version_conflict: another version was saved since base_version; nothing was stored', content: content('VersionConflict') },
            413: error(`payload_too_large: over ${MB} MB`),
            415: error('unsupported_media_type: not application/json'),
            ...auth,
          },
        },
      },
      '/public/v2/designs/{design_id}/duplicate': {
        post: {
          summary: 'A new design made of the latest version of this one, its files shared (an addition to the spec)',
          parameters: [designIdParam],
          requestBody: designJson('DuplicateRequest', false),
          responses: {
            201: { description: 'Made: the new design at its version 1', content: content('DesignDetail') },
            400: error('validation_error at $.name'),
            404: error('design_not_found'),
            409: error('conflict at $.name: another design of the account has the name'),
            415: error('unsupported_media_type: a body that is not application/json'),
            ...auth,
          },
        },
      },
      '/public/v2/designs/{design_id}/draft': {
        put: {
          summary: "Store the design's one autosaved draft, replacing the one before (an addition to the spec); never rendered",
          parameters: [designIdParam],
          requestBody: designJson('DraftRequest'),
          responses: {
            200: { description: 'Stored', content: content('DraftSaved') },
            400: error('validation_error: the body is not JSON, design is not an object, base_version above the latest'),
            404: error('design_not_found'),
            413: error(`payload_too_large: over ${MB} MB`),
            415: error('unsupported_media_type: not application/json'),
            ...auth,
          },
        },
        get: {
          summary: "The design's draft (an addition to the spec)",
          parameters: [designIdParam],
          responses: { 200: { description: 'The draft', content: content('DesignDraft') }, 404: error('design_not_found, or draft_not_found'), ...auth },
        },
        delete: {
          summary: "Drop the design's draft (an addition to the spec)",
          parameters: [designIdParam],
          responses: { 204: { description: 'Dropped' }, 404: error('design_not_found, or draft_not_found'), ...auth },
        },
      },
      '/public/v2/tasks': {
        get: {
          summary: "The account's tasks of both interfaces, newest first (an addition to the spec)",
          parameters: queryParameters(TaskListQuery),
          responses: {
            200: { description: 'A page of tasks; the next page is ?before=<id of the last one>', content: content('TaskList') },
            400: error('validation_error: limit not 1-100, before not a task id, or an unknown parameter'),
            ...auth,
          },
        },
      },
      '/public/v2/tasks/{task_id}/events': {
        get: {
          summary: "Follow a task's state as server-sent events (an addition to the spec; not a status address: the 5 s polling rule does not apply)",
          description:
            'text/event-stream: `event: task` with the task body as its status address answers it (A2 for an interface A task, B2 for an interface B task) at once and on every change, then the stream ends after done or error; while an mp4 renders, `event: progress` with the same body whenever only its `progress` moved (about 3 a second at most); a `: keep-alive` comment every 15 s. One request against the rate limit; not subject to the 5 s polling rule. A browser reads it with fetch() (EventSource cannot send the Authorization header) and stops on done or error.',
          parameters: [{ name: 'task_id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            200: { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
            404: error('task_not_found'),
            ...auth,
            429: error("rate_limited: over the plan's rate, or 20 streams of the account already open"),
          },
        },
      },
      '/public/v2/account': {
        get: {
          summary: "The key's account: plan, balance, rate limit, interface B's rates and renders left today (an addition to the spec)",
          responses: { 200: { description: 'The account', content: content('Account') }, ...auth },
        },
      },
      '/public/v2/results/{file}': {
        get: {
          summary: 'Download a result (the URL from a done task; no key needed, kept 30 days)',
          security: [],
          parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }, ...queryParameters(ResultQuery)],
          responses: {
            200: { description: 'The file, with its content type' },
            400: error('validation_error: a download name over 120 characters'),
            302: { description: 'Redirect to a short-lived presigned URL (S3 blobs)' },
            404: error('not_found: unknown or expired'),
          },
        },
      },
    },
  };
}
