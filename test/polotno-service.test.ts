// Polotno designs in the service (issue 18, item 1): `imprint admin import-design` takes a Polotno
// file, the zip import takes one as design.json (its data: URLs become the design's files), and
// both interfaces render it with overrides by element name — the same bytes as the library.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ffprobe from '@ffprobe-installer/ffprobe';
import type { FastifyInstance } from 'fastify';
import { zipSync } from 'fflate';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../src/engine.js';
import type { PolotnoDocument } from '../src/index.js';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { TaskWorker } from '../src/worker/worker.js';
import { waitFor } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const EXAMPLE = join(ROOT, 'examples', 'polotno-card');
const polotno = () => JSON.parse(readFileSync(join(EXAMPLE, 'polotno.json'), 'utf8')) as PolotnoDocument;

let dir: string;
let service: Service;
let app: FastifyInstance;
let worker: TaskWorker;
let base: string;
let key: string;
let accountId: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-polotno-service-'));
  const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_POLL_INTERVAL_S: '0' });
  service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
  app = await buildServer(service);
  base = await listen(app, service);
  worker = new TaskWorker(service.ctx, { slots: 1 });
  worker.start();
  const created = await service.createAccount({ name: 'Editor', balance: 100 });
  key = created.apiKey;
  accountId = created.account.id;
  await service.setPlan(accountId, { requests_per_minute: 100_000, concurrency: 2, queue_size: 1000 });
}, 60_000);

afterAll(async () => {
  await app.close();
  await worker.stop(0);
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${key}` });
const postA = (body: unknown) =>
  fetch(`${base}/public/v2/render`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function doneA(taskId: number): Promise<{ state: string; result_url?: string }> {
  return waitFor(
    `task ${taskId}`,
    async () => {
      const t = (await (await fetch(`${base}/public/v2/tasks/${taskId}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
        state: string;
        result_url?: string;
      };
      return t.state === 'done' || t.state === 'error' ? t : undefined;
    },
    60_000,
  );
}

