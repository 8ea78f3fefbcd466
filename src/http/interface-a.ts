// Interface A (/public/v2): render, task status, upload, results, as a thin Fastify adapter over the
// service core. Authentication and rate limits run before the body is read; validation and
// everything else is the core's, so the library, the CLI and HTTP refuse the same input the same way.
import '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { issueToError } from '../format/zod-error.js';
import { ImprintError, validationError } from '../errors.js';
import type { Service } from '../service/service.js';
import { taskBodyA } from '../service/task-view.js';
import { MAX_UPLOAD_BYTES } from '../service/uploads.js';
import { fontJson, MAX_FONT_FILE_BYTES } from '../service/fonts.js';
import { bodyLimit, BodyTooLarge, MAX_UPLOAD_BODY, MULTIPART_OVERHEAD, stopReading } from './body-limits.js';
import { jsonDepth } from './errors.js';
import { accountGuard, fail, type AccountGuard } from './auth.js';
import type { RateLimiter } from '../store/limits/rate-limiter.js';
import { RenderRequest, ResultQuery } from './schemas.js';

export interface InterfaceAOptions {
  service: Service;
  limiter: RateLimiter;
  /** The server's account guard, shared with the other /public/v2 route families; default: one of its own. */
  access?: AccountGuard;
}

const MAX_JSON_DEPTH = 32;

/** An upload refused for its shape (400), found while reading it. */
export class UploadRefusal extends Error {}

/**
 * The bytes of an upload's one file, or undefined when it has none. Reading stops at the limit: at
 * the file's `maxBytes` (busboy's 'limit'), or when the whole body passes it plus MULTIPART_OVERHEAD
 * (fields, preamble or epilogue that busboy would read and drop), whatever it declared. Text fields
 * go into `fields` when given (the multipart plugin limits them to 10 of 1 KB).
 */
export async function readUpload(req: FastifyRequest, maxBytes = MAX_UPLOAD_BYTES, fields?: Map<string, string>): Promise<Buffer | undefined> {
  const parts = req.parts({ limits: { fileSize: maxBytes } });
  // The first next() pipes the request into busboy: the byte count is attached after it.
  let next = parts.next();
  const over = bodyLimit(req.raw, maxBytes + MULTIPART_OVERHEAD);
  let bytes: Buffer | undefined;
  for (let r = await Promise.race([next, over]); !r.done; r = await Promise.race([next, over])) {
    const part = r.value;
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw new UploadRefusal(`the file field is named "${part.fieldname.slice(0, 40)}": name it "file"`);
      if (bytes) throw new UploadRefusal('send one file per upload');
      bytes = await Promise.race([fileBytes(req.raw, part.file, maxBytes), over]);
    } else if (fields && typeof part.value === 'string') fields.set(part.fieldname, part.value);
    next = parts.next();
  }
  return bytes;
}

/** A file part's bytes; busboy's 'limit' means it passed `maxBytes`, and reading stops there. */
function fileBytes(raw: FastifyRequest['raw'], file: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.on('data', (chunk: Buffer) => chunks.push(chunk));
    file.once('limit', () => {
      stopReading(raw);
      reject(new BodyTooLarge(maxBytes));
    });
    file.once('end', () => resolve(Buffer.concat(chunks)));
    file.once('error', reject);
  });
}

