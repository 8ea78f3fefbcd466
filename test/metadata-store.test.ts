// The metadata store's contract, run against both backends: SQLite (the embedded default) and
// PostgreSQL (127.0.0.1:5432; skipped with a message when absent, required with CI=true).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMetadata } from '../src/store/metadata/connect.js';
import { MetadataStore } from '../src/store/metadata/metadata-store.js';
import type { Plan } from '../src/store/metadata/records.js';
import { freshPostgresDatabase, postgres } from './support/services.js';

const plan = (concurrency = 1, queueSize = 100): Plan => ({
  name: 'basic',
  requestsPerMinute: 50,
  concurrency,
  queueSize,
  dailyRenders: 1000,
  dailyDemoRenders: 30,
  videoRates: { sd_30: 0.01, sd_60: 0.015, hd_30: 0.02, hd_60: 0.03 },
});

interface Backend {
  name: string;
  skip: boolean;
  open(): Promise<{ url: string; cleanup: () => Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'imprint-meta-'));
      return { url: join(dir, 'imprint.db'), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgres.available,
    async open() {
      const db = await freshPostgresDatabase();
      return { url: db.url, cleanup: db.drop };
    },
  },
];

describe.each(backends)('metadata store on $name', (backend) => {
  let store: MetadataStore;
  let cleanup: () => Promise<void>;
  let url: string;
  const W = 'worker-a';

  beforeEach(async (t) => {
    if (backend.skip) return t.skip();
    const opened = await backend.open();
    cleanup = opened.cleanup;
    url = opened.url;
    store = new MetadataStore(await openMetadata(opened.url));
  });
  afterEach(async () => {
    if (backend.skip) return;
    await store.close();
    await cleanup();
  });

  const account = (name: string, concurrency = 1, queueSize = 100) =>
    store.insertAccount({ name, plan: plan(concurrency, queueSize), webhookSecret: 's', balance: 12.5, now: 1000 });
  const task = (accountId: number, now = 2000) =>
    store.insertTask({ accountId, designId: 1, format: 'png', options: {}, overrides: { t: { text: 'x' } }, webhookUrl: null, now });
  const queued = async (accountId: number, now?: number) => {
    const t = await task(accountId, now);
    if (typeof t === 'string') throw new Error(t);
    return t;
  };

  it('opens an existing database from a second connection and sees the same data', async () => {
    await account('a');
    const again = new MetadataStore(await openMetadata(url));
    expect(await again.countAccounts()).toBe(1);
    await again.close();
  });

  it('stores accounts with integer ids, exact balances and plans; names are unique', async () => {
    const a = await account('alpha');
    const b = await account('beta');
    expect(b.id).toBe(a.id + 1);
    expect(a).toMatchObject({ name: 'alpha', balance: 12.5, plan: plan() });
    await expect(account('alpha')).rejects.toMatchObject({ code: 'conflict', status: 409 });
    expect(await store.countAccounts()).toBe(2);
    expect((await store.setBalance(a.id, 0.000001))!.balance).toBe(0.000001);
    expect((await store.setPlan(a.id, { ...plan(3), name: 'pro' }))!.plan).toMatchObject({ name: 'pro', concurrency: 3 });
    expect(await store.getAccount(999)).toBeUndefined();
    expect(await store.findAccountByName('beta')).toMatchObject({ id: b.id, name: 'beta' });
    expect(await store.findAccountByName('gamma')).toBeUndefined();
    expect(await store.setBalance(999, 1)).toBeUndefined();
    expect((await store.addBalance(a.id, 2.5))!).toMatchObject({ balance: 2.500001 });
    expect(await store.addBalance(a.id, -3)).toBe('negative');
    expect(await store.addBalance(999, 1)).toBeUndefined();
  });

  it('finds keys by hash with their role; a duplicate key is refused', async () => {
    const a = await account('alpha');
    await store.insertKey({ accountId: a.id, role: 'member', keyHash: 'h1', keyPrefix: 'imp_abc', now: 1 });
    expect(await store.findKey('h1')).toMatchObject({ role: 'member', account: { id: a.id, name: 'alpha' } });
    expect(await store.findKey('nope')).toBeUndefined();
    await expect(store.insertKey({ accountId: a.id, role: 'admin', keyHash: 'h1', keyPrefix: 'imp_abc', now: 1 })).rejects.toMatchObject({ code: 'conflict' });
    expect(await store.listKeys(a.id)).toHaveLength(1);
  });

  it('keeps designs per account: another account cannot read, replace or delete them', async () => {
    const a = await account('alpha');
    const b = await account('beta');
    const d = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'card', template: { width: 10 }, assets: { 'p.png': 'designs/x/1' }, now: 5 });
    expect(await store.getDesign(a.id, d.id)).toMatchObject({ template: { width: 10 }, assets: { 'p.png': 'designs/x/1' } });
    expect(await store.getDesign(b.id, d.id)).toBeUndefined();
    const version = { kind: 'design' as const, template: {}, assets: {}, keep: 100, retireAfter: 1000 };
    expect(await store.saveVersion({ ...version, accountId: b.id, id: d.id, now: 6 })).toBeUndefined();
    expect(await store.renameDesign(b.id, d.id, 'x', 6)).toBeUndefined();
    expect(await store.deleteDesign(b.id, d.id, 1000)).toBeUndefined();
    expect(await store.putDraft({ accountId: b.id, designId: d.id, baseVersion: 1, template: {}, assets: {}, now: 6 })).toBeUndefined();
    const replaced = await store.saveVersion({ ...version, accountId: a.id, id: d.id, kind: 'video', name: 'v', template: { width: 20 }, now: 7 });
    expect(replaced).toMatchObject({ id: d.id, kind: 'video', name: 'v', template: { width: 20 }, createdAt: 5, updatedAt: 7, version: 2, latestVersion: 2 });
    expect((await store.listDesigns(a.id)).map((x) => x.id)).toEqual([d.id]);
    expect(await store.deleteDesign(a.id, d.id, 1000)).toMatchObject({ id: d.id });
    expect(await store.listDesigns(a.id)).toEqual([]);
  });

  it('keeps numbered versions: the latest in the design, any kept one by number, the oldest past `keep` dropped', async () => {
    const a = await account('alpha');
    const d = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'card', template: { v: 1 }, assets: { 'p.png': 'designs/x/1' }, now: 5 });
    expect(d).toMatchObject({ version: 1, latestVersion: 1 });
    const save = (n: number, baseVersion?: number, assets: Record<string, string> = { 'p.png': 'designs/x/1' }) =>
      store.saveVersion({
        accountId: a.id,
        id: d.id,
        kind: 'design',
        template: { v: n },
        assets,
        now: 5 + n,
        keep: 3,
        retireAfter: 1000,
        ...(baseVersion ? { baseVersion } : {}),
      });
    expect(await save(2, 1)).toMatchObject({ version: 2, template: { v: 2 } });
    // Saved on version 1 again: another save came first; nothing changes.
    await expect(save(3, 1)).rejects.toMatchObject({ code: 'version_conflict', path: '$.base_version', details: { latest_version: 2 } });
    expect(await store.getDesign(a.id, d.id)).toMatchObject({ version: 2, latestVersion: 2, template: { v: 2 } });
    expect(await store.getDesign(a.id, d.id, 1)).toMatchObject({ version: 1, latestVersion: 2, template: { v: 1 } });
    expect(await store.getDesign(a.id, d.id, 3)).toBeUndefined();
    // A version that uses a new file; then two more, past keep = 3: versions 1 and 2 go.
    await save(3, 2, { 'p.png': 'designs/y/2' });
    await save(4, 3, { 'p.png': 'designs/y/2' });
    expect(await store.versionRange(a.id, d.id)).toEqual({ oldest: 2, latest: 4 });
    await save(5, undefined, { 'p.png': 'designs/y/2' });
    expect(await store.versionRange(a.id, d.id)).toEqual({ oldest: 3, latest: 5 });
    expect((await store.listVersions(a.id, d.id, { limit: 2 })).map((v) => v.version)).toEqual([5, 4]);
    expect((await store.listVersions(a.id, d.id, { limit: 10, before: 4 })).map((v) => v.version)).toEqual([3]);
    expect(await store.getDesign(a.id, d.id, 1)).toBeUndefined();
    // designs/x/1 only versions 1 and 2 used: retired; designs/y/2 is still used.
    expect(await store.takeDueBlobs(1000)).toEqual(['designs/x/1']);
    expect([...(await store.keptAssets(a.id, d.id))]).toEqual([['p.png', 'designs/y/2']]);
  });

  it('retires a blob two designs share only when neither uses it; a retired blob used again is kept', async () => {
    const a = await account('alpha');
    const one = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'one', template: {}, assets: { 'p.png': 'designs/s/1' }, now: 5 });
    const two = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'two', template: {}, assets: { 'q.png': 'designs/s/1' }, now: 6 });
    await store.deleteDesign(a.id, one.id, 100);
    expect(await store.takeDueBlobs(100)).toEqual([]);
    await store.deleteDesign(a.id, two.id, 200);
    // Retired; then a new design uses it before it is due: it is taken off the list, its bytes kept.
    const three = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'three', template: {}, assets: { 'p.png': 'designs/s/1' }, now: 7 });
    expect(await store.takeDueBlobs(300)).toEqual([]);
    await store.deleteDesign(a.id, three.id, 400);
    // Listed again, and used again after it is due but before the sweep: still not deleted.
    await store.insertDesign({ accountId: a.id, kind: 'design', name: 'four', template: {}, assets: { 'p.png': 'designs/s/1' }, now: 8 });
    await store.retireBlobs(['designs/s/1'], 400);
    expect(await store.takeDueBlobs(500)).toEqual([]);
  });

  it('refuses a name another design of the account has when asked, and on rename; other accounts may use it', async () => {
    const a = await account('alpha');
    const b = await account('beta');
    const one = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'Card', template: {}, assets: {}, now: 5, uniqueName: true });
    await expect(
      store.insertDesign({ accountId: a.id, kind: 'design', name: 'Card', template: {}, assets: {}, now: 6, uniqueName: true }),
    ).rejects.toMatchObject({
      code: 'conflict',
      path: '$.name',
    });
    await store.insertDesign({ accountId: b.id, kind: 'design', name: 'Card', template: {}, assets: {}, now: 6, uniqueName: true });
    const two = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'Other', template: {}, assets: {}, now: 7, uniqueName: true });
    await expect(store.renameDesign(a.id, two.id, 'Card', 8)).rejects.toMatchObject({ code: 'conflict' });
    expect(await store.renameDesign(a.id, one.id, 'Card', 9)).toMatchObject({ name: 'Card', updatedAt: 9 });
    expect(await store.renameDesign(a.id, two.id, 'Renamed', 10)).toMatchObject({ name: 'Renamed', updatedAt: 10, latestVersion: 1 });
    expect(await store.findDesignByName(a.id, 'Renamed')).toBe(two.id);
    // Concurrent inserts of one name: exactly one wins.
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        store.insertDesign({ accountId: a.id, kind: 'design', name: 'Race', template: {}, assets: {}, now: 20 + i, uniqueName: true }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('keeps one draft per design, dropped by a save that asks for it and with the design', async () => {
    const a = await account('alpha');
    const d = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'card', template: { v: 1 }, assets: {}, now: 5 });
    expect(await store.getDraft(a.id, d.id)).toBeUndefined();
    await store.putDraft({ accountId: a.id, designId: d.id, baseVersion: 1, template: { objects: [{ type: 'nope' }] }, assets: { 'a.png': 'u' }, now: 6 });
    expect(await store.putDraft({ accountId: a.id, designId: d.id, baseVersion: 1, template: { v: 'second' }, assets: {}, now: 7 })).toMatchObject({
      baseVersion: 1,
      template: { v: 'second' },
      updatedAt: 7,
    });
    expect(await store.hasDraft(a.id, d.id)).toBe(true);
    expect((await store.listDesignTemplates(a.id))[0]).toMatchObject({ id: d.id, hasDraft: true });
    // A save without dropDraft (a zip replace) keeps it; one with it drops it.
    const save = { accountId: a.id, id: d.id, kind: 'design' as const, template: { v: 2 }, assets: {}, now: 8, keep: 100, retireAfter: 1000 };
    await store.saveVersion(save);
    expect(await store.hasDraft(a.id, d.id)).toBe(true);
    await store.saveVersion({ ...save, baseVersion: 2, dropDraft: true });
    expect(await store.getDraft(a.id, d.id)).toBeUndefined();
    await store.putDraft({ accountId: a.id, designId: d.id, baseVersion: 3, template: {}, assets: {}, now: 9 });
    expect(await store.deleteDraft(a.id, d.id)).toBe(true);
    expect(await store.deleteDraft(a.id, d.id)).toBe(false);
    await store.putDraft({ accountId: a.id, designId: d.id, baseVersion: 3, template: {}, assets: {}, now: 9 });
    await store.deleteDesign(a.id, d.id, 1000);
    expect(await store.getDraft(a.id, d.id)).toBeUndefined();
  });

  it('makes every design of a database from before versions its version 1, with the blobs it uses', async () => {
    const opened = await backend.open();
    try {
      const before = await openMetadata(opened.url, { migrateTo: '0010_task_progress' });
      const [acc] = (
        await sql<{ id: number }>`insert into accounts (name, created_at, balance_micros, webhook_secret, plan, requests_per_minute, concurrency,
          queue_size, daily_renders, daily_demo_renders, video_rates) values ('old', 1, 0, 's', 'basic', 50, 1, 100, 1000, 30, '{}') returning id`.execute(
          before.db,
        )
      ).rows;
      for (const [name, assets] of [
        ['one', { 'a.png': 'designs/o/1', 'b.png': 'designs/o/2' }],
        ['two', {}],
      ] as const) {
        await sql`insert into designs (account_id, kind, name, template, assets, created_at, updated_at)
          values (${acc!.id}, 'design', ${name}, ${JSON.stringify({ width: 10, name })}, ${JSON.stringify(assets)}, 1, 2)`.execute(before.db);
      }
      await before.close();
      const after = new MetadataStore(await openMetadata(opened.url));
      const [one, two] = await after.listDesigns(acc!.id);
      expect(one).toMatchObject({ name: 'one', latestVersion: 1 });
      expect(await after.getDesign(acc!.id, one!.id, 1)).toMatchObject({
        version: 1,
        template: { width: 10, name: 'one' },
        assets: { 'a.png': 'designs/o/1' },
      });
      expect(await after.listVersions(acc!.id, two!.id, { limit: 5 })).toEqual([
        { designId: two!.id, version: 1, kind: 'design', template: { width: 10, name: 'two' }, assets: {}, createdAt: 2 },
      ]);
      // Its blobs are known as used: a copy keeps them when the original goes.
      await after.insertDesign({ accountId: acc!.id, kind: 'design', name: 'copy', template: {}, assets: { 'a.png': 'designs/o/1' }, now: 3 });
      await after.deleteDesign(acc!.id, one!.id, 10);
      expect(await after.takeDueBlobs(10)).toEqual(['designs/o/2']);
      await after.close();
    } finally {
      await opened.cleanup();
    }
  });

  it('records the design version a task renders', async () => {
    const a = await account('alpha');
    const t = await store.insertTask({ accountId: a.id, designId: 1, designVersion: 4, format: 'png', options: {}, overrides: {}, webhookUrl: null, now: 1 });
    if (typeof t === 'string') throw new Error(t);
    expect(t.designVersion).toBe(4);
    expect((await store.getTask(t.id))!.designVersion).toBe(4);
    expect((await queued(a.id)).designVersion).toBeNull();
  });

  it('expires uploads once, after their expiry time', async () => {
    const a = await account('alpha');
    const u = await store.insertUpload({
      accountId: a.id,
      token: 't1',
      blobKey: 'uploads/1/t1.png',
      contentType: 'image/png',
      size: 3,
      createdAt: 0,
      expiresAt: 100,
    });
    expect(await store.getUploadByToken('t1')).toMatchObject({ id: u.id, expiredAt: null });
    expect(await store.expireUploads(99)).toEqual([]);
    expect((await store.expireUploads(100)).map((x) => x.token)).toEqual(['t1']);
    expect(await store.expireUploads(200)).toEqual([]);
    expect((await store.getUploadByToken('t1'))!.expiredAt).toBe(100);
  });

  it('refuses a task beyond the plan queue size (queued + pending)', async () => {
    const a = await account('alpha', 1, 2);
    await queued(a.id);
    await queued(a.id);
    expect(await task(a.id)).toBe('queue_full');
    await store.claimNext(W, 3000, 9000);
    expect(await task(a.id)).toBe('queue_full');
    const running = (await store.listTasks(a.id)).find((t) => t.state === 'pending')!;
    await store.finishTask(running.id, W, { state: 'done', resultKey: 'r' }, 4000);
    expect(await task(a.id)).not.toBe('queue_full');
  });

  it('claims FIFO, at most the account concurrency, without starving other accounts', async () => {
    const a = await account('alpha', 2);
    const b = await account('beta', 1);
    const a1 = await queued(a.id);
    const a2 = await queued(a.id);
    const a3 = await queued(a.id);
    const b1 = await queued(b.id);
    const c1 = await store.claimNext(W, 3000, 9000);
    const c2 = await store.claimNext(W, 3000, 9000);
    const c3 = await store.claimNext(W, 3000, 9000);
    expect([c1!.id, c2!.id, c3!.id]).toEqual([a1.id, a2.id, b1.id]);
    expect(c1).toMatchObject({ state: 'pending', workerId: W, leaseUntil: 9000, attempts: 1, startedAt: 3000 });
    expect(await store.claimNext(W, 3000, 9000)).toBeUndefined();
    await store.finishTask(a1.id, W, { state: 'done', resultKey: 'r1' }, 3500);
    expect((await store.claimNext(W, 3600, 9000))!.id).toBe(a3.id);
    expect(await store.countTasksByState()).toEqual({ queued: 0, pending: 3, done: 1, error: 0 });
  });

  it('claims a given task only in its account order and within its concurrency', async () => {
    const a = await account('alpha', 1);
    const a1 = await queued(a.id);
    const a2 = await queued(a.id);
    expect(await store.claimTask(a2.id, W, 3000, 9000)).toEqual({ waiting: true });
    const first = await store.claimTask(a1.id, W, 3000, 9000);
    expect('claimed' in first && first.claimed.id).toBe(a1.id);
    expect(await store.claimTask(a1.id, W, 3000, 9000)).toEqual({ gone: true });
    expect(await store.claimTask(a2.id, W, 3000, 9000)).toEqual({ waiting: true });
    await store.park(a2.id);
    expect(await store.unpark()).toEqual([]);
    await store.finishTask(a1.id, W, { state: 'done' }, 3500);
    expect(await store.unpark()).toEqual([a2.id]);
    expect(await store.unpark()).toEqual([]);
    expect('claimed' in (await store.claimTask(a2.id, W, 3600, 9000))).toBe(true);
    expect(await store.claimTask(12345, W, 1, 2)).toEqual({ gone: true });
  });

  it('parks queued tasks that were not delivered within a lease, so they are handed out again', async () => {
    const a = await account('alpha');
    const t1 = await queued(a.id, 1000);
    const t2 = await queued(a.id, 5000);
    await store.parkUndelivered(2000);
    expect(await store.unpark()).toEqual([t1.id]);
    await store.parkUndelivered(6000);
    // One id per account and round, oldest first.
    expect(await store.unpark()).toEqual([t1.id]);
    expect(await store.unpark()).toEqual([t2.id]);
    expect(await store.unpark()).toEqual([]);
  });

  it('keeps retired blobs until they are due, a re-retired one until its later time', async () => {
    await store.retireBlobs(['designs/a/1', 'designs/a/2', 'designs/a/1'], 100);
    await store.retireBlobs(['designs/a/2'], 200);
    expect(await store.takeDueBlobs(99)).toEqual([]);
    expect(await store.takeDueBlobs(150)).toEqual(['designs/a/1']);
    expect(await store.takeDueBlobs(150)).toEqual([]);
    expect(await store.takeDueBlobs(200)).toEqual(['designs/a/2']);
  });

  it('only the worker holding a task can finish or release it', async () => {
    const a = await account('alpha');
    const t = await queued(a.id);
    await store.claimNext(W, 3000, 9000);
    expect(await store.finishTask(t.id, 'other-worker', { state: 'done' }, 4000)).toBeUndefined();
    expect(await store.releaseTask(t.id, 'other-worker', 4000)).toBeUndefined();
    const released = await store.releaseTask(t.id, W, 4000);
    expect(released).toMatchObject({ state: 'queued', attempts: 0, workerId: null });
    await store.claimNext(W, 5000, 9000);
    const done = await store.finishTask(t.id, W, { state: 'error', error: 'why' }, 6000);
    expect(done).toMatchObject({ state: 'error', error: 'why', finishedAt: 6000, stateAt: 6000, workerId: null, resultKey: null });
  });

  it('requeues a stalled task once, then puts it in error', async () => {
    const a = await account('alpha');
    const t = await queued(a.id);
    await store.claimNext(W, 3000, 4000);
    await store.renewLeases(W, 5000, [t.id]);
    expect(await store.recoverStalled(4500, 2, 'stalled')).toEqual({ requeued: [], failed: [] });
    const first = await store.recoverStalled(5001, 2, 'stalled');
    expect(first.requeued.map((x) => [x.id, x.state, x.attempts])).toEqual([[t.id, 'queued', 1]]);
    await store.claimNext('worker-b', 6000, 7000);
    const second = await store.recoverStalled(7001, 2, 'stalled');
    expect(second.requeued).toEqual([]);
    expect(second.failed.map((x) => [x.id, x.state, x.error, x.attempts])).toEqual([[t.id, 'error', 'stalled', 2]]);
  });

  it('expires results finished before the cut-off, once', async () => {
    const a = await account('alpha');
    const t1 = await queued(a.id);
    await store.claimNext(W, 1, 100);
    await store.finishTask(t1.id, W, { state: 'done', resultKey: 'results/1/1.png' }, 10);
    const t2 = await queued(a.id);
    await store.claimNext(W, 1, 100);
    await store.finishTask(t2.id, W, { state: 'error', error: 'x' }, 10);
    expect(await store.expireResults(9, 50)).toEqual([]);
    expect((await store.expireResults(10, 50)).map((x) => x.id)).toEqual([t1.id]);
    expect(await store.expireResults(10, 60)).toEqual([]);
    expect((await store.getTask(t1.id))!.resultExpiredAt).toBe(50);
  });

  it('reads tasks only within their account', async () => {
    const a = await account('alpha');
    const b = await account('beta');
    const t = await queued(a.id);
    expect(await store.getTask(t.id, a.id)).toMatchObject({ id: t.id, overrides: { t: { text: 'x' } }, options: {} });
    expect(await store.getTask(t.id, b.id)).toBeUndefined();
  });

  it('holds money for paid video tasks so concurrent inserts never overdraw, and charges once on done', async () => {
    const a = await store.insertAccount({ name: 'payer', plan: plan(1, 1000), webhookSecret: 's', balance: 0.05, now: 1000 });
    const video = { demo: false, reserve: 0.01, dayStart: 0, dailyLimit: 1000 };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        store.insertTask({ accountId: a.id, designId: 1, format: 'mp4', options: {}, overrides: [], webhookUrl: null, now: 2000, video }),
      ),
    );
    expect(results.filter((r) => typeof r !== 'string')).toHaveLength(5);
    expect(results.filter((r) => r === 'insufficient_funds')).toHaveLength(15);
    const t = await store.claimNext(W, 3000, 9000);
    expect(t).toMatchObject({ api: 'b', demo: false, reserved: 0.01 });
    const done = await store.finishTask(t!.id, W, { state: 'done', charge: 0.01, billedDuration: 1 }, 4000);
    expect(done).toMatchObject({ billedPrice: 0.01, reserved: 0 });
    expect((await store.getAccount(a.id))!.balance).toBe(0.04);
    // The charge freed nothing new: four held, nothing available.
    expect(await store.insertTask({ accountId: a.id, designId: 1, format: 'mp4', options: {}, overrides: [], webhookUrl: null, now: 5000, video })).toBe(
      'insufficient_funds',
    );
    const next = await store.claimNext(W, 6000, 9000);
    await store.finishTask(next!.id, W, { state: 'error', error: 'x' }, 7000);
    expect((await store.getAccount(a.id))!.balance).toBe(0.04);
    expect(
      typeof (await store.insertTask({ accountId: a.id, designId: 1, format: 'mp4', options: {}, overrides: [], webhookUrl: null, now: 8000, video })),
    ).toBe('object');
  });

  it('counts daily video limits: demo tasks when queued, paid ones when done', async () => {
    const a = await account('daily', 1, 1000);
    const demo = { demo: true, reserve: 0, dayStart: 10_000, dailyLimit: 2 };
    const insert = (v: typeof demo, now: number) =>
      store.insertTask({ accountId: a.id, designId: 1, format: 'mp4', options: {}, overrides: [], webhookUrl: null, now, video: v });
    expect(typeof (await insert(demo, 9_000))).toBe('object');
    expect(typeof (await insert(demo, 10_500))).toBe('object');
    expect(typeof (await insert(demo, 10_600))).toBe('object');
    expect(await insert(demo, 10_700)).toBe('daily_limit_exceeded');
    // What the account page shows is what the limit counts: two demo renders today, the one of yesterday not.
    expect(await store.countDailyRenders(a.id, 10_000)).toEqual({ demo: 2, paid: 0 });
    // Paid renders count when done, and while queued or rendering (they may still succeed).
    const b = await account('daily-paid', 1, 1000);
    const paid = { demo: false, reserve: 0, dayStart: 10_000, dailyLimit: 1 };
    const insertPaid = (now: number) =>
      store.insertTask({ accountId: b.id, designId: 1, format: 'mp4', options: {}, overrides: [], webhookUrl: null, now, video: paid });
    const first = await insertPaid(10_800);
    expect(typeof first).toBe('object');
    expect(await insertPaid(10_800)).toBe('daily_limit_exceeded');
    await store.claimTask((first as { id: number }).id, W, 10_900, 99_000);
    await store.finishTask((first as { id: number }).id, W, { state: 'error', error: 'x' }, 11_000);
    const second = await insertPaid(11_100);
    expect(typeof second).toBe('object');
    await store.claimTask((second as { id: number }).id, W, 11_200, 99_000);
    await store.finishTask((second as { id: number }).id, W, { state: 'done', charge: 0 }, 11_300);
    expect(await insertPaid(11_400)).toBe('daily_limit_exceeded');
    // The failed one does not count, the done one does; the next day starts from none.
    expect(await store.countDailyRenders(b.id, 10_000)).toEqual({ demo: 0, paid: 1 });
    expect(await store.countDailyRenders(b.id, 20_000)).toEqual({ demo: 0, paid: 0 });
    expect(
      typeof (await store.insertTask({
        accountId: b.id,
        designId: 1,
        format: 'mp4',
        options: {},
        overrides: [],
        webhookUrl: null,
        now: 20_000,
        video: { ...paid, dayStart: 20_000 },
      })),
    ).toBe('object');
  });

  it('lists an account’s tasks newest first, a page at a time, without other accounts’ tasks', async () => {
    const a = await account('alpha', 1, 1000);
    const b = await account('beta', 1, 1000);
    const mine: number[] = [];
    for (let i = 0; i < 5; i++) {
      mine.push((await queued(a.id, 2000 + i)).id);
      await queued(b.id);
    }
    const newest = [...mine].reverse();
    const page = async (limit: number, before?: number) =>
      (await store.listRecentTasks(a.id, { limit, ...(before === undefined ? {} : { before }) })).map((t) => t.id);
    expect(await page(100)).toEqual(newest);
    expect(await page(2)).toEqual(newest.slice(0, 2));
    expect(await page(2, newest[1])).toEqual(newest.slice(2, 4));
    expect(await page(10, newest[4])).toEqual([]);
    expect((await store.listRecentTasks(a.id, { limit: 1 }))[0]).toMatchObject({ accountId: a.id, state: 'queued', createdAt: 2004 });
    expect(await store.listRecentTasks(999, { limit: 10 })).toEqual([]);
  });

  it('lists designs with their templates newest first', async () => {
    const a = await account('alpha');
    const b = await account('beta');
    const d1 = await store.insertDesign({ accountId: a.id, kind: 'design', name: 'one', template: { width: 10, height: 20 }, assets: {}, now: 5 });
    const d2 = await store.insertDesign({ accountId: a.id, kind: 'video', name: 'two', template: { width: 30, height: 40, slides: [] }, assets: {}, now: 6 });
    await store.insertDesign({ accountId: b.id, kind: 'design', name: 'theirs', template: {}, assets: {}, now: 7 });
    expect(await store.listDesignTemplates(a.id)).toEqual([
      {
        id: d2.id,
        accountId: a.id,
        kind: 'video',
        name: 'two',
        createdAt: 6,
        updatedAt: 6,
        latestVersion: 1,
        hasDraft: false,
        template: { width: 30, height: 40, slides: [] },
      },
      {
        id: d1.id,
        accountId: a.id,
        kind: 'design',
        name: 'one',
        createdAt: 5,
        updatedAt: 5,
        latestVersion: 1,
        hasDraft: false,
        template: { width: 10, height: 20 },
      },
    ]);
  });

  const hooked = async (accountId: number, url = 'https://example.com/hook') => {
    const t = await store.insertTask({ accountId, designId: 1, format: 'png', options: {}, overrides: {}, webhookUrl: url, now: 2000 });
    if (typeof t === 'string') throw new Error(t);
    return t;
  };

  it('queues the webhook in the transaction that ends the task, on every path to done or error', async () => {
    const a = await account('alpha', 5, 100);
    const plain = await queued(a.id);
    const done = await hooked(a.id, 'https://example.com/done');
    const failed = await hooked(a.id, 'https://example.com/failed');
    const stalled = await hooked(a.id, 'https://example.com/stalled');
    const cancelled = await hooked(a.id, 'https://example.com/cancelled');
    // Taken in id order: plain, done, failed, stalled.
    for (let i = 0; i < 4; i++) await store.claimNext(W, 3000, 9000);
    expect(await store.finishTask(plain.id, W, { state: 'done', resultKey: 'r' }, 4000)).toBeDefined();
    // A worker that lost the task queues nothing.
    expect(await store.finishTask(done.id, 'other-worker', { state: 'done', resultKey: 'r' }, 4000)).toBeUndefined();
    expect(await store.listWebhooks(a.id)).toEqual([]);
    await store.finishTask(done.id, W, { state: 'done', resultKey: 'r' }, 4000);
    await store.finishTask(failed.id, W, { state: 'error', error: 'why', errorCode: 'render_failed' }, 4100);
    await store.renewLeases(W, 5000, [stalled.id]);
    await store.recoverStalled(5001, 1, 'stalled');
    expect(await store.cancelQueuedTask(cancelled.id, 6000, 'duplicate')).toBe(true);
    expect(await store.cancelQueuedTask(cancelled.id, 6000, 'duplicate')).toBe(false);
    const rows = await store.listWebhooks(a.id);
    expect(rows.map((d) => [d.taskId, d.url, d.state, d.createdAt])).toEqual([
      [cancelled.id, 'https://example.com/cancelled', 'pending', 6000],
      [stalled.id, 'https://example.com/stalled', 'pending', 5001],
      [failed.id, 'https://example.com/failed', 'pending', 4100],
      [done.id, 'https://example.com/done', 'pending', 4000],
    ]);
    expect(rows.every((d) => d.accountId === a.id && d.claimedAt === null && d.httpStatus === null && d.error === null)).toBe(true);
    expect(await store.listWebhooks(a.id, { taskId: failed.id })).toHaveLength(1);
    expect(await store.listWebhooks((await account('beta')).id)).toEqual([]);

    // Atomic: when the delivery cannot be written, the task does not end either (it stays the
    // worker's, so it is finished again or recovered, and its webhook is queued then).
    const last = await hooked(a.id);
    await store.claimNext(W, 7000, 9000);
    await sql`drop table webhook_deliveries`.execute(store.db);
    await expect(store.finishTask(last.id, W, { state: 'done', resultKey: 'r' }, 8000)).rejects.toThrow();
    expect(await store.getTask(last.id)).toMatchObject({ state: 'pending', workerId: W, finishedAt: null });
  });

  it('claims each pending delivery for exactly one sender, even with many claiming at once', async () => {
    const a = await account('alpha', 40, 100);
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push((await hooked(a.id)).id);
    for (let i = 0; i < 30; i++) await store.claimNext(W, 3000, 9000);
    for (const id of ids) await store.finishTask(id, W, { state: 'done', resultKey: 'r' }, 4000);
    // Twelve claimers on this connection pool and four on a second connection to the same database.
    const other = new MetadataStore(await openMetadata(url));
    try {
      const claims = await Promise.all([
        ...Array.from({ length: 12 }, (_, i) => store.claimWebhooks(`s${i}`, 5000, 6000, { limit: 4 })),
        ...Array.from({ length: 4 }, (_, i) => other.claimWebhooks(`o${i}`, 5000, 6000, { limit: 4 })),
      ]);
      const claimed = claims.flat();
      expect(claimed.map((d) => d.taskId).sort((x, y) => x - y)).toEqual(ids);
      expect(new Set(claimed.map((d) => d.id)).size).toBe(30);
      expect(claimed.every((d) => d.state === 'sending' && d.claimedAt === 5000 && d.deadlineAt === 6000)).toBe(true);
      // Nothing is pending any more: a claimed delivery is never handed out again.
      expect(await store.claimWebhooks('late', 7000, 8000, { limit: 100 })).toEqual([]);
      expect(await other.claimWebhooks('late', 7000, 8000, { taskId: ids[0]! })).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('records the outcome once by its sender; a sender that died is marked abandoned, never claimed again', async () => {
    const a = await account('alpha', 5, 100);
    const [t1, t2, t3] = [await hooked(a.id), await hooked(a.id), await hooked(a.id)];
    for (let i = 0; i < 3; i++) await store.claimNext(W, 3000, 9000);
    for (const t of [t1, t2, t3]) await store.finishTask(t.id, W, { state: 'done', resultKey: 'r' }, 4000);
    // The hook's path: the delivery of one given task.
    const [d1] = await store.claimWebhooks('alive', 5000, 6000, { taskId: t1.id });
    expect(d1).toMatchObject({ taskId: t1.id, state: 'sending', claimedBy: 'alive' });
    expect(await store.recordWebhook(d1!.id, 'someone-else', { delivered: true, status: 200, ms: 5 }, 5100)).toBeUndefined();
    expect(await store.recordWebhook(d1!.id, 'alive', { delivered: true, status: 200, ms: 12.4 }, 5100)).toMatchObject({
      state: 'sent',
      httpStatus: 200,
      error: null,
      finishedAt: 5100,
      durationMs: 12,
    });
    const [d2, d3] = await store.claimWebhooks('dies', 5000, 6000);
    expect([d2!.taskId, d3!.taskId]).toEqual([t2.id, t3.id]);
    await store.recordWebhook(d3!.id, 'dies', { delivered: false, status: 500, error: 'receiver answered 500', ms: 3 }, 5200);
    // Not before its deadline has passed (plus the caller's margin) …
    expect(await store.abandonWebhooks(6000, 6500, 'gone')).toEqual([]);
    // … then abandoned, with the reason; a finished one is left alone.
    const abandoned = await store.abandonWebhooks(6001, 11_000, 'gone');
    expect(abandoned.map((d) => [d.taskId, d.state, d.error, d.finishedAt])).toEqual([[t2.id, 'abandoned', 'gone', 11_000]]);
    expect(await store.claimWebhooks('next', 12_000, 13_000)).toEqual([]);
    expect(await store.abandonWebhooks(99_000, 99_000, 'gone')).toEqual([]);
    // A sender that was only late records what really happened over the mark.
    const late = await store.recordWebhook(d2!.id, 'dies', { delivered: false, error: 'timed out after 1000 ms', ms: 1000 }, 12_000);
    expect(late).toMatchObject({ state: 'failed' });
    const byTask = new Map((await store.listWebhooks(a.id)).map((d) => [d.taskId, d]));
    expect(byTask.get(t3.id)).toMatchObject({ state: 'failed', httpStatus: 500, error: 'receiver answered 500' });
    expect(byTask.get(t2.id)).toMatchObject({ state: 'failed', error: 'timed out after 1000 ms' });
  });

  it('never overruns an account concurrency under concurrent claims', async () => {
    const a = await account('alpha', 2);
    for (let i = 0; i < 10; i++) await queued(a.id);
    // Twelve claimers at once (PostgreSQL: ten pooled connections in parallel).
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => store.claimNext(`w${i}`, 3000, 9000)));
    expect(claims.filter(Boolean)).toHaveLength(2);
    expect((await store.countTasksByState()).pending).toBe(2);
  });
});
