// The completion hook of interface A: one webhook POST per finished task that asked for one. It runs
// in whichever process finished the task (serve or worker), never retries and never touches the task.
import type { TaskRecord } from '../store/metadata/records.js';
import type { CompletionHook } from '../worker/worker.js';
import type { ServiceContext } from './context.js';
import { taskBodyA } from './task-view.js';
import { sendWebhook } from './webhooks.js';

export function webhookHook(ctx: ServiceContext): CompletionHook {
  return async (task: TaskRecord) => {
    if (!task.webhookUrl) return;
    const account = await ctx.meta.getAccount(task.accountId);
    if (!account) return;
    const r = await sendWebhook({
      url: task.webhookUrl,
      body: taskBodyA(ctx, task),
      secret: account.webhookSecret,
      timeoutMs: ctx.config.webhookTimeoutMs,
      allowPrivate: ctx.config.webhookAllowPrivate,
      now: ctx.clock,
    });
    ctx.metrics.inc('imprint_webhooks_total', { result: r.delivered ? 'delivered' : 'failed' });
    const fields = { task_id: task.id, account_id: task.accountId, status: r.status, ms: r.ms };
    if (r.delivered) ctx.log.info(fields, 'webhook delivered');
    else ctx.log.warn({ ...fields, reason: r.error }, 'webhook not delivered (no retry)');
  };
}
