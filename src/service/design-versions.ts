// The Studio's designs (issue 31): made from a template sent as JSON (no zip), saved as numbered
// versions on the version they were edited from, renamed, duplicated, and their versions listed.
// Files the editor adds are uploads (A3) named in an `assets` map: their bytes are copied into the
// design when it is saved, so the design outlives the upload. Checked exactly as an import is.
import { parseImageRef } from '../format/image-ref.js';
import { childPath } from '../format/json-path.js';
import { ImprintError, validationError } from '../errors.js';
import { nameTaken, versionConflict } from '../store/metadata/metadata-store.js';
import type { Account, DesignRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { normaliseAssetPath } from './design-assets.js';
import {
  checkName,
  deleteAssets,
  designShape,
  designSummaryJson,
  getDesign,
  MAX_DESIGN_ASSET_BYTES,
  retireTime,
  storeTemplate,
  type DesignSource,
  type DesignSummaryJson,
  type StoredTemplate,
} from './designs.js';
import {
  DESIGN_ASSETS_MAX,
  DESIGN_NAME_MAX,
  DESIGN_VERSIONS_KEPT,
  type DesignAssets,
  type DesignVersionList,
  type DuplicateRequest,
  type NewDesignRequest,
  type RenameRequest,
  type SaveVersionRequest,
} from './shapes.js';
import { uploadOfUrl } from './uploads.js';

/** Errors already at a path of the request's body (its `assets`), not of the template. */
const atBody = new WeakSet<ImprintError>();

/**
 * A template sent inside a request body is at `$.design`: its errors (the import's, at template
 * paths such as `$.objects[2].font_size`) are moved there, so every path names a field of the body.
 */
function underDesign(e: unknown): unknown {
  if (!(e instanceof ImprintError) || atBody.has(e) || !/^\$(?=$|[.[])/.test(e.path)) return e;
  return new ImprintError(e.code, `$.design${e.path.slice(1)}`, e.message, { cause: e, ...(e.details ? { details: e.details } : {}) });
}

/** storeTemplate for a template sent in a body, its errors at `$.design…`. */
async function storeSent(ctx: ServiceContext, accountId: number, template: unknown, source: DesignSource): Promise<StoredTemplate> {
  try {
    return await storeTemplate(ctx, accountId, template, source);
  } catch (e) {
    throw underDesign(e);
  }
}

/**
 * The files of an `assets` map (relative path → upload URL of this account), read from the uploads'
 * blobs, with how to reach each entry for errors. Nothing is stored here.
 */
async function uploadedFiles(ctx: ServiceContext, accountId: number, assets: DesignAssets | undefined): Promise<DesignSource> {
  const entries = Object.entries(assets ?? {});
  if (entries.length > DESIGN_ASSETS_MAX) {
    throw validationError('$.assets', `${entries.length} files: a save may add at most ${DESIGN_ASSETS_MAX}; save the design in several steps`);
  }
  /** Normalised path → the key the request wrote, for the JSON path of an error. */
  const written = new Map<string, string>();
  const uploads = [];
  let total = 0;
  for (const [key, url] of entries) {
    const at = childPath('$.assets', key);
    const ref = parseImageRef(key, at);
    if (ref.kind !== 'path') throw validationError(at, 'expected a relative path as the template writes it (an image\'s "path"), such as "photo.jpg"');
    const path = normaliseAssetPath(ref.path);
    if (written.has(path)) throw validationError(at, `the same file as ${JSON.stringify(written.get(path))}: give each file once`);
    written.set(path, key);
    const upload = await uploadOfUrl(ctx, accountId, url, at);
    total += upload.size;
    if (total > MAX_DESIGN_ASSET_BYTES)
      throw validationError(at, `the design's files exceed ${MAX_DESIGN_ASSET_BYTES / 1048576} MB together: use smaller images`);
    uploads.push({ path, at, upload });
  }
  const files = new Map<string, Uint8Array>();
  for (const { path, at, upload } of uploads) {
    const bytes = await ctx.blobs.get(upload.blobKey);
    if (!bytes) throw validationError(at, 'this upload has expired (uploads are kept 30 days): upload the image again');
    files.set(path, bytes);
  }
  return {
    files,
    unusedFile: (path) => {
      const e = validationError(
        childPath('$.assets', written.get(path) ?? path),
        `the design does not use "${path}": name it in an object (an image's "path"), or leave it out of assets`,
      );
      atBody.add(e);
      return e;
    },
    missingHint: 'upload it (POST /public/v2/upload) and name it in "assets" with the url the upload returned',
  };
}

/** A name for a copy of `design` that no design of the account has: "<name> copy", then "<name> copy 2", … */
async function copyName(ctx: ServiceContext, accountId: number, design: DesignRecord): Promise<string> {
  const taken = new Set((await ctx.meta.listDesigns(accountId)).map((d) => d.name));
  const base = design.name || `design ${design.id}`;
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' copy' : ` copy ${n}`;
    const name =
      [...base]
        .slice(0, DESIGN_NAME_MAX - suffix.length)
        .join('')
        .trimEnd() + suffix;
    if (!taken.has(name)) return name;
  }
}

/** A taken name is refused before the template is checked and its files stored (the insert checks again, atomically). */
async function checkNameFree(ctx: ServiceContext, accountId: number, name: string): Promise<void> {
  const id = await ctx.meta.findDesignByName(accountId, name);
  if (id !== undefined) throw nameTaken(id, name);
}

/** Inserts a design as its version 1; the files stored for it are deleted again when the insert fails. */
async function insertStored(ctx: ServiceContext, accountId: number, name: string, stored: Pick<StoredTemplate, 'doc' | 'kind' | 'assets' | 'added'>) {
  try {
    return await ctx.meta.insertDesign({
      accountId,
      kind: stored.kind,
      name,
      template: stored.doc,
      assets: stored.assets,
      now: ctx.clock(),
      uniqueName: true,
    });
  } catch (e) {
    await deleteAssets(ctx, stored.added);
    throw e;
  }
}

/** A new design from a template sent as JSON (the Studio's new design): its version 1. */
export async function createDesign(ctx: ServiceContext, account: Account, req: NewDesignRequest): Promise<DesignRecord> {
  const name = checkName(req.name, false);
  await checkNameFree(ctx, account.id, name);
  const source = await uploadedFiles(ctx, account.id, req.assets);
  const stored = await storeSent(ctx, account.id, req.design, source);
  const record = await insertStored(ctx, account.id, name, stored);
  ctx.log.info({ account_id: account.id, design_id: record.id, kind: record.kind }, 'design created');
  return record;
}

/**
 * Saves the next version of a design, made on `base_version`: refused with version_conflict when
 * another version was saved since, with nothing stored. The template is checked as an import is;
 * the files it names come from `assets` (uploads) or, when not given there, from the design's kept
 * versions, shared without copying. Saving drops the design's draft.
 */
export async function saveDesignVersion(ctx: ServiceContext, account: Account, designId: unknown, req: SaveVersionRequest): Promise<DesignRecord> {
  const current = await getDesign(ctx, account.id, designId);
  if (req.base_version > current.version) {
    throw validationError('$.base_version', `design ${current.id} has no version ${req.base_version}: its latest is ${current.version}; save on that one`);
  }
  // Refused early, before any file is copied; the write below checks again in its transaction.
  if (req.base_version !== current.version) throw versionConflict(current.id, current.version, req.base_version);
  const source = await uploadedFiles(ctx, account.id, req.assets);
  const kept = await ctx.meta.keptAssets(account.id, current.id);
  const stored = await storeSent(ctx, account.id, req.design, { ...source, stored: kept, reuse: kept.values() });
  let record: DesignRecord | undefined;
  try {
    record = await ctx.meta.saveVersion({
      accountId: account.id,
      id: current.id,
      kind: stored.kind,
      template: stored.doc,
      assets: stored.assets,
      now: ctx.clock(),
      baseVersion: req.base_version,
      dropDraft: true,
      keep: DESIGN_VERSIONS_KEPT,
      retireAfter: retireTime(ctx),
    });
  } catch (e) {
    await deleteAssets(ctx, stored.added);
    throw e;
  }
  if (!record) {
    await deleteAssets(ctx, stored.added);
    throw new ImprintError('design_not_found', '$.design_id', `design ${current.id} was deleted meanwhile`);
  }
  ctx.log.info({ account_id: account.id, design_id: record.id, version: record.version }, 'design version saved');
  return record;
}

/**
 * A new design made of the latest version of another (its files shared, not copied: deleting either
 * design leaves the other's files in place). Named `name`, or "<name> copy" when none is given.
 */
export async function duplicateDesign(ctx: ServiceContext, account: Account, designId: unknown, req: DuplicateRequest): Promise<DesignRecord> {
  const source = await getDesign(ctx, account.id, designId);
  const name = req.name === undefined ? await copyName(ctx, account.id, source) : checkName(req.name);
  const record = await insertStored(ctx, account.id, name, { doc: source.template, kind: source.kind, assets: source.assets, added: {} });
  ctx.log.info({ account_id: account.id, design_id: record.id, from: source.id, version: source.version }, 'design duplicated');
  return record;
}

/** A design as listed, from its record. */
async function summaryOf(ctx: ServiceContext, account: Account, design: DesignRecord): Promise<DesignSummaryJson> {
  return designSummaryJson(design, designShape(design.template), await ctx.meta.hasDraft(account.id, design.id));
}

/** Renames a design (no new version); a name another design of the account has is refused (conflict). */
export async function renameDesign(ctx: ServiceContext, account: Account, designId: unknown, req: RenameRequest): Promise<DesignSummaryJson> {
  const design = await getDesign(ctx, account.id, designId);
  const name = checkName(req.name, false);
  const renamed = await ctx.meta.renameDesign(account.id, design.id, name, ctx.clock());
  if (!renamed) throw new ImprintError('design_not_found', '$.design_id', `design ${design.id} was deleted meanwhile`);
  ctx.log.info({ account_id: account.id, design_id: design.id }, 'design renamed');
  return summaryOf(ctx, account, { ...design, ...renamed });
}

/** A page of a design's kept versions, newest first, each with its size and canvas. */
export async function listDesignVersions(
  ctx: ServiceContext,
  account: Account,
  designId: unknown,
  page: { limit: number; before?: number | undefined },
): Promise<DesignVersionList> {
  const design = await getDesign(ctx, account.id, designId);
  const range = (await ctx.meta.versionRange(account.id, design.id)) ?? { oldest: design.version, latest: design.version };
  const versions = await ctx.meta.listVersions(account.id, design.id, { limit: page.limit, ...(page.before === undefined ? {} : { before: page.before }) });
  return {
    design_id: design.id,
    latest_version: design.version,
    oldest_version: range.oldest,
    versions: versions.map((v) => {
      const shape = designShape(v.template);
      return {
        version: v.version,
        created_at: new Date(v.createdAt).toISOString(),
        kind: v.kind,
        width: shape.width,
        height: shape.height,
        duration: shape.duration,
        size: Buffer.byteLength(JSON.stringify(v.template)),
        files: new Set(Object.values(v.assets)).size,
      };
    }),
  };
}
