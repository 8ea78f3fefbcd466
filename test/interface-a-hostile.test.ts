// Interface A against hostile and malformed requests over real HTTP (one server on an ephemeral port,
// two accounts with examples/card-1080): wrong content types, bodies that are not JSON objects, huge
// and deeply nested JSON, bad field values, SQL-looking strings, unicode names, another account's
// upload/task/design, external and traversing image references, private webhook targets, bad uploads
// (11 MB, a 20000×20000 png, a text file named .png …), auth edge cases and requests Node's HTTP
// parser refuses. Each case gets a clear error in the one error shape ({error, description}, or the
// upload's {result, reason}) without a stack trace, and changes nothing: the same tasks per account,
// the same stored blobs, and the server still healthy. No worker runs: accepted tasks stay queued.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';

const CARD = 'examples/card-1080';
const NO_STACK = /at .*\.js:\d+/;
const UPLOAD_KEY = /^uploads\/\d+\/[0-9a-f]{32}\.(png|jpg|webp|gif)$/;
const R = '/public/v2/render';
const T = '/public/v2/tasks';
const U = '/public/v2/upload';

interface Account {
  id: number;
  key: string;
  design: number;
  /** An upload URL of this account (made over HTTP in beforeAll). */
  upload: string;
  uploadToken: string;
}

interface Fixture {
  a: Account;
  b: Account & { task: number };
  member: string;
  /** http://localhost:<port>, the base the service puts in its URLs */
  base: string;
  port: number;
  png: Buffer;
  /** 20000×20000 pixels, 1 channel, < 10 MB as a file */
  hugePng: Buffer;
  /** 11 MB that start like a png */
  elevenMb: Buffer;
}

let dir: string;
let service: Service;
let app: FastifyInstance;
let f: Fixture;

// ── requests ────────────────────────────────────────────────────────────────────────────────────

interface Req {
  method?: string;
  /** Needed unless `wire` is given. */
  path?: string;
  /** The Authorization header; default "Bearer <account A's key>"; null sends none. */
  auth?: string | null;
  headers?: Record<string, string>;
  /** Sent as application/json (JSON.stringify), unless `body` is given. */
  json?: unknown;
  body?: string | Uint8Array | FormData;
  /** Over a raw socket, byte for byte as given (fetch normalises paths such as ../ and %2e%2e). */
  raw?: boolean;
  /** A complete raw HTTP/1.1 request; {KEY} is replaced by account A's key. */
  wire?: string;
}

interface Answer {
  status: number;
  text: string;
}

