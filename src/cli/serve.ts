// `imprint serve` (the service with its in-process worker; seeds an empty embedded store with the
// examples and a demo key) and `imprint worker` (worker only, for scale-out). Both stop gracefully on
// SIGTERM/SIGINT: no new tasks, running ones finish or go back to the queue.
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildServer, listen } from '../http/server.js';
import { configFromEnv, ConfigError, type ServiceConfig } from '../service/config.js';
import { webhookHook, type CompletionHook } from '../service/notify.js';
import { WebhookDispatcher } from '../service/webhook-outbox.js';
import { startSweeper } from '../service/retention.js';
import { DEMO_ACCOUNT, seedIfEmpty, type SeedResult } from '../service/seed.js';
import { Service } from '../service/service.js';
import { TaskWorker } from '../worker/worker.js';
import type { CliIO } from './io.js';
import { reportToServer, WorkerProcess, workerModeFromEnv, type WorkerMode } from './worker-process.js';

export interface RunningService {
  service: Service;
  /** This process's render worker; undefined when it renders in a child process or not at all. */
  worker: TaskWorker | undefined;
  /** The child process that renders for this one (worker mode `process`). */
  workerProcess: WorkerProcess | undefined;
  /** This process's webhook sender; undefined when IMPRINT_WEBHOOK_DISPATCH=0. */
  webhooks: WebhookDispatcher | undefined;
  seeded: SeedResult | undefined;
  /** On a later start of a store that was seeded: the demo account's id (its key was shown on the first start only). */
  demoAccountId: number | undefined;
  /** The HTTP server (serve only) and its public address. */
  http?: { app: FastifyInstance; url: string };
  stop(): Promise<void>;
}

/**
 * IMPRINT_WEBHOOK_DISPATCH: 0 makes a process send no webhooks (its finished tasks' deliveries wait in
 * the outbox for a process that sends them), e.g. render-only workers in a network without egress.
 */
export function webhookDispatchFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const raw = env.IMPRINT_WEBHOOK_DISPATCH;
  if (raw === undefined || raw === '' || raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new ConfigError(`Expected 1, true, 0 or false for IMPRINT_WEBHOOK_DISPATCH but received "${raw}"`);
}

export interface StartOptions {
  seed: boolean;
  http: boolean;
  onComplete?: CompletionHook;
  /** Send webhooks from this process (default true; see webhookDispatchFromEnv). */
  dispatchWebhooks?: boolean;
  /**
   * Where renders run: `inline` (default) in this process, `process` in a child process on the same
   * stores and environment (what `imprint serve` does, see workerModeFromEnv), `none` nowhere.
   */
  worker?: WorkerMode;
}

export async function startService(config: ServiceConfig, opts: StartOptions): Promise<RunningService> {
  const service = await Service.open(config);
  let http: RunningService['http'];
  try {
    // Only the embedded default is seeded: a scale-out deployment should not start with a demo
    // account and its key in a container log (IMPRINT_SEED=1 forces it, 0 turns it off).
    const seed = opts.seed && (process.env.IMPRINT_SEED === '1' || (process.env.IMPRINT_SEED !== '0' && service.ctx.meta.dialect === 'sqlite'));
    // Listening first: a port that is taken stops the start before the demo account (whose key is
    // shown only once) is created for a server that never ran.
    if (opts.http) {
      const app = await buildServer(service);
      try {
        http = { app, url: await listen(app, service) };
      } catch (e) {
        await app.close();
        throw e;
      }
    }
    const seeded = seed ? await seedIfEmpty(service) : undefined;
    const demoAccountId = seed && !seeded ? (await service.ctx.meta.findAccountByName(DEMO_ACCOUNT))?.id : undefined;
    // Deliveries are queued with the task's end whatever this switch says; it only decides whether
    // this process sends them (promptly from the hook, and by its sweep for those others left).
    const webhooks = opts.dispatchWebhooks === false ? undefined : new WebhookDispatcher(service.ctx);
    const hook = opts.onComplete ?? (webhooks ? webhookHook(service.ctx, webhooks) : undefined);
    let mode = opts.worker ?? 'inline';
    if (mode === 'process' && /^(sqlite:(\/\/)?)?:memory:$/i.test(config.databaseUrl)) {
      // Another process cannot open this process's in-memory database.
      service.ctx.log.warn('an in-memory metadata store cannot be shared with a worker process: rendering in this process');
      mode = 'inline';
    }
    const worker = mode === 'inline' ? new TaskWorker(service.ctx, hook ? { onComplete: hook } : {}) : undefined;
    worker?.start();
    const workerProcess = mode === 'process' ? new WorkerProcess(service.ctx, { env: process.env, log: service.ctx.log }) : undefined;
    workerProcess?.start();
    webhooks?.start();
    const sweeper = startSweeper(service.ctx);
    let stopping: Promise<void> | undefined;
    return {
      service,
      worker,
      workerProcess,
      webhooks,
      seeded,
      demoAccountId,
      ...(http ? { http } : {}),
      stop: () =>
        (stopping ??= (async () => {
          // No new requests first, then no new renders; running ones finish or go back to the queue.
          await http?.app.close();
          await worker?.stop();
          await workerProcess?.stop();
          // After the worker: the hooks of its last tasks send their webhooks before this stops.
          await webhooks?.stop();
          await sweeper.stop();
          await service.close();
        })()),
    };
  } catch (e) {
    await http?.app.close();
    await service.close();
    throw e;
  }
}

