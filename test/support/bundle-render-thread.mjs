// node test/support/bundle-render-thread.mjs <dir>: bundles the render thread's entry from the
// TypeScript sources (src/render/render-thread.ts and what it imports) into <dir>/render-thread.js, for
// tests whose render threads must run the same sources as the test (test/support/render-thread.ts).
// Bundled like scripts/bundle.mjs bundles dist/ (zod inlined, every other dependency external), and each
// module keeps its own import.meta.url, so paths such as `../../fonts/` resolve as they do from src/.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'rolldown';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const [out] = process.argv.slice(2);
if (!out) throw new Error('usage: node test/support/bundle-render-thread.mjs <out dir>');

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => d !== 'zod');

/** Replaces import.meta.url (and dirname, filename) in src/ by the module's own, as vitest gives it. */
const sourceImportMeta = {
  name: 'source-import-meta',
  transform(code, id) {
    if (!id.startsWith(SRC) || !code.includes('import.meta.')) return null;
    return code
      .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href))
      .replaceAll('import.meta.dirname', JSON.stringify(dirname(id)))
      .replaceAll('import.meta.filename', JSON.stringify(id));
  },
};

await build({
  input: { 'render-thread': join(SRC, 'render', 'render-thread.ts') },
  platform: 'node',
  // Sources import each other as `./x.js` (NodeNext style): resolve those to the .ts files.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  tsconfig: join(ROOT, 'tsconfig.json'),
  external: (id) => id.startsWith('node:') || external.some((d) => id === d || id.startsWith(`${d}/`)),
  plugins: [sourceImportMeta],
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
});
