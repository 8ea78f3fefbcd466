// Tasks as interface A shows them (A2 body, also the webhook body) and the addresses of results.
import type { TaskRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';

export interface TaskBodyA {
  id: number;
  state: TaskRecord['state'];
  design_id: number;
  result_url?: string;
}

/** Stable for the result's lifetime; the server streams it (folder) or redirects to a presigned URL (S3). */
export function resultUrl(ctx: ServiceContext, t: Pick<TaskRecord, 'resultToken' | 'format'>): string {
  return `${ctx.config.baseUrl}/public/v2/results/${t.resultToken}.${t.format}`;
}

export function statusUrl(ctx: ServiceContext, taskId: number): string {
  return `${ctx.config.baseUrl}/public/v2/tasks/${taskId}`;
}

/** `result_url` only when done and not yet expired; an error body has id, state and design_id only. */
export function taskBodyA(ctx: ServiceContext, t: TaskRecord): TaskBodyA {
  const body: TaskBodyA = { id: t.id, state: t.state, design_id: t.designId };
  if (t.state === 'done' && t.resultKey && t.resultToken && t.resultExpiredAt === null) body.result_url = resultUrl(ctx, t);
  return body;
}
