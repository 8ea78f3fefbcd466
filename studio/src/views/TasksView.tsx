// The account's recent tasks (GET /public/v2/tasks, newest first): id, design (named from the design
// list), interface, format, state, created and finished times, a link to the result when done, the
// error when failed; "Load more" pages back with `before`.
import { useState } from 'preact/hooks';
import { ErrorAlert } from '../components/ErrorAlert.js';
import { useStudio } from '../context.js';
import { useLoad } from '../hooks.js';
import { isApiError, networkError, type ApiError } from '../lib/api-errors.js';
import { timeText, type TaskListItem } from '../lib/designs.js';

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
                <th scope="col">Task</th>
                <th scope="col">Design</th>
                <th scope="col">Interface</th>
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
                  <td>{t.interface}</td>
                  <td>{t.format}</td>
                  <td>
                    <span class={`state ${t.state}`}>{t.state}</span>
                  </td>
                  <td data-testid="task-time">{timeText(t.created_at)}</td>
                  <td data-testid="task-time">{timeText(t.finished_at)}</td>
                  <td>
                    {t.state === 'done' && t.result_url ? (
                      <a href={t.result_url} download target="_blank" rel="noreferrer">
                        Result
                      </a>
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
