// The task list, the task events stream and the account (additions of issue 17) on a real server,
// and interface B's Bearer key: list order, pages and bad parameters; a stream that starts with the
// current state, follows the worker to done and ends; keep-alive comments; the server closing with a
// stream open; the account's rates and renders left; the guard on every route.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, listen } from '../src/http/server.js';
import { AccountInfo, Task, TaskList } from '../src/http/schemas.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { TaskWorker } from '../src/worker/worker.js';
import { waitFor } from './support/wait.js';

let dir: string;
let service: Service;
let app: FastifyInstance;
let worker: TaskWorker | undefined;
let base: string;
let api: string;
let key: string;
let other: string;
let member: string;
let accountId: number;
let still: number;
let clip: number;

const still64 = {
  width: 64,
  height: 64,
  background: { type: 'color', color: '#204060' },
  objects: [{ type: 'shape', name: 'box', x: 8, y: 8, width: 48, height: 48, background: { type: 'color', color: '#f0c030' } }],
};
const clip64 = { ...still64, duration: 0.5 };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-tasks-'));
  const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_POLL_INTERVAL_S: '0' });
  service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
  app = await buildServer(service, { taskEvents: { pollMs: 50, keepAliveMs: 100 } });
  const root = await listen(app, service);
  base = `${root}/public/v2`;
  api = `${root}/api`;
  const created = await service.createAccount({ name: 'Acme', balance: 5 });
  key = created.apiKey;
  accountId = created.account.id;
  await service.setPlan(accountId, { requests_per_minute: 100_000, rate_sd_30: 0.5 });
  member = (await service.createKey(accountId, 'member')).apiKey;
  const second = await service.createAccount({ name: 'Other' });
  other = second.apiKey;
  await service.setPlan(second.account.id, { requests_per_minute: 100_000 });
  still = (await service.importDesign(accountId, still64)).id;
  clip = (await service.importDesign(accountId, clip64)).id;
  // No worker yet: tasks stay queued until a test starts one.
}, 60_000);

