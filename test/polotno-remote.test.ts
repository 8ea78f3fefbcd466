// Remote files of a Polotno document (issue 28): fetched once at import (the library's importInput,
// `imprint import polotno`, `imprint admin import-design` and POST /public/v2/designs) into the
// design's own files, their URLs kept in `sources`; through the SSRF guard (refused as private
// without the configured allowance, a redirect to a private address refused even with it), within
// time, size and type limits; renders still never fetch, and overrides still take uploads only.
// A local HTTP server on 127.0.0.1 serves the files. The CLI cases run dist/: `npm test` builds first.
import { execFile } from 'node:child_process';
import dns from 'node:dns';
import { mkdtemp, readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AssetResolver } from '../src/assets/resolver.js';
import { render, type DesignInput } from '../src/engine.js';
import { ImprintError } from '../src/errors.js';
import { buildServer, listen } from '../src/http/server.js';
import { ConfigError, configFromEnv, importFetchFromEnv } from '../src/service/config.js';
import { isAllowedAddress, parseAddressRanges } from '../src/service/outbound.js';
import { importInput } from '../src/service/remote-files.js';
import { Service } from '../src/service/service.js';
import { TaskWorker } from '../src/worker/worker.js';
import { waitFor } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const TTF_PATH = join(ROOT, 'node_modules', '@expo-google-fonts', 'inter', '400Regular', 'Inter_400Regular.ttf');
/** The test server's address is loopback: allowed by this, and by nothing else. */
const LOOPBACK = parseAddressRanges('127.0.0.1');
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#2f6fed"/></svg>';

const run = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd: ROOT, env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let server: http.Server;
let base: string;
let png: Buffer;
let ttf: Buffer;
/** Requests per path: what was fetched, and how often. */
const hits = new Map<string, number>();
const hitsOf = (path: string) => hits.get(path) ?? 0;

beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#e4572e' } })
    .png()
    .toBuffer();
  ttf = await readFile(TTF_PATH);
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, hitsOf(path) + 1);
    const send = (type: string, body: string | Buffer) => res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
    const redirect = (to: string) => res.writeHead(302, { location: to }).end();
    switch (path) {
      case '/photo.png':
        return send('image/png', png);
      case '/photo.bin':
        return send('application/octet-stream', png); // the bytes say what it is
      case '/logo.svg':
        return send('image/svg+xml; charset=utf-8', SVG);
      case '/font.ttf':
        return send('font/ttf', ttf);
      case '/page.html':
        return send('text/html; charset=utf-8', '<!doctype html><title>Sign in</title>');
      case '/fake.png':
        return send('image/png', 'not a picture at all');
      case '/slow.png':
        // Headers and a first slice, then nothing more, ever: only the time limit ends this.
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.write(png.subarray(0, 16));
      case '/huge.png': {
        // No Content-Length and a body that never ends: only the size limit ends this.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(256 * 1024);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        return pump();
      }
      case '/declared.png':
        // Announces 50 MB and sends nothing: refused from the header alone.
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': 50 * 1024 * 1024 });
        return void res.flushHeaders();
      case '/to-photo':
        return redirect('/photo.png');
      case '/to-metadata':
        return redirect('http://169.254.169.254/latest/meta-data/');
      case '/loop':
        return redirect('/loop');
      default:
        return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type Json = Record<string, unknown>;
const page = (children: Json[], extra: Json = {}, doc: Json = {}) => ({
  width: 300,
  height: 200,
  schemaVersion: 4,
  ...doc,
  pages: [{ id: 'p', children, ...extra }],
});

/** A card that uses every kind of remote file once, the photo twice (as an element and as the page background). */
const card = (at: (file: string) => string) =>
  page(
    [
      { type: 'image', name: 'photo', x: 20, y: 20, width: 120, height: 90, src: at('photo.png'), cornerRadius: 12, borderSize: 4, borderColor: 'white' },
      { type: 'svg', name: 'logo', x: 180, y: 20, width: 80, height: 80, src: at('logo.svg') },
      { type: 'text', name: 'title', x: 20, y: 130, width: 260, text: 'Fetched once', fontFamily: 'Brand Sans', fontSize: 32, fill: 'white' },
    ],
    { background: at('photo.png') },
    { fonts: [{ fontFamily: 'Brand Sans', url: at('font.ttf') }] },
  );
const remoteCard = () => card((f) => `${base}/${f}`);

/** The same card with its files beside it, as a folder: what the remote one must render like. */
async function localCard(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'imprint-remote-local-'));
  await writeFile(join(dir, 'photo.png'), png);
  await writeFile(join(dir, 'logo.svg'), SVG);
  await writeFile(join(dir, 'font.ttf'), ttf);
  await writeFile(join(dir, 'polotno.json'), JSON.stringify(card((f) => f)));
  return dir;
}

