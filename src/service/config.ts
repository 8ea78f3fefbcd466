// Service configuration from environment variables (documented in docs/operations.md): where the
// three stores live, the port, and the worker's limits. Every bad value is refused with its name.
import { availableParallelism } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { parseAddressRanges, type PrivateAllowance } from './outbound.js';

export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  /** SQLite file path or postgres://… */
  databaseUrl: string;
  /** undefined = in-process queue; redis://… = BullMQ. */
  queueUrl: string | undefined;
  /** The BullMQ queue name: processes sharing a Redis and a name share the work. */
  queueName: string;
  /** A folder or s3://bucket?endpoint=… */
  blobsUrl: string;
  /** Public address of interface A, used in upload and status URLs. */
  baseUrl: string;
  /** False when baseUrl is the default: the server then uses the port it actually listens on. */
  baseUrlSet: boolean;
  /** Public address of interface B (task_url); default: baseUrl. */
  dashboardUrl: string | undefined;
  /** Uploads and results are deleted this long after they were made. */
  retentionMs: number;
  sweepIntervalMs: number;
  /** Render slots of this process's worker. */
  workerConcurrency: number;
  /** Render threads of this process for previews (POST /public/v2/preview), started on the first one. */
  previewThreads: number;
  renderTimeoutMs: number;
  /** V8 heap limit of one render thread. */
  renderMemoryMb: number;
  /** A pending task whose worker has not renewed it for this long is stalled. */
  leaseMs: number;
  shutdownGraceMs: number;
  logLevel: string;
  /** Webhooks may target private, loopback and link-local addresses (tests, private networks). */
  webhookAllowPrivate: boolean;
  /**
   * Where Google Fonts families a design names come from when the font folder lacks them (at import,
   * and on a worker before it renders a design pinned to a version it lacks): "registry" (npm), "off"
   * (refused with the install command), or a folder of npm pack tarballs. Default "registry".
   */
  fontInstall?: 'registry' | 'off' | { from: string };
  webhookTimeoutMs: number;
  /** One status address may be polled once per this interval. */
  pollIntervalMs: number;
  /** Polling too fast this many times within a minute blocks the key … */
  pollStrikes: number;
  /** … for this long. */
  pollBlockMs: number;
  /** Largest JSON request body. */
  bodyLimitBytes: number;
  /** How an import fetches a Polotno document's remote files. */
  importFetch: ImportFetchConfig;
}

/** The remote files of an imported Polotno document (src/service/remote-files.ts). */
export interface ImportFetchConfig {
  /** Private, loopback and link-local addresses it may reach: none, all, or these ranges. */
  allowPrivate: PrivateAllowance;
  /** One file's whole fetch, redirects included. */
  timeoutMs: number;
  /** Largest file of any kind; undefined: the limit of each kind (REMOTE_FILE_LIMITS). */
  maxBytes: number | undefined;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`Expected an integer between ${min} and ${max} for ${name} but received "${raw}"`);
  return n;
}

function num(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new ConfigError(`Expected a number between ${min} and ${max} for ${name} but received "${raw}"`);
  return n;
}

function checkUrl(raw: string, name: string): string {
  const url = raw.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/i.test(url)) throw new ConfigError(`Expected an http(s):// address for ${name} but received "${raw}"`);
  return url;
}

function flag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`Expected 1, true, 0 or false for ${name} but received "${raw}"`);
}

/** IMPRINT_FONTS_INSTALL: registry (default), off, or the absolute path of a folder of tarballs. */
function fontInstallOf(raw: string | undefined): NonNullable<ServiceConfig['fontInstall']> {
  if (raw === undefined || raw === '' || raw === 'registry') return 'registry';
  if (raw === 'off') return 'off';
  if (!isAbsolute(raw))
    throw new ConfigError(`Expected registry, off or the absolute path of a folder of font tarballs for IMPRINT_FONTS_INSTALL but received "${raw}"`);
  return { from: raw };
}

/** 0/false: none; 1/true: every address; otherwise a list of addresses and CIDR ranges. */
function allowance(env: Env, name: string): PrivateAllowance {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  try {
    return parseAddressRanges(raw);
  } catch (e) {
    throw new ConfigError(`Expected 1, 0, or addresses and CIDR ranges such as 127.0.0.1,10.0.0.0/8 for ${name}: ${(e as Error).message}`);
  }
}

