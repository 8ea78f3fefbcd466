// The account's recent tasks (GET /public/v2/tasks, newest first): a thumbnail of a finished image
// (pdf and mp4 get their format's label), id, design (named from the design list), the kind of render
// in words, format, state, created and finished times, a link to the result (saved under the design's
// name) when done, the error when failed; "Load more" pages back with `before`.
import { useState } from 'preact/hooks';
import { ErrorAlert } from '../components/ErrorAlert.js';
import { ResultLink } from '../components/ResultLink.js';
import { useStudio } from '../context.js';
import { useLoad } from '../hooks.js';
import { isApiError, networkError, type ApiError } from '../lib/api-errors.js';
import { timeText, type TaskListItem } from '../lib/designs.js';
import { downloadName, isImageResult, resultExtension, sameOriginResult, taskKindText } from '../lib/results.js';

const PAGE = 50;

export function TasksView() {
  const { api } = useStudio();
  const first = useLoad((signal) => api.tasks(PAGE, undefined, signal), []);
  // Design names for the table; a task whose design was deleted shows its id only.
  const designs = useLoad((signal) => api.designs(signal), []);
  const names = new Map((designs.data ?? []).map((d) => [d.design_id, d.name]));
  const [more, setMore] = useState<TaskListItem[]>([]);
  const [end, setEnd] = useState(false);
  const [moreError, setMoreError] = useState<ApiError | null>(null);
  const tasks = [...(first.data ?? []), ...more];

  const loadMore = async () => {
    const last = tasks[tasks.length - 1];
    if (!last) return;
    try {
      const page = await api.tasks(PAGE, last.id);
      setMore([...more, ...page]);
      if (page.length < PAGE) setEnd(true);
    } catch (e) {
      setMoreError(isApiError(e) ? e : networkError(e));
    }
  };

  return (
    <main class="page">
      <div class="page-head">
        <h1>Tasks</h1>
        <button
          type="button"
          onClick={() => {
            setMore([]);
            setEnd(false);
            first.reload();
          }}
        >
          Refresh
        </button>
      </div>
      <ErrorAlert error={first.error} />
      {first.loading && !first.data ? <p class="muted">Loading tasks…</p> : null}
      {first.data && tasks.length === 0 ? <p class="muted">No tasks yet: render a design from its page.</p> : null}
      {tasks.length ? (
        <div class="table-wrap">
          <table class="tasks">
            <thead>
              <tr>
                <th scope="col">
                  <span class="sr-only">Preview</span>
                </th>
                <th scope="col">Task</th>
                <th scope="col">Design</th>
                <th scope="col">Kind</th>
                <th scope="col">Format</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">Finished</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((t) => (
                <tr key={t.id} data-testid="task-row" data-task-id={String(t.id)}>
                  <td class="thumb-cell">
                    <ResultThumb task={t} />
                  </td>
                  <td>{t.id}</td>
                  <td>
                    {names.has(t.design_id) ? (
                      <a href={`#/designs/${t.design_id}`}>
                        {names.get(t.design_id) || 'Design'} <span class="muted">(ID {t.design_id})</span>
                      </a>
                    ) : (
                      <span>ID {t.design_id}</span>
                    )}
                  </td>
                  <td title={taskKindText(t.interface).title}>{taskKindText(t.interface).text}</td>
                  <td>{t.format}</td>
                  <td>
                    <span class={`state ${t.state}`}>{t.state}</span>
                  </td>
                  <td data-testid="task-time">{timeText(t.created_at)}</td>
                  <td data-testid="task-time">{timeText(t.finished_at)}</td>
                  <td>
                    {t.state === 'done' && t.result_url ? (
                      <ResultLink url={t.result_url} fileName={downloadName({ name: names.get(t.design_id) ?? '', id: t.design_id }, t.id, t.result_url)}>
                        Result
                      </ResultLink>
                    ) : t.error ? (
                      <span class="field-error" title={t.error.description}>
                        {t.error.code}
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ErrorAlert error={moreError} />
      {first.data && first.data.length === PAGE && !end ? (
        <button type="button" onClick={() => void loadMore()}>
          Load more
        </button>
      ) : null}
    </main>
  );
}

/**
 * A finished image's own file, shown small (read from the page's origin, lazily: only rows scrolled
 * into view load theirs); a pdf or mp4 gets its format's label instead of a picture.
 */
function ResultThumb({ task: t }: { task: TaskListItem }) {
  if (t.state !== 'done' || !t.result_url) return null;
  const local = sameOriginResult(t.result_url);
  if (local && isImageResult(t.result_url)) {
    return (
      <img class="result-thumb" data-testid="task-thumb" src={local} alt={`Result of task ${t.id}`} width={48} height={48} loading="lazy" decoding="async" />
    );
  }
  return (
    <span class="result-icon" data-testid="task-thumb">
      {(resultExtension(t.result_url) || t.format).toUpperCase()}
    </span>
  );
}
