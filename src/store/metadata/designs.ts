// Designs, their numbered versions (the latest also copied into `designs`, where renders read it),
// which blobs each version uses, and the retired-blob list (files no version uses any more, deleted
// after a grace time). Versions and duplicated designs share blobs: a blob is retired only when the
// last version using it is gone, and taken off the list again when a new version uses it.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { ImprintError } from '../../errors.js';
import type { Dialect } from './dialect.js';
import type { DesignKind, DesignRecord, DesignSummary, DesignVersionRecord } from './records.js';
import type { DesignsTable, Tables } from './tables.js';

type DesignRow = Selectable<DesignsTable>;
type Db = Kysely<Tables> | Transaction<Tables>;

/** Any advisory-lock id will do as long as every name check uses the same one (PostgreSQL). */
const NAME_LOCK = 727_002;
/** Keys per `in (…)` list, well under either database's limit of bound parameters. */
const KEYS_PER_QUERY = 500;

/** A design as written by insert: its name and its version 1. */
export interface DesignInput {
  accountId: number;
  kind: DesignKind;
  name: string;
  template: unknown;
  assets: Record<string, string>;
  now: number;
  /** Refuse (409 conflict at $.name) a name another design of the account has. */
  uniqueName?: boolean;
}

/** A new version of a design. */
export interface VersionInput {
  accountId: number;
  id: number;
  kind: DesignKind;
  template: unknown;
  assets: Record<string, string>;
  now: number;
  /** Saved on this version: refused (version_conflict) when it is no longer the latest. Absent: on whatever is latest (a zip replace). */
  baseVersion?: number;
  /** A new name, set with the version (a zip replace's name field; not checked for uniqueness, as imports are not). */
  name?: string;
  /** Drop the design's draft in the same transaction (a save from the editor). */
  dropDraft?: boolean;
  /** Versions kept: older ones go, and their blobs no version uses any more are retired. */
  keep: number;
  /** When retired blobs may be deleted. */
  retireAfter: number;
}

/** A page of a design's versions, newest first. */
export interface VersionPage {
  limit: number;
  /** Only versions below this number. */
  before?: number;
}

const toSummary = (r: Omit<DesignRow, 'template' | 'assets'>): DesignSummary => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind as DesignKind,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  latestVersion: r.version,
});

const toDesign = (r: DesignRow): DesignRecord => ({
  ...toSummary(r),
  version: r.version,
  template: JSON.parse(r.template),
  assets: JSON.parse(r.assets) as Record<string, string>,
});

const chunks = <T>(items: readonly T[], size = KEYS_PER_QUERY): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** A name another design of the account has (409 conflict at $.name). */
export function nameTaken(designId: number, name: string): ImprintError {
  return new ImprintError('conflict', '$.name', `design ${designId} of this account is already named "${name}": choose another name`);
}

/** A save made on `base`, which is no longer the design's latest version: nothing was stored. */
export function versionConflict(designId: number, latest: number, base: number): ImprintError {
  return new ImprintError(
    'version_conflict',
    '$.base_version',
    `design ${designId} is at version ${latest} and this save was made on version ${base} (another save came first): nothing was stored; ` +
      `load version ${latest}, make the edits again and save with base_version ${latest}, or save them as a new design`,
    { details: { latest_version: latest } },
  );
}

