// Corpus run (npm run corpus:polotno): renders every real Polotno document of test/fixtures/polotno-corpus
// with Imprint as saved, draws each page with the independent Chromium reference (polotno-reference.mjs)
// and with Imprint again, compares the two, and writes test-output/polotno-corpus/report.md with
// three-panel diffs (reference | differing pixels | Imprint). Needs the network for the font packages.
//
//   node scripts/polotno-corpus.mjs [--only <name>] [--fonts-dir <dir>] [--threshold <0-255>]
//
// Fonts: each family a document names is taken from the npm package @expo-google-fonts/<slug> (npm pack,
// cached in test-output/polotno-corpus-fonts/), given to Chromium by @font-face and to Imprint as
// `fontFiles` — or, with --fonts-dir, left to Imprint's font-by-name installer through IMPRINT_FONTS_DIR.
// Remote images are never fetched: the comparison swaps each for one local placeholder picture (the same
// file for both renderers), so crops and placement are still compared; the as-saved render keeps them.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { pageSize, polotnoPageHtml, screenshotHtml } from './polotno-reference.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, 'test', 'fixtures', 'polotno-corpus');
const OUT = join(ROOT, 'test-output', 'polotno-corpus');
const FONT_CACHE = join(ROOT, 'test-output', 'polotno-corpus-fonts');
const MATCH_RATIO = 0.02;
/** Imprint takes at most this many font files with one render. */
const MAX_FONT_FILES = 16;

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    'fonts-dir': { type: 'string' },
    threshold: { type: 'string', default: '32' },
  },
});
/** A pixel differs when one of its channels differs by more than this (of 255): anti-aliasing of two rasterisers stays below it. */
const THRESHOLD = Number(args.threshold);
if (args['fonts-dir']) process.env.IMPRINT_FONTS_DIR = resolve(args['fonts-dir']);
const { render } = await import('../dist/index.js');

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, 'work'), { recursive: true });
mkdirSync(FONT_CACHE, { recursive: true });

// ---------- fonts ----------

const slug = (family) => family.trim().toLowerCase().replace(/\s+/g, '-');
const fontPackages = new Map();

/** The faces of a family from its @expo-google-fonts package: [{family, weight, style, path}], or an error string. */
function familyFaces(family) {
  const s = slug(family);
  if (fontPackages.has(s)) return fontPackages.get(s);
  const dir = join(FONT_CACHE, s);
  let result;
  try {
    if (!existsSync(join(dir, 'package'))) {
      mkdirSync(dir, { recursive: true });
      const out = execFileSync('npm', ['pack', `@expo-google-fonts/${s}`, '--pack-destination', dir, '--silent'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      execFileSync('tar', ['-xzf', join(dir, out.trim().split('\n').pop()), '-C', dir]);
    }
    const faces = [];
    const walk = (d) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.ttf$/i.test(n)) {
          const m = /_(\d{3})[A-Za-z]*?(_Italic)?\.ttf$/i.exec(n);
          if (m) faces.push({ family, weight: Number(m[1]), style: m[2] ? 'italic' : 'normal', path: p });
        }
      }
    };
    walk(join(dir, 'package'));
    result = faces.length ? faces : `@expo-google-fonts/${s} has no TTF files`;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    result = `no npm package @expo-google-fonts/${s}`;
  }
  fontPackages.set(s, result);
  return result;
}

