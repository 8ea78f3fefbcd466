// Interface B (/api): video render by id and task state, with api_key and v=1.0 in the query, as a
// thin Fastify adapter over the service core. Its errors use the spec's codes and statuses:
// incorrect_data 400, insufficient_funds 402, auth_required 403, not_found 404, daily_limit_exceeded 429.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { issueToError } from '../design/zod-error.js';
import { ImprintError, type ErrorCode } from '../errors.js';
import type { Service } from '../service/service.js';
import { createVideoTask, taskBodyB } from '../service/videos.js';
import type { Account } from '../store/metadata/records.js';
import { fromFrameworkError, jsonDepth } from './errors.js';

export const VideoRenderRequest = z.strictObject({
  parameters: z
    .strictObject({
      fps: z.union([z.literal(30), z.literal(60)], { error: 'expected fps 30 or 60' }).optional(),
      size_type: z.enum(['sd', 'hd']).optional(),
      demo: z.boolean().optional(),
    })
    .optional(),
  overrides: z.array(z.unknown()).max(500).optional(),
});

/** Interface B's error codes, from the service's. */
const B_CODES: Partial<Record<ErrorCode, [string, number]>> = {
  validation_error: ['incorrect_data', 400],
  design_not_found: ['incorrect_data', 400],
  unauthorized: ['auth_required', 403],
  forbidden: ['auth_required', 403],
  task_not_found: ['not_found', 404],
  not_found: ['not_found', 404],
  insufficient_funds: ['insufficient_funds', 402],
  daily_limit_exceeded: ['daily_limit_exceeded', 429],
  queue_full: ['queue_full', 429],
  payload_too_large: ['incorrect_data', 413],
  unsupported_media_type: ['incorrect_data', 415],
};

/** An error reply of interface A's catalogue as interface B answers it. */
export function asInterfaceB(code: string, status: number, description: string): { status: number; body: { error: string; description: string } } {
  const b = B_CODES[code as ErrorCode];
  return { status: b ? b[1] : status, body: { error: b ? b[0] : code, description } };
}

class BFailure extends Error {
  constructor(readonly code: string, readonly status: number, description: string) {
    super(description);
  }
}

const MAX_JSON_DEPTH = 32;

export async function interfaceB(app: FastifyInstance, { service }: { service: Service }): Promise<void> {
  const { ctx } = service;
  const dashboard = () => ctx.config.dashboardUrl ?? ctx.config.baseUrl;

  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, req, reply) => {
    let code: string;
    let status: number;
    let description: string;
    if (err instanceof BFailure) [code, status, description] = [err.code, err.status, err.message];
    else if (err instanceof ImprintError) {
      [code, status] = B_CODES[err.code] ?? ['internal_error', 500];
      description = err.code === 'validation_error' ? `${err.path}: ${err.message}` : err.message;
    } else {
      const f = fromFrameworkError(err);
      if (!f) {
        ctx.log.error({ err, method: req.method, url: req.url.split('?')[0]!.slice(0, 200) }, 'request failed');
        return reply.status(500).send({ error: 'internal_error', description: 'the request failed inside the service: retry; if it keeps failing, contact support' });
      }
      [code, status] = B_CODES[f.body.error as ErrorCode] ?? ['incorrect_data', f.status];
      description = f.body.description;
    }
    return reply.status(status).send({ error: code, description });
  });

  /** api_key and v=1.0, each given once; a wrong or missing key is auth_required (403). */
  async function caller(req: FastifyRequest): Promise<Account> {
    if (req.account) return req.account;
    const q = req.query as Record<string, string | string[] | undefined>;
    const key = q.api_key;
    if (Array.isArray(key)) throw new BFailure('incorrect_data', 400, 'give api_key once');
    if (!key) throw new BFailure('auth_required', 403, 'add your API key to the query: ?api_key=<API key>&v=1.0');
    const auth = await service.authenticate(key);
    if (!auth) throw new BFailure('auth_required', 403, 'the API key is not known: check it, or ask the account holder for a new one');
    const v = q.v;
    if (Array.isArray(v)) throw new BFailure('incorrect_data', 400, 'give v once: v=1.0');
    if (v !== '1.0') throw new BFailure('incorrect_data', 400, v === undefined ? 'add the interface version to the query: v=1.0' : `unknown interface version v=${String(v).slice(0, 20)}: use v=1.0`);
    req.account = auth.account;
    return auth.account;
  }
  // Who is calling is settled before the body is read: a request without a valid key gets its 403
  // without the server reading (up to the limit of) its body.
  const authenticate = async (req: FastifyRequest) => {
    await caller(req);
  };

  const render = async (req: FastifyRequest<{ Params: { id: string } }>, reply: import('fastify').FastifyReply) => {
    const account = await caller(req);
    if (!/^\d{1,15}$/.test(req.params.id)) throw new BFailure('incorrect_data', 400, `"${req.params.id.slice(0, 40)}" is not a video id: use the integer id of a video design`);
    const body = req.body ?? {};
    if (jsonDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new BFailure('incorrect_data', 400, `$: the body nests deeper than ${MAX_JSON_DEPTH} levels`);
    const parsed = VideoRenderRequest.safeParse(body);
    if (!parsed.success) throw issueToError(parsed.error.issues[0]!, body, { root: '$' });
    const p = parsed.data.parameters ?? {};
    const task = await createVideoTask(ctx, account, {
      videoId: Number(req.params.id),
      ...(p.fps ? { fps: p.fps } : {}),
      ...(p.size_type ? { sizeType: p.size_type } : {}),
      ...(p.demo !== undefined ? { demo: p.demo } : {}),
      overrides: parsed.data.overrides ?? [],
    });
    return reply.status(202).send({ result: 'true', task_url: `${dashboard()}/api/queue/${task.id}/`, task_id: task.id });
  };
  app.post<{ Params: { id: string } }>('/videos/:id/render/', { onRequest: authenticate }, render);
  app.post<{ Params: { id: string } }>('/videos/:id/render', { onRequest: authenticate }, render);

  const status = async (req: FastifyRequest<{ Params: { id: string } }>) => {
    const account = await caller(req);
    if (!/^\d{1,15}$/.test(req.params.id)) throw new BFailure('not_found', 404, `no task "${req.params.id.slice(0, 40)}": task ids are integers`);
    const task = await ctx.meta.getTask(Number(req.params.id), account.id);
    if (!task || task.api !== 'b') throw new BFailure('not_found', 404, `no video task ${req.params.id} in this account: use the task_id the render request returned`);
    return taskBodyB(ctx, task);
  };
  app.get<{ Params: { id: string } }>('/queue/:id/', { onRequest: authenticate }, status);
  app.get<{ Params: { id: string } }>('/queue/:id', { onRequest: authenticate }, status);

  app.setNotFoundHandler(async (req, reply) => reply.status(404).send({ error: 'not_found', description: `no route ${req.method} ${req.url.split('?')[0]!.slice(0, 100)}` }));
}
