// Interface B over real HTTP: paid sd/30 and hd/60 and free renders checked with ffprobe, the demo
// watermark by pixels, billing charged once on done only, reservations against concurrent requests,
// daily limits on a fake clock, every status of B1 and B2, and malformed requests.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import type { TaskBodyB } from '../src/service/videos.js';
import { TaskWorker } from '../src/worker/worker.js';
import { waitFor } from './support/wait.js';

let dir: string;
let service: Service;
let app: FastifyInstance;
let worker: TaskWorker;
let root: string;
let now = Date.UTC(2026, 10, 21, 12, 0, 0);
let key: string;
let accountId: number;
let video: number;

// 320×180 (16:9): sd is 1280×720, hd 1920×1080. Two slides of 0.5 s: one second of video.
const slides = {
  schema: 'imprint/design@1',
  width: 320,
  height: 180,
  background: { type: 'color', color: '#1d3557' },
  slides: [
    {
      name: 'intro',
      duration: 0.5,
      background: { type: 'color', color: '#1d3557' },
      objects: [{ type: 'text', name: 'intro_title', x: 20, y: 60, width: 200, height: 60, text: 'Hello', font_size: 32, color: '#f1faee' }],
    },
    { name: 'outro', duration: 0.5, background: { type: 'color', color: '#e63946' }, objects: [] },
  ],
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-b-'));
  service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' }), {
    log: pino({ level: 'silent' }),
    clock: () => now,
    queuePollMs: 50,
  });
  app = await buildServer(service);
  root = (await listen(app, service)) + '/api';
  worker = new TaskWorker(service.ctx, { slots: 2 });
  worker.start();
  const created = await service.createAccount({ name: 'Studio', balance: 10 });
  key = created.apiKey;
  accountId = created.account.id;
  await service.setPlan(accountId, { concurrency: 2, queue_size: 1000 });
  video = (await service.importDesign(accountId, slides)).id;
}, 60_000);

afterAll(async () => {
  await app.close();
  await worker.stop(0);
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await service.setBalance(accountId, 10);
  await service.setPlan(accountId, { plan: 'basic' });
  await service.setPlan(accountId, { concurrency: 2, queue_size: 1000 });
});

