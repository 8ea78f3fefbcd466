// Tasks: admission (queue size, daily limits, funds), claims, leases, parking, the end of a render with
// its charge and webhook, recovery of stalled tasks and result expiry. Claims and the queue-size check
// are single statements, so they stay atomic on both databases; PostgreSQL also takes an advisory lock
// so concurrent claims cannot overrun an account's concurrency.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { fromMicros, toMicros } from './common.js';
import type { Dialect } from './dialect.js';
import type { RenderWarning } from '../../render/warnings.js';
import type { TaskProgress, TaskRecord, TaskState } from './records.js';
import type { Tables, TasksTable } from './tables.js';
import { enqueueWebhooks } from './webhooks.js';

/** Any advisory-lock id will do as long as every claim uses the same one. */
const CLAIM_LOCK = 727_001;

type TaskRow = Selectable<TasksTable>;

function toTask(r: TaskRow): TaskRecord {
  // Rows from raw `sql` on PostgreSQL come through the same int8 parser; SQLite gives numbers.
  return {
    id: Number(r.id),
    accountId: Number(r.account_id),
    designId: Number(r.design_id),
    designVersion: r.design_version === null ? null : Number(r.design_version),
    format: r.format,
    options: JSON.parse(r.options) as Record<string, unknown>,
    overrides: JSON.parse(r.overrides),
    webhookUrl: r.webhook_url,
    state: r.state as TaskState,
    resultKey: r.result_key,
    posterKey: r.poster_key,
    resultExpiredAt: r.result_expired_at,
    error: r.error,
    errorCode: r.error_code ?? (r.error === null ? null : 'render_failed'),
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    stateAt: r.state_at,
    attempts: r.attempts,
    workerId: r.worker_id,
    leaseUntil: r.lease_until,
    billedDuration: r.billed_duration,
    billedPrice: r.billed_price_micros === null ? null : fromMicros(r.billed_price_micros),
    resultToken: r.result_token,
    api: r.api === 'b' ? 'b' : 'a',
    demo: r.demo === 1,
    reserved: fromMicros(Number(r.reserved_micros)),
    warnings: r.warnings ? (JSON.parse(r.warnings) as RenderWarning[]) : [],
    progress: r.progress ? progressOf(r.progress) : null,
  };
}

/** The stored JSON of a task's progress; anything unreadable is no progress (it is advisory). */
export function progressOf(json: string): TaskProgress | null {
  let p: { frames_done?: unknown; frames_total?: unknown; eta_seconds?: unknown } | null;
  try {
    p = JSON.parse(json) as typeof p;
  } catch {
    return null;
  }
  if (p === null || typeof p !== 'object') return null;
  if (typeof p.frames_done !== 'number' || typeof p.frames_total !== 'number' || !(p.frames_total > 0)) return null;
  return { framesDone: p.frames_done, framesTotal: p.frames_total, etaSeconds: typeof p.eta_seconds === 'number' ? p.eta_seconds : null };
}

/** Extra conditions of an interface B request, checked in the same statement as the insert. */
export interface VideoAdmission {
  demo: boolean;
  /** Money to hold from the balance (0 in demo mode). */
  reserve: number;
  /** Start of the current UTC day, for the daily limits. */
  dayStart: number;
  /** Free renders queued today, or paid renders done today, must stay below this. */
  dailyLimit: number;
}

/** Free (demo) renders of the UTC day that starts at `dayStart`: counted when queued. */
const demoRendersToday = (accountId: number, dayStart: number) =>
  sql<number>`(select count(*) from tasks where account_id = ${accountId} and api = 'b' and demo = 1 and created_at >= ${dayStart})`;

/** Paid renders of the day: done today, or queued or rendering (they may still succeed). */
const paidRendersToday = (accountId: number, dayStart: number) =>
  sql<number>`(select count(*) from tasks where account_id = ${accountId} and api = 'b' and demo = 0
               and (state in ('queued', 'pending') or (state = 'done' and finished_at >= ${dayStart})))`;

/** A page of an account's tasks, newest first: at most `limit`, only ids below `before` when given. */
export interface TaskPage {
  limit: number;
  before?: number;
}

