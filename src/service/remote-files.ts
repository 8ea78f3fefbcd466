// The remote files of an imported Polotno document: each http(s) URL fetched once, at import, through
// the outbound guard (no private addresses, pinned DNS, checked redirects), within size and time limits,
// its type checked against what the element needs. Renders never fetch; they read the stored copies.
import { convertInput, type ImportedDesign, type InputFormat } from '../design/import.js';
import type { FetchedFile, RemoteKind, RemoteRef } from '../design/polotno/convert.js';
import { MAX_SOURCE_URL_LENGTH } from '../design/schema.js';
import { validationError } from '../errors.js';
import { MAX_FONT_FILE_BYTES } from '../text/font-file.js';
import type { ImportFetchConfig } from './config.js';
import { byteSize, guardedGet, OutboundError } from './outbound.js';
import { IMAGE_EXTENSIONS, IMAGE_TYPE_NAMES, sniffImageType } from './sniff.js';

/** Largest file of each kind: an image or SVG as large as an upload may be (the spec's 10 MB), a font as the font reader takes, a clip or soundtrack as a design zip. */
export const REMOTE_FILE_LIMITS: Readonly<Record<RemoteKind, number>> = {
  image: 10 * 1024 * 1024,
  svg: 10 * 1024 * 1024,
  font: MAX_FONT_FILE_BYTES,
  video: 100 * 1024 * 1024,
  audio: 100 * 1024 * 1024,
};
/** Distinct URLs one document may make an import fetch. */
export const MAX_REMOTE_FILES = 100;
/** All fetched files of one document together (as all files of a stored design). */
export const MAX_REMOTE_TOTAL_BYTES = 500 * 1024 * 1024;
export const MAX_REDIRECTS = 5;
export const DEFAULT_FETCH_TIMEOUT_MS = 15_000;
/** Files fetched at once. */
const PARALLEL = 4;

export type RemoteFetchOptions = Partial<ImportFetchConfig>;

const ACCEPT: Record<RemoteKind, string> = {
  image: 'image/png, image/jpeg, image/webp, image/gif, image/avif',
  svg: 'image/svg+xml',
  font: 'font/woff2, font/woff, font/ttf, font/otf, application/font-woff',
  video: 'video/*',
  audio: 'audio/*',
};

const NEEDS: Record<RemoteKind, string> = {
  image: `an image (${IMAGE_TYPE_NAMES})`,
  svg: 'an SVG file (image/svg+xml)',
  font: 'a font file (ttf, otf, woff or woff2)',
  video: 'a video file (mp4, mov or webm)',
  audio: 'a sound file (mp3, m4a, wav, ogg or flac)',
};

/** Types that say nothing about the content (object stores send them for anything): the bytes decide. */
const GENERIC = new Set(['application/octet-stream', 'binary/octet-stream', 'application/binary', 'application/unknown']);

/** Whether a declared media type can be of `kind`. */
function declaredFits(kind: RemoteKind, type: string): boolean {
  switch (kind) {
    case 'image':
      return type in IMAGE_EXTENSIONS || type === 'image/jpg' || type === 'image/pjpeg';
    case 'svg':
      return type === 'image/svg+xml' || type === 'text/xml' || type === 'application/xml';
    case 'font':
      return type.startsWith('font/') || /^application\/(x-)?font-/.test(type) || type === 'application/vnd.ms-opentype';
    case 'video':
      return type.startsWith('video/');
    case 'audio':
      return type.startsWith('audio/') || type === 'video/mp4' || type === 'video/ogg' || type === 'video/webm';
  }
}

const ascii = (b: Uint8Array, at: number, text: string): boolean => [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

/** The extension the bytes show for `kind`, or undefined when they are not a file of that kind. */
export function sniffKind(kind: RemoteKind, b: Uint8Array): string | undefined {
  switch (kind) {
    case 'image': {
      const type = sniffImageType(b);
      return type ? `.${IMAGE_EXTENSIONS[type]}` : undefined;
    }
    case 'svg': {
      // An SVG is XML whose root element is <svg>; it may start with a BOM, an XML declaration, comments or a doctype.
      const head = new TextDecoder().decode(b.subarray(0, 4096));
      return /^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head) ? '.svg' : undefined;
    }
    case 'font':
      if (ascii(b, 0, 'wOF2')) return '.woff2';
      if (ascii(b, 0, 'wOFF')) return '.woff';
      if (ascii(b, 0, 'OTTO')) return '.otf';
      if (ascii(b, 0, 'ttcf')) return '.ttc';
      if (ascii(b, 0, 'true') || (b[0] === 0 && b[1] === 1 && b[2] === 0 && b[3] === 0)) return '.ttf';
      return undefined;
    case 'video':
      if (ascii(b, 4, 'ftyp')) return ascii(b, 8, 'qt  ') ? '.mov' : '.mp4';
      if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return '.webm';
      return undefined;
    case 'audio':
      if (ascii(b, 0, 'ID3') || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0)) return '.mp3';
      if (ascii(b, 4, 'ftyp')) return '.m4a';
      if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return '.wav';
      if (ascii(b, 0, 'OggS')) return '.ogg';
      if (ascii(b, 0, 'fLaC')) return '.flac';
      if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return '.webm';
      return undefined;
  }
}

