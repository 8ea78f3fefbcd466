// The service core as one object: opens the three stores named by the configuration and offers
// what the HTTP adapters, the CLI and tests call. Framework-free; no HTTP here.
import { listWebhookDeliveries } from './webhook-outbox.js';
import { pino, type Logger } from 'pino';
import { openBlobStore } from '../store/blobs/open.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import { openMetadata } from '../store/metadata/connect.js';
import { MetadataStore } from '../store/metadata/metadata-store.js';
import type { TaskPage } from '../store/metadata/metadata-store.js';
import type { Account, DesignRecord, Role } from '../store/metadata/records.js';
import { LocalQueue } from '../store/queue/local.js';
import type { TaskQueue } from '../store/queue/task-queue.js';
import type { RenderPool } from '../render/pool.js';
import * as accounts from './accounts.js';
import type { ServiceConfig } from './config.js';
import type { ServiceContext } from './context.js';
import { accountView } from './account-view.js';
import * as designDrafts from './design-drafts.js';
import * as designInfo from './design-info.js';
import * as designVersions from './design-versions.js';
import * as designZip from './design-zip.js';
import * as designs from './designs.js';
import * as files from './files.js';
import * as fonts from './fonts.js';
import { Metrics } from './metrics.js';
import * as preview from './preview.js';
import * as renders from './renders.js';
import { sweep } from './retention.js';
import * as tasks from './tasks.js';
import * as uploads from './uploads.js';
import * as videos from './videos.js';
import { newWorkerId } from './holder.js';
import type { DraftRequest, DuplicateRequest, NewDesignRequest, RenameRequest, SaveVersionRequest } from './shapes.js';

export interface OpenOptions {
  clock?: () => number;
  log?: Logger;
  /** Poll interval of the queue for work committed by other processes. */
  queuePollMs?: number;
}

/** Logs go to stderr, so commands can print their result on stdout. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { pid: process.pid } }, pino.destination({ fd: 2, sync: false }));
}

/** Redis errors repeat on every reconnect attempt: log the first, then at most one a minute. */
function redisErrorLog(log: Logger): (e: Error) => void {
  let last = 0;
  let dropped = 0;
  return (e) => {
    const now = Date.now();
    if (now - last < 60_000) {
      dropped++;
      return;
    }
    log.error({ err: e, repeated: dropped }, 'queue backend (Redis) error');
    last = now;
    dropped = 0;
  };
}

export class Service {
  /** Render threads for previews, started on the first one and stopped by close(). */
  private previews: RenderPool | undefined;

  private constructor(readonly ctx: ServiceContext) {}

  static async open(config: ServiceConfig, opts: OpenOptions = {}): Promise<Service> {
    const log = opts.log ?? createLogger(config.logLevel);
    const clock = opts.clock ?? Date.now;
    const workerId = newWorkerId();
    const meta = new MetadataStore(await openMetadata(config.databaseUrl));
    let blobs: BlobStore | undefined;
    try {
      blobs = openBlobStore(config.blobsUrl, config.dataDir);
      const queueOpts = { workerId, clock, leaseMs: config.leaseMs, ...(opts.queuePollMs ? { pollMs: opts.queuePollMs } : {}) };
      // BullMQ (and its Redis client) load only when configured: admin commands start faster without.
      const BullmqQueue = config.queueUrl ? (await import('../store/queue/bullmq.js')).BullmqQueue : undefined;
      const queue: TaskQueue =
        config.queueUrl && BullmqQueue
          ? new BullmqQueue(config.queueUrl, meta, { ...queueOpts, name: config.queueName, onError: redisErrorLog(log) })
          : new LocalQueue(meta, queueOpts);
      log.debug({ metadata: meta.conn.describe, blobs: blobs.describe, queue: queue.kind }, 'stores opened');
      return new Service({ meta, blobs, queue, clock, config, log, metrics: new Metrics(), workerId });
    } catch (e) {
      await blobs?.close();
      await meta.close();
      throw e;
    }
  }

