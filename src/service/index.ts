// Package entry `imprint/service`: the render service core (no HTTP) — stores, accounts, designs,
// uploads, tasks and the worker — for hosts that embed it or drive it from tests.
export { Service, type OpenOptions } from './service.js';
export { configFromEnv, ConfigError, type ServiceConfig } from './config.js';
export { TaskWorker, type WorkerOptions } from '../worker/worker.js';
export type { CompletionHook } from './notify.js';
export { PLANS } from './plans.js';
export type { Account, Plan, Role, TaskRecord, TaskState, DesignRecord, DesignSummary, UploadRecord } from '../store/metadata/records.js';
export { verifyWebhookSignature, signWebhook } from './webhooks.js';
