// The service core through its public facade: accounts and keys, designs with stored files,
// uploads, tasks through the worker (FIFO, concurrency, timeouts, failures), retention with a fake
// clock, and bad input that changes nothing. Embedded backends (SQLite, folder, in-process queue).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMAGE_LIMITS } from '../src/assets/load.js';
import { render } from '../src/engine.js';
import { configFromEnv, type ServiceConfig } from '../src/service/config.js';
import { hashApiKey } from '../src/service/keys.js';
import { chargeFor } from '../src/service/billing.js';
import { maxVideoSeconds, presetPlan } from '../src/service/plans.js';
import { taskOptions, taskTimings } from '../src/service/tasks.js';
import { Service } from '../src/service/service.js';
import type { TaskRecord } from '../src/store/metadata/records.js';
import type { CompletionHook } from '../src/service/notify.js';
import { TaskWorker } from '../src/worker/worker.js';
import { waitUntil } from './support/wait.js';

const DAY = 86_400_000;
const CARD = 'examples/card-1080';
const silent = pino({ level: 'silent' });

let dir: string;
let now: number;
let service: Service;
let worker: TaskWorker | undefined;

function config(extra: Record<string, string> = {}): ServiceConfig {
  return configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_BASE_URL: 'https://render.example.com', ...extra });
}

async function open(extra: Record<string, string> = {}) {
  service = await Service.open(config(extra), { clock: () => now, log: silent, queuePollMs: 50 });
  return service;
}

function startWorker(slots = 2, onComplete?: CompletionHook) {
  worker = new TaskWorker(service.ctx, { slots, ...(onComplete ? { onComplete } : {}) });
  worker.start();
  return worker;
}

async function waitForTasks(accountId: number, ids: number[], timeoutMs = 60_000): Promise<TaskRecord[]> {
  let tasks: TaskRecord[] = [];
  const ended = async () => {
    tasks = (await service.ctx.meta.listTasks(accountId)).filter((t) => ids.includes(t.id));
    return tasks.every((t) => t.state === 'done' || t.state === 'error');
  };
  await waitUntil(`tasks ${ids.join(', ')} to end`, ended, timeoutMs, 50);
  return tasks;
}

async function importCard(accountId: number) {
  const template = JSON.parse(await readFile(join(CARD, 'design.json'), 'utf8'));
  return service.importDesign(accountId, template, { baseDir: CARD, name: 'card' });
}

const png = async (w = 64, h = 48) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-service-'));
  now = Date.UTC(2026, 10, 1);
  worker = undefined;
  await open();
});

