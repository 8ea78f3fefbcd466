// One behavioural contract for every blob backend (local folder, S3 via a real s3rver over HTTP),
// plus configuration parsing: the render service must not care which backend it was given.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlobStore } from '../src/store/blobs/blob-store.js';
import { FolderBlobStore } from '../src/store/blobs/folder.js';
import { openBlobStore } from '../src/store/blobs/open.js';
import { parseS3Url, S3BlobStore } from '../src/store/blobs/s3.js';
import { S3RVER_CREDENTIALS, startS3Server, type S3TestServer } from './support/s3-server.js';

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

const S3RVER_CREDENTIALS_PARAMS = {
  access_key_id: S3RVER_CREDENTIALS.accessKeyId,
  secret_access_key: S3RVER_CREDENTIALS.secretAccessKey,
};

/** A bucket URL for a key prefix of its own, so tests sharing the bucket cannot see each other's keys. */
function s3Url(prefix: string, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ endpoint: s3.endpoint, ...S3RVER_CREDENTIALS_PARAMS, ...extra });
  return `s3://${s3.bucket}/${prefix}?${q.toString()}`;
}

interface Opened {
  store: BlobStore;
  cleanup(): Promise<void>;
}

const backends: { name: string; open(): Promise<Opened> }[] = [
  {
    name: 'folder',
    async open() {
      const dir = await mkdtemp(join(tmpdir(), 'imprint-blobs-'));
      const store = openBlobStore(join(dir, 'blobs'), dir);
      return { store, cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 's3',
    async open() {
      const store = openBlobStore(s3Url(`t-${randomBytes(4).toString('hex')}`), '/nonexistent');
      return { store, cleanup: async () => {} };
    },
  },
];

const BAD_KEYS = ['../x', 'a//b', 'a/../b', '', 'a\0b', 'a/b/c/d/e/f/g/h/i'];

describe.each(backends)('BlobStore contract: $name', ({ name, open }) => {
  let store: BlobStore;
  let opened: Opened;
  beforeEach(async () => {
    opened = await open();
    store = opened.store;
  });
  afterEach(async () => {
    await store.close();
    await opened.cleanup();
  });

  it('reports its kind', () => {
    expect(store.kind).toBe(name);
  });

  it('round-trips binary bytes exactly, including every byte value', async () => {
    const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    await store.put('uploads/all-bytes.bin', bytes, 'application/octet-stream');
    const back = await store.get('uploads/all-bytes.bin');
    expect(Buffer.isBuffer(back)).toBe(true);
    expect(back?.equals(bytes)).toBe(true);
  });

  it('stores an empty blob as present with zero bytes, not as missing', async () => {
    await store.put('empty', new Uint8Array(0), 'text/plain');
    const back = await store.get('empty');
    expect(back).toBeInstanceOf(Buffer);
    expect(back?.length).toBe(0);
    expect(await store.head('empty')).toEqual({ size: 0, contentType: 'text/plain' });
  });

  it('round-trips a 3 MB buffer', async () => {
    const big = randomBytes(3 * 1024 * 1024);
    await store.put('renders/big.png', big, 'image/png');
    const back = await store.get('renders/big.png');
    expect(back?.length).toBe(big.length);
    expect(back?.equals(big)).toBe(true);
    expect(await store.head('renders/big.png')).toEqual({ size: big.length, contentType: 'image/png' });
  });

  it('head gives size and content type without the bytes', async () => {
    await store.put('renders/r1/out.pdf', Buffer.from('%PDF-1.7 fake'), 'application/pdf');
    await store.put('assets/logo.svg', Buffer.from('<svg/>'), 'image/svg+xml');
    expect(await store.head('renders/r1/out.pdf')).toEqual({ size: 13, contentType: 'application/pdf' });
    expect(await store.head('assets/logo.svg')).toEqual({ size: 6, contentType: 'image/svg+xml' });
  });

  it('overwriting replaces bytes, size and content type', async () => {
    await store.put('k', Buffer.from('first version, longer'), 'text/plain');
    await store.put('k', Buffer.from([1, 2, 3]), 'image/png');
    expect((await store.get('k'))?.equals(Buffer.from([1, 2, 3]))).toBe(true);
    expect(await store.head('k')).toEqual({ size: 3, contentType: 'image/png' });
    expect(await store.list('')).toEqual(['k']);
  });

  it('delete removes the blob; deleting a missing key is fine', async () => {
    await store.put('a/gone', Buffer.from('x'), 'text/plain');
    await store.put('a/kept', Buffer.from('y'), 'text/plain');
    await store.delete('a/gone');
    expect(await store.get('a/gone')).toBeUndefined();
    expect(await store.head('a/gone')).toBeUndefined();
    expect(await store.list('a/')).toEqual(['a/kept']);
    await expect(store.delete('a/gone')).resolves.toBeUndefined();
    await expect(store.delete('never/written')).resolves.toBeUndefined();
    expect((await store.get('a/kept'))?.toString()).toBe('y');
  });

  it('get and head of a missing key give undefined', async () => {
    await store.put('present/one', Buffer.from('1'), 'text/plain');
    expect(await store.get('missing')).toBeUndefined();
    expect(await store.head('missing')).toBeUndefined();
    expect(await store.get('present/two')).toBeUndefined();
    expect(await store.head('present/two')).toBeUndefined();
  });

  it('lists keys under a prefix in lexical order, excluding other prefixes', async () => {
    for (const key of ['renders/b/2', 'uploads/x', 'renders/a/10', 'renderx/y', 'renders/a/1', 'renders/a/2']) {
      await store.put(key, Buffer.from(key), 'text/plain');
    }
    expect(await store.list('renders/')).toEqual(['renders/a/1', 'renders/a/10', 'renders/a/2', 'renders/b/2']);
    expect(await store.list('renders/a/1')).toEqual(['renders/a/1', 'renders/a/10']);
    expect(await store.list('')).toEqual(['renders/a/1', 'renders/a/10', 'renders/a/2', 'renders/b/2', 'renderx/y', 'uploads/x']);
    expect(await store.list('nothing/')).toEqual([]);
  });

  it.each(BAD_KEYS)('refuses the invalid key %j for every operation and stores nothing', async (key) => {
    await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid blob key/);
    await expect(store.get(key)).rejects.toThrow(/invalid blob key/);
    await expect(store.head(key)).rejects.toThrow(/invalid blob key/);
    await expect(store.delete(key)).rejects.toThrow(/invalid blob key/);
    expect(await store.list('')).toEqual([]);
  });
});

describe('invalid keys are refused before storage is touched', () => {
  it('folder: nothing is created, not even the root, and nothing lands beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'imprint-blobs-'));
    try {
      const store = new FolderBlobStore(join(dir, 'root'));
      for (const key of BAD_KEYS) await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid blob key/);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('s3: the key error comes even when the endpoint is unreachable', async () => {
    // Port 1 on localhost refuses connections, so any request would fail with a network error instead.
    const store = new S3BlobStore({ ...parseS3Url(s3Url('p')), endpoint: 'http://127.0.0.1:1' });
    try {
      for (const key of BAD_KEYS) {
        await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid blob key/);
        await expect(store.get(key)).rejects.toThrow(/invalid blob key/);
      }
      await expect(store.get('valid/key')).rejects.not.toThrow(/invalid blob key/);
    } finally {
      await store.close();
    }
  });
});

describe('S3BlobStore specifics', () => {
  it('follows ListObjectsV2 pagination past the first page', async () => {
    const store = new S3BlobStore({ ...parseS3Url(s3Url('paged')), listPageSize: 2 });
    try {
      const keys = ['k/1', 'k/2', 'k/3', 'k/4', 'k/5'];
      for (const k of keys) await store.put(k, Buffer.from(k), 'text/plain');
      expect(await store.list('k/')).toEqual(keys);
    } finally {
      await store.close();
    }
  });

  it('keeps stores with different key prefixes in one bucket apart', async () => {
    const a = openBlobStore(s3Url('tenant-a'), '/unused');
    const b = openBlobStore(s3Url('tenant-b/v1'), '/unused');
    try {
      await a.put('same/key', Buffer.from('from a'), 'text/plain');
      await b.put('same/key', Buffer.from('from b'), 'text/plain');
      expect((await a.get('same/key'))?.toString()).toBe('from a');
      expect((await b.get('same/key'))?.toString()).toBe('from b');
      expect(await a.list('')).toEqual(['same/key']);
      expect(await b.list('')).toEqual(['same/key']);
      await a.delete('same/key');
      expect((await b.get('same/key'))?.toString()).toBe('from b');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a missing bucket is an error, not an empty store', async () => {
    const store = openBlobStore(s3Url('p').replace(s3.bucket, 'no-such-bucket-here'), '/unused');
    try {
      await expect(store.get('some/key')).rejects.toThrow(/bucket/i);
      await expect(store.put('some/key', Buffer.from('x'), 'text/plain')).rejects.toThrow(/bucket/i);
      await expect(store.list('')).rejects.toThrow(/bucket/i);
    } finally {
      await store.close();
    }
  });

  it('describe names bucket, prefix and endpoint but no credentials', () => {
    const store = openBlobStore(s3Url('renders/v2'), '/unused');
    expect(store.describe).toBe(`s3://${s3.bucket}/renders/v2 @ ${s3.endpoint}`);
    expect(store.describe).not.toContain('S3RVER');
    void store.close();
    const aws = new S3BlobStore(parseS3Url('s3://my-bucket?region=eu-central-1'));
    expect(aws.describe).toBe('s3://my-bucket @ AWS eu-central-1');
    void aws.close();
  });

  describe('credentials from the AWS env vars', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });
    const urlWithoutKeys = () => `s3://${s3.bucket}/env?endpoint=${encodeURIComponent(s3.endpoint)}`;

    it('are used when the URL has none', async () => {
      vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
      vi.stubEnv('AWS_SESSION_TOKEN', undefined);
      const store = openBlobStore(urlWithoutKeys(), '/unused');
      try {
        await store.put('e', Buffer.from('env'), 'text/plain');
        expect((await store.get('e'))?.toString()).toBe('env');
      } finally {
        await store.close();
      }
    });

    it('a wrong access key is refused by the server, not ignored', async () => {
      vi.stubEnv('AWS_ACCESS_KEY_ID', 'WRONG');
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'WRONG');
      vi.stubEnv('AWS_SESSION_TOKEN', undefined);
      const store = openBlobStore(urlWithoutKeys(), '/unused');
      try {
        await expect(store.put('e', Buffer.from('env'), 'text/plain')).rejects.toThrow(/access key/i);
      } finally {
        await store.close();
      }
    });
  });
});

