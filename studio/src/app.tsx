// The Studio's shell: sign-in until a key is stored, then the header (account, navigation, sign
// out) and the view of the hash route. A 401 from any call signs out with the reason shown.
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { Studio, type StudioContext } from './context.js';
import { useRoute } from './hooks.js';
import { Api } from './lib/api.js';
import { describeError, type ApiError } from './lib/api-errors.js';
import { moneyText, type AccountInfo } from './lib/designs.js';
import { listUploads, rememberUpload, type UploadEntry } from './lib/upload-history.js';
import { forgetKey, storedKey, storeKey } from './session.js';
import { DesignsGrid } from './views/DesignsGrid.js';
import { DesignView } from './views/DesignView.js';
import { TemplateEditor } from './views/TemplateEditor.js';
import { ImportView } from './views/ImportView.js';
import { SignIn } from './views/SignIn.js';
import { TasksView } from './views/TasksView.js';

export function App() {
  const [account, setAccount] = useState<AccountInfo | null>(null);
  const [signedOutWhy, setSignedOutWhy] = useState<string | null>(null);
  const [checking, setChecking] = useState(() => storedKey() !== null);
  const [uploads, setUploads] = useState<UploadEntry[]>([]);

  const signOut = useCallback((why: string | null) => {
    forgetKey();
    setAccount(null);
    setSignedOutWhy(why);
  }, []);
  const api = useMemo(() => new Api(storedKey, (e: ApiError) => signOut(`signed out: ${describeError(e)}`)), [signOut]);

  const loadAccount = useCallback(
    async (signal?: AbortSignal) => {
      const a = await api.account(signal);
      setAccount(a);
      setUploads(listUploads(sessionStorage, a.account_id));
      return a;
    },
    [api],
  );

  // A key kept from earlier in this tab: check it once.
  useEffect(() => {
    if (!checking) return;
    const ctl = new AbortController();
    loadAccount(ctl.signal)
      .catch(() => forgetKey())
      .finally(() => setChecking(false));
    return () => ctl.abort();
  }, []);

  const signIn = async (key: string) => {
    storeKey(key);
    try {
      await loadAccount();
      setSignedOutWhy(null);
    } catch (e) {
      forgetKey();
      // A refused key is said once, by the sign-in form: not also as "signed out" (the 401 handler's notice).
      setSignedOutWhy(null);
      throw e;
    }
  };

  const ctx: StudioContext | null = useMemo(
    () =>
      account && {
        api,
        account,
        refreshAccount: () => void loadAccount().catch(() => {}),
        uploads,
        addUpload: (entry: UploadEntry) => setUploads(rememberUpload(sessionStorage, account.account_id, entry)),
      },
    [api, account, uploads, loadAccount],
  );

  if (checking) return <p class="splash">Loading…</p>;
  if (!ctx) return <SignIn onSignIn={signIn} notice={signedOutWhy} />;
  return (
    <Studio.Provider value={ctx}>
      <Header account={ctx.account} onSignOut={() => signOut(null)} />
      <Routed />
    </Studio.Provider>
  );
}

function Header({ account, onSignOut }: { account: AccountInfo; onSignOut: () => void }) {
  const route = useRoute();
  const current = (view: string) => (route.view === view || (view === 'designs' && (route.view === 'design' || route.view === 'edit')) ? 'page' : undefined);
  return (
    <header class="top">
      <a class="brand" href="#/">
        Imprint <span>Studio</span>
      </a>
      <nav aria-label="Main">
        <a href="#/" aria-current={current('designs')}>
          Designs
        </a>
        <a href="#/tasks" aria-current={current('tasks')}>
          Tasks
        </a>
        <a href="#/import" aria-current={current('import')}>
          Import
        </a>
      </nav>
      <div class="who">
        <span title="Account">{account.name}</span>
        <span class="muted">
          {account.plan} · balance {moneyText(account.balance)}
        </span>
        <button type="button" class="ghost" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}

function Routed() {
  const route = useRoute();
  switch (route.view) {
    case 'designs':
      return <DesignsGrid />;
    case 'design':
      return <DesignView key={route.id} id={route.id} />;
    case 'edit':
      return <TemplateEditor key={route.id} id={route.id} />;
    case 'tasks':
      return <TasksView />;
    case 'import':
      return <ImportView />;
    case 'unknown':
      return (
        <main class="page">
          <h1>Not found</h1>
          <p>
            There is no Studio page at <code>{route.hash}</code>. <a href="#/">Back to the designs</a>.
          </p>
        </main>
      );
  }
}
