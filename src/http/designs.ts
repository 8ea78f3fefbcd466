// The account's designs over HTTP (additions to the spec, under /public/v2): list them, describe one
// (named objects, the override schema each accepts, values, slides, prices) at its latest or another
// saved version, import or replace one from a zip of its folder, delete one; and the Studio's editing
// (issue 31): make one from a template sent as JSON, save versions, list them, keep a draft, rename,
// duplicate. A thin adapter: the zip, the validation and the store are the service core's, the same
// as `imprint admin import-design`.
import '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ImprintError, validationError } from '../errors.js';
import { issueToError } from '../format/zod-error.js';
import { MAX_DESIGN_ZIP_BYTES, type ZipLimits } from '../service/design-zip.js';
import type { Service } from '../service/service.js';
import { DESIGN_JSON_MAX_BYTES } from '../service/shapes.js';
import { accountGuard, fail } from './auth.js';
import { BodyTooLarge, MULTIPART_OVERHEAD } from './body-limits.js';
import { jsonDepth } from './errors.js';
import { readUpload, UploadRefusal } from './interface-a.js';
import type { RateLimiter } from '../store/limits/rate-limiter.js';
import { DesignQuery, DraftRequest, DuplicateRequest, NewDesignRequest, RenameRequest, SaveVersionRequest, VersionListQuery } from './schemas.js';

export interface DesignRoutesOptions {
  service: Service;
  limiter: RateLimiter;
  /** Limits of a zip's contents (entries, unpacked bytes); default the service's. */
  zipLimits?: ZipLimits;
}

/** The text fields a design upload may carry beside its file. */
const FORM_FIELDS = new Set(['name']);

/** A design id from the path; anything that is not one is a design this account does not have. */
function designId(param: string): number {
  if (!/^\d{1,15}$/.test(param))
    throw new ImprintError('design_not_found', '$.design_id', `no design "${param.slice(0, 40)}": design ids are positive integers`);
  return Number(param);
}

const tooLarge = `the zip is larger than ${MAX_DESIGN_ZIP_BYTES / 1048576} MB: leave out files the design does not use, or make its images and clips smaller (reading stopped at the limit)`;

/** The zip and the form's fields of a design upload; reading stops at the zip's limit. */
async function readZipUpload(req: FastifyRequest, replace: boolean): Promise<{ zip: Buffer; name?: string }> {
  if (!req.isMultipart())
    throw fail(
      'unsupported_media_type',
      `send the design as multipart/form-data with a file field named "file" (a zip of its folder) and an optional field "name"${replace ? ' (a new version from JSON: POST /public/v2/designs/<id>/versions)' : ', or as application/json {"name": …, "design": …}'}`,
    );
  if (Number(req.headers['content-length']) > MAX_DESIGN_ZIP_BYTES + MULTIPART_OVERHEAD) throw fail('payload_too_large', tooLarge);
  const fields = new Map<string, string>();
  let zip: Buffer | undefined;
  try {
    zip = await readUpload(req, MAX_DESIGN_ZIP_BYTES, fields);
  } catch (e) {
    if (e instanceof UploadRefusal) throw validationError('$.file', e.message);
    const code = (e as { code?: string }).code;
    if (e instanceof BodyTooLarge || code === 'FST_REQ_FILE_TOO_LARGE') throw fail('payload_too_large', tooLarge);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw validationError('$.file', 'send one file field named "file" and at most a field "name"');
    throw validationError(
      '$.file',
      `the multipart body cannot be read (${(e as Error).message.slice(0, 120)}): send multipart/form-data with a file field named "file"`,
    );
  }
  for (const field of fields.keys()) {
    if (!FORM_FIELDS.has(field))
      throw validationError(`$.${field.slice(0, 40)}`, `unknown field "${field.slice(0, 40)}": send a file field "file" and optionally "name"`);
  }
  if (!zip) throw validationError('$.file', 'no file: send the zip of the design folder as a file field named "file"');
  const name = fields.get('name');
  return { zip, ...(name === undefined ? {} : { name }) };
}

/** How deep a design's JSON may nest (templates nest a few levels; this bounds the walks over it). */
const MAX_DESIGN_DEPTH = 64;

const isJson = (req: FastifyRequest) => /^application\/json\b/i.test(req.headers['content-type'] ?? '');

/** A JSON body checked against its schema: 415 when it is not JSON, the schema's validation_error with its path otherwise. */
function jsonBody<T extends z.ZodType>(req: FastifyRequest, schema: T, what: string, optional = false): z.infer<T> {
  let body = req.body;
  if (body === undefined && optional && !isJson(req)) body = {};
  else if (!isJson(req)) throw fail('unsupported_media_type', `send ${what} as application/json`);
  if (jsonDepth(body, MAX_DESIGN_DEPTH) > MAX_DESIGN_DEPTH) throw validationError('$', `the body nests deeper than ${MAX_DESIGN_DEPTH} levels: flatten it`);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw issueToError(parsed.error.issues[0]!, body, { root: '$' });
  return parsed.data;
}

/** A query string checked against its schema. */
function query<T extends z.ZodObject>(req: FastifyRequest, schema: T): z.infer<T> {
  const q = req.query ?? {};
  const parsed = schema.safeParse(q);
  if (!parsed.success) throw issueToError(parsed.error.issues[0]!, q, { root: '$', schema, describe: (p) => (p.length === 0 ? 'the query' : undefined) });
  return parsed.data;
}

