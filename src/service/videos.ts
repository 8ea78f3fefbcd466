// Interface B's video renders: the parameters (fps, size, free mode), the price held from the balance
// when queued and charged on done, and the daily limits (UTC days), all checked before anything is
// stored. The task itself goes through the same queue and worker as interface A's.
import { stillTime } from '../layout/timeline.js';
import { MAX_SLIDE_VIDEO_SECONDS } from '../render-checks.js';
import { ImprintError, validationError } from '../errors.js';
import { DEFAULT_FPS, type Fps, type VideoSize } from '../output-formats.js';
import type { Account, Plan, TaskRecord } from '../store/metadata/records.js';
import { priceFor } from './billing.js';
import type { ServiceContext } from './context.js';
import type { VideoTask } from './answers.js';
import { taskError, taskProgress } from './task-view.js';
import { createTask, secondsBetween } from './tasks.js';

export interface VideoRenderInput {
  videoId: unknown;
  fps?: Fps;
  sizeType?: VideoSize;
  demo?: boolean;
  /** Interface B's list `[{name, object} | {name, slide}]`. */
  overrides?: unknown;
}

/** Price per second of video for this plan at this size and frame rate; free mode costs nothing. */
export function videoRate(plan: Pick<Plan, 'videoRates'>, size: VideoSize, fps: Fps, demo = false): number {
  return demo ? 0 : plan.videoRates[`${size}_${fps}`];
}

const DAY_MS = 86_400_000;
export const utcDayStart = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

export async function createVideoTask(ctx: ServiceContext, account: Account, input: VideoRenderInput): Promise<TaskRecord> {
  const demo = input.demo ?? false;
  if (demo && input.fps === 60)
    throw validationError('$.parameters.fps', 'demo mode renders at 30 fps only: set fps to 30 or leave it out, or set demo to false');
  if (demo && input.sizeType === 'hd')
    throw validationError('$.parameters.size_type', 'demo mode renders sd only: set size_type to sd or leave it out, or set demo to false');
  const fps = input.fps ?? DEFAULT_FPS;
  const size = input.sizeType ?? 'sd';
  const rate = videoRate(account.plan, size, fps, demo);
  const plan = account.plan;
  return createTask(ctx, account.id, {
    designId: input.videoId,
    format: 'mp4',
    overrides: input.overrides ?? [],
    overridesRoot: '$.overrides',
    designIdPath: '$.video_id',
    options: { fps, size, max_duration: MAX_SLIDE_VIDEO_SECONDS, rate, watermark: demo },
    admit: (scene) => {
      if (scene.duration === null)
        throw validationError('$.video_id', 'this design is not a video (it has no duration or slides): use the id of a video design');
      return {
        video: {
          demo,
          reserve: priceFor(scene.duration, rate),
          dayStart: utcDayStart(ctx.clock()),
          dailyLimit: demo ? plan.dailyDemoRenders : plan.dailyRenders,
        },
        // The screenshot shows what a still of the design shows: its poster_time, or the settled opening.
        options: { poster_time: stillTime(scene) },
      };
    },
  });
}

/** Interface B's task (B2): the shape of answers.ts, which the Studio's types also come from. */
export type TaskBodyB = VideoTask;

/** An interface B task of this account by the id in its status URL (B2); interface A's tasks are not found here. */
export async function getVideoTask(ctx: ServiceContext, accountId: number, taskId: string): Promise<TaskRecord> {
  if (!/^\d{1,15}$/.test(taskId)) throw new ImprintError('task_not_found', '$.task_id', `no task "${taskId.slice(0, 40)}": task ids are integers`);
  const task = await ctx.meta.getTask(Number(taskId), accountId);
  if (!task || task.api !== 'b') {
    throw new ImprintError('task_not_found', '$.task_id', `no video task ${taskId} in this account: use the task_id the render request returned`);
  }
  return task;
}

/** Interface B's task (B2). Values not known yet are null; an error costs 0. */
export function taskBodyB(ctx: ServiceContext, t: TaskRecord): TaskBodyB {
  const done = t.state === 'done' && t.resultExpiredAt === null && t.resultToken !== null;
  const base = `${ctx.config.baseUrl}/public/v2/results/${t.resultToken}`;
  const error = taskError(t);
  const progress = taskProgress(t);
  return {
    id: t.id,
    video_id: t.designId,
    user_id: t.accountId,
    wait_time: secondsBetween(t.createdAt, t.startedAt),
    billed_duration: t.state === 'done' ? t.billedDuration : null,
    billed_price: t.state === 'done' ? (t.billedPrice ?? 0) : t.state === 'error' ? 0 : null,
    exec_time: t.state === 'done' || t.state === 'error' ? secondsBetween(t.startedAt, t.finishedAt) : null,
    screenshot_url: done && t.posterKey ? `${base}.poster.jpg` : null,
    video_url: done ? `${base}.mp4` : null,
    start_date: new Date(t.createdAt).toISOString(),
    state_date: new Date(t.stateAt).toISOString(),
    state: t.state,
    ...(error ? { error } : {}),
    ...(progress ? { progress } : {}),
  };
}