const filesResolver =
  (files: ReadonlyMap<string, Uint8Array>): AssetResolver =>
  async (ref) => {
    const bytes = ref.kind === 'path' ? files.get(ref.path) : undefined;
    if (!bytes) throw new Error(`no file ${JSON.stringify(ref)}`);
    return bytes;
  };

async function refusal(work: Promise<unknown>): Promise<ImprintError> {
  const e = await work.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ImprintError);
  expect((e as ImprintError).code).toBe('validation_error');
  return e as ImprintError;
}

describe('the library: importInput', () => {
  it('fetches each remote file once into the design, records where it came from, and renders like the files beside the JSON', async () => {
    const before = { photo: hitsOf('/photo.png'), logo: hitsOf('/logo.svg'), font: hitsOf('/font.ttf') };
    const imported = await importInput(remoteCard(), { fetch: { allowPrivate: LOOPBACK } });
    // The photo is used twice (element and page background) and fetched once.
    expect(hitsOf('/photo.png') - before.photo).toBe(1);
    expect(hitsOf('/logo.svg') - before.logo).toBe(1);
    expect(hitsOf('/font.ttf') - before.font).toBe(1);
    const design = imported.design as { sources: Record<string, string>; objects: Json[]; fonts: Json[]; background: Json };
    const paths = Object.keys(design.sources);
    expect(paths).toHaveLength(3);
    for (const p of paths) expect(p).toMatch(/^embedded\/[0-9a-f]{24}\.(png|svg|ttf)$/);
    expect(Object.values(design.sources).sort()).toEqual([`${base}/font.ttf`, `${base}/logo.svg`, `${base}/photo.png`]);
    const photo = paths.find((p) => p.endsWith('.png'))!;
    expect(design.objects[0]!.path).toBe(photo);
    expect(design.background).toEqual({ type: 'image', path: photo });
    expect(design.fonts[0]).toEqual({ family: 'Brand Sans', path: paths.find((p) => p.endsWith('.ttf')) });
    expect(Buffer.from(imported.files.get(photo)!).equals(png)).toBe(true);

    const dir = await localCard();
    const local = await render({ design: JSON.parse(await readFile(join(dir, 'polotno.json'), 'utf8')) as DesignInput, format: 'png', baseDir: dir });
    const fetched = await render({ design: imported.design as DesignInput, format: 'png', assets: filesResolver(imported.files) });
    expect(fetched.bytes.equals(local.bytes)).toBe(true);
  });

  it('takes the type from the bytes when the server sends a generic one, and follows a redirect through the same checks', async () => {
    const imported = await importInput(
      page([
        { type: 'image', name: 'a', x: 0, y: 0, width: 50, height: 50, src: `${base}/photo.bin` },
        { type: 'image', name: 'b', x: 60, y: 0, width: 50, height: 50, src: `${base}/to-photo` },
      ]),
      { fetch: { allowPrivate: LOOPBACK } },
    );
    const objects = (imported.design as { objects: Json[] }).objects;
    // The same bytes under two URLs: one file, recorded with the first URL that brought it.
    expect(objects[0]!.path).toMatch(/^embedded\/[0-9a-f]{24}\.png$/);
    expect(objects[1]!.path).toBe(objects[0]!.path);
    expect((imported.design as { sources: Json }).sources).toEqual({ [objects[0]!.path as string]: `${base}/photo.bin` });
  });

  it('stops the other downloads at the first failure instead of waiting for them', async () => {
    const doc = page([
      { type: 'image', src: `${base}/slow.png` },
      { type: 'image', src: `${base}/missing.png` },
    ]);
    const started = performance.now();
    const e = await refusal(importInput(doc, { fetch: { allowPrivate: LOOPBACK, timeoutMs: 60_000 } }));
    expect(e.path).toBe('$.pages[0].children[1].src');
    expect(e.message).toContain('the server answered 404 Not Found');
    // The slow one would hold the import for its whole minute.
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('refuses the same import as private without the allowance, and never connects', async () => {
    const before = [...hits.values()].reduce((a, b) => a + b, 0);
    const e = await refusal(importInput(remoteCard()));
    // The font comes first in the document's conversion: its path and URL are named.
    expect(e.path).toBe('$.fonts[0].url');
    expect(e.message).toBe(
      `could not fetch the font file "${base}/font.ttf": it points at 127.0.0.1: private, loopback and link-local addresses are not allowed; fix the URL, or save the file beside the JSON file and give its relative path`,
    );
    const only = await refusal(importInput(page([{ type: 'image', src: `${base}/photo.png` }]), { fetch: { allowPrivate: false } }));
    expect(only.path).toBe('$.pages[0].children[0].src');
    expect(only.message).toMatch(/points at 127\.0\.0\.1: private, loopback and link-local addresses are not allowed/);
    expect([...hits.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });

  describe('a host name', () => {
    afterEach(() => vi.restoreAllMocks());
    const named = () => `http://cdn.imprint.test:${new URL(base).port}/photo.png`;

    it('is resolved once and the connection goes to the address that was checked', async () => {
      const lookup = vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
      const before = hitsOf('/photo.png');
      // .test never resolves in real DNS: reaching the server proves the checked address was used.
      const imported = await importInput(page([{ type: 'image', src: named() }]), { fetch: { allowPrivate: LOOPBACK } });
      expect(lookup).toHaveBeenCalledTimes(1);
      expect(hitsOf('/photo.png')).toBe(before + 1);
      expect(Object.values((imported.design as { sources: Json }).sources)).toEqual([named()]);
    });

    it('is refused when any of its addresses is private and not allowed', async () => {
      vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
        { address: '127.0.0.1', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ] as never);
      const e = await refusal(importInput(page([{ type: 'image', src: named() }]), { fetch: { allowPrivate: LOOPBACK } }));
      expect(e.message).toContain(
        `could not fetch the image "${named()}": it points at cdn.imprint.test, which resolves to 10.0.0.7: private, loopback and link-local addresses are not allowed`,
      );
    });
  });

  const failures: [name: string, element: Json, why: RegExp, opts?: Json][] = [
    ['a 404', { type: 'image', src: '/missing.png' }, /: the server answered 404 Not Found;/],
    [
      'a response that never ends, at the time limit',
      { type: 'image', src: '/slow.png' },
      /: no complete answer within 300 ms \(the time limit\);/,
      { timeoutMs: 300 },
    ],
    ['a body that never ends, at the size limit', { type: 'image', src: '/huge.png' }, /: it is larger than the limit of 10 MB \(reading stopped there\);/],
    ['a Content-Length over the limit', { type: 'image', src: '/declared.png' }, /: it is 50 MB, more than the limit of 10 MB;/],
    ['a configured size limit', { type: 'image', src: '/photo.png' }, /: it is 204 bytes, more than the limit of 100 bytes;/, { maxBytes: 100 }],
    ['an HTML page', { type: 'image', src: '/page.html' }, /: the server says it is text\/html, not an image \(png, jpeg, webp, gif or avif\);/],
    [
      'bytes that are not what the type says',
      { type: 'image', src: '/fake.png' },
      /: its content is not an image \(png, jpeg, webp, gif or avif\) \(the server says image\/png\);/,
    ],
    ['an image where an SVG is needed', { type: 'svg', src: '/photo.png' }, /: the server says it is image\/png, not an SVG file \(image\/svg\+xml\);/],
    [
      'a redirect to a private address',
      { type: 'image', src: '/to-metadata' },
      /: it redirects to http:\/\/169\.254\.169\.254\/latest\/meta-data\/, which points at 169\.254\.169\.254: private, loopback and link-local addresses are not allowed;/,
    ],
    ['endless redirects', { type: 'image', src: '/loop' }, /: it redirects more than 5 times;/],
  ];

  it.each(failures)('names the URL, the element and why: %s', async (_name, element, why, opts = {}) => {
    const url = `${base}${element.src as string}`;
    // Inside a group: the path is the element's own, in the Polotno document.
    const doc = page([
      { type: 'text', text: 'x', fontFamily: 'Inter' },
      { type: 'group', children: [{ ...element, src: url }] },
    ]);
    const started = performance.now();
    const e = await refusal(importInput(doc, { fetch: { allowPrivate: LOOPBACK, ...opts } }));
    expect(e.path).toBe('$.pages[0].children[1].children[0].src');
    const what = element.type === 'svg' ? 'svg' : 'image';
    expect(e.message).toContain(`could not fetch the ${what} "${url}"`);
    expect(e.message).toMatch(why);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('renders never fetch; overrides take uploads only', () => {
  it('render() refuses a remote URL in the Polotno document at its path, says to import it first, and does not connect', async () => {
    const before = hitsOf('/photo.png');
    const e = await refusal(render({ design: page([{ type: 'image', name: 'photo', src: `${base}/photo.png` }]), format: 'png' }));
    expect(e.path).toBe('$.pages[0].children[0].src');
    expect(e.message).toBe(
      `remote URLs are not fetched by a render (${JSON.stringify(`${base}/photo.png`)}): import it first: npx imprint import polotno <file.json> --out <folder> fetches each remote file once into the design's folder; or save the image beside the JSON file and give its relative path, or embed it as a data: URL`,
    );
    expect(hitsOf('/photo.png')).toBe(before);
  });

  it('an imported design still refuses a remote URL as an image override', async () => {
    const imported = await importInput(remoteCard(), { fetch: { allowPrivate: LOOPBACK } });
    const before = hitsOf('/photo.png');
    const e = await refusal(
      render({
        design: imported.design as DesignInput,
        overrides: { photo: { path: `${base}/photo.png` } },
        format: 'png',
        assets: filesResolver(imported.files),
      }),
    );
    expect(e.path).toBe('$.objects_overrides.photo.path');
    expect(hitsOf('/photo.png')).toBe(before);
  });
});

describe('CLI', () => {
  it('import polotno fetches the remote files into the folder, which renders like the local files; refused as private without the allowance', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'imprint-remote-cli-'));
    await writeFile(join(dir, 'card.json'), JSON.stringify(remoteCard()));

    const refused = await run(['import', 'polotno', join(dir, 'card.json'), '--out', join(dir, 'refused')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`validation_error at $.fonts[0].url: could not fetch the font file "${base}/font.ttf": it points at 127.0.0.1: private`);
    await expect(readdir(join(dir, 'refused'))).rejects.toThrow(/ENOENT/);

    const ok = await run(['import', 'polotno', join(dir, 'card.json'), '--out', join(dir, 'design')], { IMPRINT_IMPORT_ALLOW_PRIVATE: '127.0.0.1' });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ design: join(dir, 'design', 'design.json'), files: 3 });
    const design = JSON.parse(await readFile(join(dir, 'design', 'design.json'), 'utf8')) as { sources: Record<string, string> };
    expect(Object.values(design.sources).sort()).toEqual([`${base}/font.ttf`, `${base}/logo.svg`, `${base}/photo.png`]);
    for (const path of Object.keys(design.sources)) await readFile(join(dir, 'design', path));

    const local = await localCard();
    const a = await run(['render', join(local, 'polotno.json'), '--out', join(dir, 'local.png')]);
    const b = await run(['render', join(dir, 'design', 'design.json'), '--out', join(dir, 'imported.png')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect((await readFile(join(dir, 'imported.png'))).equals(await readFile(join(dir, 'local.png')))).toBe(true);

    // The render of the Polotno file itself still never fetches.
    const direct = await run(['render', join(dir, 'card.json'), '--out', join(dir, 'direct.png')]);
    expect(direct.code).toBe(2);
    expect(direct.stderr).toContain('remote URLs are not fetched by a render');
    expect(direct.stderr).toContain('import it first: npx imprint import polotno <file.json> --out <folder>');
  });

  it('import polotno gives up on a response that never ends at the configured time limit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'imprint-remote-cli-'));
    await writeFile(join(dir, 'slow.json'), JSON.stringify(page([{ type: 'image', src: `${base}/slow.png` }])));
    const r = await run(['import', 'polotno', join(dir, 'slow.json'), '--out', join(dir, 'out')], {
      IMPRINT_IMPORT_ALLOW_PRIVATE: '127.0.0.1',
      IMPRINT_IMPORT_FETCH_TIMEOUT_S: '0.3',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `validation_error at $.pages[0].children[0].src: could not fetch the image "${base}/slow.png": no complete answer within 300 ms`,
    );
  });

  it('admin import-design fetches them into the stored design; refused as private without the allowance', async () => {
    const data = await mkdtemp(join(tmpdir(), 'imprint-remote-admin-'));
    await mkdir(join(data, 'card'));
    await writeFile(join(data, 'card', 'polotno.json'), JSON.stringify(remoteCard()));
    const env = { IMPRINT_DATA_DIR: data };
    expect((await run(['admin', 'init'], env)).code).toBe(0);
    const account = await run(['admin', 'create-account', '--name', 'Remote'], env);
    expect(account.code, account.stderr).toBe(0);
    const id = String((JSON.parse(account.stdout) as { account_id: number }).account_id);
    const refused = await run(['admin', 'import-design', join(data, 'card', 'polotno.json'), '--account', id], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('private, loopback and link-local addresses are not allowed');
    const ok = await run(['admin', 'import-design', join(data, 'card', 'polotno.json'), '--account', id], {
      ...env,
      IMPRINT_IMPORT_ALLOW_PRIVATE: '127.0.0.1',
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ kind: 'design', files: 3 });
  });
});

describe('HTTP: POST /public/v2/designs', () => {
  let dir: string;
  let service: Service;
  let app: FastifyInstance;
  let worker: TaskWorker;
  let api: string;
  let key: string;
  let accountId: number;
  const auth = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'imprint-remote-http-'));
    const config = configFromEnv({
      IMPRINT_DATA_DIR: dir,
      IMPRINT_PORT: '0',
      IMPRINT_HOST: '127.0.0.1',
      IMPRINT_POLL_INTERVAL_S: '0',
      IMPRINT_IMPORT_ALLOW_PRIVATE: '127.0.0.1',
    });
    service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
    app = await buildServer(service);
    api = `${await listen(app, service)}/public/v2`;
    worker = new TaskWorker(service.ctx, { slots: 1 });
    worker.start();
    const created = await service.createAccount({ name: 'Studio', balance: 100 });
    key = created.apiKey;
    accountId = created.account.id;
    await service.setPlan(created.account.id, { requests_per_minute: 100_000 });
  }, 60_000);

  afterAll(async () => {
    await app.close();
    await worker.stop(0);
    await service.close();
  });

  const post = (doc: unknown) => {
    const form = new FormData();
    form.append('file', new Blob([JSON.stringify(doc)], { type: 'application/json' }), 'polotno.json');
    return fetch(`${api}/designs`, { method: 'POST', headers: auth(), body: form });
  };

  it('stores the fetched files with the design, which renders through interface A like the local files', async () => {
    const res = await post(remoteCard());
    expect(res.status, await res.clone().text()).toBe(201);
    const { design_id } = (await res.json()) as { design_id: number };
    const stored = await service.getDesign(accountId, design_id);
    expect(Object.keys(stored.assets).sort()).toEqual(Object.keys((stored.template as { sources: Json }).sources).sort());

    const task = await fetch(`${api}/render`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ design_id, format: 'png' }),
    });
    expect(task.status).toBe(202);
    const { task_id } = (await task.json()) as { task_id: number };
    const done = await waitFor(
      `task ${task_id}`,
      async () => {
        const t = (await (await fetch(`${api}/tasks/${task_id}`, { headers: auth() })).json()) as { state: string; result_url?: string };
        return t.state === 'done' || t.state === 'error' ? t : undefined;
      },
      60_000,
    );
    expect(done.state).toBe('done');
    const served = Buffer.from(await (await fetch(done.result_url!)).arrayBuffer());
    const local = await localCard();
    const expected = await render({ design: JSON.parse(await readFile(join(local, 'polotno.json'), 'utf8')) as DesignInput, format: 'png', baseDir: local });
    expect(served.equals(expected.bytes)).toBe(true);

    // An override with a remote URL is refused: overrides take this service's uploads only.
    const before = hitsOf('/photo.png');
    const bad = await fetch(`${api}/render`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ design_id, format: 'png', objects_overrides: { photo: { path: `${base}/photo.png` } } }),
    });
    expect(bad.status).toBe(400);
    const refused = (await bad.json()) as { error: string; description: string };
    expect(refused.error).toBe('validation_error');
    expect(refused.description).toMatch(/^\$\.objects_overrides\.photo\.path: /);
    expect(hitsOf('/photo.png')).toBe(before);
  });

  it('answers 400 with the URL, the element and why, and stores nothing', async () => {
    const before = (await service.listDesigns(accountId)).length;
    for (const [src, why] of [
      ['/missing.png', 'the server answered 404 Not Found'],
      ['/to-metadata', 'it redirects to http://169.254.169.254/latest/meta-data/, which points at 169.254.169.254: private'],
    ] as const) {
      const res = await post(page([{ type: 'image', name: 'photo', src: `${base}${src}` }]));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; description: string };
      expect(body.error).toBe('validation_error');
      expect(body.description).toContain(`$.pages[0].children[0].src: could not fetch the image "${base}${src}": ${why}`);
    }
    expect((await service.listDesigns(accountId)).length).toBe(before);
  });
});

