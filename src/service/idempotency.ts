// Idempotency-Key on render requests: the same key and body within 24 hours return the task the
// first request made, so a client retrying after a network error neither renders nor pays twice.
import { createHash } from 'node:crypto';
import { ImprintError, validationError } from '../errors.js';
import type { TaskRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

/** Key order does not matter: `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function requestHash(scope: string, body: unknown): string {
  return createHash('sha256').update(scope).update('\n').update(canonical(body)).digest('hex');
}

export function checkIdempotencyKey(key: unknown): string {
  if (typeof key !== 'string' || !KEY.test(key)) throw validationError('$.headers.idempotency-key', 'Expected 1 to 255 printable ASCII characters (no spaces) for the Idempotency-Key header');
  return key;
}

/**
 * Runs `create` once per (account, key, request): a repeat within the window returns the first
 * task with `replayed: true`; the same key with a different request is a conflict.
 */
export async function idempotent(
  ctx: ServiceContext,
  accountId: number,
  key: string,
  hash: string,
  create: () => Promise<TaskRecord>,
): Promise<{ task: TaskRecord; replayed: boolean }> {
  const now = ctx.clock();
  const replay = async (): Promise<{ task: TaskRecord; replayed: boolean } | undefined> => {
    const found = await ctx.meta.findIdempotencyKey(accountId, key);
    if (!found || found.createdAt <= now - IDEMPOTENCY_WINDOW_MS) return undefined;
    if (found.requestHash !== hash) throw new ImprintError('conflict', '$.headers.idempotency-key', 'this Idempotency-Key was used with a different request in the last 24 hours: use a new key for a new request');
    const task = await ctx.meta.getTask(found.taskId, accountId);
    return task && { task, replayed: true };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  await ctx.meta.deleteIdempotencyKeysBefore(now - IDEMPOTENCY_WINDOW_MS);
  const task = await create();
  if (await ctx.meta.insertIdempotencyKey({ accountId, key, requestHash: hash, taskId: task.id, now })) return { task, replayed: false };
  // Another request with the same key won the race: cancel ours before it renders, return theirs.
  await ctx.meta.cancelQueuedTask(task.id, now, 'a concurrent request with the same Idempotency-Key was accepted instead');
  const winner = await replay();
  if (!winner) throw new ImprintError('conflict', '$.headers.idempotency-key', 'a concurrent request with the same Idempotency-Key is in progress: retry in a moment');
  return winner;
}