  // accounts and keys
  createAccount(input: { name: unknown; plan?: string; balance?: number }) {
    return accounts.createAccount(this.ctx, input);
  }
  getAccount(id: unknown) {
    return accounts.getAccount(this.ctx, id);
  }
  createKey(accountId: unknown, role: unknown) {
    return accounts.createKey(this.ctx, accountId, role);
  }
  authenticate(apiKey: string): ReturnType<typeof accounts.authenticate> {
    return accounts.authenticate(this.ctx, apiKey);
  }
  setBalance(accountId: unknown, amount: unknown) {
    return accounts.setBalance(this.ctx, accountId, amount);
  }
  addBalance(accountId: unknown, amount: unknown) {
    return accounts.addBalance(this.ctx, accountId, amount);
  }
  setPlan(accountId: unknown, patch: unknown) {
    return accounts.setPlan(this.ctx, accountId, patch);
  }

  // designs
  importDesign(accountId: unknown, template: unknown, source?: designs.DesignSource) {
    return designs.importDesign(this.ctx, accountId, template, source);
  }
  replaceDesign(accountId: unknown, designId: unknown, template: unknown, source?: designs.DesignSource) {
    return designs.replaceDesign(this.ctx, accountId, designId, template, source);
  }
  /** A design with its latest version's template and files, or those of `lookup.version`. */
  getDesign(accountId: number, designId: unknown, lookup?: designs.VersionLookup) {
    return designs.getDesign(this.ctx, accountId, designId, lookup);
  }
  listDesigns(accountId: unknown) {
    return designs.listDesigns(this.ctx, accountId);
  }
  deleteDesign(accountId: unknown, designId: unknown) {
    return designs.deleteDesign(this.ctx, accountId, designId);
  }
  /** The account's designs newest first, with size and length (the HTTP listing). */
  listDesignSummaries(accountId: unknown) {
    return designs.listDesignSummaries(this.ctx, accountId);
  }
  /** One design (its latest version, or `version`) with its named objects, their override schemas and values, slides and prices. */
  designDetail(account: Account, designId: unknown, version?: number) {
    return designInfo.designDetail(this.ctx, account, designId, version);
  }
  /** A new design from a template sent as JSON (its version 1). */
  createDesign(account: Account, req: NewDesignRequest) {
    return designVersions.createDesign(this.ctx, account, req);
  }
  /** The next version of a design, saved on `base_version` (version_conflict when another came first); drops its draft. */
  saveDesignVersion(account: Account, designId: unknown, req: SaveVersionRequest) {
    return designVersions.saveDesignVersion(this.ctx, account, designId, req);
  }
  /** A design's kept versions, newest first. */
  listDesignVersions(account: Account, designId: unknown, page: { limit: number; before?: number | undefined }) {
    return designVersions.listDesignVersions(this.ctx, account, designId, page);
  }
  renameDesign(account: Account, designId: unknown, req: RenameRequest) {
    return designVersions.renameDesign(this.ctx, account, designId, req);
  }
  /** A new design made of another's latest version, its files shared. */
  duplicateDesign(account: Account, designId: unknown, req: DuplicateRequest) {
    return designVersions.duplicateDesign(this.ctx, account, designId, req);
  }
  /** The design's autosaved draft: stored (replaced), read, dropped. Never rendered. */
  putDraft(account: Account, designId: unknown, req: DraftRequest) {
    return designDrafts.putDraft(this.ctx, account, designId, req);
  }
  getDraft(account: Account, designId: unknown) {
    return designDrafts.getDraft(this.ctx, account, designId);
  }
  deleteDraft(account: Account, designId: unknown) {
    return designDrafts.deleteDraft(this.ctx, account, designId);
  }
  /** The detail of a design record just stored (the answer to an import). */
  describeDesign(account: Account, record: DesignRecord) {
    return designInfo.describeDesign(this.ctx, account, record);
  }
  /** Imports, or with `replace` replaces, a design from a zip of its folder. */
  importDesignZip(accountId: unknown, zip: Uint8Array, opts?: designZip.ZipImport) {
    return designZip.importDesignZip(this.ctx, accountId, zip, opts);
  }

