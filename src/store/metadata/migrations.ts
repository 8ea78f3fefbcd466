// Schema migrations, one list for SQLite and PostgreSQL; only the id column differs by dialect.
// Append new migrations; never edit one that has shipped.
import { Migrator, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './dialect.js';

type IdColumn = <T extends string>(t: CreateTableBuilder<T, never>) => CreateTableBuilder<T, 'id'>;

function idColumn(dialect: Dialect): IdColumn {
  const build = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  return (t) => t.addColumn('id', 'integer', build);
}

function migrations(dialect: Dialect): Record<string, Migration> {
  const id = idColumn(dialect);
  return {
    '0001_service_core': {
      async up(db: Kysely<unknown>) {
        await id(db.schema.createTable('accounts'))
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('balance_micros', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('webhook_secret', 'text', (c) => c.notNull())
          .addColumn('plan', 'text', (c) => c.notNull())
          .addColumn('requests_per_minute', 'integer', (c) => c.notNull())
          .addColumn('concurrency', 'integer', (c) => c.notNull())
          .addColumn('queue_size', 'integer', (c) => c.notNull())
          .addColumn('daily_renders', 'integer', (c) => c.notNull())
          .addColumn('daily_demo_renders', 'integer', (c) => c.notNull())
          .addColumn('video_rates', 'text', (c) => c.notNull())
          .execute();
        await id(db.schema.createTable('api_keys'))
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('key_prefix', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await id(db.schema.createTable('designs'))
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('template', 'text', (c) => c.notNull())
          .addColumn('assets', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('designs_account').on('designs').columns(['account_id', 'id']).execute();
        await id(db.schema.createTable('uploads'))
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('token', 'text', (c) => c.notNull().unique())
          .addColumn('blob_key', 'text', (c) => c.notNull())
          .addColumn('content_type', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('expired_at', 'bigint')
          .execute();
        await db.schema.createIndex('uploads_expiry').on('uploads').columns(['expired_at', 'expires_at']).execute();
        await id(db.schema.createTable('tasks'))
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('design_id', 'integer', (c) => c.notNull())
          .addColumn('format', 'text', (c) => c.notNull())
          .addColumn('options', 'text', (c) => c.notNull())
          .addColumn('overrides', 'text', (c) => c.notNull())
          .addColumn('webhook_url', 'text')
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('result_key', 'text')
          .addColumn('poster_key', 'text')
          .addColumn('result_expired_at', 'bigint')
          .addColumn('error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('started_at', 'bigint')
          .addColumn('finished_at', 'bigint')
          .addColumn('state_at', 'bigint', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('worker_id', 'text')
          .addColumn('lease_until', 'bigint')
          .addColumn('parked', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('billed_duration', 'double precision')
          .addColumn('billed_price_micros', 'bigint')
          .execute();
        // The claim query walks queued tasks in id order; concurrency counts pending ones per account.
        await db.schema.createIndex('tasks_state_id').on('tasks').columns(['state', 'id']).execute();
        await db.schema.createIndex('tasks_account_state').on('tasks').columns(['account_id', 'state', 'id']).execute();
        await db.schema.createIndex('tasks_finished').on('tasks').columns(['finished_at']).execute();
      },
    },
    '0002_result_tokens_and_idempotency': {
      async up(db: Kysely<unknown>) {
        // Result URLs carry an unguessable token instead of the task id.
        await db.schema.alterTable('tasks').addColumn('result_token', 'text').execute();
        await db.schema.createIndex('tasks_result_token').on('tasks').column('result_token').unique().execute();
        await id(db.schema.createTable('idempotency_keys'))
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('request_hash', 'text', (c) => c.notNull())
          .addColumn('task_id', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('idempotency_account_key', ['account_id', 'key'])
          .execute();
      },
    },
    '0003_video_billing': {
      async up(db: Kysely<unknown>) {
        // Interface B: which interface queued the task, free (demo) mode, and the money held for a
        // paid render until it ends (charged on done, released on error).
        await db.schema
          .alterTable('tasks')
          .addColumn('api', 'text', (c) => c.notNull().defaultTo('a'))
          .execute();
        await db.schema
          .alterTable('tasks')
          .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable('tasks')
          .addColumn('reserved_micros', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('tasks_account_created').on('tasks').columns(['account_id', 'created_at']).execute();
      },
    },
    '0005_task_error_code': {
      async up(db: Kysely<unknown>) {
        // A failed task tells its caller why: a stable code beside the description in `error`.
        await db.schema.alterTable('tasks').addColumn('error_code', 'text').execute();
      },
    },
    '0004_retired_blobs': {
      async up(db: Kysely<unknown>) {
        // Files of replaced or deleted designs, kept until renders that may still read them are over.
        await db.schema
          .createTable('retired_blobs')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('delete_after', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    '0006_webhook_outbox': {
      async up(db: Kysely<unknown>) {
        // Written with the task's move to done/error (one transaction), so a crash cannot lose the
        // webhook; a delivery is claimed once and never sent again (at most once).
        await id(db.schema.createTable('webhook_deliveries'))
          .addColumn('task_id', 'integer', (c) => c.notNull().unique())
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('claimed_at', 'bigint')
          .addColumn('claimed_by', 'text')
          .addColumn('deadline_at', 'bigint')
          .addColumn('finished_at', 'bigint')
          .addColumn('http_status', 'integer')
          .addColumn('error', 'text')
          .addColumn('duration_ms', 'integer')
          .execute();
        // Senders look for pending and stale sending rows; admins list an account's deliveries.
        await db.schema.createIndex('webhook_deliveries_state').on('webhook_deliveries').columns(['state', 'id']).execute();
        await db.schema.createIndex('webhook_deliveries_account').on('webhook_deliveries').columns(['account_id', 'task_id']).execute();
      },
    },
    '0007_task_warnings': {
      async up(db: Kysely<unknown>) {
        // A done task says what it could not draw as meant (characters no font has): JSON, null when nothing.
        await db.schema.alterTable('tasks').addColumn('warnings', 'text').execute();
      },
    },
    '0008_account_fonts': {
      async up(db: Kysely<unknown>) {
        // An account's font library: files stored as sfnt in the blob store, described by what they
        // say about themselves, so a design of the account can name their family.
        await id(db.schema.createTable('fonts'))
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('family', 'text', (c) => c.notNull())
          .addColumn('weight', 'integer', (c) => c.notNull())
          .addColumn('weight_min', 'integer')
          .addColumn('weight_max', 'integer')
          .addColumn('style', 'text', (c) => c.notNull())
          .addColumn('format', 'text', (c) => c.notNull())
          .addColumn('hash', 'text', (c) => c.notNull())
          .addColumn('blob_key', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('coverage', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('fonts_account_hash', ['account_id', 'hash'])
          .execute();
        await db.schema.createIndex('fonts_account_family').on('fonts').columns(['account_id', 'family']).execute();
      },
    },
    '0009_tasks_account_id': {
      async up(db: Kysely<unknown>) {
        // The HTTP task list pages through an account's tasks newest first, by id.
        await db.schema.createIndex('tasks_account_id').on('tasks').columns(['account_id', 'id']).execute();
      },
    },
    '0010_task_progress': {
      async up(db: Kysely<unknown>) {
        // A rendering mp4's frames done and total and its ETA (JSON), written by whichever process
        // renders it, so the task's status and event stream show it wherever they are served.
        await db.schema.alterTable('tasks').addColumn('progress', 'text').execute();
      },
    },
    '0011_design_versions': {
      async up(db: Kysely<unknown>) {
        // Designs keep numbered versions (the latest is also copied into designs, where renders read
        // it), one autosaved draft each, and which blobs each version uses, so blobs shared between
        // versions or duplicated designs are retired only when nothing uses them. Every existing
        // design becomes version 1; a task records the version it renders.
        await db.schema
          .alterTable('designs')
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
        await db.schema
          .createTable('design_versions')
          .addColumn('design_id', 'integer', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('account_id', 'integer', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('template', 'text', (c) => c.notNull())
          .addColumn('assets', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('design_versions_pk', ['design_id', 'version'])
          .addForeignKeyConstraint('design_versions_design', ['design_id'], 'designs', ['id'], (fk) => fk.onDelete('cascade'))
          .execute();
        await db.schema
          .createTable('design_version_blobs')
          .addColumn('design_id', 'integer', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('design_version_blobs_pk', ['design_id', 'version', 'key'])
          .addForeignKeyConstraint('design_version_blobs_design', ['design_id'], 'designs', ['id'], (fk) => fk.onDelete('cascade'))
          .execute();
        // "Does anything still use this blob?" when versions or designs go.
        await db.schema.createIndex('design_version_blobs_key').on('design_version_blobs').column('key').execute();
        await db.schema
          .createTable('design_drafts')
          .addColumn('design_id', 'integer', (c) => c.primaryKey().references('designs.id').onDelete('cascade'))
          .addColumn('account_id', 'integer', (c) => c.notNull())
          .addColumn('base_version', 'integer', (c) => c.notNull())
          .addColumn('template', 'text', (c) => c.notNull())
          .addColumn('assets', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.alterTable('tasks').addColumn('design_version', 'integer').execute();
        // Existing designs as their version 1, a page at a time (the blob keys are read from each
        // design's assets JSON here, the same way on both databases).
        const designs = db as unknown as Kysely<{
          designs: { id: number; account_id: number; kind: string; template: string; assets: string; updated_at: number };
          design_versions: { design_id: number; version: number; account_id: number; kind: string; template: string; assets: string; created_at: number };
          design_version_blobs: { design_id: number; version: number; key: string };
        }>;
        for (let after = 0; ;) {
          const rows = await designs
            .selectFrom('designs')
            .select(['id', 'account_id', 'kind', 'template', 'assets', 'updated_at'])
            .where('id', '>', after)
            .orderBy('id')
            .limit(200)
            .execute();
          if (rows.length === 0) break;
          for (const r of rows) {
            await designs
              .insertInto('design_versions')
              .values({ design_id: r.id, version: 1, account_id: r.account_id, kind: r.kind, template: r.template, assets: r.assets, created_at: r.updated_at })
              .execute();
            const keys = [...new Set(Object.values(JSON.parse(r.assets) as Record<string, string>))];
            if (keys.length > 0)
              await designs
                .insertInto('design_version_blobs')
                .values(keys.map((key) => ({ design_id: r.id, version: 1, key })))
                .execute();
          }
          after = Number(rows.at(-1)!.id);
        }
      },
    },
  };
}

/** Runs the migrations not yet run, all of them or (tests of a migration) up to and including `target`. */
export async function migrate(db: Kysely<unknown>, dialect: Dialect, target?: string): Promise<void> {
  const all = migrations(dialect);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
  const { error, results } = target === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(target);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`metadata migration ${failed} failed: ${(error as Error).message}`, { cause: error });
  }
}
