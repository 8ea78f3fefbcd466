// npm run bench:fonts: what installed Google Fonts families cost. (1) Installing one family — Pacifico
// (1 face) and Lato (10 faces) — from the npm registry (npm pack; npm's cache is warm after the first
// download, as on a machine that installed before) and from a folder of tarballs, runs interleaved,
// each into a fresh folder. (2) The first render of a card-1080 design in a new process with an
// installed family against the same design with the bundled Inter (each case a new node process,
// interleaved). (3) Warm renders of that card in Lato against card-1080 with Inter in one engine,
// alternating blocks (goal: within 5 %). (4) With --top50 only (downloads ~90 MB, about a minute): the font folder's
// size after installing the 50 most used families this machine would install (see TOP50 below).
// Medians, the load average of the same run; entries merged into bench/results/latest.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, bundledFonts, loadShaper } from '../dist/index.js';
import { catalogueFamily } from '../dist/text/catalogue.js';
import { installFont } from '../dist/text/install.js';
import { mergeResults, printTable } from './report.mjs';

const ROOT = join(import.meta.dirname, '..');
const CARD = join(ROOT, 'examples', 'card-1080');
const INSTALL_RUNS = Number(process.env.BENCH_INSTALL_RUNS ?? 5);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const BLOCK = 10;
const WARMUP = 5;
const TOP50 = process.argv.includes('--top50');

const tmp = mkdtempSync(join(tmpdir(), 'imprint-bench-fonts-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (v) => (Math.round(v * 10) / 10).toFixed(1);
let n = 0;
const fresh = (name) => join(tmp, `${name}-${++n}`);
const load = loadavg()[0];

/** Bytes of every file under a folder. */
function folderBytes(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) total += e.isDirectory() ? folderBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return total;
}

/** card-1080 with Inter replaced by `family` (its other family, Lora, stays). */
function card(family) {
  const design = JSON.parse(readFileSync(join(CARD, 'design.json'), 'utf8'));
  if (family === 'Inter') return design;
  design.fonts = design.fonts.map((f) => (f === 'Inter' ? family : f));
  for (const o of design.objects) if (o.font_family === 'Inter') o.font_family = family;
  return design;
}
const overrides = JSON.parse(readFileSync(join(CARD, 'overrides.json'), 'utf8')).objects_overrides;

console.log(`Font install and render bench, node ${process.version}, load ${load.toFixed(2)}`);
const entries = [];

// ── (1) install time ─────────────────────────────────────────────────────────────────────────
const tarballs = join(tmp, 'tarballs');
mkdirSync(tarballs);
for (const family of ['Pacifico', 'Lato']) {
  const slug = catalogueFamily(family).slug;
  execFileSync('npm', ['pack', `@expo-google-fonts/${slug}`, '--pack-destination', tarballs, '--loglevel', 'error'], { stdio: 'ignore' });
  const registry = [];
  const folder = [];
  let installed;
  for (let i = 0; i < INSTALL_RUNS; i++) {
    let t = performance.now();
    installed = await installFont(family, { dir: fresh('registry') });
    registry.push(performance.now() - t);
    t = performance.now();
    await installFont(family, { dir: fresh('folder'), from: tarballs });
    folder.push(performance.now() - t);
  }
  const mb = folderBytes(installed.dir) / 1048576;
  entries.push({
    name: `font install ${family} (${installed.faces.length} faces, ${mb.toFixed(1)} MB)`,
    registry_p50: ms(median(registry)),
    folder_p50: ms(median(folder)),
  });
}
printTable(
  [
    ['install (median of ' + INSTALL_RUNS + ', fresh folder each)', (e) => e.name],
    ['registry ms (npm pack, warm cache)', (e) => e.registry_p50],
    ['tarball folder ms', (e) => e.folder_p50],
  ],
  entries,
);

// One folder with Lato for the renders.
const fontsDir = fresh('fonts');
await installFont('Lato', { dir: fontsDir, from: tarballs });

// ── (2) first render in a new process ───────────────────────────────────────────────────────
// Each process imports the library, makes an Engine on the font folder and renders the card once
// (its faces opened on first use), then once more (warm); it prints both times.
const child = `
import { readFileSync } from 'node:fs';
const [design, fontsDir, baseDir] = [JSON.parse(readFileSync(process.argv[1], 'utf8')), process.argv[2], process.argv[3]];
const t0 = performance.now();
const { Engine } = await import(${JSON.stringify(join(ROOT, 'dist', 'index.js'))});
const engine = new Engine({ fontsDir, threads: 0 });
const t1 = performance.now();
await engine.render({ design, baseDir, format: 'png' });
const t2 = performance.now();
await engine.render({ design, baseDir, format: 'png' });
const t3 = performance.now();
await engine.close();
console.log(JSON.stringify({ import: t1 - t0, first: t2 - t1, second: t3 - t2 }));
`;
const designFiles = {};
for (const family of ['Lato', 'Inter']) {
  designFiles[family] = join(tmp, `card-${family}.json`);
  writeFileSync(designFiles[family], JSON.stringify(card(family)));
}
const cold = { Lato: [], Inter: [] };
for (let i = 0; i < COLD_RUNS; i++) {
  for (const family of ['Lato', 'Inter']) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', child, designFiles[family], fontsDir, CARD], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    cold[family].push(JSON.parse(r.stdout.trim()));
  }
}
const coldEntries = ['Lato', 'Inter'].map((family) => ({
  name: `first render card-1080 png, new process, ${family === 'Lato' ? 'installed Lato' : 'bundled Inter'}`,
  first_p50: ms(median(cold[family].map((x) => x.first))),
  second_p50: ms(median(cold[family].map((x) => x.second))),
  import_p50: ms(median(cold[family].map((x) => x.import))),
}));
coldEntries[0].ratio = (Number(coldEntries[0].first_p50) / Number(coldEntries[1].first_p50)).toFixed(3);
coldEntries[1].ratio = '1.000';
console.log('');
printTable(
  [
    [`first render (median of ${COLD_RUNS} processes, interleaved)`, (e) => e.name],
    ['import ms', (e) => e.import_p50],
    ['first render ms', (e) => e.first_p50],
    ['second render ms', (e) => e.second_p50],
    ['first / Inter', (e) => e.ratio],
  ],
  coldEntries,
);

