// Image references in templates and overrides: a relative path inside the design folder or an
// `asset:<name>` that the host's asset resolver supplies. The engine never fetches URLs (no SSRF).
import { validationError } from '../errors.js';
import type { ImageRef } from '../scene/scene.js';

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/** Validates the syntax of a reference; `at` is its JSON path for the error. */
export function parseImageRef(ref: string, at: string): ImageRef {
  const scheme = SCHEME.exec(ref)?.[1]?.toLowerCase();
  if (scheme === 'asset') {
    const name = ref.slice('asset:'.length);
    if (name.length === 0) throw validationError(at, 'asset reference needs a name after "asset:", e.g. "asset:logo"');
    return { kind: 'asset', name };
  }
  if (scheme === 'http' || scheme === 'https') {
    throw validationError(at, 'external image URLs are not allowed: upload the image and use the reference you get back (a relative path or "asset:<name>")');
  }
  // A single letter followed by ":" is a Windows drive, which is still an absolute path.
  if (scheme !== undefined && scheme.length > 1) {
    throw validationError(at, `"${scheme}:" references are not supported: use a relative path or "asset:<name>"`);
  }
  if (ref.startsWith('/') || ref.startsWith('\\') || scheme !== undefined) {
    throw validationError(at, 'absolute paths are not allowed: use a path relative to the design folder, or "asset:<name>"');
  }
  if (ref.split(/[\\/]/).includes('..')) {
    throw validationError(at, 'the path leaves the design folder (".."): keep images inside the design folder or use "asset:<name>"');
  }
  if (ref.includes('\0')) throw validationError(at, 'the path contains a NUL character: remove it');
  return { kind: 'path', path: ref };
}
