// An account's font library: font files uploaded once (HTTP or `imprint admin add-font`), checked and
// described from their bytes, stored as sfnt, and found by family name by the account's designs.
import { designFontSet } from '../assets/design-fonts.js';
import type { AssetResolver } from '../assets/resolver.js';
import { FontFileError, MAX_FONT_FILE_BYTES, readFontFile } from '../text/font-file.js';
import { bundledFonts, type FontSet } from '../text/fonts.js';
import { fontRequestsFor, installFont, overrideFontRequests } from '../text/install.js';
import { catalogueFamily, catalogueSize, searchCatalogue } from '../text/catalogue.js';
import { scriptAt } from '../text/script-runs.js';
import { ImprintError, isImprintError, validationError } from '../errors.js';
import type { FontCoverage, FontRecord } from '../store/metadata/records.js';
import { getAccount } from './accounts.js';
import type { ServiceContext } from './context.js';
import { RETIRED_FILES_KEPT_MS } from './retention.js';
import { newToken } from './keys.js';
import type { FontFamily } from './shapes.js';

export { MAX_FONT_FILE_BYTES };

/** The families a design's `fonts` names by name (bundled or library families; file entries name their own). */
function namedFamilies(template: unknown): string[] {
  const fonts = template !== null && typeof template === 'object' ? (template as { fonts?: unknown }).fonts : undefined;
  return Array.isArray(fonts) ? fonts.filter((f): f is string => typeof f === 'string') : [];
}

// Library files a worker or the API read again and again (every render of a brand template): a few
// are kept in memory by blob key. Keys are never reused (a new one per add), so an entry cannot go stale.
const FILE_CACHE_ENTRIES = 16;
const fileCache = new Map<string, Promise<Uint8Array>>();

function libraryFile(ctx: ServiceContext, blobKey: string): Promise<Uint8Array> {
  let bytes = fileCache.get(blobKey);
  if (!bytes) {
    bytes = ctx.blobs.get(blobKey).then((b) => {
      // A library row whose file is gone (a blob store restored without it): the render says so.
      if (!b) throw new ImprintError('render_failed', '$', `the file of a library font (${blobKey}) is missing from the blob store: add the font again`);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    });
    bytes.catch(() => fileCache.delete(blobKey));
    if (fileCache.size >= FILE_CACHE_ENTRIES) fileCache.delete(fileCache.keys().next().value!);
    fileCache.set(blobKey, bytes);
  }
  return bytes;
}

/**
 * The files of the account's library fonts whose family the design names in `fonts`, for the engine's
 * `fontFiles`: they come after the design's own files and before the bundled families of that name.
 */
export async function libraryFontFiles(ctx: ServiceContext, accountId: number, template: unknown): Promise<Uint8Array[]> {
  const names = namedFamilies(template);
  if (names.length === 0) return [];
  const fonts = (await ctx.meta.listFonts(accountId)).filter((f) => names.includes(f.family));
  return Promise.all(fonts.slice(0, MAX_LIBRARY_FONTS_PER_RENDER).map((f) => libraryFile(ctx, f.blobKey)));
}

/** The engine takes at most this many font files with a render (its fontFiles limit). */
const MAX_LIBRARY_FONTS_PER_RENDER = 16;

const noFiles: AssetResolver = () => Promise.reject(new Error('a library font set has no files of its own'));

/** What a design of the account is checked against when it is imported or queued: its library families, then the bundled ones. */
export async function accountFontSet(ctx: ServiceContext, accountId: number, template: unknown): Promise<FontSet> {
  const files = await libraryFontFiles(ctx, accountId, template);
  if (files.length === 0) return bundledFonts();
  return designFontSet(undefined, files, bundledFonts(), noFiles, '$');
}

/** Code points per script; characters of no script of their own (digits, punctuation, marks) count as Common. */
async function coverageOf(sfnt: Uint8Array): Promise<FontCoverage> {
  const hb = await import('harfbuzzjs');
  const codePoints = new hb.Face(new hb.Blob(sfnt)).collectUnicodes();
  const scripts: Record<string, number> = {};
  for (const cp of codePoints) {
    const script = scriptAt(String.fromCodePoint(cp)) ?? 'Common';
    scripts[script] = (scripts[script] ?? 0) + 1;
  }
  return { code_points: codePoints.length, scripts: Object.fromEntries(Object.entries(scripts).sort(([, a], [, b]) => b - a)) };
}

/**
 * Adds a font to the account's library. The same file twice is the same font (returned with
 * `created: false`); a corrupt, unsupported or too large file is a validation_error at `$.file`.
 */
