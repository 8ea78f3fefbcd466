// A design's autosaved draft (issue 31): the editor's template as it is, kept in the metadata store
// (it survives restarts and is read from any machine), one per design, replaced on every autosave,
// dropped by a save of a version or a DELETE. A draft is never validated beyond being JSON within
// its size limit, and never rendered: renders read saved versions only.
import { ImprintError, validationError } from '../errors.js';
import type { Account, DesignDraftRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { getDesign } from './designs.js';
import { DESIGN_ASSETS_MAX, DESIGN_JSON_MAX_BYTES, type DesignDraft, type DraftRequest, type DraftSaved } from './shapes.js';

const iso = (t: number) => new Date(t).toISOString();

function savedJson(d: DesignDraftRecord, latest: number): DraftSaved {
  return { design_id: d.designId, base_version: d.baseVersion, latest_version: latest, updated_at: iso(d.updatedAt) };
}

/** Stores (replaces) the draft of a design; the version it was edited from must be one the design has had. */
export async function putDraft(ctx: ServiceContext, account: Account, designId: unknown, req: DraftRequest): Promise<DraftSaved> {
  const design = await getDesign(ctx, account.id, designId);
  if (req.base_version > design.version) {
    throw validationError('$.base_version', `design ${design.id} has no version ${req.base_version}: its latest is ${design.version}`);
  }
  const assets = req.assets ?? {};
  if (Object.keys(assets).length > DESIGN_ASSETS_MAX) throw validationError('$.assets', `a draft may name at most ${DESIGN_ASSETS_MAX} files`);
  // The HTTP body was limited already; a caller of the service gets the same limit.
  const size = Buffer.byteLength(JSON.stringify(req.design)) + Buffer.byteLength(JSON.stringify(assets));
  if (size > DESIGN_JSON_MAX_BYTES) {
    throw new ImprintError(
      'payload_too_large',
      '$.design',
      `the draft is ${(size / 1048576).toFixed(1)} MB: a draft is at most ${DESIGN_JSON_MAX_BYTES / 1048576} MB of JSON (keep images as files, not data URLs)`,
    );
  }
  const draft = await ctx.meta.putDraft({
    accountId: account.id,
    designId: design.id,
    baseVersion: req.base_version,
    template: req.design,
    assets,
    now: ctx.clock(),
  });
  if (!draft) throw new ImprintError('design_not_found', '$.design_id', `design ${design.id} was deleted meanwhile`);
  return savedJson(draft, design.version);
}

const noDraft = (id: number) =>
  new ImprintError(
    'draft_not_found',
    '$.design_id',
    `design ${id} has no draft (none was saved, or a save of a version or a delete dropped it): open its latest version`,
  );

/** The design's draft with the version it was edited from and the latest saved one. */
export async function getDraft(ctx: ServiceContext, account: Account, designId: unknown): Promise<DesignDraft> {
  const design = await getDesign(ctx, account.id, designId);
  const draft = await ctx.meta.getDraft(account.id, design.id);
  if (!draft) throw noDraft(design.id);
  return { ...savedJson(draft, design.version), design: draft.template as Record<string, unknown>, assets: draft.assets };
}

export async function deleteDraft(ctx: ServiceContext, account: Account, designId: unknown): Promise<void> {
  const design = await getDesign(ctx, account.id, designId);
  if (!(await ctx.meta.deleteDraft(account.id, design.id))) throw noDraft(design.id);
}
