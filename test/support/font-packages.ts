// What the font-install tests share: one `npm pack` of a font package into a tarball folder (installs
// from that folder need no network), and the error a refused install rejects with.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** A package's tarball, packed by npm into `dir`, with the version and integrity the registry gave. */
export function packTarball(pkg: string, dir: string): { file: string; version: string; integrity: string } {
  const out = execFileSync('npm', ['pack', pkg, '--json', '--pack-destination', dir, '--loglevel', 'error'], { encoding: 'utf8', timeout: 120_000 });
  const [packed] = JSON.parse(out) as { filename: string; version: string; integrity: string }[];
  if (!packed) throw new Error(`npm pack ${pkg} printed no package`);
  return { file: join(dir, packed.filename), version: packed.version, integrity: packed.integrity };
}

/** What `fn` rejects with. */
export async function refusal(fn: () => Promise<unknown>): Promise<{ code: string; path: string; message: string }> {
  try {
    await fn();
  } catch (e) {
    return e as { code: string; path: string; message: string };
  }
  throw new Error('expected a refusal');
}
