// Counters of the service in Prometheus' text format. They live in the core; the HTTP adapters only
// serve `render()` at /metrics. Gauges that the database knows (queue depth, tasks by state) are read
// when scraped, so several processes report the same truth.
import type { TaskState } from '../store/metadata/records.js';

/** Upper bounds in seconds of the render-duration histogram. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

class Histogram {
  counts = BUCKETS.map(() => 0);
  sum = 0;
  count = 0;
  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) this.counts[i]!++;
    });
  }
}

const esc = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** A process's counters as plain data, to be shown by another process's /metrics (see `absorb`). */
export interface MetricsSnapshot {
  counters: Record<string, Record<string, number>>;
  histograms: Record<string, { counts: number[]; sum: number; count: number }>;
}

export class Metrics {
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly help = new Map<string, string>();
  private readonly histograms = new Map<string, Histogram>();
  /** The latest counters of other processes (`imprint serve`'s worker process), by source. */
  private readonly absorbed = new Map<string, MetricsSnapshot>();
  /** Grows with every change, so a sender can tell whether there is anything new to send. */
  private changes = 0;

  constructor() {
    this.describe('imprint_tasks_created_total', 'Tasks queued, by format.');
    this.describe('imprint_tasks_finished_total', 'Tasks that ended, by state (done, error).');
    this.describe('imprint_tasks_requeued_total', 'Stalled tasks given back to the queue after their worker stopped.');
    this.describe('imprint_uploads_total', 'Images uploaded.');
    this.describe('imprint_blobs_expired_total', 'Uploads and results deleted by the retention sweeper, by kind.');
    this.describe('imprint_completion_hook_failures_total', 'Completion hooks (webhooks) that threw.');
    this.describe('imprint_webhooks_total', 'Webhooks sent, by result (delivered, failed, abandoned: the sending process stopped during the request).');
    this.describe('imprint_http_requests_total', 'HTTP requests, by route and status.');
    this.describe('imprint_rate_limiter_failures_total', 'Rate-limit checks that failed (Redis down) and let the request through.');
  }

  private describe(name: string, help: string): void {
    this.help.set(name, help);
    this.counters.set(name, new Map());
  }

  inc(name: string, labels: Record<string, string> = {}, by = 1): void {
    let series = this.counters.get(name);
    if (!series) {
      series = new Map();
      this.counters.set(name, series);
    }
    const key = Object.entries(labels)
      .map(([k, v]) => `${k}="${esc(v)}"`)
      .join(',');
    series.set(key, (series.get(key) ?? 0) + by);
    this.changes++;
  }

  /** Changes so far (a counter; compare two readings to see whether anything changed). */
  get version(): number {
    return this.changes;
  }

  /** This process's own counters and histograms (not what it absorbed). */
  snapshot(): MetricsSnapshot {
    const counters: MetricsSnapshot['counters'] = {};
    for (const [name, series] of this.counters) if (series.size) counters[name] = Object.fromEntries(series);
    const histograms: MetricsSnapshot['histograms'] = {};
    for (const [format, h] of this.histograms) histograms[format] = { counts: [...h.counts], sum: h.sum, count: h.count };
    return { counters, histograms };
  }

  /**
   * Shows another process's counters as part of this one's: `snapshot` replaces the last one from
   * `source` (counters only grow within one source, so the latest snapshot is its whole count).
   */
  absorb(source: string, snapshot: MetricsSnapshot): void {
    this.absorbed.set(source, snapshot);
  }

  /** The value of one counter series (tests, bench). */
  get(name: string, labels: Record<string, string> = {}): number {
    const key = Object.entries(labels)
      .map(([k, v]) => `${k}="${esc(v)}"`)
      .join(',');
    return this.counters.get(name)?.get(key) ?? 0;
  }

  observeRender(format: string, seconds: number): void {
    let h = this.histograms.get(format);
    if (!h) {
      h = new Histogram();
      this.histograms.set(format, h);
    }
    h.observe(seconds);
    this.changes++;
  }

  /** Own and absorbed counters added up, series by series. */
  private merged(): { counters: Map<string, Map<string, number>>; histograms: Map<string, Histogram> } {
    if (this.absorbed.size === 0) return { counters: this.counters, histograms: this.histograms };
    const counters = new Map([...this.counters].map(([name, series]) => [name, new Map(series)]));
    const histograms = new Map(
      [...this.histograms].map(([format, h]) => [format, Object.assign(new Histogram(), { counts: [...h.counts], sum: h.sum, count: h.count })]),
    );
    for (const snap of this.absorbed.values()) {
      for (const [name, series] of Object.entries(snap.counters)) {
        let into = counters.get(name);
        if (!into) counters.set(name, (into = new Map()));
        for (const [labels, v] of Object.entries(series)) into.set(labels, (into.get(labels) ?? 0) + v);
      }
      for (const [format, h] of Object.entries(snap.histograms)) {
        let into = histograms.get(format);
        if (!into) histograms.set(format, (into = new Histogram()));
        into.sum += h.sum;
        into.count += h.count;
        into.counts = into.counts.map((c, i) => c + (h.counts[i] ?? 0));
      }
    }
    return { counters, histograms };
  }

  /** Prometheus text exposition, with the gauges read from the metadata store. */
  render(gauges: { tasksByState: Record<TaskState, number> }): string {
    const out: string[] = [];
    out.push('# HELP imprint_queue_depth Tasks waiting in the queue.', '# TYPE imprint_queue_depth gauge', `imprint_queue_depth ${gauges.tasksByState.queued}`);
    out.push('# HELP imprint_tasks Tasks by state.', '# TYPE imprint_tasks gauge');
    for (const [state, n] of Object.entries(gauges.tasksByState)) out.push(`imprint_tasks{state="${state}"} ${n}`);
    const { counters, histograms } = this.merged();
    for (const [name, series] of counters) {
      out.push(`# HELP ${name} ${this.help.get(name) ?? name}`, `# TYPE ${name} counter`);
      for (const [labels, v] of series) out.push(`${name}${labels ? `{${labels}}` : ''} ${v}`);
    }
    out.push(
      '# HELP imprint_render_duration_seconds Time from the start of a render to its stored result, by format.',
      '# TYPE imprint_render_duration_seconds histogram',
    );
    for (const [format, h] of histograms) {
      BUCKETS.forEach((b, i) => out.push(`imprint_render_duration_seconds_bucket{format="${format}",le="${b}"} ${h.counts[i]}`));
      out.push(`imprint_render_duration_seconds_bucket{format="${format}",le="+Inf"} ${h.count}`);
      out.push(`imprint_render_duration_seconds_sum{format="${format}"} ${h.sum}`, `imprint_render_duration_seconds_count{format="${format}"} ${h.count}`);
    }
    return out.join('\n') + '\n';
  }
}
