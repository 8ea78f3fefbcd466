// Reads the files out of an npm package tarball (a gzipped ustar archive, as `npm pack` writes it) in
// memory, for the font installer: only regular files, names as the archive gives them (POSIX ustar
// prefix and pax `path` records included). The caller picks which names to keep and where they go.
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

// Off the event loop: a server installing a family keeps answering while the package unpacks.
const gunzipAsync = promisify(gunzip);

/** A file of the archive. */
export interface TarFile {
  name: string;
  bytes: Buffer;
}

/** Why a tarball could not be read: not gzip, truncated, or a header that does not add up. */
export class TarballError extends Error {}

const BLOCK = 512;

function text(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

function octal(block: Buffer, start: number, length: number): number {
  const s = text(block, start, length).trim();
  if (!/^[0-7]*$/.test(s)) throw new TarballError(`a tar header has a size that is not octal (${JSON.stringify(s.slice(0, 20))})`);
  return s === '' ? 0 : parseInt(s, 8);
}

/** A header's checksum: the bytes summed with the checksum field itself counted as spaces. */
function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  return sum === octal(block, 148, 8);
}

/** pax extended header records ("<len> key=value\n"): only `path` matters here. */
function paxPath(data: Buffer): string | undefined {
  let at = 0;
  let path: string | undefined;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const len = Number(data.subarray(at, space).toString('ascii'));
    if (!Number.isInteger(len) || len <= 0) break;
    const record = data.subarray(space + 1, at + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0 && record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    at += len;
  }
  return path;
}

/**
 * The regular files of a gzipped tarball whose (normalised) name `keep` accepts. `maxBytes` bounds the
 * unpacked archive, so a hostile package cannot exhaust memory.
 */
export async function readTarball(gz: Uint8Array, keep: (name: string) => boolean, maxBytes: number): Promise<TarFile[]> {
  let tar: Buffer;
  try {
    tar = await gunzipAsync(gz, { maxOutputLength: maxBytes });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger/i.test(String(e)))
      throw new TarballError(`the package unpacks to more than ${Math.round(maxBytes / 1048576)} MB`);
    throw new TarballError(`the package is not a gzip archive (${(e as Error).message})`);
  }
  const out: TarFile[] = [];
  let at = 0;
  let longName: string | undefined;
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    // Two zero blocks end the archive; one is enough to stop reading.
    if (header.every((b) => b === 0)) break;
    if (!checksumOk(header)) throw new TarballError(`a tar header at byte ${at} has a wrong checksum: the package is corrupt`);
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 48);
    const dataStart = at + BLOCK;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) throw new TarballError('the package ends inside a file: it is truncated');
    const data = tar.subarray(dataStart, dataEnd);
    at = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = paxPath(data);
      continue;
    }
    if (type === 'g') continue;
    if (type === 'L') {
      longName = text(data, 0, data.length);
      continue;
    }
    const prefix = text(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    longName = undefined;
    if (type !== '0' && type !== '7') continue;
    const clean = name.replace(/^\.\//, '');
    if (keep(clean)) out.push({ name: clean, bytes: Buffer.from(data) });
  }
  return out;
}
