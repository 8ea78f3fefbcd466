// The webhook outbox in one process: the completion hook sends a finished task's delivery at once and
// records its outcome; the sweep sends what was left pending and abandons claims whose sender died,
// never sending one twice; `imprint admin list-webhooks` shows the outcomes to the account holder.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/service/config.js';
import { webhookHook } from '../src/service/notify.js';
import { Service } from '../src/service/service.js';
import { ABANDON_MARGIN_MS, ABANDONED_REASON, deliveryJson, listWebhookDeliveries, WebhookDispatcher } from '../src/service/webhook-outbox.js';
import { verifyWebhookSignature } from '../src/service/webhooks.js';
import type { TaskRecord } from '../src/store/metadata/records.js';
import { TaskWorker } from '../src/worker/worker.js';
import { waitUntil } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');

const design = {
  schema: 'imprint/design@1',
  width: 64,
  height: 64,
  background: { type: 'color', color: '#204060' },
  objects: [{ type: 'shape', name: 'box', x: 8, y: 8, width: 48, height: 48, background: { type: 'color', color: '#f0c030' } }],
};

let dir: string;
let service: Service;
let server: http.Server;
let base: string;
const received: { path: string; body: string; signature: string | string[] | undefined }[] = [];
const arrivals: (() => void)[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-outbox-'));
  received.length = 0;
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body, signature: req.headers['x-imprint-signature'] });
      for (const a of arrivals.splice(0)) a();
      res.writeHead(req.url === '/fail' ? 500 : 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_WEBHOOK_ALLOW_PRIVATE: '1', IMPRINT_WEBHOOK_TIMEOUT_S: '2' });
  service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
});

