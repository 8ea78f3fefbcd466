// Uploads: their records, lookup by token and expiry.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { UploadRecord } from './records.js';
import type { Tables, UploadsTable } from './tables.js';

type UploadRow = Selectable<UploadsTable>;

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

export class UploadQueries {
  constructor(private readonly db: Kysely<Tables>) {}

  async insertUpload(u: Omit<UploadRecord, 'id' | 'expiredAt'>): Promise<UploadRecord> {
    const row = await this.db
      .insertInto('uploads')
      .values({
        account_id: u.accountId,
        token: u.token,
        blob_key: u.blobKey,
        content_type: u.contentType,
        size: u.size,
        created_at: u.createdAt,
        expires_at: u.expiresAt,
      })
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
}
