// The account's tasks over HTTP (additions to the spec, under /public/v2): the list of recent tasks of
// both interfaces, and a server-sent events stream of one task's state (and an mp4's progress) that a
// page (the Studio) or a script can follow instead of polling its status address. The stream reads
// the metadata store, so it sees tasks whichever process renders them.
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { issueToError } from '../format/zod-error.js';
import type { Service } from '../service/service.js';
import { taskBodyA, taskListItem } from '../service/task-view.js';
import { taskBodyB } from '../service/videos.js';
import type { TaskRecord } from '../store/metadata/records.js';
import { accountGuard, fail } from './auth.js';
import type { RateLimiter } from '../store/limits/rate-limiter.js';
import { TaskListQuery } from './schemas.js';

export interface TaskEventsOptions {
  /** How often a stream reads its task from the store. Default 300 ms. */
  pollMs?: number;
  /** How often an idle stream sends a `: keep-alive` comment, so proxies keep it open. Default 15 s. */
  keepAliveMs?: number;
  /** Streams one account may have open at once on this server (each reads the store). Default 20. */
  maxStreamsPerAccount?: number;
}

export interface TaskRoutesOptions {
  service: Service;
  limiter: RateLimiter;
  events?: TaskEventsOptions;
}

const ended = (t: TaskRecord) => t.state === 'done' || t.state === 'error';

export async function taskRoutes(app: FastifyInstance, { service, limiter, events = {} }: TaskRoutesOptions): Promise<void> {
  const { ctx } = service;
  const { guard } = accountGuard(service, limiter);
  const pollMs = events.pollMs ?? 300;
  const keepAliveMs = events.keepAliveMs ?? 15_000;
  const maxStreams = events.maxStreamsPerAccount ?? 20;
  const streamsOf = new Map<number, number>();

  app.get('/tasks', { onRequest: guard }, async (req) => {
    const query = req.query ?? {};
    const parsed = TaskListQuery.safeParse(query);
    if (!parsed.success)
      throw issueToError(parsed.error.issues[0]!, query, { root: '$', schema: TaskListQuery, describe: (p) => (p.length === 0 ? 'the query' : undefined) });
    const { limit, before } = parsed.data;
    const tasks = await service.listRecentTasks(req.account!.id, { limit, ...(before === undefined ? {} : { before }) });
    return { tasks: tasks.map((t) => taskListItem(ctx, t)) };
  });

  // Streams still open when the server closes end first, or app.close() would wait for their clients.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const stop of [...open]) stop();
  });

  app.get<{ Params: { id: string } }>('/tasks/:id/events', { onRequest: guard }, async (req, reply) => {
    const account = req.account!;
    // Either interface's task, as its own status address shows it: A2's body or B2's.
    const first = await service.getTask(account.id, req.params.id);
    const streams = streamsOf.get(account.id) ?? 0;
    if (streams >= maxStreams && !ended(first)) {
      throw fail(
        'rate_limited',
        `this account has ${streams} task event streams open on this server, the most it may: close some (a stream ends by itself after done or error)`,
        {
          'retry-after': '5',
        },
      );
    }
    const bodyOf = (t: TaskRecord) => (t.api === 'b' ? taskBodyB(ctx, t) : taskBodyA(ctx, t));
    // What a `task` event announces: everything but the progress, which moves on its own.
    const withoutProgress = (b: ReturnType<typeof bodyOf>) => JSON.stringify({ ...b, progress: undefined });
    const stream = new PassThrough();
    const event = (name: 'task' | 'progress', data: string) => stream.write(`event: ${name}\ndata: ${data}\n\n`);
    const firstBody = bodyOf(first);
    let last = JSON.stringify(firstBody);
    let lastState = withoutProgress(firstBody);
    event('task', last);
    if (ended(first)) stream.end();
    else {
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), keepAliveMs);
      const stop = () => {
        if (stopped) return;
        stopped = true;
        const left = (streamsOf.get(account.id) ?? 1) - 1;
        if (left > 0) streamsOf.set(account.id, left);
        else streamsOf.delete(account.id);
        clearTimeout(timer);
        clearInterval(keepAlive);
        open.delete(stop);
        stream.end();
      };
      const poll = async () => {
        try {
          const t = await ctx.meta.getTask(first.id, account.id);
          if (stopped) return;
          // Gone (its account deleted): nothing more will come.
          if (!t) return stop();
          const b = bodyOf(t);
          const now = JSON.stringify(b);
          if (now !== last) {
            // A change of state (or of anything but the progress) is a `task` event; a rendering
            // mp4's frames moving on is a `progress` event. Both carry the whole body.
            const state = withoutProgress(b);
            event(state === lastState ? 'progress' : 'task', now);
            last = now;
            lastState = state;
          }
          if (ended(t)) return stop();
        } catch (e) {
          ctx.log.warn({ err: e, task_id: first.id }, 'task events: the metadata store did not answer; trying again');
        }
        if (!stopped) timer = setTimeout(() => void poll(), pollMs);
      };
      open.add(stop);
      streamsOf.set(account.id, (streamsOf.get(account.id) ?? 0) + 1);
      // The client went away (or the answer ended): stop reading the store for it. (Fastify counts a
      // request in the metrics when its answer finishes: a stream the client drops, like any aborted
      // answer, is not counted there; it did count against the rate limit when it was opened.)
      reply.raw.once('close', stop);
      // Fastify destroys the stream when the answer ends, however it ends.
      stream.once('close', stop);
      timer = setTimeout(() => void poll(), pollMs);
      // The client may have left while the task was read: its 'close' is already past.
      if (req.raw.destroyed || reply.raw.destroyed) stop();
    }
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      .header('x-accel-buffering', 'no')
      .send(stream);
  });
}