// ── (3) warm renders ────────────────────────────────────────────────────────────────────────
await loadShaper();
const engine = new Engine({ fontsDir, threads: 0 });
const lato = { design: card('Lato'), overrides, baseDir: CARD, format: 'png' };
const inter = { design: card('Inter'), overrides, baseDir: CARD, format: 'png' };
const fns = [() => engine.render(inter), () => engine.render(lato)];
for (const fn of fns) for (let i = 0; i < WARMUP; i++) await fn();
const xs = fns.map(() => []);
for (let done = 0; done < RUNS; done += BLOCK) {
  for (const [j, fn] of fns.entries()) {
    for (let i = 0; i < BLOCK; i++) {
      const t = performance.now();
      await fn();
      xs[j].push(performance.now() - t);
    }
  }
}
await engine.close();
const [interMs, latoMs] = xs.map(median);
const warm = {
  name: 'card-1080 png warm: installed Lato vs bundled Inter',
  inter_p50: ms(interMs),
  lato_p50: ms(latoMs),
  ratio: (latoMs / interMs).toFixed(3),
};
console.log('');
printTable(
  [
    [`warm render (median of ${RUNS}, alternating blocks of ${BLOCK})`, (e) => e.name],
    ['Inter ms', (e) => e.inter_p50],
    ['Lato ms', (e) => e.lato_p50],
    ['Lato / Inter (goal <= 1.05)', (e) => e.ratio],
  ],
  [warm],
);