export type InsertRefusal = 'queue_full' | 'insufficient_funds' | 'daily_limit_exceeded';

export interface NewTask {
  accountId: number;
  video?: VideoAdmission;
  /** Default: 128 random bits. */
  resultToken?: string;
  designId: number;
  /** The design version to render (the latest at queue time unless the request named one). */
  designVersion?: number | null;
  format: string;
  options: Record<string, unknown>;
  overrides: unknown;
  webhookUrl: string | null;
  now: number;
}

export interface TaskOutcome {
  state: 'done' | 'error';
  /** Charged to the balance with the move to done (paid interface B renders). */
  charge?: number;
  resultKey?: string | null;
  posterKey?: string | null;
  error?: string | null;
  /** With `error`: its stable code. */
  errorCode?: string | null;
  billedDuration?: number | null;
  /** With done: what the render could not draw as meant. */
  warnings?: readonly RenderWarning[];
}

export type ClaimResult = { claimed: TaskRecord } | { waiting: true } | { gone: true };

/**
 * What a queue backend needs from the metadata store: the claims that move a task from queued to
 * pending, and parking of delivered ids that must wait. Queues take this rather than the whole store.
 */
export interface TaskClaims {
  claimNext(workerId: string, now: number, leaseUntil: number): Promise<TaskRecord | undefined>;
  claimTask(id: number, workerId: string, now: number, leaseUntil: number): Promise<ClaimResult>;
  park(id: number): Promise<void>;
  unpark(): Promise<number[]>;
}

