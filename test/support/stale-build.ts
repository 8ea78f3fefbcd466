// For tests that run the built package (bin/imprint.js, and the service it starts, run dist/) while the
// rest of the run reads src/: a dist/ older than src/ would test yesterday's code, so such a test refuses
// to start instead (`builtBin`), naming the sources edited since the build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'vitest';

export interface StaleOutput {
  /** The TypeScript source, relative to the package root. */
  source: string;
  /** Its compiled JavaScript, relative to the package root. */
  output: string;
  /** The output is older than the source, or was never built. */
  reason: 'older' | 'missing';
}

/** The bundle (scripts/bundle.mjs) the package's exports and the CLI run, made from dist/ after tsc. */
const BUNDLED_THREAD = 'dist/pkg/render-thread.js';

/**
 * Every src/**\/*.ts (declaration files aside) whose dist/ counterpart is missing or older than it,
 * newest source first; and the newest source again when the bundle in dist/pkg/ is older than it (tsc
 * run without the bundle step). `root` is the package root holding both folders.
 */
export function staleOutputs(root: string): StaleOutput[] {
  const srcDir = join(root, 'src');
  const distDir = join(root, 'dist');
  const found: (StaleOutput & { mtimeMs: number })[] = [];
  let newest = { path: '', mtimeMs: -Infinity };
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const source = statSync(path).mtimeMs;
        if (source > newest.mtimeMs) newest = { path, mtimeMs: source };
        const outPath = join(distDir, relative(srcDir, path)).replace(/\.ts$/, '.js');
        const output = statSync(outPath, { throwIfNoEntry: false })?.mtimeMs;
        if (output === undefined || output < source) {
          found.push({ source: relative(root, path), output: relative(root, outPath), reason: output === undefined ? 'missing' : 'older', mtimeMs: source });
        }
      }
    }
  };
  walk(srcDir);
  const bundled = statSync(join(root, BUNDLED_THREAD), { throwIfNoEntry: false })?.mtimeMs;
  if (found.length === 0 && bundled !== undefined && bundled < newest.mtimeMs) {
    found.push({ source: relative(root, newest.path), output: BUNDLED_THREAD, reason: 'older', mtimeMs: newest.mtimeMs });
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs).map(({ mtimeMs: _m, ...s }) => s);
}

/** A checkout (not an installed package, which ships dist/ without src/): both folders are there. */
function isCheckout(root: string): boolean {
  return existsSync(join(root, 'src')) && existsSync(join(root, 'tsconfig.build.json'));
}

export class StaleBuildError extends Error {
  constructor(readonly stale: StaleOutput[]) {
    const shown = stale
      .slice(0, 3)
      .map((s) => (s.reason === 'missing' ? `${s.source} was never built (no ${s.output})` : `${s.source} is newer than ${s.output}`));
    const more = stale.length > shown.length ? `, and ${stale.length - shown.length} more` : '';
    super(`this test runs the built package, and dist/ is older than src/ (${shown.join('; ')}${more}): run npm run build`);
    this.name = 'StaleBuildError';
  }
}

const checked = new Map<string, StaleBuildError | null>();

/**
 * Throws a StaleBuildError when `root` is a checkout whose dist/ is older than its src/. Checked once
 * per root and process (a walk of src/, some hundred stats), so every pool after the first is free.
 */
export function assertBuildCurrent(root: string): void {
  let result = checked.get(root);
  if (result === undefined) {
    const stale = isCheckout(root) ? staleOutputs(root) : [];
    result = stale.length > 0 ? new StaleBuildError(stale) : null;
    checked.set(root, result);
  }
  if (result) throw result;
}

const ROOT = join(import.meta.dirname, '..', '..');

/** The CLI (bin/imprint.js, which runs dist/pkg/) of this checkout; throws a StaleBuildError when dist/ is older than src/. */
export function builtBin(): string {
  assertBuildCurrent(ROOT);
  return join(ROOT, 'bin', 'imprint.js');
}

/**
 * Whether this run tests the built package too. `npm run test:engine` needs no build: it sets
 * IMPRINT_TEST_BUILT=0, and the cases that run bin/imprint.js (describeBuilt, itBuilt) are skipped.
 */
export const TESTS_BUILT = process.env.IMPRINT_TEST_BUILT !== '0';
export const describeBuilt: ReturnType<typeof describe.skipIf> = describe.skipIf(!TESTS_BUILT);
export const itBuilt: ReturnType<typeof it.skipIf> = it.skipIf(!TESTS_BUILT);
