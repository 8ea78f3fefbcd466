// Third step of `npm run build`: bundles the Studio (studio/src, Preact + TSX) with rolldown into
// dist/studio/: app.<hash>.js (minified, with its source map), app.<hash>.css, and index.html naming
// them. Content-hashed names let the service cache assets for a year while index.html is revalidated
// every time (src/http/studio.ts). The page has no inline script or style: the service's CSP allows
// only these files. Prints its time; `node studio/build.mjs` alone rebuilds only the Studio.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';

const t0 = performance.now();
const HERE = import.meta.dirname;
const OUT = join(HERE, '..', 'dist', 'studio');
const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 10);

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const out = await build({
  input: join(HERE, 'src', 'main.tsx'),
  platform: 'browser',
  // Sources import each other as `./x.js` (TypeScript's NodeNext style, as the rest of the project):
  // resolve those to the .ts/.tsx files.
  resolve: { extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } },
  transform: { jsx: { runtime: 'automatic', importSource: 'preact' }, target: 'es2022' },
  tsconfig: false,
  logLevel: 'warn',
  write: false,
  output: { format: 'esm', minify: true, sourcemap: true, entryFileNames: 'app.js', codeSplitting: false },
});

const chunk = out.output.find((o) => o.type === 'chunk' && o.isEntry);
if (!chunk) throw new Error('studio/build.mjs: rolldown produced no entry chunk');
const jsName = `app.${hash(chunk.code)}.js`;
const code = chunk.code.replace(/\/\/# sourceMappingURL=\S+\s*$/, '') + `//# sourceMappingURL=${jsName}.map\n`;
writeFileSync(join(OUT, jsName), code);
if (chunk.map) writeFileSync(join(OUT, `${jsName}.map`), chunk.map.toString());

// The page's two faces, both bundled so the Studio looks the same on every machine instead of taking
// whatever the system has (a screenshot test runs with no system fonts and with Debian's DejaVu and
// Liberation, and asks Chromium which fonts drew each text): Inter for the interface and JetBrains
// Mono for code, JSON and the text box. Both variable, SIL Open Font License (beside them as
// <name>-LICENSE.txt), from versioned npm packages (the same Inter the tests measure text with).
// Their per-script files keep their unicode-range, so a page loads only the scripts it shows; names
// are content-hashed like the rest.
const FACES = [
  { pkg: 'inter', family: 'Inter', file: 'inter-latin-wght-normal' },
  { pkg: 'jetbrains-mono', family: 'JetBrains Mono', file: 'jetbrains-mono-latin-wght-normal' },
];
const fontFaces = FACES.map(({ pkg, family, file: latin }) => {
  const dir = join(HERE, '..', 'node_modules', '@fontsource-variable', pkg);
  const css = readFileSync(join(dir, 'wght.css'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(new RegExp(`font-family: '${family} Variable'`, 'g'), `font-family: '${family}'`)
    .replace(/font-display: swap/g, 'font-display: block')
    .replace(/url\(\.\/files\/([\w-]+)\.woff2\)/g, (_, file) => {
      const bytes = readFileSync(join(dir, 'files', `${file}.woff2`));
      const name = `${file}.${hash(bytes)}.woff2`;
      writeFileSync(join(OUT, name), bytes);
      return `url('/studio/${name}')`;
    })
    .trim();
  if (!css.includes(`/studio/${latin}.`) || !css.includes(`font-family: '${family}'`)) {
    throw new Error(`studio/build.mjs: @fontsource-variable/${pkg} no longer has its Latin file or family name`);
  }
  writeFileSync(join(OUT, `${pkg}-LICENSE.txt`), readFileSync(join(dir, 'LICENSE')));
  return css;
}).join('\n');

// The CSS is one hand-written file: comments and indentation dropped, nothing else changed.
const css = `${fontFaces}\n${readFileSync(join(HERE, 'src', 'app.css'), 'utf8')}`
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\n\s*/g, '\n')
  .replace(/\n+/g, '\n')
  .trim();
const cssName = `app.${hash(css)}.css`;
writeFileSync(join(OUT, cssName), `${css}\n`);

const html = readFileSync(join(HERE, 'index.html'), 'utf8')
  .replace(/<!--[\s\S]*?-->\n?/, '')
  // Absolute: the page is served at /studio as well as /studio/, where a relative name would resolve
  // outside the folder (and CSP's base-uri 'none' rules out a <base> element).
  .replace('href="app.css"', `href="/studio/${cssName}"`)
  .replace('src="app.js"', `src="/studio/${jsName}"`);
if (!html.includes(jsName) || !html.includes(cssName)) throw new Error('studio/build.mjs: index.html no longer names app.js and app.css');
writeFileSync(join(OUT, 'index.html'), html);

// Decimal kB, as imprint render prints sizes.
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(
  `studio: dist/studio/${jsName} ${kb(Buffer.byteLength(code))}, ${cssName} ${kb(Buffer.byteLength(css))} in ${Math.round(performance.now() - t0)} ms`,
);
