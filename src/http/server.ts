// The HTTP server: interface A under /public/v2 (with the additions: designs, tasks, account), interface B
// under /api, the Studio's page at /studio, plus /healthz and /metrics, with one error shape for everything. Thin: every
// decision about accounts, tasks and files is the service core's.
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ImprintError } from '../errors.js';
import { ConfigError } from '../service/config.js';
import type { Service } from '../service/service.js';
import { MAX_UPLOAD_BYTES } from '../service/uploads.js';
import { closeUnreadBody } from './body-limits.js';
import { asInterfaceB, errorReply, fromFrameworkError, fromImprintError, HttpFailure, isInterfaceB } from './errors.js';
import type { ZipLimits } from '../service/design-zip.js';
import { accountRoutes } from './account.js';
import { accountGuard } from './auth.js';
import { designRoutes } from './designs.js';
import { interfaceA } from './interface-a.js';
import { bodyParserErrors, jsonBodyParser } from './json-body.js';
import { interfaceB } from './interface-b.js';
import { openApiDocument } from './openapi.js';
import { previewRoutes } from './preview.js';
import { openRateLimiter } from '../store/limits/open.js';
import type { RateLimiter } from '../store/limits/rate-limiter.js';
import { studio } from './studio.js';
import { taskRoutes, type TaskEventsOptions } from './tasks.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface HttpServerOptions {
  /** Default: shared through Redis when the queue is BullMQ, in memory otherwise. */
  limiter?: RateLimiter;
  /** The task events stream's store polling and keep-alive (tests shorten them). */
  taskEvents?: TaskEventsOptions;
  /** Limits of a design zip's contents; default the service's (1000 entries, MAX_DESIGN_ASSET_BYTES unpacked). */
  designZipLimits?: ZipLimits;
  /** The built Studio's folder; default dist/studio/ of this package. */
  studioDir?: string;
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a malformed Content-Length, both
 * Content-Length and Transfer-Encoding, headers over 16 KB): the same error shape as everything else.
 */
function clientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, out] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          errorReply('payload_too_large', 'the request line and headers are larger than the limit (16 KB): send a shorter URL and fewer or smaller headers'),
        ]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, errorReply('validation_error', '$: the request did not arrive in time: send it again')]
        : [400, errorReply('validation_error', '$: the request is not valid HTTP/1.1 (request line, a header or the Content-Length): check the client')];
  const body = JSON.stringify(out.body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

export async function buildServer(service: Service, opts: HttpServerOptions = {}): Promise<FastifyInstance> {
  const { ctx } = service;
  const limiter = opts.limiter ?? openRateLimiter(ctx.config.queueUrl, { clock: ctx.clock });
  const app = Fastify({
    bodyLimit: ctx.config.bodyLimitBytes,
    logger: false,
    return503OnClosing: true,
    // Node's own default, which Fastify turns off: a request (head and body) that has not all arrived
    // after 5 minutes is answered 408 and closed, so a body that trickles in cannot hold a connection forever.
    requestTimeout: 300_000,
    trustProxy: false,
    clientErrorHandler: clientError,
    // A URL that is not valid percent-encoding, or a path segment over 100 characters, before routing.
    frameworkErrors: (err, req, reply) => {
      let out = fromFrameworkError(err) ?? errorReply('validation_error', '$: the request URL cannot be read');
      if (isInterfaceB(req.url)) out = asInterfaceB(out);
      void (reply as unknown as FastifyReply).status(out.status).send(out.body);
    },
  });

  // First, so it sees every answer: one sent before its request's body has all arrived stops reading
  // that body and closes the connection (413s, but also a 401 to a 100 MB body).
  app.addHook('onSend', closeUnreadBody);
  // JSON bodies: a syntax error and a "__proto__" key are told apart (Fastify's parser says one thing for both).
  jsonBodyParser(app);
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 1024, headerPairs: 100 } });

  // The one error handler of both interfaces: interface A's catalogue shape, turned into interface B's
  // codes for requests under /api. Answers an adapter decided itself (HttpFailure) are sent as they are.
  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, req, reply) => {
    const b = isInterfaceB(req.url);
    let out;
    /** Refused before the route's handler ran (Fastify's own errors, the JSON body parser's). */
    let framework: boolean;
    if (err instanceof HttpFailure) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return reply.status(err.reply.status).send(err.reply.body);
    }
    if (err instanceof ImprintError) {
      out = fromImprintError(err);
      // A JSON body refused by the parser (src/http/json-body.ts) came before any handler, as Fastify's own errors do.
      framework = bodyParserErrors.has(err);
      // A service error interface B's spec has no code for is an internal error there.
      if (b) out = asInterfaceB(out, ['internal_error', 500]);
    } else {
      out = fromFrameworkError(err);
      framework = out !== undefined;
      if (out && b) out = asInterfaceB(out);
    }
    if (!out) {
      ctx.log.error({ err, method: req.method, url: req.url.split('?')[0]!.slice(0, 200) }, 'request failed');
      out = errorReply('internal_error', 'the request failed inside the service: retry; if it keeps failing, contact support');
    }
    // The upload's body refused before its handler (not multipart, not JSON, too large) gets the spec's upload shape.
    if (framework && req.routeOptions.url === '/public/v2/upload') {
      const reason = out.status === 415 ? 'send the image as multipart/form-data with a file field named "file"' : out.body.description;
      return reply.status(out.status).send({ result: 'error', reason });
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

  // close() shuts the keep-alive connections that are idle at that moment; one whose answer was still
  // being written (a download) turns idle later, and Node keeps it open for the client until
  // keepAliveTimeout (72 s), so close() waited that long. Once closing, every answer that ends
  // closes the connections that became idle. Watched on the Node server, so it holds for every
  // answer alike, whatever plugin sent it.
  // A connection that has sent no request yet (a client's spare one, seen with fetch) is not idle to
  // Node either and would hold close() until the headers timeout: those are closed when closing
  // begins (one whose first request is still arriving is refused with it, as after close()).
  let closing = false;
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of unused) socket.destroy();
  });
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    unused.delete(req.socket);
    res.once('finish', () => {
      // 'finish' fires before Node marks the socket idle: look once the current callbacks are done.
      if (closing) setImmediate(() => app.server.closeIdleConnections());
    });
  });

  // Interface A and the preview share one guard; the other families build theirs on the same limiter
  // (a guard keeps no state of its own), so every /public/v2 request counts against the same limits.
  const access = accountGuard(service, limiter);
  await app.register(interfaceA, { prefix: '/public/v2', service, limiter, access });
  await app.register(previewRoutes, { prefix: '/public/v2', service, guard: access.guard });
  // Additions to the spec for the account's own tools (the Studio): designs, tasks, the account.
  await app.register(designRoutes, { prefix: '/public/v2', service, limiter, ...(opts.designZipLimits ? { zipLimits: opts.designZipLimits } : {}) });
  await app.register(taskRoutes, { prefix: '/public/v2', service, limiter, ...(opts.taskEvents ? { events: opts.taskEvents } : {}) });
  await app.register(accountRoutes, { prefix: '/public/v2', service, limiter });
  await app.register(interfaceB, { prefix: '/api', service });
  app.get('/public/v2/openapi.json', async () => openApiDocument(ctx.config.baseUrl, VERSION));
  // With results in S3 a result address redirects into the bucket: the Studio's CSP lets its pictures
  // (the task list's thumbnails) come from there.
  const resultOrigin = await resultImageOrigin(ctx);
  await app.register(studio, { ...(opts.studioDir ? { dir: opts.studioDir } : {}), ...(resultOrigin ? { imageOrigins: [resultOrigin] } : {}) });

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