// ── (4) the 50 most used families ───────────────────────────────────────────────────────────
// Google Fonts publishes no popularity in its metadata, so the list is: the catalogue families the
// Polotno corpus (test/fixtures/polotno-corpus, real documents) names, most used first, then Google
// Fonts' most popular families (fonts.google.com sorted by "Most popular", 2024) — bundled families
// left out (they are never installed) — until there are 50.
// prettier-ignore
const POPULAR = [
  'Montserrat', 'Poppins', 'Lato', 'Roboto Condensed', 'Oswald', 'Noto Sans', 'Raleway', 'Nunito', 'Rubik', 'Playfair Display',
  'Roboto Mono', 'Ubuntu', 'Nunito Sans', 'Roboto Slab', 'Merriweather', 'Kanit', 'PT Sans', 'Work Sans', 'DM Sans', 'Fira Sans',
  'Mulish', 'Quicksand', 'Barlow', 'Outfit', 'Inconsolata', 'IBM Plex Sans', 'Manrope', 'Titillium Web', 'Mukta', 'Heebo',
  'Karla', 'Noto Serif', 'Libre Baskerville', 'Josefin Sans', 'Bebas Neue', 'PT Serif', 'Source Sans 3', 'Libre Franklin', 'Dosis', 'Cabin',
  'Bitter', 'Abel', 'Archivo', 'Jost', 'Oxygen', 'EB Garamond', 'Barlow Condensed', 'Arimo', 'Teko', 'Cairo',
  'Dancing Script', 'Pacifico', 'Lobster', 'Caveat', 'Comfortaa', 'Space Grotesk', 'Prompt', 'Exo 2', 'Hind', 'Signika',
];
function top50() {
  const fonts = bundledFonts();
  const corpus = join(ROOT, 'test', 'fixtures', 'polotno-corpus');
  const uses = new Map();
  for (const d of readdirSync(corpus, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of readdirSync(join(corpus, d.name)).filter((x) => x.endsWith('.json'))) {
      for (const m of readFileSync(join(corpus, d.name, f), 'utf8').matchAll(/"fontFamily":\s*"([^"]+)"/g)) uses.set(m[1], (uses.get(m[1]) ?? 0) + 1);
    }
  }
  const fromCorpus = [...uses].sort((a, b) => b[1] - a[1]).map(([f]) => f);
  const out = [];
  for (const name of [...fromCorpus, ...POPULAR]) {
    const c = catalogueFamily(name);
    if (!c || fonts.has(c.family) || out.includes(c.family)) continue;
    out.push(c.family);
  }
  return { families: out, fromCorpus };
}

if (TOP50) {
  const { families, fromCorpus } = top50();
  const dir = fresh('top50');
  const t = performance.now();
  const rows = [];
  // A catalogue family without an @expo-google-fonts package (the collection lags Google Fonts)
  // cannot be installed: it is listed and the next family of the list takes its place.
  const failed = [];
  for (const family of families) {
    if (rows.length === 50) break;
    const t0 = performance.now();
    try {
      const r = await installFont(family, { dir });
      rows.push({
        name: family,
        faces: String(r.faces.length),
        mb: (folderBytes(r.dir) / 1048576).toFixed(2),
        s: ((performance.now() - t0) / 1000).toFixed(1),
      });
    } catch (e) {
      failed.push(`${family} (${e.message.slice(0, 120)})`);
    }
  }
  const seconds = (performance.now() - t) / 1000;
  const total = folderBytes(dir) / 1048576;
  const corpusCount = rows.filter((r) => fromCorpus.includes(r.name)).length;
  console.log(
    `\n${rows.length} most used families (${corpusCount} named by the Polotno corpus, ${rows.length - corpusCount} from the popular list), installed from the registry:`,
  );
  printTable(
    [
      ['family', (e) => e.name],
      ['faces', (e) => e.faces],
      ['MB', (e) => e.mb],
      ['install s', (e) => e.s],
    ],
    rows.sort((a, b) => Number(b.mb) - Number(a.mb)),
  );
  console.log(`total: ${total.toFixed(1)} MB in ${rows.reduce((a, r) => a + Number(r.faces), 0)} faces, installed in ${seconds.toFixed(0)} s`);
  if (failed.length) console.log(`not installable (skipped): ${failed.join('; ')}`);
  entries.push({ name: 'font folder: 50 most used families', total_mb: total.toFixed(1), install_s: seconds.toFixed(0), not_installable: failed.length });
}

rmSync(tmp, { recursive: true, force: true });
mergeResults([...entries, ...coldEntries, warm].map((e) => ({ ...e, load: Number(load.toFixed(2)) })));
