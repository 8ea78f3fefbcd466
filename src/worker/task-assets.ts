// Where a task's files come from: the design's own files (stored with it at import) and this
// account's unexpired uploads. Nothing else is reachable, whatever the overrides say.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AssetNotFoundError, type AssetResolver } from '../assets/resolver.js';
import type { ServiceContext } from '../service/context.js';
import { normaliseAssetPath } from '../service/design-assets.js';
import { usableUpload } from '../service/uploads.js';
import type { DesignRecord, TaskRecord } from '../store/metadata/records.js';

/** The logo of interface B's free mode, drawn by scripts/make-demo-logo.mjs. */
export const DEMO_LOGO_ASSET = 'imprint-demo-logo';
const DEMO_LOGO_FILE = fileURLToPath(new URL('../../assets/demo-logo.png', import.meta.url));

export function taskAssetResolver(ctx: ServiceContext, task: TaskRecord, design: DesignRecord): AssetResolver {
  return async (ref) => {
    let key: string | undefined;
    if (ref.kind === 'asset' && ref.name === DEMO_LOGO_ASSET && task.demo) return readFile(DEMO_LOGO_FILE);
    if (ref.kind === 'asset') {
      const upload = await usableUpload(ctx, task.accountId, ref.name);
      if (typeof upload === 'string') throw new AssetNotFoundError(upload);
      key = upload.blobKey;
    } else {
      const path = normaliseAssetPath(ref.path);
      key = Object.hasOwn(design.assets, path) ? design.assets[path] : undefined;
      if (!key) throw new AssetNotFoundError(`the design has no file "${ref.path}": use one of its own files or an uploaded image`);
    }
    const bytes = await ctx.blobs.get(key);
    if (!bytes)
      throw new AssetNotFoundError(`the file for "${ref.kind === 'asset' ? ref.name : ref.path}" is no longer stored (expired or deleted): upload it again`);
    return bytes;
  };
}
