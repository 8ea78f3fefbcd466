// Tasks as interface A shows them (A2 body, also the webhook body) and the addresses of results.
import type { TaskRecord } from '../store/metadata/records.js';
import type { Task, TaskError } from './answers.js';
import type { ServiceContext } from './context.js';
import type { TaskListItem, TaskProgress } from './shapes.js';

/**
 * How far the render of an mp4 has got, as both interfaces and the event stream show it (an addition
 * to the spec; TaskProgress of shapes.ts). fraction = frames_done / frames_total; eta_seconds is null
 * until the first frame is encoded (the pace is not known yet), and 0 when done.
 */
export type TaskProgressBody = TaskProgress;

/**
 * An mp4 task's progress: while pending, the worker's last report (0 of the task's frames before the
 * first one); when done, all frames. Absent for other formats and in the other states (queued has
 * not started; an error keeps its `error` instead).
 */
export function taskProgress(t: Pick<TaskRecord, 'format' | 'state' | 'options' | 'progress'>): TaskProgressBody | undefined {
  if (t.format !== 'mp4' || (t.state !== 'pending' && t.state !== 'done')) return undefined;
  const queued = typeof t.options.frames === 'number' ? t.options.frames : 0;
  const total = t.progress?.framesTotal ?? queued;
  if (!(total > 0)) return undefined;
  if (t.state === 'done') return { fraction: 1, frames_done: total, frames_total: total, eta_seconds: 0 };
  const done = Math.min(t.progress?.framesDone ?? 0, total);
  return { fraction: Math.round((done / total) * 1e4) / 1e4, frames_done: done, frames_total: total, eta_seconds: t.progress?.etaSeconds ?? null };
}

/** Why a task in state error failed; undefined in every other state. */
export function taskError(t: Pick<TaskRecord, 'state' | 'error' | 'errorCode'>): TaskError | undefined {
  if (t.state !== 'error') return undefined;
  return { code: t.errorCode ?? 'render_failed', description: t.error ?? 'the render failed: retry it; if that does not help, contact support' };
}

/** Stable for the result's lifetime; the server streams it (folder) or redirects to a presigned URL (S3). */
export function resultUrl(ctx: ServiceContext, t: Pick<TaskRecord, 'resultToken' | 'format'>): string {
  return `${ctx.config.baseUrl}/public/v2/results/${t.resultToken}.${t.format}`;
}

export function statusUrl(ctx: ServiceContext, taskId: number): string {
  return `${ctx.config.baseUrl}/public/v2/tasks/${taskId}`;
}

/** `result_url` only when done and not yet expired; `error` ({code, description}) only in state error. */
export function taskBodyA(ctx: ServiceContext, t: TaskRecord): Task {
  const body: Task = { id: t.id, state: t.state, design_id: t.designId };
  if (t.state === 'done' && t.resultKey && t.resultToken && t.resultExpiredAt === null) body.result_url = resultUrl(ctx, t);
  const error = taskError(t);
  if (error) body.error = error;
  if (t.state === 'done' && t.warnings.length > 0) body.warnings = t.warnings;
  const progress = taskProgress(t);
  if (progress) body.progress = progress;
  return body;
}

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

/** One task of the account's task list (GET /public/v2/tasks), of either interface (TaskListItem of shapes.ts). */
export function taskListItem(ctx: ServiceContext, t: TaskRecord): TaskListItem {
  const item: TaskListItem = {
    id: t.id,
    interface: t.api === 'b' ? 'B' : 'A',
    design_id: t.designId,
    ...(t.designVersion === null ? {} : { design_version: t.designVersion }),
    format: t.format,
    state: t.state,
    created_at: iso(t.createdAt)!,
    started_at: iso(t.startedAt),
    finished_at: iso(t.finishedAt),
  };
  const { result_url, error, progress } = taskBodyA(ctx, t);
  if (result_url) item.result_url = result_url;
  if (error) item.error = error;
  if (progress) item.progress = progress;
  return item;
}
