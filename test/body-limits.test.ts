// Body limits that hold at the door, over real HTTP: clients that send 100 MiB (multipart uploads to
// interface A, JSON to A's and B's render) as fast as the server takes them, with a Content-Length or
// chunked and endless, and measure how many bytes the server had taken when its answer arrived. Each
// gets its 413 in the documented body, the server stops reading near the limit and closes the
// connection, and nothing is stored; uploads and bodies just under the limits still work.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { MAX_UPLOAD_BYTES } from '../src/service/uploads.js';
import { MAX_READ_PAST_LIMIT, MAX_UPLOAD_BODY, READ_SLACK } from '../src/http/body-limits.js';
import { readFileSync } from 'node:fs';

const MiB = 1024 * 1024;
const JSON_LIMIT = 1024 * 1024;
const HUGE = 100 * MiB;
/** Pieces the clients write (the body is generated piece by piece, never held whole). */
const CHUNK = 64 * 1024;
const BOUNDARY = 'imprint-test-boundary';
const R = '/public/v2/render';
const U = '/public/v2/upload';

let dir: string;
let service: Service;
let app: FastifyInstance;
let port: number;
let key: string;
let bKey: string;
let png: Buffer;
/** Each connection's bytes read by the server, known when the server closes it; by the client's port. */
const serverRead = new Map<number, Promise<number>>();

/**
 * What the kernels can hold between the two processes once the server stops reading: the client's
 * send buffer and the server's receive buffer at their largest (Linux autotunes both on loopback).
 * The client counts those bytes as written; the server never read them.
 */
function kernelBuffers(): number {
  try {
    const max = (file: string) => Number(readFileSync(file, 'utf8').trim().split(/\s+/)[2]);
    return max('/proc/sys/net/ipv4/tcp_wmem') + max('/proc/sys/net/ipv4/tcp_rmem');
  } catch {
    return 16 * MiB;
  }
}

// ── a client that floods and measures ───────────────────────────────────────────────────────────

interface Flood {
  /** The status of the answer, if one arrived. */
  status?: number;
  /** The header block, lower-cased. */
  head: string;
  body: string;
  /** Body bytes the client's kernel had taken when the first byte of the answer arrived (or when writing stopped). */
  accepted: number;
  /** Body bytes the server process read from the connection over its whole life (known once it closed it). */
  serverRead: number;
  /** The error the socket ended with, if any (ECONNRESET, EPIPE). */
  error?: string;
  /** True when the client sent the whole body (the server never answered early). */
  sentAll: boolean;
}

interface FloodRequest {
  /** Request line and headers, without the blank line. */
  head: string;
  /** The body: bytes before the filler, the filler's length, bytes after it. */
  prefix: Buffer;
  filler: number;
  suffix: Buffer;
  /** Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean;
  /** The Content-Length to announce (default: the body's true length). */
  contentLength?: number;
  /** Send the head only and wait: the answer must not need a byte of the body. */
  headOnly?: boolean;
}

/** The body in pieces of at most CHUNK bytes, generated as it is sent (100 MiB are never held at once). */
function* pieces(r: FloodRequest): Generator<Buffer> {
  const fill = Buffer.alloc(CHUNK, 0x41);
  yield r.prefix;
  for (let left = r.filler; left > 0; left -= CHUNK) yield left >= CHUNK ? fill : fill.subarray(0, left);
  yield r.suffix;
}

/**
 * Writes the request as fast as the server takes it (waiting for 'drain'), stops at the first byte of
 * the answer, then reads the answer to the end of the connection. Bytes count as accepted once the
 * write callback says the kernel took them.
 */
