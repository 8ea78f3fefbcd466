// npm run fonts:catalogue: writes fonts/catalogue.json, the catalogue of the whole Google Fonts collection
// (families, weights, styles, subsets, variable axes, licence), from the pinned google-font-metadata package.
// `--check` regenerates into memory and exits 1 if the committed file differs (the output is deterministic).
//
// The package is fetched with `npm pack` and its data read from the tarball rather than installed, because
// installing it pulls in playwright (~94 MB) that only its own scraper uses.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The metadata release the catalogue is built from; bump it and rerun to follow Google Fonts. */
const SOURCE = 'google-font-metadata@6.0.8';
const OUT = fileURLToPath(new URL('../fonts/catalogue.json', import.meta.url));
/** The data files read from the tarball; the large v2 file (per-subset URLs, ~41 MB) is not needed. */
const DATA = ['google-fonts-v1.json', 'variable.json', 'licenses.json'];

/** The package's data files, parsed, from a tarball unpacked in a temporary folder that is removed after. */
function readSourceData() {
  const dir = mkdtempSync(join(tmpdir(), 'imprint-font-catalogue-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', SOURCE, '--json', '--pack-destination', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
    );
    const tarball = join(dir, packed[0].filename);
    execFileSync('tar', ['-xzf', tarball, '-C', dir, ...DATA.map((f) => `package/data/${f}`)], { stdio: 'inherit' });
    const read = (f) => JSON.parse(readFileSync(join(dir, 'package', 'data', f), 'utf8'));
    return { fonts: read(DATA[0]), variable: read(DATA[1]), licences: read(DATA[2]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Plain code-point order, so the output does not depend on the machine's locale. */
const byString = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Normal before italic: the order a reader expects, whatever order the source lists them in. */
const STYLE_ORDER = ['normal', 'italic'];

/** One catalogue entry: only the fields a choice of family needs (no unicode ranges or URLs, which are most of the source). */
function entry(font, variable, licence) {
  const out = {
    family: font.family,
    slug: font.family.toLowerCase().replace(/ /g, '-'),
    category: font.category,
    weights: [...font.weights].sort((a, b) => a - b),
    styles: [...font.styles].sort((a, b) => STYLE_ORDER.indexOf(a) - STYLE_ORDER.indexOf(b)),
    subsets: [...font.subsets].sort(byString),
  };
  if (variable) {
    // The source gives numbers as strings; tags sorted so the order does not follow the source's key order.
    out.axes = Object.keys(variable.axes)
      .sort(byString)
      .map((tag) => {
        const a = variable.axes[tag];
        return { tag, min: Number(a.min), max: Number(a.max), default: Number(a.default) };
      });
  }
  out.licence = licence?.license ? { type: licence.license.type, url: licence.license.url } : null;
  out.version = font.version;
  return out;
}

/** The catalogue's text: one family a line, so a metadata bump shows as a readable diff. */
function catalogueText({ fonts, variable, licences }) {
  const families = Object.values(fonts)
    .sort((a, b) => byString(a.family, b.family))
    .map((font) => entry(font, variable[font.id], licences[font.id]));
  const lines = families.map((f) => `    ${JSON.stringify(f)}`);
  return `{\n  "source": ${JSON.stringify(SOURCE)},\n  "families": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

const started = performance.now();
const text = catalogueText(readSourceData());
const families = text.split('\n').filter((l) => l.startsWith('    {')).length;
const seconds = ((performance.now() - started) / 1000).toFixed(1);

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(OUT, 'utf8');
  } catch {
    // A missing file is a difference like any other.
  }
  if (committed !== text) {
    console.error(`fonts/catalogue.json differs from a fresh generation from ${SOURCE}: run npm run fonts:catalogue`);
    process.exit(1);
  }
  console.log(`fonts/catalogue.json matches ${SOURCE}: ${families} families, ${Buffer.byteLength(text)} bytes (${seconds} s)`);
} else {
  writeFileSync(OUT, text);
  console.log(`wrote fonts/catalogue.json from ${SOURCE}: ${families} families, ${Buffer.byteLength(text)} bytes (${seconds} s)`);
}
