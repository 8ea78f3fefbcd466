// A design folder sent as a zip (POST /public/v2/designs, `imprint admin import-design x.zip`): its
// design file (design.json, or the one .json there, such as a Polotno export's) and files, read with
// limits that hold whatever the zip claims. The central directory says where each entry is; each
// entry is inflated a slice at a time and counted as it comes out, so a zip bomb stops at the byte
// limit instead of filling memory. Then the same import as a folder.
import { Inflate } from 'fflate';
import { parseJson } from '../design/parse.js';
import { ImprintError, validationError } from '../errors.js';
import type { DesignRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { convertInput } from '../design/import.js';
import { designAssetRefs, normaliseAssetPath } from './design-assets.js';
import { importDesign, MAX_DESIGN_ASSET_BYTES, replaceDesign } from './designs.js';

/** The largest zip accepted over HTTP (413 beyond). */
export const MAX_DESIGN_ZIP_BYTES = 100 * 1024 * 1024;
/** Entries (files and folders) of one zip. */
export const MAX_ZIP_ENTRIES = 1000;

export interface ZipLimits {
  /** Bytes of all entries together once inflated. Default MAX_DESIGN_ASSET_BYTES. */
  maxBytes?: number;
  /** Entries. Default MAX_ZIP_ENTRIES. */
  maxEntries?: number;
}

export interface DesignZip {
  /** The design file (design.json, or the folder's one .json) as text. */
  designJson: string;
  /** The other files, by their path relative to design.json. */
  files: Map<string, Uint8Array>;
  /** The zip's single top-level folder, when design.json is in one: a default name. */
  folder?: string;
}

const AT = '$.file';
/** Compressed bytes given to the inflater at once: deflate expands at most about 1032×, so one slice yields at most ~16 MB. */
const SLICE = 16 * 1024;
/** Entries every zip tool adds beside the content (macOS resource forks, Finder and Explorer metadata): skipped. */
const JUNK = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$|desktop\.ini$)/;

