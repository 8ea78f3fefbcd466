// Render tasks: validated and queued here (the same validation_error rules as the engine, at queue
// time), taken by workers, read back by the adapters. States: queued → pending → done | error.
import { withFallbackFamilies } from '../assets/design-fonts.js';
import { z } from 'zod';
import { parseDesign } from '../design/parse.js';
import { issueToError } from '../format/zod-error.js';
import { ImprintError, validationError } from '../errors.js';
import { resolveScene } from '../resolve/resolve.js';
import { JpgOptionsSchema, QUALITY_FORMATS } from '../encode/image.js';
import { DEFAULT_FPS, MIME_TYPES, OUTPUT_FORMATS, type OutputFormat } from '../output-formats.js';
import { checkRenderable } from '../render-checks.js';
import { FpsSchema, VideoSizeSchema } from '../render/options.js';
import type { Scene } from '../scene/scene.js';
import type { VideoAdmission } from '../store/metadata/metadata-store.js';
import type { TaskRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { getDesign } from './designs.js';
import { accountFontSet, installDesignFonts } from './fonts.js';
import { checkDesignFiles, prepareOverrides } from './uploads.js';

/** The spec's four formats first, as its documents list them. */
const SPEC_FORMATS = ['png', 'jpg', 'pdf', 'mp4'] as const satisfies readonly OutputFormat[];
/** What a task renders to: every format of the engine, the spec's four first, then Imprint's additions (webp, avif). */
export const TASK_FORMATS: readonly OutputFormat[] = [...SPEC_FORMATS, ...OUTPUT_FORMATS.filter((f) => !(SPEC_FORMATS as readonly string[]).includes(f))];
export type TaskFormat = OutputFormat;
/** A stored result's Content-Type: the engine's MIME type of its format. */
export const RESULT_TYPES: Readonly<Record<TaskFormat, string>> = MIME_TYPES;

/**
 * Render options a task may carry beyond its format; the adapters fill them from their requests. The
 * fields that are the engine's options take the engine's schema (its fps, size and encoder quality).
 */
export const TaskOptions = z.strictObject({
  fps: FpsSchema.optional(),
  size: VideoSizeSchema.optional(),
  /** Longest video in seconds (interface A: 15). */
  max_duration: z.number().gt(0).max(300).optional(),
  /** Also store a jpg of the frame at this second (interface B's screenshot). */
  poster_time: z.number().min(0).max(300).optional(),
  /** Interface B: price per second of video, fixed when the task is queued. */
  rate: z.number().min(0).max(1000).optional(),
  /** Interface B's free mode: the demo logo on every frame. */
  watermark: z.boolean().optional(),
  /** mp4: frames to render, set when queued; the worker scales its timeout with it. */
  frames: z.int().min(0).optional(),
  /** jpg, webp, avif: encoder quality 1-100 (the engine's default when absent). */
  quality: JpgOptionsSchema.shape.quality,
  /** Interface A's missing_fonts: "fallback" draws a missing family with the default one (and warns). */
  missing_fonts: z.literal('fallback').optional(),
});
export type TaskOptions = z.infer<typeof TaskOptions>;

/** Stored options may carry keys a newer version added: they are dropped, not an error. */
const StoredTaskOptions = z.object(TaskOptions.shape);

/**
 * A stored task's options, typed: checked against the schema they passed when the task was queued
 * (plus the fields set then), so the worker reads them without re-checking each one.
 */
export function taskOptions(task: Pick<TaskRecord, 'options'>): TaskOptions {
  return StoredTaskOptions.parse(task.options);
}

export interface TaskRequest {
  designId: unknown;
  /** The design version to render (interface A's design_version); default the latest saved. */
  designVersion?: number | undefined;
  format: unknown;
  overrides?: unknown;
  webhookUrl?: string | null;
  options?: TaskOptions;
  /** JSON path of the overrides in the caller's request, for errors. Default `$.objects_overrides`. */
  overridesRoot?: string;
  /** JSON path of the design's id in the caller's request, for errors about the design as a whole. Default `$.design_id`. */
  designIdPath?: string;
  /** Interface B: money to hold and daily limits, checked atomically with the insert. */
  video?: VideoAdmission;
  /** Checks on the resolved scene before anything is stored (interface B: is it a video, its price, its poster time). */
  admit?: (scene: Scene) => { video: VideoAdmission; options?: TaskOptions };
}

export async function createTask(ctx: ServiceContext, accountId: number, req: TaskRequest): Promise<TaskRecord> {
  if (!TASK_FORMATS.includes(req.format as TaskFormat)) {
    throw validationError('$.format', `Expected one of ${TASK_FORMATS.join(', ')} for format but received ${JSON.stringify(req.format)}`);
  }
  const format = req.format as TaskFormat;
  const parsedOptions = TaskOptions.safeParse(req.options ?? {});
  if (!parsedOptions.success) throw issueToError(parsedOptions.error.issues[0]!, req.options, { root: '$.options' });
  const options = parsedOptions.data;
  // A version the design does not keep is the request's mistake: validation_error at its field.
  const design = await getDesign(ctx, accountId, req.designId, { version: req.designVersion, missing: 'validation_error', at: '$.design_version' });
  const root = req.overridesRoot ?? '$.objects_overrides';
  const overrides = await prepareOverrides(ctx, accountId, req.overrides ?? {}, root);
  // Resolving is pure and catches every override error before anything is queued.
  // The account's library fonts the design names are part of what its text is checked against.
  const fonts = await accountFontSet(ctx, accountId, design.template);
  // Google Fonts families the overrides pick (font_family) are installed now, before anything is queued.
  await installDesignFonts(ctx, design.template, fonts, { overrides, missingFonts: options.missing_fonts });
  // With missing_fonts "fallback", a family no font has is drawn with the default one: checked the same way.
  const checked = options.missing_fonts === 'fallback' ? withFallbackFamilies(fonts, (design.template as { fonts?: unknown }).fonts) : fonts;
  const scene = resolveScene(parseDesign(design.template, checked), overrides, checked, { design: '$', overrides: root });
  checkDesignFiles(overrides, root, design.assets);
  if (options.quality !== undefined && !(QUALITY_FORMATS as readonly string[]).includes(format)) {
    throw validationError('$.quality', `quality applies to ${QUALITY_FORMATS.join(', ')}: remove it for ${format}`);
  }
  const admitted = req.admit?.(scene);
  // Whatever the engine would refuse before painting is refused now, with its message, not as a task in error.
  checkRenderable(scene, {
    format,
    fps: options.fps ?? DEFAULT_FPS,
    ...(options.max_duration === undefined ? {} : { maxDuration: options.max_duration }),
    at: { duration: '$.format', size: req.designIdPath ?? '$.design_id' },
  });
  if (format === 'mp4' && scene.duration !== null) options.frames = Math.round(scene.duration * (options.fps ?? DEFAULT_FPS));
  const video = admitted?.video ?? req.video;
  const inserted = await ctx.meta.insertTask({
    accountId,
    designId: design.id,
    designVersion: design.version,
    format,
    options: { ...options, ...admitted?.options },
    overrides,
    webhookUrl: req.webhookUrl ?? null,
    now: ctx.clock(),
    ...(video ? { video } : {}),
  });
  if (typeof inserted === 'string') {
    const account = await ctx.meta.getAccount(accountId);
    if (inserted === 'insufficient_funds') {
      throw new ImprintError(
        'insufficient_funds',
        '$',
        `the render costs ${video?.reserve ?? '?'} and the balance available is ${account?.balance ?? 0} (less what queued renders hold): top up the balance, or use demo mode`,
      );
    }
    if (inserted === 'daily_limit_exceeded') {
      throw new ImprintError(
        'daily_limit_exceeded',
        '$',
        `the plan allows ${video?.dailyLimit ?? '?'} ${video?.demo ? 'free (demo) renders' : 'successful paid renders'} per day (UTC): try again after midnight UTC`,
      );
    }
    throw new ImprintError(
      'queue_full',
      '$',
      `the account already has ${account?.plan.queueSize ?? 'the most'} tasks queued or rendering: wait for some to finish, or raise the plan's queue size`,
    );
  }
  // The task is committed: if the queue backend cannot be reached now, it parks the task and delivers
  // it later, so the caller still gets its task id (a retry would only render twice).
  await ctx.queue
    .push(inserted.id)
    .catch((e: unknown) => ctx.log.warn({ task_id: inserted.id, err: e }, 'queue push failed; the task will be delivered later'));
  ctx.metrics.inc('imprint_tasks_created_total', { format });
  ctx.log.info({ task_id: inserted.id, account_id: accountId, design_id: design.id, design_version: design.version, format }, 'task queued');
  return inserted;
}

export async function getTask(ctx: ServiceContext, accountId: number, taskId: unknown): Promise<TaskRecord> {
  const id = typeof taskId === 'string' && /^\d{1,15}$/.test(taskId) ? Number(taskId) : taskId;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
    throw new ImprintError('task_not_found', '$.task_id', `no task ${JSON.stringify(taskId)}: task ids are positive integers`);
  const task = await ctx.meta.getTask(id, accountId);
  if (!task) throw new ImprintError('task_not_found', '$.task_id', `no task ${id} in this account: use the task_id the render request returned`);
  return task;
}

/** Seconds between two times, or null when the later one has not happened yet. */
export const secondsBetween = (from: number | null, to: number | null): number | null => (from === null || to === null ? null : (to - from) / 1000);

/** Time in the queue and render time in seconds (null until known); exec time counts from queued → pending. */
export function taskTimings(t: Pick<TaskRecord, 'createdAt' | 'startedAt' | 'finishedAt'>): { waitTime: number | null; execTime: number | null } {
  return { waitTime: secondsBetween(t.createdAt, t.startedAt), execTime: secondsBetween(t.startedAt, t.finishedAt) };
}

export function resultKeyOf(task: Pick<TaskRecord, 'id' | 'accountId' | 'format'>): string {
  return `results/${task.accountId}/${task.id}.${task.format}`;
}

export function posterKeyOf(task: Pick<TaskRecord, 'id' | 'accountId'>): string {
  return `results/${task.accountId}/${task.id}-poster.jpg`;
}
