// `prepare` (scripts/prepare.mjs) builds dist/ only when it is missing or older than what the build
// reads: npm runs prepare again when `npx imprint` first installs this checkout into npx's cache, and
// a rebuild empties dist/ under a running server or test run. Checked in a throwaway copy whose
// `build` script only records that it ran, so this test never touches the real dist/.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/golden-compare.js';

const root = mkdtempSync(join(tmpdir(), 'imprint-prepare-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BUILDS = join(root, 'builds.log');
mkdirSync(join(root, 'scripts'));
cpSync(join(REPO_ROOT, 'scripts', 'prepare.mjs'), join(root, 'scripts', 'prepare.mjs'));
mkdirSync(join(root, 'src'));
writeFileSync(join(root, 'src', 'index.ts'), 'export {};\n');
// The build of the copy: records that it ran and stamps dist/ as the real one does.
writeFileSync(
  join(root, 'scripts', 'build.mjs'),
  `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(BUILDS)}, 'built\\n');\nmkdirSync('dist', { recursive: true });\nwriteFileSync('dist/.built', '');\n`,
);
writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'prepare-check', private: true, scripts: { build: 'node scripts/build.mjs' } }));
const prepare = () => execFileSync(process.execPath, [join(root, 'scripts', 'prepare.mjs')], { cwd: root, encoding: 'utf8' });
const builds = () => (existsSync(BUILDS) ? readFileSync(BUILDS, 'utf8').split('\n').filter(Boolean).length : 0);

describe('prepare', () => {
  it('builds a checkout without dist/, then leaves a current dist/ alone', () => {
    prepare();
    expect(builds()).toBe(1);
    expect(prepare()).toMatch(/dist\/ is current/);
    expect(builds()).toBe(1);
  });

  it('builds again once a source is newer than the last build', () => {
    // The last build a minute before the source's latest change.
    const earlier = new Date(Date.now() - 60_000);
    const sourceAt = new Date(Date.now() - 30_000);
    utimesSync(join(root, 'dist', '.built'), earlier, earlier);
    utimesSync(join(root, 'src', 'index.ts'), sourceAt, sourceAt);
    utimesSync(join(root, 'src'), sourceAt, sourceAt);
    prepare();
    expect(builds()).toBe(2);
    expect(prepare()).toMatch(/dist\/ is current/);
  });

  it('is what npm runs as prepare, and the real build stamps dist/ as its last step', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepare).toBe('node scripts/prepare.mjs');
    expect(pkg.scripts.build).toMatch(/writeFileSync\('dist\/\.built', ''\)\\?"?$/);
  });
});
