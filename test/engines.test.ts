// The Node.js versions package.json promises (`engines.node`) against those of every installed runtime
// dependency: a user on a version we accept must not get an install or a crash that one of them refuses.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const readManifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/**
 * npm's own range semantics (the `semver` package npm itself uses, a devDependency; typed here by
 * hand, as the project has no @types/semver).
 */
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

/** The lowest Node.js version a range admits, e.g. `>=20.9.0` → 20.9.0. */
function lowest(range: string): string {
  const v = semver.minVersion(range);
  if (!v) throw new Error(`engines range ${range} admits no version`);
  return v.version;
}

/** Every installed runtime dependency (dependencies and optional ones, transitively), found as Node.js resolves them. */
function runtimeDependencies(): Manifest[] {
  const found = new Map<string, Manifest>();
  const visit = (name: string, from: string) => {
    for (let dir = from; ; dir = dirname(dir)) {
      const file = join(dir, 'node_modules', name, 'package.json');
      if (existsSync(file)) {
        if (found.has(file)) return;
        const m = readManifest(file);
        found.set(file, m);
        for (const dep of Object.keys({ ...m.dependencies, ...m.optionalDependencies })) visit(dep, dirname(file));
        return;
      }
      if (dirname(dir) === dir) return; // an optional dependency for another platform is not installed
    }
  };
  const pkg = readManifest(join(ROOT, 'package.json'));
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, ROOT);
  return [...found.values()];
}

describe('engines.node', () => {
  const ours = readManifest(join(ROOT, 'package.json')).engines?.node;

  it('tells a range that admits Node 20.0-20.4 from one that does not, as npm does (execa: ^18.19.0 || >=20.5.0)', () => {
    expect(semver.satisfies(lowest('>=20'), '^18.19.0 || >=20.5.0')).toBe(false);
    expect(semver.satisfies(lowest('>=20.9.0'), '^18.19.0 || >=20.5.0')).toBe(true);
    expect(semver.satisfies(lowest('>=20.9.0'), '>=20.9.0')).toBe(true);
    expect(semver.satisfies(lowest('>=20.5.0'), '>=20.9.0')).toBe(false);
  });

  it('is at least as strict as the engines.node of every installed runtime dependency', () => {
    expect(ours).toBeDefined();
    const deps = runtimeDependencies();
    expect(deps.length).toBeGreaterThan(100);
    // The oldest Node.js we accept must be one every dependency accepts.
    const oldest = lowest(ours!);
    const refusing = deps
      .filter((d) => d.engines?.node !== undefined && !semver.satisfies(oldest, d.engines.node))
      .map((d) => `${d.name}@${d.version} needs node ${d.engines!.node}`);
    expect(refusing, `package.json declares node ${ours}, so Node ${oldest}`).toEqual([]);
  });

  it('is the version the README gives', () => {
    const [major, minor] = lowest(ours!).split('.');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`Node ≥ ${major}.${minor} `);
  });
});
