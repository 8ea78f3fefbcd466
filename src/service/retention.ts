// The retention sweeper: uploads and results older than the retention period (30 days by default)
// are marked expired, then their bytes are deleted. Marking first means a crash mid-sweep leaves at
// worst a file that the next sweep no longer knows about, never a record pointing at nothing usable.
import type { ServiceContext } from './context.js';

/**
 * Files of a replaced or deleted design, or a deleted library font, are kept this long before the
 * sweeper deletes them: a render reads its files when it starts; a day covers the longest by far.
 */
export const RETIRED_FILES_KEPT_MS = 86_400_000;

export interface SweepReport {
  uploads: number;
  results: number;
  /** Files of replaced or deleted designs. */
  designFiles: number;
}

export async function sweep(ctx: ServiceContext): Promise<SweepReport> {
  const now = ctx.clock();
  const report: SweepReport = { uploads: 0, results: 0, designFiles: 0 };
  for (;;) {
    const uploads = await ctx.meta.expireUploads(now);
    await Promise.all(uploads.map((u) => ctx.blobs.delete(u.blobKey)));
    report.uploads += uploads.length;
    if (uploads.length === 0) break;
  }
  for (;;) {
    const tasks = await ctx.meta.expireResults(now - ctx.config.retentionMs, now);
    await Promise.all(tasks.flatMap((t) => [t.resultKey, t.posterKey].filter((k): k is string => k !== null).map((k) => ctx.blobs.delete(k))));
    report.results += tasks.length;
    if (tasks.length === 0) break;
  }
  // Files of replaced and deleted designs, once no render can still be reading them.
  for (;;) {
    const keys = await ctx.meta.takeDueBlobs(now);
    await Promise.all(keys.map((k) => ctx.blobs.delete(k)));
    report.designFiles += keys.length;
    if (keys.length === 0) break;
  }
  if (report.uploads) ctx.metrics.inc('imprint_blobs_expired_total', { kind: 'upload' }, report.uploads);
  if (report.results) ctx.metrics.inc('imprint_blobs_expired_total', { kind: 'result' }, report.results);
  if (report.uploads || report.results || report.designFiles) ctx.log.info(report, 'retention sweep');
  return report;
}

/** Runs `sweep` now and then every interval until stopped. */
export function startSweeper(ctx: ServiceContext): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = sweep(ctx).catch((e: unknown) => ctx.log.error({ err: e }, 'retention sweep failed'));
  };
  run();
  const timer = setInterval(run, ctx.config.sweepIntervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