/** Families and the (weight, style) pairs a document's text asks for. */
function fontUses(doc) {
  const uses = new Map();
  const add = (family, weight, style) => {
    if (!family) return;
    if (!uses.has(family)) uses.set(family, new Set());
    uses.get(family).add(`${weight}/${style}`);
  };
  const weightOf = (v) => (v === 'bold' ? 700 : Number(v) || 400);
  const walk = (els) => {
    for (const el of els ?? []) {
      if (el.type === 'group') walk(el.children);
      if (el.type !== 'text') continue;
      const family = typeof el.fontFamily === 'string' ? el.fontFamily : 'Roboto';
      const w = weightOf(el.fontWeight);
      const st = el.fontStyle === 'italic' ? 'italic' : 'normal';
      add(family, w, st);
      const t = String(el.text ?? '');
      if (/<(b|strong)\b|font-weight:\s*(bold|[6-9]00)/i.test(t)) add(family, 700, st);
      if (/<(i|em)\b|font-style:\s*italic/i.test(t)) add(family, w, 'italic');
      for (const m of t.matchAll(/font-family:\s*['"]?([^;'"]+)/gi)) add(m[1].trim(), w, st);
    }
  };
  for (const page of doc.pages ?? []) walk(page.children);
  return uses;
}

/** The closest face of a family to a (weight, style) use, as CSS font matching would pick. */
function nearestFace(faces, weight, style) {
  const same = faces.filter((f) => f.style === style);
  const pool = same.length ? same : faces;
  return pool.reduce((best, f) => (Math.abs(f.weight - weight) < Math.abs(best.weight - weight) ? f : best));
}

// ---------- images ----------

const PLACEHOLDER = join(OUT, 'work', 'placeholder.png');
const PLACEHOLDER_SVG = join(OUT, 'work', 'placeholder.svg');

/**
 * A 1200×800 picture: a diagonal gradient under a 4×4 checker of faint tiles, a red square top left and a
 * green disc bottom right, so crops and flips show, without thin lines (whose resampling differs between
 * any two rasterisers and would swamp the comparison).
 */
async function makePlaceholder() {
  const w = 1200;
  const h = 800;
  const lines = [];
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++)
      if ((i + j) % 2) lines.push(`<rect x="${i * 300}" y="${j * 200}" width="300" height="200" fill="#ffffff" fill-opacity="0.25"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2b6cb0"/><stop offset="0.5" stop-color="#9f7aea"/><stop offset="1" stop-color="#f6ad55"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#g)"/>${lines.join('')}<rect x="0" y="0" width="200" height="200" fill="#e53e3e"/><circle cx="${w - 100}" cy="${h - 100}" r="90" fill="#38a169"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(PLACEHOLDER);
  // The same picture as an svg, for svg elements whose remote file is not fetched.
  writeFileSync(PLACEHOLDER_SVG, svg);
}

const isRemote = (src) => /^https?:\/\//i.test(src);
const isColourBackground = (bg) => /^\s*(#|rgba?\(|hsla?\(|[a-z]+\s*$|linear-gradient\(|radial-gradient\()/i.test(bg);
const sizeCache = new Map();

async function imageSize(path) {
  if (!sizeCache.has(path)) {
    const m = await sharp(path).metadata();
    sizeCache.set(path, { width: m.width ?? 1, height: m.height ?? 1 });
  }
  return sizeCache.get(path);
}

/**
 * The document for the comparison: remote image sources swapped for the placeholder (copied beside it),
 * data: images written out as files for the reference. Returns { doc, files: Map(src → {url, size, path}), swapped }.
 */
async function comparisonDocument(doc, folder, work) {
  const copy = structuredClone(doc);
  const files = new Map();
  let swapped = 0;
  const local = async (src, kind) => {
    if (isRemote(src)) {
      swapped++;
      const file = kind === 'svg' ? 'placeholder.svg' : 'placeholder.png';
      const path = join(work, file);
      if (!existsSync(path)) writeFileSync(path, readFileSync(kind === 'svg' ? PLACEHOLDER_SVG : PLACEHOLDER));
      files.set(file, { url: `file://${path}`, size: await imageSize(path), path });
      return file;
    }
    if (src.startsWith('data:')) {
      const comma = src.indexOf(',');
      const bytes = src.slice(5, comma).endsWith(';base64')
        ? Buffer.from(src.slice(comma + 1), 'base64')
        : Buffer.from(decodeURIComponent(src.slice(comma + 1)));
      // Chromium tells an SVG file by its extension (it does not sniff SVG).
      const mime = src.slice(5, comma).split(';')[0];
      const ext = { 'image/svg+xml': '.svg', 'image/png': '.png', 'image/jpeg': '.jpg', 'image/webp': '.webp', 'image/gif': '.gif' }[mime] ?? '';
      const path = join(work, `data-${createHash('sha1').update(src).digest('hex').slice(0, 12)}${ext}`);
      if (!existsSync(path)) writeFileSync(path, bytes);
      let size = { width: 1, height: 1 };
      try {
        size = await imageSize(path);
      } catch {
        // An svg without a size: Polotno stretches it to the box anyway.
      }
      files.set(src, { url: `file://${path}`, size, path });
      return src;
    }
    const path = resolve(folder, src);
    if (!existsSync(path)) return src;
    files.set(src, { url: `file://${path}`, size: await imageSize(path), path });
    return src;
  };
  const walk = async (els) => {
    for (const el of els ?? []) {
      if (el.type === 'group') await walk(el.children);
      if ((el.type === 'image' || el.type === 'svg' || el.type === 'video') && typeof el.src === 'string') el.src = await local(el.src, el.type);
      for (const k of ['clipSrc', 'maskSrc']) if (typeof el[k] === 'string' && el[k] !== '') el[k] = await local(el[k]);
    }
  };
  for (const page of copy.pages ?? []) {
    await walk(page.children);
    if (typeof page.background === 'string' && !isColourBackground(page.background)) page.background = await local(page.background);
  }
  return { doc: copy, files, swapped };
}

// ---------- comparison ----------

async function rgba(png, width, height) {
  const { data, info } = await sharp(png)
    .resize(width, height, { fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Share of pixels where a channel differs by more than THRESHOLD, and the mask of them. */
function diff(a, b) {
  const n = a.width * a.height;
  const mask = new Uint8Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    if (
      Math.abs(a.data[o] - b.data[o]) > THRESHOLD ||
      Math.abs(a.data[o + 1] - b.data[o + 1]) > THRESHOLD ||
      Math.abs(a.data[o + 2] - b.data[o + 2]) > THRESHOLD
    ) {
      mask[i] = 1;
      count++;
    }
  }
  return { ratio: count / n, mask };
}

/**
 * Share of differing pixels that also differ from every pixel within one pixel of them in the other
 * picture (both ways): what is left once anti-aliasing and sub-pixel placement are forgiven.
 */
function farDiff(a, b, mask) {
  const { width: w, height: h } = a;
  const near = (x, y, p, q) => {
    const o = (y * w + x) * 4;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const xs = x + dx;
        const ys = y + dy;
        if (xs < 0 || ys < 0 || xs >= w || ys >= h) continue;
        const r = (ys * w + xs) * 4;
        if (
          Math.abs(p.data[o] - q.data[r]) <= THRESHOLD &&
          Math.abs(p.data[o + 1] - q.data[r + 1]) <= THRESHOLD &&
          Math.abs(p.data[o + 2] - q.data[r + 2]) <= THRESHOLD
        )
          return true;
      }
    }
    return false;
  };
  let n = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (mask[y * w + x] && !(near(x, y, a, b) && near(x, y, b, a))) n++;
  return n / (w * h);
}

/** reference | differing pixels in red over the faded reference | Imprint, scaled to at most 2400 px wide. */
async function threePanel(ref, imp, mask, out) {
  const { width, height } = ref;
  const mid = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const o = i * 4;
    if (mask[i]) mid.set([230, 0, 0, 255], o);
    else for (let c = 0; c < 3; c++) mid[o + c] = 255 - Math.round((255 - ref.data[o + c]) * 0.25);
    mid[o + 3] = 255;
  }
  const gap = 8;
  const raw = { raw: { width, height, channels: 4 } };
  const panel = sharp({ create: { width: width * 3 + gap * 2, height, channels: 4, background: '#404040' } }).composite([
    { input: ref.data, ...raw, left: 0, top: 0 },
    { input: mid, ...raw, left: width + gap, top: 0 },
    { input: imp.data, ...raw, left: 2 * (width + gap), top: 0 },
  ]);
  const buf = await panel.png().toBuffer();
  await sharp(buf)
    .resize({ width: Math.min(2400, width * 3 + gap * 2) })
    .png()
    .toFile(out);
}

