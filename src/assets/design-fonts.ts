// load: a design's own font files (`fonts` entries with a path, and the render's `fontFiles`) and its
// pinned catalogue families (from the font folder) → a FontSet with those faces in front of the engine's;
// with missing_fonts "fallback", families the set lacks are drawn with the default family. Files come
// through the asset resolver, as images do, so render threads and the service's workers read them like
// any asset. Decoded faces are cached by content.
import { createHash } from 'node:crypto';
import { ImprintError, validationError } from '../errors.js';
import { FontFile, FontPackage } from '../design/schema.js';
import { DEFAULT_FONT_FAMILY } from '../objects/fonts.js';
import { catalogueFamily, familyPackages } from '../text/catalogue.js';
import { parseImageRef } from '../format/image-ref.js';
import { jsonPath } from '../format/json-path.js';
import { FontFileError, readFontFile, type FontFileInfo } from '../text/font-file.js';
import { fileFaceKey, openFontFile, type FontFace, type FontStyle } from '../text/faces.js';
import { FontSet } from '../text/fonts.js';
import { installedFamilyFaces } from '../text/subset-faces.js';
import { AssetNotFoundError, type AssetResolver } from './resolver.js';

/** A `fonts` entry naming a file (see design/schema.ts). */
export interface FontFileEntry {
  family: string;
  path: string;
  weight?: number;
  style?: FontStyle;
}

// Decoded files by the hash of their bytes as given (a WOFF2 is decompressed once), each with the faces
// made from it, so HarfBuzz parses a design's font once however often it renders. Bounded by the sfnt
// bytes kept (per process, so per render thread); the least recently used file goes first.
const CACHE_BYTES = 64 * 1024 * 1024;
interface CachedFile {
  info: Promise<FontFileInfo>;
  bytes: number;
  faces: Map<string, FontFace>;
}
const files = new Map<string, CachedFile>();

function trim(): void {
  let total = [...files.values()].reduce((n, f) => n + f.bytes, 0);
  for (const [key, f] of files) {
    if (total <= CACHE_BYTES || files.size <= 1) break;
    files.delete(key);
    total -= f.bytes;
  }
}

function decoded(bytes: Uint8Array): { info: Promise<FontFileInfo>; faces: Map<string, FontFace> } {
  const key = createHash('sha256').update(bytes).digest('hex');
  let entry = files.get(key);
  if (entry) files.delete(key);
  else {
    const made: CachedFile = { info: readFontFile(bytes), bytes: bytes.byteLength, faces: new Map() };
    made.info.then(
      (info) => {
        made.bytes = info.sfnt.length;
        trim();
      },
      () => files.delete(key),
    );
    entry = made;
  }
  files.set(key, entry);
  return entry;
}

/** A face of the file under `family`; `weight`/`style` given by the design win over what the file says. */
function faceOf(info: FontFileInfo, faces: Map<string, FontFace>, family: string, weight: number | undefined, style: FontStyle | undefined): FontFace {
  const s = style ?? info.style;
  const range = info.weightAxis ? ([info.weightAxis.min, info.weightAxis.max] as const) : undefined;
  const w = range ? Math.min(range[1], Math.max(range[0], weight ?? info.weightAxis!.default)) : (weight ?? info.weight);
  const key = fileFaceKey(family, w, s, info.hash);
  let face = faces.get(key);
  if (!face) {
    face = openFontFile({ sfnt: info.sfnt }, family, w, s, { key, ...(range ? { weightRange: range } : {}) });
    faces.set(key, face);
  }
  return face;
}

/** A decoded file; a file Imprint cannot use is a validation error at `at` that names it (`name`, when it has one). */
async function load(
  bytes: Uint8Array,
  at: string,
  available: () => string,
  name?: string,
): Promise<{ info: FontFileInfo; faces: Map<string, FontFace> }> {
  const entry = decoded(bytes);
  try {
    return { info: await entry.info, faces: entry.faces };
  } catch (e) {
    if (e instanceof FontFileError) throw validationError(at, `${name === undefined ? '' : `${JSON.stringify(name)}: `}${e.message} (families available: ${available()})`);
    throw e;
  }
}

/** What a render does with a family it has no font for. */
export type MissingFonts = 'error' | 'fallback';

