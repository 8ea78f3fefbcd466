// Designs and video designs of an account: imported (validated, with their files stored in blobs),
// replaced, listed and deleted. Integer ids; a design with slides is a video design.
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
  /** Shown in listings; default: "design <id>". */
  name?: string;
}

/** A design's name is for people: 1 to 100 printable characters (control characters would reach logs and pages). */
function checkName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = typeof name === 'string' ? name.trim() : name;
  if (typeof trimmed !== 'string' || trimmed.length < 1 || trimmed.length > 100 || /\p{Cc}/u.test(trimmed)) {
    throw validationError('$.name', 'give the design a name of 1 to 100 printable characters, or leave the name out');
  }
  return trimmed;
}

function readTemplate(template: unknown): unknown {
  return typeof template === 'string' ? parseJson(template, '$', 'the design') : template;
}

/** Validates the template and stores its files; nothing is stored when anything is wrong. */
async function storeTemplate(
  ctx: ServiceContext,
  accountId: number,
  template: unknown,
  source: DesignSource,
): Promise<{ doc: unknown; kind: DesignKind; assets: Record<string, string> }> {
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

async function storeConverted(
  ctx: ServiceContext,
  accountId: number,
  doc: unknown,
  source: DesignSource,
): Promise<{ doc: unknown; kind: DesignKind; assets: Record<string, string> }> {
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
  for (const ref of refs) {
    let bytes = source.files?.get(ref.path);
    if (!bytes && resolver) {
      try {
        bytes = await resolver({ kind: 'path', path: ref.path });
      } catch (e) {
        if (e instanceof AssetNotFoundError) throw validationError(ref.at, `${e.message} (files are read from the design's folder when it is imported)`);
        throw e;
      }
    }
    if (!bytes) throw validationError(ref.at, `no file "${ref.path}" was given with the design: import it from its folder, or pass the file`);
    total += bytes.byteLength;
    if (total > MAX_DESIGN_ASSET_BYTES)
      throw validationError(ref.at, `the design's files exceed ${MAX_DESIGN_ASSET_BYTES / 1024 / 1024} MB together: use smaller images or clips`);
    await checkAssetImage(ref, bytes);
    files.push({ path: ref.path, bytes });
  }
  // A fresh folder per import: a replacement never mixes old and new files, and renders still using
  // the old ones keep them (they are retired, then deleted by the sweeper a day later).
  const folder = `designs/${newToken()}`;
  const assets: Record<string, string> = {};
  try {
    for (const f of files) {
      const key = `${folder}/${createHash('sha256').update(f.bytes).digest('hex').slice(0, 32)}`;
      if (!Object.values(assets).includes(key)) await ctx.blobs.put(key, f.bytes, sniffImageType(f.bytes) ?? 'application/octet-stream');
      assets[f.path] = key;
    }
  } catch (e) {
    await deleteAssets(ctx, assets);
    throw e;
  }
  return { doc, kind: design.slides ? 'video' : 'design', assets };
}

/** Files of a design that was replaced or deleted: kept for renders that may still read them. */
async function retireAssets(ctx: ServiceContext, assets: Record<string, string>): Promise<void> {
  await ctx.meta.retireBlobs(Object.values(assets), ctx.clock() + RETIRED_FILES_KEPT_MS);
}

async function deleteAssets(ctx: ServiceContext, assets: Record<string, string>): Promise<void> {
  await Promise.all([...new Set(Object.values(assets))].map((k) => ctx.blobs.delete(k)));
}

export async function importDesign(ctx: ServiceContext, accountId: unknown, template: unknown, source: DesignSource = {}): Promise<DesignRecord> {
  const account = await getAccount(ctx, accountId);
  const name = checkName(source.name);
  const { doc, kind, assets } = await storeTemplate(ctx, account.id, template, source);
  try {
    const record = await ctx.meta.insertDesign({ accountId: account.id, kind, name: name ?? '', template: doc, assets, now: ctx.clock() });
    ctx.log.info({ account_id: account.id, design_id: record.id, kind, files: Object.keys(assets).length }, 'design imported');
    return record;
  } catch (e) {
    await deleteAssets(ctx, assets);
    throw e;
  }
}

export async function getDesign(ctx: ServiceContext, accountId: number, designId: unknown): Promise<DesignRecord> {
  const id = checkId(designId, 'design_id');
  const design = await ctx.meta.getDesign(accountId, id);
  if (!design) throw new ImprintError('design_not_found', '$.design_id', `no design with id ${id} in this account: use the id of one of its designs`);
  return design;
}

export async function replaceDesign(
  ctx: ServiceContext,
  accountId: unknown,
  designId: unknown,
  template: unknown,
  source: DesignSource = {},
): Promise<DesignRecord> {
  const account = await getAccount(ctx, accountId);
  const old = await getDesign(ctx, account.id, designId);
  const name = checkName(source.name);
  const { doc, kind, assets } = await storeTemplate(ctx, account.id, template, source);
  const record = await ctx.meta.replaceDesign({
    accountId: account.id,
    id: old.id,
    kind,
    name: name ?? old.name,
    template: doc,
    assets,
    now: ctx.clock(),
  });
  if (!record) {
    await deleteAssets(ctx, assets);
    throw new ImprintError('design_not_found', '$.design_id', `design ${old.id} was deleted meanwhile`);
  }
  await retireAssets(ctx, old.assets);
  ctx.log.info({ account_id: account.id, design_id: record.id }, 'design replaced');
  return record;
}

export async function listDesigns(ctx: ServiceContext, accountId: unknown): Promise<DesignSummary[]> {
  const account = await getAccount(ctx, accountId);
  return ctx.meta.listDesigns(account.id);
}

/** Deletes the design (its files follow a day later); tasks queued for it and not started end in error. */
export async function deleteDesign(ctx: ServiceContext, accountId: unknown, designId: unknown): Promise<void> {
  const account = await getAccount(ctx, accountId);
  const id = checkId(designId, 'design_id');
  const deleted = await ctx.meta.deleteDesign(account.id, id);
  if (!deleted) throw new ImprintError('design_not_found', '$.design_id', `no design with id ${id} in this account: use the id of one of its designs`);
  await retireAssets(ctx, deleted.assets);
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
export function designSummaryJson(d: DesignSummary, shape: DesignShape): DesignSummaryJson {
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
  };
}
export type DesignSummaryJson = DesignSummaryBody;

/** The account's designs newest first, with size and length (GET /public/v2/designs). */
export async function listDesignSummaries(ctx: ServiceContext, accountId: unknown): Promise<DesignSummaryJson[]> {
  const account = await getAccount(ctx, accountId);
  return (await ctx.meta.listDesignTemplates(account.id)).map((d) => designSummaryJson(d, designShape(d.template)));
}

export function designJson(d: DesignSummary) {
  return { design_id: d.id, kind: d.kind, name: d.name, created_at: new Date(d.createdAt).toISOString(), updated_at: new Date(d.updatedAt).toISOString() };
}
