// The Engine's side of its render threads: options become a job that can cross threads (the
// callbacks stay here and answer the thread's messages), and the thread's result or failure becomes
// the RenderResult or ImprintError the same render on the caller's thread would give.
import { ImprintError, type ErrorCode } from '../errors.js';
import type { RenderOptions } from './options.js';
import { RenderFailure, type FailureKind, type RenderPool, type RunCalls } from './pool.js';
import type { RenderResult } from './result.js';
import type { ThreadJob, ThreadResult } from './thread-protocol.js';

/** The options without functions and signal, and the calls that serve them from this thread. */
export function splitOptions(options: RenderOptions): { job: ThreadJob; calls: RunCalls } {
  const { assets, signal, onProgress, pages, ...rest } = options;
  const job: ThreadJob = {
    ...rest,
    assets: assets !== undefined,
    progress: onProgress !== undefined,
    ...(pages ? { pages: pages.map(({ assets: own, ...p }) => ({ ...p, assets: own !== undefined })) } : {}),
  };
  const calls: RunCalls = {
    ...(assets ? { assets } : {}),
    ...(pages?.some((p) => p.assets) ? { pageAssets: pages.map((p) => p.assets) } : {}),
    ...(onProgress ? { onProgress } : {}),
    ...(signal ? { signal } : {}),
  };
  return { job, calls };
}

const buffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

export function resultOf({ bytes, poster, ...rest }: ThreadResult): RenderResult {
  return { ...rest, bytes: buffer(bytes), ...(poster ? { poster: buffer(poster) } : {}) };
}

const KIND_CODES: Record<Exclude<FailureKind, 'render'>, ErrorCode> = {
  timeout: 'render_timeout',
  memory: 'render_out_of_memory',
  cancelled: 'render_cancelled',
  crash: 'render_failed',
};

/** A pool failure as the ImprintError the caller's thread would have thrown. */
export function errorOf(e: unknown): unknown {
  if (!(e instanceof RenderFailure)) return e;
  if (e.kind !== 'render') return new ImprintError(KIND_CODES[e.kind], e.path, e.message, { cause: e });
  if (e.code === 'internal') return new ImprintError('render_failed', '$', `rendering failed: ${e.message}`, { cause: e });
  return new ImprintError(e.code, e.path, e.message);
}

/** Renders `options` on a thread of `pool`. */
export async function renderOnThread(pool: RenderPool, options: RenderOptions): Promise<RenderResult> {
  const { job, calls } = splitOptions(options);
  try {
    return resultOf(await pool.run(job, calls));
  } catch (e) {
    throw errorOf(e);
  }
}
