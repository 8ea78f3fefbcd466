// Designs and video designs of an account: imported (validated, with their files stored in blobs),
// replaced by a new version, listed and deleted. Integer ids; a design with slides is a video design.
// Every save is a numbered version (the Studio's saves, drafts, copies and renames are in
// design-versions.ts and design-drafts.ts); renders read the latest unless they name one.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AssetNotFoundError, fileAssetResolver } from '../assets/resolver.js';
import { parseDesign, parseJson } from '../design/parse.js';
import { traceError } from '../design/import.js';
import { bundledFonts } from '../text/fonts.js';
import { Transition } from '../design/schema.js';
import { slideTimes } from '../resolve/slides.js';
import { ImprintError, validationError } from '../errors.js';
import type { DesignKind, DesignRecord, DesignSummary } from '../store/metadata/records.js';
import { DESIGN_NAME_MAX, DESIGN_NAME_RULE, DESIGN_VERSIONS_KEPT } from './shapes.js';
import { checkId, getAccount } from './accounts.js';
import { accountFontSet, installDesignFonts } from './fonts.js';
import { catalogueFamily } from '../text/catalogue.js';
import { pinFonts } from '../text/install.js';
import { RETIRED_FILES_KEPT_MS } from './retention.js';
import type { ServiceContext } from './context.js';
import { checkAssetImage, designAssetRefs } from './design-assets.js';
import { newToken } from './keys.js';
import { importInput } from './remote-files.js';
import type { DesignSummary as DesignSummaryBody } from './shapes.js';
import { sniffImageType } from './sniff.js';

/** Bytes of all files of one design together. */
export const MAX_DESIGN_ASSET_BYTES = 500 * 1024 * 1024;

export interface DesignSource {
  /** Folder that the template's relative paths are read from. */
  baseDir?: string;
  /** Or the files themselves, by relative path. */
  files?: ReadonlyMap<string, Uint8Array>;
  /** Files already stored (the design's kept versions'), by relative path: a path the template names that no other source gives is this file. */
  stored?: ReadonlyMap<string, string>;
  /** Blob keys of files already stored (the design's kept versions'): a given file with the same bytes as one of them is that one, not stored again. */
  reuse?: Iterable<string>;
  /** A given file the template does not use: this error (by default such files are left out). */
  unusedFile?: (path: string) => ImprintError;
  /** Added to the message about a file the template names and the source lacks: how to give it. */
  missingHint?: string;
  /** Shown in listings; default: "design <id>". */
  name?: string;
}

/**
 * A design's name is for people: 1 to DESIGN_NAME_MAX printable characters once trimmed (control
 * characters would reach logs and pages). `optional`: the message says it may be left out.
 */
export function checkName(name: unknown, optional = true): string {
  const trimmed = typeof name === 'string' ? name.trim() : name;
  if (typeof trimmed !== 'string' || trimmed.length < 1 || [...trimmed].length > DESIGN_NAME_MAX || /\p{Cc}/u.test(trimmed)) {
    throw validationError('$.name', optional ? `${DESIGN_NAME_RULE}, or leave the name out` : DESIGN_NAME_RULE);
  }
  return trimmed;
}

function readTemplate(template: unknown): unknown {
  return typeof template === 'string' ? parseJson(template, '$', 'the design') : template;
}

/** Validates the template and stores its files; nothing is stored when anything is wrong. */
export async function storeTemplate(ctx: ServiceContext, accountId: number, template: unknown, source: DesignSource): Promise<StoredTemplate> {
  // A Polotno document is stored as the Imprint design it converts to (its data: URLs and its remote
  // files, fetched once now, as files), so renders and overrides treat it like any other; its errors
  // point at the Polotno fields. A Polotno font whose family the account's library, the bundled set or
  // the font catalogue has needs no file: a Google Fonts family is installed from the catalogue
  // (pinned, integrity-checked), not downloaded from its URL.
  const library = new Set((await ctx.meta.listFonts(accountId)).map((f) => f.family));
  const imported = await importInput(readTemplate(template), {
    hasFamily: (f) => library.has(f) || bundledFonts().has(f) || catalogueFamily(f) !== undefined,
    fetch: ctx.config.importFetch,
  });
  try {
    return await storeConverted(ctx, accountId, imported.design, { ...source, files: withEmbedded(source.files, imported.files) });
  } catch (e) {
    throw traceError(imported, e);
  }
}

