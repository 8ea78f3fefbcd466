// Stored files as the adapters hand them out: an account's uploads and the results of done tasks,
// found by the tokens in their URLs. Whether a file may be served, and from where, is decided here;
// the adapters only turn the answer into headers and a body (or a redirect).
import type { Readable } from 'node:stream';
import { ImprintError } from '../errors.js';
import type { ServiceContext } from './context.js';
import { RESULT_TYPES, type TaskFormat } from './tasks.js';

/** Presigned result URLs are short-lived; the stable result_url redirects to a fresh one. */
const PRESIGN_SECONDS = 3600;

/** A file to send: its bytes (or a stream of them for large results), size, type and download name. */
export interface StoredFile {
  body: Buffer | Readable;
  size: number;
  contentType: string;
  filename: string;
  /** `inline` (shown by the browser) unless the request asked to save it under a name (`attachment`). */
  disposition: 'inline' | 'attachment';
}

/** The longest name `?download=` takes, the extension included. */
export const DOWNLOAD_NAME_MAX = 120;

/**
 * The file name a `?download=<name>` asks a result to be saved under (an addition to the spec: the
 * Studio saves `card-1080-task-12.png` instead of `task-12.png`): letters, digits, `.`, `_` and `-`
 * kept, every other run of characters one `-`, ending in the result's own extension (added when the
 * name has another or none). Undefined when nothing usable is left; a validation_error at $.download
 * when it is longer than DOWNLOAD_NAME_MAX.
 */
export function downloadFilename(requested: string, extension: string): string | undefined {
  if (requested.length > DOWNLOAD_NAME_MAX) {
    throw new ImprintError('validation_error', '$.download', `a download name is at most ${DOWNLOAD_NAME_MAX} characters; this one has ${requested.length}`);
  }
  const stem = requested
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(new RegExp(`\\.${extension}$`, 'i'), '');
  return stem ? `${stem}.${extension}` : undefined;
}

/** A result served straight from the blob backend (S3): the client is sent to this URL. */
export interface FileRedirect {
  redirect: string;
}

const notFound = (description: string) => new ImprintError('not_found', '$', description);

/** The upload behind `<token>.<ext>` (the name uploadUrl gives), if it belongs to this account and is kept. */
export async function uploadFile(ctx: ServiceContext, accountId: number, name: string): Promise<StoredFile> {
  const m = /^([0-9a-f]{32})(?:\.[a-z]{3,4})?$/.exec(name);
  const upload = m ? await ctx.meta.getUploadByToken(m[1]!) : undefined;
  if (!upload || upload.accountId !== accountId || upload.expiredAt !== null) throw notFound('no such upload in this account (uploads are kept 30 days)');
  const bytes = await ctx.blobs.get(upload.blobKey);
  if (!bytes) throw notFound('the upload is no longer stored');
  return { body: bytes, size: bytes.length, contentType: upload.contentType, filename: upload.blobKey.split('/').pop()!, disposition: 'inline' };
}

/**
 * The result behind `<token>.<format>` (resultUrl), or `<token>.poster.jpg`, the screenshot of a video
 * (interface B). The unguessable token is the credential, like a presigned URL, for the result's lifetime.
 */
export async function resultFile(ctx: ServiceContext, name: string, download?: string): Promise<StoredFile | FileRedirect> {
  const m = /^([0-9a-f]{32})\.(png|jpg|webp|avif|pdf|mp4|poster\.jpg)$/.exec(name);
  const task = m ? await ctx.meta.getTaskByResultToken(m[1]!) : undefined;
  const poster = m?.[2] === 'poster.jpg';
  const key = poster ? task?.posterKey : task?.format === m?.[2] ? task?.resultKey : undefined;
  if (!task || !key || task.state !== 'done' || task.resultExpiredAt !== null) {
    throw notFound('no such result: it may have expired (results are kept 30 days)');
  }
  const extension = poster ? 'jpg' : task.format;
  const asked = download === undefined ? undefined : downloadFilename(download, extension);
  const filename = asked ?? (poster ? `task-${task.id}-screenshot.jpg` : `task-${task.id}.${task.format}`);
  const disposition = asked === undefined ? 'inline' : 'attachment';
  if (ctx.blobs.presign) return { redirect: await ctx.blobs.presign(key, PRESIGN_SECONDS, filename, disposition) };
  const file = ctx.blobs.stream ? await ctx.blobs.stream(key) : await ctx.blobs.get(key).then((b) => b && { stream: b, size: b.length });
  if (!file) throw notFound('the result is no longer stored');
  return { body: file.stream, size: file.size, contentType: poster ? 'image/jpeg' : RESULT_TYPES[task.format as TaskFormat], filename, disposition };
}
