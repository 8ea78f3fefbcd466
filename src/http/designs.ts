// The account's designs over HTTP (additions to the spec, under /public/v2): list them, describe one
// (named objects, the override schema each accepts, values, slides, prices), import or replace one
// from a zip of its folder, delete one. A thin adapter: the zip, the validation and the store are
// the service core's, the same as `imprint admin import-design`.
import '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ImprintError, validationError } from '../errors.js';
import { MAX_DESIGN_ZIP_BYTES, type ZipLimits } from '../service/design-zip.js';
import type { Service } from '../service/service.js';
import { accountGuard, fail } from './auth.js';
import { BodyTooLarge, MULTIPART_OVERHEAD } from './body-limits.js';
import { readUpload, UploadRefusal } from './interface-a.js';
import type { RateLimiter } from '../store/limits/rate-limiter.js';

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
async function readZipUpload(req: FastifyRequest): Promise<{ zip: Buffer; name?: string }> {
  if (!req.isMultipart())
    throw fail(
      'unsupported_media_type',
      'send the design as multipart/form-data with a file field named "file" (a zip of its folder) and an optional field "name"',
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

export async function designRoutes(app: FastifyInstance, { service, limiter, zipLimits }: DesignRoutesOptions): Promise<void> {
  const { guard } = accountGuard(service, limiter);

  app.get('/designs', { onRequest: guard }, async (req) => ({ designs: await service.listDesignSummaries(req.account!.id) }));

  app.get<{ Params: { id: string } }>('/designs/:id', { onRequest: guard }, async (req) => service.designDetail(req.account!, designId(req.params.id)));

  /** Import (no id) or replace (an id) from the zip: 201 or 200 with the design's detail. */
  const store = async (req: FastifyRequest, reply: FastifyReply, replace?: number) => {
    const account = req.account!;
    // A replacement of a design that is not there is refused before its zip is read.
    if (replace !== undefined) await service.getDesign(account.id, replace);
    const { zip, name } = await readZipUpload(req);
    const record = await service.importDesignZip(account.id, zip, {
      ...(name === undefined ? {} : { name }),
      ...(replace === undefined ? {} : { replace }),
      ...(zipLimits ? { limits: zipLimits } : {}),
    });
    return reply.status(replace === undefined ? 201 : 200).send(await service.describeDesign(account, record));
  };
  app.post('/designs', { onRequest: guard }, (req, reply) => store(req, reply));
  app.put<{ Params: { id: string } }>('/designs/:id', { onRequest: guard }, (req, reply) => store(req, reply, designId(req.params.id)));

  app.delete<{ Params: { id: string } }>('/designs/:id', { onRequest: guard }, async (req, reply) => {
    await service.deleteDesign(req.account!.id, designId(req.params.id));
    return reply.status(204).send();
  });
}
