// Messages between a render pool (src/render/pool.ts) and its threads (render-thread.ts). A job is a
// render's options without what cannot cross threads: asset bytes are asked for by the thread and
// served by the caller's resolver, progress and abort travel as messages.
import type { ErrorCode } from '../errors.js';
import type { ImageRef } from '../scene/scene.js';
import type { PageInput, RenderOptions } from './options.js';
import type { RenderResult } from './result.js';

/** What every thread of a pool is started with. */
export interface ThreadData {
  /** Decoded images this thread keeps between renders, in bytes. */
  imageCacheBytes: number;
  /** The pool owner's font folder (FontSet.dir); undefined: the bundled set. */
  fontsDir?: string;
  /** The pool owner's folder of installed catalogue families (FontSet.installed); undefined: the default one. */
  installedDir?: string;
  /** libvips' per-process operation cache, in MB; undefined leaves sharp's default. */
  sharpCacheMb?: number;
}

/** RenderOptions as structured-clone data: functions and the signal stay with the caller. */
export type ThreadJob = Omit<RenderOptions, 'assets' | 'signal' | 'onProgress' | 'pages'> & {
  /** The caller gave an asset resolver: the thread asks it for bytes (else the thread resolves files itself). */
  assets: boolean;
  pages?: (Omit<PageInput, 'assets'> & { assets: boolean })[];
  /** The caller wants video progress messages. */
  progress: boolean;
};

export type ToThread =
  | { type: 'render'; id: number; job: ThreadJob }
  | { type: 'asset'; req: number; bytes?: Uint8Array; error?: { notFound: boolean; message: string } }
  | { type: 'abort'; id: number };

/** What a thread's render gives back: the RenderResult with its bytes as a transferable Uint8Array. */
export type ThreadResult = Omit<RenderResult, 'bytes' | 'poster'> & { bytes: Uint8Array; poster?: Uint8Array };

export type FromThread =
  | { type: 'ready' }
  /** `page`: the resolver of that page (PageInput.assets), else the render's. */
  | { type: 'asset'; id: number; req: number; ref: ImageRef; page?: number }
  | { type: 'progress'; id: number; progress: Parameters<NonNullable<RenderOptions['onProgress']>>[0] }
  | { type: 'done'; id: number; result: ThreadResult }
  | { type: 'failed'; id: number; error: { code: ErrorCode | 'internal'; path: string; message: string } };