function rawExchange(bytes: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(f.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const end = all.indexOf('\r\n\r\n');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(all);
      if (!m || end < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(all.slice(0, 200))}`));
      const head = all.slice(0, end).toLowerCase();
      let text = all.slice(end + 4);
      if (/\r\ntransfer-encoding: chunked/.test(head)) {
        let out = '';
        for (let rest = text; ;) {
          const nl = rest.indexOf('\r\n');
          const size = parseInt(rest.slice(0, nl), 16);
          if (!size) break;
          out += rest.slice(nl + 2, nl + 2 + size);
          rest = rest.slice(nl + 2 + size + 2);
        }
        text = out;
      }
      resolve({ status: Number(m[1]), text });
    });
    socket.end(bytes);
  });
}

async function send(req: Req): Promise<Answer> {
  if (req.wire !== undefined) return rawExchange(req.wire.replaceAll('{KEY}', f.a.key));
  const headers: Record<string, string> = { ...req.headers };
  const auth = req.auth === undefined ? `Bearer ${f.a.key}` : req.auth;
  if (auth !== null) headers.authorization = auth;
  let body = req.body;
  if (body === undefined && req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers['content-type'] ??= 'application/json';
  }
  const method = req.method ?? (body === undefined ? 'GET' : 'POST');
  if (req.raw) {
    if (body instanceof FormData) throw new Error('raw requests take a string or bytes');
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
    const lines = [
      `${method} ${req.path} HTTP/1.1`,
      `Host: 127.0.0.1:${f.port}`,
      'Connection: close',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    if (body !== undefined) lines.push(`Content-Length: ${payload.length}`);
    return rawExchange(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]));
  }
  // Bytes go as a Blob without a type, so fetch adds no Content-Type of its own.
  const init = body === undefined ? {} : { body: body instanceof Uint8Array ? new Blob([new Uint8Array(body)]) : body };
  const res = await fetch(`http://127.0.0.1:${f.port}${req.path!}`, { method, headers, ...init });
  return { status: res.status, text: await res.text() };
}

const render = (fields: Record<string, unknown>, extra: Partial<Req> = {}): Req => ({
  path: R,
  json: { design_id: f.a.design, format: 'png', ...fields },
  ...extra,
});
const overrides = (o: unknown): Req => render({ objects_overrides: o });
const webhook = (url: unknown): Req => render({ webhook_url: url });
const task = (id: string, raw = false): Req => ({ path: `${T}/${id}`, raw });

function form(parts: [field: string, value: Uint8Array | string, filename?: string][]): FormData {
  const fd = new FormData();
  for (const [field, value, filename] of parts) {
    if (filename === undefined) fd.append(field, typeof value === 'string' ? value : new Blob([new Uint8Array(value)]));
    else fd.append(field, new Blob([typeof value === 'string' ? value : new Uint8Array(value)]), filename);
  }
  return fd;
}
const upload = (parts: Parameters<typeof form>[0], extra: Partial<Req> = {}): Req => ({ path: U, body: form(parts), ...extra });
/** A hand-written multipart body (a part named "file" holding `content`), with the given Content-Type. */
const multipartText = (contentType: string, content = 'abc'): Req => ({
  path: U,
  headers: { 'content-type': contentType },
  body: Buffer.from(`--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${content}\r\n--xyz--\r\n`),
});

/** Nests `inner` n levels deep as {"a": …}, as text (JSON.stringify would recurse). */
const nestedObjects = (n: number, inner = '1') => '{"a":'.repeat(n) + inner + '}'.repeat(n);

// ── the cases ───────────────────────────────────────────────────────────────────────────────────

interface Case {
  name: string;
  req: () => Req;
  status: number;
  /** {error, description}: the code, and optionally what the description says */
  error?: string;
  /** the upload's {result: 'error', reason}: what the reason says */
  reason?: RegExp;
  description?: RegExp;
}

const V = 'validation_error';
const validJson = () => JSON.stringify({ design_id: f.a.design, format: 'png' });

const cases: Case[] = [
  // wrong content types
  {
    name: 'render as text/plain',
    req: () => ({ path: R, headers: { 'content-type': 'text/plain' }, body: validJson() }),
    status: 415,
    error: 'unsupported_media_type',
  },
  {
    name: 'render as form-urlencoded',
    req: () => ({ path: R, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `design_id=${f.a.design}&format=png` }),
    status: 415,
    error: 'unsupported_media_type',
  },
  { name: 'render without a content type', req: () => ({ path: R, body: Buffer.from(validJson()) }), status: 415, error: 'unsupported_media_type' },
  {
    name: 'render as xml',
    req: () => ({ path: R, headers: { 'content-type': 'application/xml' }, body: `<render><design_id>${f.a.design}</design_id></render>` }),
    status: 415,
    error: 'unsupported_media_type',
  },
  {
    name: 'render as application/merge-patch+json',
    req: () => ({ path: R, headers: { 'content-type': 'application/merge-patch+json' }, body: validJson() }),
    status: 415,
    error: 'unsupported_media_type',
  },
  {
    name: 'render as multipart/form-data',
    req: () => ({
      path: R,
      body: form([
        ['design_id', String(f.a.design)],
        ['format', 'png'],
      ]),
    }),
    status: 415,
    error: 'unsupported_media_type',
  },
  {
    name: 'xml sent as application/json',
    req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: '<render/>' }),
    status: 400,
    error: V,
    description: /not valid JSON/,
  },

  // bodies that are not a JSON object
  { name: 'empty JSON body', req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: '' }), status: 400, error: V, description: /empty/ },
  { name: 'no body at all', req: () => ({ path: R, method: 'POST' }), status: 400, error: V, description: /^\$: expected an object but received nothing/ },
  {
    name: 'malformed JSON',
    req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: '{"design_id": 1,' }),
    status: 400,
    error: V,
    // The parser's own words, and no talk of "__proto__" when the text simply does not parse.
    description: /^\$: the body is not valid JSON \((?!.*__proto__)[^)]*\): fix the syntax$/,
  },
  {
    name: 'JSON with a trailing comma and comments',
    req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: '{"design_id": 1, /* hi */ "format": "png",}' }),
    status: 400,
    error: V,
    description: /not valid JSON/,
  },
  {
    name: 'JSON array body',
    req: () => ({ path: R, json: [{ design_id: f.a.design, format: 'png' }] }),
    status: 400,
    error: V,
    description: /^\$: expected an object but received an array/,
  },
  { name: 'JSON number body', req: () => ({ path: R, json: 42 }), status: 400, error: V, description: /^\$: expected an object/ },
  { name: 'JSON string body', req: () => ({ path: R, json: 'render please' }), status: 400, error: V, description: /^\$: expected an object/ },
  {
    name: 'JSON null body',
    req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: 'null' }),
    status: 400,
    error: V,
    description: /^\$: expected an object/,
  },
  { name: 'huge JSON (1.1 MB)', req: () => overrides({ headline: { text: 'x'.repeat(1_100_000) } }), status: 413, error: 'payload_too_large' },
  {
    name: 'a Content-Length far over the limit (raw)',
    req: () => ({
      wire: `POST ${R} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\nConnection: close\r\n\r\n${validJson()}`,
    }),
    status: 413,
    error: 'payload_too_large',
  },
  {
    name: 'objects nested 10000 levels (within 1 MB)',
    req: () => ({
      path: R,
      headers: { 'content-type': 'application/json' },
      body: `{"design_id":${f.a.design},"format":"png","objects_overrides":{"headline":${nestedObjects(10_000)}}}`,
    }),
    status: 400,
    error: V,
    description: /deeper than 32 levels/,
  },
  {
    name: 'arrays nested 200000 levels',
    req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: '['.repeat(200_000) + ']'.repeat(200_000) }),
    status: 400,
    error: V,
    description: /deeper than 32 levels/,
  },
  {
    name: '"__proto__" key at the bottom of 50000 levels',
    req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: nestedObjects(50_000, '{"__proto__":{"admin":true}}') }),
    status: 400,
    error: V,
    description: /__proto__/,
  },
  {
    name: '"__proto__" key (prototype pollution)',
    req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: `{"design_id":${f.a.design},"format":"png","__proto__":{"isAdmin":true}}` }),
    status: 400,
    error: V,
    description: /^\$\.__proto__: a "__proto__" key is refused \(it could reach the prototype of an object\): rename or remove it$/,
  },
  {
    name: '"constructor.prototype" in overrides',
    req: () => ({
      path: R,
      headers: { 'content-type': 'application/json' },
      body: `{"design_id":${f.a.design},"format":"png","objects_overrides":{"constructor":{"prototype":{"x":1}}}}`,
    }),
    status: 400,
    error: V,
    description: /^\$\.objects_overrides\.constructor\.prototype: a "constructor\.prototype" key is refused/,
  },
  {
    name: 'invalid UTF-8 in an object name',
    req: () => ({
      path: R,
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat([
        Buffer.from(`{"design_id":${f.a.design},"format":"png","objects_overrides":{"`),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('":{"text":"x"}}}'),
      ]),
    }),
    status: 400,
    error: V,
    description: /no object named/,
  },

  // fields
  { name: 'unknown top-level field', req: () => render({ priority: 'high' }), status: 400, error: V, description: /unknown field "priority"|priority/ },
  {
    name: 'misspelled field (webhook instead of webhook_url)',
    req: () => render({ webhook: 'https://example.com/h' }),
    status: 400,
    error: V,
    description: /webhook/,
  },
  { name: 'design_id as a string', req: () => render({ design_id: String(f.a.design) }), status: 400, error: V, description: /^\$\.design_id/ },
  { name: 'design_id negative', req: () => render({ design_id: -1 }), status: 400, error: V, description: /^\$\.design_id/ },
  { name: 'design_id zero', req: () => render({ design_id: 0 }), status: 400, error: V, description: /^\$\.design_id/ },
  { name: 'design_id a float', req: () => render({ design_id: 1.5 }), status: 400, error: V, description: /^\$\.design_id/ },
  { name: 'design_id huge (1e300)', req: () => render({ design_id: 1e300 }), status: 400, error: V, description: /^\$\.design_id/ },
  {
    name: 'design_id beyond 2^53',
    req: () => ({ path: R, headers: { 'content-type': 'application/json' }, body: '{"design_id":9007199254740993,"format":"png"}' }),
    status: 400,
    error: V,
    description: /^\$\.design_id/,
  },
  { name: 'design_id missing', req: () => ({ path: R, json: { format: 'png' } }), status: 400, error: V, description: /^\$\.design_id/ },
  { name: 'design_id as an object ({"$gt": 0})', req: () => render({ design_id: { $gt: 0 } }), status: 400, error: V, description: /^\$\.design_id/ },
  { name: 'design_id "1 OR 1=1"', req: () => render({ design_id: '1 OR 1=1' }), status: 400, error: V, description: /^\$\.design_id/ },
  {
    name: `design_id "'; DROP TABLE tasks;--"`,
    req: () => render({ design_id: "'; DROP TABLE tasks;--" }),
    status: 400,
    error: V,
    description: /^\$\.design_id/,
  },
  { name: "another account's design", req: () => render({ design_id: f.b.design }), status: 404, error: 'design_not_found' },
  { name: 'a design that does not exist', req: () => render({ design_id: 999_999 }), status: 404, error: 'design_not_found' },
  { name: 'unknown format', req: () => render({ format: 'bmp' }), status: 400, error: V, description: /^\$\.format/ },
  { name: 'gif format (unavailable in A)', req: () => render({ format: 'gif' }), status: 400, error: V, description: /^\$\.format/ },
  { name: 'format in capitals', req: () => render({ format: 'PNG' }), status: 400, error: V, description: /^\$\.format/ },
  { name: 'format with a NUL byte', req: () => render({ format: 'png\u0000' }), status: 400, error: V, description: /^\$\.format/ },
  { name: 'format missing', req: () => ({ path: R, json: { design_id: f.a.design } }), status: 400, error: V, description: /^\$\.format/ },
  { name: 'objects_overrides an array', req: () => overrides([{ headline: { text: 'x' } }]), status: 400, error: V, description: /^\$\.objects_overrides/ },
  { name: 'objects_overrides null', req: () => overrides(null), status: 400, error: V, description: /^\$\.objects_overrides/ },
  {
    name: 'an override that is a string, not an object',
    req: () => overrides({ headline: 'New text' }),
    status: 400,
    error: V,
    description: /^\$\.objects_overrides\.headline/,
  },
  {
    name: 'Idempotency-Key of 300 characters',
    req: () => render({}, { headers: { 'idempotency-key': 'k'.repeat(300) } }),
    status: 400,
    error: V,
    description: /Idempotency-Key/,
  },

  // names: unicode, emoji, SQL
  {
    name: 'object name with a Cyrillic "е" (homoglyph)',
    req: () => overrides({ headlinе: { text: 'x' } }),
    status: 400,
    error: V,
    description: /no object named/,
  },
  { name: 'emoji object name', req: () => overrides({ '📷🔥': { path: 'x.png' } }), status: 400, error: V, description: /no object named "📷🔥"/ },
  {
    name: 'object name with RTL override and zero-width space',
    req: () => overrides({ '\u202eenil\u200bdaeh': { text: 'x' } }),
    status: 400,
    error: V,
    description: /no object named/,
  },
  { name: 'object name with a NUL byte', req: () => overrides({ 'headline\u0000': { text: 'x' } }), status: 400, error: V, description: /no object named/ },
  {
    name: 'object name with a lone surrogate',
    req: () => ({
      path: R,
      headers: { 'content-type': 'application/json' },
      body: `{"design_id":${f.a.design},"format":"png","objects_overrides":{"\\ud800":{}}}`,
    }),
    status: 400,
    error: V,
    description: /no object named/,
  },
  {
    name: `object name "'; DROP TABLE tasks;--"`,
    req: () => overrides({ "'; DROP TABLE tasks;--": { text: 'x' } }),
    status: 400,
    error: V,
    description: /no object named/,
  },
  {
    name: `object name "headline' OR '1'='1"`,
    req: () => overrides({ "headline' OR '1'='1": { text: 'x' } }),
    status: 400,
    error: V,
    description: /no object named/,
  },
  {
    name: 'object name of 100000 characters',
    req: () => overrides({ ['n'.repeat(100_000)]: { text: 'x' } }),
    status: 400,
    error: V,
    description: /no object named/,
  },
  {
    name: 'SQL in an unknown field of a text override',
    req: () => overrides({ headline: { "text' OR 1=1--": 'x' } }),
    status: 400,
    error: V,
    description: /^\$\.objects_overrides\.headline/,
  },

  // image references
  {
    name: "another account's upload URL",
    req: () => overrides({ photo: { path: f.b.upload } }),
    status: 400,
    error: V,
    description: /^\$\.objects_overrides\.photo\.path: this is not an image uploaded by this account/,
  },
  {
    name: "another account's upload URL with a query",
    req: () => overrides({ photo: { path: `${f.b.upload}?account=${f.a.id}` } }),
    status: 400,
    error: V,
    description: /not an image uploaded by this account/,
  },
  {
    name: "another account's upload in a mockup-style image_url",
    req: () => overrides({ photo: { image_url: f.b.upload } }),
    status: 400,
    error: V,
    description: /^\$\.objects_overrides\.photo\.image_url/,
  },
  {
    name: "another account's upload as an asset: reference",
    req: () => overrides({ photo: { path: `asset:upload-${f.b.uploadToken}` } }),
    status: 400,
    error: V,
    description: /not an "asset:" reference/,
  },
  {
    name: 'own upload token on a foreign host',
    req: () => overrides({ photo: { path: `http://evil.example/public/v2/uploads/${f.a.uploadToken}.png` } }),
    status: 400,
    error: V,
    description: /external image URLs are not allowed/,
  },
  {
    name: 'an external image URL',
    req: () => overrides({ photo: { path: 'https://example.com/cat.png' } }),
    status: 400,
    error: V,
    description: /external image URLs are not allowed/,
  },
  {
    name: 'the cloud metadata service as an image',
    req: () => overrides({ photo: { path: 'http://169.254.169.254/latest/meta-data/iam/' } }),
    status: 400,
    error: V,
    description: /external image URLs are not allowed/,
  },
  {
    name: 'file:///etc/passwd as an image',
    req: () => overrides({ photo: { path: 'file:///etc/passwd' } }),
    status: 400,
    error: V,
    description: /external image URLs are not allowed/,
  },
  {
    name: 'a data: URL as an image',
    req: () => overrides({ photo: { path: 'data:image/png;base64,iVBORw0KGgo=' } }),
    status: 400,
    error: V,
    description: /external image URLs are not allowed/,
  },
  {
    name: 'an asset: reference',
    req: () => overrides({ photo: { path: 'asset:lake-sunset.jpg' } }),
    status: 400,
    error: V,
    description: /not an "asset:" reference/,
  },
  {
    name: 'path traversal ../../package.json',
    req: () => overrides({ photo: { path: '../../package.json' } }),
    status: 400,
    error: V,
    description: /^\$\.objects_overrides\.photo\.path: .*leaves the design folder/,
  },
  {
    name: 'path traversal through an own upload URL',
    req: () => overrides({ photo: { path: `${f.base}/public/v2/uploads/../../../package.json` } }),
    status: 400,
    error: V,
    description: /external image URLs are not allowed/,
  },
  {
    name: 'an absolute path /etc/passwd',
    req: () => overrides({ photo: { path: '/etc/passwd' } }),
    status: 400,
    error: V,
    description: /absolute paths are not allowed/,
  },
  {
    name: 'a UNC path',
    req: () => overrides({ photo: { path: '\\\\evil\\share\\x.png' } }),
    status: 400,
    error: V,
    description: /absolute paths are not allowed/,
  },
  {
    name: 'an external shape background image',
    req: () => overrides({ brand_pill: { background: { type: 'image', path: 'https://example.com/bg.png' } } }),
    status: 400,
    error: V,
    description: /^\$\.objects_overrides\.brand_pill\.background\.path: external/,
  },
  {
    name: 'an image path that is a number',
    req: () => overrides({ photo: { path: 12345 } }),
    status: 400,
    error: V,
    description: /^\$\.objects_overrides\.photo\.path/,
  },

  // webhooks (no private allowance)
  {
    name: 'webhook to 127.0.0.1',
    req: () => webhook('http://127.0.0.1:9/hook'),
    status: 400,
    error: V,
    description: /^\$\.webhook_url: .*private, loopback and link-local/,
  },
  { name: 'webhook to localhost', req: () => webhook('http://localhost:3000/hook'), status: 400, error: V, description: /^\$\.webhook_url: .*localhost/ },
  {
    name: 'webhook to 169.254.169.254',
    req: () => webhook('http://169.254.169.254/latest/meta-data/'),
    status: 400,
    error: V,
    description: /^\$\.webhook_url: .*169\.254\.169\.254/,
  },
  { name: 'webhook to [::1]', req: () => webhook('http://[::1]:8080/hook'), status: 400, error: V, description: /^\$\.webhook_url: .*::1/ },
  { name: 'webhook to ::ffff:127.0.0.1', req: () => webhook('http://[::ffff:127.0.0.1]/hook'), status: 400, error: V, description: /^\$\.webhook_url/ },
  {
    name: 'webhook to 127.0.0.1 written as a decimal',
    req: () => webhook('http://2130706433/hook'),
    status: 400,
    error: V,
    description: /^\$\.webhook_url: .*127\.0\.0\.1/,
  },
  { name: 'webhook to a private network', req: () => webhook('http://10.0.0.5/hook'), status: 400, error: V, description: /^\$\.webhook_url/ },
  { name: 'webhook over ftp://', req: () => webhook('ftp://example.com/hook'), status: 400, error: V, description: /^\$\.webhook_url: .*http or https/ },
  { name: 'webhook javascript:', req: () => webhook('javascript:alert(1)'), status: 400, error: V, description: /^\$\.webhook_url/ },
  { name: 'webhook of 3000 characters', req: () => webhook(`https://example.com/${'a'.repeat(3000)}`), status: 400, error: V, description: /^\$\.webhook_url/ },
  {
    name: 'webhook with credentials',
    req: () => webhook('https://user:secret@example.com/hook'),
    status: 400,
    error: V,
    description: /^\$\.webhook_url: .*credentials/,
  },
  { name: 'webhook that is not a URL', req: () => webhook('not a url'), status: 400, error: V, description: /^\$\.webhook_url/ },
  { name: 'webhook that is a number', req: () => webhook(42), status: 400, error: V, description: /^\$\.webhook_url/ },

  // task ids
  { name: 'task id "1 OR 1=1"', req: () => task('1%20OR%201%3D1'), status: 404, error: 'task_not_found' },
  { name: `task id "'; DROP TABLE tasks;--"`, req: () => task(encodeURIComponent("'; DROP TABLE tasks;--")), status: 404, error: 'task_not_found' },
  { name: 'task id ../1 (raw)', req: () => task('../1', true), status: 404, error: 'not_found' },
  { name: 'task id %2e%2e (raw)', req: () => task('%2e%2e', true), status: 404, error: 'task_not_found' },
  { name: 'task id %2e%2e%2f%2e%2e%2fimprint.db (raw)', req: () => task('%2e%2e%2f%2e%2e%2fimprint.db', true), status: 404, error: 'task_not_found' },
  { name: 'task id -1', req: () => task('-1'), status: 404, error: 'task_not_found' },
  { name: 'task id 0', req: () => task('0'), status: 404, error: 'task_not_found' },
  { name: 'task id of 20 digits', req: () => task('12345678901234567890'), status: 404, error: 'task_not_found' },
  { name: 'task id 1e3', req: () => task('1e3'), status: 404, error: 'task_not_found' },
  { name: 'task id with a NUL byte', req: () => task('1%00'), status: 404, error: 'task_not_found' },
  { name: 'task id of 200 digits', req: () => task('9'.repeat(200)), status: 404, error: 'not_found' },
  { name: 'task id that is not valid percent-encoding (raw)', req: () => task('%zz', true), status: 400, error: V, description: /percent-encoding/ },
  { name: "another account's task", req: () => task(String(f.b.task)), status: 404, error: 'task_not_found' },
  { name: "another account's task with leading zeros", req: () => task(`000${f.b.task}`), status: 404, error: 'task_not_found' },

  // stored files by URL
  { name: "another account's upload by URL", req: () => ({ path: new URL(f.b.upload).pathname }), status: 404, error: 'not_found' },
  {
    name: 'upload path traversal ..%2f..%2fimprint.db (raw)',
    req: () => ({ path: '/public/v2/uploads/..%2f..%2fimprint.db', raw: true }),
    status: 404,
    error: 'not_found',
  },
  { name: 'upload name with SQL', req: () => ({ path: `/public/v2/uploads/${encodeURIComponent("x' OR '1'='1")}` }), status: 404, error: 'not_found' },
  {
    name: 'result path traversal without a key (raw)',
    req: () => ({ path: '/public/v2/results/..%2f..%2f..%2fpackage.json', auth: null, raw: true }),
    status: 404,
    error: 'not_found',
  },
  {
    name: 'a result token that does not exist',
    req: () => ({ path: `/public/v2/results/${'0'.repeat(32)}.png`, auth: null }),
    status: 404,
    error: 'not_found',
  },

  // uploads
  { name: 'upload of 11 MB', req: () => upload([['file', f.elevenMb, 'big.png']]), status: 413, reason: /larger than 10 MB/ },
  {
    name: 'upload of a 20000×20000 png',
    req: () => upload([['file', f.hugePng, 'huge.png']]),
    status: 400,
    reason: /is 20000×20000: images may have at most 40 megapixels: scale it down/,
  },
  {
    name: 'upload of a text file named .png',
    req: () => upload([['file', 'hello, I am not a picture', 'photo.png']]),
    status: 400,
    reason: /not a png, jpeg, webp, gif or avif/,
  },
  {
    name: 'upload of an svg with a script named .png',
    req: () => upload([['file', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'x.png']]),
    status: 400,
    reason: /not a png, jpeg, webp, gif or avif/,
  },
  {
    // An ISO BMFF file like AVIF, but with mp4 brands only: not an image.
    name: 'upload of an mp4 header named .avif',
    req: () => upload([['file', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1')]), 'x.avif']]),
    status: 400,
    reason: /not a png, jpeg, webp, gif or avif/,
  },
  { name: 'upload of a truncated png', req: () => upload([['file', f.png.subarray(0, 60), 'cut.png']]), status: 400, reason: /cannot be read/ },
  {
    name: 'upload of a png signature followed by html',
    req: () => upload([['file', Buffer.concat([f.png.subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')]), 'x.png']]),
    status: 400,
    reason: /cannot be read/,
  },
  { name: 'upload of an empty file', req: () => upload([['file', Buffer.alloc(0), 'empty.png']]), status: 400, reason: /empty/ },
  { name: 'upload with the field named "image"', req: () => upload([['image', f.png, 'a.png']]), status: 400, reason: /named "image": name it "file"/ },
  {
    name: 'upload of two files',
    req: () =>
      upload([
        ['file', f.png, 'a.png'],
        ['file', f.png, 'b.png'],
      ]),
    status: 400,
    reason: /one file/,
  },
  { name: 'upload of a text field only', req: () => upload([['file', 'just text']]), status: 400, reason: /no file/ },
  {
    name: 'upload with 20 fields',
    req: () => upload(Array.from({ length: 20 }, (_, i) => [`f${i}`, 'v'] as [string, string])),
    status: 400,
    reason: /one file field/,
  },
  { name: 'multipart without a boundary', req: () => multipartText('multipart/form-data'), status: 400, reason: /cannot be read/ },
  { name: 'multipart with the wrong boundary', req: () => multipartText('multipart/form-data; boundary=nope'), status: 400, reason: /cannot be read/ },
  { name: 'upload as application/json', req: () => ({ path: U, json: { file: f.png.toString('base64') } }), status: 415, reason: /multipart\/form-data/ },
  {
    name: 'upload of raw image/png bytes',
    req: () => ({ path: U, headers: { 'content-type': 'image/png' }, body: f.png }),
    status: 415,
    reason: /multipart\/form-data/,
  },
  {
    name: 'upload as text/plain',
    req: () => ({ path: U, headers: { 'content-type': 'text/plain' }, body: 'hello' }),
    status: 415,
    reason: /multipart\/form-data/,
  },
  { name: 'upload without a body', req: () => ({ path: U, method: 'POST' }), status: 415, reason: /multipart\/form-data/ },
  // A JSON body the parser refuses comes before the upload's handler: still the upload's own shape.
  {
    name: 'upload as malformed JSON',
    req: () => ({ path: U, headers: { 'content-type': 'application/json' }, body: '{"file":' }),
    status: 400,
    reason: /not valid JSON/,
  },
  { name: 'upload as an empty JSON body', req: () => ({ path: U, headers: { 'content-type': 'application/json' }, body: '' }), status: 400, reason: /empty/ },
  {
    name: 'upload as JSON with a __proto__ key',
    req: () => ({ path: U, headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"x":1}}' }),
    status: 400,
    reason: /__proto__/,
  },
  { name: 'upload as 2 MB of JSON', req: () => ({ path: U, json: { file: 'x'.repeat(2_000_000) } }), status: 413, reason: /larger than the limit/ },

  // authentication
  { name: 'no Authorization header', req: () => render({}, { auth: null }), status: 401, error: 'unauthorized', description: /Authorization: Bearer/ },
  { name: '"Bearer" without a key', req: () => ({ path: `${T}/1`, auth: 'Bearer' }), status: 401, error: 'unauthorized' },
  { name: 'Basic scheme', req: () => ({ path: `${T}/1`, auth: `Basic ${Buffer.from(`${f.a.key}:`).toString('base64')}` }), status: 401, error: 'unauthorized' },
  { name: 'Token scheme with a valid key', req: () => ({ path: `${T}/1`, auth: `Token ${f.a.key}` }), status: 401, error: 'unauthorized' },
  { name: 'key followed by junk after a space', req: () => ({ path: `${T}/1`, auth: `Bearer ${f.a.key} junk` }), status: 401, error: 'unauthorized' },
  { name: 'key with trailing junk', req: () => ({ path: `${T}/1`, auth: `Bearer ${f.a.key}x` }), status: 401, error: 'unauthorized', description: /not known/ },
  { name: 'key of 2 KB', req: () => ({ path: `${T}/1`, auth: `Bearer ${'k'.repeat(2048)}` }), status: 401, error: 'unauthorized' },
  { name: "key \"' OR '1'='1\"", req: () => ({ path: `${T}/1`, auth: "Bearer '||'1'='1" }), status: 401, error: 'unauthorized' },
  { name: 'member key on render', req: () => render({}, { auth: `Bearer ${f.member}` }), status: 403, error: 'forbidden' },
  { name: 'member key on upload', req: () => upload([['file', f.png, 'a.png']], { auth: `Bearer ${f.member}` }), status: 403, error: 'forbidden' },
  { name: 'no key on an 11 MB upload', req: () => upload([['file', f.elevenMb, 'big.png']], { auth: null }), status: 401, error: 'unauthorized' },

  // routes and methods
  { name: 'PUT on render', req: () => ({ ...render({}), method: 'PUT' }), status: 404, error: 'not_found' },
  { name: 'DELETE on a task', req: () => ({ path: `${T}/1`, method: 'DELETE' }), status: 404, error: 'not_found' },
  { name: 'GET on render', req: () => ({ path: R }), status: 404, error: 'not_found' },
  { name: 'render on /public/v1', req: () => ({ ...render({}), path: '/public/v1/render' }), status: 404, error: 'not_found' },

  // requests Node's HTTP parser refuses
  {
    name: 'Content-Length that is not a number (raw)',
    req: () => ({
      wire: `POST ${R} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\nContent-Type: application/json\r\nContent-Length: abc\r\nConnection: close\r\n\r\n{}`,
    }),
    status: 400,
    error: V,
    description: /not valid HTTP/,
  },
  {
    name: 'Content-Length and Transfer-Encoding together (smuggling, raw)',
    req: () => ({
      wire: `POST ${R} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\nGET ${T}/1 HTTP/1.1\r\nHost: x\r\n\r\n`,
    }),
    status: 400,
    error: V,
    description: /not valid HTTP/,
  },
  {
    name: 'Content-Length shorter than the body (raw)',
    req: () => ({
      wire: `POST ${R} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n${validJson()}`,
    }),
    status: 400,
    error: V,
  },
  {
    name: 'a 40 KB URL (raw)',
    req: () => ({ wire: `GET ${T}/${'1'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\nConnection: close\r\n\r\n` }),
    status: 431,
    error: 'payload_too_large',
  },
];

// ── state that must not change ───────────────────────────────────────────────────────────────────

async function state() {
  const uploads = (await service.ctx.blobs.list('uploads/')).sort();
  return {
    tasksA: (await service.ctx.meta.listTasks(f.a.id)).length,
    tasksB: (await service.ctx.meta.listTasks(f.b.id)).length,
    uploads,
    blobs: (await service.ctx.blobs.list('')).length,
  };
}

async function healthy(): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${f.port}/healthz`);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { status: string }).status).toBe('ok');
}

function checkShape(a: Answer, c: Pick<Case, 'status' | 'error' | 'reason' | 'description'>): void {
  expect(a.text).not.toMatch(NO_STACK);
  expect(a.text).not.toMatch(/node_modules|\/src\/|\/dist\//);
  // A refusal says what is wrong in a few lines: it never echoes a huge input back.
  expect(a.text.length).toBeLessThan(2000);
  const body = JSON.parse(a.text) as Record<string, unknown>;
  if (c.reason) {
    expect({ status: a.status, body }).toEqual({ status: c.status, body: { result: 'error', reason: expect.stringMatching(c.reason) } });
  } else {
    expect({ status: a.status, body }).toEqual({ status: c.status, body: { error: c.error, description: expect.any(String) } });
    expect((body.description as string).length).toBeGreaterThan(10);
    if (c.description) expect(body.description).toMatch(c.description);
  }
}

// ── setup ───────────────────────────────────────────────────────────────────────────────────────

async function makeAccount(name: string, template: unknown): Promise<Omit<Account, 'upload' | 'uploadToken'>> {
  const { account, apiKey } = await service.createAccount({ name });
  await service.setPlan(account.id, { requests_per_minute: 1_000_000, queue_size: 1000 });
  const design = await service.importDesign(account.id, template, { baseDir: CARD, name: 'card' });
  return { id: account.id, key: apiKey, design: design.id };
}

async function httpUpload(
  key: string,
  bytes: Uint8Array,
  filename = 'photo.png',
): Promise<{ status: number; body: { result: string; url?: string; reason?: string } }> {
  const res = await fetch(`http://127.0.0.1:${f.port}${U}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form([['file', bytes, filename]]),
  });
  return { status: res.status, body: (await res.json()) as { result: string; url?: string } };
}

describe('interface A under hostile and malformed requests', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'imprint-hostile-'));
    const config = configFromEnv({
      IMPRINT_DATA_DIR: dir,
      IMPRINT_PORT: '0',
      IMPRINT_HOST: '127.0.0.1',
      IMPRINT_POLL_INTERVAL_S: '0',
      IMPRINT_LOG_LEVEL: 'silent',
    });
    expect(config.webhookAllowPrivate).toBe(false);
    service = await Service.open(config, { log: pino({ level: 'silent' }) });
    app = await buildServer(service);
    const base = await listen(app, service);
    const port = (app.server.address() as { port: number }).port;
    const template = JSON.parse(await readFile(join(CARD, 'design.json'), 'utf8')) as { objects: { name: string; type: string }[] };
    expect(template.objects).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'headline', type: 'text' }), expect.objectContaining({ name: 'photo', type: 'image' })]),
    );

    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a9d8f' } })
      .png()
      .toBuffer();
    // 400 megapixels of one grey channel deflate to a few hundred KB: a small file, a huge bitmap.
    const hugePng = await sharp({ create: { width: 20_000, height: 20_000, channels: 3, background: '#000000' }, limitInputPixels: false })
      .extractChannel(0)
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(hugePng.length).toBeLessThan(10 * 1024 * 1024);
    expect(await sharp(hugePng, { limitInputPixels: false }).metadata()).toMatchObject({ width: 20_000, height: 20_000, format: 'png' });
    const elevenMb = Buffer.concat([png, Buffer.alloc(11 * 1024 * 1024 - png.length, 7)]);

    const a = await makeAccount('Account A', template);
    const b = await makeAccount('Bob’s "Ünïcødé" 📷 Co.', template);
    const { apiKey: member } = await service.createKey(a.id, 'member');
    f = { a: { ...a, upload: '', uploadToken: '' }, b: { ...b, upload: '', uploadToken: '', task: 0 }, member, base, port, png, hugePng, elevenMb };

    // What the hostile cases are measured against, made over HTTP: each account has an upload, B a task.
    for (const acc of [f.a, f.b]) {
      const up = await httpUpload(acc.key, png);
      expect(up).toEqual({ status: 201, body: { result: 'success', url: expect.stringMatching(/\/public\/v2\/uploads\/[0-9a-f]{32}\.png$/) } });
      acc.upload = up.body.url!;
      acc.uploadToken = /([0-9a-f]{32})\.png$/.exec(acc.upload)![1]!;
    }
    const res = await fetch(`http://127.0.0.1:${port}${R}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.b.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ design_id: f.b.design, format: 'png', objects_overrides: { photo: { path: f.b.upload }, headline: { text: 'B' } } }),
    });
    expect(res.status).toBe(202);
    f.b.task = ((await res.json()) as { task_id: number }).task_id;
    // The cases below expect nothing else to exist.
    expect(await state()).toMatchObject({ tasksA: 0, tasksB: 1 });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has at least 40 hostile cases, each named once', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: a clear error, nothing changed',
    async (_name, c) => {
      const before = await state();
      const answer = await send(c.req());
      checkShape(answer, c);
      expect(await state()).toEqual(before);
      await healthy();
    },
    30_000,
  );

  it('stores an upload under a random name whatever file name it was sent with', async () => {
    const names = [
      '../../etc/passwd.png',
      '..\\..\\windows\\win.ini.png',
      '/etc/cron.d/x.png',
      'a\u0000b.png',
      `${'ü'.repeat(300)}.png`,
      "'; DROP TABLE uploads;--.png",
      '.htaccess',
    ];
    for (const filename of names) {
      const before = await state();
      const res = await send(upload([['file', f.png, filename]]));
      expect(res.text).not.toMatch(NO_STACK);
      const body = JSON.parse(res.text) as { result: string; url?: string };
      // Real png bytes: accepted, but nothing of the name is used.
      expect({ status: res.status, body }).toEqual({
        status: 201,
        body: { result: 'success', url: expect.stringMatching(new RegExp(`^${f.base}/public/v2/uploads/[0-9a-f]{32}\\.png$`)) },
      });
      const after = await state();
      expect(after.uploads).toHaveLength(before.uploads.length + 1);
      for (const key of after.uploads) expect(key).toMatch(UPLOAD_KEY);
      expect(after.uploads.filter((k) => !before.uploads.includes(k))).toEqual([`uploads/${f.a.id}/${/([0-9a-f]{32})\.png$/.exec(body.url!)![1]}.png`]);
      expect({ tasksA: after.tasksA, tasksB: after.tasksB }).toEqual({ tasksA: before.tasksA, tasksB: before.tasksB });
    }
    await healthy();
  });

  it('still accepts a valid render afterwards, and SQL-looking text is only text', async () => {
    const before = await state();
    const text = "'; DROP TABLE tasks;-- \u202e 📷";
    const res = await send(overrides({ headline: { text }, photo: { path: f.a.upload } }));
    expect(res.status).toBe(202);
    const { task_id } = JSON.parse(res.text) as { task_id: number };
    const tasks = await service.ctx.meta.listTasks(f.a.id);
    expect(tasks).toHaveLength(before.tasksA + 1);
    expect(tasks.find((t) => t.id === task_id)?.overrides).toMatchObject({ headline: { text } });
    expect(await service.ctx.meta.listTasks(f.b.id)).toHaveLength(before.tasksB);
    const status = await send(task(String(task_id)));
    expect(JSON.parse(status.text)).toEqual({ id: task_id, state: 'queued', design_id: f.a.design });
    await healthy();
  });
});