function withEmbedded(
  files: ReadonlyMap<string, Uint8Array> | undefined,
  embedded: ReadonlyMap<string, Uint8Array>,
): ReadonlyMap<string, Uint8Array> | undefined {
  if (embedded.size === 0) return files;
  return new Map([...(files ?? []), ...embedded]);
}

async function storeConverted(ctx: ServiceContext, accountId: number, doc: unknown, source: DesignSource): Promise<StoredTemplate> {
  // Families of the account's font library may be named like bundled ones. Google Fonts families that
  // neither has are installed now, and the stored design is pinned to the package versions installed.
  const fonts = await accountFontSet(ctx, accountId, doc);
  await installDesignFonts(ctx, doc, fonts);
  doc = pinFonts(doc, fonts);
  const design = parseDesign(doc, fonts);
  const refs = designAssetRefs(doc);
  const resolver = source.baseDir ? fileAssetResolver({ baseDir: source.baseDir }) : undefined;
  const files: { path: string; bytes: Uint8Array }[] = [];
  let total = 0;
  const used = new Set(refs.map((r) => r.path));
  if (source.unusedFile) for (const path of source.files?.keys() ?? []) if (!used.has(path)) throw source.unusedFile(path);
  const kept: Record<string, string> = {};
  for (const ref of refs) {
    let bytes = source.files?.get(ref.path);
    const stored = bytes ? undefined : source.stored?.get(ref.path);
    if (stored !== undefined) {
      kept[ref.path] = stored;
      continue;
    }
    if (!bytes && resolver) {
      try {
        bytes = await resolver({ kind: 'path', path: ref.path });
      } catch (e) {
        if (e instanceof AssetNotFoundError) throw validationError(ref.at, `${e.message} (files are read from the design's folder when it is imported)`);
        throw e;
      }
    }
    if (!bytes) {
      throw validationError(ref.at, `no file "${ref.path}" was given with the design: ${source.missingHint ?? 'import it from its folder, or pass the file'}`);
    }
    total += bytes.byteLength;
    if (total > MAX_DESIGN_ASSET_BYTES)
      throw validationError(ref.at, `the design's files exceed ${MAX_DESIGN_ASSET_BYTES / 1024 / 1024} MB together: use smaller images or clips`);
    await checkAssetImage(ref, bytes);
    files.push({ path: ref.path, bytes });
  }
  // New files go into a fresh folder, named by their content's hash. A file with the same bytes as
  // one the design's kept versions have is that one, shared rather than stored again (a design
  // saved 100 times keeps its photo once). A stored file is never overwritten: renders still using
  // an earlier version read the files it had (retired, then deleted a day after no version uses them).
  const folder = `designs/${newToken()}`;
  const byHash = new Map([...(source.reuse ?? [])].map((key) => [key.slice(key.lastIndexOf('/') + 1), key]));
  const added: Record<string, string> = {};
  try {
    for (const f of files) {
      const hash = createHash('sha256').update(f.bytes).digest('hex').slice(0, 32);
      const existing = byHash.get(hash);
      if (existing !== undefined) {
        kept[f.path] = existing;
        continue;
      }
      const key = `${folder}/${hash}`;
      if (!Object.values(added).includes(key)) await ctx.blobs.put(key, f.bytes, sniffImageType(f.bytes) ?? 'application/octet-stream');
      added[f.path] = key;
    }
  } catch (e) {
    await deleteAssets(ctx, added);
    throw e;
  }
  return { doc, kind: design.slides ? 'video' : 'design', assets: { ...kept, ...added }, added };
}