afterEach(async () => {
  await worker?.stop(0);
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('accounts and keys', () => {
  it('creates an account with an admin key that is stored only as a hash', async () => {
    const { account, apiKey, webhookSecret } = await service.createAccount({ name: 'Acme' });
    expect(apiKey).toMatch(/^imp_[A-Za-z0-9_-]{32}$/);
    expect(webhookSecret).toMatch(/^whsec_/);
    expect(account).toMatchObject({ name: 'Acme', balance: 0, plan: { name: 'basic', concurrency: 1, requestsPerMinute: 50 } });
    const rows = await service.ctx.meta.db.selectFrom('api_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(hashApiKey(apiKey));
    expect(JSON.stringify(rows)).not.toContain(apiKey);
    expect(await service.authenticate(apiKey)).toMatchObject({ role: 'admin', account: { id: account.id } });
    expect(await service.authenticate(apiKey + 'x')).toBeUndefined();
    expect(await service.authenticate('')).toBeUndefined();
  });

  it('creates member keys that authenticate with their role', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const { apiKey } = await service.createKey(account.id, 'member');
    const auth = await service.authenticate(apiKey);
    expect(auth?.role).toBe('member');
    expect(Service.isAdmin(auth!.role)).toBe(false);
  });

  it('refuses bad account input and changes nothing', async () => {
    const { account } = await service.createAccount({ name: 'Acme', balance: 5 });
    await expect(service.createAccount({ name: 'Acme' })).rejects.toMatchObject({ code: 'conflict', status: 409, path: '$.name' });
    await expect(service.createAccount({ name: ' ' })).rejects.toMatchObject({ code: 'validation_error', path: '$.name' });
    await expect(service.createAccount({ name: 'x', plan: 'gold' })).rejects.toThrow(/unknown plan "gold": use one of basic, pro/);
    await expect(service.getAccount(999)).rejects.toMatchObject({ code: 'account_not_found', status: 404 });
    await expect(service.createKey(999, 'admin')).rejects.toMatchObject({ code: 'account_not_found' });
    await expect(service.createKey(account.id, 'owner')).rejects.toThrow('Expected admin or member for role but received "owner"');
    await expect(service.setBalance(account.id, -1)).rejects.toThrow(/a balance cannot be negative/);
    await expect(service.setBalance(account.id, Number.NaN)).rejects.toMatchObject({ code: 'validation_error', path: '$.amount' });
    await expect(service.setPlan(account.id, { concurrency: 0 })).rejects.toMatchObject({ code: 'validation_error', path: '$.concurrency' });
    await expect(service.setPlan(account.id, { threads: 2 })).rejects.toMatchObject({ code: 'validation_error', path: '$.threads' });
    expect(await service.getAccount(account.id)).toMatchObject({ balance: 5, plan: { concurrency: 1 } });
    expect(await service.ctx.meta.countAccounts()).toBe(1);
  });

  it('sets balances and plans, single limits or a preset', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    expect((await service.setBalance(account.id, 12.34)).balance).toBe(12.34);
    expect((await service.addBalance(account.id, 0.66)).balance).toBe(13);
    expect((await service.addBalance(account.id, -3)).balance).toBe(10);
    await expect(service.addBalance(account.id, -10.01)).rejects.toThrow(/cannot go below 0/);
    await expect(service.addBalance(999, 1)).rejects.toMatchObject({ code: 'account_not_found' });
    expect((await service.getAccount(account.id)).balance).toBe(10);
    const changed = await service.setPlan(account.id, { concurrency: 3, rate_hd_60: 0.5 });
    expect(changed.plan).toMatchObject({ name: 'basic', concurrency: 3, videoRates: { hd_60: 0.5, sd_30: 0.01 } });
    expect((await service.setPlan(account.id, { plan: 'pro' })).plan).toMatchObject({ name: 'pro', concurrency: 4, requestsPerMinute: 300 });
  });
});

describe('designs', () => {
  it('stores a design with its files in blobs, so it renders without its folder', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const copy = join(dir, 'copy');
    cpSync(CARD, copy, { recursive: true });
    const template = JSON.parse(await readFile(join(copy, 'design.json'), 'utf8'));
    const design = await service.importDesign(account.id, template, { baseDir: copy });
    expect(design).toMatchObject({ kind: 'design', accountId: account.id });
    expect(Object.keys(design.assets)).toEqual(['lake-sunset.jpg']);
    expect(await service.ctx.blobs.get(design.assets['lake-sunset.jpg']!)).toEqual(await readFile(join(CARD, 'lake-sunset.jpg')));
    rmSync(copy, { recursive: true });
    startWorker();
    const task = await service.createTask(account.id, { designId: design.id, format: 'png', overrides: { headline: { text: 'Stored' } } });
    const [done] = await waitForTasks(account.id, [task.id]);
    expect(done).toMatchObject({ state: 'done', error: null, resultKey: `results/${account.id}/${task.id}.png` });
    const meta = await sharp(await service.resultBytes(account.id, task.id)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1080]);
  });

  it('recognises slide designs as video designs and lists, replaces and deletes them', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const slides = JSON.parse(await readFile('examples/slides-video/design.json', 'utf8'));
    const video = await service.importDesign(account.id, slides, { baseDir: 'examples/slides-video', name: 'slides' });
    const card = await importCard(account.id);
    expect(video.kind).toBe('video');
    expect((await service.listDesigns(account.id)).map((d) => [d.id, d.kind, d.name])).toEqual([
      [video.id, 'video', 'slides'],
      [card.id, 'design', 'card'],
    ]);
    const oldKeys = Object.values(card.assets);
    const replaced = await service.replaceDesign(account.id, card.id, JSON.parse(await readFile(join(CARD, 'design.json'), 'utf8')), { baseDir: CARD });
    expect(replaced.id).toBe(card.id);
    expect(replaced.version).toBe(2);
    // The replacement's photo has the same bytes: version 2 shares version 1's file.
    expect(Object.values(replaced.assets)).toEqual(oldKeys);
    for (const k of oldKeys) expect(await service.ctx.blobs.get(k)).toBeDefined();
    // Deleted: its files stay a day for renders that may still read them, then the sweeper deletes them.
    await service.deleteDesign(account.id, card.id);
    now += DAY - 1000;
    expect((await service.sweep()).designFiles).toBe(0);
    now += 2000;
    expect((await service.sweep()).designFiles).toBe(1);
    for (const k of [...oldKeys, ...Object.values(replaced.assets)]) expect(await service.ctx.blobs.get(k)).toBeUndefined();
    for (const k of Object.values(video.assets)) expect(await service.ctx.blobs.get(k)).toBeDefined();
    await expect(service.getDesign(account.id, card.id)).rejects.toMatchObject({ code: 'design_not_found', status: 404 });
  });

  it('keeps designs private to their account', async () => {
    const a = (await service.createAccount({ name: 'A' })).account;
    const b = (await service.createAccount({ name: 'B' })).account;
    const d = await importCard(a.id);
    await expect(service.getDesign(b.id, d.id)).rejects.toMatchObject({ code: 'design_not_found' });
    await expect(service.deleteDesign(b.id, d.id)).rejects.toMatchObject({ code: 'design_not_found' });
    await expect(service.createTask(b.id, { designId: d.id, format: 'png' })).rejects.toMatchObject({ code: 'design_not_found' });
    expect(await service.listDesigns(b.id)).toEqual([]);
  });

  it.each([
    ['an invalid field', (t: Record<string, unknown>) => ({ ...t, width: -5 }), '$.width'],
    ['a missing file', (t: Record<string, unknown>) => JSON.parse(JSON.stringify(t).replace('lake-sunset.jpg', 'missing.jpg')), '$.objects[0].path'],
    [
      'a file outside the folder',
      (t: Record<string, unknown>) => JSON.parse(JSON.stringify(t).replace('lake-sunset.jpg', '../secret.jpg')),
      '$.objects[0].path',
    ],
    ['an asset: reference', (t: Record<string, unknown>) => JSON.parse(JSON.stringify(t).replace('lake-sunset.jpg', 'asset:logo')), '$.objects[0].path'],
  ])('refuses a design with %s, with its path, and stores nothing', async (_what, mutate, path) => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const template = mutate(JSON.parse(await readFile(join(CARD, 'design.json'), 'utf8')));
    const err = await service.importDesign(account.id, template, { baseDir: CARD }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation_error', path });
    expect(await service.listDesigns(account.id)).toEqual([]);
    expect(await service.ctx.blobs.list('designs/')).toEqual([]);
  });

  it('refuses a design for an unknown account and stores nothing', async () => {
    await expect(importCard(42)).rejects.toMatchObject({ code: 'account_not_found' });
    expect(await service.ctx.blobs.list('')).toEqual([]);
  });
});

