// The account's designs as a grid of cards (name, id, size, type, a thumbnail rendered by the
// preview endpoint at a small scale), with search, a new design (blank at a size preset, or a copy
// of another) and rename, duplicate and delete on each card. Thumbnails load two at a time and are
// kept for the tab's life per design version, so coming back to the grid costs no requests.
import { useEffect, useId, useState } from 'preact/hooks';
import { ErrorAlert } from '../components/ErrorAlert.js';
import { useStudio } from '../context.js';
import { useLoad } from '../hooks.js';
import type { Api } from '../lib/api.js';
import { isApiError, networkError, type ApiError } from '../lib/api-errors.js';
import { designType, sizeText, type DesignSummary } from '../lib/designs.js';
import { draftedDesigns } from '../lib/drafts.js';
import { blankDesign, SIZE_PRESETS } from '../lib/design-ops.js';
import { checkName, copyName, parseSide, searchDesigns, type FieldProblem } from '../lib/new-design.js';
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
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();

  useEffect(() => {
    if (!list.data) return;
    const ctl = new AbortController();
    void loadThumbs(api, list.data, ctl.signal, () => setTick((t) => t + 1));
    return () => ctl.abort();
  }, [list.data]);

  const designs = list.data ?? [];
  const shown = searchDesigns(designs, query);
  /** Runs a change to the list, shows its error in the page, and loads the list again after it. */
  const change = async (work: () => Promise<unknown>): Promise<boolean> => {
    setError(undefined);
    try {
      await work();
      list.reload();
      return true;
    } catch (e) {
      setError(isApiError(e) ? e : networkError(e));
      return false;
    }
  };

  return (
    <main class="page">
      <div class="page-head">
        <h1>Designs</h1>
        <div class="page-actions">
          <input
            type="search"
            class="search"
            aria-label="Search designs"
            placeholder="Search by name or ID"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
          <button type="button" class="primary" onClick={() => setCreating(true)} disabled={creating}>
            New design
          </button>
          <a class="button" href="#/import">
            Upload a design zip
          </a>
        </div>
      </div>
      {creating ? <NewDesign designs={designs} onCancel={() => setCreating(false)} /> : null}
      <ErrorAlert error={list.error} />
      <ErrorAlert error={error} />
      {list.loading && !list.data ? <p class="muted">Loading designs…</p> : null}
      {list.data && list.data.length === 0 ? (
        <p class="muted">
          No designs yet. Make a{' '}
          <button type="button" class="link" onClick={() => setCreating(true)}>
            new design
          </button>
          , <a href="#/import">upload a design zip</a> or use <code>imprint admin import-design</code>.
        </p>
      ) : null}
      {designs.length > 0 && shown.length === 0 ? <p class="muted">No design matches “{query.trim()}”.</p> : null}
      <ul class="grid" aria-label="Designs">
        {shown.map((d) => (
          <li key={d.design_id}>
            <DesignCard
              design={d}
              thumb={thumbs.get(thumbKey(d))}
              edited={drafted.has(d.design_id)}
              onRename={(name) => change(() => api.renameDesign(d.design_id, name))}
              onDuplicate={() =>
                change(() =>
                  api.duplicateDesign(
                    d.design_id,
                    copyName(
                      d.name || `Design ${d.design_id}`,
                      designs.map((x) => x.name),
                    ),
                  ),
                )
              }
              onDelete={() => change(() => api.deleteDesign(d.design_id))}
            />
          </li>
        ))}
      </ul>
    </main>
  );
}