const notZip = (why: string) => validationError(AT, `the file is not a zip archive (${why}): send the design folder as a .zip (design.json and its files)`);

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The entries of the central directory (zip64 sizes and offsets included). */
function centralDirectory(zip: Uint8Array, maxEntries: number): Entry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  if (zip.byteLength < 22) throw notZip('too short');
  // The end-of-central-directory record is in the last 22 bytes plus a comment of up to 64 KB.
  let eocd = -1;
  for (let i = zip.byteLength - 22; i >= Math.max(0, zip.byteLength - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notZip('no end of central directory');
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && view.getUint32(eocd - 20, true) === 0x07064b50) {
    const z64 = Number(view.getBigUint64(eocd - 12, true));
    if (z64 + 56 > zip.byteLength || view.getUint32(z64, true) !== 0x06064b50) throw notZip('a broken zip64 record');
    count = Number(view.getBigUint64(z64 + 32, true));
    offset = Number(view.getBigUint64(z64 + 48, true));
  }
  if (count > maxEntries)
    throw validationError(AT, `the zip has ${count} entries: at most ${maxEntries} are accepted; leave out files the design does not use`);
  const entries: Entry[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (let i = 0, p = offset; i < count; i++) {
    if (p + 46 > zip.byteLength || view.getUint32(p, true) !== 0x02014b50) throw notZip('a broken central directory');
    const method = view.getUint16(p + 10, true);
    let compressedSize = view.getUint32(p + 20, true);
    const uncompressed32 = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    let localOffset = view.getUint32(p + 42, true);
    const name = decoder.decode(zip.subarray(p + 46, p + 46 + nameLength));
    // zip64: the fields that overflowed are in the extra field 0x0001, in this order.
    if (compressedSize === 0xffffffff || localOffset === 0xffffffff || uncompressed32 === 0xffffffff) {
      for (let e = p + 46 + nameLength; e + 4 <= p + 46 + nameLength + extraLength;) {
        const id = view.getUint16(e, true);
        const size = view.getUint16(e + 2, true);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressed32 === 0xffffffff) q += 8;
          if (compressedSize === 0xffffffff) {
            compressedSize = Number(view.getBigUint64(q, true));
            q += 8;
          }
          if (localOffset === 0xffffffff) localOffset = Number(view.getBigUint64(q, true));
        }
        e += 4 + size;
      }
    }
    entries.push({ name, method, compressedSize, localOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's path, refused when it could land outside the design's folder. */
function entryPath(name: string): string {
  const path = name.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    throw validationError(AT, `the zip entry "${name.slice(0, 200)}" has an absolute path: zip the design folder with paths relative to it`);
  }
  if (path.split('/').includes('..')) {
    throw validationError(AT, `the zip entry "${name.slice(0, 200)}" has a ".." in its path: zip the design folder with paths inside it`);
  }
  if (path.includes('\0')) throw validationError(AT, `the zip entry "${name.slice(0, 200)}" has a NUL character in its name: rename the file`);
  return path;
}

/**
 * The bytes of one entry, inflated a slice at a time; `budget` is what may still come out of the
 * whole zip, and inflating stops as soon as the entry passes it.
 */
function inflateEntry(zip: Uint8Array, e: Entry, budget: number, maxBytes: number): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const p = e.localOffset;
  if (p + 30 > zip.byteLength || view.getUint32(p, true) !== 0x04034b50) throw notZip(`the entry "${e.name.slice(0, 200)}" is not where the directory says`);
  const start = p + 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true);
  const end = start + e.compressedSize;
  if (end > zip.byteLength) throw notZip(`the entry "${e.name.slice(0, 200)}" is cut short`);
  const data = zip.subarray(start, end);
  const tooLarge = () =>
    validationError(
      AT,
      `the zip's files come to more than ${maxBytes / 1048576} MB once unpacked: use smaller images or clips (unpacking stopped at the limit)`,
    );
  if (e.method === 0) {
    if (data.byteLength > budget) throw tooLarge();
    return data.slice();
  }
  if (e.method !== 8) {
    throw validationError(
      AT,
      `the zip entry "${e.name.slice(0, 200)}" uses compression method ${e.method}: only stored and deflate zips are read; zip it again`,
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.byteLength;
    if (size > budget) throw tooLarge();
    chunks.push(chunk);
  });
  try {
    // The last slice is pushed as final: a stream that has not ended by then is damaged ("unexpected EOF").
    for (let i = 0; ; i += SLICE) {
      const last = i + SLICE >= data.byteLength;
      inflater.push(data.subarray(i, Math.min(i + SLICE, data.byteLength)), last);
      if (last) break;
    }
  } catch (err) {
    if (err instanceof ImprintError) throw err;
    throw validationError(
      AT,
      `the zip entry "${e.name.slice(0, 200)}" cannot be unpacked (${(err as Error).message}): the zip is damaged; zip the folder again`,
    );
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * The design file and its files from a zip of a design folder: design.json, or the one .json file,
 * at the root or in its single top-level folder (designEntry). `wanted`, given design.json's text,
 * names the files to unpack (paths relative to the folder): only those are inflated, so files the
 * design does not use cost neither memory nor time. Without it every file is unpacked.
 */
export function readDesignZip(zip: Uint8Array, limits: ZipLimits = {}, wanted?: (designJson: string, designFile: string) => Iterable<string>): DesignZip {
  const maxBytes = limits.maxBytes ?? MAX_DESIGN_ASSET_BYTES;
  const maxEntries = limits.maxEntries ?? MAX_ZIP_ENTRIES;
  let entries: Entry[];
  try {
    entries = centralDirectory(zip, maxEntries);
  } catch (e) {
    // Offsets and lengths that point past the end of the bytes: a damaged or crafted zip.
    if (e instanceof RangeError) throw notZip('a field points past the end of the zip');
    throw e;
  }
  const files = entries.map((e) => ({ e, path: entryPath(e.name) })).filter(({ path }) => !JUNK.test(path));
  const isFile = (path: string) => !path.endsWith('/');
  const { prefix, design } = designEntry(files);
  let budget = maxBytes;
  const designBytes = inflateEntry(zip, design.e, budget, maxBytes);
  budget -= designBytes.byteLength;
  const designJson = new TextDecoder().decode(designBytes);
  const only = wanted ? new Set([...wanted(designJson, design.path)].map(normaliseAssetPath)) : undefined;
  const out = new Map<string, Uint8Array>();
  for (const { e, path } of files) {
    if (!isFile(path) || !path.startsWith(prefix) || e === design.e) continue;
    const rel = normaliseAssetPath(path.slice(prefix.length));
    if (only && !only.has(rel)) continue;
    const bytes = inflateEntry(zip, e, budget, maxBytes);
    budget -= bytes.byteLength;
    out.set(rel, bytes);
  }
  return { designJson, files: out, ...(prefix ? { folder: prefix.slice(0, -1) } : {}) };
}

/**
 * The examples keep a request's overrides beside the design as overrides.json: a .json file that is
 * never the design, so a folder of a Polotno file and its overrides.json still has one design file.
 */
const NOT_A_DESIGN = 'overrides.json';

/** The .json files directly in the folder `prefix` ('' for the zip's root), overrides.json left out. */
function jsonFilesIn<T extends { path: string }>(files: readonly T[], prefix: string): T[] {
  return files.filter(({ path }) => {
    const rest = path.slice(prefix.length);
    return path.startsWith(prefix) && !rest.includes('/') && /\.json$/i.test(rest) && rest.toLowerCase() !== NOT_A_DESIGN;
  });
}

/** Names for a message: the first few, then how many more. */
function listed(names: readonly string[], most = 8): string {
  const shown = names.slice(0, most).map((n) => JSON.stringify(n));
  return names.length > most ? `${shown.join(', ')} and ${names.length - most} more` : shown.join(', ');
}

/**
 * The design file of a zip and the folder it is in: at the root, or else in the zip's single
 * top-level folder. There, design.json if it is present; otherwise the folder's one .json file,
 * whatever its name (a Polotno export's polotno.json beside its images), overrides.json aside. None
 * or several: the error lists what was found, so the fix is plain.
 */
function designEntry<T extends { path: string }>(files: readonly T[]): { prefix: string; design: T } {
  const tops = [...new Set(files.map(({ path }) => path.split('/')[0]! + (path.includes('/') ? '/' : '')))];
  const atRoot = jsonFilesIn(files, '');
  // Nothing but one folder at the root: the design is looked for inside it.
  const prefix = atRoot.length === 0 && tops.length === 1 && tops[0]!.endsWith('/') ? tops[0]! : '';
  const candidates = prefix ? jsonFilesIn(files, prefix) : atRoot;
  const where = prefix ? `in its top-level folder "${prefix.slice(0, -1)}"` : 'at its root';
  const named = candidates.find(({ path }) => path === `${prefix}design.json`);
  if (named) return { prefix, design: named };
  if (candidates.length === 1) return { prefix, design: candidates[0]! };
  if (candidates.length > 1) {
    const names = candidates.map(({ path }) => path.slice(prefix.length));
    throw validationError(
      AT,
      `the zip has ${candidates.length} .json files ${where} (${listed(names)}) and none is named design.json: keep only the design's .json there, or name it design.json`,
    );
  }
  const found = prefix ? [...new Set(files.filter(({ path }) => path !== prefix).map(({ path }) => path.slice(prefix.length).split('/')[0]!))] : tops;
  throw validationError(
    AT,
    `the zip has no .json design file at its root or in its single top-level folder (${found.length ? `${where} it has ${listed(found)}` : 'it is empty'}): zip the design folder, with its design.json (or one Polotno .json) in it`,
  );
}

export interface ZipImport {
  /** Shown in listings; default: the zip's top-level folder, or the old name when replacing. */
  name?: string;
  /** Replace this design (its id stays) instead of adding one. */
  replace?: unknown;
  limits?: ZipLimits;
}

/** Imports (or replaces) a design from the bytes of a zip of its folder: the same validation as a folder import. */
export async function importDesignZip(ctx: ServiceContext, accountId: unknown, zip: Uint8Array, opts: ZipImport = {}): Promise<DesignRecord> {
  // A design.json on its own (a Polotno file with data: URLs, say) needs no zip around it.
  if (looksLikeJson(zip)) {
    const template = parseJson(new TextDecoder().decode(zip), '$', 'the design file');
    const source = opts.name === undefined ? {} : { name: opts.name };
    return opts.replace === undefined ? importDesign(ctx, accountId, template, source) : replaceDesign(ctx, accountId, opts.replace, template, source);
  }
  let template: unknown;
  // The files the design file names, found before anything else is unpacked (its own errors come
  // later, from the import, with their paths).
  const read = readDesignZip(zip, opts.limits, (text, file) => {
    // Named as the zip names it (polotno.json, say), so the message points at a file it has.
    template = parseJson(text, '$', file);
    // design.json may hold a Polotno document: the files it needs are those of its conversion.
    // Fonts given by URL are the import's to judge (the account's library may have them), and remote
    // files are the import's to fetch; only the zip's own files matter here.
    return designAssetRefs(convertInput(template, { hasFamily: () => true, remote: 'list' }).design).map((r) => r.path);
  });
  const name = opts.name ?? (opts.replace === undefined ? read.folder : undefined);
  const source = { files: read.files, ...(name === undefined ? {} : { name }) };
  return opts.replace === undefined ? importDesign(ctx, accountId, template, source) : replaceDesign(ctx, accountId, opts.replace, template, source);
}

function looksLikeJson(bytes: Uint8Array): boolean {
  for (const b of bytes.subarray(0, 64)) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf) continue;
    return b === 0x7b;
  }
  return false;
}
