// Every query of the service, written once for SQLite and PostgreSQL. Task claims and the queue-size
// check are single statements, so they stay atomic on both; PostgreSQL also takes an advisory lock
// so concurrent claims cannot overrun an account's concurrency.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { ImprintError } from '../../errors.js';
import type { MetadataConnection } from './connect.js';
import type {
  Account,
  ApiKeyRecord,
  DesignKind,
  DesignRecord,
  DesignSummary,
  Plan,
  Role,
  TaskRecord,
  TaskState,
  UploadRecord,
  WebhookDeliveryRecord,
  WebhookDeliveryState,
} from './records.js';
import type { AccountsTable, DesignsTable, Tables, TasksTable, UploadsTable, WebhookDeliveriesTable } from './tables.js';

const MICROS = 1_000_000;
export const toMicros = (amount: number): number => Math.round(amount * MICROS);
const fromMicros = (micros: number): number => micros / MICROS;

/** Any advisory-lock id will do as long as every claim uses the same one. */
const CLAIM_LOCK = 727_001;

type AccountRow = Selectable<AccountsTable>;
type DesignRow = Selectable<DesignsTable>;
type UploadRow = Selectable<UploadsTable>;
type TaskRow = Selectable<TasksTable>;
type DeliveryRow = Selectable<WebhookDeliveriesTable>;

function toAccount(r: AccountRow): Account {
  return {
    id: r.id,
    name: r.name,
    createdAt: r.created_at,
    balance: fromMicros(r.balance_micros),
    webhookSecret: r.webhook_secret,
    plan: {
      name: r.plan,
      requestsPerMinute: r.requests_per_minute,
      concurrency: r.concurrency,
      queueSize: r.queue_size,
      dailyRenders: r.daily_renders,
      dailyDemoRenders: r.daily_demo_renders,
      videoRates: JSON.parse(r.video_rates) as Plan['videoRates'],
    },
  };
}

function planColumns(p: Plan) {
  return {
    plan: p.name,
    requests_per_minute: p.requestsPerMinute,
    concurrency: p.concurrency,
    queue_size: p.queueSize,
    daily_renders: p.dailyRenders,
    daily_demo_renders: p.dailyDemoRenders,
    video_rates: JSON.stringify(p.videoRates),
  };
}

const toSummary = (r: Omit<DesignRow, 'template' | 'assets'>): DesignSummary => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind as DesignKind,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toDesign = (r: DesignRow): DesignRecord => ({ ...toSummary(r), template: JSON.parse(r.template), assets: JSON.parse(r.assets) as Record<string, string> });

const toUpload = (r: UploadRow): UploadRecord => ({
  id: r.id,
  accountId: r.account_id,
  token: r.token,
  blobKey: r.blob_key,
  contentType: r.content_type,
  size: r.size,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  expiredAt: r.expired_at,
});

function toTask(r: TaskRow): TaskRecord {
  // Rows from raw `sql` on PostgreSQL come through the same int8 parser; SQLite gives numbers.
  return {
    id: Number(r.id),
    accountId: Number(r.account_id),
    designId: Number(r.design_id),
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
  };
}

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
async function enqueueWebhooks(trx: Transaction<Tables>, rows: readonly TaskRow[], now: number): Promise<void> {
  const values = rows
    .filter((r) => r.webhook_url !== null)
    .map((r) => ({ task_id: Number(r.id), account_id: Number(r.account_id), url: r.webhook_url!, state: 'pending', created_at: now }));
  if (values.length === 0) return;
  await trx.insertInto('webhook_deliveries').values(values).onConflict((oc) => oc.column('task_id').doNothing()).execute();
}

/** What the one attempt of a delivery gave. */
export interface DeliveryOutcome {
  delivered: boolean;
  status?: number | undefined;
  error?: string | undefined;
  ms: number;
}

