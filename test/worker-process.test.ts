// `imprint serve`'s worker process, the parts a unit can show: how its mode is configured, and how
// the server's /metrics adds up the counters the worker process sends it.
import { describe, expect, it } from 'vitest';
import { workerModeFromEnv } from '../src/cli/worker-process.js';
import { ConfigError } from '../src/service/config.js';
import { Metrics } from '../src/service/metrics.js';

describe('IMPRINT_SERVE_WORKER', () => {
  it('is a child process by default, and inline or none when asked', () => {
    expect(workerModeFromEnv({})).toBe('process');
    expect(workerModeFromEnv({ IMPRINT_SERVE_WORKER: 'inline' })).toBe('inline');
    expect(workerModeFromEnv({ IMPRINT_SERVE_WORKER: 'none' })).toBe('none');
  });

  it('refuses anything else with the variable name', () => {
    expect(() => workerModeFromEnv({ IMPRINT_SERVE_WORKER: 'thread' })).toThrow(ConfigError);
    expect(() => workerModeFromEnv({ IMPRINT_SERVE_WORKER: 'thread' })).toThrow(/IMPRINT_SERVE_WORKER but received "thread"/);
  });
});

describe('metrics of a worker process', () => {
  const gauges = { tasksByState: { queued: 0, pending: 0, done: 0, error: 0 } };

  it('adds the latest snapshot of each worker process to the server’s own counters', () => {
    const server = new Metrics();
    server.inc('imprint_tasks_created_total', { format: 'png' }, 5);
    const worker = new Metrics();
    worker.inc('imprint_tasks_finished_total', { state: 'done' }, 2);
    worker.observeRender('png', 0.02);
    server.absorb('worker-process-1', worker.snapshot());
    worker.inc('imprint_tasks_finished_total', { state: 'done' });
    worker.observeRender('png', 0.2);
    // A later snapshot replaces the earlier one of the same process: nothing is counted twice.
    server.absorb('worker-process-1', worker.snapshot());
    // A restarted worker process starts from zero: what the first one counted stays.
    const restarted = new Metrics();
    restarted.inc('imprint_tasks_finished_total', { state: 'done' });
    server.absorb('worker-process-2', restarted.snapshot());

    const text = server.render(gauges);
    expect(text).toMatch(/^imprint_tasks_created_total\{format="png"\} 5$/m);
    expect(text).toMatch(/^imprint_tasks_finished_total\{state="done"\} 4$/m);
    expect(text).toMatch(/^imprint_render_duration_seconds_count\{format="png"\} 2$/m);
    expect(text).toMatch(/^imprint_render_duration_seconds_bucket\{format="png",le="0.025"\} 1$/m);
    // The server's own counters are its own: get() does not include what it absorbed.
    expect(server.get('imprint_tasks_finished_total', { state: 'done' })).toBe(0);
  });

  it('tells a sender whether anything changed since its last snapshot', () => {
    const m = new Metrics();
    const v = m.version;
    expect(m.version).toBe(v);
    m.inc('imprint_uploads_total');
    expect(m.version).toBeGreaterThan(v);
  });
});
