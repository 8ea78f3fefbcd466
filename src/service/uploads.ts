// Uploaded images: stored per account with the content type sniffed from their bytes, usable in
// overrides by the URL they were given until they expire. The engine never sees a URL: an upload
// URL of the same account becomes an `asset:upload-<token>` reference that the worker resolves.
import sharp from 'sharp';
import { IMAGE_LIMITS, imageHeader, imagePixelsProblem, type ImageHeader } from '../assets/load.js';
import { parseImageRef } from '../format/image-ref.js';
import { childPath } from '../format/json-path.js';
import { normaliseAssetPath } from './design-assets.js';
import { ImprintError, validationError } from '../errors.js';
import type { UploadRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { newToken } from './keys.js';
import { IMAGE_EXTENSIONS, IMAGE_TYPE_NAMES, sniffImageType } from './sniff.js';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const UPLOAD_ASSET = 'upload-';
/** Override fields that take an image (interface A: path, background.path, image_url; B: path); dotted keys count by their last part. */
const IMAGE_KEYS = new Set(['path', 'image_url']);

export function uploadUrl(ctx: ServiceContext, u: Pick<UploadRecord, 'token' | 'contentType'>): string {
  const ext = IMAGE_EXTENSIONS[u.contentType as keyof typeof IMAGE_EXTENSIONS] ?? 'bin';
  return `${ctx.config.baseUrl}/public/v2/uploads/${u.token}.${ext}`;
}

export async function createUpload(ctx: ServiceContext, accountId: number, bytes: Uint8Array): Promise<{ upload: UploadRecord; url: string }> {
  if (bytes.byteLength === 0) throw validationError('$.file', `the file is empty: upload a ${IMAGE_TYPE_NAMES} image`);
  if (bytes.byteLength > MAX_UPLOAD_BYTES)
    throw validationError('$.file', `the file is ${(bytes.byteLength / 1048576).toFixed(1)} MB: uploads are limited to 10 MB`);
  const contentType = sniffImageType(bytes);
  if (!contentType) throw validationError('$.file', `the file is not a ${IMAGE_TYPE_NAMES} image (checked from its content, not its name)`);
  const unreadable = (e: unknown) => validationError('$.file', `the image cannot be read (${(e as Error).message.split('\n')[0]}): upload an undamaged file`);
  // The render's own limit and words, judged from the header before anything is decoded: an upload
  // that no render could use (a small file that is a huge bitmap) is refused here, not in every render.
  let header: ImageHeader;
  try {
    header = await imageHeader(bytes);
  } catch (e) {
    throw unreadable(e);
  }
  if (!(header.width > 0 && header.height > 0)) throw unreadable(new Error('no image size'));
  const tooBig = imagePixelsProblem('the image', header.width, header.height);
  if (tooBig) throw validationError('$.file', tooBig);
  try {
    // Decode it all (into a thumbnail, so memory stays small): a damaged body fails here, not in a render.
    await sharp(bytes, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error', sequentialRead: true }).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  } catch (e) {
    throw unreadable(e);
  }
  const now = ctx.clock();
  const token = newToken();
  const blobKey = `uploads/${accountId}/${token}.${IMAGE_EXTENSIONS[contentType]}`;
  await ctx.blobs.put(blobKey, bytes, contentType);
  const upload = await ctx.meta.insertUpload({
    accountId,
    token,
    blobKey,
    contentType,
    size: bytes.byteLength,
    createdAt: now,
    expiresAt: now + ctx.config.retentionMs,
  });
  ctx.metrics.inc('imprint_uploads_total');
  ctx.log.info({ account_id: accountId, upload_id: upload.id, content_type: contentType, size: bytes.byteLength }, 'upload stored');
  return { upload, url: uploadUrl(ctx, upload) };
}

/** The upload an asset name refers to, if it is usable by this account now; otherwise why not. */
export async function usableUpload(ctx: ServiceContext, accountId: number, assetName: string): Promise<UploadRecord | string> {
  const token = assetName.startsWith(UPLOAD_ASSET) ? assetName.slice(UPLOAD_ASSET.length) : '';
  const upload = /^[0-9a-f]{32}$/.test(token) ? await ctx.meta.getUploadByToken(token) : undefined;
  if (!upload || upload.accountId !== accountId) return 'this is not an image uploaded by this account: upload it first and use the URL you get back';
  if (upload.expiredAt !== null || upload.expiresAt <= ctx.clock()) return 'this upload has expired (uploads are kept 30 days): upload the image again';
  return upload;
}

const UPLOAD_PATH = /^\/public\/v2\/uploads\/([0-9a-f]{32})(?:\.[a-z]{3,4})?$/;

/**
 * The upload a URL the upload endpoint returned names, when it is this account's and usable now; any
 * other value (another account's or an expired upload, an external URL, a path) is a validation_error at `at`.
 */
export async function uploadOfUrl(ctx: ServiceContext, accountId: number, value: string, at: string): Promise<UploadRecord> {
  const m = value.startsWith(ctx.config.baseUrl + '/') ? UPLOAD_PATH.exec(value.slice(ctx.config.baseUrl.length).split(/[?#]/)[0]!) : null;
  if (!m) {
    throw validationError(
      at,
      `expected the URL the upload endpoint returned (${ctx.config.baseUrl}/public/v2/uploads/…): upload the file (POST ${ctx.config.baseUrl}/public/v2/upload) and use the url it returns`,
    );
  }
  const found = await usableUpload(ctx, accountId, UPLOAD_ASSET + m[1]);
  if (typeof found === 'string') throw validationError(at, found);
  return found;
}

async function uploadRef(ctx: ServiceContext, accountId: number, value: string, at: string): Promise<string> {
  if (value.startsWith(ctx.config.baseUrl + '/')) {
    const m = UPLOAD_PATH.exec(value.slice(ctx.config.baseUrl.length).split(/[?#]/)[0]!);
    if (m) {
      const found = await usableUpload(ctx, accountId, UPLOAD_ASSET + m[1]);
      if (typeof found === 'string') throw validationError(at, found);
      return `asset:${UPLOAD_ASSET}${found.token}`;
    }
  }
  if (/^asset:/i.test(value)) throw validationError(at, 'expected the URL returned by the upload endpoint, not an "asset:" reference');
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    throw validationError(at, `external image URLs are not allowed: upload the image (POST ${ctx.config.baseUrl}/public/v2/upload) and use the url it returns`);
  }
  // A relative path names one of the design's own files; checkDesignFiles makes sure it exists.
  return value;
}

/**
 * Relative image paths in (prepared) overrides must name files stored with the design; run after the
 * overrides resolved, so an unknown object name is reported before a file of it.
 */
export function checkDesignFiles(overrides: unknown, root: string, designAssets: Readonly<Record<string, string>>): void {
  const walk = (v: unknown, at: string): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, childPath(at, i)));
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      const here = childPath(at, k);
      if (IMAGE_KEYS.has(k.split('.').pop()!) && typeof x === 'string') {
        const ref = parseImageRef(x, here);
        if (ref.kind === 'path' && !Object.hasOwn(designAssets, normaliseAssetPath(ref.path))) {
          throw validationError(
            here,
            `the design has no file "${x.slice(0, 200)}": use the url the upload endpoint returned, or one of the design's own files`,
          );
        }
      } else walk(x, here);
    }
  };
  walk(overrides, root);
}

/**
 * A copy of the overrides with this account's upload URLs turned into references the worker can
 * resolve. Another account's upload, an expired one or an unknown one is a validation error here,
 * at queue time.
 */
export async function prepareOverrides(ctx: ServiceContext, accountId: number, overrides: unknown, root: string): Promise<unknown> {
  const walk = async (v: unknown, at: string): Promise<unknown> => {
    if (Array.isArray(v)) return Promise.all(v.map((x, i) => walk(x, childPath(at, i))));
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const here = childPath(at, k);
      out[k] = IMAGE_KEYS.has(k.split('.').pop()!) && typeof x === 'string' ? await uploadRef(ctx, accountId, x, here) : await walk(x, here);
    }
    return out;
  };
  return walk(overrides, root);
}

export async function getUpload(ctx: ServiceContext, accountId: number, token: string): Promise<UploadRecord> {
  const found = await usableUpload(ctx, accountId, UPLOAD_ASSET + token);
  if (typeof found === 'string') throw new ImprintError('validation_error', '$.upload', found);
  return found;
}

export { UPLOAD_ASSET };