/** Differing pixels of `a` against `b` moved by (dx, dy), inside a box. */
function boxDiff(a, b, x0, y0, x1, y1, dx, dy) {
  let n = 0;
  const w = a.width;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const xs = x + dx;
      const ys = y + dy;
      if (xs < 0 || ys < 0 || xs >= w || ys >= a.height) continue;
      const o = (y * w + x) * 4;
      const p = (ys * w + xs) * 4;
      if (
        Math.abs(a.data[o] - b.data[p]) > THRESHOLD ||
        Math.abs(a.data[o + 1] - b.data[p + 1]) > THRESHOLD ||
        Math.abs(a.data[o + 2] - b.data[p + 2]) > THRESHOLD
      )
        n++;
    }
  }
  return n;
}

/**
 * Where the differing pixels are: for each element (its unturned box, text boxes a line taller), the
 * pixels that differ, and for text whether moving Imprint's picture by a pixel or two makes most of them
 * go (then the text is placed off by that much rather than drawn differently).
 * Returns [{ type, id, pixels, shift?: [dx, dy] }] for the elements with many differing pixels.
 */
function diffByElement(page, a, b, mask) {
  const { width, height } = a;
  const out = [];
  const visit = (els) => {
    for (const el of els ?? []) {
      if (el.type === 'group') {
        visit(el.children);
        continue;
      }
      if (el.visible === false) continue;
      const extra = el.type === 'text' ? (el.fontSize ?? 14) * 1.2 : 0;
      const x0 = Math.max(0, Math.floor(el.x ?? 0));
      const y0 = Math.max(0, Math.floor(el.y ?? 0));
      const x1 = Math.min(width, Math.ceil((el.x ?? 0) + (el.width ?? 0)));
      const y1 = Math.min(height, Math.ceil((el.y ?? 0) + (el.height ?? 0) + extra));
      let n = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) n += mask[y * width + x];
      if (n < 0.001 * width * height) continue;
      const entry = { type: el.type, id: el.id, pixels: n };
      if (el.type === 'text' && !el.rotation) {
        let best = [0, 0, n];
        for (let dy = -2; dy <= 2; dy++)
          for (let dx = -2; dx <= 2; dx++) {
            if (!dx && !dy) continue;
            const m = boxDiff(a, b, x0, y0, x1, y1, dx, dy);
            if (m < best[2]) best = [dx, dy, m];
          }
        if (best[2] < n / 2) entry.shift = [best[0], best[1]];
      }
      out.push(entry);
    }
  };
  visit(page.children);
  return out.sort((p, q) => q.pixels - p.pixels);
}

