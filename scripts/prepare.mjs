// `prepare` (npm install, npm ci, and npm's install of this folder as a `file:` dependency, which is what
// `npx imprint` does the first time in a checkout): builds dist/ unless it is already current. A plain
// `npm run build` empties dist/ first, so running it from prepare while a server or a test run uses
// this checkout's dist/ would pull their files away mid-run; a current build is left alone.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const ROOT = join(import.meta.dirname, '..');
/** Written by `npm run build` as its last step: dist/ is complete and as new as this file. */
const STAMP = join(ROOT, 'dist', '.built');
/** What the build reads: a change to any of these makes dist/ out of date. */
const INPUTS = ['src', 'studio', 'scripts/bundle.mjs', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

/** The newest modification time under `path` (a file or a folder), in ms; 0 when it does not exist. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const changed = Math.max(...INPUTS.map((p) => newest(join(ROOT, p))));
if (built > 0 && built >= changed) {
  console.log('prepare: dist/ is current (npm run build rebuilds it anyway)');
} else {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