/** What a template was stored as: the (converted, font-pinned) document, its kind, its files and which of them are new. */
export interface StoredTemplate {
  doc: unknown;
  kind: DesignKind;
  /** Every file of the template, by relative path. */
  assets: Record<string, string>;
  /** The files stored by this call (not shared with an earlier version): deleted again when the write that follows fails. */
  added: Record<string, string>;
}

/** Deletes the bytes of files that no version came to use (a write that failed after they were stored). */
export async function deleteAssets(ctx: ServiceContext, assets: Record<string, string>): Promise<void> {
  await Promise.all([...new Set(Object.values(assets))].map((k) => ctx.blobs.delete(k)));
}

/** When the files a design no longer uses may be deleted: after renders that may still read them. */
export const retireTime = (ctx: ServiceContext): number => ctx.clock() + RETIRED_FILES_KEPT_MS;

export async function importDesign(ctx: ServiceContext, accountId: unknown, template: unknown, source: DesignSource = {}): Promise<DesignRecord> {
  const account = await getAccount(ctx, accountId);
  const name = source.name === undefined ? undefined : checkName(source.name);
  const { doc, kind, assets, added } = await storeTemplate(ctx, account.id, template, source);
  try {
    const record = await ctx.meta.insertDesign({ accountId: account.id, kind, name: name ?? '', template: doc, assets, now: ctx.clock() });
    ctx.log.info({ account_id: account.id, design_id: record.id, kind, files: Object.keys(assets).length }, 'design imported');
    return record;
  } catch (e) {
    await deleteAssets(ctx, added);
    throw e;
  }
}

const designNotFound = (id: number) =>
  new ImprintError('design_not_found', '$.design_id', `no design with id ${id} in this account: use the id of one of its designs`);

/** Which versions a design keeps, for a message: "1", "1 to 4". */
function versionsKept(range: { oldest: number; latest: number }): string {
  return range.oldest === range.latest ? `only version ${range.latest}` : `versions ${range.oldest} to ${range.latest}`;
}

export interface VersionLookup {
  /** The version to read; default the latest. */
  version?: number | undefined;
  /** The error for a version the design does not keep: version_not_found (default) or validation_error (a render request's field). */
  missing?: 'version_not_found' | 'validation_error';
  /** Its JSON path; default `$.version`. */
  at?: string;
}

/** A design of the account with the template and files of its latest version, or of `lookup.version`. */
export async function getDesign(ctx: ServiceContext, accountId: number, designId: unknown, lookup: VersionLookup = {}): Promise<DesignRecord> {
  const id = checkId(designId, 'design_id');
  const design = await ctx.meta.getDesign(accountId, id, lookup.version);
  if (design) return design;
  const range = lookup.version === undefined ? undefined : await ctx.meta.versionRange(accountId, id);
  if (!range) throw designNotFound(id);
  throw new ImprintError(
    lookup.missing ?? 'version_not_found',
    lookup.at ?? '$.version',
    `design ${id} has no version ${lookup.version}: it keeps ${versionsKept(range)} (the last ${DESIGN_VERSIONS_KEPT} saved); leave the version out for the latest`,
  );
}

/**
 * Replaces a design by a new version from a template (a zip or a folder, as imported); its id stays
 * and earlier versions are kept (renders naming them still work).
 */
