// `npm run test:engine`: the engine's tests alone, for a quick loop on rendering changes (under 2 minutes
// on the 2-core machine). A test file is the engine's when every src/ module it imports, itself or
// through test/support/, is an engine module (the stages up to src/index.ts in test/import-graph.test.ts)
// and it needs none of the service's servers (test/support/services.ts), a shell session of the built
// CLI (docs-shell.ts) or a browser (test/support/studio.ts). Inside engine tests, the cases that run
// the built CLI are skipped, so no build is needed (IMPRINT_TEST_BUILT=0, test/support/stale-build.ts),
// and so are the comparisons with Chromium (IMPRINT_TEST_CHROMIUM=0, test/support/tools.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const TEST = join(import.meta.dirname, 'test');
const ENGINE_MODULE =
  /^(?:\.\.\/)+src\/(?:(?:scene|format|text|svg|objects|design|resolve|assets|layout|paint|encode|render)\/.*|errors|lazy-require|render-checks|engine|index)\.js$/;
const NOT_ENGINE_SUPPORT = /\/support\/(?:services|docs-shell|studio)\.js$/;

/** The modules a file imports: `import … from`, `export … from` and `import('…')`. */
const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?from '([^']+)'|\bimport\('([^']+)'\)/gms)].map((m) => (m[1] ?? m[2])!);

/** The src/ modules a test imports, itself and through the test/support/ modules it imports; undefined when it needs what is not the engine. */
function srcImports(file: string): string[] | undefined {
  const out: string[] = [];
  for (const spec of importsOf(file)) {
    if (NOT_ENGINE_SUPPORT.test(spec)) return undefined;
    if (spec.includes('/src/')) out.push(spec);
    else if (spec.startsWith('./support/')) {
      const nested = srcImports(join(TEST, spec.slice(2).replace(/\.js$/, '.ts')));
      if (!nested) return undefined;
      out.push(...nested);
    }
  }
  return out;
}

export const ENGINE_TESTS = readdirSync(TEST)
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => {
    const src = srcImports(join(TEST, f));
    return src !== undefined && src.length > 0 && src.every((s) => ENGINE_MODULE.test(s));
  })
  .map((f) => `test/${f}`);

export default defineConfig({
  test: {
    ...base.test,
    include: ENGINE_TESTS,
    env: { ...base.test?.env, IMPRINT_TEST_BUILT: '0', IMPRINT_TEST_CHROMIUM: '0' },
  },
});
