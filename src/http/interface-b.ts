// Interface B (/api): video render by id and task state, with api_key (or a Bearer header) and v=1.0 in the query, as a
// thin Fastify adapter over the service core. Its errors use the spec's codes and statuses:
// incorrect_data 400, insufficient_funds 402, auth_required 403, not_found 404, daily_limit_exceeded 429
// (server.ts's one error handler turns the service's errors into them for everything under /api).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { issueToError } from '../format/zod-error.js';
import { VIDEO_SIZES } from '../output-formats.js';
import { FpsSchema } from '../render/options.js';
import type { VideoRenderAccepted } from '../service/answers.js';
import type { Service } from '../service/service.js';
import { taskBodyB } from '../service/videos.js';
import type { Account } from '../store/metadata/records.js';
import { bearer } from './auth.js';
import { bFailure, jsonDepth } from './errors.js';

export const VideoRenderRequest = z.strictObject({
  parameters: z
    .strictObject({
      fps: FpsSchema.optional(),
      size_type: z.enum(VIDEO_SIZES).optional(),
      demo: z.boolean().optional(),
    })
    .optional(),
  overrides: z.array(z.unknown()).max(500).optional(),
});

const MAX_JSON_DEPTH = 32;

export async function interfaceB(app: FastifyInstance, { service }: { service: Service }): Promise<void> {
  const { ctx } = service;
  const dashboard = () => ctx.config.dashboardUrl ?? ctx.config.baseUrl;

  /**
   * api_key (or, an addition to the spec, when there is no api_key, `Authorization: Bearer <key>`,
   * which keeps the key out of URLs and logs) and v=1.0, each given once; a wrong or missing key is
   * auth_required (403).
   */
  async function caller(req: FastifyRequest): Promise<Account> {
    if (req.account) return req.account;
    const q = req.query as Record<string, string | string[] | undefined>;
    const queryKey = q.api_key;
    if (Array.isArray(queryKey)) throw bFailure('incorrect_data', 400, 'give api_key once');
    // The spec's api_key decides whenever it is given, so a client that has always sent it keeps
    // working whatever Authorization header a proxy or gateway adds; the header counts only without it.
    const key = queryKey ?? bearer(req);
    if (!key) throw bFailure('auth_required', 403, 'add your API key to the query (?api_key=<API key>&v=1.0) or send it as "Authorization: Bearer <API key>"');
    const auth = await service.authenticate(key);
    if (!auth) throw bFailure('auth_required', 403, 'the API key is not known: check it, or ask the account holder for a new one');
    const v = q.v;
    if (Array.isArray(v)) throw bFailure('incorrect_data', 400, 'give v once: v=1.0');
    if (v !== '1.0') {
      const why = v === undefined ? 'add the interface version to the query: v=1.0' : `unknown interface version v=${String(v).slice(0, 20)}: use v=1.0`;
      throw bFailure('incorrect_data', 400, why);
    }
    req.account = auth.account;
    return auth.account;
  }
  // Who is calling is settled before the body is read: a request without a valid key gets its 403
  // without the server reading (up to the limit of) its body.
  const authenticate = async (req: FastifyRequest) => {
    await caller(req);
  };

  const render = async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const account = await caller(req);
    if (!/^\d{1,15}$/.test(req.params.id)) {
      throw bFailure('incorrect_data', 400, `"${req.params.id.slice(0, 40)}" is not a video id: use the integer id of a video design`);
    }
    const body = req.body ?? {};
    if (jsonDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw bFailure('incorrect_data', 400, `$: the body nests deeper than ${MAX_JSON_DEPTH} levels`);
    const parsed = VideoRenderRequest.safeParse(body);
    if (!parsed.success) throw issueToError(parsed.error.issues[0]!, body, { root: '$' });
    const p = parsed.data.parameters ?? {};
    const task = await service.createVideoTask(account, {
      videoId: Number(req.params.id),
      ...(p.fps ? { fps: p.fps } : {}),
      ...(p.size_type ? { sizeType: p.size_type } : {}),
      ...(p.demo !== undefined ? { demo: p.demo } : {}),
      overrides: parsed.data.overrides ?? [],
    });
    return reply.status(202).send({ result: 'true', task_url: `${dashboard()}/api/queue/${task.id}/`, task_id: task.id } satisfies VideoRenderAccepted);
  };
  app.post<{ Params: { id: string } }>('/videos/:id/render/', { onRequest: authenticate }, render);
  app.post<{ Params: { id: string } }>('/videos/:id/render', { onRequest: authenticate }, render);

  const status = async (req: FastifyRequest<{ Params: { id: string } }>) => {
    const account = await caller(req);
    return taskBodyB(ctx, await service.getVideoTask(account.id, req.params.id));
  };
  app.get<{ Params: { id: string } }>('/queue/:id/', { onRequest: authenticate }, status);
  app.get<{ Params: { id: string } }>('/queue/:id', { onRequest: authenticate }, status);

  app.setNotFoundHandler(async (req, reply) =>
    reply.status(404).send({ error: 'not_found', description: `no route ${req.method} ${req.url.split('?')[0]!.slice(0, 100)}` }),
  );
}
