// Design drafts: the one autosaved draft of each design, kept as the editor sent it (it may be an
// invalid template mid-edit) until it is replaced, deleted, or dropped by a save of a version.
import type { Kysely, Selectable } from 'kysely';
import type { DesignDraftRecord } from './records.js';
import type { DesignDraftsTable, Tables } from './tables.js';

export interface DraftInput {
  accountId: number;
  designId: number;
  baseVersion: number;
  template: unknown;
  assets: Record<string, string>;
  now: number;
}

const toDraft = (r: Selectable<DesignDraftsTable>): DesignDraftRecord => ({
  designId: r.design_id,
  accountId: r.account_id,
  baseVersion: r.base_version,
  template: JSON.parse(r.template) as unknown,
  assets: JSON.parse(r.assets) as Record<string, string>,
  updatedAt: r.updated_at,
});

export class DraftQueries {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Writes (or overwrites) the draft of a design of the account; undefined when the design is not the account's. */
  async putDraft(d: DraftInput): Promise<DesignDraftRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const design = await trx.selectFrom('designs').select('id').where('id', '=', d.designId).where('account_id', '=', d.accountId).executeTakeFirst();
      if (!design) return undefined;
      const values = {
        account_id: d.accountId,
        base_version: d.baseVersion,
        template: JSON.stringify(d.template),
        assets: JSON.stringify(d.assets),
        updated_at: d.now,
      };
      const row = await trx
        .insertInto('design_drafts')
        .values({ design_id: d.designId, ...values })
        .onConflict((oc) => oc.column('design_id').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toDraft(row);
    });
  }

  async getDraft(accountId: number, designId: number): Promise<DesignDraftRecord | undefined> {
    const row = await this.db.selectFrom('design_drafts').selectAll().where('design_id', '=', designId).where('account_id', '=', accountId).executeTakeFirst();
    return row && toDraft(row);
  }

  async hasDraft(accountId: number, designId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('design_drafts')
      .select('design_id')
      .where('design_id', '=', designId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** True when there was a draft to delete. */
  async deleteDraft(accountId: number, designId: number): Promise<boolean> {
    const r = await this.db.deleteFrom('design_drafts').where('design_id', '=', designId).where('account_id', '=', accountId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
