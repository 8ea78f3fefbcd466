// The metadata tables as Kysely sees them: one description for SQLite and PostgreSQL. Times are
// milliseconds since the epoch, money is integer millionths, JSON documents are text.
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
  /** Balance in millionths of the currency unit, so charges are exact integers. */
  balance_micros: number;
  webhook_secret: string;
  plan: string;
  requests_per_minute: number;
  concurrency: number;
  queue_size: number;
  daily_renders: number;
  daily_demo_renders: number;
  /** JSON: price per second of video by size and fps, `{"sd_30": 0.01, …}`. */
  video_rates: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  role: string;
  /** sha256 of the key (hex); the key itself is shown once and never stored. */
  key_hash: string;
  /** First characters of the key, so a holder can tell their keys apart. */
  key_prefix: string;
  created_at: number;
}

/**
 * A design: its name and, copied from its latest version (design_versions), the template and files
 * every render, preview and listing reads without a join. Both are written in one transaction.
 */
export interface DesignsTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  name: string;
  /** The latest version's template (JSON text). */
  template: string;
  /** JSON: relative path in the template → blob key of that asset (the latest version's). */
  assets: string;
  created_at: number;
  /** When the latest version was saved, or the design renamed. */
  updated_at: number;
  /** The latest version's number (0011; designs before it are version 1). */
  version: number;
}

/** Every kept version of a design (the last DESIGN_VERSIONS_KEPT), the latest included. */
export interface DesignVersionsTable {
  design_id: number;
  /** 1, 2, … per design, never reused. */
  version: number;
  account_id: number;
  kind: string;
  template: string;
  assets: string;
  created_at: number;
}

/**
 * Which version uses which blob: one row per (design, version, blob key). Versions and duplicated
 * designs share blobs, so a blob is retired only when its last row is gone.
 */
export interface DesignVersionBlobsTable {
  design_id: number;
  version: number;
  key: string;
}

/** The one autosaved draft of a design: stored as sent, never validated or rendered. */
export interface DesignDraftsTable {
  design_id: number;
  account_id: number;
  /** The version the draft was edited from. */
  base_version: number;
  /** The editor's template (JSON text); it may be invalid mid-edit. */
  template: string;
  /** JSON: the draft's pending files, relative path → upload URL, as sent. */
  assets: string;
  updated_at: number;
}

export interface UploadsTable {
  id: Generated<number>;
  account_id: number;
  /** Unguessable part of the upload's URL. */
  token: string;
  blob_key: string;
  content_type: string;
  size: number;
  created_at: number;
  expires_at: number;
  /** When the sweeper deleted the bytes; null while usable. */
  expired_at: number | null;
}

export interface FontsTable {
  id: Generated<number>;
  account_id: number;
  family: string;
  /** The file's own weight (OS/2); a variable font's default. */
  weight: number;
  /** A variable font's `wght` range; null for a static face. */
  weight_min: number | null;
  weight_max: number | null;
  style: string;
  /** The format it was uploaded in (ttf, otf, woff, woff2); stored as sfnt whatever it was. */
  format: string;
  /** sha256 of the sfnt bytes: the same file twice is one font. */
  hash: string;
  blob_key: string;
  /** Bytes of the stored sfnt. */
  size: number;
  /** JSON: code points per script (service/fonts.ts). */
  coverage: string;
  created_at: number;
}

export interface TasksTable {
  id: Generated<number>;
  account_id: number;
  design_id: number;
  /** The design version rendered (0011); null for tasks before it, which rendered the latest. */
  design_version: number | null;
  format: string;
  /** JSON: render options beyond the format (fps, size, demo, …). */
  options: string;
  /** JSON: the overrides as validated at queue time (upload URLs already turned into references). */
  overrides: string;
  webhook_url: string | null;
  state: string;
  result_key: string | null;
  poster_key: string | null;
  /** When the sweeper deleted the result; null while it can be downloaded. */
  result_expired_at: number | null;
  error: string | null;
  /** Stable code of the failure (errors.ts catalogue) when state is error; null for tasks before 0005. */
  error_code: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  state_at: number;
  /** How many times a worker has taken the task (a stalled task is requeued once). */
  attempts: number;
  worker_id: string | null;
  /** A pending task whose lease has run out belongs to a worker that died. */
  lease_until: number | null;
  /** Queue backends that deliver ids (BullMQ): 1 while the task waits for a free slot of its account. */
  parked: number;
  billed_duration: number | null;
  billed_price_micros: number | null;
  /** Unguessable part of the result URL. */
  result_token: string | null;
  /** JSON: the render's warnings (render/warnings.ts), null when it had none or before 0007. */
  warnings: string | null;
  /** `a` (interface A) or `b` (interface B, video by id). */
  api: string;
  /** 1 for interface B's free mode: watermark, no charge. */
  demo: number;
  /** Money held for a paid render while it is queued or rendering. */
  reserved_micros: number;
  /**
   * JSON: how far the worker has got with an mp4 (records.ts TaskProgress), written while pending;
   * null before the first report of a render, for other formats and before 0010.
   */
  progress: string | null;
}

export interface IdempotencyKeysTable {
  id: Generated<number>;
  account_id: number;
  key: string;
  /** sha256 of the request that first used the key; the same key with another body is refused. */
  request_hash: string;
  task_id: number;
  created_at: number;
}

export interface RetiredBlobsTable {
  key: string;
  delete_after: number;
}

/**
 * The webhook outbox: one row per finished task that asked for a webhook, written in the same
 * transaction as the task's move to done or error, so a crash cannot lose the one POST.
 * state: pending (not yet taken) → sending (claimed by one process; never claimed again) →
 * sent (2xx) | failed (another answer or no answer) | abandoned (its sender stopped mid-delivery).
 */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  /** One delivery per task (unique): the body is the task's A2 body, built when it is sent. */
  task_id: number;
  account_id: number;
  url: string;
  state: string;
  created_at: number;
  /** When a sender took it, and which process (worker id) did. */
  claimed_at: number | null;
  claimed_by: string | null;
  /** claimed_at + the sender's webhook timeout: past this (and a margin) a delivery still sending was abandoned. */
  deadline_at: number | null;
  finished_at: number | null;
  /** HTTP status of the receiver's answer, when there was one. */
  http_status: number | null;
  /** Why it was not delivered (failed or abandoned). */
  error: string | null;
  /** Wall time of the request. */
  duration_ms: number | null;
}

export interface Tables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  designs: DesignsTable;
  design_versions: DesignVersionsTable;
  design_version_blobs: DesignVersionBlobsTable;
  design_drafts: DesignDraftsTable;
  uploads: UploadsTable;
  tasks: TasksTable;
  idempotency_keys: IdempotencyKeysTable;
  retired_blobs: RetiredBlobsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  fonts: FontsTable;
}
