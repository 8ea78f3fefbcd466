// npm run bench: renders examples/card-1080 with its overrides (png and jpg) and, in the same run,
// a raw baseline that draws the same scene with direct @napi-rs/canvas calls and encodes it the same
// way; then the chart and mockup examples against the card. Prints p50/p95 and peak RSS; merges its
// entries into bench/results/latest.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import sharp from 'sharp';
import { Engine, fileAssetResolver, parseDesign, resolveScene, layout, bundledFonts, encodeImage, ENCODE_DEFAULTS, loadShaper } from '../dist/index.js';

await loadShaper();
import { example, mixedScript, scaled } from './fixtures.mjs';
import { drawRaw as drawRawList } from './raw-canvas.mjs';
import { rawCardRenderer } from './raw-card.mjs';
import { takumiCardRenderer } from './takumi-card.mjs';
import { mergeResults } from './report.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const CARD = join(ROOT, 'examples', 'card-1080');
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARMUP = 5;

const design = JSON.parse(readFileSync(join(CARD, 'design.json'), 'utf8'));
const overrides = JSON.parse(readFileSync(join(CARD, 'overrides.json'), 'utf8')).objects_overrides;
const assets = fileAssetResolver({ baseDir: CARD });

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
/** Times each function RUNS times in alternating blocks of BLOCK runs: every function runs in its own
 *  steady state (its garbage is collected in its own time), yet all share the machine's noise over time. */
const BLOCK = Number(process.env.BENCH_BLOCK ?? 10);
async function time(...fns) {
  for (const fn of fns) for (let i = 0; i < WARMUP; i++) await fn();
  const xs = fns.map(() => []);
  for (let done = 0; done < RUNS; done += BLOCK) {
    for (const [j, fn] of fns.entries()) {
      for (let i = 0; i < Math.min(BLOCK, RUNS - done); i++) {
        const t = performance.now();
        await fn();
        xs[j].push(performance.now() - t);
      }
    }
  }
  return xs.map((x) => ({ p50: pct(x, 50), p95: pct(x, 95) }));
}

// ── raw baseline: the same scene, drawn by hand ──────────────────────────────────────────────
// Geometry (boxes, crops, shapes) comes from one layout run outside the timing; the text is laid out
// by hand in the timed part (bench/raw-canvas.mjs: measureText, wrapping, fit, fillText), as a
// hand-written renderer has to. Its photo is decoded once, as Imprint's engine keeps it decoded.
const fonts = bundledFonts();
const scene = resolveScene(parseDesign(design), overrides);
const decoded = new Map();
for (const o of [scene.background, ...scene.objects]) {
  const ref = o.kind === 'image' ? o.image : o.type === 'image' ? o.image : o.type === 'shape' && o.fill?.kind === 'image' ? o.fill.image : null;
  if (!ref) continue;
  const key = ref.kind === 'asset' ? `asset:${ref.name}` : ref.path;
  const { data, info } = await sharp(await assets(ref))
    .rotate()
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const c = createCanvas(info.width, info.height);
  c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height), 0, 0);
  decoded.set(key, c);
}
const sizes = new Map([...decoded].map(([k, c]) => [k, { width: c.width, height: c.height }]));
const { displayList } = layout(scene, sizes, fonts);

const drawRaw = (list = displayList, sceneOfList = scene) => drawRawList(list, decoded, sceneOfList);

// ── run ───────────────────────────────────────────────────────────────────────────────────────
// On the caller's thread, like the raw script it is compared with (bench/threads.mjs measures threads).
const engine = new Engine({ threads: 0 });
const entries = [];
const rss = () => process.resourceUsage().maxRSS / 1024;
console.log(`card-1080 with overrides, ${RUNS} runs after ${WARMUP} warm-up, node ${process.version}`);
for (const format of ['png', 'jpg']) {
  const [imprint, baseline] = await time(
    () => engine.render({ design, overrides, format, assets }),
    () => encodeImage(drawRaw(), format),
  );
  const entry = {
    name: `render card-1080 ${format}`,
    unit: 'ms',
    p50: +imprint.p50.toFixed(2),
    p95: +imprint.p95.toFixed(2),
    baseline_p50: +baseline.p50.toFixed(2),
    ratio_to_baseline: +(imprint.p50 / baseline.p50).toFixed(3),
    peak_rss_mb: +rss().toFixed(1),
  };
  entries.push(entry);
  console.log(`${format}: p50 ${entry.p50} ms  p95 ${entry.p95} ms  | raw baseline p50 ${entry.baseline_p50} ms  ratio ${entry.ratio_to_baseline}`);
}

