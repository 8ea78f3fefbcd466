// Sends the webhooks waiting in the outbox (the metadata store's webhook_deliveries): each pending
// delivery is claimed by exactly one live process and sent once, whichever process finished its task.
import type { WebhookDeliveryRecord, WebhookDeliveryState } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { taskBodyA } from './task-view.js';
import { getTask } from './tasks.js';
import { getAccount } from './accounts.js';
import { sendWebhook } from './webhooks.js';

/**
 * How long after its sender's deadline a delivery still `sending` is declared abandoned. Covers the
 * write of the outcome after the request and clock differences between machines; a sender that is
 * merely late still records its real outcome over the mark.
 */
export const ABANDON_MARGIN_MS = 5000;
/** Every process that sends webhooks also looks for deliveries left by others this often (and at start). */
export const DEFAULT_WEBHOOK_SWEEP_MS = 2000;
export const ABANDONED_REASON =
  'the process sending this webhook stopped during the delivery (killed or crashed); not retried, as the receiver may have had it';

export interface DispatcherOptions {
  /** Interval of the sweep for deliveries no live process is sending. Default 2000 ms. */
  sweepMs?: number;
}

/**
 * The sender of one process. `deliverTask` is called by the completion hook right after a task ended
 * (no polling delay); the sweep (`start`) picks up what dead or non-sending processes left pending
 * and marks deliveries whose sender died mid-request as abandoned. A delivery is sent only by the
 * process whose claim moved it from pending to sending: never twice, even across crashes.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private sweepRun: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly opts: DispatcherOptions = {},
  ) {}

  /** Starts the periodic sweep, with a first one now (deliveries left before a restart go out at once). */
  start(): void {
    const beat = (): void => {
      // One sweep at a time: a slow receiver must not pile up sweeps.
      this.sweepRun = this.sweepRun.then(() => this.sweep()).catch((e: unknown) => this.ctx.log.error({ err: e }, 'webhook sweep failed'));
    };
    beat();
    this.timer = setInterval(beat, this.opts.sweepMs ?? DEFAULT_WEBHOOK_SWEEP_MS);
    this.timer.unref();
  }

  /** Sends the pending delivery of one task, if it is still pending (the hook's prompt path). */
  async deliverTask(taskId: number): Promise<void> {
    await this.claimAndSend({ taskId, limit: 1 });
  }

  /** Marks deliveries whose sender died as abandoned, then sends every pending one. */
  async sweep(): Promise<void> {
    if (this.stopped) return;
    const now = this.ctx.clock();
    for (const d of await this.ctx.meta.abandonWebhooks(now - ABANDON_MARGIN_MS, now, ABANDONED_REASON)) {
      this.ctx.metrics.inc('imprint_webhooks_total', { result: 'abandoned' });
      const fields = { task_id: d.taskId, account_id: d.accountId, claimed_by: d.claimedBy };
      this.ctx.log.warn(fields, 'webhook abandoned: its sender stopped during the delivery (no retry)');
    }
    // Batches until nothing is pending; each batch is claimed before any of it is sent.
    while (!this.stopped && (await this.claimAndSend({ limit: 20 })) > 0);
  }

  private async claimAndSend(opts: { taskId?: number; limit: number }): Promise<number> {
    if (this.stopped) return 0;
    const now = this.ctx.clock();
    const claimed = await this.ctx.meta.claimWebhooks(this.ctx.workerId, now, now + this.ctx.config.webhookTimeoutMs, opts);
    await Promise.all(claimed.map((d) => this.track(this.send(d))));
    return claimed.length;
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  /** The one attempt of a claimed delivery; never throws (a failure to record it is logged). */
  private async send(d: WebhookDeliveryRecord): Promise<void> {
    const { ctx } = this;
    const fields = { task_id: d.taskId, account_id: d.accountId };
    try {
      const task = await ctx.meta.getTask(d.taskId, d.accountId);
      const account = task && (await ctx.meta.getAccount(d.accountId));
      const r =
        !task || !account
          ? { delivered: false, error: 'the task or its account no longer exists', ms: 0 }
          : await sendWebhook({
              url: d.url,
              // Built now from the ended task: the A2 body GET /tasks/{id} answers (result_url while it lasts).
              body: taskBodyA(ctx, task),
              secret: account.webhookSecret,
              timeoutMs: ctx.config.webhookTimeoutMs,
              allowPrivate: ctx.config.webhookAllowPrivate,
              now: ctx.clock,
            });
      ctx.metrics.inc('imprint_webhooks_total', { result: r.delivered ? 'delivered' : 'failed' });
      const logged = { ...fields, status: r.status, ms: r.ms };
      if (r.delivered) ctx.log.info(logged, 'webhook delivered');
      else ctx.log.warn({ ...logged, reason: r.error }, 'webhook not delivered (no retry)');
      await ctx.meta.recordWebhook(d.id, ctx.workerId, r, ctx.clock());
    } catch (e) {
      // Still claimed: it is not sent again; the sweep of some process marks it abandoned.
      ctx.log.error({ ...fields, err: e }, 'could not record the outcome of a webhook; it will show as abandoned');
    }
  }

  /** Stops claiming; waits for the requests under way (each ends within the webhook timeout) and their records. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.sweepRun;
    await Promise.all([...this.inFlight]);
  }
}

/** A delivery as `imprint admin list-webhooks` and (later) the Studio's task detail show it. */
export interface WebhookDeliveryJson {
  task_id: number;
  url: string;
  state: WebhookDeliveryState;
  /** The receiver's HTTP status, when it answered. */
  http_status: number | null;
  /** Why it was not delivered (failed, abandoned). */
  error: string | null;
  created_at: string;
  /** When the one request started (null while pending). */
  attempted_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function deliveryJson(d: WebhookDeliveryRecord): WebhookDeliveryJson {
  return {
    task_id: d.taskId,
    url: d.url,
    state: d.state,
    http_status: d.httpStatus,
    error: d.error,
    created_at: new Date(d.createdAt).toISOString(),
    attempted_at: iso(d.claimedAt),
    finished_at: iso(d.finishedAt),
    duration_ms: d.durationMs,
  };
}

/** The webhook deliveries of an account (newest task first, at most `limit`), or of one of its tasks. */
export async function listWebhookDeliveries(
  ctx: ServiceContext,
  accountId: unknown,
  opts: { taskId?: unknown; limit?: number } = {},
): Promise<WebhookDeliveryRecord[]> {
  const account = await getAccount(ctx, accountId);
  const taskId = opts.taskId === undefined ? undefined : (await getTask(ctx, account.id, opts.taskId)).id;
  return ctx.meta.listWebhooks(account.id, { ...(taskId === undefined ? {} : { taskId }), ...(opts.limit === undefined ? {} : { limit: opts.limit }) });
}
