// Real command-line tools from Debian packages (poppler-utils, qpdf, ghostscript, chromium) that check our output better
// than our own code could. Missing on a developer machine → the tests that need them skip with a
// message; in CI (CI=true, where .ci/run installs them) a missing tool fails instead.
import { execFileSync, spawnSync } from 'node:child_process';

export function hasTool(name: string): boolean {
  return spawnSync('which', [name], { encoding: 'utf8' }).status === 0;
}

/**
 * True when every tool is there; otherwise warns (or throws in CI) and returns false. Comparisons with
 * Chromium are switched off by IMPRINT_TEST_CHROMIUM=0 (`npm run test:engine`): skipped, also in CI.
 */
export function toolsAvailable(names: readonly string[], why: string): boolean {
  if (names.includes('chromium') && process.env.IMPRINT_TEST_CHROMIUM === '0') {
    console.warn(`skipping: ${why}: Chromium comparisons are off (IMPRINT_TEST_CHROMIUM=0)`);
    return false;
  }
  const missing = names.filter((n) => !hasTool(n));
  if (missing.length === 0) return true;
  const message = `${why}: ${missing.join(', ')} not found (Debian: apt-get install poppler-utils qpdf ghostscript chromium)`;
  if (process.env.CI) throw new Error(`${message}; CI must install them`);
  console.warn(`skipping: ${message}`);
  return false;
}

export function run(tool: string, args: readonly string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