  // the account's font library
  addFont(accountId: unknown, bytes: Uint8Array) {
    return fonts.addFont(this.ctx, accountId, bytes);
  }
  listFonts(accountId: unknown) {
    return fonts.listFonts(this.ctx, accountId);
  }

  /** The families the account's designs can name (library, bundled, installed) and, searched, the font catalogue's. */
  fontFamilies(accountId: unknown, search?: string, limit?: number) {
    return fonts.fontFamilies(this.ctx, accountId, search, limit);
  }
  deleteFont(accountId: unknown, id: unknown) {
    return fonts.deleteFont(this.ctx, accountId, id);
  }

  // uploads and tasks
  createUpload(accountId: number, bytes: Uint8Array) {
    return uploads.createUpload(this.ctx, accountId, bytes);
  }
  createTask(accountId: number, req: tasks.TaskRequest) {
    return tasks.createTask(this.ctx, accountId, req);
  }
  getTask(accountId: number, taskId: unknown) {
    return tasks.getTask(this.ctx, accountId, taskId);
  }
  /** Interface A's render request (A1), honouring an Idempotency-Key when given. */
  createRender(account: Account, request: renders.RenderInput, idempotencyKey?: string) {
    return renders.createRender(this.ctx, account, request, idempotencyKey);
  }
  /** An interface A task (A2). */
  getRenderTask(accountId: number, taskId: unknown) {
    return renders.getRenderTask(this.ctx, accountId, taskId);
  }
  /** Interface B's video render (B1): price held, daily limits checked. */
  createVideoTask(account: Account, input: videos.VideoRenderInput) {
    return videos.createVideoTask(this.ctx, account, input);
  }
  /** An interface B task by the id in its status URL (B2). */
  getVideoTask(accountId: number, taskId: string) {
    return videos.getVideoTask(this.ctx, accountId, taskId);
  }
  /** A design rendered at once as a png or jpg (POST /public/v2/preview), in this process's preview threads; no task is stored. */
  preview(account: Account, input: preview.PreviewInput, signal?: AbortSignal) {
    this.previews ??= preview.previewPool(this.ctx.config);
    return preview.renderPreview(this.ctx, this.previews, account, input, signal);
  }
  /** The account's tasks of both interfaces, newest first, a page at a time. */
  listRecentTasks(accountId: number, page: TaskPage) {
    return this.ctx.meta.listRecentTasks(accountId, page);
  }
  /** Plan, balance, rate limit and interface B's rates and daily renders left (GET /public/v2/account). */
  accountView(account: Account) {
    return accountView(this.ctx, account);
  }
  /** An upload of this account by its file name in the upload URL. */
  uploadFile(accountId: number, name: string) {
    return files.uploadFile(this.ctx, accountId, name);
  }
  /** A result (or a video's screenshot) by its file name in the result URL: its bytes, or where to get them. */
  /** A result by the name in its URL; `download` asks it to be saved under that name (see files.downloadFilename). */
  resultFile(name: string, download?: string) {
    return files.resultFile(this.ctx, name, download);
  }
  /** The stored result of a done task, or undefined once it has expired. */
  async resultBytes(accountId: number, taskId: unknown): Promise<Buffer | undefined> {
    const t = await this.getTask(accountId, taskId);
    return t.state === 'done' && t.resultKey && t.resultExpiredAt === null ? this.ctx.blobs.get(t.resultKey) : undefined;
  }

  /** Webhook deliveries of an account, or of one of its tasks: state, HTTP status or error, times. */
  listWebhooks(accountId: unknown, opts: { taskId?: unknown } = {}) {
    return listWebhookDeliveries(this.ctx, accountId, opts);
  }

  sweep() {
    return sweep(this.ctx);
  }

  async metricsText(): Promise<string> {
    return this.ctx.metrics.render({ tasksByState: await this.ctx.meta.countTasksByState() });
  }

  /** True for a key that may use admin-only calls (all of interface A). */
  static isAdmin(role: Role): boolean {
    return role === 'admin';
  }

  async close(): Promise<void> {
    const previews = this.previews;
    this.previews = undefined;
    await previews?.close();
    await this.ctx.queue.close();
    await this.ctx.blobs.close();
    await this.ctx.meta.close();
  }
}