/** The faces of a pinned catalogue family, from the font folder; not installed (or another package there) is a validation error. */
function pinnedFaces(e: { family: string; package: string; version: string; integrity: string }, base: FontSet, at: string): readonly FontFace[] {
  const family = catalogueFamily(e.family);
  // The family's full fonts, or its Fontsource subset files where it has no expo package.
  const own: string[] = family ? familyPackages(family) : [];
  if (family && !own.includes(e.package)) {
    throw validationError(at, `${e.package} is not the package of font family "${e.family}" (${own.join(' or ')} is): fix the entry, or name the family alone ("${e.family}")`);
  }
  const record = base.installed?.find(e.family, e.version, e.package);
  const install = `npx imprint fonts install "${e.family}@${e.version}"`;
  if (!record || record.package !== e.package) {
    const where = base.installed ? base.installed.dir : 'no font folder';
    throw validationError(at, `font family "${e.family}" (${e.package}@${e.version}) is not installed in ${where}: install it with ${install}`);
  }
  if (record.integrity !== e.integrity) {
    throw validationError(
      at,
      `the installed ${e.package}@${e.version} is not the package this design was made with (its integrity differs): remove ${record.dir} and install it again with ${install}`,
    );
  }
  return installedFamilyFaces(record, record.family);
}

/**
 * The FontSet a design renders with: its pinned catalogue families, its `fonts` files and `fontFiles`
 * (named by the file's own family) in front of `base`. Errors (missing, corrupt, unsupported or
 * oversized files, a pinned family not installed) are validation errors at the entry's path, naming the
 * families available. With `missingFonts: "fallback"`, a family named in `fonts` that is not available
 * is drawn with the default family (the layout's report names each such text).
 */
export async function designFontSet(
  fonts: unknown,
  fontFiles: readonly Uint8Array[] | undefined,
  base: FontSet,
  resolver: AssetResolver,
  root: string,
  missingFonts: MissingFonts = 'error',
): Promise<FontSet> {
  const entries = Array.isArray(fonts) ? (fonts as unknown[]) : [];
  const fileEntries = entries
    .map((e, i) => ({ e, i }))
    // Entries the schema refuses are left to parseDesign, which reports them at their path.
    .filter((x): x is { e: FontFileEntry; i: number } => FontFile.safeParse(x.e).success);
  const pinned = entries.flatMap((e, i) => {
    const p = FontPackage.safeParse(e);
    return p.success ? [pinnedFaces(p.data, base, jsonPath(['fonts', i], root))] : [];
  });
  const missing = missingFonts === 'fallback' ? entries.filter((e): e is string => typeof e === 'string' && !base.has(e)) : [];
  if (fileEntries.length === 0 && !fontFiles?.length && pinned.length === 0 && missing.length === 0) return base;
  const available = (): string => [...new Set([...fileEntries.map((x) => x.e.family), ...base.familyNames()])].join(', ');
  const loaded = await Promise.all([
    ...fileEntries.map(async ({ e, i }) => {
      const at = jsonPath(['fonts', i, 'path'], root);
      const ref = parseImageRef(e.path, at);
      let bytes: Uint8Array;
      try {
        bytes = await resolver(ref);
      } catch (err) {
        if (err instanceof AssetNotFoundError) throw validationError(at, `${err.message.replace('no image file', 'no font file')}`);
        if (err instanceof ImprintError) throw err;
        throw validationError(at, `the font file could not be read: ${(err as Error).message}`);
      }
      const { info, faces } = await load(bytes, at, available, e.path);
      return faceOf(info, faces, e.family, e.weight, e.style);
    }),
    ...(fontFiles ?? []).map(async (bytes, i) => {
      const { info, faces } = await load(bytes, `$.fontFiles[${i}]`, available);
      return faceOf(info, faces, info.family, undefined, undefined);
    }),
  ]);
  const own = [...pinned.flat(), ...loaded];
  const ownFamilies = new Set(own.map((f) => f.family));
  const aliases = new Map(missing.filter((f) => !ownFamilies.has(f)).map((f) => [f, DEFAULT_FONT_FAMILY]));
  // A pinned family spelt otherwise than the catalogue ("open sans") is its faces under the catalogue's name.
  for (const e of entries) {
    const p = FontPackage.safeParse(e);
    const canonical = p.success ? pinned.flat().find((f) => f.family.toLowerCase() === p.data.family.toLowerCase())?.family : undefined;
    if (p.success && canonical !== undefined && canonical !== p.data.family) aliases.set(p.data.family, canonical);
  }
  return new FontSet(base, own, { aliases });
}

/**
 * `fonts` with every family named in a design's `fonts` that it lacks drawn with the default family
 * (missing_fonts "fallback"): for checking a request the way the render will draw it.
 */
export function withFallbackFamilies(fonts: FontSet, entries: unknown): FontSet {
  const missing = Array.isArray(entries) ? entries.filter((e): e is string => typeof e === 'string' && !fonts.has(e)) : [];
  return missing.length === 0 ? fonts : new FontSet(fonts, [], { aliases: new Map(missing.map((f) => [f, DEFAULT_FONT_FAMILY])) });
}