describe('interface A', () => {
  it('renders an imported Polotno design with overrides by element name, byte-equal to the library', async () => {
    const record = await service.importDesign(accountId, polotno(), { baseDir: EXAMPLE, name: 'polotno-card' });
    expect(record.kind).toBe('design');
    const overrides = { headline: { text: 'From the editor, <substyle color="#2f6fed">by name</substyle>' }, badge_value: { text: '−50%' } };
    const res = await postA({ design_id: record.id, format: 'png', objects_overrides: overrides });
    expect(res.status).toBe(202);
    const task = await doneA(((await res.json()) as { task_id: number }).task_id);
    expect(task.state).toBe('done');
    const served = Buffer.from(await (await fetch(task.result_url!)).arrayBuffer());
    const library = await render({ design: polotno(), overrides, format: 'png', baseDir: EXAMPLE });
    expect(served.equals(library.bytes)).toBe(true);
  });

  it('imports a zip whose design.json is a Polotno document with an embedded image', async () => {
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#e4572e' } })
      .png()
      .toBuffer();
    const doc = {
      width: 200,
      height: 100,
      schemaVersion: 4,
      pages: [
        {
          background: 'white',
          children: [
            { type: 'image', name: 'logo', x: 10, y: 10, width: 80, height: 80, src: `data:image/png;base64,${png.toString('base64')}`, cornerRadius: 40 },
            { type: 'text', name: 'title', x: 100, y: 30, width: 90, text: 'Zip', fontFamily: 'Inter', fontSize: 30 },
          ],
        },
      ],
    };
    const form = new FormData();
    form.append('file', new Blob([zipSync({ 'design.json': new TextEncoder().encode(JSON.stringify(doc)) })]), 'design.zip');
    const res = await fetch(`${base}/public/v2/designs`, { method: 'POST', headers: auth(), body: form });
    expect(res.status).toBe(201);
    const detail = (await res.json()) as { design_id: number; objects: { name: string; type: string }[] };
    expect(detail.objects.map((o) => [o.name, o.type])).toEqual([
      ['logo', 'image'],
      ['title', 'text'],
    ]);
    const task = await doneA(((await (await postA({ design_id: detail.design_id, format: 'png' })).json()) as { task_id: number }).task_id);
    const { data } = await sharp(Buffer.from(await (await fetch(task.result_url!)).arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    // The embedded image is the design's own file: its colour at the logo's centre.
    const at = (50 * 200 + 50) * 3;
    expect([data[at], data[at + 1], data[at + 2]]).toEqual([0xe4, 0x57, 0x2e]);
  });

  it('imports a zip of a Polotno export: polotno.json beside its images (and the overrides.json of the example)', async () => {
    const files = Object.fromEntries(readdirSync(EXAMPLE).map((f) => [f, new Uint8Array(readFileSync(join(EXAMPLE, f)))] as const));
    expect(Object.keys(files).filter((f) => f.endsWith('.json'))).toEqual(['overrides.json', 'polotno.json']);
    const form = new FormData();
    form.append('file', new Blob([zipSync({ 'polotno-card': files })]), 'polotno-card.zip');
    const res = await fetch(`${base}/public/v2/designs`, { method: 'POST', headers: auth(), body: form });
    expect(res.status, await res.clone().text()).toBe(201);
    const detail = (await res.json()) as { design_id: number; name: string; animated: boolean; duration: number | null; objects: { name: string }[] };
    expect(detail.name).toBe('polotno-card');
    // One page, nothing animated: a still design, not "animated · 5 s" (Polotno gives every page 5000 ms).
    expect([detail.animated, detail.duration]).toEqual([false, null]);
    expect(detail.objects.map((o) => o.name)).toContain('headline');
    const task = await doneA(
      (
        (await (await postA({ design_id: detail.design_id, format: 'png', objects_overrides: { headline: { text: 'From the zip' } } })).json()) as {
          task_id: number;
        }
      ).task_id,
    );
    expect(task.state).toBe('done');
  });

  it('imports a Polotno .json file on its own, without a zip', async () => {
    const doc = {
      width: 120,
      height: 60,
      schemaVersion: 4,
      pages: [{ children: [{ type: 'text', name: 'label', x: 0, y: 10, width: 120, text: 'Alone', fontFamily: 'Inter', fontSize: 24 }] }],
    };
    const form = new FormData();
    form.append('file', new Blob([JSON.stringify(doc)]), 'polotno.json');
    form.append('name', 'alone');
    const res = await fetch(`${base}/public/v2/designs`, { method: 'POST', headers: auth(), body: form });
    expect(res.status).toBe(201);
    const detail = (await res.json()) as { name: string; objects: { name: string }[] };
    expect(detail).toMatchObject({ name: 'alone', objects: [{ name: 'label' }] });
  });

  it("uses a family of the account's font library for a fonts[] entry with a URL, which is not fetched", async () => {
    const thai = readFileSync(join(ROOT, 'node_modules/@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf'));
    const { font } = await service.addFont(accountId, thai);
    const doc = {
      width: 300,
      height: 100,
      schemaVersion: 4,
      fonts: [{ fontFamily: font.family, url: 'https://fonts.example.com/thai.ttf' }],
      pages: [{ children: [{ type: 'text', name: 'greeting', x: 0, y: 20, width: 300, text: 'สวัสดี', fontFamily: font.family, fontSize: 40 }] }],
    };
    const record = await service.importDesign(accountId, doc, { name: 'thai' });
    expect((record.template as { fonts: unknown[] }).fonts).toEqual([font.family]);
    // Without the family in the library the URL is needed, and fetched (docs/polotno.md#remote-files):
    // this service allows no private address, so a loopback one is refused without a connection.
    await expect(service.importDesign(accountId, { ...doc, fonts: [{ fontFamily: 'Unknown Brand', url: 'http://127.0.0.1:9/x.ttf' }] })).rejects.toMatchObject({
      path: '$.fonts[0].url',
      message: expect.stringContaining(
        'could not fetch the font file "http://127.0.0.1:9/x.ttf": it points at 127.0.0.1: private, loopback and link-local addresses are not allowed',
      ) as unknown,
    });
  });

  it('renders an A4 print document at 300 dpi with bleed: a 2480 × 3508 png and a pdf of A4 grown by the bleed', async () => {
    const mm = 300 / 25.4;
    const doc = {
      width: 210 * mm,
      height: 297 * mm,
      unit: 'mm',
      dpi: 300,
      schemaVersion: 4,
      pages: [
        {
          id: 'p',
          background: '#fff3e0',
          bleed: 3 * mm,
          children: [{ type: 'text', name: 'title', x: 200, y: 1500, width: 2000, text: 'A4', fontFamily: 'Inter', fontSize: 200 }],
        },
      ],
    };
    const record = await service.importDesign(accountId, doc, { name: 'a4' });
    const result = async (format: string) => {
      const task = await doneA(((await (await postA({ design_id: record.id, format })).json()) as { task_id: number }).task_id);
      expect(task.state).toBe('done');
      return Buffer.from(await (await fetch(task.result_url!)).arrayBuffer());
    };
    const png = await sharp(await result('png')).metadata();
    expect([png.width, png.height, png.density]).toEqual([2480, 3508, 300]);
    const file = join(dir, 'a4.pdf');
    writeFileSync(file, await result('pdf'));
    const info = execFileSync('pdfinfo', ['-box', file], { encoding: 'utf8' });
    // A4 (595.276 × 841.89 pt) and 3 mm (8.504 pt) on each side.
    expect(info).toMatch(/Page size:\s+612\.283 x 858\.898 pts/);
    expect(info).toMatch(/TrimBox:\s+8\.50\s+8\.50\s+603\.78\s+850\.39/);
  });

  it('refuses a bad Polotno zip at the Polotno path, storing nothing', async () => {
    const before = (await service.listDesigns(accountId)).length;
    // The cloud metadata address: refused before anything is sent.
    const doc = { width: 200, height: 100, pages: [{ children: [{ type: 'image', src: 'http://169.254.169.254/latest/meta-data/x.png' }] }] };
    const form = new FormData();
    form.append('file', new Blob([zipSync({ 'design.json': new TextEncoder().encode(JSON.stringify(doc)) })]), 'design.zip');
    const res = await fetch(`${base}/public/v2/designs`, { method: 'POST', headers: auth(), body: form });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { description: string }).description).toContain(
      '$.pages[0].children[0].src: could not fetch the image "http://169.254.169.254/latest/meta-data/x.png": it points at 169.254.169.254: private',
    );
    expect((await service.listDesigns(accountId)).length).toBe(before);
  });
});

