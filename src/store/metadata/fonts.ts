// Account fonts: the library's records, by account and by family.
import type { Kysely, Selectable } from 'kysely';
import type { FontCoverage, FontRecord } from './records.js';
import type { FontsTable, Tables } from './tables.js';

type FontRow = Selectable<FontsTable>;

const toFont = (r: FontRow): FontRecord => ({
  id: Number(r.id),
  accountId: Number(r.account_id),
  family: r.family,
  weight: r.weight,
  ...(r.weight_min !== null && r.weight_max !== null ? { weightRange: { min: r.weight_min, max: r.weight_max } } : {}),
  style: r.style === 'italic' ? 'italic' : 'normal',
  format: r.format,
  hash: r.hash,
  blobKey: r.blob_key,
  size: r.size,
  coverage: JSON.parse(r.coverage) as FontCoverage,
  createdAt: Number(r.created_at),
});

export class FontQueries {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Stores a font; the same file (hash) already in the account's library is returned instead. */
  async insertFont(f: Omit<FontRecord, 'id'>): Promise<{ font: FontRecord; created: boolean }> {
    const row = await this.db
      .insertInto('fonts')
      .values({
        account_id: f.accountId,
        family: f.family,
        weight: f.weight,
        weight_min: f.weightRange?.min ?? null,
        weight_max: f.weightRange?.max ?? null,
        style: f.style,
        format: f.format,
        hash: f.hash,
        blob_key: f.blobKey,
        size: f.size,
        coverage: JSON.stringify(f.coverage),
        created_at: f.createdAt,
      })
      .onConflict((oc) => oc.columns(['account_id', 'hash']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) return { font: toFont(row), created: true };
    const existing = await this.db.selectFrom('fonts').selectAll().where('account_id', '=', f.accountId).where('hash', '=', f.hash).executeTakeFirstOrThrow();
    return { font: toFont(existing), created: false };
  }

  async listFonts(accountId: number): Promise<FontRecord[]> {
    const rows = await this.db.selectFrom('fonts').selectAll().where('account_id', '=', accountId).orderBy('family').orderBy('weight').orderBy('id').execute();
    return rows.map(toFont);
  }

  async getFont(accountId: number, id: number): Promise<FontRecord | undefined> {
    const row = await this.db.selectFrom('fonts').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return row && toFont(row);
  }

  async deleteFont(accountId: number, id: number): Promise<FontRecord | undefined> {
    const row = await this.db.deleteFrom('fonts').where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toFont(row);
  }
}
