// Plain records the metadata store reads and writes: what the service core and workers pass around.
import type { Fps, VideoSize } from '../../output-formats.js';
import type { RenderWarning } from '../../render/warnings.js';

export type Role = 'admin' | 'member';
export type DesignKind = 'design' | 'video';
export type TaskState = 'queued' | 'pending' | 'done' | 'error';
export const TASK_STATES: readonly TaskState[] = ['queued', 'pending', 'done', 'error'];

/** Price per second of rendered video, by interface B's size_type and fps: `sd_30`, `sd_60`, `hd_30`, `hd_60`. */
export type VideoRates = Record<`${VideoSize}_${Fps}`, number>;

export interface Plan {
  name: string;
  requestsPerMinute: number;
  /** Renders of one account running at once. */
  concurrency: number;
  /** Queued plus running tasks one account may have. */
  queueSize: number;
  /** Successful paid renders per UTC day (interface B). */
  dailyRenders: number;
  /** Free (demo) renders per UTC day (interface B). */
  dailyDemoRenders: number;
  videoRates: VideoRates;
}

export interface Account {
  id: number;
  name: string;
  createdAt: number;
  balance: number;
  webhookSecret: string;
  plan: Plan;
}

export interface ApiKeyRecord {
  id: number;
  accountId: number;
  role: Role;
  keyPrefix: string;
  createdAt: number;
}

export interface DesignSummary {
  id: number;
  accountId: number;
  kind: DesignKind;
  name: string;
  createdAt: number;
  updatedAt: number;
  /** The number of the design's latest version. */
  latestVersion: number;
}

/** A design with the template and files of one of its versions (the latest unless another was asked for). */
export interface DesignRecord extends DesignSummary {
  /** The version `template` and `assets` are; `kind` is the design's (its latest version's). */
  version: number;
  template: unknown;
  /** Relative path in the template → blob key of its bytes. */
  assets: Record<string, string>;
}

/** One kept version of a design. */
export interface DesignVersionRecord {
  designId: number;
  version: number;
  kind: DesignKind;
  template: unknown;
  assets: Record<string, string>;
  createdAt: number;
}

/** A design's autosaved draft, as the editor sent it. */
export interface DesignDraftRecord {
  designId: number;
  accountId: number;
  baseVersion: number;
  template: unknown;
  /** Pending files: relative path → upload URL, unchecked until a version is saved. */
  assets: Record<string, string>;
  updatedAt: number;
}

export interface UploadRecord {
  id: number;
  accountId: number;
  token: string;
  blobKey: string;
  contentType: string;
  size: number;
  createdAt: number;
  expiresAt: number;
  expiredAt: number | null;
}

/** A font of an account's library. */
export interface FontRecord {
  id: number;
  accountId: number;
  family: string;
  weight: number;
  /** A variable font's `wght` range; absent for a static face. */
  weightRange?: { min: number; max: number };
  style: 'normal' | 'italic';
  format: string;
  hash: string;
  blobKey: string;
  size: number;
  /** Code points it maps, in all and per script. */
  coverage: FontCoverage;
  createdAt: number;
}

/** What a font can draw: its code points in all, and per script (only scripts it has any of). */
export interface FontCoverage {
  code_points: number;
  scripts: Record<string, number>;
}

export interface TaskRecord {
  id: number;
  accountId: number;
  designId: number;
  /** The design version it renders; null for tasks queued before versions (they render the latest). */
  designVersion: number | null;
  format: string;
  options: Record<string, unknown>;
  overrides: unknown;
  webhookUrl: string | null;
  state: TaskState;
  resultKey: string | null;
  posterKey: string | null;
  resultExpiredAt: number | null;
  /** Why the task ended in error: a description that says what to do … */
  error: string | null;
  /** … and its stable code (validation_error, render_timeout, …); null unless state is error. */
  errorCode: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  stateAt: number;
  attempts: number;
  workerId: string | null;
  leaseUntil: number | null;
  billedDuration: number | null;
  billedPrice: number | null;
  resultToken: string | null;
  api: 'a' | 'b';
  demo: boolean;
  /** Held from the balance while queued or rendering (paid interface B renders). */
  reserved: number;
  /** What a done render could not draw as meant; empty when nothing. */
  warnings: RenderWarning[];
  /** How far the render of an mp4 has got, as last written by its worker; null before its first report. */
  progress: TaskProgress | null;
}

/** A rendering video's progress as the worker writes it (the adapters add the fraction). */
export interface TaskProgress {
  /** Frames encoded so far. */
  framesDone: number;
  framesTotal: number;
  /** Seconds left at the pace so far (setup included); null before the first frame. */
  etaSeconds: number | null;
}

/** pending: waiting for a sender; sending: claimed, its one POST under way; then sent, failed or abandoned. */
export type WebhookDeliveryState = 'pending' | 'sending' | 'sent' | 'failed' | 'abandoned';

/** The one webhook of a finished task: whether and how it was sent (the outbox row). */
export interface WebhookDeliveryRecord {
  id: number;
  taskId: number;
  accountId: number;
  url: string;
  state: WebhookDeliveryState;
  createdAt: number;
  claimedAt: number | null;
  claimedBy: string | null;
  deadlineAt: number | null;
  finishedAt: number | null;
  httpStatus: number | null;
  error: string | null;
  durationMs: number | null;
}
