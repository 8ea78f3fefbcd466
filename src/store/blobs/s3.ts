// Blob store in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, …) for deployments where several
// render workers share one store. Configured by one URL so a single env var describes the whole location.
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { checkBlobKey, type BlobInfo, type BlobStore } from './blob-store.js';

export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix inside the bucket without leading or trailing `/`; '' for the bucket root. */
  prefix: string;
  /** Base URL of an S3-compatible service; undefined means AWS itself. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Only when given in the URL; otherwise the AWS SDK's provider chain (env vars, profiles, roles) applies. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Keys per ListObjectsV2 page; S3's maximum (1000) unless a test wants to see pagination. */
  listPageSize?: number;
}

const EXPECTED =
  'expected s3://bucket[/key/prefix]?endpoint=http://127.0.0.1:9000&region=us-east-1&path_style=true ' +
  '(endpoint, region and path_style are optional; credentials preferably in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)';
const PARAMS = new Set(['endpoint', 'region', 'path_style', 'access_key_id', 'secret_access_key']);
// Current AWS naming rules; they also keep virtual-host style addressing possible.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]+$/;

/** The URL as it may appear in an error message or log: never with the secret key. */
function redact(url: string): string {
  return url.replace(/([?&]secret_access_key=)[^&#]*/g, '$1***').replace(/^(s3:\/\/)[^@/?#]*@/, '$1***@');
}

/**
 * Parses `s3://<bucket>[/<key prefix>]?endpoint=…&region=…&path_style=…`.
 * Credentials may be given as `access_key_id` and `secret_access_key` query parameters, but the standard
 * AWS env vars (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) are preferred: URLs end up in logs and shell history.
 */
export function parseS3Url(url: string): S3BlobStoreOptions {
  const fail = (problem: string): never => {
    throw new Error(`invalid IMPRINT_BLOBS_URL "${redact(url)}": ${problem}; ${EXPECTED}`);
  };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return fail('not a URL');
  }
  if (u.protocol !== 's3:') fail(`the scheme is "${u.protocol.replace(/:$/, '')}", not "s3"`);
  if (u.username || u.password) fail('credentials do not belong before the bucket name');
  if (u.port) fail('a port belongs in the endpoint parameter, not after the bucket name');
  if (u.hash) fail('unexpected "#" fragment');
  const bucket = u.hostname;
  if (!bucket) fail('the bucket name is missing');
  if (!BUCKET.test(bucket)) fail(`"${bucket}" is not a valid bucket name (3-63 lowercase letters, digits, "." and "-")`);

  const prefix = u.pathname.replace(/^\//, '').replace(/\/$/, '');
  if (prefix) {
    try {
      checkBlobKey(prefix);
    } catch {
      fail(`the key prefix "${prefix}" must be up to 8 segments of letters, digits, ".", "_" and "-"`);
    }
  }

  for (const name of new Set(u.searchParams.keys())) {
    if (!PARAMS.has(name)) fail(`unknown parameter "${name}" (known: ${[...PARAMS].join(', ')})`);
    if (u.searchParams.getAll(name).length > 1) fail(`parameter "${name}" is given more than once`);
  }
  const param = (name: string): string | undefined => {
    const v = u.searchParams.get(name);
    if (v === '') fail(`parameter "${name}" is empty`);
    return v ?? undefined;
  };

  const endpoint = param('endpoint');
  if (endpoint !== undefined) {
    let e: URL;
    try {
      e = new URL(endpoint);
    } catch {
      return fail(`endpoint "${endpoint}" is not a URL`);
    }
    if (e.protocol !== 'http:' && e.protocol !== 'https:') fail(`endpoint "${endpoint}" must start with http:// or https://`);
    if (e.username || e.password) fail('the endpoint must not contain credentials');
    if (e.search || e.hash) fail(`endpoint "${endpoint}" must not have a query or fragment`);
  }

  const region = param('region') ?? 'us-east-1';
  if (!REGION.test(region)) fail(`region "${region}" is not a region name like us-east-1`);

  const pathStyle = param('path_style');
  if (pathStyle !== undefined && pathStyle !== 'true' && pathStyle !== 'false') fail(`path_style must be true or false, not "${pathStyle}"`);

  const accessKeyId = param('access_key_id');
  const secretAccessKey = param('secret_access_key');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    fail('access_key_id and secret_access_key must be given together');
  }

  return {
    bucket,
    prefix,
    ...(endpoint !== undefined ? { endpoint: endpoint.replace(/\/$/, '') } : {}),
    region,
    // Self-hosted services rarely have wildcard DNS for bucket subdomains, so path style is their default.
    forcePathStyle: pathStyle !== undefined ? pathStyle === 'true' : endpoint !== undefined,
    ...(accessKeyId !== undefined && secretAccessKey !== undefined ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  };
}

/** Error names S3 uses for "no such object"; a HEAD response has no body, so only its status says why. */
function isMissing(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  if (err.name === 'NoSuchKey' || err.name === 'NotFound') return true;
  // A missing bucket is a configuration error that must not look like an empty store.
  return err.name !== 'NoSuchBucket' && err.$metadata?.httpStatusCode === 404;
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly describe: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  /** `prefix/` or '' — prepended to every key. */
  private readonly keyPrefix: string;
  private readonly pageSize: number;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.keyPrefix = options.prefix ? `${options.prefix}/` : '';
    this.pageSize = options.listPageSize ?? 1000;
    this.describe = `s3://${options.bucket}${options.prefix ? `/${options.prefix}` : ''} @ ${options.endpoint ?? `AWS ${options.region}`}`;
    const config: S3ClientConfig = { region: options.region, forcePathStyle: options.forcePathStyle };
    if (options.endpoint !== undefined) {
      config.endpoint = options.endpoint;
      // Since 2025 the SDK adds CRC checksums to every upload by default; several S3-compatible servers
      // (Ceph RGW, B2, some OBS/TOS versions) reject those requests. Against AWS itself the default stays.
      config.requestChecksumCalculation = 'WHEN_REQUIRED';
      config.responseChecksumValidation = 'WHEN_REQUIRED';
    }
    if (options.credentials) config.credentials = options.credentials;
    this.client = new S3Client(config);
  }

  async presign(key: string, expiresInSeconds: number, filename?: string, disposition: 'inline' | 'attachment' = 'inline'): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.key(key),
      ...(filename ? { ResponseContentDisposition: `${disposition}; filename="${filename.replace(/[^\w.-]/g, '_')}"` } : {}),
    });
    // SigV4 URLs live at most 7 days; callers hand out a stable address of their own that redirects.
    return getSignedUrl(this.client, command, { expiresIn: Math.min(expiresInSeconds, 604_800) });
  }

  private key(key: string): string {
    checkBlobKey(key);
    return this.keyPrefix + key;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const Key = this.key(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength }));
  }

  async get(key: string): Promise<Buffer | undefined> {
    const Key = this.key(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      if (!out.Body) return Buffer.alloc(0);
      const bytes = await out.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const Key = this.key(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    const Key = this.key(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (e) {
      // S3 answers 204 for a missing key, but some compatible servers answer 404.
      if (!isMissing(e)) throw e;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.keyPrefix + prefix,
          MaxKeys: this.pageSize,
          ...(token !== undefined ? { ContinuationToken: token } : {}),
        }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key !== undefined && o.Key.startsWith(this.keyPrefix)) out.push(o.Key.slice(this.keyPrefix.length));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    // S3 orders by UTF-8 bytes; sorting here keeps the contract independent of the server.
    return out.sort();
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
