// The account's earlier uploads, for the "Earlier uploads" picker. The service has no endpoint that
// lists uploads, so the Studio remembers the URLs it got back from POST /public/v2/upload (and the
// upload URLs it finds in overrides) in the tab's sessionStorage, per account: they are gone when the
// tab closes, as the key is. An upload URL is not a credential (reading it needs the key). No DOM:
// the storage is passed in, so tests use a Map.

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface UploadEntry {
  url: string;
  /** The file name it was uploaded from, for the picker's text. */
  name: string;
  /** Milliseconds since the epoch. */
  at: number;
}

export const MAX_REMEMBERED = 50;

const storageKey = (accountId: number | string) => `imprint.studio.uploads.${accountId}`;

export function listUploads(store: KeyValueStore, accountId: number | string): UploadEntry[] {
  try {
    const raw: unknown = JSON.parse(store.getItem(storageKey(accountId)) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (e): e is UploadEntry => typeof e === 'object' && e !== null && typeof e.url === 'string' && typeof e.name === 'string' && typeof e.at === 'number',
    );
  } catch {
    return [];
  }
}

/** Adds (or moves to the front) an upload; the newest first, at most MAX_REMEMBERED. */
export function rememberUpload(store: KeyValueStore, accountId: number | string, entry: UploadEntry): UploadEntry[] {
  const list = [entry, ...listUploads(store, accountId).filter((e) => e.url !== entry.url)].slice(0, MAX_REMEMBERED);
  store.setItem(storageKey(accountId), JSON.stringify(list));
  return list;
}

/** Whether a value is an upload URL of this service (`…/public/v2/uploads/<file>`). */
export function isUploadUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\/[^/]+\/public\/v2\/uploads\/[^/?#]+$/.test(value);
}

/** A short name for an upload URL without a remembered file name: its file part. */
export function uploadLabel(entry: UploadEntry): string {
  const file = entry.url.split('/').pop() ?? entry.url;
  return entry.name && entry.name !== file ? `${entry.name} (${file.slice(0, 8)}…)` : file;
}