const jsonTooLarge = `the body is larger than ${DESIGN_JSON_MAX_BYTES / 1048576} MB, the limit of a design's JSON: keep images as files (upload them and name them in "assets"), not data URLs`;

/** A JSON body of a design refused on its Content-Length before it is read (a zip upload has its own limit). */
async function designJsonLimit(req: FastifyRequest): Promise<void> {
  if (isJson(req) && Number(req.headers['content-length']) > DESIGN_JSON_MAX_BYTES) throw fail('payload_too_large', jsonTooLarge);
}

export async function designRoutes(app: FastifyInstance, { service, limiter, zipLimits }: DesignRoutesOptions): Promise<void> {
  const { guard } = accountGuard(service, limiter);
  // Bodies here are JSON or a multipart zip (415 otherwise). Scoped to this plugin.
  app.removeContentTypeParser('text/plain');
  /** Routes that take a design's JSON: the key first, then its size, then its body (at most DESIGN_JSON_MAX_BYTES). */
  const withJson = { onRequest: [guard, designJsonLimit], bodyLimit: DESIGN_JSON_MAX_BYTES };

  app.get('/designs', { onRequest: guard }, async (req) => ({ designs: await service.listDesignSummaries(req.account!.id) }));

  app.get<{ Params: { id: string } }>('/designs/:id', { onRequest: guard }, async (req) =>
    service.designDetail(req.account!, designId(req.params.id), query(req, DesignQuery).version),
  );

  // An addition for the Studio's editor: the template of a saved version as it is stored (the JSON a
  // save takes back), with its version in a header. ?version=N, default the latest.
  app.get<{ Params: { id: string } }>('/designs/:id/template', { onRequest: guard }, async (req, reply) => {
    const record = await service.getDesign(req.account!.id, designId(req.params.id), { version: query(req, DesignQuery).version });
    return reply.header('x-imprint-design-version', String(record.version)).send(record.template);
  });

  /** Import (no id) or replace (an id) from the zip: 201 or 200 with the design's detail. */
  const store = async (req: FastifyRequest, reply: FastifyReply, replace?: number) => {
    const account = req.account!;
    // A replacement of a design that is not there is refused before its zip is read.
    if (replace !== undefined) await service.getDesign(account.id, replace);
    const { zip, name } = await readZipUpload(req, replace !== undefined);
    const record = await service.importDesignZip(account.id, zip, {
      ...(name === undefined ? {} : { name }),
      ...(replace === undefined ? {} : { replace }),
      ...(zipLimits ? { limits: zipLimits } : {}),
    });
    return reply.status(replace === undefined ? 201 : 200).send(await service.describeDesign(account, record));
  };
  // A new design: a zip of its folder (multipart), or a template as JSON (the Studio's new design).
  app.post('/designs', withJson, async (req, reply) => {
    if (!isJson(req)) return store(req, reply);
    const account = req.account!;
    const record = await service.createDesign(account, jsonBody(req, NewDesignRequest, 'the design'));
    return reply.status(201).send(await service.describeDesign(account, record));
  });
  app.put<{ Params: { id: string } }>('/designs/:id', { onRequest: guard }, (req, reply) => store(req, reply, designId(req.params.id)));

  app.patch<{ Params: { id: string } }>('/designs/:id', withJson, async (req) =>
    service.renameDesign(req.account!, designId(req.params.id), jsonBody(req, RenameRequest, '{"name": …}')),
  );

  app.delete<{ Params: { id: string } }>('/designs/:id', { onRequest: guard }, async (req, reply) => {
    await service.deleteDesign(req.account!.id, designId(req.params.id));
    return reply.status(204).send();
  });

  // ── versions ────────────────────────────────────────────────────────────────────────────────
  app.get<{ Params: { id: string } }>('/designs/:id/versions', { onRequest: guard }, async (req) => {
    const id = designId(req.params.id);
    return service.listDesignVersions(req.account!, id, query(req, VersionListQuery));
  });
  app.post<{ Params: { id: string } }>('/designs/:id/versions', withJson, async (req, reply) => {
    const account = req.account!;
    const id = designId(req.params.id);
    const record = await service.saveDesignVersion(account, id, jsonBody(req, SaveVersionRequest, '{"design": …, "base_version": …}'));
    return reply.status(201).send(await service.describeDesign(account, record));
  });

  app.post<{ Params: { id: string } }>('/designs/:id/duplicate', withJson, async (req, reply) => {
    const account = req.account!;
    const id = designId(req.params.id);
    const record = await service.duplicateDesign(account, id, jsonBody(req, DuplicateRequest, '{"name": …} (or no body)', true));
    return reply.status(201).send(await service.describeDesign(account, record));
  });

  // ── the draft (autosave) ────────────────────────────────────────────────────────────────────
  app.put<{ Params: { id: string } }>('/designs/:id/draft', withJson, async (req) => {
    const id = designId(req.params.id);
    return service.putDraft(req.account!, id, jsonBody(req, DraftRequest, '{"design": …, "base_version": …}'));
  });
  app.get<{ Params: { id: string } }>('/designs/:id/draft', { onRequest: guard }, async (req) => service.getDraft(req.account!, designId(req.params.id)));
  app.delete<{ Params: { id: string } }>('/designs/:id/draft', { onRequest: guard }, async (req, reply) => {
    await service.deleteDraft(req.account!, designId(req.params.id));
    return reply.status(204).send();
  });
}
