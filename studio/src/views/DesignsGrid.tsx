// The account's designs as a grid of cards (name, id, size, type, a thumbnail rendered by the
// preview endpoint at a small scale). Thumbnails load two at a time and are kept for the tab's
// life per design version, so coming back to the grid costs no requests.
import { useEffect, useState } from 'preact/hooks';
import { ErrorAlert } from '../components/ErrorAlert.js';
import { useStudio } from '../context.js';
import { useLoad } from '../hooks.js';
import type { Api } from '../lib/api.js';
import { isApiError } from '../lib/api-errors.js';
import { designType, sizeText, type DesignSummary } from '../lib/designs.js';
import { draftedDesigns } from '../lib/drafts.js';
import { formatSeconds } from '../lib/timeline.js';

const THUMB_LONG_SIDE = 480;
/** design id + updated_at → object URL of its thumbnail (or null: it could not be rendered). */
const thumbs = new Map<string, string | null>();
const thumbKey = (d: DesignSummary) => `${d.design_id}@${d.updated_at}`;

/** Resolves after `ms`, or at once when the signal aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

async function loadThumbs(api: Api, designs: DesignSummary[], signal: AbortSignal, done: () => void): Promise<void> {
  const todo = designs.filter((d) => !thumbs.has(thumbKey(d)));
  const worker = async () => {
    for (let d = todo.shift(); d && !signal.aborted; d = todo.shift()) {
      // Thumbnails are previews: like the editor's, they leave the plan's last requests of the minute
      // to what the person asks for, and wait for the next minute instead.
      const wait = api.budget.previewDelay(performance.now());
      if (wait > 0) await pause(wait, signal);
      if (signal.aborted) return;
      const scale = Math.min(1, THUMB_LONG_SIDE / Math.max(d.width, d.height));
      try {
        // No time: an animated design's thumbnail is its still (its poster time), as the editor opens it.
        const blob = await api.previewImage({ design_id: d.design_id, format: 'jpg', scale }, signal);
        thumbs.set(thumbKey(d), URL.createObjectURL(blob));
      } catch (e) {
        if (signal.aborted) return;
        if (isApiError(e) && e.status === 429) {
          // Over the limit after all (another tab with the same key): this one again, after Retry-After.
          todo.unshift(d);
          await pause((e.retryAfter ?? 5) * 1000, signal);
          continue;
        }
        thumbs.set(thumbKey(d), null);
      }
      done();
    }
  };
  await Promise.all([worker(), worker()]);
}

export function DesignsGrid() {
  const { api, account } = useStudio();
  // Designs with edits kept in this tab (lib/drafts.ts): marked, so the person sees where their work is.
  const [drafted] = useState(() => draftedDesigns(sessionStorage, account.account_id));
  const list = useLoad((signal) => api.designs(signal), []);
  const [, setTick] = useState(0);

  useEffect(() => {
    if (!list.data) return;
    const ctl = new AbortController();
    void loadThumbs(api, list.data, ctl.signal, () => setTick((t) => t + 1));
    return () => ctl.abort();
  }, [list.data]);

  return (
    <main class="page">
      <div class="page-head">
        <h1>Designs</h1>
        <a class="button" href="#/import">
          Upload a design zip
        </a>
      </div>
      <ErrorAlert error={list.error} />
      {list.loading && !list.data ? <p class="muted">Loading designs…</p> : null}
      {list.data && list.data.length === 0 ? (
        <p class="muted">
          No designs yet. <a href="#/import">Upload a design zip</a> or use <code>imprint admin import-design</code>.
        </p>
      ) : null}
      <ul class="grid" aria-label="Designs">
        {(list.data ?? []).map((d) => (
          <li key={d.design_id}>
            <DesignCard design={d} thumb={thumbs.get(thumbKey(d))} edited={drafted.has(d.design_id)} />
          </li>
        ))}
      </ul>
    </main>
  );
}

function DesignCard({ design: d, thumb, edited }: { design: DesignSummary; thumb: string | null | undefined; edited: boolean }) {
  const type = designType(d);
  return (
    <article class="design-card" data-testid="design-card" data-design-id={String(d.design_id)}>
      <a href={`#/designs/${d.design_id}`} aria-label={`Open ${d.name || `design ${d.design_id}`}`}>
        <div class="thumb">
          {thumb ? (
            <img src={thumb} alt={`Thumbnail of ${d.name || `design ${d.design_id}`}`} />
          ) : (
            <span class="muted">{thumb === null ? 'no preview' : 'rendering…'}</span>
          )}
        </div>
      </a>
      <div class="meta">
        <h2>
          <a href={`#/designs/${d.design_id}`}>{d.name || `Design ${d.design_id}`}</a>
        </h2>
        <p>
          <span class="id">ID {d.design_id}</span>
          <span>{sizeText(d)}</span>
          <span class={`badge ${type}`}>{type}</span>
          {d.duration ? <span>{formatSeconds(d.duration)}</span> : null}
          {edited ? (
            <span class="badge edited" title="This tab keeps edits of this design: open it to see them">
              edited
            </span>
          ) : null}
        </p>
      </div>
    </article>
  );
}