describe('uploads', () => {
  it('sniffs the type from the bytes and gives a URL usable in overrides', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const { upload, url } = await service.createUpload(account.id, await png());
    expect(upload).toMatchObject({ contentType: 'image/png', expiresAt: now + 30 * DAY, expiredAt: null });
    expect(url).toMatch(/^https:\/\/render\.example\.com\/public\/v2\/uploads\/[0-9a-f]{32}\.png$/);
    const jpg = await sharp(await png())
      .jpeg()
      .toBuffer();
    expect((await service.createUpload(account.id, jpg)).upload.contentType).toBe('image/jpeg');
    const card = await importCard(account.id);
    startWorker();
    const task = await service.createTask(account.id, { designId: card.id, format: 'jpg', overrides: { photo: { path: url } } });
    expect(task.overrides).toEqual({ photo: { path: `asset:upload-${upload.token}` } });
    const [done] = await waitForTasks(account.id, [task.id]);
    expect(done!.state).toBe('done');
  });

  it('refuses files that are not images, empty or too large, and stores nothing', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    await expect(service.createUpload(account.id, Buffer.from('hello, I am a text file renamed .png'))).rejects.toThrow(
      /not a png, jpeg, webp, gif or avif image/,
    );
    await expect(service.createUpload(account.id, Buffer.alloc(0))).rejects.toThrow(/empty/);
    await expect(service.createUpload(account.id, Buffer.alloc(11 * 1024 * 1024, 1))).rejects.toThrow(/limited to 10 MB/);
    const truncated = (await png(400, 400)).subarray(0, 60);
    await expect(service.createUpload(account.id, truncated)).rejects.toMatchObject({ code: 'validation_error', path: '$.file' });
    // A valid header and size, with the pixel data damaged half-way.
    const noisy = await sharp(Buffer.from(Array.from({ length: 300 * 300 * 3 }, (_, i) => (i * 7919) % 256)), { raw: { width: 300, height: 300, channels: 3 } })
      .png()
      .toBuffer();
    const damaged = Buffer.concat([noisy.subarray(0, noisy.length / 2), Buffer.alloc(noisy.length / 2, 0x55)]);
    await expect(service.createUpload(account.id, damaged)).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.file',
      message: expect.stringMatching(/cannot be read/),
    });
    expect(await service.ctx.blobs.list('uploads/')).toEqual([]);
  });

  it('refuses another account’s upload, external URLs and asset references in overrides', async () => {
    const a = (await service.createAccount({ name: 'A' })).account;
    const b = (await service.createAccount({ name: 'B' })).account;
    const { url } = await service.createUpload(a.id, await png());
    const card = await importCard(b.id);
    const attempt = (path: string) => service.createTask(b.id, { designId: card.id, format: 'png', overrides: { photo: { path } } });
    await expect(attempt(url)).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects_overrides.photo.path',
      message: expect.stringMatching(/not an image uploaded by this account/),
    });
    await expect(attempt('https://example.org/cat.png')).rejects.toThrow(/external image URLs are not allowed/);
    await expect(attempt('http://169.254.169.254/latest/meta-data')).rejects.toThrow(/external image URLs are not allowed/);
    await expect(attempt(`asset:upload-${'0'.repeat(32)}`)).rejects.toThrow(/not an "asset:" reference/);
    expect(await service.ctx.meta.listTasks(b.id)).toEqual([]);
  });
});

