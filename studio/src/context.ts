// What every view of a signed-in Studio shares: the API client, the account (plan, balance), and the
// account's earlier uploads (remembered in sessionStorage, see lib/upload-history.ts).
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from './lib/api.js';
import type { AccountInfo } from './lib/designs.js';
import type { UploadEntry } from './lib/upload-history.js';

export interface StudioContext {
  api: Api;
  account: AccountInfo;
  refreshAccount: () => void;
  uploads: UploadEntry[];
  addUpload: (entry: UploadEntry) => void;
}

export const Studio = createContext<StudioContext | null>(null);

export function useStudio(): StudioContext {
  const ctx = useContext(Studio);
  if (!ctx) throw new Error('useStudio outside a signed-in Studio');
  return ctx;
}