/** The import's fetch settings alone: `imprint import polotno` reads them without a service. */
export function importFetchFromEnv(env: Env = process.env): ImportFetchConfig {
  const maxMb = num(env, 'IMPRINT_IMPORT_FETCH_MAX_MB', 0, 0.001, 10_240);
  return {
    allowPrivate: allowance(env, 'IMPRINT_IMPORT_ALLOW_PRIVATE'),
    timeoutMs: Math.round(num(env, 'IMPRINT_IMPORT_FETCH_TIMEOUT_S', 15, 0.01, 600) * 1000),
    maxBytes: maxMb === 0 ? undefined : Math.round(maxMb * 1048576),
  };
}

const DAY_MS = 86_400_000;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function configFromEnv(env: Env = process.env): ServiceConfig {
  const port = int(env, 'IMPRINT_PORT', 3000, 0, 65535);
  const host = env.IMPRINT_HOST || '0.0.0.0';
  const dataDir = resolve(env.IMPRINT_DATA_DIR || './data');
  const queueUrl = env.IMPRINT_QUEUE_URL || undefined;
  if (queueUrl !== undefined && !/^rediss?:\/\//i.test(queueUrl)) {
    throw new ConfigError(`Expected a redis://host:port URL (or nothing, for the in-process queue) for IMPRINT_QUEUE_URL but received "${queueUrl}"`);
  }
  const queueName = env.IMPRINT_QUEUE_NAME || 'imprint-tasks';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(queueName)) {
    throw new ConfigError(`Expected up to 100 letters, digits, ".", "_" and "-" for IMPRINT_QUEUE_NAME but received "${queueName}"`);
  }
  const baseUrl = (env.IMPRINT_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/i.test(baseUrl)) throw new ConfigError(`Expected an http(s):// address for IMPRINT_BASE_URL but received "${env.IMPRINT_BASE_URL}"`);
  const logLevel = env.IMPRINT_LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`Expected one of ${LOG_LEVELS.join(', ')} for IMPRINT_LOG_LEVEL but received "${logLevel}"`);
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.IMPRINT_DATABASE_URL || join(dataDir, 'imprint.db'),
    queueUrl,
    queueName,
    blobsUrl: env.IMPRINT_BLOBS_URL || join(dataDir, 'blobs'),
    baseUrl,
    baseUrlSet: Boolean(env.IMPRINT_BASE_URL),
    dashboardUrl: env.IMPRINT_DASHBOARD_URL ? checkUrl(env.IMPRINT_DASHBOARD_URL, 'IMPRINT_DASHBOARD_URL') : undefined,
    retentionMs: num(env, 'IMPRINT_RETENTION_DAYS', 30, 0.0001, 3650) * DAY_MS,
    sweepIntervalMs: int(env, 'IMPRINT_SWEEP_INTERVAL_S', 3600, 1, 86_400) * 1000,
    workerConcurrency: int(env, 'IMPRINT_WORKER_CONCURRENCY', Math.max(1, availableParallelism()), 1, 64),
    previewThreads: int(env, 'IMPRINT_PREVIEW_THREADS', 1, 1, 64),
    renderTimeoutMs: int(env, 'IMPRINT_RENDER_TIMEOUT_S', 120, 1, 3600) * 1000,
    renderMemoryMb: int(env, 'IMPRINT_RENDER_MEMORY_MB', 512, 64, 65_536),
    leaseMs: int(env, 'IMPRINT_TASK_LEASE_S', 30, 1, 3600) * 1000,
    shutdownGraceMs: int(env, 'IMPRINT_SHUTDOWN_GRACE_S', 30, 0, 3600) * 1000,
    logLevel,
    webhookAllowPrivate: flag(env, 'IMPRINT_WEBHOOK_ALLOW_PRIVATE'),
    fontInstall: fontInstallOf(env.IMPRINT_FONTS_INSTALL),
    webhookTimeoutMs: int(env, 'IMPRINT_WEBHOOK_TIMEOUT_S', 5, 1, 60) * 1000,
    pollIntervalMs: num(env, 'IMPRINT_POLL_INTERVAL_S', 5, 0, 3600) * 1000,
    pollStrikes: int(env, 'IMPRINT_POLL_STRIKES', 10, 1, 10_000),
    pollBlockMs: int(env, 'IMPRINT_POLL_BLOCK_S', 300, 0, 86_400) * 1000,
    bodyLimitBytes: int(env, 'IMPRINT_BODY_LIMIT_KB', 1024, 1, 102_400) * 1024,
    importFetch: importFetchFromEnv(env),
  };
}