describe('one image limit for uploads, design imports and renders', () => {
  // 7000×6500 is 45.5 megapixels: over the renders' 40, yet a one-colour png of it is a small file.
  const TOO_BIG = 'is 7000×6500: images may have at most 40 megapixels: scale it down to 6563×6094 or smaller';
  let big: Promise<Buffer> | undefined;
  const bigPng = () =>
    (big ??= sharp({ create: { width: 7000, height: 6500, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer());
  const cardWith = async (path: string) => JSON.parse((await readFile(join(CARD, 'design.json'), 'utf8')).replace('lake-sunset.jpg', path));

  it('refuses an upload over 40 megapixels from its header, in the render’s words, and stores nothing', async () => {
    expect(IMAGE_LIMITS.maxPixels).toBe(40_000_000);
    const { account } = await service.createAccount({ name: 'Acme' });
    const err = await service.createUpload(account.id, await bigPng()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation_error', path: '$.file', message: `the image ${TOO_BIG}` });
    expect(await service.ctx.blobs.list('uploads/')).toEqual([]);
    expect(await service.ctx.meta.db.selectFrom('uploads').selectAll().execute()).toEqual([]);
  });

  it('accepts an upload of exactly 40 megapixels, and a render uses it', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const exact = await sharp({ create: { width: 8000, height: 5000, channels: 3, background: '#cc6633' } })
      .png()
      .toBuffer();
    const { url } = await service.createUpload(account.id, exact);
    const card = await importCard(account.id);
    startWorker(1);
    const task = await service.createTask(account.id, { designId: card.id, format: 'jpg', overrides: { photo: { path: url } } });
    const [done] = await waitForTasks(account.id, [task.id]);
    expect(done).toMatchObject({ state: 'done', error: null });
  }, 60_000);

  it('refuses a design whose image is over the limit at import, with its path, and the render says the same', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const template = await cardWith('big.png');
    const files = new Map([['big.png', new Uint8Array(await bigPng())]]);
    const err = await service.importDesign(account.id, template, { files }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation_error', path: '$.objects[0].path', message: `"big.png" ${TOO_BIG}` });
    expect(await service.listDesigns(account.id)).toEqual([]);
    expect(await service.ctx.blobs.list('designs/')).toEqual([]);
    // The library renders a design straight from its files: the same image is refused at load, in the same words.
    const rendered = await render({ design: template, format: 'png', assets: async () => files.get('big.png')! }).catch((e: unknown) => e);
    expect(rendered).toMatchObject({ code: 'validation_error', path: '$.objects[0].path', message: `"big.png" ${TOO_BIG}` });
  }, 60_000);
});

describe('tasks and the worker', () => {
  it('validates overrides at queue time with the JSON path, and queues nothing', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const card = await importCard(account.id);
    await expect(service.createTask(account.id, { designId: card.id, format: 'gif' })).rejects.toMatchObject({ path: '$.format' });
    await expect(service.createTask(account.id, { designId: card.id, format: 'png', overrides: { headline: { colour: 'red' } } })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects_overrides.headline.colour',
    });
    await expect(service.createTask(account.id, { designId: 'x', format: 'png' })).rejects.toMatchObject({ path: '$.design_id' });
    await expect(service.createTask(account.id, { designId: card.id, format: 'png', overrides: { photo: { path: 'nope.jpg' } } })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects_overrides.photo.path',
      message: expect.stringMatching(/the design has no file "nope.jpg"/),
    });
    await expect(
      service.createTask(account.id, { designId: card.id, format: 'png', overrides: { photo: { path: '../../package.json' } } }),
    ).rejects.toMatchObject({ path: '$.objects_overrides.photo.path' });
    expect(await service.ctx.meta.listTasks(account.id)).toEqual([]);
    // The design's own files may be named by their relative path.
    expect((await service.createTask(account.id, { designId: card.id, format: 'png', overrides: { photo: { path: './lake-sunset.jpg' } } })).state).toBe(
      'queued',
    );
  });

  it('refuses tasks beyond the plan queue size with queue_full', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    await service.setPlan(account.id, { queue_size: 2 });
    const card = await importCard(account.id);
    await service.createTask(account.id, { designId: card.id, format: 'png' });
    await service.createTask(account.id, { designId: card.id, format: 'png' });
    await expect(service.createTask(account.id, { designId: card.id, format: 'png' })).rejects.toMatchObject({ code: 'queue_full', status: 429 });
  });

  it('with concurrency 1 finishes tasks in queue order, one at a time', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const card = await importCard(account.id);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await service.createTask(account.id, { designId: card.id, format: 'jpg', overrides: { headline: { text: `Task ${i}` } } })).id);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    service.ctx.meta.finishTask = (
      (orig) =>
      async (...args: Parameters<typeof orig>) => {
        order.push(args[0]);
        return orig.apply(service.ctx.meta, args);
      }
    )(service.ctx.meta.finishTask);
    const claim = service.ctx.meta.claimNext.bind(service.ctx.meta);
    service.ctx.meta.claimNext = async (...args) => {
      const t = await claim(...args);
      if (t) most = Math.max(most, ++running);
      return t;
    };
    startWorker(3, () => void running--);
    const tasks = await waitForTasks(account.id, ids);
    expect(tasks.every((t) => t.state === 'done')).toBe(true);
    expect(order).toEqual(ids);
    expect(most).toBe(1);
  });

  it('with concurrency 2 runs at most 2 of one account at once, and another account is not starved', async () => {
    const a = (await service.createAccount({ name: 'A' })).account;
    const b = (await service.createAccount({ name: 'B' })).account;
    await service.setPlan(a.id, { concurrency: 2 });
    const cardA = await importCard(a.id);
    const cardB = await importCard(b.id);
    const idsA: number[] = [];
    for (let i = 0; i < 6; i++)
      idsA.push((await service.createTask(a.id, { designId: cardA.id, format: 'png', overrides: { headline: { text: `A ${i}` } } })).id);
    const idB = (await service.createTask(b.id, { designId: cardB.id, format: 'png' })).id;
    // A's running tasks are counted in the store right after each claim of A (the only moment the
    // count can rise), not by sampling on a timer that a loaded machine may run too late to see both.
    const pendingA: number[] = [];
    const claimed: number[] = [];
    const claim = service.ctx.meta.claimNext.bind(service.ctx.meta);
    service.ctx.meta.claimNext = async (...args) => {
      const t = await claim(...args);
      if (t) claimed.push(t.id);
      if (t?.accountId === a.id) pendingA.push((await service.ctx.meta.listTasks(a.id)).filter((x) => x.state === 'pending').length);
      return t;
    };
    startWorker(3);
    await waitForTasks(a.id, idsA);
    await waitForTasks(b.id, [idB]);
    expect(Math.max(...pendingA)).toBe(2);
    // B's task, queued after all of A's, is taken while A still has tasks waiting; A's start in order.
    expect(claimed.indexOf(idB)).toBeLessThan(claimed.indexOf(idsA.at(-1)!));
    expect(claimed.indexOf(idB)).toBe(2);
    expect(claimed.filter((id) => id !== idB)).toEqual(idsA);
  });

  it('ends a render that times out in error with a readable reason, and carries on', async () => {
    // Nothing here races the machine's speed. The render that must time out reads its photo from a
    // blob that is held back until the test ends, so it can never finish, however fast or loaded the
    // machine: a 1 s timeout is what stops it. The task behind it is a real render and must not race
    // that 1 s (under load a fresh render thread alone can take longer): the worker reads the timeout
    // from the configuration when it starts a render, and the completion hook of the stopped render
    // raises it before the worker takes the next task.
    await service.close();
    await open({ IMPRINT_RENDER_TIMEOUT_S: '1' });
    const { account } = await service.createAccount({ name: 'Acme' });
    const stuck = await importCard(account.id);
    const card = await importCard(account.id);
    const heldKey = stuck.assets['lake-sunset.jpg']!;
    let release: () => void = () => {};
    const released = new Promise<void>((r) => (release = r));
    const get = service.ctx.blobs.get.bind(service.ctx.blobs);
    service.ctx.blobs.get = async (key) => {
      if (key === heldKey) await released;
      return get(key);
    };
    try {
      const slow = await service.createTask(account.id, { designId: stuck.id, format: 'png' });
      const next = await service.createTask(account.id, { designId: card.id, format: 'png' });
      startWorker(1, (t) => {
        if (t.id === slow.id) service.ctx.config.renderTimeoutMs = 120_000;
      });
      const [s, n] = await waitForTasks(account.id, [slow.id, next.id]);
      expect(s).toMatchObject({ state: 'error', resultKey: null, errorCode: 'render_timeout' });
      expect(s!.error).toMatch(/took longer than 1 s and was stopped: simplify the design or raise IMPRINT_RENDER_TIMEOUT_S/);
      expect(n).toMatchObject({ state: 'done', error: null });
    } finally {
      release();
    }
  }, 60_000);

  it('ends a render whose design was deleted, or whose upload expired after queueing, in error', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const card = await importCard(account.id);
    const other = await importCard(account.id);
    const { url } = await service.createUpload(account.id, await png());
    const t1 = await service.createTask(account.id, { designId: other.id, format: 'png' });
    const t2 = await service.createTask(account.id, { designId: card.id, format: 'png', overrides: { photo: { path: url } } });
    await service.deleteDesign(account.id, other.id);
    now += 31 * DAY;
    expect((await service.sweep()).uploads).toBe(1);
    const hooked: TaskRecord[] = [];
    startWorker(1, (t) => void hooked.push(t));
    const [r1, r2] = await waitForTasks(account.id, [t1.id, t2.id]);
    expect(r1!.error).toMatch(new RegExp(`design ${other.id} was deleted before the render`));
    expect(r1!.errorCode).toBe('design_not_found');
    expect(r2!.error).toMatch(/^\$\.objects_overrides\.photo\.path: this upload has expired/);
    expect(r2!.errorCode).toBe('validation_error');
    expect(hooked.map((t) => [t.id, t.state])).toEqual([
      [t1.id, 'error'],
      [t2.id, 'error'],
    ]);
    expect(service.ctx.metrics.get('imprint_tasks_finished_total', { state: 'error' })).toBe(2);
  });

  it('survives a store failure when recording a render, and the task is taken again after its lease', async () => {
    await service.close();
    await open({ IMPRINT_TASK_LEASE_S: '1' });
    const { account } = await service.createAccount({ name: 'Acme' });
    const card = await importCard(account.id);
    const finish = service.ctx.meta.finishTask.bind(service.ctx.meta);
    let failures = 0;
    service.ctx.meta.finishTask = async (...args) => {
      if (failures++ === 0) throw new Error('connection terminated (the database restarted)');
      return finish(...args);
    };
    startWorker(1);
    const t = await service.createTask(account.id, { designId: card.id, format: 'png' });
    await waitUntil('the first attempt to record the render (and fail)', () => failures > 0);
    expect((await service.getTask(account.id, t.id)).state).toBe('pending');
    now += 2000;
    const [done] = await waitForTasks(account.id, [t.id]);
    expect(done).toMatchObject({ state: 'done', attempts: 2 });
  }, 60_000);

  it('calls the completion hook once per task; a hook that throws does not affect the task', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const card = await importCard(account.id);
    const calls: [number, string][] = [];
    startWorker(1, (t) => {
      calls.push([t.id, t.state]);
      throw new Error('webhook receiver is down');
    });
    const t = await service.createTask(account.id, { designId: card.id, format: 'png' });
    const [done] = await waitForTasks(account.id, [t.id]);
    // The hook runs after the task is recorded: stopping the worker waits for every render to end,
    // hook included, so the calls below are all there will be.
    await worker!.stop();
    expect(done!.state).toBe('done');
    expect(calls).toEqual([[t.id, 'done']]);
    expect(service.ctx.metrics.get('imprint_completion_hook_failures_total')).toBe(1);
    const text = await service.metricsText();
    expect(text).toContain('imprint_tasks{state="done"} 1');
    expect(text).toContain('imprint_queue_depth 0');
    expect(text).toMatch(/imprint_render_duration_seconds_count\{format="png"\} 1/);
  });

  it('reads tasks by id only within the account', async () => {
    const a = (await service.createAccount({ name: 'A' })).account;
    const b = (await service.createAccount({ name: 'B' })).account;
    const card = await importCard(a.id);
    const t = await service.createTask(a.id, { designId: card.id, format: 'png' });
    expect((await service.getTask(a.id, String(t.id))).state).toBe('queued');
    expect(taskTimings(t)).toEqual({ waitTime: null, execTime: null });
    expect(taskTimings({ createdAt: 1000, startedAt: 3500, finishedAt: 4250 })).toEqual({ waitTime: 2.5, execTime: 0.75 });
    await expect(service.getTask(b.id, t.id)).rejects.toMatchObject({ code: 'task_not_found', status: 404 });
    await expect(service.getTask(a.id, '1; drop table tasks')).rejects.toMatchObject({ code: 'task_not_found' });
  });
});