export async function replaceDesign(
  ctx: ServiceContext,
  accountId: unknown,
  designId: unknown,
  template: unknown,
  source: DesignSource = {},
): Promise<DesignRecord> {
  const account = await getAccount(ctx, accountId);
  const old = await getDesign(ctx, account.id, designId);
  const name = source.name === undefined ? undefined : checkName(source.name);
  // The zip's files replace the earlier versions' by path; the same bytes as a kept file are that file.
  const reuse = (await ctx.meta.keptAssets(account.id, old.id)).values();
  const { doc, kind, assets, added } = await storeTemplate(ctx, account.id, template, { ...source, reuse });
  let record: DesignRecord | undefined;
  try {
    record = await ctx.meta.saveVersion({
      accountId: account.id,
      id: old.id,
      kind,
      template: doc,
      assets,
      now: ctx.clock(),
      keep: DESIGN_VERSIONS_KEPT,
      retireAfter: retireTime(ctx),
      ...(name === undefined ? {} : { name }),
    });
  } catch (e) {
    await deleteAssets(ctx, added);
    throw e;
  }
  if (!record) {
    await deleteAssets(ctx, added);
    throw new ImprintError('design_not_found', '$.design_id', `design ${old.id} was deleted meanwhile`);
  }
  ctx.log.info({ account_id: account.id, design_id: record.id, version: record.version }, 'design replaced');
  return record;
}

export async function listDesigns(ctx: ServiceContext, accountId: unknown): Promise<DesignSummary[]> {
  const account = await getAccount(ctx, accountId);
  return ctx.meta.listDesigns(account.id);
}

/**
 * Deletes the design with its versions and draft (files no other design uses follow a day later);
 * tasks queued for it and not started end in error.
 */
export async function deleteDesign(ctx: ServiceContext, accountId: unknown, designId: unknown): Promise<void> {
  const account = await getAccount(ctx, accountId);
  const id = checkId(designId, 'design_id');
  const deleted = await ctx.meta.deleteDesign(account.id, id, retireTime(ctx));
  if (!deleted) throw designNotFound(id);
  ctx.log.info({ account_id: account.id, design_id: id }, 'design deleted');
}

/** What a listing shows of a design's template: its canvas and, for animated and video designs, its length. */
export interface DesignShape {
  width: number;
  height: number;
  /** Seconds; null for a still design. */
  duration: number | null;
  /** True when the design has a timeline (a `duration`, or slides): it can be rendered as mp4. */
  animated: boolean;
}

/**
 * Only the fields a listing needs, read without validating the whole template again: stored templates
 * were validated when imported, and a full parse of every design would make a listing of 50 slow.
 */
const StoredShape = z.looseObject({
  width: z.number(),
  height: z.number(),
  duration: z.number().optional(),
  slides: z.array(z.looseObject({ duration: z.number(), transition: Transition.optional() })).optional(),
});

/** Size and length of a stored template (a template the quick read cannot make sense of is fully parsed, for its error). */
export function designShape(template: unknown): DesignShape {
  const quick = StoredShape.safeParse(template);
  const t = quick.success ? quick.data : parseDesign(template);
  const duration = t.slides ? slideTimes(t.slides).duration : (t.duration ?? null);
  return { width: t.width, height: t.height, duration, animated: duration !== null };
}

/** A design as the HTTP API lists it (DesignSummary of docs/api.md and shapes.ts). */
export function designSummaryJson(d: DesignSummary, shape: DesignShape, hasDraft: boolean): DesignSummaryJson {
  return {
    design_id: d.id,
    name: d.name,
    kind: d.kind,
    width: shape.width,
    height: shape.height,
    duration: shape.duration,
    animated: shape.animated,
    created_at: new Date(d.createdAt).toISOString(),
    updated_at: new Date(d.updatedAt).toISOString(),
    latest_version: d.latestVersion,
    has_draft: hasDraft,
  };
}
export type DesignSummaryJson = DesignSummaryBody;

/** The account's designs newest first, with size and length (GET /public/v2/designs). */
export async function listDesignSummaries(ctx: ServiceContext, accountId: unknown): Promise<DesignSummaryJson[]> {
  const account = await getAccount(ctx, accountId);
  return (await ctx.meta.listDesignTemplates(account.id)).map((d) => designSummaryJson(d, designShape(d.template), d.hasDraft));
}

export function designJson(d: DesignSummary) {
  return { design_id: d.id, kind: d.kind, name: d.name, created_at: new Date(d.createdAt).toISOString(), updated_at: new Date(d.updatedAt).toISOString() };
}
