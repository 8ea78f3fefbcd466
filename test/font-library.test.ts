// The account font library over HTTP (an addition to interface A): add (sniffed from the bytes, 20 MB
// cap, the same file once), list with what each font covers, delete; other accounts see nothing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { TaskWorker } from '../src/worker/worker.js';
import { waitFor } from './support/wait.js';

const ROOT = join(import.meta.dirname, '..');
const VARIABLE_WOFF2 = readFileSync(join(ROOT, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'));
const THAI_TTF = readFileSync(join(ROOT, 'node_modules/@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf'));

let dir: string;
let service: Service;
let app: FastifyInstance;
let base: string;
let key: string;
let otherKey: string;
let memberKey: string;
let worker: TaskWorker;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-fonts-'));
  // Google Fonts families are not installed here (test/font-install.test.ts does that): the library alone decides.
  const config = configFromEnv({
    IMPRINT_DATA_DIR: dir,
    IMPRINT_PORT: '0',
    IMPRINT_HOST: '127.0.0.1',
    IMPRINT_POLL_INTERVAL_S: '0',
    IMPRINT_FONTS_INSTALL: 'off',
  });
  service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
  worker = new TaskWorker(service.ctx, { slots: 1 });
  worker.start();
  app = await buildServer(service);
  base = (await listen(app, service)) + '/public/v2';
  const a = await service.createAccount({ name: 'Acme' });
  key = a.apiKey;
  memberKey = (await service.createKey(a.account.id, 'member')).apiKey;
  otherKey = (await service.createAccount({ name: 'Other' })).apiKey;
}, 60_000);

afterAll(async () => {
  await app.close();
  await worker.stop(0);
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const auth = (k = key) => ({ authorization: `Bearer ${k}` });
function addFont(bytes: Uint8Array, k = key) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'font.bin');
  return fetch(`${base}/fonts`, { method: 'POST', headers: auth(k), body: form });
}
const list = async (k = key) => ((await (await fetch(`${base}/fonts`, { headers: auth(k) })).json()) as { fonts: { id: number; family: string }[] }).fonts;

describe('the account font library', () => {
  it('adds a variable WOFF2 and a TTF, describes them from their bytes, and keeps the same file once', async () => {
    const r = await addFont(VARIABLE_WOFF2);
    expect(r.status).toBe(201);
    const inter = (await r.json()) as { id: number; coverage: { code_points: number; scripts: Record<string, number> } };
    expect(inter).toMatchObject({ family: 'Inter', weight: 400, weight_range: [100, 900], style: 'normal', format: 'woff2' });
    expect(inter.coverage.scripts.Latin).toBeGreaterThan(100);
    expect(inter.coverage.scripts.Thai).toBeUndefined();

    const thai = (await (await addFont(THAI_TTF)).json()) as { id: number; coverage: { scripts: Record<string, number> }; weight_range?: unknown };
    expect(thai).toMatchObject({ family: 'Noto Sans Thai', weight: 400, style: 'normal', format: 'ttf' });
    expect(thai.weight_range).toBeUndefined();
    expect(thai.coverage.scripts.Thai).toBeGreaterThanOrEqual(80);

    const again = await addFont(VARIABLE_WOFF2);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: number }).id).toBe(inter.id);
    expect((await list()).map((f) => f.family)).toEqual(['Inter', 'Noto Sans Thai']);
    // Another account has a library of its own.
    expect(await list(otherKey)).toEqual([]);
  });

  it('deletes a font of the account only', async () => {
    const [first] = await list();
    const byOther = await fetch(`${base}/fonts/${first!.id}`, { method: 'DELETE', headers: auth(otherKey) });
    expect(byOther.status).toBe(404);
    expect(await byOther.json()).toMatchObject({ error: 'font_not_found' });
    const r = await fetch(`${base}/fonts/${first!.id}`, { method: 'DELETE', headers: auth() });
    expect(r.status).toBe(204);
    expect((await list()).map((f) => f.id)).not.toContain(first!.id);
    const again = await fetch(`${base}/fonts/${first!.id}`, { method: 'DELETE', headers: auth() });
    expect(again.status).toBe(404);
    expect((await fetch(`${base}/fonts/abc`, { method: 'DELETE', headers: auth() })).status).toBe(404);
  });

  it.each([
    ['a png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), /^\$\.file: not a font file/],
    ['an empty file', Buffer.alloc(0), /^\$\.file: the font file is empty/],
    ['a collection', Buffer.concat([Buffer.from('ttcf'), Buffer.alloc(64)]), /^\$\.file: font collections/],
    ['a truncated TTF', THAI_TTF.subarray(0, 2000), /^\$\.file: the font file is corrupt or truncated/],
  ])('refuses %s with validation_error at $.file and stores nothing', async (_what, bytes, message) => {
    const before = await list();
    const r = await addFont(bytes);
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: string; description: string };
    expect(body.error).toBe('validation_error');
    expect(body.description).toMatch(message);
    expect(await list()).toEqual(before);
  });

  it('refuses a file over 20 MB with 413, a member key with 403, and a body that is not multipart with 415', async () => {
    const huge = Buffer.concat([THAI_TTF, Buffer.alloc(20 * 1024 * 1024)]);
    const big = await addFont(huge);
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: 'payload_too_large' });
    expect((await addFont(THAI_TTF, memberKey)).status).toBe(403);
    const json = await fetch(`${base}/fonts`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
  });
});

