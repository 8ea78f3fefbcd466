// The state of one Polotno conversion: the files its data: URLs and fetched remote URLs become, the
// remote URLs it lists, the font families it uses, and where each Imprint path came from (polotnoPath).
import { createHash } from 'node:crypto';
import { validationError } from '../../errors.js';
import { jsonPath, type PathSegment } from '../../format/json-path.js';

/** What a remote file is for: the content types and file signatures it may have follow from it. */
export type RemoteKind = 'image' | 'svg' | 'font' | 'video' | 'audio';

/** An http(s) URL in the document, where it is and what it must be. */
export interface RemoteRef {
  url: string;
  /** The Polotno JSON path of the field that holds it. */
  at: string;
  /** For messages: "image", "clip mask", "font file", … */
  what: string;
  kind: RemoteKind;
}

/** A remote file fetched at import: its bytes and the extension its content showed. */
export interface FetchedFile {
  bytes: Uint8Array;
  /** ".png", ".woff2", … */
  ext: string;
}

export interface PolotnoOptions {
  /** Where the document sits in the request, for error paths. @default "$" */
  root?: string;
  /**
   * Whether a font family is available without a file (bundled, given with the render, or in the
   * account's library): a fonts[] entry of such a family may keep a URL, which is never fetched.
   * @default every family needs a file
   */
  hasFamily?: (family: string) => boolean;
  /**
   * http(s) URLs: refused (a render never fetches), listed with a stand-in path (the first pass of an
   * import, which then fetches them), or taken from the files an import fetched (stored as
   * `embedded/<hash>.<ext>`, their URLs in the design's `sources`).
   * @default 'refuse'
   */
  remote?: 'refuse' | 'list' | ReadonlyMap<string, FetchedFile>;
  /**
   * Polotno's render option of that name: a text that shrinks to fit its box (change-font-size) may
   * split a word too long for a line instead of shrinking until the word fits whole.
   * @default false (Polotno's default)
   */
  textSplitAllowed?: boolean;
}

/** One conversion's state, handed to every converter of the document, its pages and elements. */
export class Converter {
  readonly files = new Map<string, Uint8Array>();
  readonly origins: [string, string][] = [];
  readonly families = new Map<string, string>();
  readonly remote: RemoteRef[] = [];
  /** Stored path → the URL its file was fetched from. */
  readonly sources = new Map<string, string>();

  constructor(
    readonly root: string,
    readonly schemaVersion: number,
    readonly remoteFiles: NonNullable<PolotnoOptions['remote']>,
    readonly textSplitAllowed = false,
  ) {}

  /** The JSON path of a Polotno field, under the root the document sits at. */
  at(segs: readonly PathSegment[]): string {
    return jsonPath(segs, this.root);
  }

  /** Remembers where an Imprint path came from, for errors found after conversion. */
  origin(imprint: string, polotno: string): void {
    this.origins.push([imprint, polotno]);
  }

  /**
   * A file reference: a relative path, an asset, a data: URL stored as a file, or an http(s) URL
   * (see PolotnoOptions.remote).
   */
  source(src: string | undefined, at: string, what: string, kind: RemoteKind): string {
    if (src === undefined || src.trim() === '') throw validationError(at, `the ${what} has no src: give a path relative to the JSON file or a data: URL`);
    // Split by hand: a regular expression with nested repetition here would backtrack for ever on ';;;…'.
    const data = dataUrlParts(src);
    if (!data && /^data:/i.test(src))
      throw validationError(at, `the ${what} is not a valid data: URL (no comma before its data): embed the file as data:<type>;base64,<data>`);
    if (data) {
      const base64 = data[2].split(';').includes('base64');
      let bytes: Buffer;
      try {
        bytes = base64 ? Buffer.from(data[3], 'base64') : Buffer.from(decodeURIComponent(data[3]), 'utf8');
      } catch {
        throw validationError(at, `the data: URL of the ${what} is not valid (its percent-encoding is broken): encode the file as base64`);
      }
      if (bytes.byteLength === 0) throw validationError(at, `the data: URL of the ${what} holds no bytes: embed the file or give its relative path`);
      return this.embed(bytes, extensionOf(data[1].toLowerCase()));
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(src)) return this.remoteSource(src, at, what, kind);
    return src;
  }

  /** Stores bytes as a file of the design, named by their content. */
  embed(bytes: Uint8Array, ext: string): string {
    const path = `embedded/${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}${ext}`;
    this.files.set(path, bytes);
    return path;
  }

  /** An http(s) URL: refused, listed or taken from the fetched files (PolotnoOptions.remote). */
  remoteSource(url: string, at: string, what: string, kind: RemoteKind): string {
    const shown = JSON.stringify(url.slice(0, 80));
    const fetching = this.remoteFiles !== 'refuse';
    if (fetching && !/^https?:\/\//i.test(url)) {
      throw validationError(at, `only http and https URLs are fetched, not ${shown}: save the ${what} beside the JSON file and give its relative path`);
    }
    this.remote.push({ url, at, what, kind });
    if (this.remoteFiles === 'list') return `embedded/remote-${this.remote.length}`;
    const fetched = fetching ? this.remoteFiles.get(url) : undefined;
    if (!fetched) {
      // Renders never reach the network: output must not depend on what a server answers today.
      throw validationError(
        at,
        `remote URLs are not fetched by a render (${shown}): import it first: npx imprint import polotno <file.json> --out <folder> fetches each remote file once into the design's folder; or save the ${what} beside the JSON file and give its relative path, or embed it as a data: URL`,
      );
    }
    const path = this.embed(fetched.bytes, fetched.ext);
    if (!this.sources.has(path)) this.sources.set(path, url);
    return path;
  }

  /** Remembers a font family the design uses and where it first appeared (for its error). */
  family(name: string, at: string): void {
    if (!this.families.has(name)) this.families.set(name, at);
  }
}

/** A data: URL's media type, parameters and payload; undefined when the string is not one. */
function dataUrlParts(src: string): [whole: string, mime: string, params: string, payload: string] | undefined {
  if (!src.startsWith('data:')) return undefined;
  const comma = src.indexOf(',');
  if (comma < 0) return undefined;
  const head = src.slice(5, comma);
  const semi = head.indexOf(';');
  return [src, semi < 0 ? head : head.slice(0, semi), semi < 0 ? '' : head.slice(semi), src.slice(comma + 1)];
}

function extensionOf(mime: string): string {
  const map: Record<string, string> = {
    'image/png': '.png',
    'image/jpeg': '.jpg',
    'image/jpg': '.jpg',
    'image/webp': '.webp',
    'image/gif': '.gif',
    'image/avif': '.avif',
    'image/svg+xml': '.svg',
    'video/mp4': '.mp4',
    'video/webm': '.webm',
    'video/quicktime': '.mov',
    'audio/mpeg': '.mp3',
    'audio/mp4': '.m4a',
    'audio/wav': '.wav',
    'audio/ogg': '.ogg',
    'font/ttf': '.ttf',
    'font/otf': '.otf',
    'font/woff': '.woff',
    'font/woff2': '.woff2',
  };
  return map[mime] ?? '';
}
