// Package entry `imprint/service`: the render service core (no HTTP) — stores, accounts, designs,
// uploads, tasks and the worker — for hosts that embed it or drive it from tests.
export { Service, type OpenOptions } from './service.js';
export { configFromEnv, importFetchFromEnv, ConfigError, type ImportFetchConfig, type ServiceConfig } from './config.js';
export { TaskWorker, type WorkerOptions } from '../worker/worker.js';
export type { CompletionHook } from './notify.js';
export { PLANS } from './plans.js';
export type {
  Account,
  Plan,
  Role,
  TaskRecord,
  TaskState,
  DesignRecord,
  DesignSummary,
  DesignVersionRecord,
  DesignDraftRecord,
  UploadRecord,
} from '../store/metadata/records.js';
export { verifyWebhookSignature, signWebhook } from './webhooks.js';
export { importInput, fetchRemoteFiles, REMOTE_FILE_LIMITS, type RemoteFetchOptions } from './remote-files.js';
export { parseAddressRanges, type AddressRange, type PrivateAllowance } from './outbound.js';
export type {
  DesignDetail,
  DesignDraft,
  DesignVersionInfo,
  DesignVersionList,
  DraftRequest,
  DraftSaved,
  DuplicateRequest,
  NewDesignRequest,
  ObjectInfo,
  Prices,
  RenameRequest,
  SaveVersionRequest,
  SlideInfo,
} from './shapes.js';
export type { DesignShape, DesignSummaryJson } from './designs.js';
export type { ZipImport, ZipLimits } from './design-zip.js';
export type { AccountView } from './account-view.js';
export type { TaskListItem } from './shapes.js';