export class TaskQueries implements TaskClaims {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  private async serialized<T>(fn: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
      return fn(trx);
    });
  }

  /**
   * Queues a task unless the account already has `queue_size` tasks queued or running: one
   * INSERT … SELECT, so the count and the insert cannot be split by another request.
   */
  async insertTask(t: NewTask): Promise<TaskRecord | InsertRefusal> {
    return this.serialized(async (trx) => {
      const v = t.video;
      const reserve = v ? toMicros(v.reserve) : 0;
      // Demo renders count when queued (30 a day); paid ones when done (1000 successful a day).
      const daily = !v
        ? sql`true`
        : v.demo
          ? sql`${demoRendersToday(t.accountId, v.dayStart)} < ${v.dailyLimit}`
          : sql`${paidRendersToday(t.accountId, v.dayStart)} < ${v.dailyLimit}`;
      // Money already held by this account's queued and running paid renders cannot be promised twice.
      const funds =
        reserve === 0
          ? sql`true`
          : sql`(select balance_micros from accounts where id = ${t.accountId})
              - (select coalesce(sum(reserved_micros), 0) from tasks where account_id = ${t.accountId} and state in ('queued', 'pending')) >= ${reserve}`;
      // The plan's queue size is interface A's limit (spec: Limits); interface B has its daily limits.
      const queue = v
        ? sql`true`
        : sql`(select count(*) from tasks where account_id = ${t.accountId} and api = 'a' and state in ('queued', 'pending'))
            < (select queue_size from accounts where id = ${t.accountId})`;
      const r = await sql<TaskRow>`
        insert into tasks (account_id, design_id, design_version, format, options, overrides, webhook_url, state, created_at, state_at, attempts, parked,
                           result_token, api, demo, reserved_micros)
        select cast(${t.accountId} as integer), cast(${t.designId} as integer), cast(${t.designVersion ?? null} as integer),
               cast(${t.format} as text), cast(${JSON.stringify(t.options)} as text),
               cast(${JSON.stringify(t.overrides)} as text), cast(${t.webhookUrl} as text), 'queued', cast(${t.now} as bigint), cast(${t.now} as bigint), 0, 0,
               cast(${t.resultToken ?? randomBytes(16).toString('hex')} as text), cast(${v ? 'b' : 'a'} as text),
               cast(${v?.demo ? 1 : 0} as integer), cast(${reserve} as bigint)
        where ${queue} and ${daily} and ${funds}
        returning *`.execute(trx);
      const row = r.rows[0];
      if (row) return toTask(row);
      // Refused: say which condition failed, most fundamental first.
      const check = async (cond: typeof queue) => Boolean((await sql<{ ok: unknown }>`select ${cond} as ok`.execute(trx)).rows[0]?.ok);
      if (!(await check(daily))) return 'daily_limit_exceeded';
      if (!(await check(funds))) return 'insufficient_funds';
      return 'queue_full';
    });
  }

  async getTask(id: number, accountId?: number): Promise<TaskRecord | undefined> {
    let q = this.db.selectFrom('tasks').selectAll().where('id', '=', id);
    if (accountId !== undefined) q = q.where('account_id', '=', accountId);
    const row = await q.executeTakeFirst();
    return row && toTask(row);
  }

  async getTaskByResultToken(token: string): Promise<TaskRecord | undefined> {
    const row = await this.db.selectFrom('tasks').selectAll().where('result_token', '=', token).executeTakeFirst();
    return row && toTask(row);
  }

  /** Tasks of an account in id order (tests and admin). */
  async listTasks(accountId: number): Promise<TaskRecord[]> {
    const rows = await this.db.selectFrom('tasks').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
    return rows.map(toTask);
  }

  /** An account's tasks newest first (the id is the order they were queued in), a page at a time. */
  async listRecentTasks(accountId: number, page: TaskPage): Promise<TaskRecord[]> {
    let q = this.db.selectFrom('tasks').selectAll().where('account_id', '=', accountId);
    if (page.before !== undefined) q = q.where('id', '<', page.before);
    const rows = await q.orderBy('id', 'desc').limit(page.limit).execute();
    return rows.map(toTask);
  }

  /** The renders interface B's daily limits count so far on the UTC day starting at `dayStart`. */
  async countDailyRenders(accountId: number, dayStart: number): Promise<{ demo: number; paid: number }> {
    const r = await sql<{ demo: number | string; paid: number | string }>`
      select ${demoRendersToday(accountId, dayStart)} as demo, ${paidRendersToday(accountId, dayStart)} as paid`.execute(this.db);
    const row = r.rows[0];
    // PostgreSQL's count(*) is a bigint, which its driver gives as a string.
    return { demo: Number(row?.demo ?? 0), paid: Number(row?.paid ?? 0) };
  }

  /**
   * Takes the oldest queued task whose account has a free render slot (in-process queue): FIFO
   * overall, and an account at its concurrency limit does not hold up the others.
   */
  async claimNext(workerId: string, now: number, leaseUntil: number): Promise<TaskRecord | undefined> {
    return this.serialized(async (trx) => {
      const r = await sql<TaskRow>`
        update tasks set state = 'pending', started_at = ${now}, state_at = ${now}, worker_id = ${workerId},
                         lease_until = ${leaseUntil}, attempts = attempts + 1, parked = 0, progress = null
        where state = 'queued' and id = (
          select t.id from tasks t
          where t.state = 'queued' and t.account_id not in (${busyAccounts()})
          order by t.id limit 1)
        returning *`.execute(trx);
      const row = r.rows[0];
      return row && toTask(row);
    });
  }

  /**
   * Takes one given task (queue backends that deliver ids): only if its account has a free slot and
   * no older task of the same account is still queued, so each account's tasks start in order.
   */
  async claimTask(id: number, workerId: string, now: number, leaseUntil: number): Promise<ClaimResult> {
    return this.serialized(async (trx) => {
      const r = await sql<TaskRow>`
        update tasks set state = 'pending', started_at = ${now}, state_at = ${now}, worker_id = ${workerId},
                         lease_until = ${leaseUntil}, attempts = attempts + 1, parked = 0, progress = null
        where id = ${id} and state = 'queued'
          and account_id not in (${busyAccounts()})
          and not exists (select 1 from tasks o where o.account_id = tasks.account_id and o.state = 'queued' and o.id < tasks.id)
        returning *`.execute(trx);
      const row = r.rows[0];
      if (row) return { claimed: toTask(row) };
      const state = await trx.selectFrom('tasks').select('state').where('id', '=', id).executeTakeFirst();
      return state?.state === 'queued' ? { waiting: true } : { gone: true };
    });
  }

  /** Queued tasks not delivered for a while are parked, so `unpark` hands their ids out again. */
  async parkUndelivered(before: number): Promise<void> {
    await this.db.updateTable('tasks').set({ parked: 1 }).where('state', '=', 'queued').where('parked', '=', 0).where('state_at', '<', before).execute();
  }

  /** A delivered task that had to wait for its account: its id is handed out again by `unpark`. */
  async park(id: number): Promise<void> {
    await this.db.updateTable('tasks').set({ parked: 1 }).where('id', '=', id).where('state', '=', 'queued').execute();
  }

  /**
   * Un-parks the oldest parked task of every account that has a free slot; returns the ids to
   * deliver again.
   */
  async unpark(): Promise<number[]> {
    return this.serialized(async (trx) => {
      const r = await sql<{ id: number }>`
        update tasks set parked = 0
        where id in (
          select min(t.id) from tasks t
          where t.state = 'queued' and t.parked = 1 and t.account_id not in (${busyAccounts()})
          group by t.account_id)
        returning id`.execute(trx);
      return r.rows.map((x) => Number(x.id));
    });
  }

  /** Renews the leases of the tasks this worker is rendering (only those: a task it lost track of must stall). */
  async renewLeases(workerId: string, leaseUntil: number, taskIds: readonly number[]): Promise<void> {
    if (taskIds.length === 0) return;
    await this.db
      .updateTable('tasks')
      .set({ lease_until: leaseUntil })
      .where('worker_id', '=', workerId)
      .where('state', '=', 'pending')
      .where('id', 'in', [...taskIds])
      .execute();
  }

  /**
   * Records how far this worker has got with a task it renders; a no-op once the task is no longer
   * its own (ended, or taken over after a lost lease), so a late write cannot touch a finished task.
   */
  async setTaskProgress(id: number, workerId: string, progress: TaskProgress): Promise<void> {
    const json = JSON.stringify({ frames_done: progress.framesDone, frames_total: progress.framesTotal, eta_seconds: progress.etaSeconds });
    await this.db.updateTable('tasks').set({ progress: json }).where('id', '=', id).where('state', '=', 'pending').where('worker_id', '=', workerId).execute();
  }

  /** Records the end of a render; undefined when this worker no longer holds the task (its lease ran out). */
  async finishTask(id: number, workerId: string, o: TaskOutcome, now: number): Promise<TaskRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const charge = o.state === 'done' && o.charge ? toMicros(o.charge) : 0;
      const row = await trx
        .updateTable('tasks')
        .set({
          state: o.state,
          result_key: o.resultKey ?? null,
          poster_key: o.posterKey ?? null,
          error: o.error ?? null,
          error_code: o.state === 'error' ? (o.errorCode ?? 'render_failed') : null,
          billed_duration: o.billedDuration ?? null,
          warnings: o.warnings && o.warnings.length > 0 ? JSON.stringify(o.warnings) : null,
          billed_price_micros: o.charge === undefined ? null : charge,
          reserved_micros: 0,
          finished_at: now,
          state_at: now,
          worker_id: null,
          lease_until: null,
        })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .where('worker_id', '=', workerId)
        .returningAll()
        .executeTakeFirst();
      // Charged once, with the move to done, in the same transaction: a task that is not ours any
      // more (lease lost) charges nothing.
      if (row && charge > 0) {
        await trx
          .updateTable('accounts')
          .set((eb) => ({ balance_micros: eb('balance_micros', '-', charge) }))
          .where('id', '=', row.account_id)
          .execute();
      }
      if (row) await enqueueWebhooks(trx, [row], now);
      return row && toTask(row);
    });
  }

  /** Ends a task that no worker has taken yet (a duplicate of an idempotent request); queues its webhook with it. */
  async cancelQueuedTask(id: number, now: number, reason: string, code = 'render_cancelled'): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('tasks')
        .set({ state: 'error', error: reason, error_code: code, finished_at: now, state_at: now })
        .where('id', '=', id)
        .where('state', '=', 'queued')
        .returningAll()
        .executeTakeFirst();
      if (row) await enqueueWebhooks(trx, [row], now);
      return row !== undefined;
    });
  }

  /** Gives a task back to the queue without counting the attempt (graceful shutdown). */
  async releaseTask(id: number, workerId: string, now: number): Promise<TaskRecord | undefined> {
    const row = await this.db
      .updateTable('tasks')
      // Parked, so queue backends that deliver ids hand it out again even if the push that follows fails.
      .set((eb) => ({ state: 'queued', attempts: eb('attempts', '-', 1), worker_id: null, lease_until: null, state_at: now, parked: 1 }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('worker_id', '=', workerId)
      .returningAll()
      .executeTakeFirst();
    return row && toTask(row);
  }

  /** The workers holding pending tasks, with the tasks each holds (the embedded service checks which are gone). */
  async pendingHolders(): Promise<{ workerId: string; taskIds: number[] }[]> {
    const rows = await this.db.selectFrom('tasks').select(['id', 'worker_id']).where('state', '=', 'pending').execute();
    const by = new Map<string, number[]>();
    for (const r of rows) if (r.worker_id !== null) by.set(r.worker_id, [...(by.get(r.worker_id) ?? []), Number(r.id)]);
    return [...by].map(([workerId, taskIds]) => ({ workerId, taskIds }));
  }

  /**
   * Ends the leases a gone worker holds (still pending and still its own), so that recoverStalled
   * requeues those tasks now rather than when the lease would have run out.
   */
  async endLeases(workerId: string, taskIds: readonly number[], now: number): Promise<number> {
    if (taskIds.length === 0) return 0;
    const r = await this.db
      .updateTable('tasks')
      .set({ lease_until: now - 1 })
      .where('worker_id', '=', workerId)
      .where('state', '=', 'pending')
      .where('id', 'in', [...taskIds])
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Pending tasks whose worker stopped renewing the lease: requeued while they have been taken fewer
   * than `maxAttempts` times, otherwise put in `error` with `reason`.
   */
  async recoverStalled(now: number, maxAttempts: number, reason: string): Promise<{ requeued: TaskRecord[]; failed: TaskRecord[] }> {
    return this.serialized(async (trx) => {
      const failed = await trx
        .updateTable('tasks')
        .set({ state: 'error', error: reason, error_code: 'worker_lost', finished_at: now, state_at: now, worker_id: null, lease_until: null })
        .where('state', '=', 'pending')
        .where('lease_until', '<', now)
        .where('attempts', '>=', maxAttempts)
        .returningAll()
        .execute();
      await enqueueWebhooks(trx, failed, now);
      const requeued = await trx
        .updateTable('tasks')
        .set({ state: 'queued', worker_id: null, lease_until: null, state_at: now, parked: 1 })
        .where('state', '=', 'pending')
        .where('lease_until', '<', now)
        .returningAll()
        .execute();
      return { requeued: requeued.map(toTask), failed: failed.map(toTask) };
    });
  }

  /** Marks results finished before `before` as expired and returns them, so their bytes can be deleted. */
  async expireResults(before: number, now: number, limit = 500): Promise<TaskRecord[]> {
    const rows = await sql<TaskRow>`
      update tasks set result_expired_at = ${now}
      where id in (select id from tasks where result_expired_at is null and result_key is not null and finished_at <= ${before} order by id limit ${limit})
      returning *`.execute(this.db);
    return rows.rows.map(toTask);
  }

  async countTasksByState(): Promise<Record<TaskState, number>> {
    const rows = await this.db
      .selectFrom('tasks')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    const out: Record<TaskState, number> = { queued: 0, pending: 0, done: 0, error: 0 };
    for (const r of rows) out[r.state as TaskState] = Number(r.n);
    return out;
  }

  async queuedIds(): Promise<number[]> {
    const rows = await this.db.selectFrom('tasks').select('id').where('state', '=', 'queued').orderBy('id').execute();
    return rows.map((r) => r.id);
  }
}

/** Accounts whose running tasks already fill their plan's concurrency. */
function busyAccounts() {
  return sql`select p.account_id from tasks p inner join accounts a on a.id = p.account_id
             where p.state = 'pending' group by p.account_id, a.concurrency having count(*) >= a.concurrency`;
}
