// Accounts (with their plan and balance) and API keys: queries and the row → record mapping.
import type { Kysely, Selectable } from 'kysely';
import { ImprintError } from '../../errors.js';
import { fromMicros, toMicros, uniqueViolation } from './common.js';
import type { Account, ApiKeyRecord, Plan, Role } from './records.js';
import type { AccountsTable, Tables } from './tables.js';

type AccountRow = Selectable<AccountsTable>;

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

export class AccountQueries {
  constructor(private readonly db: Kysely<Tables>) {}

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

  /** Names are unique (a constraint of the table), so at most one account has this one. */
  async findAccountByName(name: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toAccount(row);
  }

  async countAccounts(): Promise<number> {
    const r = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async setBalance(id: number, balance: number): Promise<Account | undefined> {
    const row = await this.db
      .updateTable('accounts')
      .set({ balance_micros: toMicros(balance) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
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
}