function flood(r: FloodRequest): Promise<Flood> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let localPort = -1;
    const chunks: Buffer[] = [];
    let accepted = 0;
    let acceptedAtAnswer: number | undefined;
    let error: string | undefined;
    let sentAll = false;
    const length = r.contentLength ?? r.prefix.length + r.filler + r.suffix.length;
    const head = `${r.head}\r\n${r.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`;
    let wake: (() => void) | undefined;
    const stop = () => {
      wake?.();
      wake = undefined;
    };
    socket.on('data', (d: Buffer) => {
      if (acceptedAtAnswer === undefined) acceptedAtAnswer = accepted;
      chunks.push(d);
      stop();
      // A keep-alive answer ends with its body; one that says "Connection: close" ends when the server closes.
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = end < 0 ? '' : all.subarray(0, end).toString('latin1').toLowerCase();
      const length = /\r\ncontent-length: (\d+)/.exec(head);
      if (length && !/\r\nconnection: close/.test(head) && all.length >= end + 4 + Number(length[1])) socket.destroy();
    });
    socket.on('error', (e: Error & { code?: string }) => {
      error = e.code ?? e.message;
      stop();
    });
    socket.on('close', () => {
      stop();
      const all = Buffer.concat(chunks).toString('latin1');
      const end = all.indexOf('\r\n\r\n');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(all);
      void (serverRead.get(localPort) ?? Promise.resolve(0)).then((read) =>
        resolve({
          ...(m ? { status: Number(m[1]) } : {}),
          head: end < 0 ? all.toLowerCase() : all.slice(0, end).toLowerCase(),
          body: end < 0 ? '' : Buffer.from(all.slice(end + 4), 'latin1').toString('utf8'),
          accepted: acceptedAtAnswer ?? accepted,
          serverRead: Math.max(0, read - Buffer.byteLength(head)),
          ...(error ? { error } : {}),
          sentAll,
        }),
      );
    });
    socket.once('connect', () => {
      localPort = socket.localPort ?? -1;
      void (async () => {
        socket.write(head);
        if (r.headOnly) return;
        const answered = () => chunks.length > 0 || error !== undefined || socket.destroyed;
        const send = async (bytes: Buffer) => {
          if (answered()) return;
          const n = bytes.length;
          const more = socket.write(bytes, (e) => {
            if (!e) accepted += n;
          });
          if (!more) await new Promise<void>((go) => ((wake = go), socket.once('drain', stop)));
        };
        for (const piece of pieces(r)) {
          if (answered()) return;
          if (r.chunked) {
            if (piece.length === 0) continue;
            await send(Buffer.from(`${piece.length.toString(16)}\r\n`));
            await send(piece);
            await send(Buffer.from('\r\n'));
          } else await send(piece);
        }
        if (r.chunked) await send(Buffer.from('0\r\n\r\n'));
        sentAll = !answered();
      })().catch(reject);
    });
  });
}

// ── requests ────────────────────────────────────────────────────────────────────────────────────

const host = () => `Host: 127.0.0.1:${port}`;
const FILE_PART = () => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;

/** A multipart upload of one file part named "file" that starts like a png and is `size` bytes long. */
function uploadRequest(size: number, opts: Partial<FloodRequest> = {}): FloodRequest {
  const start = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
  return {
    head: `POST ${U} HTTP/1.1\r\n${host()}\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}`,
    prefix: Buffer.concat([start, png.subarray(0, 8)]),
    filler: size - 8,
    suffix: Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ...opts,
  };
}

/** A JSON body: an object with one long string. */
function jsonRequest(path: string, size: number, opts: Partial<FloodRequest> & { auth?: string } = {}): FloodRequest {
  const auth = opts.auth ?? `\r\nAuthorization: Bearer ${key}`;
  const head = `POST ${path} HTTP/1.1\r\n${host()}${auth}\r\nContent-Type: application/json`;
  return { head, prefix: Buffer.from('{"pad":"'), filler: size, suffix: Buffer.from('"}'), ...opts };
}

const B_RENDER = () => `/api/videos/1/render/?api_key=${encodeURIComponent(bKey)}&v=1.0`;

async function storedUploads(): Promise<string[]> {
  return (await service.ctx.blobs.list('uploads/')).sort();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-limits-'));
  const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_LOG_LEVEL: 'silent' });
  expect(config.bodyLimitBytes).toBe(JSON_LIMIT);
  service = await Service.open(config, { log: pino({ level: 'silent' }) });
  app = await buildServer(service);
  await listen(app, service);
  port = (app.server.address() as { port: number }).port;
  app.server.on('connection', (s: Socket) => serverRead.set(s.remotePort ?? -1, new Promise((done) => s.once('close', () => done(s.bytesRead)))));
  const created = await service.createAccount({ name: 'Limits' });
  key = created.apiKey;
  bKey = created.apiKey;
  await service.setPlan(created.account.id, { requests_per_minute: 1_000_000, queue_size: 1000 });
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a9d8f' } })
    .png()
    .toBuffer();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ── the cases ───────────────────────────────────────────────────────────────────────────────────