// Against the minimal raw script (bench/raw-card.mjs): hard-coded positions, fillText, the photo kept
// on a canvas, sharp's encoder with Imprint's options, nothing else. It does less work than the raw
// baseline above (which lays the text out by hand each time, as a renderer must), so it is the floor:
// the time of drawing these pixels and encoding them, which is what jpg, webp and avif are judged by
// (docs/rendering.md, "Two raw baselines").
// Takumi (bench/takumi-card.mjs, the same card) is timed beside them as the peer, where it has the format.
const minimalRaw = await rawCardRenderer();
const takumi = await takumiCardRenderer();
const TAKUMI_FORMATS = { png: 'png', jpg: 'jpeg', webp: 'webp' };
for (const format of ['png', 'jpg', 'webp', 'avif']) {
  const peer = TAKUMI_FORMATS[format];
  const [imprint, raw, peerT] = await time(
    () => engine.render({ design, overrides, format, assets }),
    () => minimalRaw(format),
    ...(peer ? [() => takumi(peer)] : []),
  );
  const entry = {
    name: `render card-1080 ${format} vs minimal raw script`,
    unit: 'ms',
    p50: +imprint.p50.toFixed(2),
    p95: +imprint.p95.toFixed(2),
    baseline_p50: +raw.p50.toFixed(2),
    ratio_to_baseline: +(imprint.p50 / raw.p50).toFixed(3),
    baseline: `bench/raw-card.mjs ${format} (draw + sharp, nothing else)`,
    ...(peerT ? { takumi_p50: +peerT.p50.toFixed(2) } : {}),
    peak_rss_mb: +rss().toFixed(1),
  };
  entries.push(entry);
  console.log(
    `${format} vs minimal raw: p50 ${entry.p50} ms | minimal raw p50 ${entry.baseline_p50} ms  ratio ${entry.ratio_to_baseline}${peerT ? ` | Takumi p50 ${entry.takumi_p50} ms` : ''}`,
  );
}

// Canvas-size curve: the card scaled to 540², 1080² and 2160² (every length × k), png, against the
// raw baseline at the same size; the pre-encode part (Imprint's rasterize, the raw drawing with its own
// text layout) is timed apart from the whole render, so fixed costs and encoding show separately.
for (const k of [0.5, 1, 2]) {
  const size = 1080 * k;
  const req = { design: scaled(design, k), overrides: scaled(overrides, k), assets, format: 'png' };
  const sceneK = resolveScene(parseDesign(req.design), req.overrides);
  const list = layout(sceneK, sizes, fonts).displayList;
  const [pre, whole, rawPre, rawWhole] = await time(
    () => engine.rasterize(req),
    () => engine.render(req),
    () => drawRaw(list, sceneK),
    () => encodeImage(drawRaw(list, sceneK), 'png'),
  );
  const entry = {
    name: `render card ${size}x${size} png`,
    unit: 'ms',
    p50: +whole.p50.toFixed(2),
    p95: +whole.p95.toFixed(2),
    baseline_p50: +rawWhole.p50.toFixed(2),
    ratio_to_baseline: +(whole.p50 / rawWhole.p50).toFixed(3),
    pre_encode_p50: +pre.p50.toFixed(2),
    baseline_pre_encode_p50: +rawPre.p50.toFixed(2),
    pre_encode_ratio: +(pre.p50 / rawPre.p50).toFixed(3),
    baseline: `raw @napi-rs/canvas + sharp, card ${size}x${size} png`,
  };
  entries.push(entry);
  console.log(
    `card ${size}² png: p50 ${entry.p50} ms (pre-encode ${entry.pre_encode_p50}) | raw p50 ${entry.baseline_p50} ms (pre-encode ${entry.baseline_pre_encode_p50}) | ratio ${entry.ratio_to_baseline}, pre-encode ${entry.pre_encode_ratio}`,
  );
}

