// Sign-in: the account's admin API key, checked against GET /public/v2/account before it is kept
// (in the tab only). A refused key shows one alert saying what to do (lib/sign-in.ts).
import { useState } from 'preact/hooks';
import { isApiError, networkError, type ApiError } from '../lib/api-errors.js';
import { signInProblem } from '../lib/sign-in.js';

export function SignIn({ onSignIn, notice }: { onSignIn: (key: string) => Promise<void>; notice: string | null }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    const k = key.trim();
    if (!k) return;
    setBusy(true);
    setError(null);
    try {
      await onSignIn(k);
    } catch (err) {
      setError(isApiError(err) ? err : networkError(err));
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <form class="card" onSubmit={(e) => void submit(e)}>
        <h1>
          Imprint <span>Studio</span>
        </h1>
        <p class="muted">Browse, fill in, preview and render your designs. Sign in with the account's admin API key.</p>
        {notice ? <p class="notice">{notice}</p> : null}
        <label class="stack">
          <span>API key</span>
          <input
            type="password"
            aria-label="API key"
            autoComplete="off"
            spellcheck={false}
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
            required
            autoFocus
          />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error ? <Problem error={error} /> : null}
        <p class="hint muted">
          The key is kept in this tab only, until you sign out or close it, and is sent only as the <code>Authorization</code> header. <code>npm start</code>{' '}
          prints the demo account's key on its first start.
        </p>
      </form>
    </main>
  );
}

function Problem({ error }: { error: ApiError }) {
  const p = signInProblem(error);
  return (
    <div role="alert" class="alert">
      {p.text}
      {p.command ? (
        <>
          {' '}
          <code>{p.command}</code>.
        </>
      ) : null}
    </div>
  );
}