describe('parseS3Url', () => {
  it('reads bucket, prefix, endpoint, region, path style and credentials', () => {
    expect(
      parseS3Url('s3://imprint-blobs/renders/v1/?endpoint=http://127.0.0.1:9000&region=eu-west-1&path_style=true&access_key_id=AK&secret_access_key=SK'),
    ).toEqual({
      bucket: 'imprint-blobs',
      prefix: 'renders/v1',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
    });
  });

  it('defaults: AWS, us-east-1, virtual-host style, credentials from the SDK chain', () => {
    expect(parseS3Url('s3://imprint-blobs')).toEqual({ bucket: 'imprint-blobs', prefix: '', region: 'us-east-1', forcePathStyle: false });
  });

  it('path style defaults to true with an endpoint and can be switched off', () => {
    expect(parseS3Url('s3://bkt?endpoint=https://minio.example:9000').forcePathStyle).toBe(true);
    expect(parseS3Url('s3://bkt?endpoint=https://minio.example:9000&path_style=false').forcePathStyle).toBe(false);
    expect(parseS3Url('s3://bkt?path_style=true').forcePathStyle).toBe(true);
  });

  it.each([
    ['s3://', /bucket name is missing/],
    ['s3:///prefix', /bucket name is missing/],
    ['http://bucket', /scheme is "http"/],
    ['not a url', /not a URL/],
    ['s3://bucket?endpoint=ftp://host:21', /http:\/\/ or https:\/\//],
    ['s3://bucket?endpoint=localhost:9000', /http:\/\/ or https:\/\//],
    ['s3://bucket?endpoint=', /"endpoint" is empty/],
    ['s3://bucket:9000', /port belongs in the endpoint/],
    ['s3://Bad_Bucket', /not a valid bucket name/],
    ['s3://ab', /not a valid bucket name/],
    ['s3://bucket/a//b', /key prefix/],
    ['s3://bucket/sp%20ace', /key prefix/],
    ['s3://bucket?endpont=http://x', /unknown parameter "endpont"/],
    ['s3://bucket?region=us-east-1&region=eu-west-1', /more than once/],
    ['s3://bucket?region=EU%20West', /region/],
    ['s3://bucket?path_style=yes', /path_style must be true or false/],
    ['s3://bucket?access_key_id=AK', /must be given together/],
    ['s3://AK:SK@bucket', /credentials/],
  ])('refuses %s', (url, problem) => {
    expect(() => parseS3Url(url)).toThrow(problem);
    expect(() => parseS3Url(url)).toThrow(/^invalid IMPRINT_BLOBS_URL ".*": .*expected s3:\/\/bucket/);
  });

  it('never repeats a secret in its error message', () => {
    const messageOf = (url: string): string => {
      try {
        parseS3Url(url);
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error(`expected ${url} to be refused`);
    };
    expect(messageOf('s3://bucket?secret_access_key=TOPSECRET&access_key_id=AK&region=bad%20region')).not.toContain('TOPSECRET');
    expect(messageOf('s3://AK:TOPSECRET@bucket')).not.toContain('TOPSECRET');
  });
});

describe('openBlobStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'imprint-open-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('unset or empty: a folder under <dataDir>/blobs', async () => {
    for (const url of [undefined, '']) {
      const store = openBlobStore(url, dir);
      expect(store.kind).toBe('folder');
      expect(store.describe).toBe(join(dir, 'blobs'));
      await store.put('uploads/a.txt', Buffer.from('hello'), 'text/plain');
      expect(await readFile(join(dir, 'blobs', 'uploads', 'a.txt'), 'utf8')).toBe('hello');
      await store.close();
    }
  });

  it('a path: a folder there, relative paths against the cwd', async () => {
    const store = openBlobStore(join(dir, 'elsewhere'), '/unused');
    expect(store.kind).toBe('folder');
    await store.put('k', Buffer.from('x'), 'text/plain');
    expect(await readdir(join(dir, 'elsewhere'))).toContain('k');
    expect(openBlobStore('var/blobs', '/unused').describe).toBe(resolve(process.cwd(), 'var/blobs'));
  });

  it('an s3:// URL: the S3 backend', async () => {
    const store = openBlobStore(s3Url('open'), dir);
    try {
      expect(store.kind).toBe('s3');
      await store.put('k', Buffer.from('via s3'), 'text/plain');
      expect((await store.get('k'))?.toString()).toBe('via s3');
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('refuses a bad s3 URL and other URL schemes instead of making a folder of them', () => {
    expect(() => openBlobStore('s3://', dir)).toThrow(/bucket name is missing/);
    expect(() => openBlobStore('gs://bucket/x', dir)).toThrow(/unsupported scheme "gs"/);
    expect(() => openBlobStore('https://minio.example/bucket', dir)).toThrow(/unsupported scheme "https"/);
  });
});
