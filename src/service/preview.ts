// Previews (POST /public/v2/preview): a design with overrides rendered at once in this process's
// preview render threads and answered as an image; no task is stored and nothing is billed. The
// render options are built as the worker builds a task's (the design's template, the overrides with
// upload URLs turned into references, the account's files and library fonts), so a preview shows
// what a render of the same request would, at a smaller scale.
import type { DesignInput, RenderOptions } from '../engine.js';
import { validationError } from '../errors.js';
import type { FitReport } from '../layout/layout.js';
import { MIME_TYPES } from '../output-formats.js';
import { RenderPool } from '../render/pool.js';
import { errorOf, resultOf, splitOptions } from '../render/threaded.js';
import { renderWarnings, type RenderWarning } from '../render/warnings.js';
import type { Overrides } from '../resolve/types.js';
import type { Account } from '../store/metadata/records.js';
import { PREVIEW_MAX_SIDE } from './answers.js';
import type { ServiceConfig } from './config.js';
import type { ServiceContext } from './context.js';
import { getDesign } from './designs.js';
import { accountFontSet, installDesignFonts, libraryFontFiles } from './fonts.js';
import { accountAssetResolver } from './render-assets.js';
import { prepareOverrides, uploadOfUrl } from './uploads.js';
import { normaliseAssetPath } from './design-assets.js';
import { DESIGN_ASSETS_MAX } from './shapes.js';
import { parseDesign } from '../design/parse.js';
import { childPath } from '../format/json-path.js';
import { parseImageRef } from '../format/image-ref.js';

export type PreviewFormat = 'png' | 'jpg';

/** The preview request body, already checked against its schema (src/http/schemas.ts PreviewRequest). */
export interface PreviewInput {
  design_id: number;
  /** An addition: the saved version to preview; default the latest. */
  design_version?: number | undefined;
  /** Default png. */
  format?: PreviewFormat | undefined;
  /** jpg only. */
  quality?: number | undefined;
  /** Interface A's map, or interface B's list (slide backgrounds of a video design). */
  objects_overrides?: Record<string, unknown> | readonly unknown[] | undefined;
  /** More than 0, at most 1; default 1. */
  scale?: number | undefined;
  /** Seconds into an animated or video design. */
  time?: number | undefined;
  /** An addition for the Studio's editor: the design as edited, previewed in place of the saved version. */
  design?: Record<string, unknown> | undefined;
  /** With `design`: images it names that are uploads not saved into the design yet (path → upload URL). */
  assets?: Record<string, string> | undefined;
}

export interface Preview {
  bytes: Buffer;
  format: PreviewFormat;
  mimeType: string;
  width: number;
  height: number;
  /** The scale the image was painted at: the one asked for, or lower to keep the long side within PREVIEW_MAX_SIDE. */
  scale: number;
  /** Every text object as laid out (font sizes in design pixels). */
  report: FitReport;
  /** What could not be drawn as meant, as a task's warnings. */
  warnings: RenderWarning[];
  /** Milliseconds the service spent: design, overrides, the render on its thread and the encoding. */
  renderMs: number;
}

/**
 * The preview threads of a service process: started on the first preview (lazy), and idle ones do not
 * keep the process alive. Their limits are the worker's (time, heap), their image caches smaller.
 */
export function previewPool(config: ServiceConfig): RenderPool {
  return new RenderPool({
    size: config.previewThreads,
    lazy: true,
    timeoutMs: config.renderTimeoutMs,
    memoryMb: config.renderMemoryMb,
    hints: { timeout: 'simplify the design or raise IMPRINT_RENDER_TIMEOUT_S', memory: 'use smaller images or raise IMPRINT_RENDER_MEMORY_MB' },
    // A preview session re-renders one design with the same photos again and again: its decoded
    // images stay cached on the thread (at the preview's size), the rest is bounded like the worker's.
    imageCacheBytes: 32 * 1024 * 1024,
    sharpCacheMb: 16,
  });
}

/**
 * The scale a preview is painted at: the one asked for, lowered so that the long side is at most
 * PREVIEW_MAX_SIDE (rounded down to 6 decimals, so the rounded image never passes it).
 */
export function previewScale(width: number, height: number, asked = 1): number {
  const long = Math.max(width, height);
  if (!(long > 0) || long * asked <= PREVIEW_MAX_SIDE) return asked;
  return Math.floor((PREVIEW_MAX_SIDE / long) * 1e6) / 1e6;
}

