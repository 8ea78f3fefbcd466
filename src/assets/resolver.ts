// Asset resolvers turn an image reference into bytes. The engine only ever calls the injected
// resolver; the default one reads files inside one base folder and a map of named assets.
import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ImageRef } from '../scene/scene.js';

export type AssetResolver = (ref: ImageRef) => Promise<Uint8Array>;

/** Thrown by resolvers when a reference names nothing; reported as validation_error at the reference. */
export class AssetNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssetNotFoundError';
  }
}

export interface FileAssetOptions {
  /** Folder that relative paths are resolved against; nothing outside it is read. Required. */
  baseDir: string;
  /**
   * Named assets for `asset:<name>` references: a file path (relative to baseDir or absolute) or bytes.
   * @default {}
   */
  assets?: Readonly<Record<string, string | Uint8Array>>;
}

export function fileAssetResolver({ baseDir, assets = {} }: FileAssetOptions): AssetResolver {
  const root = resolve(baseDir);
  let realRoot: Promise<string> | undefined;
  return async (ref) => {
    if (ref.kind === 'asset') {
      const entry = Object.hasOwn(assets, ref.name) ? assets[ref.name] : undefined;
      if (entry === undefined) {
        const names = Object.keys(assets);
        throw new AssetNotFoundError(`no asset named "${ref.name}": ${names.length ? `use one of ${names.join(', ')}` : 'register it with the asset resolver (CLI: --asset name=file)'}`);
      }
      return typeof entry === 'string' ? readOrNotFound(resolve(root, entry), entry, root) : entry;
    }
    const file = resolve(root, ref.path);
    // Compare real paths, so a symlink inside the folder cannot lead outside it.
    realRoot ??= realpath(root).catch(() => root);
    const [rootPath, realFile] = await Promise.all([realRoot, realpath(file).catch(() => file)]);
    if (!isInside(rootPath, realFile)) {
      throw new AssetNotFoundError(`"${ref.path}" is outside the design folder: keep images inside it or register them as named assets`);
    }
    return readOrNotFound(file, ref.path, root);
  };
}

function isInside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The file's bytes, or an AssetNotFoundError that says where it was looked for: a relative path is
 * from the design's folder (`root`), not from where the command runs, which is the usual surprise.
 */
async function readOrNotFound(file: string, shown: string, root: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
      const where = isAbsolute(shown) ? '' : ` (paths are relative to the design's folder, ${root}: looked for ${file})`;
      throw new AssetNotFoundError(`no image file at "${shown}"${where}: check the path or upload the image`);
    }
    throw e;
  }
}
