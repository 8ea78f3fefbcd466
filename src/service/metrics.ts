// Counters of the service in Prometheus' text format. They live in the core; the HTTP adapters only
// serve `render()` at /metrics. Gauges that the database knows (queue depth, tasks by state) are read
// when scraped, so several processes report the same truth.
import type { TaskState } from '../store/metadata/records.js';

/** Upper bounds in seconds of the render-duration histogram. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

class Histogram {
  readonly counts = BUCKETS.map(() => 0);
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

export class Metrics {
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly help = new Map<string, string>();
  private readonly histograms = new Map<string, Histogram>();

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
  }

  /** Prometheus text exposition, with the gauges read from the metadata store. */
  render(gauges: { tasksByState: Record<TaskState, number> }): string {
    const out: string[] = [];
    out.push('# HELP imprint_queue_depth Tasks waiting in the queue.', '# TYPE imprint_queue_depth gauge', `imprint_queue_depth ${gauges.tasksByState.queued}`);
    out.push('# HELP imprint_tasks Tasks by state.', '# TYPE imprint_tasks gauge');
    for (const [state, n] of Object.entries(gauges.tasksByState)) out.push(`imprint_tasks{state="${state}"} ${n}`);
    for (const [name, series] of this.counters) {
      out.push(`# HELP ${name} ${this.help.get(name) ?? name}`, `# TYPE ${name} counter`);
      for (const [labels, v] of series) out.push(`${name}${labels ? `{${labels}}` : ''} ${v}`);
    }
    out.push(
      '# HELP imprint_render_duration_seconds Time from the start of a render to its stored result, by format.',
      '# TYPE imprint_render_duration_seconds histogram',
    );
    for (const [format, h] of this.histograms) {
      BUCKETS.forEach((b, i) => out.push(`imprint_render_duration_seconds_bucket{format="${format}",le="${b}"} ${h.counts[i]}`));
      out.push(`imprint_render_duration_seconds_bucket{format="${format}",le="+Inf"} ${h.count}`);
      out.push(`imprint_render_duration_seconds_sum{format="${format}"} ${h.sum}`, `imprint_render_duration_seconds_count{format="${format}"} ${h.count}`);
    }
    return out.join('\n') + '\n';
  }
}
