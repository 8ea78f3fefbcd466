// node bench/polotno.mjs (after npm run build): the Polotno card (examples/polotno-card, the content of
// card-1080 in Polotno's JSON) against the native card-1080, both with the card's overrides, as png,
// jpg and pdf, in alternating blocks in one process; then, in the same run, the equivalent HTML of
// the Polotno card (test/support/polotno-html.ts, the conformance tests' reference) in a warm headless
// Chromium, as Polotno's own server render (polotno-node: Puppeteer) draws it, against Imprint
// rendering the same JSON (both without overrides). Medians, load average, and entries merged into
// bench/results/latest.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { rolldown } from 'rolldown';
import { Engine, loadShaper } from '../dist/index.js';
import { mergeResults, printTable } from './report.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const BLOCK = 10;
const WARMUP = 5;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const read = (p) => JSON.parse(readFileSync(join(ROOT, p), 'utf8'));
const overrides = read('examples/card-1080/overrides.json').objects_overrides;
const native = { design: read('examples/card-1080/design.json'), overrides, baseDir: join(ROOT, 'examples/card-1080') };
const polotno = { design: read('examples/polotno-card/polotno.json'), overrides, baseDir: join(ROOT, 'examples/polotno-card') };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (v) => (Math.round(v * 10) / 10).toFixed(1);

/** Each function RUNS times in alternating blocks, after a warm-up: both share the machine's noise. */
async function time(fns) {
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
  return xs.map(median);
}

await loadShaper();
const engine = new Engine({ threads: 0 });
const load = loadavg()[0];
console.log(`Polotno card vs native card-1080 (with overrides), ${RUNS} runs each after ${WARMUP}, node ${process.version}, load ${load.toFixed(2)}`);

const entries = [];
for (const format of ['png', 'jpg', 'pdf']) {
  const [n, p] = await time([() => engine.render({ ...native, format }), () => engine.render({ ...polotno, format })]);
  entries.push({ name: `polotno-card-${format}`, format, native_p50: ms(n), polotno_p50: ms(p), ratio: (p / n).toFixed(3) });
}

// The reference HTML: the conformance tests' Polotno → HTML/CSS module, bundled for node on the fly.
// Inside the repository (git-ignored), so the bundle finds sharp in node_modules.
mkdirSync(join(ROOT, 'test-output'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'test-output', 'bench-polotno-'));
let html;
try {
  const bundle = await rolldown({ input: join(ROOT, 'test/support/polotno-html.ts'), platform: 'node', external: ['sharp'], logLevel: 'silent' });
  await bundle.write({ file: join(work, 'polotno-html.mjs'), format: 'esm' });
  const mod = await import(pathToFileURL(join(work, 'polotno-html.mjs')).href);
  // The template as saved (no overrides: the HTML draws the Polotno JSON as it is).
  html = (await mod.polotnoHtml(polotno.design, polotno.baseDir, 0)).html;
} finally {
  rmSync(work, { recursive: true, force: true });
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--font-render-hinting=none'] });
try {
  const page = await browser.newPage({ viewport: { width: 1080, height: 1080 } });
  // What a warm polotno-node does per render: load the design into the open page, wait for its fonts
  // and images, take the picture.
  const draw = async (shot) => {
    await page.setContent(html, { waitUntil: 'load' });
    await page.evaluate('document.fonts.ready');
    return shot();
  };
  const shots = {
    png: () => page.screenshot({ type: 'png' }),
    jpg: () => page.screenshot({ type: 'jpeg', quality: 90 }),
    pdf: () => page.pdf({ width: '1080px', height: '1080px', printBackground: true }),
  };
  for (const e of entries) {
    const [chromiumMs, imprintMs] = await time([() => draw(shots[e.format]), () => engine.render({ ...polotno, overrides: undefined, format: e.format })]);
    e.chromium_p50 = ms(chromiumMs);
    e.imprint_same_run_p50 = ms(imprintMs);
    e.chromium_ratio = (chromiumMs / imprintMs).toFixed(2);
  }
} finally {
  await browser.close();
  await engine.close();
}

printTable(
  [
    ['case', (e) => e.name],
    ['native p50 ms', (e) => e.native_p50],
    ['polotno p50 ms', (e) => e.polotno_p50],
    ['polotno / native', (e) => e.ratio],
    ['chromium p50 ms', (e) => e.chromium_p50],
    ['chromium / imprint', (e) => e.chromium_ratio],
  ],
  entries,
);
mergeResults(entries.map((e) => ({ ...e, load: Number(load.toFixed(2)), runs: RUNS })));
