// Second half of `npm run build`: bundles tsc's dist/ into dist/pkg/, the code the package's exports,
// the CLI and the render threads run. Why: Node loads ES modules file by file, and resolving, reading
// and linking ~190 of ours plus zod's ~240 cost more start-up time than evaluating them (a cold
// `import('imprint')` took ~340 ms, bundled ~215 ms; bench/cold.mjs measures it). One chunk per
// entry plus shared chunks keeps one copy of each module across entries, so `instanceof` on errors
// holds between `imprint` and `imprint/service`; the mp4 path stays a separate chunk loaded on first
// use (the pdf path is part of `imprint`, which exports encodePdf; pdfkit loads on the first pdf).
// zod is inlined (it is pure JavaScript); every other dependency stays external, because it is native
// (canvas, sharp, better-sqlite3), WebAssembly (harfbuzzjs), reads files beside itself (pdfkit,
// linebreak) or is only loaded by the service. dist/pkg/ sits two folders deep like every
// tsc output, so paths such as `../../fonts/` resolve the same from both.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';

const ROOT = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const INLINED = new Set(['zod']);
const external = Object.keys(pkg.dependencies).filter((d) => !INLINED.has(d));

await build({
  input: {
    index: join(ROOT, 'dist/index.js'),
    service: join(ROOT, 'dist/service/index.js'),
    http: join(ROOT, 'dist/http/index.js'),
    cli: join(ROOT, 'dist/cli/main.js'),
    // render/pool.ts starts its threads from './render-thread.js' beside itself.
    'render-thread': join(ROOT, 'dist/render/render-thread.js'),
  },
  platform: 'node',
  external: (id) => id.startsWith('node:') || external.some((d) => id === d || id.startsWith(`${d}/`)),
  logLevel: 'warn',
  output: { dir: join(ROOT, 'dist/pkg'), format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', sourcemap: true },
});