export class DesignQueries {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Refuses a name another design of the account has. On PostgreSQL an advisory lock per account
   * makes the check and the write that follows one step (SQLite runs one write transaction at a time).
   */
  private async claimName(trx: Transaction<Tables>, accountId: number, name: string, except?: number): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${NAME_LOCK}, ${accountId})`.execute(trx);
    let q = trx.selectFrom('designs').select('id').where('account_id', '=', accountId).where('name', '=', name);
    if (except !== undefined) q = q.where('id', '<>', except);
    const taken = await q.executeTakeFirst();
    if (taken) throw nameTaken(taken.id, name);
  }

  /** The id of the account's design of this name, if any (the first, should imports have given several the same). */
  async findDesignByName(accountId: number, name: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('designs').select('id').where('account_id', '=', accountId).where('name', '=', name).orderBy('id').executeTakeFirst();
    return row?.id;
  }

  /** The version's row and which blobs it uses; a blob on the retired list is taken off it. */
  private async writeVersion(trx: Transaction<Tables>, designId: number, version: number, v: Omit<VersionInput, 'id' | 'keep' | 'retireAfter'>) {
    await trx
      .insertInto('design_versions')
      .values({
        design_id: designId,
        version,
        account_id: v.accountId,
        kind: v.kind,
        template: JSON.stringify(v.template),
        assets: JSON.stringify(v.assets),
        created_at: v.now,
      })
      .execute();
    const keys = [...new Set(Object.values(v.assets))];
    for (const part of chunks(keys)) {
      await trx
        .insertInto('design_version_blobs')
        .values(part.map((key) => ({ design_id: designId, version, key })))
        .execute();
      await trx.deleteFrom('retired_blobs').where('key', 'in', part).execute();
    }
  }

  /** Blobs among `keys` that no version of any design uses any more: on the retired list. */
  private async retireUnused(trx: Transaction<Tables>, keys: readonly string[], deleteAfter: number): Promise<void> {
    for (const part of chunks([...new Set(keys)])) {
      const used = new Set((await trx.selectFrom('design_version_blobs').select('key').where('key', 'in', part).execute()).map((r) => r.key));
      await this.retire(
        trx,
        part.filter((k) => !used.has(k)),
        deleteAfter,
      );
    }
  }

  private async retire(db: Db, keys: readonly string[], deleteAfter: number): Promise<void> {
    for (const key of new Set(keys)) {
      await db
        .insertInto('retired_blobs')
        .values({ key, delete_after: deleteAfter })
        .onConflict((oc) => oc.column('key').doUpdateSet({ delete_after: deleteAfter }))
        .execute();
    }
  }

  /** A new design, as its version 1. */
  async insertDesign(d: DesignInput): Promise<DesignRecord> {
    return this.db.transaction().execute(async (trx) => {
      if (d.uniqueName) await this.claimName(trx, d.accountId, d.name);
      const row = await trx
        .insertInto('designs')
        .values({
          account_id: d.accountId,
          kind: d.kind,
          name: d.name,
          template: JSON.stringify(d.template),
          assets: JSON.stringify(d.assets),
          created_at: d.now,
          updated_at: d.now,
          version: 1,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.writeVersion(trx, row.id, 1, d);
      return toDesign(row);
    });
  }

  /**
   * Saves the next version of a design and makes it the latest, in one transaction: the design's row
   * moves only from `baseVersion` when one is given, so of two saves on the same version one wins and
   * the other is refused (version_conflict) having changed nothing. Undefined when the design is not
   * the account's.
   */
  async saveVersion(v: VersionInput): Promise<DesignRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let q = trx
        .updateTable('designs')
        .set((eb) => ({
          version: eb('version', '+', 1),
          kind: v.kind,
          template: JSON.stringify(v.template),
          assets: JSON.stringify(v.assets),
          updated_at: v.now,
          ...(v.name === undefined ? {} : { name: v.name }),
        }))
        .where('id', '=', v.id)
        .where('account_id', '=', v.accountId);
      if (v.baseVersion !== undefined) q = q.where('version', '=', v.baseVersion);
      const row = await q.returningAll().executeTakeFirst();
      if (!row) {
        const current = await trx.selectFrom('designs').select('version').where('id', '=', v.id).where('account_id', '=', v.accountId).executeTakeFirst();
        if (!current) return undefined;
        throw versionConflict(v.id, current.version, v.baseVersion ?? current.version);
      }
      await this.writeVersion(trx, row.id, row.version, v);
      if (v.dropDraft) await trx.deleteFrom('design_drafts').where('design_id', '=', row.id).execute();
      // The oldest versions past the number kept, and the blobs only they used.
      const cutoff = row.version - v.keep;
      if (cutoff >= 1) {
        const old = await trx.selectFrom('design_version_blobs').select('key').where('design_id', '=', row.id).where('version', '<=', cutoff).execute();
        await trx.deleteFrom('design_version_blobs').where('design_id', '=', row.id).where('version', '<=', cutoff).execute();
        await trx.deleteFrom('design_versions').where('design_id', '=', row.id).where('version', '<=', cutoff).execute();
        await this.retireUnused(
          trx,
          old.map((r) => r.key),
          v.retireAfter,
        );
      }
      return toDesign(row);
    });
  }

  /** A design with its latest version, or with `version` when given (undefined when it has no such version kept). */
  async getDesign(accountId: number, id: number, version?: number): Promise<DesignRecord | undefined> {
    const row = await this.db.selectFrom('designs').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!row || version === undefined || version === row.version) return row && toDesign(row);
    const v = await this.db
      .selectFrom('design_versions')
      .select(['kind', 'template', 'assets'])
      .where('design_id', '=', id)
      .where('account_id', '=', accountId)
      .where('version', '=', version)
      .executeTakeFirst();
    return v && { ...toDesign({ ...row, template: v.template, assets: v.assets }), kind: v.kind as DesignKind, version };
  }

  /** The oldest and the latest version kept (versions in between are all kept), or undefined for no such design. */
  async versionRange(accountId: number, id: number): Promise<{ oldest: number; latest: number } | undefined> {
    const r = await this.db
      .selectFrom('design_versions')
      .select((eb) => [eb.fn.min('version').as('oldest'), eb.fn.max('version').as('latest')])
      .where('design_id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return r && r.oldest !== null && r.latest !== null ? { oldest: Number(r.oldest), latest: Number(r.latest) } : undefined;
  }

  /** A design's kept versions, newest first, a page at a time. */
  async listVersions(accountId: number, id: number, page: VersionPage): Promise<DesignVersionRecord[]> {
    let q = this.db
      .selectFrom('design_versions')
      .select(['design_id', 'version', 'kind', 'template', 'assets', 'created_at'])
      .where('design_id', '=', id)
      .where('account_id', '=', accountId);
    if (page.before !== undefined) q = q.where('version', '<', page.before);
    const rows = await q.orderBy('version', 'desc').limit(page.limit).execute();
    return rows.map((r) => ({
      designId: r.design_id,
      version: r.version,
      kind: r.kind as DesignKind,
      template: JSON.parse(r.template) as unknown,
      assets: JSON.parse(r.assets) as Record<string, string>,
      createdAt: r.created_at,
    }));
  }

  /** Every file the kept versions of a design have, by relative path; where versions differ, the newest one's. */
  async keptAssets(accountId: number, id: number): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('design_versions')
      .select(['assets'])
      .where('design_id', '=', id)
      .where('account_id', '=', accountId)
      .orderBy('version')
      .execute();
    const out = new Map<string, string>();
    for (const r of rows) for (const [path, key] of Object.entries(JSON.parse(r.assets) as Record<string, string>)) out.set(path, key);
    return out;
  }

  /** Renames a design (its versions stay); undefined when it is not the account's. */
  async renameDesign(accountId: number, id: number, name: string, now: number): Promise<DesignSummary | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('designs').select('id').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      if (!exists) return undefined;
      await this.claimName(trx, accountId, name, id);
      const row = await trx
        .updateTable('designs')
        .set({ name, updated_at: now })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .returning(['id', 'account_id', 'kind', 'name', 'created_at', 'updated_at', 'version'])
        .executeTakeFirst();
      return row && toSummary(row);
    });
  }

  async listDesigns(accountId: number): Promise<DesignSummary[]> {
    const rows = await this.db
      .selectFrom('designs')
      .select(['id', 'account_id', 'kind', 'name', 'created_at', 'updated_at', 'version'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    return rows.map(toSummary);
  }

  async listDesignTemplates(accountId: number): Promise<(DesignSummary & { template: unknown; hasDraft: boolean })[]> {
    const rows = await this.db
      .selectFrom('designs')
      .select(['id', 'account_id', 'kind', 'name', 'created_at', 'updated_at', 'version', 'template'])
      .select((eb) => eb.exists(eb.selectFrom('design_drafts').select('design_id').whereRef('design_drafts.design_id', '=', 'designs.id')).as('has_draft'))
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({ ...toSummary(r), template: JSON.parse(r.template) as unknown, hasDraft: Boolean(r.has_draft) }));
  }

  /**
   * Deletes a design with its versions and draft; the blobs no other design uses are retired (kept
   * until `retireAfter` for renders that may still read them). Undefined when it is not the account's.
   */
  async deleteDesign(accountId: number, id: number, retireAfter: number): Promise<DesignRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('designs').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      if (!row) return undefined;
      const used = await trx.selectFrom('design_version_blobs').select('key').where('design_id', '=', id).execute();
      // The foreign keys would cascade; deleted one by one so nothing depends on the database enforcing them.
      await trx.deleteFrom('design_version_blobs').where('design_id', '=', id).execute();
      await trx.deleteFrom('design_versions').where('design_id', '=', id).execute();
      await trx.deleteFrom('design_drafts').where('design_id', '=', id).execute();
      await trx.deleteFrom('designs').where('id', '=', id).execute();
      await this.retireUnused(trx, [...used.map((r) => r.key), ...Object.values(JSON.parse(row.assets) as Record<string, string>)], retireAfter);
      return toDesign(row);
    });
  }

  // ── retired blobs ───────────────────────────────────────────────────────────────────────────
  /** Blobs to delete once `deleteAfter` has passed (a file may be shared: re-retiring keeps the later time). */
  async retireBlobs(keys: readonly string[], deleteAfter: number): Promise<void> {
    await this.retire(this.db, keys, deleteAfter);
  }

  /**
   * Retired blobs now due, removed from the list (the caller deletes their bytes). A due blob that a
   * design version uses again is only taken off the list: its bytes stay.
   */
  async takeDueBlobs(now: number, limit = 500): Promise<string[]> {
    await sql`delete from retired_blobs where delete_after <= ${now}
      and exists (select 1 from design_version_blobs b where b.key = retired_blobs.key)`.execute(this.db);
    const rows = await sql<{ key: string }>`
      delete from retired_blobs where key in (
        select r.key from retired_blobs r
        where r.delete_after <= ${now} and not exists (select 1 from design_version_blobs b where b.key = r.key)
        order by r.key limit ${limit})
      returning key`.execute(this.db);
    return rows.rows.map((r) => r.key);
  }
}
