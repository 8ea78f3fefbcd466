// GET /public/v2/account (an addition to the spec): the account of the key, its plan, balance and
// interface B's rates and daily renders left, so a page (the Studio) can show a price before a render.
import type { FastifyInstance } from 'fastify';
import type { Service } from '../service/service.js';
import { accountGuard } from './auth.js';
import type { RateLimiter } from '../store/limits/rate-limiter.js';

export async function accountRoutes(app: FastifyInstance, { service, limiter }: { service: Service; limiter: RateLimiter }): Promise<void> {
  const { guard } = accountGuard(service, limiter);
  app.get('/account', { onRequest: guard }, async (req) => {
    // The guard read the account before counting the request; read it again for a current balance.
    return service.accountView(await service.getAccount(req.account!.id));
  });
}
