// Interface A over real HTTP on an ephemeral port: every endpoint's success path for each format, the
// state sequence, errors of the spec with status and body, limits, idempotency, the webhook with its
// signature, OpenAPI, health and metrics.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, listen } from '../src/http/server.js';
import { RenderRequest } from '../src/http/schemas.js';
import { configFromEnv } from '../src/service/config.js';
import { webhookHook } from '../src/service/notify.js';
import { Service } from '../src/service/service.js';
import { verifyWebhookSignature } from '../src/service/webhooks.js';
import { TaskWorker } from '../src/worker/worker.js';
import { startS3Server } from './support/s3-server.js';
import { redis, REDIS_URL } from './support/services.js';
import { RedisRateLimiter } from '../src/store/limits/redis.js';
import { waitFor, waitUntil } from './support/wait.js';

const CARD = 'examples/card-1080';
let dir: string;
let service: Service;
let app: FastifyInstance;
let worker: TaskWorker;
let base: string;
let key: string;
let accountId: number;
let secret: string;
let card: number;
let clip: number;

const tinyVideo = {
  schema: 'imprint/design@1',
  width: 64,
  height: 64,
  duration: 1,
  background: { type: 'color', color: '#204060' },
  objects: [
    {
      type: 'shape',
      name: 'box',
      x: 8,
      y: 8,
      width: 48,
      height: 48,
      background: { type: 'color', color: '#f0c030' },
      animations: [{ type: 'fade_in', duration: 0.5 }],
    },
  ],
};

async function start(env: Record<string, string> = {}) {
  dir = mkdtempSync(join(tmpdir(), 'imprint-http-'));
  const config = configFromEnv({
    IMPRINT_DATA_DIR: dir,
    IMPRINT_PORT: '0',
    IMPRINT_HOST: '127.0.0.1',
    IMPRINT_POLL_INTERVAL_S: '0',
    IMPRINT_WEBHOOK_ALLOW_PRIVATE: '1',
    ...env,
  });
  service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
  app = await buildServer(service);
  base = (await listen(app, service)) + '/public/v2';
  worker = new TaskWorker(service.ctx, { slots: 2, onComplete: webhookHook(service.ctx) });
  worker.start();
  const created = await service.createAccount({ name: 'Acme' });
  ({ apiKey: key, webhookSecret: secret } = created);
  accountId = created.account.id;
  await service.setPlan(accountId, { requests_per_minute: 100_000, queue_size: 1000, concurrency: 2 });
  card = (await service.importDesign(accountId, JSON.parse(await readFile(join(CARD, 'design.json'), 'utf8')), { baseDir: CARD })).id;
  clip = (await service.importDesign(accountId, tinyVideo)).id;
}

async function stop() {
  await app.close();
  await worker.stop(0);
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}

const auth = (k = key) => ({ authorization: `Bearer ${k}` });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const get = (path: string, headers: Record<string, string> = auth()) => fetch(base + path, { headers });

async function upload(bytes: Uint8Array, k = key, filename = 'photo.png') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  return fetch(`${base}/upload`, { method: 'POST', headers: auth(k), body: form });
}

function until(taskId: number, states = ['done', 'error'], seen?: string[]) {
  return waitFor(`task ${taskId} to reach ${states.join('|')}`, async () => {
    const body = (await (await get(`/tasks/${taskId}`)).json()) as { state: string; result_url?: string; id: number; design_id: number; warnings?: unknown[] };
    if (seen && seen.at(-1) !== body.state) seen.push(body.state);
    return states.includes(body.state) ? body : undefined;
  });
}

const png = (w = 200, h = 120) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#2a9d8f' } })
    .png()
    .toBuffer();

