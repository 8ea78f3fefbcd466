// Asset resolvers turn an image reference into bytes. The engine only ever calls the injected
// resolver; the default one reads files inside one base folder and a map of named assets.
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ImageRef } from '../design/image-ref.js';

export type AssetResolver = (ref: ImageRef) => Promise<Uint8Array>;

/** Thrown by resolvers when a reference names nothing; reported as validation_error at the reference. */
export class AssetNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssetNotFoundError';
  }
}

export interface FileAssetOptions {
  /** Folder that relative paths are resolved against; nothing outside it is read. */
  baseDir: string;
  /** Named assets for `asset:<name>` references: a file path (relative to baseDir or absolute) or bytes. */
  assets?: Readonly<Record<string, string | Uint8Array>>;
}

export function fileAssetResolver({ baseDir, assets = {} }: FileAssetOptions): AssetResolver {
  const root = resolve(baseDir);
  return async (ref) => {
    if (ref.kind === 'asset') {
      const entry = Object.hasOwn(assets, ref.name) ? assets[ref.name] : undefined;
      if (entry === undefined) {
        const names = Object.keys(assets);
        throw new AssetNotFoundError(`no asset named "${ref.name}"${names.length ? `: known assets are ${names.join(', ')}` : ': register it with the asset resolver (CLI: --asset name=file)'}`);
      }
      return typeof entry === 'string' ? readOrNotFound(resolve(root, entry), entry) : entry;
    }
    const file = resolve(root, ref.path);
    const rel = relative(root, file);
    if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
      throw new AssetNotFoundError(`"${ref.path}" is outside the design folder`);
    }
    return readOrNotFound(file, ref.path);
  };
}

async function readOrNotFound(file: string, shown: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') throw new AssetNotFoundError(`no image file at "${shown}"`);
    throw e;
  }
}
