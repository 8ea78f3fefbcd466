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
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('close() ends a keep-alive connection whose answer was in flight when it began, once that answer is sent', async () => {
  const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' });
  const service = await Service.open(config, { log: pino({ level: 'silent' }) });
  const app = await buildServer(service);
  // A download whose headers and first bytes are out before close() and whose end the test releases.
  const body = new PassThrough();
  app.get('/slow', async (_req, reply) => reply.header('content-type', 'text/plain').send(body));
  const base = await listen(app, service);
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  try {
    let headersArrived!: () => void;
    const headersOut = new Promise<void>((r) => (headersArrived = r));
    const answer = new Promise<{ status: number; body: string; socketClosed: Promise<void> }>((resolve, reject) => {
      http
        .get(`${base}/slow`, { agent }, (res) => {
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