describe('retention', () => {
  it('deletes results and uploads after 30 days (fake clock); expired uploads are refused', async () => {
    const { account } = await service.createAccount({ name: 'Acme' });
    const card = await importCard(account.id);
    const { upload, url } = await service.createUpload(account.id, await png());
    startWorker(1);
    const t = await service.createTask(account.id, { designId: card.id, format: 'png' });
    const [done] = await waitForTasks(account.id, [t.id]);
    expect(await service.ctx.blobs.get(done!.resultKey!)).toBeDefined();

    now += 30 * DAY - 60_000;
    expect(await service.sweep()).toEqual({ uploads: 0, results: 0, designFiles: 0 });
    expect(await service.resultBytes(account.id, t.id)).toBeDefined();

    now += 120_000;
    expect(await service.sweep()).toEqual({ uploads: 1, results: 1, designFiles: 0 });
    expect(await service.ctx.blobs.get(upload.blobKey)).toBeUndefined();
    expect(await service.ctx.blobs.get(done!.resultKey!)).toBeUndefined();
    expect((await service.getTask(account.id, t.id)).resultExpiredAt).toBe(now);
    expect(await service.resultBytes(account.id, t.id)).toBeUndefined();
    await expect(service.createTask(account.id, { designId: card.id, format: 'png', overrides: { photo: { path: url } } })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects_overrides.photo.path',
      message: expect.stringMatching(/expired/),
    });
    // Design files are not uploads: they stay.
    for (const k of Object.values(card.assets)) expect(await service.ctx.blobs.get(k)).toBeDefined();
    expect(await service.sweep()).toEqual({ uploads: 0, results: 0, designFiles: 0 });
  });
});

