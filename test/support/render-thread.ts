// vitest setup: render threads run the sources the test runs. A worker thread cannot load TypeScript, so
// when a test first starts a render pool (an Engine's threads, the service worker's slots), the thread's
// entry and what it imports are bundled from src/ (bundle-render-thread.mjs) into
// test-output/render-thread/<hash of the sources>/; later pools, and later runs on the same sources,
// reuse it. An edited file changes the hash: the next test renders with the edit, no build needed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setSourceThreadEntry } from '../../src/render/pool.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BUNDLER = join(import.meta.dirname, 'bundle-render-thread.mjs');
const OUT = join(ROOT, 'test-output', 'render-thread');
/** Bundles of other sources are removed once this old: a run on those sources may still be using them. */
const KEEP_MS = 60 * 60 * 1000;

/** Everything the bundle is made from: src/, the bundler, and the packages it inlines (the lock file). */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const add = (file: string): void => {
    hash.update(`${file}\u0000`).update(readFileSync(file)).update('\u0000');
  };
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else add(join(dir, e.name));
    }
  };
  walk(join(ROOT, 'src'));
  for (const f of [BUNDLER, join(ROOT, 'package.json'), join(ROOT, 'package-lock.json'), join(ROOT, 'tsconfig.json')]) add(f);
  return hash.digest('hex').slice(0, 16);
}

let built: URL | undefined;

/** The thread module bundled from the current sources, built on first use in this process. */
export function renderThreadBundle(): URL {
  if (built) return built;
  const dir = join(OUT, sourcesHash());
  const entry = join(dir, 'render-thread.js');
  if (!existsSync(entry)) {
    // Built beside and renamed into place, so a test file in another worker never sees half a bundle.
    const partial = `${dir}.partial-${process.pid}`;
    mkdirSync(OUT, { recursive: true });
    execFileSync(process.execPath, [BUNDLER, partial], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      renameSync(partial, dir);
    } catch (e) {
      // Another worker finished the same bundle first: theirs is used.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(entry)) throw e;
    }
    for (const old of readdirSync(OUT)) {
      const path = join(OUT, old);
      if (path !== dir && Date.now() - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { recursive: true, force: true });
    }
  }
  built = pathToFileURL(entry);
  return built;
}

setSourceThreadEntry(renderThreadBundle);