export async function addFont(ctx: ServiceContext, accountId: unknown, bytes: Uint8Array): Promise<{ font: FontRecord; created: boolean }> {
  const account = await getAccount(ctx, accountId);
  let info: Awaited<ReturnType<typeof readFontFile>>;
  try {
    info = await readFontFile(bytes);
  } catch (e) {
    if (e instanceof FontFileError) throw validationError('$.file', e.message);
    throw e;
  }
  // A new key per add: a deleted font's file is retired, not reused, if the same file comes back.
  const blobKey = `fonts/${account.id}/${newToken()}.${info.format === 'otf' ? 'otf' : 'ttf'}`;
  await ctx.blobs.put(blobKey, info.sfnt, info.format === 'otf' ? 'font/otf' : 'font/ttf');
  const result = await ctx.meta.insertFont({
    accountId: account.id,
    family: info.family,
    weight: info.weight,
    ...(info.weightAxis ? { weightRange: { min: info.weightAxis.min, max: info.weightAxis.max } } : {}),
    style: info.style,
    format: info.format,
    hash: info.hash,
    blobKey,
    size: info.sfnt.byteLength,
    coverage: await coverageOf(info.sfnt),
    createdAt: ctx.clock(),
  });
  // Already in the library: the bytes just written are not needed.
  if (!result.created) await ctx.blobs.delete(blobKey);
  else ctx.log.info({ account_id: account.id, font_id: result.font.id, family: info.family }, 'font added');
  return result;
}

export async function listFonts(ctx: ServiceContext, accountId: unknown): Promise<FontRecord[]> {
  const account = await getAccount(ctx, accountId);
  return ctx.meta.listFonts(account.id);
}

/** Font ids come from the URL as text. */
function fontId(id: unknown): number {
  const n = typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : id;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1)
    throw new ImprintError('font_not_found', '$.font_id', `no font ${JSON.stringify(id)}: font ids are positive integers (GET /public/v2/fonts lists them)`);
  return n;
}

/**
 * Removes a font from the library. Its file stays until renders that may still read it are over (a
 * day, like a replaced design's files); designs that name its family fall back to the bundled fonts.
 */
export async function deleteFont(ctx: ServiceContext, accountId: unknown, id: unknown): Promise<FontRecord> {
  const account = await getAccount(ctx, accountId);
  const deleted = await ctx.meta.deleteFont(account.id, fontId(id));
  if (!deleted) throw new ImprintError('font_not_found', '$.font_id', `no font with id ${String(id)} in this account: GET /public/v2/fonts lists them`);
  await ctx.meta.retireBlobs([deleted.blobKey], ctx.clock() + RETIRED_FILES_KEPT_MS);
  ctx.log.info({ account_id: account.id, font_id: deleted.id }, 'font deleted');
  return deleted;
}

/** A font as the API shows it. */
export function fontJson(f: FontRecord) {
  return {
    id: f.id,
    family: f.family,
    weight: f.weight,
    ...(f.weightRange ? { weight_range: [f.weightRange.min, f.weightRange.max] } : {}),
    style: f.style,
    format: f.format,
    size: f.size,
    coverage: f.coverage,
    created_at: new Date(f.createdAt).toISOString(),
  };
}

/** What a design's font install applies to, beside the design itself. */
export interface DesignFontInstall {
  /** The request's objects_overrides: a font_family they name is installed too. */
  overrides?: unknown;
  /** "fallback": a family that cannot be installed is left for the render to draw with the default family. */
  missingFonts?: 'fallback' | undefined;
  /** Stops waiting and running downloads (a worker shutting down, a task's time limit). */
  signal?: AbortSignal;
}

/** New Google Fonts families one import or render request may install. */
const MAX_INSTALLS_PER_REQUEST = 8;

/**
 * Installs the Google Fonts families a design needs that the font folder lacks — those it names that
 * neither the account's library nor the bundled set has, and pinned versions this machine lacks — as
 * configured (IMPRINT_FONTS_INSTALL). With "off", nothing is installed and parsing reports the family.
 * Errors are at the design's `fonts` entry: validation_error for a family that cannot be installed,
 * font_install_failed when the registry cannot be reached (retry), render_cancelled when `signal` stopped it.
 */
