// Render threads run compiled JavaScript from dist/, also when the rest of the code runs from src/
// (under vitest). In a checkout, where src/ sits beside dist/, a dist/ older than src/ would render
// with yesterday's code while the tests read today's: the pool refuses to start instead.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface StaleOutput {
  /** The TypeScript source, relative to the package root. */
  source: string;
  /** Its compiled JavaScript, relative to the package root. */
  output: string;
  /** The output is older than the source, or was never built. */
  reason: 'older' | 'missing';
}

/**
 * Every src/**\/*.ts (declaration files aside) whose dist/ counterpart is missing or older than it,
 * newest source first. `root` is the package root holding both folders.
 */
export function staleOutputs(root: string): StaleOutput[] {
  const srcDir = join(root, 'src');
  const distDir = join(root, 'dist');
  const found: (StaleOutput & { mtimeMs: number })[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const source = statSync(path).mtimeMs;
        const outPath = join(distDir, relative(srcDir, path)).replace(/\.ts$/, '.js');
        const output = statSync(outPath, { throwIfNoEntry: false })?.mtimeMs;
        if (output === undefined || output < source) {
          found.push({ source: relative(root, path), output: relative(root, outPath), reason: output === undefined ? 'missing' : 'older', mtimeMs: source });
        }
      }
    }
  };
  walk(srcDir);
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs).map(({ mtimeMs: _m, ...s }) => s);
}

/** A checkout (not an installed package, which ships dist/ without src/): both folders are there. */
export function isCheckout(root: string): boolean {
  return existsSync(join(root, 'src')) && existsSync(join(root, 'tsconfig.build.json'));
}

export class StaleBuildError extends Error {
  constructor(readonly stale: StaleOutput[]) {
    const shown = stale
      .slice(0, 3)
      .map((s) => (s.reason === 'missing' ? `${s.source} was never built (no ${s.output})` : `${s.source} is newer than ${s.output}`));
    const more = stale.length > shown.length ? `, and ${stale.length - shown.length} more` : '';
    super(`the render threads would run stale code: dist/ is older than src/ (${shown.join('; ')}${more}): run npm run build`);
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
