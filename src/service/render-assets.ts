// Where a render for an account finds its files: the design's own files (stored with it at import)
// and the account's unexpired uploads. Nothing else is reachable, whatever the overrides say. Tasks
// (src/worker/task-assets.ts) and previews (preview.ts) resolve through this one function.
import { AssetNotFoundError, type AssetResolver } from '../assets/resolver.js';
import type { DesignRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { normaliseAssetPath } from './design-assets.js';
import { usableUpload } from './uploads.js';

export function accountAssetResolver(ctx: ServiceContext, accountId: number, design: Pick<DesignRecord, 'assets'>): AssetResolver {
  return async (ref) => {
    let key: string | undefined;
    if (ref.kind === 'asset') {
      const upload = await usableUpload(ctx, accountId, ref.name);
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
