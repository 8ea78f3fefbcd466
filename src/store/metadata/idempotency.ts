// Idempotency keys of interface B: which task a repeated request maps to.
import type { Kysely } from 'kysely';
import { uniqueViolation } from './common.js';
import type { Tables } from './tables.js';

export class IdempotencyQueries {
  constructor(private readonly db: Kysely<Tables>) {}

  async findIdempotencyKey(accountId: number, key: string): Promise<{ requestHash: string; taskId: number; createdAt: number } | undefined> {
    const row = await this.db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
    return row && { requestHash: row.request_hash, taskId: row.task_id, createdAt: row.created_at };
  }

  /** False when another request recorded the key first (the caller then replays that one). */
  async insertIdempotencyKey(k: { accountId: number; key: string; requestHash: string; taskId: number; now: number }): Promise<boolean> {
    try {
      await this.db
        .insertInto('idempotency_keys')
        .values({ account_id: k.accountId, key: k.key, request_hash: k.requestHash, task_id: k.taskId, created_at: k.now })
        .execute();
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
}