afterAll(async () => {
  await app.close();
  await worker?.stop(0);
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = (k = key) => ({ authorization: `Bearer ${k}` });
const get = (path: string, k = key) => fetch(base + path, { headers: auth(k) });
const errorOf = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: string; description: string }) });
async function renderA(format = 'png', design = still): Promise<number> {
  const res = await fetch(`${base}/render`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ design_id: design, format }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { task_id: number }).task_id;
}
async function renderB(body: unknown, headers: Record<string, string> = auth(), query = 'v=1.0'): Promise<Response> {
  return fetch(`${api}/videos/${clip}/render/?${query}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
function startWorker() {
  worker ??= new TaskWorker(service.ctx, { slots: 1 });
  worker.start();
}

/** The blocks of a text/event-stream answer as they arrive: `{event, data}` for an event, `{comment}` for a comment. */
function events(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<{ event?: string; data?: string; comment?: string } | undefined> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const out: { event?: string; data?: string; comment?: string } = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) out.comment = line.slice(1).trim();
            else if (line.startsWith('event: ')) out.event = line.slice(7);
            else if (line.startsWith('data: ')) out.data = line.slice(6);
          }
          return out;
        }
        const { done, value } = await reader.read();
        if (done) return buffer.trim() ? { comment: `incomplete: ${buffer}` } : undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** The next `event: task`, its data parsed (keep-alive comments skipped). */
    async task<T = Record<string, unknown>>(): Promise<T | undefined> {
      for (let e = await this.next(); e; e = await this.next()) if (e.event === 'task') return JSON.parse(e.data!) as T;
      return undefined;
    },
    cancel: () => reader.cancel(),
  };
}

describe('GET /public/v2/tasks', () => {
  let ids: number[];
  let videoTask: number;

  beforeAll(async () => {
    ids = [await renderA('png'), await renderA('jpg'), await renderA('pdf')];
    const res = await renderB({ parameters: { demo: true } });
    expect(res.status).toBe(202);
    videoTask = ((await res.json()) as { task_id: number }).task_id;
  });

  it('lists the tasks of both interfaces newest first, with their interface, format and times', async () => {
    const res = await get('/tasks');
    expect(res.status).toBe(200);
    const { tasks } = TaskList.parse(await res.json());
    expect(tasks.map((t) => t.id)).toEqual([videoTask, ...[...ids].reverse()]);
    expect(tasks[0]).toEqual({
      id: videoTask,
      interface: 'B',
      design_id: clip,
      design_version: 1,
      format: 'mp4',
      state: 'queued',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      started_at: null,
      finished_at: null,
    });
    expect(tasks.slice(1).map((t) => [t.interface, t.format, t.design_id])).toEqual([
      ['A', 'pdf', still],
      ['A', 'jpg', still],
      ['A', 'png', still],
    ]);
  });

  it('pages with limit and before', async () => {
    const page = async (q: string) => TaskList.parse(await (await get(`/tasks?${q}`)).json()).tasks.map((t) => t.id);
    const all = await page('limit=100');
    expect(all).toHaveLength(4);
    expect(await page('limit=2')).toEqual(all.slice(0, 2));
    expect(await page(`limit=2&before=${all[1]}`)).toEqual(all.slice(2, 4));
    expect(await page(`before=${all[3]}`)).toEqual([]);
    expect(await page(`before=${all[0]! + 1000}`)).toEqual(all);
  });

  it.each([
    ['limit=0', /^\$\.limit: /],
    ['limit=101', /^\$\.limit: /],
    ['limit=abc', /^\$\.limit: /],
    ['limit=2.5', /^\$\.limit: /],
    ['before=-3', /^\$\.before: /],
    ['before=x', /^\$\.before: /],
    ['limit=1&limit=2', /^\$\.limit: /],
    ['limt=5', /^\$\.limt: unknown field "limt" on the query: did you mean "limit"\?/],
  ])('refuses ?%s with 400 validation_error at its path', async (q, message) => {
    const e = await errorOf(await get(`/tasks?${q}`));
    expect(e).toMatchObject({ status: 400, error: 'validation_error' });
    expect(e.description).toMatch(message);
  });

  it("does not list another account's tasks", async () => {
    expect(TaskList.parse(await (await get('/tasks', other)).json()).tasks).toEqual([]);
  });
});

describe('GET /public/v2/tasks/<id>/events', () => {
  it('starts with the current state, then follows the worker: done, then the stream ends', async () => {
    const id = await renderA('png');
    const res = await get(`/tasks/${id}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    // One request against the plan's rate, like any other.
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
    const stream = events(res);
    const first = await stream.task();
    expect(Task.parse(first)).toEqual({ id, state: 'queued', design_id: still });
    // Nothing changes while no worker runs: the stream keeps the connection with comments.
    expect(await stream.next()).toEqual({ comment: 'keep-alive' });
    startWorker();
    const states: string[] = [];
    let last: Record<string, unknown> | undefined;
    for (let t = await stream.task(); t; t = await stream.task()) {
      states.push(t.state as string);
      last = t;
    }
    // Pending may pass between two reads of the store; done is always seen, and the stream ends after it.
    expect(states.at(-1)).toBe('done');
    expect(states.filter((s) => s !== 'pending')).toEqual(['done']);
    // The A2 body, as the status address would answer it.
    expect(last).toEqual((await (await get(`/tasks/${id}`)).json()) as Record<string, unknown>);
    expect(last).toMatchObject({ id, state: 'done', result_url: expect.stringMatching(/\.png$/) });
  }, 60_000);

  it('sends a finished task once and ends at once', async () => {
    const id = await renderA('jpg');
    await waitFor(`task ${id} to end`, async () => ((await service.getTask(accountId, id)).state === 'done' ? true : undefined));
    const stream = events(await get(`/tasks/${id}/events`));
    expect(await stream.task()).toMatchObject({ id, state: 'done' });
    expect(await stream.next()).toBeUndefined();
    // The finished stream counts in the request metrics by its route.
    const metrics = await (await fetch(base.replace('/public/v2', '/metrics'))).text();
    expect(metrics).toMatch(/imprint_http_requests_total\{route="\/public\/v2\/tasks\/:id\/events",status="200"\} [1-9]/);
  }, 60_000);

  it("sends interface B's task body (B2) for a video task", async () => {
    const res = await renderB({ parameters: { demo: true } });
    const { task_id } = (await res.json()) as { task_id: number };
    const stream = events(await get(`/tasks/${task_id}/events`));
    let last: Record<string, unknown> | undefined;
    for (let t = await stream.task(); t; t = await stream.task()) last = t;
    expect(last).toMatchObject({ id: task_id, video_id: clip, state: 'done', billed_price: 0, video_url: expect.stringMatching(/\.mp4$/) });
    expect(last).toEqual(await (await fetch(`${api}/queue/${task_id}/?v=1.0`, { headers: auth() })).json());
  }, 60_000);

  it("is 404 task_not_found for an unknown task, a non-number, and another account's task", async () => {
    const id = await renderA('png');
    for (const [path, k] of [
      ['/tasks/999999/events', key],
      ['/tasks/abc/events', key],
      [`/tasks/${id}/events`, other],
    ] as const) {
      expect(await errorOf(await get(path, k)), path).toMatchObject({ status: 404, error: 'task_not_found' });
    }
  });

  it('limits the streams an account has open at once (429), and frees a place when one ends', async () => {
    await worker?.stop(0);
    worker = undefined;
    const id = await renderA('png');
    const second = await buildServer(service, { taskEvents: { pollMs: 50, keepAliveMs: 60_000, maxStreamsPerAccount: 2 } });
    await second.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(second.server.address() as { port: number }).port}/public/v2/tasks/${id}/events`;
    try {
      const a = events(await fetch(url, { headers: auth() }));
      const b = events(await fetch(url, { headers: auth() }));
      expect(await a.task()).toMatchObject({ state: 'queued' });
      expect(await b.task()).toMatchObject({ state: 'queued' });
      const refused = await fetch(url, { headers: auth() });
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await errorOf(refused)).toMatchObject({ status: 429, error: 'rate_limited', description: expect.stringMatching(/2 task event streams open/) });
      // The count is the account's: another account asking for this task gets its 404, not a 429.
      expect((await fetch(url, { headers: auth(other) })).status).toBe(404);
      await a.cancel();
      const c = await waitFor('a place to free up', async () => {
        const res = await fetch(url, { headers: auth() });
        if (res.status === 200) return res;
        await res.body?.cancel();
        return undefined;
      });
      expect(await events(c).task()).toMatchObject({ state: 'queued' });
    } finally {
      await second.close();
    }
  }, 60_000);

  it('stops when the client goes away, and a server closing with a stream open ends it', async () => {
    await worker?.stop(0);
    worker = undefined;
    const id = await renderA('png');
    const gone = events(await get(`/tasks/${id}/events`));
    expect(await gone.task()).toMatchObject({ id, state: 'queued' });
    await gone.cancel();
    // A second server on the same service, one stream per account: a stream its client dropped gives
    // its place back (the next one is not refused), and closing the server does not wait for the
    // client of the stream still open.
    const second = await buildServer(service, { taskEvents: { pollMs: 50, keepAliveMs: 60_000, maxStreamsPerAccount: 1 } });
    await second.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(second.server.address() as { port: number }).port}/public/v2/tasks/${id}/events`;
    const dropped = events(await fetch(url, { headers: auth() }));
    expect(await dropped.task()).toMatchObject({ id, state: 'queued' });
    const refused = await fetch(url, { headers: auth() });
    expect(refused.status).toBe(429);
    await refused.body?.cancel();
    await dropped.cancel();
    const open = await waitFor('the dropped stream to give its place back', async () => {
      const r = await fetch(url, { headers: auth() });
      if (r.status === 200) return events(r);
      await r.body?.cancel();
      return undefined;
    });
    expect(await open.task()).toMatchObject({ id, state: 'queued' });
    await second.close();
    expect(await open.next()).toBeUndefined();
    startWorker();
  }, 60_000);
});