describe('interface A', () => {
  beforeAll(() => start(), 60_000);
  afterAll(() => stop());

  it('uploads an image, renders png with it, and serves the result with its content type', async () => {
    const up = await upload(await png());
    expect(up.status).toBe(201);
    const { result, url } = (await up.json()) as { result: string; url: string };
    expect(result).toBe('success');
    expect(url).toMatch(new RegExp(`^${base}/uploads/[0-9a-f]{32}\\.png$`));
    expect(Buffer.from(await (await get(url.slice(base.length))).arrayBuffer())).toEqual(await png());

    const res = await post('/render', { design_id: card, format: 'png', objects_overrides: { headline: { text: 'Over HTTP' }, photo: { path: url } } });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { task_id: number; status_url: string };
    expect(accepted.status_url).toBe(`${base}/tasks/${accepted.task_id}`);
    const done = await until(accepted.task_id);
    expect(done).toEqual({
      id: accepted.task_id,
      state: 'done',
      design_id: card,
      result_url: expect.stringMatching(/\/public\/v2\/results\/[0-9a-f]{32}\.png$/),
    });
    const file = await fetch(done.result_url!);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-disposition')).toBe(`inline; filename="task-${accepted.task_id}.png"`);
    const bytes = Buffer.from(await file.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1080]);
    // ?download= (an addition) saves the same bytes under the name asked for, its extension the result's.
    for (const [asked, saved] of [
      ['card-1080-task-7.png', 'card-1080-task-7.png'],
      ['Summer sale / final', 'Summer-sale-final.png'],
      ['card.jpg', 'card.jpg.png'],
      ['../../etc/passwd', 'etc-passwd.png'],
      ['"; x=y', 'x-y.png'],
      ['☃', `task-${accepted.task_id}.png`],
    ]) {
      const named = await fetch(`${done.result_url!}?download=${encodeURIComponent(asked!)}`);
      const disposition = `${asked === '☃' ? 'inline' : 'attachment'}; filename="${saved}"`;
      expect([named.status, named.headers.get('content-disposition')]).toEqual([200, disposition]);
      expect(Buffer.from(await named.arrayBuffer()).equals(bytes)).toBe(true);
    }
    const long = await fetch(`${done.result_url!}?download=${'x'.repeat(121)}`);
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ error: 'validation_error', description: expect.stringMatching(/^\$\.download: .*at most 120 characters/) });
  }, 60_000);

  it('takes an AVIF upload (made by sharp) and renders its pixels as an image override', async () => {
    // Left half orange, right half blue: the render shows the upload's own pixels, not the design's photo.
    const avif = await sharp({ create: { width: 400, height: 240, channels: 3, background: '#e4572e' } })
      .composite([{ input: { create: { width: 200, height: 240, channels: 3, background: '#2f6fed' } }, left: 200, top: 0 }])
      .avif({ quality: 90 })
      .toBuffer();
    expect(avif.subarray(4, 12).toString()).toBe('ftypavif');
    const up = await upload(avif, key, 'photo.avif');
    const body = (await up.json()) as { result: string; url: string; reason?: string };
    expect({ status: up.status, ...body }).toMatchObject({ status: 201, result: 'success' });
    expect(body.url).toMatch(new RegExp(`^${base}/uploads/[0-9a-f]{32}\\.avif$`));
    const served = await get(body.url.slice(base.length));
    expect(served.headers.get('content-type')).toBe('image/avif');
    expect(Buffer.from(await served.arrayBuffer()).equals(avif)).toBe(true);

    const { task_id } = (await (await post('/render', { design_id: card, format: 'png', objects_overrides: { photo: { path: body.url } } })).json()) as {
      task_id: number;
    };
    const done = await until(task_id);
    expect(done.state).toBe('done');
    const { data, info } = await sharp(Buffer.from(await (await fetch(done.result_url!)).arrayBuffer()))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rgb = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    // The photo box is 1080×640 (cover): the left of it orange, the right blue (AVIF is lossy: near).
    const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]!) <= 12);
    expect(rgb(300, 320), 'left of the photo').toSatisfy((c: number[]) => near(c, [0xe4, 0x57, 0x2e]));
    expect(rgb(800, 320), 'right of the photo').toSatisfy((c: number[]) => near(c, [0x2f, 0x6f, 0xed]));
  }, 60_000);

  it.each([
    ['jpg', 'image/jpeg', (b: Buffer) => b.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))],
    ['pdf', 'application/pdf', (b: Buffer) => b.subarray(0, 5).toString() === '%PDF-'],
    // Additions to the spec's formats.
    ['webp', 'image/webp', (b: Buffer) => b.subarray(0, 4).toString() === 'RIFF' && b.subarray(8, 12).toString() === 'WEBP'],
    ['avif', 'image/avif', (b: Buffer) => b.subarray(4, 12).toString() === 'ftypavif'],
  ])(
    'renders %s',
    async (format, type, looksRight) => {
      const { task_id } = (await (await post('/render', { design_id: card, format })).json()) as { task_id: number };
      const done = await until(task_id);
      const file = await fetch(done.result_url!);
      expect(file.headers.get('content-type')).toBe(type);
      expect(looksRight(Buffer.from(await file.arrayBuffer()))).toBe(true);
    },
    60_000,
  );

  it('renders mp4 and shows the task queued, then pending, then done', async () => {
    // Two renders ahead of it keep the mp4 queued long enough to be seen.
    for (let i = 0; i < 2; i++) await post('/render', { design_id: card, format: 'png' });
    const { task_id } = (await (await post('/render', { design_id: clip, format: 'mp4' })).json()) as { task_id: number };
    const seen: string[] = [];
    const done = await until(task_id, ['done', 'error'], seen);
    expect(seen).toEqual(['queued', 'pending', 'done']);
    const file = Buffer.from(await (await fetch(done.result_url!)).arrayBuffer());
    expect(file.subarray(4, 8).toString()).toBe('ftyp');
  }, 60_000);

  it('shows an error task without result_url, and sends webhooks for done and error', async () => {
    const received: { body: string; signature: string | string[] | undefined }[] = [];
    const receiver: Server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ body, signature: req.headers['x-imprint-signature'] });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    try {
      const doomed = (await service.importDesign(accountId, tinyVideo)).id;
      // No worker runs while the design is deleted, so its task cannot render before the delete.
      await worker.stop();
      const ok = (await (await post('/render', { design_id: card, format: 'jpg', webhook_url: hook })).json()) as { task_id: number };
      const bad = (await (await post('/render', { design_id: doomed, format: 'png', webhook_url: hook })).json()) as { task_id: number };
      await service.deleteDesign(accountId, doomed);
      worker = new TaskWorker(service.ctx, { slots: 2, onComplete: webhookHook(service.ctx) });
      worker.start();
      const failed = await until(bad.task_id);
      // The spec's fields, plus Imprint's `error` that says why.
      expect(failed).toEqual({
        id: bad.task_id,
        state: 'error',
        design_id: doomed,
        error: { code: 'design_not_found', description: `design ${doomed} was deleted before the render: queue the task again with an existing design` },
      });
      const done = await until(ok.task_id);
      await waitUntil('both webhooks', () => received.length >= 2);
      expect(received).toHaveLength(2);
      const bodies = received.map((r) => JSON.parse(r.body) as { id: number });
      expect(bodies.find((b) => b.id === ok.task_id)).toEqual(done);
      expect(bodies.find((b) => b.id === bad.task_id)).toEqual(failed);
      for (const r of received) {
        expect(verifyWebhookSignature(secret, r.signature, r.body)).toBe(true);
        expect(verifyWebhookSignature(secret, r.signature, r.body.replace('"state"', '"State"'))).toBe(false);
      }
    } finally {
      receiver.close();
    }
  }, 60_000);

  it('says in the task and its webhook which characters no font could draw', async () => {
    const received: string[] = [];
    const receiver: Server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    try {
      const design = (
        await service.importDesign(accountId, {
          width: 200,
          height: 60,
          objects: [{ type: 'text', name: 'title', x: 0, y: 0, width: 200, height: 60, text: 'x' }],
        })
      ).id;
      // A private-use character: no font of any fallback chain has it.
      const missing = (await (
        await post('/render', { design_id: design, format: 'png', webhook_url: hook, objects_overrides: { title: { text: 'Hi \u{F0041}' } } })
      ).json()) as {
        task_id: number;
      };
      const clean = (await (await post('/render', { design_id: design, format: 'png', objects_overrides: { title: { text: 'Hi' } } })).json()) as {
        task_id: number;
      };
      const done = await until(missing.task_id);
      expect(done.state).toBe('done');
      expect(done.warnings).toEqual([
        {
          code: 'missing_characters',
          object: 'title',
          characters: ['\u{F0041}'],
          description: `text object "title" has characters the fonts cannot draw, shown as the font's empty box: \u{F0041} (U+F0041). Add a font that has them to the design's fonts, or change the text`,
        },
      ]);
      expect(await until(clean.task_id)).not.toHaveProperty('warnings');
      await waitUntil('the webhook', () => received.length >= 1);
      expect(JSON.parse(received[0]!)).toEqual(done);
    } finally {
      receiver.close();
    }
  }, 60_000);

  it('finishes a task whose webhook receiver is dead', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as { port: number }).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const { task_id } = (await (await post('/render', { design_id: card, format: 'png', webhook_url: `http://127.0.0.1:${port}/gone` })).json()) as {
      task_id: number;
    };
    expect((await until(task_id)).state).toBe('done');
    await waitUntil('the failed webhook to be counted', () => service.ctx.metrics.get('imprint_webhooks_total', { result: 'failed' }) > 0);
    expect(service.ctx.metrics.get('imprint_webhooks_total', { result: 'failed' })).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('answers every error with {error, description} and the documented status', async () => {
    const cases: [Promise<Response>, number, string, RegExp?][] = [
      [fetch(`${base}/tasks/1`), 401, 'unauthorized', /Authorization: Bearer/],
      [get('/tasks/1', auth('imp_unknown')), 401, 'unauthorized', /not known/],
      [get('/tasks/999999'), 404, 'task_not_found', /no task 999999/],
      [get('/tasks/abc'), 404, 'task_not_found'],
      [post('/render', { design_id: 99999, format: 'png' }), 404, 'design_not_found'],
      [
        post('/render', { design_id: card, format: 'png', objects_overrides: { headline: { font: 'x' } } }),
        400,
        'validation_error',
        /^\$\.objects_overrides\.headline\.font: unknown field "font"/,
      ],
      [
        post('/render', { design_id: card, format: 'png', objects_overrides: { nobody: { text: 'x' } } }),
        400,
        'validation_error',
        /^\$\.objects_overrides\.nobody: the design has no object named "nobody"/,
      ],
      [
        post('/render', { design_id: card, format: 'png', objects_overrides: { photo: { path: 'https://example.com/a.png' } } }),
        400,
        'validation_error',
        /external image URLs are not allowed/,
      ],
      [post('/render', { design_id: card, format: 'gif' }), 400, 'validation_error', /^\$\.format/],
      [post('/render', { design_id: card }), 400, 'validation_error', /^\$\.format/],
      [
        fetch(`${base}/render`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: '{"design_id": 1,' }),
        400,
        'validation_error',
        /not valid JSON/,
      ],
      [fetch(`${base}/nothing-here`, { headers: auth() }), 404, 'not_found'],
      [fetch(`${base}/results/${'0'.repeat(32)}.png`), 404, 'not_found', /expired/],
    ];
    for (const [res, status, error, description] of cases) {
      const r = await res;
      const body = (await r.json()) as Record<string, unknown>;
      expect({ status: r.status, keys: Object.keys(body).sort(), error: body.error }).toEqual({ status, keys: ['description', 'error'], error });
      if (description) expect(body.description).toMatch(description);
    }
  });

  it('refuses a member key with 403 and another account’s task with task_not_found', async () => {
    const { apiKey: member } = await service.createKey(accountId, 'member');
    for (const r of [
      await get('/tasks/1', auth(member)),
      await post('/render', { design_id: card, format: 'png' }, auth(member)),
      await upload(await png(), member),
    ]) {
      expect(r.status).toBe(403);
      expect(await r.json()).toEqual({ error: 'forbidden', description: expect.stringMatching(/administrator only/) });
    }
    const other = await service.createAccount({ name: 'Other' });
    const mine = (await (await post('/render', { design_id: card, format: 'png' })).json()) as { task_id: number };
    const r = await get(`/tasks/${mine.task_id}`, auth(other.apiKey));
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: string }).error).toBe('task_not_found');
  });

  it('refuses at queue time what can never render: an mp4 of a still design, quality on png, a time past the end', async () => {
    const before = (await service.ctx.meta.countTasksByState()).queued;
    const still = await post('/render', { design_id: card, format: 'mp4' });
    expect(still.status).toBe(400);
    expect(await still.json()).toEqual({
      error: 'validation_error',
      description: '$.format: an mp4 needs an animated design: add "duration" (seconds) to the design, or render it as png, jpg, webp, avif or pdf',
    });
    const quality = await post('/render', { design_id: card, format: 'png', quality: 80 });
    expect(quality.status).toBe(400);
    expect(await quality.json()).toEqual({ error: 'validation_error', description: '$.quality: quality applies to jpg, webp, avif: remove it for png' });
    const badQuality = await post('/render', { design_id: card, format: 'jpg', quality: 0 });
    expect(badQuality.status).toBe(400);
    expect(((await badQuality.json()) as { description: string }).description).toMatch(/^\$\.quality: /);
    expect((await service.ctx.meta.countTasksByState()).queued).toBe(before);
  });

  it('encodes jpg at the requested quality', async () => {
    const sizes: number[] = [];
    for (const quality of [30, 95]) {
      const { task_id } = (await (await post('/render', { design_id: card, format: 'jpg', quality })).json()) as { task_id: number };
      const done = await until(task_id);
      sizes.push((await (await fetch(done.result_url!)).arrayBuffer()).byteLength);
    }
    expect(sizes[1]!).toBeGreaterThan(sizes[0]! * 2);
  }, 60_000);

  it('refuses an mp4 longer than 15 s', async () => {
    const long = (await service.importDesign(accountId, { ...tinyVideo, slides: undefined, duration: 15 })).id;
    expect((await post('/render', { design_id: long, format: 'mp4' })).status).toBe(202);
    const slides = {
      schema: 'imprint/design@1',
      width: 64,
      height: 64,
      background: { type: 'color', color: '#000000' },
      slides: [1, 2].map((i) => ({ name: `s${i}`, duration: 10, objects: [] })),
    };
    const twenty = (await service.importDesign(accountId, slides)).id;
    const r = await post('/render', { design_id: twenty, format: 'mp4' });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({
      error: 'validation_error',
      description: "$.format: the video lasts 20 s: at most 15 s are allowed; shorten the design's duration",
    });
  });

  it('replays an Idempotency-Key with the same body and refuses it with another', async () => {
    const body = { design_id: card, format: 'jpg', objects_overrides: { headline: { text: 'Once' } } };
    const before = (await service.ctx.meta.listTasks(accountId)).length;
    const first = await post('/render', body, { 'idempotency-key': 'order-1234' });
    const again = await post('/render', { objects_overrides: body.objects_overrides, format: 'jpg', design_id: card }, { 'idempotency-key': 'order-1234' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect((await service.ctx.meta.listTasks(accountId)).length).toBe(before + 1);
    const racing = await Promise.all([1, 2, 3].map(() => post('/render', { ...body, format: 'pdf' }, { 'idempotency-key': 'order-race' })));
    const ids = new Set<number>();
    for (const r of racing) {
      expect([202, 409]).toContain(r.status);
      if (r.status === 202) ids.add(((await r.json()) as { task_id: number }).task_id);
    }
    expect(ids.size).toBe(1);
    expect((await service.ctx.meta.listTasks(accountId)).length).toBe(before + 2);
    const other = await post('/render', { ...body, format: 'png' }, { 'idempotency-key': 'order-1234' });
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: string }).error).toBe('conflict');
    expect((await service.ctx.meta.listTasks(accountId)).length).toBe(before + 2);
  });

  it('publishes OpenAPI 3.1 generated from the schemas it validates with', async () => {
    const r = await fetch(`${base}/openapi.json`);
    expect(r.status).toBe(200);
    const doc = (await r.json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; additionalProperties?: unknown }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/public/v2/render', '/public/v2/tasks/{task_id}', '/public/v2/upload', '/public/v2/results/{file}']),
    );
    expect(Object.keys(doc.components.schemas.RenderRequest!.properties!).sort()).toEqual(Object.keys(RenderRequest.shape).sort());
    expect(doc.components.schemas.RenderRequest!.additionalProperties).toBe(false);
  });

  it('reports health and Prometheus metrics', async () => {
    const health = await fetch(base.replace('/public/v2', '/healthz'));
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', queue: 'local' });
    const metrics = await (await fetch(base.replace('/public/v2', '/metrics'))).text();
    expect(metrics).toMatch(/^imprint_queue_depth \d+$/m);
    expect(metrics).toMatch(/^imprint_tasks\{state="done"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^imprint_render_duration_seconds_count\{format="png"\} [1-9]/m);
    expect(metrics).toMatch(/^imprint_http_requests_total\{route="\/public\/v2\/render",status="202"\} [1-9]/m);
  });
});