const UPLOAD_REASON = { result: 'error', reason: expect.stringMatching(/larger than 10 MB.*reading stopped at the limit/) };
const A_TOO_LARGE = { error: 'payload_too_large', description: expect.stringMatching(/larger than the limit/) };
const B_TOO_LARGE = { error: 'incorrect_data', description: expect.stringMatching(/larger than the limit/) };

/** The answer arrived, in its documented body, and the server closed the connection after it. */
function refused(f: Flood, status: number, body: unknown): void {
  expect({ status: f.status, body: JSON.parse(f.body) as unknown }).toEqual({ status, body });
  expect(f.head).toMatch(/\r\nconnection: close(\r\n|$)/);
  expect(f.sentAll).toBe(false);
}

/**
 * The server read at most the limit, one socket read and the lingering read after the answer; the
 * client's count adds what the kernels buffered in between, and stays far below the 100 MiB sent.
 */
function readAtMost(f: Flood, limit: number): void {
  expect(f.serverRead).toBeLessThanOrEqual(limit + MAX_READ_PAST_LIMIT);
  expect(f.accepted).toBeLessThanOrEqual(limit + READ_SLACK + kernelBuffers());
  expect(f.accepted).toBeLessThan(HUGE / 2);
}

describe('bodies over their limit are refused at the door', () => {
  it('an upload of 100 MiB with its Content-Length: 413 before the body is read, nothing stored', async () => {
    const before = await storedUploads();
    const f = await flood(uploadRequest(HUGE));
    refused(f, 413, UPLOAD_REASON);
    // Refused on the declared length: only what arrived before the answer, no limit's worth.
    readAtMost(f, 0);
    expect(await storedUploads()).toEqual(before);
  }, 60_000);

  it('an upload declaring 100 MiB gets its 413 without sending a byte of the body', async () => {
    const f = await flood({ ...uploadRequest(HUGE), headOnly: true });
    refused(f, 413, UPLOAD_REASON);
    expect(f.serverRead).toBe(0);
  }, 60_000);

  it('an endless chunked upload: 413 once the file passes 10 MB, the rest never read', async () => {
    const before = await storedUploads();
    const f = await flood(uploadRequest(HUGE, { chunked: true }));
    refused(f, 413, UPLOAD_REASON);
    readAtMost(f, MAX_UPLOAD_BYTES);
    expect(await storedUploads()).toEqual(before);
  }, 60_000);

  it('a file just over 10 MB within an honest Content-Length: 413 at the file limit', async () => {
    const size = MAX_UPLOAD_BYTES + 32 * 1024;
    const f = await flood(uploadRequest(size));
    expect({ status: f.status, body: JSON.parse(f.body) as unknown }).toEqual({ status: 413, body: UPLOAD_REASON });
    expect(f.head).toMatch(/\r\nconnection: close(\r\n|$)/);
    expect(f.serverRead).toBeLessThanOrEqual(size + 1024);
  }, 60_000);

  it('an endless chunked text field (no file): 413 once the body passes its limit', async () => {
    const before = await storedUploads();
    const start = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\n`);
    const f = await flood({ ...uploadRequest(HUGE, { chunked: true }), prefix: start });
    refused(f, 413, UPLOAD_REASON);
    readAtMost(f, MAX_UPLOAD_BODY);
    expect(await storedUploads()).toEqual(before);
  }, 60_000);

  it('an upload of 100 MiB without a key: 401 before the body is read', async () => {
    const f = await flood({ ...uploadRequest(HUGE), head: `POST ${U} HTTP/1.1\r\n${host()}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}` });
    refused(f, 401, { error: 'unauthorized', description: expect.stringMatching(/Authorization: Bearer/) });
    readAtMost(f, 0);
  }, 60_000);

  it.each<[string, { chunked: boolean }]>([
    ['with its Content-Length', { chunked: false }],
    ['chunked and endless', { chunked: true }],
  ])(
    'interface A render, 100 MiB of JSON %s: 413 at 1 MB',
    async (_name, opts) => {
      const f = await flood(jsonRequest(R, HUGE, opts));
      refused(f, 413, A_TOO_LARGE);
      readAtMost(f, opts.chunked ? JSON_LIMIT : 0);
      expect(await service.ctx.meta.listTasks((await service.authenticate(key))!.account.id)).toEqual([]);
    },
    60_000,
  );

  it.each<[string, { chunked: boolean }]>([
    ['with its Content-Length', { chunked: false }],
    ['chunked and endless', { chunked: true }],
  ])(
    "interface B render, 100 MiB of JSON %s: 413 in B's error shape",
    async (_name, opts) => {
      const f = await flood(jsonRequest(B_RENDER(), HUGE, { ...opts, auth: '' }));
      refused(f, 413, B_TOO_LARGE);
      readAtMost(f, opts.chunked ? JSON_LIMIT : 0);
    },
    60_000,
  );

  it.each([
    ['interface A', () => jsonRequest(R, HUGE), A_TOO_LARGE],
    ['interface B', () => jsonRequest(B_RENDER(), HUGE, { auth: '' }), B_TOO_LARGE],
  ])(
    '%s answers a Content-Length over the limit without a byte of the body',
    async (_name, req, body) => {
      const f = await flood({ ...req(), headOnly: true });
      refused(f, 413, body);
      expect(f.serverRead).toBe(0);
    },
    60_000,
  );

  it('interface B checks the key before the body: 403 to 100 MiB of JSON with a wrong key', async () => {
    const f = await flood(jsonRequest('/api/videos/1/render/?api_key=imp_nope&v=1.0', HUGE, { auth: '', chunked: true }));
    refused(f, 403, { error: 'auth_required', description: expect.stringMatching(/not known/) });
    readAtMost(f, 0);
  }, 60_000);

  it('100 MiB of JSON to an unknown route: Fastify reads a body before its 404, so it is refused at 1 MB', async () => {
    const f = await flood(jsonRequest('/public/v2/nowhere', HUGE, { chunked: true }));
    refused(f, 413, A_TOO_LARGE);
    readAtMost(f, JSON_LIMIT);
  }, 60_000);

  it('fetch (undici) streaming a 100 MiB upload reads the 413, not a reset', async () => {
    const fill = new Uint8Array(CHUNK).fill(0x41);
    let pulled = 0;
    const head = new TextEncoder().encode(FILE_PART());
    const body = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(head),
      pull: (c) => {
        if (pulled >= HUGE) return c.close();
        pulled += fill.length;
        c.enqueue(fill);
      },
    });
    // duplex is required for a stream body and missing from Node 20's RequestInit type.
    const init: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: 'half',
    };
    const res = await fetch(`http://127.0.0.1:${port}${U}`, init);
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 413, body: UPLOAD_REASON });
    expect(res.headers.get('connection')).toBe('close');
    expect(pulled).toBeLessThan(HUGE / 2);
  }, 60_000);
});

