// The metadata store's one entry point: a façade over the per-record query modules (accounts,
// designs and their versions, drafts, uploads, tasks, webhooks, idempotency), which all share one
// Kysely handle and dialect, so every query is still written once for SQLite and PostgreSQL.
// Callers keep one object and one API.
import type { Kysely } from 'kysely';
import { AccountQueries } from './accounts.js';
import type { MetadataConnection } from './connect.js';
import { DesignQueries, type DesignInput, type VersionInput, type VersionPage } from './designs.js';
import { DraftQueries, type DraftInput } from './drafts.js';
import { IdempotencyQueries } from './idempotency.js';
import type {
  Account,
  ApiKeyRecord,
  DesignDraftRecord,
  DesignRecord,
  DesignSummary,
  DesignVersionRecord,
  FontRecord,
  Plan,
  Role,
  TaskProgress,
  TaskRecord,
  TaskState,
  UploadRecord,
  WebhookDeliveryRecord,
} from './records.js';
import type { Tables } from './tables.js';
import { TaskQueries, type ClaimResult, type InsertRefusal, type NewTask, type TaskClaims, type TaskOutcome, type TaskPage } from './tasks.js';
import { UploadQueries } from './uploads.js';
import { FontQueries } from './fonts.js';
import { WebhookQueries, type DeliveryOutcome } from './webhooks.js';

// Callers import these from here, as before the split.
export { toMicros } from './common.js';
export type { ClaimResult, InsertRefusal, NewTask, TaskClaims, TaskOutcome, TaskPage, VideoAdmission } from './tasks.js';
export { nameTaken, versionConflict } from './designs.js';
export type { DesignInput, VersionInput, VersionPage } from './designs.js';
export type { DraftInput } from './drafts.js';
export type { DeliveryOutcome } from './webhooks.js';

export class MetadataStore implements TaskClaims {
  readonly db: Kysely<Tables>;
  private readonly accounts: AccountQueries;
  private readonly designs: DesignQueries;
  private readonly drafts: DraftQueries;
  private readonly uploads: UploadQueries;
  private readonly fonts: FontQueries;
  private readonly tasks: TaskQueries;
  private readonly webhooks: WebhookQueries;
  private readonly idempotency: IdempotencyQueries;

  constructor(readonly conn: MetadataConnection) {
    this.db = conn.db;
    this.accounts = new AccountQueries(conn.db);
    this.designs = new DesignQueries(conn.db, conn.dialect);
    this.drafts = new DraftQueries(conn.db);
    this.uploads = new UploadQueries(conn.db);
    this.fonts = new FontQueries(conn.db);
    this.tasks = new TaskQueries(conn.db, conn.dialect);
    this.webhooks = new WebhookQueries(conn.db, conn.dialect);
    this.idempotency = new IdempotencyQueries(conn.db);
  }

  get dialect() {
    return this.conn.dialect;
  }

  close(): Promise<void> {
    return this.conn.close();
  }

  // ── accounts and API keys (accounts.ts) ─────────────────────────────────────────────────────
  insertAccount(a: { name: string; plan: Plan; webhookSecret: string; balance: number; now: number }): Promise<Account> {
    return this.accounts.insertAccount(a);
  }

  getAccount(id: number): Promise<Account | undefined> {
    return this.accounts.getAccount(id);
  }

  findAccountByName(name: string): Promise<Account | undefined> {
    return this.accounts.findAccountByName(name);
  }

  countAccounts(): Promise<number> {
    return this.accounts.countAccounts();
  }

  setBalance(id: number, balance: number): Promise<Account | undefined> {
    return this.accounts.setBalance(id, balance);
  }

  addBalance(id: number, delta: number): Promise<Account | undefined | 'negative'> {
    return this.accounts.addBalance(id, delta);
  }

  setPlan(id: number, plan: Plan): Promise<Account | undefined> {
    return this.accounts.setPlan(id, plan);
  }

  insertKey(k: { accountId: number; role: Role; keyHash: string; keyPrefix: string; now: number }): Promise<ApiKeyRecord> {
    return this.accounts.insertKey(k);
  }

  findKey(keyHash: string): Promise<{ role: Role; account: Account } | undefined> {
    return this.accounts.findKey(keyHash);
  }

  listKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return this.accounts.listKeys(accountId);
  }

  // ── designs, their versions and retired blobs (designs.ts) ──────────────────────────────────
  /** A new design as its version 1; with `uniqueName`, a name the account already uses is refused (conflict). */
  insertDesign(d: DesignInput): Promise<DesignRecord> {
    return this.designs.insertDesign(d);
  }

  /** The next version of a design, made the latest (version_conflict when `baseVersion` is not the latest); old versions past `keep` go. */
  saveVersion(v: VersionInput): Promise<DesignRecord | undefined> {
    return this.designs.saveVersion(v);
  }

  /** A design with its latest version's template and files, or those of `version`. */
  getDesign(accountId: number, id: number, version?: number): Promise<DesignRecord | undefined> {
    return this.designs.getDesign(accountId, id, version);
  }

  /** The oldest and latest version a design keeps. */
  versionRange(accountId: number, id: number): Promise<{ oldest: number; latest: number } | undefined> {
    return this.designs.versionRange(accountId, id);
  }

  /** A design's kept versions, newest first. */
  listVersions(accountId: number, id: number, page: VersionPage): Promise<DesignVersionRecord[]> {
    return this.designs.listVersions(accountId, id, page);
  }

  /** The files of a design's kept versions by relative path (the newest version's where they differ). */
  keptAssets(accountId: number, id: number): Promise<Map<string, string>> {
    return this.designs.keptAssets(accountId, id);
  }

  /** Renames a design; a name another design of the account has is refused (conflict). */
  renameDesign(accountId: number, id: number, name: string, now: number): Promise<DesignSummary | undefined> {
    return this.designs.renameDesign(accountId, id, name, now);
  }

  /** The id of the account's design of this name, if any. */
  findDesignByName(accountId: number, name: string): Promise<number | undefined> {
    return this.designs.findDesignByName(accountId, name);
  }

  listDesigns(accountId: number): Promise<DesignSummary[]> {
    return this.designs.listDesigns(accountId);
  }

  /** An account's designs newest first, each with its template (the HTTP listing reads its size and length) and whether it has a draft. */
  listDesignTemplates(accountId: number): Promise<(DesignSummary & { template: unknown; hasDraft: boolean })[]> {
    return this.designs.listDesignTemplates(accountId);
  }

  /** Deletes a design, its versions and draft; blobs no other design uses are retired until `retireAfter`. */
  deleteDesign(accountId: number, id: number, retireAfter: number): Promise<DesignRecord | undefined> {
    return this.designs.deleteDesign(accountId, id, retireAfter);
  }

  retireBlobs(keys: readonly string[], deleteAfter: number): Promise<void> {
    return this.designs.retireBlobs(keys, deleteAfter);
  }

  takeDueBlobs(now: number, limit?: number): Promise<string[]> {
    return this.designs.takeDueBlobs(now, limit);
  }

  // ── design drafts (drafts.ts) ───────────────────────────────────────────────────────────────
  putDraft(d: DraftInput): Promise<DesignDraftRecord | undefined> {
    return this.drafts.putDraft(d);
  }

  getDraft(accountId: number, designId: number): Promise<DesignDraftRecord | undefined> {
    return this.drafts.getDraft(accountId, designId);
  }

  hasDraft(accountId: number, designId: number): Promise<boolean> {
    return this.drafts.hasDraft(accountId, designId);
  }

  deleteDraft(accountId: number, designId: number): Promise<boolean> {
    return this.drafts.deleteDraft(accountId, designId);
  }

  // ── uploads (uploads.ts) ────────────────────────────────────────────────────────────────────
  insertUpload(u: Omit<UploadRecord, 'id' | 'expiredAt'>): Promise<UploadRecord> {
    return this.uploads.insertUpload(u);
  }

  getUploadByToken(token: string): Promise<UploadRecord | undefined> {
    return this.uploads.getUploadByToken(token);
  }

  expireUploads(now: number, limit?: number): Promise<UploadRecord[]> {
    return this.uploads.expireUploads(now, limit);
  }

  // ── fonts (fonts.ts) ────────────────────────────────────────────────────────────────────────
  insertFont(f: Omit<FontRecord, 'id'>): Promise<{ font: FontRecord; created: boolean }> {
    return this.fonts.insertFont(f);
  }

  listFonts(accountId: number): Promise<FontRecord[]> {
    return this.fonts.listFonts(accountId);
  }

  getFont(accountId: number, id: number): Promise<FontRecord | undefined> {
    return this.fonts.getFont(accountId, id);
  }

  deleteFont(accountId: number, id: number): Promise<FontRecord | undefined> {
    return this.fonts.deleteFont(accountId, id);
  }

  // ── tasks (tasks.ts) ────────────────────────────────────────────────────────────────────────
  insertTask(t: NewTask): Promise<TaskRecord | InsertRefusal> {
    return this.tasks.insertTask(t);
  }

  getTask(id: number, accountId?: number): Promise<TaskRecord | undefined> {
    return this.tasks.getTask(id, accountId);
  }

  getTaskByResultToken(token: string): Promise<TaskRecord | undefined> {
    return this.tasks.getTaskByResultToken(token);
  }

  listTasks(accountId: number): Promise<TaskRecord[]> {
    return this.tasks.listTasks(accountId);
  }

  /** An account's tasks newest first, `limit` at a time, below the id `before` when given (the HTTP task list). */
  listRecentTasks(accountId: number, page: TaskPage): Promise<TaskRecord[]> {
    return this.tasks.listRecentTasks(accountId, page);
  }

  /** Interface B renders counted against today's limits: free ones queued, paid ones done or under way. */
  countDailyRenders(accountId: number, dayStart: number): Promise<{ demo: number; paid: number }> {
    return this.tasks.countDailyRenders(accountId, dayStart);
  }

  claimNext(workerId: string, now: number, leaseUntil: number): Promise<TaskRecord | undefined> {
    return this.tasks.claimNext(workerId, now, leaseUntil);
  }

  claimTask(id: number, workerId: string, now: number, leaseUntil: number): Promise<ClaimResult> {
    return this.tasks.claimTask(id, workerId, now, leaseUntil);
  }

  parkUndelivered(before: number): Promise<void> {
    return this.tasks.parkUndelivered(before);
  }

  park(id: number): Promise<void> {
    return this.tasks.park(id);
  }

  unpark(): Promise<number[]> {
    return this.tasks.unpark();
  }

  renewLeases(workerId: string, leaseUntil: number, taskIds: readonly number[]): Promise<void> {
    return this.tasks.renewLeases(workerId, leaseUntil, taskIds);
  }

  setTaskProgress(id: number, workerId: string, progress: TaskProgress): Promise<void> {
    return this.tasks.setTaskProgress(id, workerId, progress);
  }

  finishTask(id: number, workerId: string, o: TaskOutcome, now: number): Promise<TaskRecord | undefined> {
    return this.tasks.finishTask(id, workerId, o, now);
  }

  cancelQueuedTask(id: number, now: number, reason: string, code?: string): Promise<boolean> {
    return this.tasks.cancelQueuedTask(id, now, reason, code);
  }

  releaseTask(id: number, workerId: string, now: number): Promise<TaskRecord | undefined> {
    return this.tasks.releaseTask(id, workerId, now);
  }

  pendingHolders(): Promise<{ workerId: string; taskIds: number[] }[]> {
    return this.tasks.pendingHolders();
  }

  endLeases(workerId: string, taskIds: readonly number[], now: number): Promise<number> {
    return this.tasks.endLeases(workerId, taskIds, now);
  }

  recoverStalled(now: number, maxAttempts: number, reason: string): Promise<{ requeued: TaskRecord[]; failed: TaskRecord[] }> {
    return this.tasks.recoverStalled(now, maxAttempts, reason);
  }

  expireResults(before: number, now: number, limit?: number): Promise<TaskRecord[]> {
    return this.tasks.expireResults(before, now, limit);
  }

  countTasksByState(): Promise<Record<TaskState, number>> {
    return this.tasks.countTasksByState();
  }

  queuedIds(): Promise<number[]> {
    return this.tasks.queuedIds();
  }

  // ── idempotency keys (idempotency.ts) ───────────────────────────────────────────────────────
  findIdempotencyKey(accountId: number, key: string): Promise<{ requestHash: string; taskId: number; createdAt: number } | undefined> {
    return this.idempotency.findIdempotencyKey(accountId, key);
  }

  insertIdempotencyKey(k: { accountId: number; key: string; requestHash: string; taskId: number; now: number }): Promise<boolean> {
    return this.idempotency.insertIdempotencyKey(k);
  }

  setIdempotencyTask(accountId: number, key: string, taskId: number): Promise<void> {
    return this.idempotency.setIdempotencyTask(accountId, key, taskId);
  }

  deleteIdempotencyKey(accountId: number, key: string): Promise<void> {
    return this.idempotency.deleteIdempotencyKey(accountId, key);
  }

  deleteIdempotencyKeysBefore(before: number): Promise<number> {
    return this.idempotency.deleteIdempotencyKeysBefore(before);
  }

  // ── webhook outbox (webhooks.ts) ────────────────────────────────────────────────────────────
  claimWebhooks(sender: string, now: number, deadline: number, opts?: { taskId?: number; limit?: number }): Promise<WebhookDeliveryRecord[]> {
    return this.webhooks.claimWebhooks(sender, now, deadline, opts);
  }

  recordWebhook(id: number, sender: string, o: DeliveryOutcome, now: number): Promise<WebhookDeliveryRecord | undefined> {
    return this.webhooks.recordWebhook(id, sender, o, now);
  }

  abandonWebhooks(before: number, now: number, reason: string): Promise<WebhookDeliveryRecord[]> {
    return this.webhooks.abandonWebhooks(before, now, reason);
  }

  listWebhooks(accountId: number, opts?: { taskId?: number; limit?: number }): Promise<WebhookDeliveryRecord[]> {
    return this.webhooks.listWebhooks(accountId, opts);
  }
}