describe('interface A limits', () => {
  afterEach(() => stop());

  it('answers 429 rate_limited over the plan rate, with Retry-After and rate-limit headers', async () => {
    await start();
    await service.setPlan(accountId, { requests_per_minute: 3 });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await get('/tasks/1');
      statuses.push(last.status);
      if (i === 0) expect([last.headers.get('x-ratelimit-limit'), last.headers.get('x-ratelimit-remaining')]).toEqual(['3', '2']);
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(await last!.json()).toEqual({ error: 'rate_limited', description: expect.stringMatching(/3 requests per minute/) });
  }, 60_000);

  it('limits each status address to one poll per interval, then blocks a key that keeps polling', async () => {
    await start({ IMPRINT_POLL_INTERVAL_S: '5', IMPRINT_POLL_STRIKES: '3', IMPRINT_POLL_BLOCK_S: '120' });
    const a = (await (await post('/render', { design_id: card, format: 'png' })).json()) as { task_id: number };
    const b = (await (await post('/render', { design_id: card, format: 'png' })).json()) as { task_id: number };
    expect((await get(`/tasks/${a.task_id}`)).status).toBe(200);
    const fast = await get(`/tasks/${a.task_id}`);
    expect(fast.status).toBe(429);
    expect(Number(fast.headers.get('retry-after'))).toBeLessThanOrEqual(5);
    expect(((await fast.json()) as { description: string }).description).toMatch(/at most once per 5 s/);
    expect((await get(`/tasks/${b.task_id}`)).status).toBe(200);
    // The same address written with leading zeros is the same address.
    expect((await get(`/tasks/00${a.task_id}`)).status).toBe(429);
    expect((await get(`/tasks/${a.task_id}`)).status).toBe(429);
    const blocked = await post('/render', { design_id: card, format: 'png' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(100);
    expect(((await blocked.json()) as { description: string }).description).toMatch(/this key is blocked/);
  }, 60_000);

  it('answers 429 queue_full when the plan queue is full', async () => {
    await start();
    await worker.stop(0);
    await service.setPlan(accountId, { queue_size: 2 });
    for (let i = 0; i < 2; i++) expect((await post('/render', { design_id: card, format: 'png' })).status).toBe(202);
    const full = await post('/render', { design_id: card, format: 'png' });
    expect(full.status).toBe(429);
    expect(await full.json()).toEqual({ error: 'queue_full', description: expect.stringMatching(/2 tasks queued or rendering/) });
  }, 60_000);
});

describe('interface A with S3 blobs', () => {
  it('redirects a result URL to a presigned URL of the bucket that serves the file', async () => {
    const s3 = await startS3Server();
    try {
      await start({ IMPRINT_BLOBS_URL: s3.url });
      const { url } = (await (await upload(await png())).json()) as { url: string };
      const { task_id } = (await (await post('/render', { design_id: card, format: 'jpg', objects_overrides: { photo: { path: url } } })).json()) as {
        task_id: number;
      };
      const done = await until(task_id);
      expect(done.state).toBe('done');
      const redirect = await fetch(done.result_url!, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const location = redirect.headers.get('location')!;
      expect(location.startsWith(s3.endpoint)).toBe(true);
      expect(location).toMatch(/X-Amz-Signature=/);
      const file = await fetch(location);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe(`inline; filename="task-${task_id}.jpg"`);
      const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      expect([meta.format, meta.width]).toEqual(['jpeg', 1080]);
      // ?download= (an addition): the bucket's answer saves it under that name.
      const named = await fetch((await fetch(`${done.result_url!}?download=card-1080-task-${task_id}.jpg`, { redirect: 'manual' })).headers.get('location')!);
      expect(named.headers.get('content-disposition')).toBe(`attachment; filename="card-1080-task-${task_id}.jpg"`);
      // The Studio may show result pictures from the bucket (the task list's thumbnails), nothing else.
      const studio = await fetch(`${base.replace('/public/v2', '')}/studio`);
      const csp = studio.headers.get('content-security-policy')!;
      expect(csp).toContain(`img-src 'self' data: blob: ${new URL(s3.endpoint).origin};`);
      expect(csp).toContain("connect-src 'self';");
      await stop();
    } finally {
      await s3.close();
    }
  }, 90_000);
});

describe('interface A when its rate-limit store fails', () => {
  it('lets requests through instead of failing them', async () => {
    await start();
    const app2 = await buildServer(service, { limiter: new RedisRateLimiter('redis://127.0.0.1:1', { timeoutMs: 200 }) });
    try {
      await app2.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(app2.server.address() as { port: number }).port}/public/v2/tasks/999`;
      const r = await fetch(url, { headers: auth() });
      expect(r.status).toBe(404);
      expect(((await r.json()) as { error: string }).error).toBe('task_not_found');
      expect(service.ctx.metrics.get('imprint_rate_limiter_failures_total')).toBeGreaterThan(0);
    } finally {
      await app2.close();
      await stop();
    }
  }, 60_000);
});

describe.skipIf(!redis.available)('interface A on several API processes', () => {
  it('shares the requests-per-minute counter through Redis', async () => {
    const prefix = `imprint:test:${Date.now()}:`;
    await start();
    const second = await buildServer(service, { limiter: new RedisRateLimiter(REDIS_URL, { prefix }) });
    const first = await buildServer(service, { limiter: new RedisRateLimiter(REDIS_URL, { prefix }) });
    try {
      await first.listen({ port: 0, host: '127.0.0.1' });
      await second.listen({ port: 0, host: '127.0.0.1' });
      const urls = [first, second].map((a) => `http://127.0.0.1:${(a.server.address() as { port: number }).port}/public/v2/tasks/1`);
      await service.setPlan(accountId, { requests_per_minute: 3 });
      const statuses = [];
      for (const u of [urls[0], urls[1], urls[0], urls[1]]) statuses.push((await fetch(u!, { headers: auth() })).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await first.close();
      await second.close();
      await stop();
    }
  }, 60_000);
});