afterEach(async () => {
  await service.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/** An account with a design and `n` tasks with webhooks to `paths` (one per task). */
async function tasksWithHooks(paths: string[]) {
  const { account, webhookSecret } = await service.createAccount({ name: `acct-${Math.random()}` });
  const d = await service.importDesign(account.id, design);
  const tasks: TaskRecord[] = [];
  for (const p of paths) tasks.push(await service.createTask(account.id, { designId: d.id, format: 'png', webhookUrl: `${base}${p}` }));
  return { account, secret: webhookSecret, tasks };
}

describe('webhook outbox', () => {
  it('the hook sends each finished task’s webhook once and records the outcome', { timeout: 60_000 }, async () => {
    const { account, secret, tasks } = await tasksWithHooks(['/ok', '/fail']);
    const dispatcher = new WebhookDispatcher(service.ctx);
    const worker = new TaskWorker(service.ctx, { slots: 1, onComplete: webhookHook(service.ctx, dispatcher) });
    worker.start();
    try {
      const list = () => listWebhookDeliveries(service.ctx, account.id);
      await waitUntil('both outcomes', async () => (await list()).every((d) => d.state === 'sent' || d.state === 'failed') && (await list()).length === 2);
    } finally {
      await worker.stop(0);
      await dispatcher.stop();
    }
    expect(received.map((r) => r.path).sort()).toEqual(['/fail', '/ok']);
    for (const r of received) expect(verifyWebhookSignature(secret, r.signature, r.body)).toBe(true);
    const [ok, fail] = tasks as [TaskRecord, TaskRecord];
    const byTask = new Map((await listWebhookDeliveries(service.ctx, account.id)).map((d) => [d.taskId, deliveryJson(d)]));
    expect(byTask.get(ok.id)).toMatchObject({ task_id: ok.id, url: `${base}/ok`, state: 'sent', http_status: 200, error: null });
    expect(byTask.get(fail.id)).toMatchObject({ task_id: fail.id, state: 'failed', http_status: 500, error: 'receiver answered 500' });
    for (const d of byTask.values()) {
      expect(Date.parse(d.attempted_at!)).toBeLessThanOrEqual(Date.parse(d.finished_at!));
      expect(d.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(service.ctx.metrics.get('imprint_webhooks_total', { result: 'delivered' })).toBe(1);
    expect(service.ctx.metrics.get('imprint_webhooks_total', { result: 'failed' })).toBe(1);
    // One task's delivery, for the Studio's task detail; another account cannot see it.
    expect((await listWebhookDeliveries(service.ctx, account.id, { taskId: ok.id })).map((d) => d.taskId)).toEqual([ok.id]);
    const other = (await service.createAccount({ name: 'other' })).account;
    await expect(listWebhookDeliveries(service.ctx, other.id, { taskId: ok.id })).rejects.toMatchObject({ code: 'task_not_found' });
  });

  it('the sweep sends what no process sent, and abandons a claim whose sender died without sending it again', { timeout: 60_000 }, async () => {
    const { account, tasks } = await tasksWithHooks(['/left', '/claimed']);
    // A worker without the hook (IMPRINT_WEBHOOK_DISPATCH=0): both deliveries stay pending.
    const worker = new TaskWorker(service.ctx, { slots: 1 });
    worker.start();
    await waitUntil('both tasks to end', async () => (await service.ctx.meta.listTasks(account.id)).every((t) => t.state === 'done'));
    await worker.stop(0);
    const [left, claimed] = tasks as [TaskRecord, TaskRecord];
    // A sender that claims the second delivery, then dies before recording anything.
    const now = Date.now();
    expect(await service.ctx.meta.claimWebhooks('dead-sender', now, now + 100, { taskId: claimed.id })).toHaveLength(1);

    const arrived = new Promise<void>((r) => arrivals.push(r));
    const dispatcher = new WebhookDispatcher(service.ctx, { sweepMs: 50 });
    dispatcher.start();
    try {
      await arrived;
      const state = async (id: number) => (await listWebhookDeliveries(service.ctx, account.id, { taskId: id }))[0]?.state;
      await waitUntil('the left delivery to be sent', async () => (await state(left.id)) === 'sent');
      await waitUntil('the dead claim to be abandoned', async () => (await state(claimed.id)) === 'abandoned', ABANDON_MARGIN_MS + 10_000);
    } finally {
      await dispatcher.stop();
    }
    expect(received.map((r) => r.path)).toEqual(['/left']);
    const [d] = await listWebhookDeliveries(service.ctx, account.id, { taskId: claimed.id });
    expect(deliveryJson(d!)).toMatchObject({ state: 'abandoned', error: ABANDONED_REASON, http_status: null });
    expect(service.ctx.metrics.get('imprint_webhooks_total', { result: 'abandoned' })).toBe(1);
  });

  it('`imprint admin list-webhooks` prints the deliveries of an account or of one task', { timeout: 60_000 }, async () => {
    const { account, tasks } = await tasksWithHooks(['/ok']);
    const dispatcher = new WebhookDispatcher(service.ctx);
    const worker = new TaskWorker(service.ctx, { slots: 1, onComplete: webhookHook(service.ctx, dispatcher) });
    worker.start();
    await waitUntil('the delivery', async () => (await listWebhookDeliveries(service.ctx, account.id))[0]?.state === 'sent');
    await worker.stop(0);
    await dispatcher.stop();
    const env = { ...process.env, IMPRINT_DATA_DIR: dir };
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, [builtBin(), 'admin', 'list-webhooks', ...args], { cwd: ROOT, env }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    const task = tasks[0]!;
    const all = await run(['--account', String(account.id)]);
    expect(all.code, all.stderr).toBe(0);
    const printed = JSON.parse(all.stdout) as { account_id: number; webhooks: Record<string, unknown>[] };
    expect(printed.account_id).toBe(account.id);
    expect(printed.webhooks).toEqual([expect.objectContaining({ task_id: task.id, url: `${base}/ok`, state: 'sent', http_status: 200, error: null })]);
    expect(JSON.parse((await run(['--account', String(account.id), '--task', String(task.id)])).stdout).webhooks).toHaveLength(1);
    const missing = await run(['--account', String(account.id), '--task', '999']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^task_not_found at \$\.task_id/);
  });
});