/** The new-design form: a name, and a blank page at a size preset or a custom size, or a copy of a design. */
function NewDesign({ designs, onCancel }: { designs: DesignSummary[]; onCancel: () => void }) {
  const { api } = useStudio();
  const ids = { name: useId(), start: useId(), width: useId(), height: useId() };
  const [name, setName] = useState('');
  // A preset's id, "custom", or "copy:<design id>".
  const [start, setStart] = useState(SIZE_PRESETS[0]!.id);
  const [width, setWidth] = useState('1080');
  const [height, setHeight] = useState('1080');
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const problem = (field: FieldProblem['field']) => problems.find((p) => p.field === field)?.message;

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: FieldProblem[] = [];
    const checked = checkName(name);
    if (typeof checked !== 'string') found.push(checked);
    let size: { width: number; height: number; dpi?: number } | undefined = SIZE_PRESETS.find((p) => p.id === start);
    if (start === 'custom') {
      const w = parseSide('width', width);
      const h = parseSide('height', height);
      for (const v of [w, h]) if (typeof v !== 'number') found.push(v);
      if (typeof w === 'number' && typeof h === 'number') size = { width: w, height: h };
    }
    setProblems(found);
    if (found.length > 0 || typeof checked !== 'string') return;
    setBusy(true);
    setError(undefined);
    try {
      const copyOf = start.startsWith('copy:') ? Number(start.slice(5)) : undefined;
      let made;
      if (copyOf !== undefined) made = await api.duplicateDesign(copyOf, checked);
      else {
        // The size was checked above: a blank design of it is always made.
        const blank = blankDesign(size!);
        if (!blank.ok) throw new Error(blank.error.message);
        made = await api.createDesign(checked, blank.design);
      }
      location.hash = `#/designs/${made.design_id}/edit`;
    } catch (err) {
      setError(isApiError(err) ? err : networkError(err));
      setBusy(false);
    }
  };

  return (
    <form class="card form-grid new-design" aria-label="New design" onSubmit={(e) => void submit(e)}>
      <label for={ids.name}>Name</label>
      <div>
        <input id={ids.name} type="text" value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
        {problem('name') ? <p class="field-error">{problem('name')}</p> : null}
      </div>
      <label for={ids.start}>Start from</label>
      <select id={ids.start} value={start} onChange={(e) => setStart(e.currentTarget.value)}>
        <optgroup label="A blank page">
          {SIZE_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom size…</option>
        </optgroup>
        {designs.length ? (
          <optgroup label="A copy of">
            {designs.map((d) => (
              <option key={d.design_id} value={`copy:${d.design_id}`}>
                {d.name || `Design ${d.design_id}`} (ID {d.design_id})
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
      {start === 'custom' ? (
        <>
          <label for={ids.width}>Width (px)</label>
          <div>
            <input id={ids.width} type="text" inputMode="decimal" value={width} onInput={(e) => setWidth(e.currentTarget.value)} />
            {problem('width') ? <p class="field-error">{problem('width')}</p> : null}
          </div>
          <label for={ids.height}>Height (px)</label>
          <div>
            <input id={ids.height} type="text" inputMode="decimal" value={height} onInput={(e) => setHeight(e.currentTarget.value)} />
            {problem('height') ? <p class="field-error">{problem('height')}</p> : null}
          </div>
        </>
      ) : null}
      <span />
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create'}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
      <ErrorAlert error={error} prefix="The design was not created" />
    </form>
  );
}

interface CardProps {
  design: DesignSummary;
  thumb: string | null | undefined;
  edited: boolean;
  onRename: (name: string) => Promise<boolean>;
  onDuplicate: () => Promise<boolean>;
  onDelete: () => Promise<boolean>;
}

function DesignCard({ design: d, thumb, edited, onRename, onDuplicate, onDelete }: CardProps) {
  const type = designType(d);
  const title = d.name || `Design ${d.design_id}`;
  const [renaming, setRenaming] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const nameId = useId();
  const run = async (work: () => Promise<boolean>) => {
    setBusy(true);
    const ok = await work();
    setBusy(false);
    return ok;
  };
  const rename = async (e: Event) => {
    e.preventDefault();
    const checked = checkName(renaming ?? '');
    if (typeof checked !== 'string') return setProblem(checked.message);
    setProblem(undefined);
    if (checked === d.name || (await run(() => onRename(checked)))) setRenaming(null);
  };
  return (
    <article class="design-card" data-testid="design-card" data-design-id={String(d.design_id)}>
      <a href={`#/designs/${d.design_id}`} aria-label={`Open ${title}`}>
        <div class="thumb">
          {thumb ? <img src={thumb} alt={`Thumbnail of ${title}`} /> : <span class="muted">{thumb === null ? 'no preview' : 'rendering…'}</span>}
        </div>
      </a>
      <div class="meta">
        {renaming === null ? (
          <h2>
            <a href={`#/designs/${d.design_id}`}>{title}</a>
          </h2>
        ) : (
          <form class="rename" onSubmit={(e) => void rename(e)}>
            <label for={nameId} class="visually-hidden">
              New name of {title}
            </label>
            <input id={nameId} type="text" value={renaming} maxLength={200} onInput={(e) => setRenaming(e.currentTarget.value)} autoFocus />
            <button type="submit" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => (setRenaming(null), setProblem(undefined))} disabled={busy}>
              Cancel
            </button>
            {problem ? <p class="field-error">{problem}</p> : null}
          </form>
        )}
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
        <div class="card-actions" role="group" aria-label={`Actions for ${title}`}>
          <a class="button" href={`#/designs/${d.design_id}/edit`}>
            Edit template
          </a>
          <button type="button" onClick={() => setRenaming(d.name)} disabled={busy || renaming !== null}>
            Rename
          </button>
          <button type="button" onClick={() => void run(onDuplicate)} disabled={busy}>
            Duplicate
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => {
              // Deleting cannot be undone: the person says so first.
              if (confirm(`Delete “${title}” (ID ${d.design_id})? Renders that name it will fail. This cannot be undone.`)) void run(onDelete);
            }}
          >
            Delete
          </button>
        </div>
      </div>
    </article>
  );
}