describe('configuration', () => {
  it('reads the allowance as none, all, or addresses and CIDR ranges, and refuses anything else by name', () => {
    expect(importFetchFromEnv({})).toEqual({ allowPrivate: false, timeoutMs: 15_000, maxBytes: undefined });
    expect(importFetchFromEnv({ IMPRINT_IMPORT_ALLOW_PRIVATE: '1', IMPRINT_IMPORT_FETCH_TIMEOUT_S: '0.3', IMPRINT_IMPORT_FETCH_MAX_MB: '2' })).toEqual({
      allowPrivate: true,
      timeoutMs: 300,
      maxBytes: 2 * 1048576,
    });
    const ranges = importFetchFromEnv({ IMPRINT_IMPORT_ALLOW_PRIVATE: '127.0.0.1, 10.0.0.0/8, fd00::/8' }).allowPrivate;
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '10.200.3.4', 'fd12::1', '8.8.8.8']) expect(isAllowedAddress(ip, ranges), ip).toBe(true);
    for (const ip of ['127.0.0.2', '169.254.169.254', '192.168.1.1', '::1', 'fe80::1']) expect(isAllowedAddress(ip, ranges), ip).toBe(false);
    expect(() => configFromEnv({ IMPRINT_IMPORT_ALLOW_PRIVATE: 'yes please' })).toThrow(ConfigError);
    expect(() => configFromEnv({ IMPRINT_IMPORT_ALLOW_PRIVATE: '10.0.0.0/40' })).toThrow(
      /IMPRINT_IMPORT_ALLOW_PRIVATE: "10\.0\.0\.0\/40" is not an IP address or a CIDR range/,
    );
    expect(() => configFromEnv({ IMPRINT_IMPORT_FETCH_TIMEOUT_S: '0' })).toThrow(/IMPRINT_IMPORT_FETCH_TIMEOUT_S/);
  });
});