/** The cause an element's differing pixels point at, in words. */
function elementCause(e) {
  if (e.type !== 'text') return `${e.type} drawn differently`;
  if (!e.shift) return 'text drawn differently (line breaks, glyphs or weight)';
  const [dx, dy] = e.shift;
  if (Math.abs(dx) >= 2) return 'text placed 2 px or more off horizontally (alignment or spacing)';
  if (dy !== 0 && dx === 0) return 'text placed 1-2 px off vertically';
  return 'text placed a pixel off';
}

/** A short cause for an Imprint refusal: its code plus the field it names. */
function refusalCause(e) {
  const code = e?.code ?? 'exception';
  const message = String(e?.message ?? e);
  if (/remote URLs are not fetched/.test(message)) return `${code}: remote URL not fetched`;
  if (/font/i.test(message) && /(unknown|not (available|found|installed)|no font)/i.test(message)) return `${code}: font family not available`;
  const path = typeof e?.path === 'string' ? e.path.replace(/\[\d+\]/g, '[]') : '';
  return `${code}${path ? ` at ${path}` : ''}: ${message.split('\n')[0].slice(0, 120)}`;
}

/** Sets every text element (and rich-text span) of `family` to `to`. */
function substituteFamily(doc, family, to) {
  const walk = (els) => {
    for (const el of els ?? []) {
      if (el.type === 'group') walk(el.children);
      if (el.type !== 'text') continue;
      if ((el.fontFamily ?? 'Roboto') === family) el.fontFamily = to;
      if (typeof el.text === 'string') el.text = el.text.split(family).join(to);
    }
  };
  for (const page of doc.pages ?? []) walk(page.children);
}

