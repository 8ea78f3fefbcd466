// The Studio's files over HTTP (src/http/studio.ts): /studio answers the built index.html, assets by
// name with their types and cache headers, the security headers (CSP, nosniff, no referrer) on every
// Studio answer, nothing outside the built folder whatever the path, 404 for unknown files, and a
// clear 503 when the Studio was never built. Uses the real dist/studio/ of `npm run build`.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer, listen, resultImageOrigin } from '../src/http/server.js';
import { STUDIO_DIR, STUDIO_HEADERS, studioHeaders } from '../src/http/studio.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

let dataDir: string;
let service: Service;
const apps: FastifyInstance[] = [];

async function serverWith(studioDir?: string): Promise<FastifyInstance> {
  const app = await buildServer(service, studioDir ? { studioDir } : {});
  apps.push(app);
  return app;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'imprint-studio-serve-'));
  const config = configFromEnv({ IMPRINT_DATA_DIR: dataDir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' });
  service = await Service.open(config, { log: pino({ level: 'silent' }) });
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers['content-security-policy']).toBe(CSP);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('the built Studio (dist/studio)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await serverWith();
  });

  it('answers index.html at /studio and /studio/, naming the built script and style sheet and no inline code', async () => {
    for (const url of ['/studio', '/studio/', '/studio?x=1']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expectSecurityHeaders(res.headers);
      expect(res.body).toBe(readFileSync(join(STUDIO_DIR, 'index.html'), 'utf8'));
    }
    const html = (await app.inject({ url: '/studio' })).body;
    const script = /<script type="module" src="\/studio\/(app\.[0-9a-f]+\.js)"><\/script>/.exec(html)?.[1];
    const style = /<link rel="stylesheet" href="\/studio\/(app\.[0-9a-f]+\.css)" \/>/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    // CSP has no 'unsafe-inline': the page must not need it.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);

    const js = await app.inject({ url: `/studio/${script}` });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(js.headers);
    expect(js.body).toBe(readFileSync(join(STUDIO_DIR, script!), 'utf8'));
    const css = await app.inject({ url: `/studio/${style}` });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expectSecurityHeaders(css.headers);
  });

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await app.inject({ url: '/studio' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.inject({ url: '/studio', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expectSecurityHeaders(again.headers);
  });

  it('answers 404 with the security headers for a file the build did not write', async () => {
    for (const url of ['/studio/nope.js', '/studio/app.js', '/studio/index.htm', '/studio/a/b.js']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ error: 'not_found' });
      expectSecurityHeaders(res.headers);
    }
  });

  it('never reaches a file outside dist/studio, however the path is written', async () => {
    const attempts = [
      '/studio/../package.json',
      '/studio/../../package.json',
      '/studio/..%2F..%2Fpackage.json',
      '/studio/%2e%2e/%2e%2e/package.json',
      '/studio/%2e%2e%2f%2e%2e%2fpackage.json',
      '/studio/..\\..\\package.json',
      '/studio/%5c..%5c..%5cpackage.json',
      '/studio//etc/passwd',
      '/studio/%00index.html',
      '/studio/.%2e/pkg/http.js',
    ];
    for (const url of attempts) {
      const res = await app.inject({ url });
      expect(res.body, url).not.toContain('"name": "imprint"');
      expect(res.body, url).not.toContain('root:');
      expect([400, 404], url).toContain(res.statusCode);
    }
    // The same over a real socket, where no client tidies the path first.
    const base = await listen(app, service);
    for (const path of ['/studio/../../package.json', '/studio/..%2f..%2fpackage.json']) {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${base}${path}`, { path }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body, path).not.toContain('"name": "imprint"');
      expect([400, 404], path).toContain(status);
    }
  });

  it('leaves the rest of the service as it was (no Studio headers on the API)', async () => {
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(STUDIO_HEADERS['content-security-policy']).toBe(CSP);
  });
});

describe('a Studio folder of its own', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'imprint-studio-files-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says to run npm run build while there is no build, then serves it once there is, without a restart', async () => {
    const app = await serverWith(dir);
    const missing = await app.inject({ url: '/studio' });
    expect(missing.statusCode).toBe(503);
    expect(missing.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(missing.body).toMatch(/npm run build/);
    expectSecurityHeaders(missing.headers);
    expect((await app.inject({ url: '/studio/app.js' })).statusCode).toBe(503);

    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>one</title>');
    writeFileSync(join(dir, 'app.0123456789.js'), 'console.log(1)');
    writeFileSync(join(dir, '.env'), 'SECRET=1');
    writeFileSync(join(dir, 'notes.md'), 'private');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'x.js'), 'nested');
    const built = await app.inject({ url: '/studio/' });
    expect(built.statusCode).toBe(200);
    expect(built.body).toContain('one');
    expect((await app.inject({ url: '/studio/app.0123456789.js' })).body).toBe('console.log(1)');
    // Only the build's kinds of file, at the top of the folder.
    for (const url of ['/studio/.env', '/studio/notes.md', '/studio/sub/x.js', '/studio/sub']) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }

    // A new build while the service runs: the next request sees it.
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>two</title>');
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, 'index.html'), later, later);
    writeFileSync(join(dir, 'app.abcdef0123.js'), 'console.log(2)');
    expect((await app.inject({ url: '/studio' })).body).toContain('two');
    expect((await app.inject({ url: '/studio/app.abcdef0123.js' })).body).toBe('console.log(2)');
    expect(readdirSync(dir)).toContain('index.html');
  });
});

describe('the Studio CSP with results in a bucket', () => {
  const logged: string[] = [];
  const log = { warn: (_o: unknown, msg: string) => void logged.push(msg) } as unknown as Service['ctx']['log'];
  const blobs = (presign?: () => Promise<string>) => ({ presign }) as unknown as Service['ctx']['blobs'];

  it("lets pictures come from the bucket's origin, found by signing an address", async () => {
    expect(await resultImageOrigin({ log, blobs: blobs(async () => 'https://bucket.s3.example:9000/x?X-Amz-Signature=1') })).toBe(
      'https://bucket.s3.example:9000',
    );
    expect(await resultImageOrigin({ log, blobs: blobs() })).toBeUndefined();
    expect(studioHeaders(['https://bucket.s3.example:9000'])['content-security-policy']).toContain(
      "img-src 'self' data: blob: https://bucket.s3.example:9000; connect-src 'self';",
    );
  });

  it('starts without it, and says so, when the store cannot sign (no credentials, or none in time)', async () => {
    logged.length = 0;
    expect(await resultImageOrigin({ log, blobs: blobs(() => Promise.reject(new Error('no credentials'))) })).toBeUndefined();
    vi.useFakeTimers();
    try {
      const pending = resultImageOrigin({ log, blobs: blobs(() => new Promise<string>(() => {})) });
      await vi.advanceTimersByTimeAsync(3000);
      expect(await pending).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    expect(logged).toEqual([expect.stringMatching(/could not sign/), expect.stringMatching(/could not sign/)]);
  });
});
