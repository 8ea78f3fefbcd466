// The blob store interface: uploads, render results and design assets as bytes under string keys.
// Two backends: a local folder (the embedded default) and an S3-compatible bucket.
import type { Readable } from 'node:stream';

export interface BlobInfo {
  size: number;
  contentType: string;
}

export interface BlobStore {
  /** `folder` or `s3`, for logs and metrics. */
  readonly kind: string;
  /** Where it is, without credentials. */
  readonly describe: string;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes, or undefined when nothing is stored under the key. */
  get(key: string): Promise<Buffer | undefined>;
  head(key: string): Promise<BlobInfo | undefined>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix, in lexical order. */
  list(prefix: string): Promise<string[]>;
  /**
   * A time-limited URL that serves the bytes straight from the backend (S3 presigned GET), or
   * undefined when the backend has none (a folder: the server streams the bytes itself). With a
   * filename, the answer names it (`inline`, or `attachment` to save it under that name).
   */
  presign?(key: string, expiresInSeconds: number, filename?: string, disposition?: 'inline' | 'attachment'): Promise<string>;
  /** The bytes as a stream (large results are served without holding them in memory). */
  stream?(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  close(): Promise<void>;
}

/** Keys are `/`-separated; each segment is limited to a safe alphabet so no backend sees `..` or odd bytes. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function checkBlobKey(key: string): void {
  const parts = key.split('/');
  if (parts.length > 8 || !parts.every((p) => SEGMENT.test(p) && p !== '.' && !p.includes('..'))) {
    throw new Error(`invalid blob key "${key}": use up to 8 segments of letters, digits, ".", "_" and "-"`);
  }
  // The folder backend keeps content types and half-written files under these endings.
  if (/\.(tmp|content-type)$/.test(key)) {
    throw new Error(`invalid blob key "${key}": keys cannot end in .tmp or .content-type`);
  }
}
