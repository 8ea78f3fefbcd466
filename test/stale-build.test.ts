// A test that runs the built package (the CLI, a service it starts) refuses a dist/ older than src/ in
// a checkout, where the rest of the run reads src/: checked on a temporary package root whose file
// times are set with utimes.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertBuildCurrent, StaleBuildError, staleOutputs } from './support/stale-build.js';

const T0 = new Date('2026-01-01T12:00:00Z');
const later = (s: number) => new Date(T0.getTime() + s * 1000);

let root: string;

function file(path: string, at: Date): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, at, at);
}

/** A checkout built at T0 + 10 s from sources written at T0. */
function builtCheckout(): void {
  file('tsconfig.build.json', T0);
  for (const f of ['index', 'render/pool', 'render/render-thread']) {
    file(`src/${f}.ts`, T0);
    file(`dist/${f}.js`, later(10));
  }
  file('src/types/linebreak.d.ts', later(60)); // declarations have no output of their own
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'imprint-stale-build-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('stale dist/ check', () => {
  it('accepts a dist/ built after every source', () => {
    builtCheckout();
    expect(staleOutputs(root)).toEqual([]);
    expect(() => assertBuildCurrent(root)).not.toThrow();
  });

  it('refuses a source edited after the build, naming it and the way out', () => {
    builtCheckout();
    file('src/render/render-thread.ts', later(20));
    expect(staleOutputs(root)).toEqual([{ source: 'src/render/render-thread.ts', output: 'dist/render/render-thread.js', reason: 'older' }]);
    const err = (() => {
      try {
        assertBuildCurrent(root);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(StaleBuildError);
    expect((err as Error).message).toBe(
      'this test runs the built package, and dist/ is older than src/ (src/render/render-thread.ts is newer than dist/render/render-thread.js): run npm run build',
    );
  });

  it('refuses a source that was never built, and lists the newest first', () => {
    builtCheckout();
    file('src/index.ts', later(30));
    file('src/new-module.ts', later(40));
    for (const f of ['a', 'b', 'c']) file(`src/more/${f}.ts`, later(15));
    const stale = staleOutputs(root);
    expect(stale.slice(0, 2)).toEqual([
      { source: 'src/new-module.ts', output: 'dist/new-module.js', reason: 'missing' },
      { source: 'src/index.ts', output: 'dist/index.js', reason: 'older' },
    ]);
    expect(() => assertBuildCurrent(root)).toThrow(
      /src\/new-module\.ts was never built \(no dist\/new-module\.js\); src\/index\.ts is newer than dist\/index\.js; .*, and 2 more\): run npm run build$/,
    );
  });

  it('refuses a bundle in dist/pkg/ older than the sources (tsc run without the bundle step)', () => {
    builtCheckout();
    file('dist/pkg/render-thread.js', later(12));
    expect(staleOutputs(root)).toEqual([]);
    file('src/index.ts', later(20));
    file('dist/index.js', later(30)); // tsc again, the bundle not
    expect(staleOutputs(root)).toEqual([{ source: 'src/index.ts', output: 'dist/pkg/render-thread.js', reason: 'older' }]);
    expect(() => assertBuildCurrent(root)).toThrow('(src/index.ts is newer than dist/pkg/render-thread.js): run npm run build');
  });

  it('checks a root once per process', () => {
    builtCheckout();
    expect(() => assertBuildCurrent(root)).not.toThrow();
    file('src/index.ts', later(30)); // edited after the first pool started: that pool keeps its threads
    expect(() => assertBuildCurrent(root)).not.toThrow();
    expect(staleOutputs(root)).toHaveLength(1);
  });

  it('does not apply to an installed package (dist/ without src/)', () => {
    file('dist/render/render-thread.js', T0);
    file('src/render/render-thread.ts', later(5)); // a stray src/ without the build config is not a checkout
    expect(() => assertBuildCurrent(root)).not.toThrow();
  });
});
