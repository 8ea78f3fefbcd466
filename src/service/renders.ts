// Interface A's render requests (A1): the parsed request turned into a task with the plan's limits,
// its webhook address checked, and an Idempotency-Key honoured, so the adapter only parses and answers.
import { ImprintError } from '../errors.js';
import type { Account, TaskRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { checkIdempotencyKey, idempotent, requestHash } from './idempotency.js';
import { maxVideoSeconds } from './plans.js';
import { statusUrl } from './task-view.js';
import { createTask, getTask, type TaskFormat } from './tasks.js';
import { checkWebhookUrl } from './webhooks.js';

/** The A1 body, already checked against the request schema (its field names are the spec's). */
export interface RenderInput {
  design_id: number;
  /** An addition: the saved version to render; default the latest. */
  design_version?: number | undefined;
  format: TaskFormat;
  quality?: number | undefined;
  missing_fonts?: 'error' | 'fallback' | undefined;
  webhook_url?: string | undefined;
  objects_overrides?: Record<string, unknown> | undefined;
}

export interface RenderAccepted {
  task: TaskRecord;
  statusUrl: string;
  /** True when an earlier request with the same Idempotency-Key made the task. */
  replayed: boolean;
}

/** Idempotency hashes name the call, so the same body sent elsewhere is another request. */
const RENDER_SCOPE = 'POST /public/v2/render';

export async function createRender(ctx: ServiceContext, account: Account, r: RenderInput, idempotencyKey?: string): Promise<RenderAccepted> {
  const webhookUrl = r.webhook_url === undefined ? null : checkWebhookUrl(r.webhook_url, ctx.config.webhookAllowPrivate);
  const create = () =>
    createTask(ctx, account.id, {
      designId: r.design_id,
      designVersion: r.design_version,
      format: r.format,
      overrides: r.objects_overrides ?? {},
      webhookUrl,
      options: {
        ...(r.format === 'mp4' ? { max_duration: maxVideoSeconds(account.plan) } : {}),
        ...(r.quality === undefined ? {} : { quality: r.quality }),
        ...(r.missing_fonts === 'fallback' ? { missing_fonts: 'fallback' as const } : {}),
      },
    });
  if (idempotencyKey === undefined) {
    const task = await create();
    return { task, statusUrl: statusUrl(ctx, task.id), replayed: false };
  }
  const key = checkIdempotencyKey(idempotencyKey);
  const { task, replayed } = await idempotent(ctx, account.id, key, requestHash(RENDER_SCOPE, r), create);
  return { task, statusUrl: statusUrl(ctx, task.id), replayed };
}

/** An interface A task of this account (A2); interface B's video tasks are read at their own address. */
export async function getRenderTask(ctx: ServiceContext, accountId: number, taskId: unknown): Promise<TaskRecord> {
  const task = await getTask(ctx, accountId, taskId);
  if (task.api !== 'a') throw new ImprintError('task_not_found', '$.task_id', `no task ${task.id} in interface A: read video tasks at /api/queue/${task.id}/`);
  return task;
}
