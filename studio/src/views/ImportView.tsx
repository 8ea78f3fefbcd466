// Import a design from a zip of its folder (design.json + its files), or a design .json alone (a
// Polotno file with its images as data: URLs or remote URLs, which the service fetches once, say):
// POST /public/v2/designs, or PUT
// to replace an existing design. The service checks it as `imprint admin import-design` does; an
// error is listed with its JSON path in <code> and the message. On success, opens the new design.
import { useId, useState } from 'preact/hooks';
import { useStudio } from '../context.js';
import { useLoad } from '../hooks.js';
import { isApiError, networkError, type ApiError } from '../lib/api-errors.js';

export function ImportView() {
  const { api } = useStudio();
  const designs = useLoad((signal) => api.designs(signal), []);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [replace, setReplace] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<ApiError[]>([]);
  const ids = { file: useId(), name: useId(), replace: useId() };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setErrors([]);
    try {
      const d = await api.importDesign(file, name, replace ? Number(replace) : undefined);
      location.hash = `#/designs/${d.design_id}`;
    } catch (err) {
      setErrors([isApiError(err) ? err : networkError(err)]);
      setBusy(false);
    }
  };

  return (
    <main class="page narrow">
      <h1>Import a design</h1>
      <p class="muted">
        A zip of a design folder: <code>design.json</code> at its root (or in its one top-level folder) and the files it names; or a design <code>.json</code>{' '}
        alone. Imprint designs and Polotno files (what Polotno&apos;s <code>store.toJSON()</code> saves) are both accepted. Checked as{' '}
        <code>imprint admin import-design</code> checks it.
      </p>
      <form class="card form-grid" onSubmit={(e) => void submit(e)}>
        <label for={ids.file}>Design zip or JSON</label>
        <input
          id={ids.file}
          type="file"
          accept=".zip,application/zip,.json,application/json"
          required
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <label for={ids.name}>Name</label>
        <input id={ids.name} type="text" value={name} placeholder="optional" maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
        <label for={ids.replace}>Replace design</label>
        <select id={ids.replace} value={replace} onChange={(e) => setReplace(e.currentTarget.value)}>
          <option value="">— none: import as a new design —</option>
          {(designs.data ?? []).map((d) => (
            <option key={d.design_id} value={String(d.design_id)}>
              {d.name || 'Design'} (ID {d.design_id})
            </option>
          ))}
        </select>
        <span />
        <button type="submit" class="primary" disabled={busy || !file}>
          {busy ? 'Importing…' : 'Import'}
        </button>
      </form>
      {errors.length ? (
        <section class="import-errors" role="alert" aria-label="Import errors">
          <h2>The design was not imported</h2>
          <ul data-testid="import-errors">
            {errors.map((er, i) => (
              <li key={i}>
                {er.path ? <code>{er.path}</code> : <code>{er.code}</code>} {er.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
