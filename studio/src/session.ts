// Where the Studio keeps the API key: the tab's sessionStorage only (gone when the tab closes, never
// in a URL, a cookie or a log), read at each request so signing out takes effect at once.

const KEY = 'imprint.studio.key';

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