/** The design's size from its stored template (validated when it was imported). */
function sizeOf(template: unknown): { width: number; height: number } {
  const t = (template ?? {}) as { width?: unknown; height?: unknown };
  return { width: typeof t.width === 'number' ? t.width : 0, height: typeof t.height === 'number' ? t.height : 0 };
}

/** The blob keys of the uploads an edited design names (normalised path → key), each checked at its `$.assets` key. */
async function editedAssets(ctx: ServiceContext, accountId: number, assets: Record<string, string> | undefined): Promise<Record<string, string>> {
  const entries = Object.entries(assets ?? {});
  if (entries.length > DESIGN_ASSETS_MAX) throw validationError('$.assets', `${entries.length} files: a preview takes at most ${DESIGN_ASSETS_MAX}`);
  const keys: Record<string, string> = {};
  for (const [key, url] of entries) {
    const at = childPath('$.assets', key);
    const ref = parseImageRef(key, at);
    if (ref.kind !== 'path') throw validationError(at, 'expected a relative path as the template writes it (an image\'s "path"), such as "photo.jpg"');
    keys[normaliseAssetPath(ref.path)] = (await uploadOfUrl(ctx, accountId, url, at)).blobKey;
  }
  return keys;
}

/**
 * `signal`: the client went away. A preview still waiting for a thread is dropped (typing in the
 * Studio sends a new one per pause); one already rendering is told to stop, and as a still rarely
 * looks at that, it usually finishes first; either way its answer is not sent.
 */
export async function renderPreview(ctx: ServiceContext, pool: RenderPool, account: Account, input: PreviewInput, signal?: AbortSignal): Promise<Preview> {
  const started = performance.now();
  const format = input.format ?? 'png';
  if (input.quality !== undefined && format !== 'jpg') throw validationError('$.quality', `quality applies to jpg only: remove it for ${format}`);
  const saved = await getDesign(ctx, account.id, input.design_id, { version: input.design_version, missing: 'validation_error', at: '$.design_version' });
  if (input.assets && !input.design) throw validationError('$.assets', 'assets go with design (the edited design that names them): send both, or neither');
  // The editor's unsaved design: the saved version's files, and the uploads it names that are not saved into it yet.
  const design = input.design
    ? { ...saved, template: input.design, assets: { ...saved.assets, ...(await editedAssets(ctx, account.id, input.assets)) } }
    : saved;
  // Upload URLs of this account become references the resolver below serves; anything else is refused here.
  const overrides = await prepareOverrides(ctx, account.id, input.objects_overrides ?? {}, '$.objects_overrides');
  const fontFiles = await libraryFontFiles(ctx, account.id, design.template);
  // A Google Fonts family the overrides pick is installed first, as for a render request.
  const fonts = await accountFontSet(ctx, account.id, design.template);
  await installDesignFonts(ctx, design.template, fonts, { overrides });
  // An edited design is checked here, where its errors can be put at $.design… (the render's own check
  // would put them at the template's paths, which name no field of this request).
  if (input.design) parseDesign(input.design, fonts, '$.design');
  const { width, height } = sizeOf(design.template);
  const scale = previewScale(width, height, input.scale);
  const options: RenderOptions = {
    // Stored templates and overrides are plain JSON: the engine validates them like any input, with
    // the request's JSON paths ($.objects_overrides.<name>…).
    design: design.template as DesignInput,
    overrides: overrides as Overrides,
    format,
    assets: accountAssetResolver(ctx, account.id, design),
    ...(fontFiles.length > 0 ? { fontFiles } : {}),
    ...(scale === 1 ? {} : { scale }),
    ...(input.time === undefined ? {} : { time: input.time }),
    ...(input.quality === undefined ? {} : { jpg: { quality: input.quality } }),
  };
  const { job, calls } = splitOptions(options);
  let out;
  try {
    out = resultOf(await pool.run(job, signal ? { ...calls, signal, abortReason: 'the client closed the connection before the preview was ready' } : calls));
  } catch (e) {
    throw errorOf(e);
  }
  const renderMs = performance.now() - started;
  ctx.log.debug({ account_id: account.id, design_id: saved.id, format, scale, ms: Math.round(renderMs) }, 'preview rendered');
  return {
    bytes: out.bytes,
    format,
    mimeType: MIME_TYPES[format],
    width: out.width,
    height: out.height,
    scale,
    report: out.report,
    warnings: renderWarnings(out.report),
    renderMs,
  };
}
