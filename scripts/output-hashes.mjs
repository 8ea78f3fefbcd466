// node scripts/output-hashes.mjs [out.json]: the sha256 of every output the built engine (dist/) makes
// of the golden cases (png and pdf), the examples (png, jpg, pdf; mp4 for the animated ones) and the
// Polotno corpus (png), as one JSON object. A refactor that must keep the output byte-identical runs it
// before and after and compares the two files (`diff`); CI does not run it (it takes a few minutes).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', p)).href);
const { Engine } = await dist('index.js');
const { fileAssetResolver } = await dist('assets/resolver.js');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const dirs = (p) =>
  readdirSync(p, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

// The shared test cards of the golden cases, as test/support/golden-cases.ts names them.
const GOLDEN = join(ROOT, 'golden');
const A = join(GOLDEN, 'assets');
const NM = join(ROOT, 'node_modules');
const TEST_CARDS = {
  landscape: join(A, 'landscape.png'),
  portrait: join(A, 'portrait.png'),
  photo: join(A, 'photo.jpg'),
  device: join(A, 'device.png'),
  'poster-wall': join(A, 'poster-wall.png'),
  shirt: join(A, 'shirt.png'),
  mask: join(A, 'mask.png'),
  'screen-portrait': join(A, 'screen-portrait.png'),
  glare: join(A, 'glare.png'),
  shade: join(A, 'shade.png'),
  'inter-variable': join(NM, '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'),
  'inter-regular': join(NM, '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'),
  'source-sans-regular-otf': join(NM, 'source-sans/OTF/SourceSans3-Regular.otf'),
  'source-sans-bold-otf': join(NM, 'source-sans/OTF/SourceSans3-Bold.otf'),
  'source-sans-italic-otf': join(NM, 'source-sans/OTF/SourceSans3-It.otf'),
  'source-sans-variable-otf': join(NM, 'source-sans/VF/SourceSans3VF-Upright.otf'),
};

const engine = new Engine({ threads: 0 });
const out = {};
async function hash(name, options) {
  try {
    const r = await engine.render(options);
    out[name] = sha(r.bytes);
  } catch (e) {
    // A refusal is an output too: the same input must be refused the same way.
    out[name] = `error ${e.code ?? ''} ${e.path ?? ''} ${e.message}`;
  }
}

for (const area of dirs(GOLDEN)) {
  if (area === 'assets') continue;
  for (const name of dirs(join(GOLDEN, area))) {
    const dir = join(GOLDEN, area, name);
    if (!existsSync(join(dir, 'design.json'))) continue;
    const o = join(dir, 'overrides.json');
    const input = {
      design: readJson(join(dir, 'design.json')),
      overrides: existsSync(o) ? readJson(o).objects_overrides : {},
      assets: fileAssetResolver({ baseDir: dir, assets: TEST_CARDS }),
    };
    await hash(`golden/${area}/${name}.png`, { ...input, format: 'png', png: { compressionLevel: 9 } });
    await hash(`golden/${area}/${name}.pdf`, { ...input, format: 'pdf' });
  }
}

const EXAMPLES = join(ROOT, 'examples');
for (const name of dirs(EXAMPLES)) {
  const dir = join(EXAMPLES, name);
  const file = ['design.json', 'polotno.json'].find((f) => existsSync(join(dir, f)));
  if (!file) continue;
  const design = readJson(join(dir, file));
  const o = join(dir, 'overrides.json');
  const input = { design, overrides: existsSync(o) ? readJson(o).objects_overrides : {}, assets: fileAssetResolver({ baseDir: dir }) };
  for (const format of ['png', 'jpg', 'pdf']) await hash(`examples/${name}.${format}`, { ...input, format });
  if (design.duration !== undefined || design.slides !== undefined)
    await hash(`examples/${name}.mp4`, { ...input, format: 'mp4', ...(design.slides ? { size: 'sd' } : {}) });
}

const CORPUS = join(ROOT, 'test', 'fixtures', 'polotno-corpus');
if (existsSync(CORPUS)) {
  for (const name of dirs(CORPUS)) {
    const dir = join(CORPUS, name);
    const file = readdirSync(dir).find((f) => f.endsWith('.json') && f !== 'source.json');
    if (file) await hash(`polotno-corpus/${name}.png`, { design: readJson(join(dir, file)), format: 'png', assets: fileAssetResolver({ baseDir: dir }) });
  }
}

await engine.close();
const json = `${JSON.stringify(out, null, 2)}\n`;
if (process.argv[2]) writeFileSync(process.argv[2], json);
else process.stdout.write(json);
console.error(`${Object.keys(out).length} outputs hashed`);