describe('billing, task options and plan limits', () => {
  const b = { api: 'b' as const, demo: false, reserved: 0.1, options: { rate: 0.01, fps: 30 } };

  it('charges interface B by the video made, never more than was held, and nothing for demo or interface A', () => {
    expect(chargeFor(b, 4)).toBe(0.04);
    // 0.1 held; frame rounding asks for a little more, which is not charged.
    expect(chargeFor(b, 10.02)).toBe(0.1);
    expect(chargeFor({ ...b, demo: true }, 4)).toBe(0);
    expect(chargeFor({ ...b, options: {} }, 4)).toBe(0);
    expect(chargeFor(b, null)).toBeUndefined();
    expect(chargeFor({ ...b, api: 'a' }, 4)).toBeUndefined();
  });

  it('reads stored task options as their type, dropping keys it does not know and refusing values it cannot use', () => {
    expect(taskOptions({ options: { fps: 60, size: 'hd', frames: 120, later_addition: true } })).toEqual({ fps: 60, size: 'hd', frames: 120 });
    expect(() => taskOptions({ options: { fps: 25 } })).toThrow();
  });

  it("takes interface A's longest video from the plan: 15 s for every preset and for unknown plan names", () => {
    expect(maxVideoSeconds(presetPlan('basic'))).toBe(15);
    expect(maxVideoSeconds(presetPlan('pro'))).toBe(15);
    expect(maxVideoSeconds({ name: 'custom' })).toBe(15);
  });
});