/** How long the start waits for the blob store to sign an address (credentials from a metadata service). */
const PRESIGN_PROBE_MS = 3000;

/**
 * The origin presigned result addresses point into (S3), found by signing one: the signature itself is
 * local, but the credentials may come from the AWS provider chain (an instance's metadata service).
 * A store that cannot sign now, or not within PRESIGN_PROBE_MS, does not stop the service: the Studio
 * then shows no thumbnails of results (logged), and everything else works.
 */
export async function resultImageOrigin(ctx: Pick<Service['ctx'], 'blobs' | 'log'>): Promise<string | undefined> {
  const presign = ctx.blobs.presign?.bind(ctx.blobs);
  if (!presign) return undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await Promise.race([
      presign('studio/csp-origin', 60),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PRESIGN_PROBE_MS} ms`)), PRESIGN_PROBE_MS);
        timer.unref();
      }),
    ]);
    return new URL(url).origin;
  } catch (e) {
    ctx.log.warn({ err: e }, 'the blob store could not sign an address: the Studio will not show thumbnails of results stored there');
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts listening on IMPRINT_HOST:IMPRINT_PORT and, when no IMPRINT_BASE_URL was given, uses the port
 * it got as the public address. A port that is taken (another server, an earlier
 * `npm start` still running) or not allowed, or a host this machine does not have, is a ConfigError
 * that names the variable to change, not a bare EADDRINUSE.
 */
export async function listen(app: FastifyInstance, service: Service): Promise<string> {
  const { config } = service.ctx;
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const where = `${config.host}:${config.port}`;
    if (code === 'EADDRINUSE')
      throw new ConfigError(
        `port ${config.port} is already in use on ${config.host} (another imprint serve, or another program): stop that, or set IMPRINT_PORT to a free port (IMPRINT_PORT=3001 npm start)`,
      );
    if (code === 'EACCES') throw new ConfigError(`this user may not listen on ${where} (ports below 1024 need privileges): set IMPRINT_PORT to 1024 or more`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new ConfigError(
        `cannot listen on ${where}: this machine has no address ${config.host}: set IMPRINT_HOST to one of its addresses, or 0.0.0.0 for all`,
      );
    throw e;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  if (!config.baseUrlSet) config.baseUrl = `http://localhost:${port}`;
  return config.baseUrl;
}