function describeStores(config: ServiceConfig): string {
  const rel = (p: string) => (p.startsWith('/') ? relative(process.cwd(), p) || '.' : p);
  const db = /^postgres/i.test(config.databaseUrl) ? 'PostgreSQL' : `SQLite ${rel(config.databaseUrl)}`;
  const blobs = /^s3:/i.test(config.blobsUrl) ? config.blobsUrl.split('?')[0] : `folder ${rel(config.blobsUrl)}`;
  return `metadata: ${db}; blobs: ${blobs}; queue: ${config.queueUrl ? 'BullMQ on Redis' : 'in-process'}`;
}

function printSeed(io: CliIO, s: SeedResult): void {
  io.stdout.write(
    [
      `Demo account ${s.accountId} created. Its admin API key, shown only this once:`,
      '',
      `    ${s.apiKey}`,
      '',
      'Example designs (design_id  kind    example):',
      ...s.designs.map((d) => `    ${String(d.id).padEnd(10)} ${d.kind.padEnd(7)} ${d.example}`),
      '',
    ].join('\n'),
  );
}

const shellWord = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);

/**
 * The `npx imprint admin …` command line that reaches this server's metadata store from the folder
 * it was started in: with the variable that chose the store, so it can be pasted as it is.
 */
export function adminCommandLine(args: string, env: Readonly<Record<string, string | undefined>>): string {
  const command = `npx imprint admin ${args}`;
  const url = env.IMPRINT_DATABASE_URL;
  // A PostgreSQL URL may carry a password, which does not belong in a log: the variable is named instead.
  if (url && /^postgres/i.test(url)) return `${command}   (with this server's IMPRINT_DATABASE_URL set)`;
  if (url) return `IMPRINT_DATABASE_URL=${shellWord(url)} ${command}`;
  if (env.IMPRINT_DATA_DIR) return `IMPRINT_DATA_DIR=${shellWord(env.IMPRINT_DATA_DIR)} ${command}`;
  return command;
}

function printNewKeyHint(io: CliIO, accountId: number): void {
  io.stdout.write(
    [
      `Demo account ${accountId} exists; its admin API key was shown on its first start only. To make a new one, run:`,
      '',
      `    ${adminCommandLine(`create-key --account ${accountId} --role admin`, process.env)}`,
      '',
      '',
    ].join('\n'),
  );
}

/**
 * Resolves when the process is asked to stop (SIGTERM or SIGINT), or, for the worker process of an
 * `imprint serve`, when that server is gone (its IPC channel closes, even if it was killed).
 */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: string) => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      process.off('disconnect', gone);
      resolve(sig);
    };
    const gone = () => on('disconnect');
    process.once('SIGTERM', on);
    process.once('SIGINT', on);
    if (process.channel) process.once('disconnect', gone);
  });
}

export async function serveCommand(args: string[], io: CliIO, role: 'serve' | 'worker'): Promise<number> {
  // Both are configured by environment variables only: any argument is a mistake, refused before
  // a server starts (a silently ignored "--port 8080" would listen on the wrong port).
  parseArgs({ args, options: {}, allowPositionals: false, strict: true });
  const config = configFromEnv();
  const dispatchWebhooks = webhookDispatchFromEnv();
  // Listening for the stop signal before anything is printed: whoever waits for the ready line may
  // send SIGTERM at once.
  const stopSignal = untilSignal();
  const worker = role === 'serve' ? workerModeFromEnv() : 'inline';
  const running = await startService(config, { seed: role === 'serve', http: role === 'serve', dispatchWebhooks, worker });
  // A worker started by `imprint serve` (it has an IPC channel) is woken by it and reports its counters to it.
  const server = role === 'worker' ? reportToServer(running.service.ctx) : undefined;
  if (running.seeded) printSeed(io, running.seeded);
  if (running.demoAccountId !== undefined) printNewKeyHint(io, running.demoAccountId);
  const where = running.http ? `listening on ${running.http.url} (interface A: ${running.http.url}/public/v2; the Studio: ${running.http.url}/studio); ` : '';
  const hooks = dispatchWebhooks ? '' : '; webhooks not sent from here (IMPRINT_WEBHOOK_DISPATCH=0)';
  const slots = running.workerProcess
    ? `${config.workerConcurrency} render slot(s) in a worker process`
    : running.worker
      ? `${config.workerConcurrency} render slot(s)`
      : 'no render worker (IMPRINT_SERVE_WORKER=none)';
  io.stdout.write(`imprint ${role}: ${where}${describeStores(config)}; ${slots}${hooks}. Stop with Ctrl-C or SIGTERM.\n`);
  const sig = await stopSignal;
  running.service.ctx.log.info({ signal: sig }, 'shutting down');
  await running.stop();
  // After the stop: the counters of the last renders reach the server's /metrics too.
  await server?.flush();
  server?.close();
  return 0;
}
