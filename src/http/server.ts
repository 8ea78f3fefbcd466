// The HTTP server: interface A under /public/v2 plus /healthz and /metrics, with one error shape for
// everything. Thin: every decision about accounts, tasks and files is the service core's.
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { ImprintError } from '../errors.js';
import type { Service } from '../service/service.js';
import { MAX_UPLOAD_BYTES } from '../service/uploads.js';
import { errorReply, fromFrameworkError, fromImprintError, HttpFailure } from './errors.js';
import { interfaceA } from './interface-a.js';
import { openApiDocument } from './openapi.js';
import { openRateLimiter, type RateLimiter } from './rate-limit.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface HttpServerOptions {
  /** Default: shared through Redis when the queue is BullMQ, in memory otherwise. */
  limiter?: RateLimiter;
}

export async function buildServer(service: Service, opts: HttpServerOptions = {}): Promise<FastifyInstance> {
  const { ctx } = service;
  const limiter = opts.limiter ?? openRateLimiter(ctx.config.queueUrl, { clock: ctx.clock });
  const app = Fastify({ bodyLimit: ctx.config.bodyLimitBytes, logger: false, return503OnClosing: true, trustProxy: false });

  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 1024, headerPairs: 100 } });

  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, req, reply) => {
    let out;
    if (err instanceof HttpFailure) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      out = err.reply;
    } else if (err instanceof ImprintError) out = fromImprintError(err);
    else out = fromFrameworkError(err);
    if (!out) {
      ctx.log.error({ err, method: req.method, url: req.url.slice(0, 200) }, 'request failed');
      out = errorReply('internal_error', 'the request failed inside the service: retry; if it keeps failing, contact support');
    }
    return reply.status(out.status).send(out.body);
  });
  app.setNotFoundHandler(async (req, reply) => {
    const out = errorReply('not_found', `no route ${req.method} ${req.url.split('?')[0]!.slice(0, 100)}: see ${ctx.config.baseUrl}/public/v2/openapi.json`);
    return reply.status(out.status).send(out.body);
  });
  app.addHook('onResponse', async (req, reply) => {
    ctx.metrics.inc('imprint_http_requests_total', { route: req.routeOptions.url ?? 'unknown', status: String(reply.statusCode) });
  });

  await app.register(interfaceA, { prefix: '/public/v2', service, limiter });
  app.get('/public/v2/openapi.json', async () => openApiDocument(ctx.config.baseUrl, VERSION));

  app.get('/healthz', async (_req, reply) => {
    try {
      const states = await ctx.meta.countTasksByState();
      return { status: 'ok', version: VERSION, queue: ctx.queue.kind, queued: states.queued, pending: states.pending };
    } catch (e) {
      ctx.log.error({ err: e }, 'health check failed');
      return reply.status(503).send({ status: 'unavailable', description: 'the metadata store does not answer' });
    }
  });
  app.get('/metrics', async (_req, reply) => reply.header('content-type', 'text/plain; version=0.0.4').send(await service.metricsText()));

  app.addHook('onClose', async () => limiter.close());
  return app;
}

/** Listens, and when no IMPRINT_BASE_URL was given, uses the port it got as the public address. */
export async function listen(app: FastifyInstance, service: Service): Promise<string> {
  const { config } = service.ctx;
  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  if (!config.baseUrlSet) config.baseUrl = `http://localhost:${port}`;
  return config.baseUrl;
}