describe('bodies within their limits still go through', () => {
  it('an upload just under 10 MB is stored, over the flooding client and over fetch', async () => {
    // A png of stored (uncompressed) deflate blocks: its size is known in advance.
    const big = await sharp({ create: { width: 1800, height: 1900, channels: 3, background: '#264653' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(MAX_UPLOAD_BYTES - 512 * 1024);
    expect(big.length).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
    const before = await storedUploads();
    const start = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
    for (const chunked of [false, true]) {
      const f = await flood({ ...uploadRequest(0, { chunked }), prefix: Buffer.concat([start, big]), filler: 0 });
      const url = expect.stringMatching(/\/uploads\/[0-9a-f]{32}\.png$/);
      expect({ status: f.status, body: JSON.parse(f.body) as unknown }).toEqual({ status: 201, body: { result: 'success', url } });
      expect(f.sentAll).toBe(true);
    }
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(big)]), 'big.png');
    const res = await fetch(`http://127.0.0.1:${port}${U}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: fd });
    expect(res.status).toBe(201);
    expect(res.headers.get('connection')).not.toBe('close');
    expect(await storedUploads()).toHaveLength(before.length + 3);
  }, 60_000);

  it('a JSON body just under 1 MB is read and judged on its content', async () => {
    const f = await flood(jsonRequest(R, JSON_LIMIT - 64));
    expect(f.status).toBe(400);
    expect(JSON.parse(f.body)).toEqual({ error: 'validation_error', description: expect.stringMatching(/^\$\.\w+: /) });
    expect(f.sentAll).toBe(true);
  }, 60_000);
});