// Vector pdf of the same card, next to the png render of the same run. Its size budget: the jpg
// render plus the photo's original bytes (embedded untouched) plus the embedded font subsets.
{
  const [pdfT, pngT] = await time(
    () => engine.render({ design, overrides, assets, format: 'pdf' }),
    () => engine.render({ design, overrides, assets, format: 'png' }),
  );
  const pdf = (await engine.render({ design, overrides, assets, format: 'pdf' })).bytes;
  const jpg = (await engine.render({ design, overrides, assets, format: 'jpg' })).bytes;
  const photo = readFileSync(join(CARD, 'city-night.jpg'));
  // Font programs are the streams that /FontFile2 entries point to.
  const text = pdf.toString('latin1');
  const fonts = [...text.matchAll(/\/FontFile2 (\d+) 0 R/g)]
    .map((m) => new RegExp(`\\n${m[1]} 0 obj\\n<<\\n/Length (\\d+)`).exec(text)?.[1])
    .reduce((n, len) => n + Number(len ?? 0), 0);
  const budget = jpg.length + photo.length + fonts;
  const entry = {
    name: 'render card-1080 pdf',
    unit: 'ms',
    p50: +pdfT.p50.toFixed(2),
    p95: +pdfT.p95.toFixed(2),
    baseline_p50: +pngT.p50.toFixed(2),
    ratio_to_baseline: +(pdfT.p50 / pngT.p50).toFixed(3),
    peak_rss_mb: +rss().toFixed(1),
    baseline: 'render card-1080 png',
    bytes: pdf.length,
    size_budget_bytes: budget,
  };
  entries.push(entry);
  console.log(
    `pdf: p50 ${entry.p50} ms  p95 ${entry.p95} ms  | png p50 ${entry.baseline_p50} ms  | ${(pdf.length / 1000).toFixed(0)} kB vs budget ${(budget / 1000).toFixed(0)} kB (jpg ${(jpg.length / 1000).toFixed(0)} + photo ${(photo.length / 1000).toFixed(0)} + fonts ${(fonts / 1000).toFixed(0)})`,
  );
}

// Charts and mockups next to the card, in the same alternating blocks; the card is their baseline.
// "new engine" gives every render a new Engine({ threads: 0 }): engines share the process's font and
// image caches (src/engine.ts), so this is the cost of making one, not of cold caches.
const card = { design, overrides, assets, format: 'png' };
const chart = { ...example('chart-report'), format: 'png' };
const mockup = { ...example('mockup-phone'), format: 'png' };
// The same card with its text in Arabic, Hebrew, Hindi, Thai, CJK and emoji: fallback fonts, bidi,
// colour glyphs (issue 16's goal: p50 ≤ 1.5× the card's).
const mixed = { ...card, overrides: mixedScript(overrides) };
const [cardWarm, chartWarm, mockupWarm, mixedWarm] = await time(
  () => engine.render(card),
  () => engine.render(chart),
  () => engine.render(mockup),
  () => engine.render(mixed),
);
// A service renders a template with a new upload each time: the card gets a new photo, the mockup a
// new 1170×2532 screenshot (so it is decoded, resampled and warped every time), while the template's
// own images stay cached. Variants differ in one pixel's brightness, enough for a new content hash.
const variants = async (file, format) => {
  const out = [];
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const img = sharp(file).composite([{ input: { create: { width: 1, height: 1, channels: 3, background: { r: i % 256, g: 0, b: 0 } } }, left: 0, top: 0 }]);
    out.push(await (format === 'png' ? img.png({ compressionLevel: 1 }) : img.jpeg({ quality: 90 })).toBuffer());
  }
  return out;
};
const withFreshUpload = (ex, file, bytes) => {
  let n = 0;
  return () => {
    const upload = bytes[n++ % bytes.length];
    return engine.render({ ...ex, assets: (ref) => (ref.kind === 'path' && ref.path === file ? Promise.resolve(upload) : ex.assets(ref)) });
  };
};
const cardFresh = withFreshUpload(card, 'city-night.jpg', await variants(join(CARD, 'city-night.jpg'), 'jpg'));
const mockupFresh = withFreshUpload(mockup, 'screen-promo.png', await variants(join(ROOT, 'examples', 'mockup-phone', 'screen-promo.png'), 'png'));
const [cardNew, mockupNew] = await time(cardFresh, mockupFresh);
const [cardCold, mockupCold] = await time(
  () => new Engine({ threads: 0 }).render(card),
  () => new Engine({ threads: 0 }).render(mockup),
);
for (const [name, t, base, baseName] of [
  ['render chart-report png', chartWarm, cardWarm, 'render card-1080 png'],
  ['render mockup-phone png', mockupWarm, cardWarm, 'render card-1080 png'],
  ['render card-1080 mixed-script png', mixedWarm, cardWarm, 'render card-1080 png'],
  ['render mockup-phone png, new screenshot each time', mockupNew, cardNew, 'render card-1080 png, new photo each time'],
  ['render mockup-phone png, new engine each render', mockupCold, cardCold, 'render card-1080 png, new engine each render'],
]) {
  const entry = {
    name,
    unit: 'ms',
    p50: +t.p50.toFixed(2),
    p95: +t.p95.toFixed(2),
    baseline_p50: +base.p50.toFixed(2),
    ratio_to_baseline: +(t.p50 / base.p50).toFixed(3),
    peak_rss_mb: +rss().toFixed(1),
    baseline: baseName,
  };
  entries.push(entry);
  console.log(
    `${name}: p50 ${entry.p50} ms  p95 ${entry.p95} ms  | ${baseName.replace('render ', '')} p50 ${entry.baseline_p50} ms  ratio ${entry.ratio_to_baseline}`,
  );
}