describe('GET /public/v2/account', () => {
  it("shows the plan, the balance, the rate and B's rates and renders left today", async () => {
    const res = await get('/account');
    expect(res.status).toBe(200);
    const body = AccountInfo.parse(await res.json());
    const demo = (await service.ctx.meta.listTasks(accountId)).filter((t) => t.api === 'b' && t.demo).length;
    expect(demo).toBeGreaterThan(0);
    expect(body).toEqual({
      account_id: accountId,
      name: 'Acme',
      plan: 'basic',
      balance: 5,
      requests_per_minute: 100_000,
      video: { rates: { 'sd/30': 0.5, 'sd/60': 0.015, 'hd/30': 0.02, 'hd/60': 0.03 }, demo_renders_left_today: 30 - demo, renders_left_today: 1000 },
    });
    // A paid render counts once requested; the balance shown is the account's.
    const paid = await renderB({ parameters: { fps: 30, size_type: 'sd' } });
    expect(paid.status).toBe(202);
    const after = AccountInfo.parse(await (await get('/account')).json());
    expect(after.video.renders_left_today).toBe(999);
    expect(AccountInfo.parse(await (await get('/account', other)).json())).toMatchObject({ name: 'Other', balance: 0 });
  });
});

describe('interface B with an Authorization: Bearer header (an addition)', () => {
  it('accepts the key as a Bearer header instead of api_key, for B1 and B2', async () => {
    const res = await renderB({ parameters: { demo: true } });
    expect(res.status).toBe(202);
    const { task_id } = (await res.json()) as { task_id: number };
    const status = await fetch(`${api}/queue/${task_id}/?v=1.0`, { headers: auth() });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ id: task_id, video_id: clip });
    // The same key both ways is fine.
    expect((await fetch(`${api}/queue/${task_id}/?v=1.0&api_key=${key}`, { headers: auth() })).status).toBe(200);
  });

  it('is 403 auth_required with a wrong Bearer key, 400 incorrect_data without v; with an api_key, the query decides', async () => {
    expect(await errorOf(await renderB({}, auth('imp_wrong')))).toMatchObject({ status: 403, error: 'auth_required' });
    expect(await errorOf(await fetch(`${api}/queue/1/?v=1.0`, { headers: auth('imp_wrong') }))).toMatchObject({ status: 403, error: 'auth_required' });
    // A client of the spec behind a gateway that adds its own Authorization header: its api_key counts.
    const viaQuery = await renderB({ parameters: { demo: true } }, { authorization: 'Bearer gateway-token' }, `v=1.0&api_key=${key}`);
    expect(viaQuery.status).toBe(202);
    // And a wrong api_key is refused even beside a good header.
    expect(await errorOf(await renderB({}, auth(), 'v=1.0&api_key=imp_wrong'))).toMatchObject({ status: 403, error: 'auth_required' });
    expect(await errorOf(await renderB({}, auth(), ''))).toMatchObject({ status: 400, error: 'incorrect_data' });
    expect(await errorOf(await renderB({}, {}))).toMatchObject({ status: 403, error: 'auth_required', description: expect.stringMatching(/Bearer/) });
  });
});

describe('the guard on every task and account route', () => {
  it.each(['/tasks', '/tasks/1/events', '/account'])('GET %s: 401 without a key or with an unknown one, 403 with a member key', async (path) => {
    expect(await errorOf(await fetch(base + path))).toMatchObject({ status: 401, error: 'unauthorized' });
    expect(await errorOf(await get(path, 'imp_not_a_key'))).toMatchObject({ status: 401, error: 'unauthorized' });
    expect(await errorOf(await get(path, member))).toMatchObject({ status: 403, error: 'forbidden' });
  });
});