/** The object and key a refusal's JSON path (`$.pages[0].children[2].name`) points at, in `doc`. */
function atPath(doc, path) {
  const keys = [...String(path).matchAll(/\.([A-Za-z_]\w*)|\[(\d+)\]/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
  let parent = null;
  let node = doc;
  for (const k of keys.slice(0, -1)) {
    parent = node;
    node = node?.[k];
  }
  return { parent, node, key: keys.at(-1), keys };
}

/**
 * Repairs the single-page comparison document so that Imprint renders the rest of it, and says how;
 * null when the refusal is not one of the known kinds. Both renderers draw the repaired document.
 */
function repairFor(doc, e) {
  if (e?.code !== 'validation_error' || typeof e.path !== 'string') return null;
  const { node, key, keys } = atPath(doc, e.path);
  if (node === undefined || node === null || key === undefined) return null;
  if (keys[0] === 'fonts' && typeof keys[1] === 'number') {
    const [gone] = doc.fonts.splice(keys[1], 1);
    return `fonts[] entry of ${JSON.stringify(gone?.fontFamily)} left out`;
  }
  if ((key === 'width' || key === 'height') && keys.length <= 3) {
    for (const o of [doc, ...doc.pages]) for (const k of ['width', 'height']) if (typeof o[k] === 'number') o[k] = Math.round(o[k]);
    return 'page size rounded to whole pixels';
  }
  if (key === 'name') {
    node.name = `${node.name}#${node.id ?? Math.random().toString(36).slice(2)}`;
    return 'duplicate element name made unique';
  }
  if (key === 'subType' || key === 'type') {
    const at = atPath(doc, e.path.replace(/\.\w+$/, '').replace(/\[\d+\]$/, ''));
    const list = at.node?.[at.key];
    const index = keys.at(-2);
    if (Array.isArray(list) && typeof index === 'number') {
      list.splice(index, 1);
      return `element ${e.path.replace(/\.\w+$/, '')} (${key} ${JSON.stringify(node[key])}) left out`;
    }
    return null;
  }
  if (typeof key === 'string' && key in node) {
    delete node[key];
    return `field ${key} removed from ${node.type ?? 'element'}`;
  }
  return null;
}

const TRAILING =
  'centred or right-aligned text whose paragraph ends in spaces: Polotno (Konva) aligns that line with its spaces, and so do Imprint (keep_trailing_spaces) and the reference (no-break spaces); listed because the rule decides those lines';

/** Ids of plain texts aligned center or right with a paragraph that ends in a space (Konva keeps it). */
function trailingSpaceTexts(doc) {
  const ids = new Set();
  const walk = (els) => {
    for (const el of els ?? []) {
      if (el.type === 'group') walk(el.children);
      if (el.type !== 'text' || typeof el.text !== 'string' || /<[a-z][^>]*>/i.test(el.text)) continue;
      if (!['center', 'right', undefined].includes(el.align)) continue;
      if (el.text.split('\n').some((para) => / $/.test(para))) ids.add(el.id);
    }
  };
  for (const page of doc.pages ?? []) walk(page.children);
  return ids;
}

const OVERFLOW =
  "text taller than its box: Polotno's export shrinks the font size until it fits (polotno-node's default text fit, seen in its golden images), Imprint and the reference draw it at its size";

/** Whether a text of the page needs more lines than its box holds (Imprint's fit report, in paint order). */
function overflowingTexts(page, report) {
  const texts = [];
  const walk = (els) => {
    for (const el of els ?? []) {
      if (el.type === 'group') walk(el.children);
      else if (el.type === 'text' && el.visible !== false && el.showInExport !== false) texts.push(el);
    }
  };
  walk(page.children);
  if (texts.length !== report.length) return false;
  return texts.some((el, i) => report[i].line_count * report[i].font_size * (Number(el.lineHeight) || 1.2) > (el.height ?? 0) + 2);
}

// ---------- run ----------

await makePlaceholder();
const names = readdirSync(CORPUS)
  .filter((n) => existsSync(join(CORPUS, n, 'polotno.json')))
  .filter((n) => !args.only || n === args.only)
  .sort();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'],
});
const results = [];