export async function installDesignFonts(ctx: ServiceContext, design: unknown, fonts: FontSet, options: DesignFontInstall = {}): Promise<void> {
  const { overrides, missingFonts, signal } = options;
  const mode = ctx.config.fontInstall ?? 'registry';
  if (mode === 'off') return;
  const requests = [...fontRequestsFor(design, fonts), ...(overrides === undefined ? [] : overrideFontRequests(overrides, fonts))];
  // A request installs a few families at most: a design or overrides naming the whole catalogue is refused, not downloaded.
  if (requests.length > MAX_INSTALLS_PER_REQUEST) {
    throw validationError(
      overrides === undefined ? '$.fonts' : '$.objects_overrides',
      `the request names ${requests.length} Google Fonts families that are not installed; at most ${MAX_INSTALLS_PER_REQUEST} are installed for one request: install them ahead with npx imprint fonts install, or name fewer`,
    );
  }
  const listed = design !== null && typeof design === 'object' ? (design as { fonts?: unknown }).fonts : undefined;
  const entries: unknown[] = Array.isArray(listed) ? listed : [];
  for (const request of requests) {
    const named = (e: unknown) => (typeof e === 'string' ? e : typeof (e as { family?: unknown })?.family === 'string' ? (e as { family: string }).family : '');
    const i = entries.findIndex((e) => named(e).toLowerCase() === request.family.toLowerCase());
    // With missing_fonts "fallback" a family that cannot be installed is drawn with the default one.
    const result = await installFont(request, {
      ...(fonts.installed ? { dir: fonts.installed.dir } : {}),
      ...(typeof mode === 'object' ? { from: mode.from } : {}),
      at: i >= 0 ? `$.fonts[${i}]` : overrides === undefined ? '$.fonts' : '$.objects_overrides',
      ...(signal ? { signal } : {}),
    }).catch((e: unknown) => {
      // A stopped install stops the request, fallback or not.
      if (missingFonts === 'fallback' && !(isImprintError(e) && e.code === 'render_cancelled')) return null;
      throw e;
    });
    if (!result) continue;
    if (result.source !== 'present') ctx.log.info({ family: result.family, package: result.package, version: result.version }, 'font family installed');
  }
}

/** A family a design of the account can name, and where it comes from (GET /public/v2/fonts `families`; FontFamily of shapes.ts). */
export type FamilyEntry = FontFamily;

/** The most families one listing returns. */
export const MAX_FAMILIES_LISTED = 200;

/**
 * The families the account's designs can name, in resolution order — the library, the bundled set,
 * the installed catalogue families — and, with `search`, the catalogue families whose name contains it
 * (installed on import). Without `search`, the catalogue is only counted (it has ~1,900 families).
 */
export async function fontFamilies(
  ctx: ServiceContext,
  accountId: unknown,
  search: string | undefined,
  limit = 50,
): Promise<{ families: FamilyEntry[]; catalogue_families: number }> {
  const account = await getAccount(ctx, accountId);
  if (search !== undefined && (search.length > 100 || !/^[A-Za-z0-9 ]*$/.test(search))) {
    throw validationError('$.search', `expected up to 100 letters, digits and spaces for search but received ${JSON.stringify(search.slice(0, 40))}`);
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FAMILIES_LISTED) {
    throw validationError('$.limit', `expected an integer from 1 to ${MAX_FAMILIES_LISTED} for limit but received ${String(limit)}`);
  }
  const fonts = bundledFonts();
  const seen = new Set<string>();
  const out: FamilyEntry[] = [];
  const add = (e: FamilyEntry) => {
    const key = e.family.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(e);
  };
  const fromCatalogue = (family: string) => catalogueFamily(family);
  const library = new Map<string, FontRecord[]>();
  for (const f of await ctx.meta.listFonts(account.id)) library.set(f.family, [...(library.get(f.family) ?? []), f]);
  for (const [family, faces] of library) {
    add({
      family,
      source: 'library',
      category: null,
      weights: [...new Set(faces.map((f) => f.weight))].sort((a, b) => a - b),
      styles: [...new Set(faces.map((f) => f.style))].sort(),
    });
  }
  for (const family of fonts.familyNames()) {
    const source = fonts.source(family);
    const c = fromCatalogue(family);
    if (source?.kind === 'installed') {
      const r = source.family;
      add({
        family,
        source: 'installed',
        category: c?.category ?? null,
        weights: [...new Set(r.faces.map((f) => f.weight))].sort((a, b) => a - b),
        styles: [...new Set(r.faces.map((f) => f.style))].sort(),
        version: r.version,
      });
    } else {
      add({ family, source: 'bundled', category: c?.category ?? null, weights: c?.weights ?? [400], styles: c?.styles ?? ['normal'] });
    }
  }
  const q = search?.trim().toLowerCase();
  const usable = q ? out.filter((e) => e.family.toLowerCase().includes(q)) : out;
  if (q)
    for (const c of searchCatalogue(q, limit))
      if (!seen.has(c.family.toLowerCase())) usable.push({ family: c.family, source: 'catalogue', category: c.category, weights: c.weights, styles: c.styles });
  return { families: usable.slice(0, limit), catalogue_families: catalogueSize() };
}
