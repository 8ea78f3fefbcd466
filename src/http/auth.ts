// Who may call interface A and its additions: the Bearer key (admin role only), the temporary block
// after status-polling abuse, and the plan's requests per minute, settled before the body is read.
// Every route under /public/v2 that acts for an account uses the one guard, so limits count alike.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey } from '../service/keys.js';
import type { Service } from '../service/service.js';
import type { Account } from '../store/metadata/records.js';
import { errorReply, HttpFailure } from './errors.js';
import type { RateLimiter } from '../store/limits/rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
    keyHash?: string;
  }
}

export const fail = (code: Parameters<typeof errorReply>[0], description: string, headers?: Record<string, string>) =>
  new HttpFailure(errorReply(code, description), headers);

/** The key of an `Authorization: Bearer <key>` header. */
export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

export interface AccountGuard {
  /** Whole seconds (at least 1) for Retry-After and messages. */
  seconds: (ms: number) => string;
  /** Runs a limiter call; when the limiter's store fails, logs it and answers `fallback`. */
  limited: <T>(what: string, run: () => Promise<T>, fallback: T) => Promise<T>;
  /** A limiter answer that lets the request through. */
  open: (limit: number) => { allowed: boolean; limit: number; remaining: number; resetMs: number };
  /** onRequest hook: sets `req.account` and `req.keyHash`, or throws 401, 403 or 429. */
  guard: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

export function accountGuard(service: Service, limiter: RateLimiter): AccountGuard {
  const { ctx } = service;
  const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));
  /**
   * Limits are a protection, not the service: when their store (Redis) fails, the request goes
   * through and the failure is logged, rather than every request failing.
   */
  const limited = async <T>(what: string, run: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await run();
    } catch (e) {
      ctx.log.error({ err: e, limit: what }, 'rate limiter unavailable; request let through');
      ctx.metrics.inc('imprint_rate_limiter_failures_total');
      return fallback;
    }
  };
  const open = (limit: number) => ({ allowed: true, limit, remaining: limit, resetMs: 60_000 });
  /** Who is calling (admin keys only) and whether the plan lets them: before the body is read. */
  async function guard(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = bearer(req);
    if (!key) throw fail('unauthorized', 'send the API key in the Authorization header: "Authorization: Bearer <API key>"');
    const keyHash = hashApiKey(key);
    const blocked = await limited('block', () => limiter.blockedFor(`block:${keyHash}`), 0);
    if (blocked > 0)
      throw fail(
        'rate_limited',
        `this key is blocked for ${seconds(blocked)} s after polling status addresses too often: poll each one at most once per ${ctx.config.pollIntervalMs / 1000} s`,
        { 'retry-after': seconds(blocked) },
      );
    const auth = await service.authenticate(key);
    if (!auth) throw fail('unauthorized', 'the API key is not known: check it, or ask the account holder for a new one');
    if (auth.role !== 'admin') throw fail('forbidden', 'interface A is open to the account administrator only: use an admin key');
    const { account } = auth;
    const rpm = await limited('rpm', () => limiter.hit(`rpm:${account.id}`, account.plan.requestsPerMinute, 60_000), open(account.plan.requestsPerMinute));
    reply.header('x-ratelimit-limit', String(rpm.limit));
    reply.header('x-ratelimit-remaining', String(rpm.remaining));
    reply.header('x-ratelimit-reset', seconds(rpm.resetMs));
    if (!rpm.allowed) {
      throw fail('rate_limited', `the plan allows ${rpm.limit} requests per minute: retry after ${seconds(rpm.resetMs)} s`, {
        'retry-after': seconds(rpm.resetMs),
      });
    }
    req.account = account;
    req.keyHash = keyHash;
  }
  return { seconds, limited, open, guard };
}
