// The Node.js versions package.json promises (`engines.node`) against those of every installed runtime
// dependency: a user on a version we accept must not get an install or a crash that one of them refuses.
import { existsSync, readFileSync } from 'node:fs';
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

type Version = [number, number, number];
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const version = (v: string): Version => {
  const [major = 0, minor = 0, patch = 0] = v
    .replace(/^v/, '')
    .split('.')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : 0));
  return [major, minor, patch];
};

/**
 * The lowest Node.js version a semver range admits (enough of the grammar for `engines` fields:
 * `>=`, `>`, `^`, `~`, `=`, x-ranges, hyphen ranges, `*` and `||`). Upper bounds do not matter here.
 */
function lowerBound(range: string): Version {
  const alternatives = range.split('||').map((set) => {
    const hyphen = /^\s*v?([\d.xX*]+)\s+-\s+/.exec(set);
    if (hyphen) return version(hyphen[1]!);
    let low: Version = [0, 0, 0];
    for (const comparator of set
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+/)) {
      const m = /^(>=|>|\^|~|=)?v?([\d.xX*]+)$/.exec(comparator);
      if (!m) continue; // `<…` and `<=…` only bound from above
      const v = version(m[2]!);
      // `>20.0.0` admits 20.0.1 first; `>20` (20.x excluded) admits 21.0.0.
      const bound: Version = m[1] === '>' ? (m[2]!.split('.').length < 3 ? [v[0] + 1, 0, 0] : [v[0], v[1], v[2] + 1]) : v;
      if (compare(bound, low) > 0) low = bound;
    }
    return low;
  });
  return alternatives.reduce((a, b) => (compare(a, b) <= 0 ? a : b));
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

  it('reads the lower bound of the ranges dependencies use', () => {
    expect(lowerBound('>=20.9.0')).toEqual([20, 9, 0]);
    expect(lowerBound('^18.19.0 || >=20.5.0')).toEqual([18, 19, 0]);
    expect(lowerBound('20.x || 22.x || 23.x')).toEqual([20, 0, 0]);
    expect(lowerBound('>= 0.4')).toEqual([0, 4, 0]);
    expect(lowerBound('>=12.22.0 <24')).toEqual([12, 22, 0]);
    expect(lowerBound('*')).toEqual([0, 0, 0]);
  });

  it('is at least as strict as the engines.node of every installed runtime dependency', () => {
    expect(ours).toBeDefined();
    const deps = runtimeDependencies();
    expect(deps.length).toBeGreaterThan(100);
    const looser = deps
      .filter((d) => d.engines?.node !== undefined && compare(lowerBound(ours!), lowerBound(d.engines.node)) < 0)
      .map((d) => `${d.name}@${d.version} needs node ${d.engines!.node}`);
    expect(looser, `package.json declares node ${ours}`).toEqual([]);
  });

  it('is the version the README gives', () => {
    const [major, minor] = lowerBound(ours!);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`Node ≥ ${major}.${minor} `);
  });
});