const q = (k = key) => `api_key=${encodeURIComponent(k)}&v=1.0`;
const renderB = (body: unknown, id: number | string = video, query = q()) =>
  fetch(`${root}/videos/${id}/render/?${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const taskB = (id: number | string, query = q()) => fetch(`${root}/queue/${id}/?${query}`);

type BTask = TaskBodyB;

function finished(id: number): Promise<BTask> {
  return waitFor(
    `task ${id} to finish`,
    async () => {
      const t = (await (await taskB(id)).json()) as BTask;
      return t.state === 'done' || t.state === 'error' ? t : undefined;
    },
    60_000,
  );
}

function probe(file: Buffer): { width: number; height: number; r_frame_rate: string; nb_frames: string } {
  const path = join(dir, `probe-${Math.random().toString(36).slice(2)}.mp4`);
  writeFileSync(path, file);
  const out = JSON.parse(
    execFileSync(ffprobeInstaller.path, ['-v', 'error', '-select_streams', 'v:0', '-show_streams', '-of', 'json', path], { encoding: 'utf8' }),
  ) as { streams: never[] };
  return out.streams[0]!;
}

/** The RGB pixels of the frame at `seconds`, scaled to 320×180. */
function frame(file: Buffer, seconds: number): Buffer {
  const path = join(dir, `frame-${Math.random().toString(36).slice(2)}.mp4`);
  writeFileSync(path, file);
  return execFileSync(ffmpegInstaller.path, [
    '-v',
    'error',
    '-ss',
    String(seconds),
    '-i',
    path,
    '-frames:v',
    '1',
    '-vf',
    'scale=320:180',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    'pipe:1',
  ]);
}

function meanDiff(a: Buffer, b: Buffer, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) for (let c = 0; c < 3; c++, n++) sum += Math.abs(a[(y * 320 + x) * 3 + c]! - b[(y * 320 + x) * 3 + c]!);
  return sum / n;
}

const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

describe('interface B renders', () => {
  it('paid sd at 30 fps: 202, the task fields, the video, the screenshot, charged once', async () => {
    const res = await renderB({ parameters: { fps: 30, size_type: 'sd' }, overrides: [{ name: 'intro_title', object: { text: 'Paid' } }] });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { result: string; task_url: string; task_id: number };
    expect(accepted).toEqual({ result: 'true', task_url: `${root}/queue/${accepted.task_id}/`, task_id: expect.any(Number) });
    const queued = (await (await taskB(accepted.task_id)).json()) as BTask;
    expect(queued).toMatchObject({
      id: accepted.task_id,
      video_id: video,
      user_id: accountId,
      billed_duration: null,
      billed_price: null,
      exec_time: null,
      video_url: null,
      screenshot_url: null,
    });
    const t = await finished(accepted.task_id);
    expect(t).toMatchObject({ state: 'done', billed_duration: 1, billed_price: 0.01, start_date: new Date(now).toISOString() });
    expect(t.wait_time).toBeGreaterThanOrEqual(0);
    expect(t.exec_time).toBeGreaterThanOrEqual(0);
    expect(Date.parse(t.state_date)).toBeGreaterThanOrEqual(Date.parse(t.start_date));
    expect(probe(await download(t.video_url!))).toMatchObject({ width: 1280, height: 720, r_frame_rate: '30/1', nb_frames: '30' });
    expect(await sharp(await download(t.screenshot_url!)).metadata()).toMatchObject({ format: 'jpeg', width: 1280, height: 720 });
    expect((await service.getAccount(accountId)).balance).toBe(9.99);
    // Reading the task again charges nothing more.
    await finished(accepted.task_id);
    expect((await service.getAccount(accountId)).balance).toBe(9.99);
  }, 90_000);

  it('paid hd at 60 fps at the plan rate for hd/60', async () => {
    await service.setPlan(accountId, { rate_hd_60: 0.25 });
    const { task_id } = (await (await renderB({ parameters: { fps: 60, size_type: 'hd' } })).json()) as { task_id: number };
    const t = await finished(task_id);
    expect(t).toMatchObject({ state: 'done', billed_duration: 1, billed_price: 0.25 });
    expect(probe(await download(t.video_url!))).toMatchObject({ width: 1920, height: 1080, r_frame_rate: '60/1', nb_frames: '60' });
    expect((await service.getAccount(accountId)).balance).toBe(9.75);
  }, 90_000);

  it('demo: works at zero balance, sd 30 fps, the logo in the corner, never charged', async () => {
    const paid = await finished(((await (await renderB({})).json()) as { task_id: number }).task_id);
    await service.setBalance(accountId, 0);
    const res = await renderB({ parameters: { demo: true } });
    expect(res.status).toBe(202);
    const demo = await finished(((await res.json()) as { task_id: number }).task_id);
    expect(demo).toMatchObject({ state: 'done', billed_price: 0, billed_duration: 1 });
    const demoFile = await download(demo.video_url!);
    expect(probe(demoFile)).toMatchObject({ width: 1280, height: 720, r_frame_rate: '30/1' });
    const [a, b] = [frame(demoFile, 0.25), frame(await download(paid.video_url!), 0.25)];
    // The logo covers 30 % of the width at the bottom right; the rest of the frame is the same video.
    expect(meanDiff(a, b, 240, 150, 300, 170)).toBeGreaterThan(20);
    expect(meanDiff(a, b, 0, 0, 160, 90)).toBeLessThan(2);
    expect((await service.getAccount(accountId)).balance).toBe(0);
    await service.setBalance(accountId, 5);
    await finished(((await (await renderB({ parameters: { demo: true, fps: 30, size_type: 'sd' } })).json()) as { task_id: number }).task_id);
    expect((await service.getAccount(accountId)).balance).toBe(5);
  }, 90_000);

  it('a render that ends in error costs nothing', async () => {
    const doomed = (await service.importDesign(accountId, slides)).id;
    await worker.stop(0);
    const { task_id } = (await (await renderB({}, doomed)).json()) as { task_id: number };
    await service.deleteDesign(accountId, doomed);
    worker = new TaskWorker(service.ctx, { slots: 2 });
    worker.start();
    expect(await finished(task_id)).toMatchObject({
      state: 'error',
      billed_price: 0,
      billed_duration: null,
      video_url: null,
      screenshot_url: null,
      // An addition to the spec's fields: why it failed.
      error: { code: 'design_not_found', description: expect.stringMatching(/was deleted before the render/) },
    });
    expect((await service.getAccount(accountId)).balance).toBe(10);
  }, 60_000);

  it('refuses with 402 a render the balance cannot cover, and 20 concurrent requests against 5 renders of balance accept exactly 5', async () => {
    await service.setBalance(accountId, 0.005);
    const poor = await renderB({});
    expect(poor.status).toBe(402);
    expect(await poor.json()).toEqual({ error: 'insufficient_funds', description: expect.stringMatching(/costs 0\.01/) });
    await service.setBalance(accountId, 0.05);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => renderB({}).then((r) => r.status)));
    expect(statuses.filter((s) => s === 202)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
    const tasks = (await service.ctx.meta.listTasks(accountId)).filter((t) => t.state === 'queued' || t.state === 'pending');
    await Promise.all(tasks.map((t) => finished(t.id)));
    expect((await service.getAccount(accountId)).balance).toBe(0);
  }, 120_000);

  it('limits free renders to the plan per UTC day, and paid renders to the plan’s successful ones', async () => {
    await service.setPlan(accountId, { daily_demo_renders: 2, daily_renders: 1 });
    now = Date.UTC(2026, 10, 22, 23, 59, 0);
    for (let i = 0; i < 2; i++) expect((await renderB({ parameters: { demo: true } })).status).toBe(202);
    const third = await renderB({ parameters: { demo: true } });
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({ error: 'daily_limit_exceeded', description: expect.stringMatching(/2 free \(demo\) renders per day \(UTC\)/) });
    const paid = (await (await renderB({})).json()) as { task_id: number };
    expect((await finished(paid.task_id)).state).toBe('done');
    expect((await renderB({})).status).toBe(429);
    now = Date.UTC(2026, 10, 23, 0, 0, 1);
    expect((await renderB({ parameters: { demo: true } })).status).toBe(202);
    expect((await renderB({})).status).toBe(202);
    const all = (await service.ctx.meta.listTasks(accountId)).filter((t) => t.state === 'queued' || t.state === 'pending');
    await Promise.all(all.map((t) => finished(t.id)));
    now = Date.UTC(2026, 10, 21, 12, 0, 0);
  }, 120_000);
});

describe('interface B errors', () => {
  it('answers B2 with 403 auth_required and 404 not_found', async () => {
    const { task_id } = (await (await renderB({ parameters: { demo: true } })).json()) as { task_id: number };
    const other = await service.createAccount({ name: `Other ${Math.random()}` });
    const aTask = await service.createTask(accountId, {
      designId: (await service.importDesign(accountId, { ...slides, slides: undefined, objects: [] })).id,
      format: 'png',
    });
    const cases: [Promise<Response>, number, string][] = [
      [taskB(task_id, 'v=1.0'), 403, 'auth_required'],
      [taskB(task_id, q('imp_wrong')), 403, 'auth_required'],
      [taskB(999999), 404, 'not_found'],
      [taskB('abc'), 404, 'not_found'],
      [taskB(task_id, q(other.apiKey)), 404, 'not_found'],
      [taskB(aTask.id), 404, 'not_found'],
      [fetch(`${root}/nothing/?${q()}`), 404, 'not_found'],
      [fetch(`${root}/queue/%zz/?${q()}`), 400, 'incorrect_data'],
    ];
    // An interface B task is not an interface A task either.
    const viaA = await fetch(`${root.replace(/\/api$/, '')}/public/v2/tasks/${task_id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(viaA.status).toBe(404);
    for (const [res, status, error] of cases) {
      const r = await res;
      expect({ status: r.status, body: await r.json() }).toEqual({ status, body: { error, description: expect.any(String) } });
    }
    await finished(task_id);
  }, 60_000);

  const other = async () => (await service.createAccount({ name: `Uploader ${Math.random()}` })).account.id;
  it.each([
    ['missing v', {}, 'api_key=KEY', 400, 'incorrect_data', /v=1\.0/],
    ['v=2.0', {}, 'api_key=KEY&v=2.0', 400, 'incorrect_data', /unknown interface version v=2\.0/],
    ['v twice', {}, 'api_key=KEY&v=1.0&v=1.0', 400, 'incorrect_data', /give v once/],
    ['api_key twice', {}, 'api_key=KEY&api_key=KEY&v=1.0', 400, 'incorrect_data', /give api_key once/],
    ['no api_key', {}, 'v=1.0', 403, 'auth_required', /api_key/],
    ['a wrong api_key', {}, 'api_key=imp_nope&v=1.0', 403, 'auth_required', /not known/],
    ['negative fps', { parameters: { fps: -30 } }, null, 400, 'incorrect_data', /\$\.parameters\.fps: expected fps 30 or 60/],
    ['string fps', { parameters: { fps: '30' } }, null, 400, 'incorrect_data', /\$\.parameters\.fps/],
    ['fps 24', { parameters: { fps: 24 } }, null, 400, 'incorrect_data', /\$\.parameters\.fps/],
    ['size_type uhd', { parameters: { size_type: 'uhd' } }, null, 400, 'incorrect_data', /\$\.parameters\.size_type/],
    ['demo "yes"', { parameters: { demo: 'yes' } }, null, 400, 'incorrect_data', /\$\.parameters\.demo/],
    ['demo with hd', { parameters: { demo: true, size_type: 'hd' } }, null, 400, 'incorrect_data', /demo mode renders sd only/],
    ['demo with 60 fps', { parameters: { demo: true, fps: 60 } }, null, 400, 'incorrect_data', /demo mode renders at 30 fps only/],
    ['an unknown parameter', { parameters: { quality: 'max' } }, null, 400, 'incorrect_data', /\$\.parameters\.quality/],
    ['an unknown top-level field', { params: {} }, null, 400, 'incorrect_data', /\$\.params/],
    ['parameters null', { parameters: null }, null, 400, 'incorrect_data', /\$\.parameters/],
    ['overrides not an array', { overrides: { intro_title: 'x' } }, null, 400, 'incorrect_data', /\$\.overrides/],
    ['an override without name', { overrides: [{ object: { text: 'x' } }] }, null, 400, 'incorrect_data', /\$\.overrides\[0\]\.name/],
    [
      'an override with both object and slide',
      { overrides: [{ name: 'intro_title', object: {}, slide: {} }] },
      null,
      400,
      'incorrect_data',
      /exactly one of object or slide/,
    ],
    [
      'a slide override on an object name',
      { overrides: [{ name: 'intro_title', slide: { path: 'x.png' } }] },
      null,
      400,
      'incorrect_data',
      /no slide named "intro_title"/,
    ],
    ['an object override on a slide name', { overrides: [{ name: 'intro', object: { text: 'x' } }] }, null, 400, 'incorrect_data', /no object named "intro"/],
    ['an unknown override name', { overrides: [{ name: 'nobody', object: { text: 'x' } }] }, null, 400, 'incorrect_data', /no object named "nobody"/],
    [
      'a slide path to an external URL',
      { overrides: [{ name: 'intro', slide: { path: 'https://example.com/bg.jpg' } }] },
      null,
      400,
      'incorrect_data',
      /external image URLs are not allowed/,
    ],
    ['a slide path to another account’s upload', 'OTHER_UPLOAD', null, 400, 'incorrect_data', /not an image uploaded by this account/],
    ['an asset: reference', { overrides: [{ name: 'intro', slide: { path: 'asset:upload-00' } }] }, null, 400, 'incorrect_data', /not an "asset:" reference/],
    ['a non-integer video id', {}, 'ID=abc', 400, 'incorrect_data', /not a video id/],
    ['an unknown video id', {}, 'ID=999999', 400, 'incorrect_data', /no design with id 999999/],
    ['a design that is not a video', {}, 'ID=STILL', 400, 'incorrect_data', /not a video/],
    ['a body that is an array', [], null, 400, 'incorrect_data', /expected/],
  ])('refuses %s with a clear error and queues nothing', async (_what, body, query, status, error, description) => {
    let payload: unknown = body;
    if (body === 'OTHER_UPLOAD') {
      const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
      const { url } = await service.createUpload(await other(), png);
      payload = { overrides: [{ name: 'intro', slide: { path: url } }] };
    }
    let id: number | string = video;
    let qs = query ?? q();
    if (qs.startsWith('ID=')) {
      const v = qs.slice(3);
      id = v === 'STILL' ? (await service.importDesign(accountId, { ...slides, slides: undefined, objects: [] })).id : v;
      qs = q();
    }
    qs = qs.replaceAll('KEY', encodeURIComponent(key));
    const before = (await service.ctx.meta.listTasks(accountId)).length;
    const balance = (await service.getAccount(accountId)).balance;
    const r = await renderB(payload, id, qs);
    const got = (await r.json()) as { error: string; description: string };
    expect({ status: r.status, error: got.error, keys: Object.keys(got).sort() }).toEqual({ status, error, keys: ['description', 'error'] });
    expect(got.description).toMatch(description);
    expect((await service.ctx.meta.listTasks(accountId)).length).toBe(before);
    expect((await service.getAccount(accountId)).balance).toBe(balance);
  });

  it('refuses malformed JSON with incorrect_data', async () => {
    const r = await fetch(`${root}/videos/${video}/render/?${q()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"parameters": ',
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: 'incorrect_data', description: expect.stringMatching(/not valid JSON/) });
  });
});

describe('interface B walk-through', () => {
  const walkthrough = async (videoId: number) => {
    const block = /```sh walkthrough-b\n([\s\S]*?)```/.exec(await readFile(join(import.meta.dirname, '..', 'README.md'), 'utf8'))?.[1];
    expect(block).toBeDefined();
    const script = block!
      .replace('imp_your_demo_key', key)
      .replaceAll('http://localhost:3000', root.replace(/\/api$/, ''))
      .replace(/\/videos\/6\//g, `/videos/${videoId}/`);
    // Asynchronously: the server runs in this process and must keep answering while curl waits.
    const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 45_000 }).then(
      (r) => ({ status: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ status: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout.slice(0, 400) }).toEqual({ status: 0, stderr: '', stdout: expect.any(String) });
    const lines = run.stdout.trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ result: 'true', task_id: expect.any(Number) });
    return JSON.parse(lines.at(-1)!) as TaskBodyB;
  };

  it('the README curl walk-through renders a demo video and reads its task', async () => {
    expect(await walkthrough(video)).toMatchObject({ state: 'done', video_id: video, billed_price: 0 });
  }, 60_000);

  it('the walk-through stops polling and shows the task when it ends in error', async () => {
    // A video whose background image is lost from the blob store after the import: the render is
    // accepted, and fails when the worker cannot read the file.
    const folder = mkdtempSync(join(tmpdir(), 'imprint-b-lost-'));
    try {
      const png = await sharp({ create: { width: 32, height: 18, channels: 3, background: '#457b9d' } })
        .png()
        .toBuffer();
      writeFileSync(join(folder, 'bg.png'), png);
      const design = { ...slides, slides: [{ ...slides.slides[0]!, background: { type: 'image', path: 'bg.png' } }, slides.slides[1]!] };
      const lost = await service.importDesign(accountId, design, { baseDir: folder });
      for (const blob of Object.values(lost.assets)) await service.ctx.blobs.delete(blob);
      expect(await walkthrough(lost.id)).toMatchObject({ state: 'error', video_id: lost.id, billed_price: 0 });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