/** Unique-constraint violations of either database, as the service's `conflict` error. */
function uniqueViolation(e: unknown): boolean {
  const err = e as { code?: string };
  return err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
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

export type InsertRefusal = 'queue_full' | 'insufficient_funds' | 'daily_limit_exceeded';

export interface NewTask {
  accountId: number;
  video?: VideoAdmission;
  /** Default: 128 random bits. */
  resultToken?: string;
  designId: number;
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
}

export type ClaimResult = { claimed: TaskRecord } | { waiting: true } | { gone: true };

export class MetadataStore {
  readonly db: Kysely<Tables>;
  constructor(readonly conn: MetadataConnection) {
    this.db = conn.db;
  }

  get dialect() {
    return this.conn.dialect;
  }

  close(): Promise<void> {
    return this.conn.close();
  }

  private async serialized<T>(fn: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.conn.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
      return fn(trx);
    });
  }

  // ── accounts ────────────────────────────────────────────────────────────────────────────────
  async insertAccount(a: { name: string; plan: Plan; webhookSecret: string; balance: number; now: number }): Promise<Account> {
    try {
      const row = await this.db
        .insertInto('accounts')
        .values({ name: a.name, created_at: a.now, balance_micros: toMicros(a.balance), webhook_secret: a.webhookSecret, ...planColumns(a.plan) })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toAccount(row);
    } catch (e) {
      if (uniqueViolation(e)) throw new ImprintError('conflict', '$.name', `an account named "${a.name}" already exists: choose another name`);
      throw e;
    }
  }

  async getAccount(id: number): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAccount(row);
  }

  async countAccounts(): Promise<number> {
    const r = await this.db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async setBalance(id: number, balance: number): Promise<Account | undefined> {
    const row = await this.db.updateTable('accounts').set({ balance_micros: toMicros(balance) }).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toAccount(row);
  }

  /** Adds to the balance in one statement (no lost update beside a charge); 'negative' when it would go below 0. */
  async addBalance(id: number, delta: number): Promise<Account | undefined | 'negative'> {
    const d = toMicros(delta);
    const row = await this.db
      .updateTable('accounts')
      .set((eb) => ({ balance_micros: eb('balance_micros', '+', d) }))
      .where('id', '=', id)
      .where((eb) => eb(eb('balance_micros', '+', d), '>=', 0))
      .returningAll()
      .executeTakeFirst();
    if (row) return toAccount(row);
    return (await this.getAccount(id)) ? 'negative' : undefined;
  }

  async setPlan(id: number, plan: Plan): Promise<Account | undefined> {
    const row = await this.db.updateTable('accounts').set(planColumns(plan)).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toAccount(row);
  }

  // ── API keys ────────────────────────────────────────────────────────────────────────────────
  async insertKey(k: { accountId: number; role: Role; keyHash: string; keyPrefix: string; now: number }): Promise<ApiKeyRecord> {
    try {
      const row = await this.db
        .insertInto('api_keys')
        .values({ account_id: k.accountId, role: k.role, key_hash: k.keyHash, key_prefix: k.keyPrefix, created_at: k.now })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, accountId: row.account_id, role: row.role as Role, keyPrefix: row.key_prefix, createdAt: row.created_at };
    } catch (e) {
      if (uniqueViolation(e)) throw new ImprintError('conflict', '$.api_key', 'this API key already exists: create a new key instead of reusing one');
      throw e;
    }
  }

  async findKey(keyHash: string): Promise<{ role: Role; account: Account } | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .selectAll('accounts')
      .select('api_keys.role as key_role')
      .where('api_keys.key_hash', '=', keyHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const { key_role, ...account } = row;
    return { role: key_role as Role, account: toAccount(account) };
  }

  async listKeys(accountId: number): Promise<ApiKeyRecord[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
    return rows.map((row) => ({ id: row.id, accountId: row.account_id, role: row.role as Role, keyPrefix: row.key_prefix, createdAt: row.created_at }));
  }

  // ── designs ─────────────────────────────────────────────────────────────────────────────────
  async insertDesign(d: { accountId: number; kind: DesignKind; name: string; template: unknown; assets: Record<string, string>; now: number }): Promise<DesignRecord> {
    const row = await this.db
      .insertInto('designs')
      .values({ account_id: d.accountId, kind: d.kind, name: d.name, template: JSON.stringify(d.template), assets: JSON.stringify(d.assets), created_at: d.now, updated_at: d.now })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toDesign(row);
  }

  async replaceDesign(d: { accountId: number; id: number; kind: DesignKind; name: string; template: unknown; assets: Record<string, string>; now: number }): Promise<DesignRecord | undefined> {
    const row = await this.db
      .updateTable('designs')
      .set({ kind: d.kind, name: d.name, template: JSON.stringify(d.template), assets: JSON.stringify(d.assets), updated_at: d.now })
      .where('id', '=', d.id)
      .where('account_id', '=', d.accountId)
      .returningAll()
      .executeTakeFirst();
    return row && toDesign(row);
  }

  async getDesign(accountId: number, id: number): Promise<DesignRecord | undefined> {
    const row = await this.db.selectFrom('designs').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row && toDesign(row);
  }

  async listDesigns(accountId: number): Promise<DesignSummary[]> {
    const rows = await this.db
      .selectFrom('designs')
      .select(['id', 'account_id', 'kind', 'name', 'created_at', 'updated_at'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    return rows.map(toSummary);
  }

  async deleteDesign(accountId: number, id: number): Promise<DesignRecord | undefined> {
    const row = await this.db.deleteFrom('designs').where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
    return row && toDesign(row);
  }

  // ── uploads ─────────────────────────────────────────────────────────────────────────────────
  async insertUpload(u: Omit<UploadRecord, 'id' | 'expiredAt'>): Promise<UploadRecord> {
    const row = await this.db
      .insertInto('uploads')
      .values({ account_id: u.accountId, token: u.token, blob_key: u.blobKey, content_type: u.contentType, size: u.size, created_at: u.createdAt, expires_at: u.expiresAt })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUpload(row);
  }

  async getUploadByToken(token: string): Promise<UploadRecord | undefined> {
    const row = await this.db.selectFrom('uploads').selectAll().where('token', '=', token).executeTakeFirst();
    return row && toUpload(row);
  }

  /** Marks uploads past their expiry as expired and returns them, so their bytes can be deleted. */
  async expireUploads(now: number, limit = 500): Promise<UploadRecord[]> {
    const rows = await sql<UploadRow>`
      update uploads set expired_at = ${now}
      where id in (select id from uploads where expired_at is null and expires_at <= ${now} order by id limit ${limit})
      returning *`.execute(this.db);
    return rows.rows.map(toUpload);
  }

  /** Blobs to delete once `deleteAfter` has passed (a file may be shared: re-retiring keeps the later time). */
  async retireBlobs(keys: readonly string[], deleteAfter: number): Promise<void> {
    for (const key of new Set(keys)) {
      await this.db
        .insertInto('retired_blobs')
        .values({ key, delete_after: deleteAfter })
        .onConflict((oc) => oc.column('key').doUpdateSet({ delete_after: deleteAfter }))
        .execute();
    }
  }

  /** Retired blobs now due, removed from the list (the caller deletes their bytes). */
  async takeDueBlobs(now: number, limit = 500): Promise<string[]> {
    const rows = await sql<{ key: string }>`
      delete from retired_blobs where key in (select key from retired_blobs where delete_after <= ${now} order by key limit ${limit})
      returning key`.execute(this.db);
    return rows.rows.map((r) => r.key);
  }

  // ── tasks ───────────────────────────────────────────────────────────────────────────────────
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
          ? sql`(select count(*) from tasks where account_id = ${t.accountId} and api = 'b' and demo = 1 and created_at >= ${v.dayStart}) < ${v.dailyLimit}`
          : sql`(select count(*) from tasks where account_id = ${t.accountId} and api = 'b' and demo = 0
                 and (state in ('queued', 'pending') or (state = 'done' and finished_at >= ${v.dayStart}))) < ${v.dailyLimit}`;
      // Money already held by this account's queued and running paid renders cannot be promised twice.
      const funds = reserve === 0
        ? sql`true`
        : sql`(select balance_micros from accounts where id = ${t.accountId})
              - (select coalesce(sum(reserved_micros), 0) from tasks where account_id = ${t.accountId} and state in ('queued', 'pending')) >= ${reserve}`;
      // The plan's queue size is interface A's limit (spec: Limits); interface B has its daily limits.
      const queue = v
        ? sql`true`
        : sql`(select count(*) from tasks where account_id = ${t.accountId} and api = 'a' and state in ('queued', 'pending'))
            < (select queue_size from accounts where id = ${t.accountId})`;
      const r = await sql<TaskRow>`
        insert into tasks (account_id, design_id, format, options, overrides, webhook_url, state, created_at, state_at, attempts, parked, result_token, api, demo, reserved_micros)
        select cast(${t.accountId} as integer), cast(${t.designId} as integer), cast(${t.format} as text), cast(${JSON.stringify(t.options)} as text),
               cast(${JSON.stringify(t.overrides)} as text), cast(${t.webhookUrl} as text), 'queued', cast(${t.now} as bigint), cast(${t.now} as bigint), 0, 0,
               cast(${t.resultToken ?? randomBytes(16).toString('hex')} as text), cast(${v ? 'b' : 'a'} as text), cast(${v?.demo ? 1 : 0} as integer), cast(${reserve} as bigint)
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

  // ── idempotency keys ────────────────────────────────────────────────────────────────────────
  async findIdempotencyKey(accountId: number, key: string): Promise<{ requestHash: string; taskId: number; createdAt: number } | undefined> {
    const row = await this.db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
    return row && { requestHash: row.request_hash, taskId: row.task_id, createdAt: row.created_at };
  }

  /** False when another request recorded the key first (the caller then replays that one). */
  async insertIdempotencyKey(k: { accountId: number; key: string; requestHash: string; taskId: number; now: number }): Promise<boolean> {
    try {
      await this.db.insertInto('idempotency_keys').values({ account_id: k.accountId, key: k.key, request_hash: k.requestHash, task_id: k.taskId, created_at: k.now }).execute();
      return true;
    } catch (e) {
      if (uniqueViolation(e)) return false;
      throw e;
    }
  }

  async setIdempotencyTask(accountId: number, key: string, taskId: number): Promise<void> {
    await this.db.updateTable('idempotency_keys').set({ task_id: taskId }).where('account_id', '=', accountId).where('key', '=', key).execute();
  }

  async deleteIdempotencyKey(accountId: number, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).execute();
  }

  async deleteIdempotencyKeysBefore(before: number): Promise<number> {
    const r = await this.db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Tasks of an account in id order (tests and admin). */
  async listTasks(accountId: number): Promise<TaskRecord[]> {
    const rows = await this.db.selectFrom('tasks').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
    return rows.map(toTask);
  }

  /**
   * Takes the oldest queued task whose account has a free render slot (in-process queue): FIFO
   * overall, and an account at its concurrency limit does not hold up the others.
   */
  async claimNext(workerId: string, now: number, leaseUntil: number): Promise<TaskRecord | undefined> {
    return this.serialized(async (trx) => {
      const r = await sql<TaskRow>`
        update tasks set state = 'pending', started_at = ${now}, state_at = ${now}, worker_id = ${workerId},
                         lease_until = ${leaseUntil}, attempts = attempts + 1, parked = 0
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
                         lease_until = ${leaseUntil}, attempts = attempts + 1, parked = 0
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
    await this.db.updateTable('tasks').set({ lease_until: leaseUntil }).where('worker_id', '=', workerId).where('state', '=', 'pending').where('id', 'in', [...taskIds]).execute();
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

  // ── webhook outbox ──────────────────────────────────────────────────────────────────────────
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
    const skipLocked = this.conn.dialect === 'postgres' ? sql`for update skip locked` : sql``;
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
    const rows = await q.orderBy('task_id', 'desc').limit(opts.limit ?? 100).execute();
    return rows.map(toDelivery);
  }

  async countTasksByState(): Promise<Record<TaskState, number>> {
    const rows = await this.db.selectFrom('tasks').select(['state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('state').execute();
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
