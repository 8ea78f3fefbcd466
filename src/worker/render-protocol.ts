// Messages between a worker and its render threads. Asset bytes are asked for by the thread and
// served by the worker, which alone talks to the stores.
import type { ImageRef } from '../scene/scene.js';
import type { ErrorCode } from '../errors.js';
import type { WatermarkOptions } from '../resolve/watermark.js';
import type { TaskFormat } from '../service/tasks.js';

export interface RenderJob {
  template: unknown;
  overrides: unknown;
  format: TaskFormat;
  /** jpg, webp, avif: encoder quality. */
  quality?: number;
  fps?: 30 | 60;
  size?: 'design' | 'sd' | 'hd';
  maxDuration?: number;
  posterTime?: number;
  /** The demo logo on every frame (interface B's free mode). */
  watermark?: WatermarkOptions;
}

export type ToThread =
  | { type: 'render'; id: number; job: RenderJob }
  | { type: 'asset'; req: number; bytes?: Uint8Array; error?: { notFound: boolean; message: string } }
  | { type: 'abort'; id: number };

export interface RenderOutput {
  bytes: Uint8Array;
  poster?: Uint8Array;
  width: number;
  height: number;
  frames?: number;
}

export type FromThread =
  | { type: 'ready' }
  | { type: 'asset'; id: number; req: number; ref: ImageRef }
  | { type: 'done'; id: number; output: RenderOutput }
  | { type: 'failed'; id: number; error: { code: ErrorCode | 'internal'; path: string; message: string } };
