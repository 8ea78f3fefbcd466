// Picks the blob backend from one setting (IMPRINT_BLOBS_URL), so deployments switch between the
// embedded folder and a shared bucket without code changes.
import { resolve } from 'node:path';
import type { BlobStore } from './blob-store.js';
import { FolderBlobStore } from './folder.js';
import { S3BlobStore, parseS3Url } from './s3.js';

/**
 * Unset or empty: `<dataDir>/blobs`; `s3://…`: a bucket (see parseS3Url); anything else: a folder path,
 * relative to the cwd. Another `scheme://` is refused rather than becoming a folder literally named `gs:`.
 */
export function openBlobStore(url: string | undefined, dataDir: string): BlobStore {
  if (url === undefined || url.trim() === '') return new FolderBlobStore(resolve(dataDir, 'blobs'));
  if (/^s3:/i.test(url)) return new S3BlobStore(parseS3Url(url));
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url);
  if (scheme) {
    throw new Error(
      `invalid IMPRINT_BLOBS_URL "${url.replace(/\/\/[^@/]*@/, '//***@')}": unsupported scheme "${scheme[1]}"; expected s3://bucket?endpoint=… or a folder path`,
    );
  }
  return new FolderBlobStore(resolve(url));
}