/** The message of a failed fetch: the URL, what it was for, why, and what to do. */
function failure(ref: RemoteRef, why: string): ReturnType<typeof validationError> {
  return validationError(
    ref.at,
    `could not fetch the ${ref.what} ${JSON.stringify(ref.url.slice(0, 300))}: ${why}; fix the URL, or save the file beside the JSON file and give its relative path`,
  );
}

/** One file: fetched, its declared type and its bytes checked against what the element needs. */
async function fetchOne(ref: RemoteRef, opts: RemoteFetchOptions, signal: AbortSignal): Promise<FetchedFile> {
  const maxBytes = opts.maxBytes ?? REMOTE_FILE_LIMITS[ref.kind];
  let got;
  try {
    got = await guardedGet(ref.url, {
      allowance: opts.allowPrivate ?? false,
      timeoutMs: opts.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
      maxBytes,
      maxRedirects: MAX_REDIRECTS,
      headers: { 'User-Agent': 'Imprint-Import/1', Accept: ACCEPT[ref.kind] },
      signal,
      // Refused before the body is read: a page of HTML (a login wall, a 200 "not found") is not downloaded.
      checkType: (type) =>
        type === undefined || GENERIC.has(type) || declaredFits(ref.kind, type) ? undefined : `the server says it is ${type}, not ${NEEDS[ref.kind]}`,
    });
  } catch (e) {
    if (e instanceof OutboundError) throw failure(ref, e.message);
    throw e;
  }
  if (got.bytes.byteLength === 0) throw failure(ref, 'the server answered with an empty file');
  const ext = sniffKind(ref.kind, got.bytes);
  if (!ext) throw failure(ref, `its content is not ${NEEDS[ref.kind]}${got.type ? ` (the server says ${got.type})` : ''}`);
  return { bytes: got.bytes, ext };
}

/**
 * Fetches every URL of `refs` once (a URL used by several elements is fetched once), a few at a time.
 * The first failure stops the import: a validation_error at the Polotno path of the field that holds
 * the URL, naming the URL and why.
 */
export async function fetchRemoteFiles(refs: readonly RemoteRef[], opts: RemoteFetchOptions = {}): Promise<Map<string, FetchedFile>> {
  const first = new Map<string, RemoteRef>();
  for (const ref of refs) if (!first.has(ref.url)) first.set(ref.url, ref);
  const unique = [...first.values()];
  for (const ref of unique) {
    if (ref.url.length > MAX_SOURCE_URL_LENGTH)
      throw failure(ref, `the URL is ${ref.url.length} characters long, more than ${MAX_SOURCE_URL_LENGTH}; give a shorter one`);
  }
  if (unique.length > MAX_REMOTE_FILES) {
    throw validationError(
      unique[MAX_REMOTE_FILES]!.at,
      `the document refers to ${unique.length} different remote files; an import fetches at most ${MAX_REMOTE_FILES}: save the others beside the JSON file and give their relative paths`,
    );
  }
  const out = new Map<string, FetchedFile>();
  let total = 0;
  let next = 0;
  let failed: Error | undefined;
  // The first failure ends the import: the fetches still under way are stopped, not waited for.
  const stop = new AbortController();
  const lane = async (): Promise<void> => {
    while (failed === undefined && next < unique.length) {
      const ref = unique[next++]!;
      try {
        const file = await fetchOne(ref, opts, stop.signal);
        total += file.bytes.byteLength;
        if (total > MAX_REMOTE_TOTAL_BYTES)
          throw failure(ref, `the document's remote files come to more than ${byteSize(MAX_REMOTE_TOTAL_BYTES)} together; use smaller images or clips`);
        out.set(ref.url, file);
      } catch (e) {
        failed ??= e instanceof Error ? e : new Error(String(e));
        stop.abort(failed);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, unique.length) }, lane));
  if (failed !== undefined) throw failed;
  return out;
}

/**
 * A document converted for import: a Polotno document's remote files are fetched (once each) and
 * stored as files of the design (`embedded/<hash>.<ext>`, their URLs in its `sources`); anything else
 * converts as convertInput does. The document is converted before anything is fetched, so a
 * document that is wrong anyway costs no request.
 */
export async function importInput(
  value: unknown,
  options: { format?: InputFormat; root?: string; hasFamily?: (family: string) => boolean; fetch?: RemoteFetchOptions } = {},
): Promise<ImportedDesign> {
  const { fetch, ...convert } = options;
  const listed = convertInput(value, { ...convert, remote: 'list' });
  const refs = listed.conversion?.remote ?? [];
  if (refs.length === 0) return listed;
  const fetched = await fetchRemoteFiles(refs, fetch);
  return convertInput(value, { ...convert, remote: fetched });
}
