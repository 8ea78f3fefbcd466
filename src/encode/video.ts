// encode: one ffmpeg process per video, fed raw rgba frames through stdin, writing an mp4 into a
// private temp dir. Every way out (finish, ffmpeg failure, abort) kills ffmpeg and removes the dir.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ImprintError } from '../errors.js';
import { ffmpegArgs, type VideoEncodeSettings } from './ffmpeg-args.js';

export interface VideoProgress {
  /** Frames accepted by ffmpeg's stdin. */
  framesWritten: number;
  /** Frames ffmpeg reports as encoded; lags framesWritten by x264's lookahead. */
  framesEncoded: number;
  totalFrames: number;
  /** framesEncoded / totalFrames, 0-1. */
  fraction: number;
}

export interface VideoEncoderOptions extends Omit<VideoEncodeSettings, 'output'> {
  totalFrames: number;
  signal?: AbortSignal;
  /** Called about twice a second (ffmpeg's -progress rate) and once at the end. */
  onProgress?: (p: VideoProgress) => void;
  /** Default: the binary of @ffmpeg-installer/ffmpeg. */
  ffmpegPath?: string;
}

/** Enough of ffmpeg's stderr to show its error without carrying a runaway log around. */
const STDERR_TAIL = 2000;

function spawnFfmpeg(path: string, args: string[]) {
  // buffer: false — progress lines are consumed as they come and stderr is kept as a bounded tail.
  return execa(path, args, { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe', buffer: false, reject: false, cleanup: true });
}
type FfmpegProcess = ReturnType<typeof spawnFfmpeg>;
type FfmpegResult = Awaited<FfmpegProcess>;

let defaultPath: Promise<string> | undefined;
export function defaultFfmpegPath(): Promise<string> {
  // Imported lazily: the installer resolves its binary at import time, which image-only users don't need.
  defaultPath ??= import('@ffmpeg-installer/ffmpeg').then((m) => m.default.path);
  return defaultPath;
}

function cancelled(): ImprintError {
  return new ImprintError('render_cancelled', '$', 'the render was cancelled');
}

export class VideoEncoder {
  readonly #options: VideoEncoderOptions;
  readonly #dir: string;
  readonly #output: string;
  readonly #child: FfmpegProcess;
  /** Settles when ffmpeg has exited and its pipes are closed; never rejects (reject: false). */
  readonly #exited: Promise<FfmpegResult>;
  /** Rejects with #failure the moment the encode fails or is aborted, so every waiter wakes up. */
  readonly #failed: Promise<never>;
  #rejectFailed!: (e: Error) => void;
  #failure: Error | undefined;

  #cleanup: Promise<void> | undefined;
  #state: 'running' | 'finishing' | 'done' = 'running';
  #stderr = '';
  #stdoutLine = '';
  #framesWritten = 0;
  #framesEncoded = 0;
  readonly #onAbort = () => void this.#fail(cancelled());

  private constructor(options: VideoEncoderOptions, dir: string, ffmpegPath: string) {
    this.#options = options;
    this.#dir = dir;
    this.#output = join(dir, 'out.mp4');
    this.#failed = new Promise<never>((_, reject) => {
      this.#rejectFailed = reject;
    });
    this.#failed.catch(() => {}); // observed through the races below; not an unhandled rejection.

    const { totalFrames: _t, signal: _s, onProgress: _p, ffmpegPath: _f, ...settings } = options;
    this.#child = spawnFfmpeg(ffmpegPath, ffmpegArgs({ ...settings, output: this.#output }));
    this.#child.stdout.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => this.#onStdout(chunk));
    this.#child.stderr.setEncoding('utf8');
    this.#child.stderr.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
    });
    // EPIPE once ffmpeg has died: the exit below reports it with ffmpeg's own words.
    this.#child.stdin.on('error', () => {});
    this.#exited = this.#child.then((r) => r);
    void this.#exited.then((r) => {
      if (this.#state === 'running') void this.#fail(this.#ffmpegError(r));
    });
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  static async start(options: VideoEncoderOptions): Promise<VideoEncoder> {
    if (!(Number.isInteger(options.totalFrames) && options.totalFrames > 0)) {
      throw new RangeError(`video totalFrames must be a positive integer, got ${String(options.totalFrames)}`);
    }
    // Settings errors surface before any directory or process exists.
    ffmpegArgs({ ...options, output: 'check.mp4' });
    if (options.signal?.aborted) throw cancelled();
    const ffmpegPath = options.ffmpegPath ?? (await defaultFfmpegPath());
    const dir = await mkdtemp(join(tmpdir(), 'imprint-video-'));
    if (options.signal?.aborted) {
      await rm(dir, { recursive: true, force: true });
      throw cancelled();
    }
    try {
      return new VideoEncoder(options, dir, ffmpegPath);
    } catch (e) {
      await rm(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** The ffmpeg process id (for tests and diagnostics); undefined if it could not be spawned. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The private temp dir holding the mp4 while it is encoded; removed on every way out. */
  get tempDir(): string {
    return this.#dir;
  }

  /**
   * Writes one frame of width*height*4 bytes (straight RGBA, opaque); resolves when the pipe accepted
   * it, after which the buffer may be reused. Awaits 'drain' (backpressure) and always yields one
   * event-loop turn: @napi-rs/canvas frees native pixel buffers only when the event loop gets a turn,
   * and a synchronous render loop was measured growing to 6 GB. When it rejects because the encode
   * failed or was aborted, ffmpeg is already gone and the temp dir removed.
   */
  async writeFrame(rgba: Buffer): Promise<void> {
    try {
      await this.#write(rgba);
    } catch (e) {
      await this.#cleanup;
      throw e;
    }
  }

  async #write(rgba: Buffer): Promise<void> {
    this.#throwIfFailed();
    if (this.#state !== 'running') throw new ImprintError('render_failed', '$', 'VideoEncoder.writeFrame after finish');
    const { width, height, totalFrames } = this.#options;
    if (rgba.length !== width * height * 4) {
      throw new RangeError(`video frame must be ${width}x${height}x4 = ${width * height * 4} bytes, got ${rgba.length}`);
    }
    if (this.#framesWritten >= totalFrames) throw new RangeError(`video frame ${this.#framesWritten + 1} is past totalFrames (${totalFrames})`);
    const stdin = this.#child.stdin;
    if (!stdin.write(rgba)) {
      let onDrain: (() => void) | undefined;
      const drained = new Promise<void>((resolve) => {
        onDrain = resolve;
        stdin.once('drain', resolve);
      });
      try {
        // #exited too: a stream that is ending or dead may never emit 'drain'.
        await Promise.race([drained, this.#failed, this.#exited]);
      } finally {
        if (onDrain) stdin.off('drain', onDrain);
      }
    }
    this.#throwIfFailed();
    this.#framesWritten++;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#throwIfFailed();
  }

  /** Rethrows the failure that ended the encode, if any. */
  #throwIfFailed(): void {
    const failure = this.#failure;
    if (failure) throw failure;
  }

  /** Closes stdin, waits for ffmpeg, returns the mp4 bytes and removes the temp dir. */
  async finish(): Promise<Buffer> {
    const failed = this.#failure;
    if (failed) {
      await this.#cleanup;
      throw failed;
    }
    if (this.#state !== 'running') throw new ImprintError('render_failed', '$', 'VideoEncoder.finish called twice');
    this.#state = 'finishing';
    this.#child.stdin.end();
    let result: FfmpegResult;
    try {
      result = await Promise.race([this.#exited, this.#failed]);
    } catch (e) {
      await this.#cleanup;
      throw e;
    }
    // An abort can land between ffmpeg's exit and this line; it has already removed the dir.
    const aborted = this.#failure;
    if (aborted) {
      await this.#cleanup;
      throw aborted;
    }
    if (result.failed) {
      const error = this.#ffmpegError(result);
      await this.#fail(error);
      throw this.#failure ?? error;
    }
    // From here on an abort has nothing left to stop; the mp4 is complete.
    this.#state = 'done';
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
    try {
      return await readFile(this.#output);
    } finally {
      await rm(this.#dir, { recursive: true, force: true });
    }
  }

  /** Kills ffmpeg (SIGKILL) and removes the temp dir; idempotent. Pending and later calls reject with render_cancelled. */
  async abort(): Promise<void> {
    if (this.#state === 'done') return;
    await this.#fail(cancelled());
  }

  /** First failure wins; everything after it waits for the same cleanup. */
  #fail(error: Error): Promise<void> {
    if (this.#cleanup) return this.#cleanup;
    this.#failure = error;
    this.#rejectFailed(error);
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
    this.#cleanup = (async () => {
      if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
      await this.#exited;
      await rm(this.#dir, { recursive: true, force: true });
    })();
    return this.#cleanup;
  }

  #ffmpegError(result: FfmpegResult): ImprintError {
    const stderr = this.#stderr.trim();
    // No stderr: ffmpeg could not start, was killed from outside, or quit silently; execa says which.
    const detail = stderr !== '' ? stderr : (result.shortMessage ?? `exit code ${String(result.exitCode)}`);
    return new ImprintError('render_failed', '$', `ffmpeg failed: ${detail}`);
  }

  #onStdout(chunk: string): void {
    const lines = (this.#stdoutLine + chunk).split('\n');
    this.#stdoutLine = lines.pop() ?? '';
    for (const line of lines) {
      const eq = line.indexOf('=');
      if (eq < 0) continue;
      const key = line.slice(0, eq).trim();
      const value = line.slice(eq + 1).trim();
      if (key === 'frame') {
        const n = Number(value);
        if (Number.isFinite(n)) this.#framesEncoded = Math.max(this.#framesEncoded, n);
      } else if (key === 'progress') {
        this.#report();
      }
    }
  }

  #report(): void {
    const { onProgress, totalFrames } = this.#options;
    if (!onProgress || this.#failure) return;
    const framesEncoded = Math.min(this.#framesEncoded, totalFrames);
    try {
      onProgress({ framesWritten: this.#framesWritten, framesEncoded, totalFrames, fraction: framesEncoded / totalFrames });
    } catch (e) {
      // Thrown from a stream event it would crash the process; fail the encode with it instead.
      void this.#fail(e instanceof Error ? e : new Error(String(e)));
    }
  }
}
