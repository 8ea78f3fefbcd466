// Designs and the retired-blob list (files of replaced or deleted designs, deleted after a grace time).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DesignKind, DesignRecord, DesignSummary } from './records.js';
import type { DesignsTable, Tables } from './tables.js';

type DesignRow = Selectable<DesignsTable>;

/** A design as written by insert and replace. */
export interface DesignInput {
  accountId: number;
  kind: DesignKind;
  name: string;
  template: unknown;
  assets: Record<string, string>;
  now: number;
}

const toSummary = (r: Omit<DesignRow, 'template' | 'assets'>): DesignSummary => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind as DesignKind,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toDesign = (r: DesignRow): DesignRecord => ({
  ...toSummary(r),
  template: JSON.parse(r.template),
  assets: JSON.parse(r.assets) as Record<string, string>,
});

export class DesignQueries {
  constructor(private readonly db: Kysely<Tables>) {}

  async insertDesign(d: DesignInput): Promise<DesignRecord> {
    const row = await this.db
      .insertInto('designs')
      .values({
        account_id: d.accountId,
        kind: d.kind,
        name: d.name,
        template: JSON.stringify(d.template),
        assets: JSON.stringify(d.assets),
        created_at: d.now,
        updated_at: d.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toDesign(row);
  }

  async replaceDesign(d: DesignInput & { id: number }): Promise<DesignRecord | undefined> {
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

  async listDesignTemplates(accountId: number): Promise<(DesignSummary & { template: unknown })[]> {
    const rows = await this.db
      .selectFrom('designs')
      .select(['id', 'account_id', 'kind', 'name', 'created_at', 'updated_at', 'template'])
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({ ...toSummary(r), template: JSON.parse(r.template) as unknown }));
  }

  async deleteDesign(accountId: number, id: number): Promise<DesignRecord | undefined> {
    const row = await this.db.deleteFrom('designs').where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
    return row && toDesign(row);
  }

  // ── retired blobs ───────────────────────────────────────────────────────────────────────────
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
}
