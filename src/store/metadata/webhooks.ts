// The webhook outbox: deliveries queued with the end of a task, claimed once by one sender, recorded.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Dialect } from './dialect.js';
import type { WebhookDeliveryRecord, WebhookDeliveryState } from './records.js';
import type { Tables, TasksTable, WebhookDeliveriesTable } from './tables.js';

type TaskRow = Selectable<TasksTable>;
type DeliveryRow = Selectable<WebhookDeliveriesTable>;

function toDelivery(r: DeliveryRow): WebhookDeliveryRecord {
  const num = (v: number | null): number | null => (v === null ? null : Number(v));
  return {
    id: Number(r.id),
    taskId: Number(r.task_id),
    accountId: Number(r.account_id),
    url: r.url,
    state: r.state as WebhookDeliveryState,
    createdAt: Number(r.created_at),
    claimedAt: num(r.claimed_at),
    claimedBy: r.claimed_by,
    deadlineAt: num(r.deadline_at),
    finishedAt: num(r.finished_at),
    httpStatus: num(r.http_status),
    error: r.error,
    durationMs: num(r.duration_ms),
  };
}

/**
 * Queues the webhook of tasks that just ended, inside the transaction that ended them: the move to
 * done/error and the pending delivery commit together or not at all. Unique per task, so a path that
 * ended a task twice could still not send two.
 */
export async function enqueueWebhooks(trx: Transaction<Tables>, rows: readonly TaskRow[], now: number): Promise<void> {
  const values = rows
    .filter((r) => r.webhook_url !== null)
    .map((r) => ({ task_id: Number(r.id), account_id: Number(r.account_id), url: r.webhook_url!, state: 'pending', created_at: now }));
  if (values.length === 0) return;
  await trx
    .insertInto('webhook_deliveries')
    .values(values)
    .onConflict((oc) => oc.column('task_id').doNothing())
    .execute();
}

/** What the one attempt of a delivery gave. */
export interface DeliveryOutcome {
  delivered: boolean;
  status?: number | undefined;
  error?: string | undefined;
  ms: number;
}

export class WebhookQueries {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Takes pending deliveries for `sender` (all, or only the one of `taskId`) in one UPDATE … RETURNING:
   * each row moves pending → sending at most once, so whoever gets it is its only sender, even with
   * several processes claiming at the same moment. `deadline` is when the sender's attempt ends at
   * the latest (now + its webhook timeout).
   */
  async claimWebhooks(sender: string, now: number, deadline: number, opts: { taskId?: number; limit?: number } = {}): Promise<WebhookDeliveryRecord[]> {
    const limit = opts.limit ?? 20;
    const byTask = opts.taskId === undefined ? sql`` : sql`and task_id = ${opts.taskId}`;
    // PostgreSQL: concurrent claimers skip each other's rows instead of queueing behind them; the outer
    // `state = 'pending'` is re-checked on the locked row either way. SQLite has one writer at a time.
    const skipLocked = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const r = await sql<DeliveryRow>`
      update webhook_deliveries set state = 'sending', claimed_at = ${now}, claimed_by = ${sender}, deadline_at = ${deadline}
      where state = 'pending' and id in (
        select id from webhook_deliveries where state = 'pending' ${byTask} order by id limit ${limit} ${skipLocked})
      returning *`.execute(this.db);
    return r.rows.map(toDelivery).sort((a, b) => a.id - b.id);
  }

  /**
   * Records what the one attempt gave. Only the claiming sender writes it; it also replaces an
   * `abandoned` mark made while it was still alive but late, since the real outcome is better.
   */
  async recordWebhook(id: number, sender: string, o: DeliveryOutcome, now: number): Promise<WebhookDeliveryRecord | undefined> {
    const row = await this.db
      .updateTable('webhook_deliveries')
      .set({
        state: o.delivered ? 'sent' : 'failed',
        finished_at: now,
        http_status: o.status ?? null,
        error: o.delivered ? null : (o.error ?? 'not delivered'),
        duration_ms: Math.round(o.ms),
      })
      .where('id', '=', id)
      .where('claimed_by', '=', sender)
      .where('state', 'in', ['sending', 'abandoned'])
      .returningAll()
      .executeTakeFirst();
    return row && toDelivery(row);
  }

  /**
   * Deliveries still `sending` whose deadline passed before `before`: their sender stopped (killed,
   * crashed) during the attempt. They are marked abandoned with `reason` and never sent again, since
   * the receiver may already have had the POST.
   */
  async abandonWebhooks(before: number, now: number, reason: string): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.db
      .updateTable('webhook_deliveries')
      .set({ state: 'abandoned', finished_at: now, error: reason })
      .where('state', '=', 'sending')
      .where('deadline_at', '<', before)
      .returningAll()
      .execute();
    return rows.map(toDelivery);
  }

  /** An account's deliveries, newest task first (or the one of `taskId`). */
  async listWebhooks(accountId: number, opts: { taskId?: number; limit?: number } = {}): Promise<WebhookDeliveryRecord[]> {
    let q = this.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId);
    if (opts.taskId !== undefined) q = q.where('task_id', '=', opts.taskId);
    const rows = await q
      .orderBy('task_id', 'desc')
      .limit(opts.limit ?? 100)
      .execute();
    return rows.map(toDelivery);
  }
}