describe('interface B and the admin CLI', () => {
  it('imprint admin import-design takes a Polotno file of several pages; interface B renders it with overrides as slides', async () => {
    const doc = {
      width: 640,
      height: 360,
      schemaVersion: 4,
      pages: [
        {
          background: '#10131c',
          duration: 1500,
          children: [{ type: 'text', name: 'title', x: 40, y: 140, width: 560, text: 'Page one', fontFamily: 'Inter', fontSize: 48, fill: 'white' }],
        },
        { background: 'linear-gradient(90deg, #2f6fed, #e4572e)', duration: 1500, children: [] },
      ],
    };
    const file = join(dir, 'video.json');
    writeFileSync(file, JSON.stringify(doc));
    // The CLI against the service's own data folder (its SQLite file and blobs).
    await service.close();
    const cli = await promisify(execFile)(process.execPath, [builtBin(), 'admin', 'import-design', file, '--account', String(accountId)], {
      cwd: ROOT,
      env: { ...process.env, IMPRINT_DATA_DIR: dir, IMPRINT_LOG_LEVEL: 'warn' },
    });
    const printed = JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as { design_id: number; kind: string };
    expect(printed.kind).toBe('video');
    await app.close();
    await worker.stop(0);
    const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_POLL_INTERVAL_S: '0' });
    service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
    app = await buildServer(service);
    base = await listen(app, service);
    worker = new TaskWorker(service.ctx, { slots: 1 });
    worker.start();

    const q = `api_key=${encodeURIComponent(key)}&v=1.0`;
    const res = await fetch(`${base}/api/videos/${printed.design_id}/render/?${q}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: { fps: 30, size_type: 'sd' }, overrides: [{ name: 'title', object: { text: 'Overridden' } }] }),
    });
    expect(res.status).toBe(202);
    const { task_id: id } = (await res.json()) as { task_id: number };
    const task = await waitFor(
      `video ${id}`,
      async () => {
        const t = (await (await fetch(`${base}/api/queue/${id}/?${q}`)).json()) as { state: string; video_url?: string };
        return t.state === 'done' || t.state === 'error' ? t : undefined;
      },
      120_000,
    );
    expect(task.state).toBe('done');
    const mp4 = join(dir, 'out.mp4');
    writeFileSync(mp4, Buffer.from(await (await fetch(task.video_url!)).arrayBuffer()));
    const probe = await promisify(execFile)(ffprobe.path, ['-v', 'error', '-show_entries', 'format=duration:stream=width,height', '-of', 'json', mp4]);
    const info = JSON.parse(probe.stdout) as { format: { duration: string }; streams: { width: number; height: number }[] };
    expect(Number(info.format.duration)).toBeCloseTo(3, 1);
    expect(info.streams[0]).toMatchObject({ width: 1280, height: 720 });
  }, 180_000);
});