// BENCH_STILLS_ONLY=1: the stills and encoder figures only, without the benches run as children.
const children = !process.env.BENCH_STILLS_ONLY;

// Video runs in its own process, so its peak RSS is its own (bench/video.mjs).
if (children) {
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync(process.execPath, [join(ROOT, 'bench', 'video.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });
  const lines = out.trim().split('\n');
  entries.push(...JSON.parse(lines.pop()));
  for (const line of lines) console.log(line);
}

// Encoder choice: the same pixels through each candidate (informational entries).
const pixels = drawRaw();
const canvasForEncode = createCanvas(pixels.width, pixels.height);
canvasForEncode.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(pixels.pixels), pixels.width, pixels.height), 0, 0);
// png: zlib level × row filters (adaptive picks a filter per row; off uses none), the size/speed trade-off.
const pngCandidates = Object.fromEntries(
  [1, 3, 6, 9].flatMap((level) =>
    [false, true].map((adaptiveFiltering) => [
      `encode png sharp level ${level}${adaptiveFiltering ? ', adaptive filtering' : ''}${level === ENCODE_DEFAULTS.png.compressionLevel && !adaptiveFiltering ? ' (default)' : ''}`,
      () =>
        sharp(pixels.pixels, { raw: { width: pixels.width, height: pixels.height, channels: 4 } })
          .removeAlpha() // the card is opaque: encoded as RGB, as encodeImage does
          .png({ compressionLevel: level, adaptiveFiltering })
          .toBuffer(),
    ]),
  ),
);
const candidates = {
  ...pngCandidates,
  'encode png @napi-rs/canvas': () => canvasForEncode.encode('png'),
  [`encode jpg sharp q${ENCODE_DEFAULTS.jpg.quality} (default)`]: () => encodeImage(pixels, 'jpg'),
  'encode jpg @napi-rs/canvas q90': () => canvasForEncode.encode('jpeg', 90),
};
for (const [name, fn] of Object.entries(candidates)) {
  const [t] = await time(fn);
  const bytes = (await fn()).length;
  entries.push({
    name,
    unit: 'ms',
    p50: +t.p50.toFixed(2),
    p95: +t.p95.toFixed(2),
    baseline_p50: null,
    ratio_to_baseline: null,
    peak_rss_mb: +rss().toFixed(1),
    bytes,
  });
  console.log(`${name}: p50 ${t.p50.toFixed(2)} ms  p95 ${t.p95.toFixed(2)} ms  ${(bytes / 1000).toFixed(0)} kB`);
}
console.log(`peak RSS ${rss().toFixed(1)} MB`);

mergeResults(entries);

// Queue overhead, HTTP, concurrency and the perspective warp in their own processes, after the render cases; each merges its own entries.
if (children) {
  const { execFileSync } = await import('node:child_process');
  for (const b of ['queue.mjs', 'http.mjs', 'preview.mjs', 'studio.mjs', 'threads.mjs', 'warp.mjs'])
    execFileSync(process.execPath, [join(ROOT, 'bench', b)], { stdio: 'inherit' });
}
