// Idempotency-Key on render requests: the same key and body within 24 hours return the task the
// first request made, so a client retrying after a network error neither renders nor pays twice.
import { createHash } from 'node:crypto';
import { ImprintError, validationError } from '../errors.js';
import type { TaskRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/** How long a claimed key may wait for its request to finish before it counts as abandoned. */
const PLACEHOLDER_MS = 60_000;
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
  if (typeof key !== 'string' || !KEY.test(key))
    throw validationError('$.headers.idempotency-key', 'Expected 1 to 255 printable ASCII characters (no spaces) for the Idempotency-Key header');
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
  const inProgress = () =>
    new ImprintError('conflict', '$.headers.idempotency-key', 'a request with this Idempotency-Key is still being processed: retry in a moment');
  const replay = async (): Promise<{ task: TaskRecord; replayed: boolean } | undefined> => {
    const found = await ctx.meta.findIdempotencyKey(accountId, key);
    if (!found || found.createdAt <= now - IDEMPOTENCY_WINDOW_MS) return undefined;
    if (found.requestHash !== hash)
      throw new ImprintError(
        'conflict',
        '$.headers.idempotency-key',
        'this Idempotency-Key was used with a different request in the last 24 hours: use a new key for a new request',
      );
    if (found.taskId === 0) {
      // A claim whose request never finished (its process died): give the key back after a minute.
      if (found.createdAt > now - PLACEHOLDER_MS) throw inProgress();
      await ctx.meta.deleteIdempotencyKey(accountId, key);
      return undefined;
    }
    const task = await ctx.meta.getTask(found.taskId, accountId);
    return task && { task, replayed: true };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  await ctx.meta.deleteIdempotencyKeysBefore(now - IDEMPOTENCY_WINDOW_MS);
  // The key is claimed before the task exists (task 0 = in progress), so two requests with the same
  // key can never both render.
  if (!(await ctx.meta.insertIdempotencyKey({ accountId, key, requestHash: hash, taskId: 0, now }))) {
    const winner = await replay();
    if (winner) return winner;
    throw inProgress();
  }
  let task: TaskRecord;
  try {
    task = await create();
  } catch (e) {
    // A refused request leaves the key free: the client may fix the request and send it again.
    await ctx.meta.deleteIdempotencyKey(accountId, key);
    throw e;
  }
  await ctx.meta.setIdempotencyTask(accountId, key, task.id);
  return { task, replayed: false };
}
