// Blob store in a local folder (the embedded default). Writes go to a temporary file that is renamed
// into place, so a reader never sees half a file; the content type is kept in a sidecar file.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { checkBlobKey, type BlobInfo, type BlobStore } from './blob-store.js';

const TYPE_SUFFIX = '.content-type';

// A key that is also the folder of other keys reads as missing, as on S3 where `a` and `a/b` differ.
const missing = (e: unknown): boolean => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((e as NodeJS.ErrnoException).code ?? '');

export class FolderBlobStore implements BlobStore {
  readonly kind = 'folder';
  readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  get describe(): string {
    return this.root;
  }

  private path(key: string): string {
    checkBlobKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, bytes);
    await writeFile(file + TYPE_SUFFIX, contentType);
    await rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(key));
    } catch (e) {
      if (missing(e)) return undefined;
      throw e;
    }
  }

  async stream(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.path(key);
    try {
      const s = await stat(file);
      return s.isFile() ? { stream: createReadStream(file), size: s.size } : undefined;
    } catch (e) {
      if (missing(e)) return undefined;
      throw e;
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const file = this.path(key);
    try {
      const [s, type] = await Promise.all([stat(file), readFile(file + TYPE_SUFFIX, 'utf8').catch(() => 'application/octet-stream')]);
      return s.isFile() ? { size: s.size, contentType: type } : undefined;
    } catch (e) {
      if (missing(e)) return undefined;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.path(key);
    await Promise.all([rm(file, { force: true }), rm(file + TYPE_SUFFIX, { force: true })]);
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      for (const e of entries) {
        const full = join(dir, e.name);
        if (e.isDirectory()) await walk(full);
        else if (!e.name.endsWith(TYPE_SUFFIX) && !e.name.endsWith('.tmp')) out.push(relative(this.root, full).split(sep).join('/'));
      }
    };
    await walk(this.root);
    return out.filter((k) => k.startsWith(prefix)).sort();
  }

  async close(): Promise<void> {}
}
