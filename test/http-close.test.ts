// Shutting the HTTP server down while an answer is still being written (a download, a preview): the
// keep-alive connection it leaves behind must not hold close() until Node's keep-alive timeout (72 s);
// an operator's SIGTERM, and every test's app.close(), would wait that long.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import { buildServer, listen } from '../src/http/server.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';

const dir = mkdtempSync(join(tmpdir(), 'imprint-close-'));
const firstDir = join(dir, 'first');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('close() ends a keep-alive connection whose answer was in flight when it began, once that answer is sent', async () => {
  const config = configFromEnv({ IMPRINT_DATA_DIR: firstDir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' });
  const service = await Service.open(config, { log: pino({ level: 'silent' }) });
  const app = await buildServer(service);
  // A download whose headers and first bytes are out before close() and whose end the test releases.
  const body = new PassThrough();
  // In a plugin under /public/v2, like the results download: plugins take their hooks when they load.
  await app.register(
    async (scope) => {
      scope.get('/slow', async (_req, reply) => reply.header('content-type', 'text/plain').send(body));
    },
    { prefix: '/public/v2' },
  );
  const base = await listen(app, service);
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  try {
    let headersArrived!: () => void;
    const headersOut = new Promise<void>((r) => (headersArrived = r));
    const answer = new Promise<{ status: number; body: string; socketClosed: Promise<void> }>((resolve, reject) => {
      http
        .get(`${base}/public/v2/slow`, { agent }, (res) => {
          // Captured now: at 'end' the socket goes back to the agent's pool.
          const socket = res.socket;
          const socketClosed = new Promise<void>((r) => socket.once('close', () => r()));
          headersArrived();
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body, socketClosed }));
        })
        .on('error', reject);
    });
    body.write('first half, ');
    await headersOut;
    const closed = app.close();
    body.end('second half');
    const got = await answer;
    // The answer in flight is delivered whole, then the server closes the connection it came on.
    expect(got.status).toBe(200);
    expect(got.body).toBe('first half, second half');
    await got.socketClosed;
    await closed;
  } finally {
    agent.destroy();
    await service.close();
  }
}, 20_000);

it('close() ends a task events stream and then its connection, though the stream began before close()', async () => {
  const config = configFromEnv({ IMPRINT_DATA_DIR: mkdtempSync(join(dir, 'events-')), IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' });
  const service = await Service.open(config, { log: pino({ level: 'silent' }) });
  // A real route of interface A's additions (in its own plugin, loaded with the server), whose answer
  // is in flight when close() begins: the stream of a task that stays queued (no worker runs).
  const app = await buildServer(service);
  const base = await listen(app, service);
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  try {
    const { account, apiKey } = await service.createAccount({ name: 'Acme' });
    const design = await service.importDesign(account.id, {
      width: 16,
      height: 16,
      background: { type: 'color', color: '#204060' },
      objects: [{ type: 'shape', name: 'box', x: 2, y: 2, width: 12, height: 12, background: { type: 'color', color: '#f0c030' } }],
    });
    const { task } = await service.createRender(account, { design_id: design.id, format: 'png' });
    const firstEvent = new Promise<{ socketClosed: Promise<void>; ended: Promise<void> }>((resolve, reject) => {
      http
        .get(`${base}/public/v2/tasks/${task.id}/events`, { agent, headers: { authorization: `Bearer ${apiKey}` } }, (res) => {
          const socket = res.socket;
          const socketClosed = new Promise<void>((r) => socket.once('close', () => r()));
          const ended = new Promise<void>((r) => res.once('end', () => r()));
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            if (c.includes('event: task')) resolve({ socketClosed, ended });
          });
        })
        .on('error', reject);
    });
    const { socketClosed, ended } = await firstEvent;
    await Promise.all([app.close(), ended, socketClosed]);
  } finally {
    agent.destroy();
    await service.close();
  }
}, 20_000);