for (const name of names) {
  const folder = join(CORPUS, name);
  const work = join(OUT, 'work', name);
  mkdirSync(work, { recursive: true });
  const doc = JSON.parse(readFileSync(join(folder, 'polotno.json'), 'utf8'));
  const source = JSON.parse(readFileSync(join(folder, 'source.json'), 'utf8'));
  const r = { name, source, pages: [], causes: new Set(), notes: new Set() };
  results.push(r);

  // Fonts: every family the text names, from npm (or from the document's own data: font files); Imprint
  // gets the face nearest each use (≤ 16 files). A family neither has is drawn in Roboto by both renderers
  // in the comparison, so Roboto's faces are looked up for the document with those families swapped.
  const faces = [];
  const fontFiles = [];
  const missingFamilies = [];
  const ownFamilies = new Set();
  for (const [i, f] of (doc.fonts ?? []).entries()) {
    const srcs = [f.url, ...(f.styles ?? []).map((st) => String(st.src ?? '').replace(/^url\(["']?|["']?\)$/g, ''))].filter(
      (u) => typeof u === 'string' && u.startsWith('data:'),
    );
    if (!srcs.length) continue;
    const path = join(work, `font-${i}`);
    writeFileSync(path, Buffer.from(srcs[0].slice(srcs[0].indexOf(',') + 1), 'base64'));
    faces.push({ family: f.fontFamily, weight: 400, style: 'normal', path });
    ownFamilies.add(f.fontFamily);
  }
  const substituted = structuredClone(doc);
  for (const family of fontUses(doc).keys()) {
    if (ownFamilies.has(family)) continue;
    const got = familyFaces(family);
    if (typeof got === 'string') {
      r.causes.add(
        'a font family without an @expo-google-fonts package (the reference reads the expo TTFs, so the comparison copy draws it in Roboto on both sides; Imprint installs it from @fontsource)',
      );
      r.notes.add(got);
      missingFamilies.push(family);
      substituteFamily(substituted, family, 'Roboto');
    }
  }
  for (const [family, uses] of fontUses(substituted)) {
    if (ownFamilies.has(family)) continue;
    const got = familyFaces(family);
    if (typeof got === 'string') continue;
    faces.push(...got);
    for (const u of uses) {
      const [w, st] = u.split('/');
      const face = nearestFace(got, Number(w), st);
      if (!fontFiles.includes(face.path)) fontFiles.push(face.path);
    }
  }
  if (fontFiles.length > MAX_FONT_FILES) r.notes.add(`${fontFiles.length} font files needed, Imprint takes ${MAX_FONT_FILES}: the rest are left out`);
  const fontOption = args['fonts-dir'] ? {} : { fontFiles: fontFiles.slice(0, MAX_FONT_FILES).map((p) => readFileSync(p)) };

  // 1. As saved.
  try {
    const out = await render({ design: doc, baseDir: folder, format: 'png', inputFormat: 'polotno', ...fontOption });
    writeFileSync(join(OUT, `${name}.imprint-as-saved.png`), out.bytes);
    r.asSaved = { ok: true };
  } catch (e) {
    r.asSaved = { ok: false, code: e?.code ?? 'exception', path: e?.path, message: String(e?.message ?? e).split('\n')[0] };
    r.causes.add(`Imprint refuses: ${refusalCause(e)}`);
  }

  // 2. Page by page against the reference, remote images swapped for the placeholder, families that no
  // npm package has swapped for Roboto, and each further refusal repaired (and counted) so the rest of
  // the design is still compared.
  const cmp = await comparisonDocument(doc, folder, work);
  const trailing = trailingSpaceTexts(doc);
  if (cmp.swapped) r.notes.add(`${cmp.swapped} remote image reference(s) drawn as the placeholder in the comparison`);
  for (const family of missingFamilies) substituteFamily(cmp.doc, family, 'Roboto');
  for (let i = 0; i < (cmp.doc.pages ?? []).length; i++) {
    const single = { ...cmp.doc, pages: [cmp.doc.pages[i]] };
    const pr = { index: i };
    r.pages.push(pr);
    let impPng;
    for (let attempt = 0; attempt < 8 && !impPng; attempt++) {
      try {
        const res = await render({ design: single, baseDir: work, format: 'png', inputFormat: 'polotno', ...fontOption });
        impPng = res.bytes;
        if (overflowingTexts(single.pages[0], res.report)) r.causes.add(OVERFLOW);
      } catch (e) {
        const cause = refusalCause(e);
        const repair = repairFor(single, e);
        if (!repair) {
          pr.error = cause;
          r.causes.add(`Imprint refuses: ${cause}`);
          break;
        }
        if (!/remote URL/.test(cause)) r.causes.add(`Imprint refuses: ${cause}`);
        r.notes.add(`comparison repair: ${repair}`);
      }
    }
    const page = single.pages[0];
    const { width, height } = pageSize(single, page);
    Object.assign(pr, { width, height });
    const ref = polotnoPageHtml(single, 0, { faces, image: (src) => cmp.files.get(src) ?? null });
    for (const n of ref.notes) {
      r.notes.add(n);
      if (/not drawn by the reference|not available to the reference/.test(n))
        r.causes.add(`reference cannot draw: ${n.replace(/:.*$/, '').replace(/ not drawn by the reference/, '')}`);
    }
    const refPng = await screenshotHtml(browser, ref.html, width, height, work, `page-${i}`);
    writeFileSync(join(OUT, `${name}.p${i}.reference.png`), refPng);
    if (!impPng) continue;
    writeFileSync(join(OUT, `${name}.p${i}.imprint.png`), impPng);
    const a = await rgba(refPng, width, height);
    const b = await rgba(impPng, width, height);
    const d = diff(a, b);
    pr.ratio = d.ratio;
    pr.far = farDiff(a, b, d.mask);
    if (d.ratio > MATCH_RATIO && pr.far <= MATCH_RATIO / 4)
      r.causes.add('over 2 %: anti-aliasing and sub-pixel placement only (under 0.5 % once a pixel of play is allowed)');
    pr.elements = diffByElement(page, a, b, d.mask);
    for (const e of pr.elements) if (trailing.has(e.id)) r.causes.add(TRAILING);
    await threePanel(a, b, d.mask, join(OUT, `${name}.p${i}.diff.png`));
  }

  // 3. The reference image the repository ships (Polotno's own export or a thumbnail of it), page 1.
  const shipped = source.reference_image?.file && join(folder, source.reference_image.file);
  const asSavedPng = join(OUT, `${name}.imprint-as-saved.png`);
  if (shipped && existsSync(shipped) && existsSync(asSavedPng)) {
    const m = await sharp(shipped).metadata();
    const a = await rgba(shipped, m.width, m.height);
    const b = await rgba(asSavedPng, m.width, m.height);
    const d = diff(a, b);
    const imp = await sharp(asSavedPng).metadata();
    r.shipped = { ratio: d.ratio, size: `${m.width}×${m.height}`, imprintSize: `${imp.width}×${imp.height}`, thumbnail: m.width < imp.width / 2 };
    await threePanel(a, b, d.mask, join(OUT, `${name}.shipped.diff.png`));
  }
  const worst = Math.max(...r.pages.map((p) => p.ratio ?? 1));
  console.log(
    `${name}: as saved ${r.asSaved.ok ? 'ok' : r.asSaved.code}; worst page ${(worst * 100).toFixed(2)} %${r.shipped ? `; shipped ${(r.shipped.ratio * 100).toFixed(2)} %` : ''}`,
  );
}
await browser.close();

// ---------- report ----------

const hand = existsSync(join(CORPUS, 'causes.json')) ? JSON.parse(readFileSync(join(CORPUS, 'causes.json'), 'utf8')) : {};
const pct = (v) => (v === undefined ? '–' : `${(v * 100).toFixed(2)} %`);
const lines = [];
const compared = results.filter((r) => r.pages.length && r.pages.every((p) => p.ratio !== undefined));
const within = compared.filter((r) => r.pages.every((p) => p.ratio <= MATCH_RATIO));
for (const r of results) for (const c of hand[r.name] ?? []) r.causes.add(c);
const over = new Set(results.filter((r) => r.pages.some((p) => p.ratio === undefined || p.ratio > MATCH_RATIO)).map((r) => r.name));
// A design over 2 % that no cause explains stays visible as such (look at its diff, then name the cause in causes.json).
const PIXEL_CAUSES = [TRAILING, OVERFLOW, ...Object.values(hand).flat()];
for (const r of results) {
  if (!over.has(r.name) || [...r.causes].some((c) => PIXEL_CAUSES.includes(c) || c.startsWith('over 2 %'))) continue;
  const worst = r.pages.reduce((w, p) => (p.ratio !== undefined && p.ratio > (w?.ratio ?? -1) ? p : w), null);
  r.causes.add(
    `over 2 %, cause not named yet: most differing pixels on ${(worst?.elements ?? []).slice(0, 2).map(elementCause).join('; ') || 'nothing drawn by both'}`,
  );
}
lines.push('# Polotno corpus: Imprint against the Chromium reference', '');
lines.push(
  `${results.length} real Polotno documents (test/fixtures/polotno-corpus). A pixel differs when a channel differs by more than ${THRESHOLD}/255; a page matches when at most ${MATCH_RATIO * 100} % of its pixels differ. Fonts: ${args['fonts-dir'] ? `IMPRINT_FONTS_DIR=${process.env.IMPRINT_FONTS_DIR}` : 'the @expo-google-fonts TTFs given as fontFiles'}.`,
  '',
);
lines.push('| | designs |', '|---|---|');
lines.push(`| in the corpus | ${results.length} |`);
lines.push(`| rendered as saved | ${results.filter((r) => r.asSaved.ok).length} |`);
lines.push(`| compared (every page rendered by both, remote images as the placeholder) | ${compared.length} |`);
lines.push(`| every page within 2 % of the reference | ${within.length} |`, '');
const causeCount = new Map();
for (const r of results) for (const c of r.causes) causeCount.set(c, (causeCount.get(c) ?? []).concat(r.name));
lines.push(
  '## Causes, by the number of designs they affect',
  '',
  'Refusals found as saved and while repairing the comparison copy; causes of pixel differences from the comparison, from the documents (trailing spaces) and from looking at the diffs (test/fixtures/polotno-corpus/causes.json).',
  '',
  '| cause | designs | of them over 2 % | which |',
  '|---|---|---|---|',
);
for (const [c, ns] of [...causeCount.entries()].sort((a, b) => b[1].length - a[1].length))
  lines.push(`| ${c.replace(/\|/g, '\\|')} | ${ns.length} | ${ns.filter((n) => over.has(n)).length} | ${ns.join(', ')} |`);
lines.push(
  '',
  '## Designs',
  '',
  '| design | as saved | pages: differing pixels (beyond a pixel of play) | elements with the most differing pixels | shipped reference image | notes |',
  '|---|---|---|---|---|---|',
);
for (const r of results) {
  const pages = r.pages
    .map((p) => (p.ratio === undefined ? `p${p.index + 1}: ${p.error ?? '–'}` : `p${p.index + 1}: ${pct(p.ratio)} (${pct(p.far)})`))
    .join('<br>');
  const kinds = r.pages
    .map((p) => (p.elements ?? []).map((e) => `${e.type} ${e.id}: ${e.pixels}${e.shift ? ` (best at a shift of ${e.shift.join(', ')})` : ''}`).join(', '))
    .join('<br>');
  const shipped = r.shipped ? `${pct(r.shipped.ratio)} (${r.shipped.size}${r.shipped.thumbnail ? ', thumbnail' : ''})` : '–';
  const asSaved = r.asSaved.ok ? 'ok' : `${r.asSaved.code}${r.asSaved.path ? ` at ${r.asSaved.path}` : ''}`;
  lines.push(`| ${r.name} | ${asSaved} | ${pages} | ${kinds} | ${shipped} | ${[...r.notes].join('; ').replace(/\|/g, '\\|')} |`);
}
lines.push(
  '',
  "Files: `<design>.p<N>.diff.png` (reference | differing pixels | Imprint), `<design>.p<N>.reference.png`, `<design>.p<N>.imprint.png`, `<design>.imprint-as-saved.png`, `<design>.shipped.diff.png` (the repository's own image | diff | Imprint as saved).",
);
writeFileSync(join(OUT, 'report.md'), lines.join('\n') + '\n');
writeFileSync(
  join(OUT, 'results.json'),
  JSON.stringify(
    results.map((r) => ({ ...r, causes: [...r.causes], notes: [...r.notes] })),
    null,
    2,
  ),
);
console.log(
  `\n${basename(OUT)}/report.md: ${results.filter((r) => r.asSaved.ok).length}/${results.length} rendered as saved, ${within.length}/${compared.length} compared within 2 %`,
);