describe('designs that name a library family', () => {
  let k: string;
  let account: number;
  beforeAll(async () => {
    const a = await service.createAccount({ name: 'Brand' });
    k = a.apiKey;
    account = a.account.id;
  });
  const render = async (designId: number) => {
    const r = await fetch(`${base}/render`, {
      method: 'POST',
      headers: { ...auth(k), 'content-type': 'application/json' },
      body: JSON.stringify({ design_id: designId, format: 'png' }),
    });
    expect(r.status).toBe(202);
    const { task_id } = (await r.json()) as { task_id: number };
    const done = await waitFor(`task ${task_id}`, async () => {
      const t = (await (await fetch(`${base}/tasks/${task_id}`, { headers: auth(k) })).json()) as { state: string; result_url?: string };
      return t.state === 'done' || t.state === 'error' ? t : undefined;
    });
    expect(done.state).toBe('done');
    return Buffer.from(await (await fetch(done.result_url!)).arrayBuffer());
  };
  const text = (family: string, weight = 400) => ({
    width: 420,
    height: 90,
    background: { type: 'color', color: '#ffffff' },
    fonts: [family],
    objects: [
      { type: 'text', name: 't', x: 10, y: 10, width: 400, height: 70, text: 'Hamburgefonstiv', font_family: family, font_size: 48, font_weight: weight },
    ],
  });

  it('are refused until the family is in the library, then render with its file', async () => {
    await expect(service.importDesign(account, text('Noto Sans Thai'))).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.fonts[0]',
      message: expect.stringMatching(
        /^font family "Noto Sans Thai" is a Google Fonts family that is not installed: install it with npx imprint fonts install "Noto Sans Thai"/,
      ),
    });
    const added = await addFont(THAI_TTF, k);
    expect(added.status).toBe(201);
    await added.arrayBuffer();
    const d = await service.importDesign(account, text('Noto Sans Thai'));
    expect((await render(d.id)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('take the library font before a bundled family of the same name, and the bundled one again once it is deleted', async () => {
    // Weight 350: the bundled Inter's nearest face is its static 300; the variable library Inter draws 350 exactly.
    const d = await service.importDesign(account, text('Inter', 350));
    const bundled = await render(d.id);
    const r = await addFont(VARIABLE_WOFF2, k);
    expect(r.status).toBe(201);
    const library = await render(d.id);
    expect(library.equals(bundled)).toBe(false);
    await fetch(`${base}/fonts/${((await r.json()) as { id: number }).id}`, { method: 'DELETE', headers: auth(k) });
    expect((await render(d.id)).equals(bundled)).toBe(true);
  });
});