export async function interfaceA(app: FastifyInstance, { service, limiter, access }: InterfaceAOptions): Promise<void> {
  const { ctx } = service;
  const { seconds, limited, open, guard } = access ?? accountGuard(service, limiter);
  // Fastify parses text/plain by default; here a render body must be JSON (415 otherwise), and an
  // upload multipart. Scoped to this plugin.
  app.removeContentTypeParser('text/plain');

  // ── A1: queue a render ──────────────────────────────────────────────────────────────────────
  app.post('/render', { onRequest: guard }, async (req, reply) => {
    const account = req.account!;
    // multipart/form-data has a parser (for uploads) that leaves the body empty: it is not JSON either.
    if (req.isMultipart()) throw fail('unsupported_media_type', 'send the body as application/json (uploads: multipart/form-data)');
    const body = req.body;
    if (jsonDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw validationError('$', `the body nests deeper than ${MAX_JSON_DEPTH} levels: flatten it`);
    const parsed = RenderRequest.safeParse(body);
    if (!parsed.success) throw issueToError(parsed.error.issues[0]!, body, { root: '$' });
    const idemKey = req.headers['idempotency-key'];
    const { task, replayed, statusUrl } = await service.createRender(account, parsed.data, Array.isArray(idemKey) ? idemKey.join(',') : idemKey);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(202).send({ task_id: task.id, status_url: statusUrl });
  });

  // ── A2: get a task ──────────────────────────────────────────────────────────────────────────
  app.get<{ Params: { id: string } }>('/tasks/:id', { onRequest: guard }, async (req, reply) => {
    const account = req.account!;
    if (!/^\d{1,15}$/.test(req.params.id))
      throw new ImprintError('task_not_found', '$.task_id', `no task "${req.params.id.slice(0, 40)}": task ids are positive integers`);
    if (ctx.config.pollIntervalMs > 0) {
      // Keyed by the number, so /tasks/01 is the same status address as /tasks/1.
      const poll = await limited('poll', () => limiter.hit(`poll:${account.id}:${Number(req.params.id)}`, 1, ctx.config.pollIntervalMs), open(1));
      if (!poll.allowed) {
        const strikes = await limited('strike', () => limiter.strike(`strikes:${req.keyHash}`, 60_000), 0);
        if (strikes >= ctx.config.pollStrikes) await limited('block', () => limiter.block(`block:${req.keyHash}`, ctx.config.pollBlockMs), undefined);
        throw fail(
          'rate_limited',
          `poll each status address at most once per ${ctx.config.pollIntervalMs / 1000} s (or give a webhook_url); repeated polling blocks the key for a while`,
          {
            'retry-after': seconds(poll.resetMs),
          },
        );
      }
    }
    return reply.send(taskBodyA(ctx, await service.getRenderTask(account.id, req.params.id)));
  });

  // ── A3: upload an image ─────────────────────────────────────────────────────────────────────
  const tooLarge = `the upload is larger than ${MAX_UPLOAD_BYTES / 1048576} MB: uploads are limited to 10 MB (reading stopped at the limit)`;
  app.post('/upload', { onRequest: guard }, async (req, reply) => {
    const account = req.account!;
    // A refusal before the body has all arrived stops reading it and closes the connection (closeUnreadBody).
    const refuse = (status: number, reason: string) => reply.status(status).send({ result: 'error', reason });
    if (!req.isMultipart()) return refuse(415, 'send the image as multipart/form-data with a file field named "file"');
    // A declared length over the limit is refused before a byte of the body is read.
    if (Number(req.headers['content-length']) > MAX_UPLOAD_BODY) return refuse(413, tooLarge);
    let bytes: Buffer | undefined;
    try {
      bytes = await readUpload(req);
    } catch (e) {
      if (e instanceof UploadRefusal) return refuse(400, e.message);
      const code = (e as { code?: string }).code;
      if (e instanceof BodyTooLarge || code === 'FST_REQ_FILE_TOO_LARGE') return refuse(413, tooLarge);
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
        return refuse(400, 'send one file field named "file" and nothing else');
      return refuse(400, `the multipart body cannot be read (${(e as Error).message.slice(0, 120)}): send multipart/form-data with a file field named "file"`);
    }
    if (!bytes) return refuse(400, 'no file: send multipart/form-data with a file field named "file"');
    try {
      const { url } = await service.createUpload(account.id, bytes);
      return reply.status(201).send({ result: 'success', url });
    } catch (e) {
      if (e instanceof ImprintError && e.code === 'validation_error') return refuse(400, e.message);
      throw e;
    }
  });

  // ── the account's font library (an addition to the spec) ───────────────────────────────────
  const fontTooLarge = `the font file is larger than ${MAX_FONT_FILE_BYTES / 1048576} MB: subset it or send a WOFF2 (reading stopped at the limit)`;
  app.post('/fonts', { onRequest: guard }, async (req, reply) => {
    const account = req.account!;
    if (!req.isMultipart()) throw fail('unsupported_media_type', 'send the font as multipart/form-data with a file field named "file"');
    if (Number(req.headers['content-length']) > MAX_FONT_FILE_BYTES + MULTIPART_OVERHEAD) throw fail('payload_too_large', fontTooLarge);
    let bytes: Buffer | undefined;
    try {
      bytes = await readUpload(req, MAX_FONT_FILE_BYTES);
    } catch (e) {
      if (e instanceof UploadRefusal) throw validationError('$.file', e.message);
      const code = (e as { code?: string }).code;
      if (e instanceof BodyTooLarge || code === 'FST_REQ_FILE_TOO_LARGE') throw fail('payload_too_large', fontTooLarge);
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
        throw validationError('$.file', 'send one file field named "file" and nothing else');
      throw validationError(
        '$.file',
        `the multipart body cannot be read (${(e as Error).message.slice(0, 120)}): send multipart/form-data with a file field named "file"`,
      );
    }
    if (!bytes) throw validationError('$.file', 'no file: send multipart/form-data with a file field named "file"');
    const { font, created } = await service.addFont(account.id, bytes);
    return reply.status(created ? 201 : 200).send(fontJson(font));
  });
  app.get<{ Querystring: { search?: string; limit?: string } }>('/fonts', { onRequest: guard }, async (req, reply) => {
    const { search, limit } = req.query;
    const n = limit === undefined ? undefined : /^\d{1,4}$/.test(limit) ? Number(limit) : NaN;
    const families = await service.fontFamilies(req.account!.id, typeof search === 'string' ? search : undefined, n);
    return reply.send({ fonts: (await service.listFonts(req.account!.id)).map(fontJson), ...families });
  });
  app.delete<{ Params: { id: string } }>('/fonts/:id', { onRequest: guard }, async (req, reply) => {
    await service.deleteFont(req.account!.id, req.params.id);
    return reply.status(204).send();
  });

  // The account's own uploads, at the URL the upload returned.
  app.get<{ Params: { file: string } }>('/uploads/:file', { onRequest: guard }, async (req, reply) => {
    const file = await service.uploadFile(req.account!.id, req.params.file);
    return reply.header('content-type', file.contentType).header('cache-control', 'private, max-age=3600').send(file.body);
  });

  // Results: the unguessable token in the URL is the credential, like a presigned URL, for 30 days.
  // `?download=<name>` (an addition) saves it under that name instead of showing it.
  app.get<{ Params: { file: string } }>('/results/:file', async (req, reply) => {
    const query = req.query ?? {};
    const parsed = ResultQuery.safeParse(query);
    if (!parsed.success) throw issueToError(parsed.error.issues[0]!, query, { root: '$', schema: ResultQuery });
    const file = await service.resultFile(req.params.file, parsed.data.download);
    if ('redirect' in file) return reply.redirect(file.redirect, 302);
    return reply
      .header('content-type', file.contentType)
      .header('content-length', String(file.size))
      .header('content-disposition', `${file.disposition}; filename="${file.filename}"`)
      .header('cache-control', 'private, max-age=86400, immutable')
      .send(file.body);
  });
}
