// Bench of the Studio's template editor (issue 31, item 7; `node bench/studio-editor.mjs` after `npm
// run build`, also run by `npm run bench`): in Debian's Chromium against the service in this process,
// (1) an edit → the engine's preview of the edited template painted, at 1080² (a headline's text
// changed in its text box: the autosave, the request, the server's render of the unsaved design and
// the browser's decode all count), BENCH_EDITOR_RUNS (20) times after 3 warm-up; (2) a drag: pointer
// moves dispatched one per animation frame, and whether the dragged object's outline has moved by the
// next frame (the outline follows the pointer at display rate; the engine's render follows it);
// (3) a 200-object design: select (a click in the layers), move (an arrow key) and undo (Ctrl+Z),
// each from the key or click to the frame that shows it. Goals: edit → preview p50 ≤ 150 ms, p90 ≤
// 250 ms. Prints a table with the load average; merges its entries into bench/results/latest.json.
/* global document, requestAnimationFrame, PointerEvent, MutationObserver -- the measuring functions run in the page */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { chromium } from 'playwright-core';
import { buildServer, listen } from '../dist/http/server.js';
import { configFromEnv } from '../dist/service/config.js';
import { seedIfEmpty } from '../dist/service/seed.js';
import { Service } from '../dist/service/service.js';
import { mergeResults, printTable } from './report.mjs';

const RUNS = Number(process.env.BENCH_EDITOR_RUNS ?? 20);
const WARMUP = 3;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const loadNow = () => loadavg().map((l) => l.toFixed(2));
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-editor-'));
const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' }), { log: pino({ level: 'silent' }) });
const seed = await seedIfEmpty(service);
// The bench edits faster than a person: the plan's rate is not what it measures.
await service.setPlan(seed.accountId, { requests_per_minute: 1_000_000 });
const app = await buildServer(service);
const base = await listen(app, service);
const loadStart = loadNow();

const post = async (name, design) => {
  const res = await fetch(`${base}/public/v2/designs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seed.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, design }),
  });
  if (res.status !== 201) throw new Error(`${name}: ${res.status} ${await res.text()}`);
  return (await res.json()).design_id;
};
const text = (name, y) => ({ type: 'text', name, x: 80, y, width: 920, height: 160, text: 'Summer sale today', font_size: 72, color: '#1b2030' });
const post1080 = await post('bench post', {
  width: 1080,
  height: 1080,
  background: { type: 'color', color: '#f6f1ea' },
  objects: [{ type: 'shape', name: 'panel', x: 60, y: 600, width: 960, height: 400, background: { type: 'color', color: '#2f6fed' } }, text('headline', 120)],
});
const many = await post('bench 200 objects', {
  width: 1080,
  height: 1080,
  background: { type: 'color', color: '#ffffff' },
  objects: Array.from({ length: 200 }, (_, i) => ({
    type: 'shape',
    name: `box_${i}`,
    x: (i % 20) * 52 + 20,
    y: Math.floor(i / 20) * 100 + 20,
    width: 40,
    height: 80,
    background: { type: 'color', color: `#${(((i * 2654435761) >>> 8) & 0xffffff).toString(16).padStart(6, '0')}` },
  })),
});

/** In the page: from `act()` (run in the page) to the frame after the preview image changed and decoded. */
const untilPreview = (page, act) =>
  page.evaluate(
    (src) =>
      new Promise((resolve, reject) => {
        const current = () => document.querySelector('[data-testid=preview]');
        const old = current()?.getAttribute('src');
        const timer = setTimeout(() => reject(new Error('no new preview within 10 s')), 10_000);
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
          const img = current();
          if (!img || img.getAttribute('src') === old) return;
          obs.disconnect();
          img
            .decode()
            .then(() => requestAnimationFrame(() => (clearTimeout(timer), resolve(performance.now() - t0))))
            .catch(reject);
        });
        obs.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['src'], childList: true });
        new Function(src)();
      }),
    act,
  );

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
const entries = [];
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${base}/studio`);
  await page.getByLabel('API key').fill(seed.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForSelector('[data-testid=design-card]');

  // (1) edit → preview painted
  await page.goto(`${base}/studio#/designs/${post1080}/edit`);
  await page.waitForSelector('[data-testid=preview]');
  await page.locator('li[data-layer="headline"] .layer-name').click();
  await page.getByLabel('Text', { exact: true }).waitFor();
  const edits = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const ms = await untilPreview(
      page,
      `const el = document.querySelector('.properties textarea');
       const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
       set.call(el, 'Summer sale number ${i}');
       el.dispatchEvent(new Event('input', { bubbles: true }));`,
    );
    if (i >= WARMUP) edits.push(ms);
  }
  entries.push({
    name: 'editor: edit → engine preview painted (1080²)',
    runs: edits.length,
    p50: quantile(edits, 0.5),
    p90: quantile(edits, 0.9),
    goal: 'p50 ≤ 150, p90 ≤ 250 ms',
  });

  // (2) drag: one pointer move per frame; did the outline move by the next frame?
  const drag = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const el = document.querySelector('.overlay [data-object="panel"]');
        const overlay = document.querySelector('.overlay');
        const r = el.getBoundingClientRect();
        const x0 = r.left + 20;
        const y0 = r.top + 20;
        const opts = (x, y) => ({ bubbles: true, clientX: x, clientY: y, pointerId: 1, button: 0, buttons: 1, isPrimary: true });
        el.dispatchEvent(new PointerEvent('pointerdown', opts(x0, y0)));
        let moves = 0;
        let followed = 0;
        const t0 = performance.now();
        const step = () => {
          const before = el.isConnected ? el.style.left : '';
          moves++;
          overlay.dispatchEvent(new PointerEvent('pointermove', opts(x0 + moves * 2, y0 + moves)));
          requestAnimationFrame(() => {
            const now = document.querySelector('.overlay [data-object="panel"]');
            if (now && now.style.left !== before) followed++;
            if (moves < 120) step();
            else {
              overlay.dispatchEvent(new PointerEvent('pointerup', opts(x0 + moves * 2, y0 + moves)));
              resolve({ moves, followed, fps: (moves / (performance.now() - t0)) * 1000 });
            }
          });
        };
        step();
      }),
  );
  entries.push({
    name: 'editor: drag, outline follows the pointer',
    runs: drag.moves,
    p50: drag.fps,
    p90: (drag.followed / drag.moves) * 100,
    goal: 'display rate (frames/s; % of frames the outline moved)',
  });

  // (3) 200 objects: select, move, undo, each to the frame that shows it
  await page.goto(`${base}/studio#/designs/${many}/edit`);
  await page.waitForSelector('[data-testid=preview]');
  await page.waitForSelector('li[data-layer="box_199"]');
  const timed = (src) =>
    page.evaluate(
      (code) =>
        new Promise((resolve) => {
          const t0 = performance.now();
          new Function(code)();
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
        }),
      src,
    );
  const sel = [];
  const mov = [];
  const und = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const k = 100 + (i % 50);
    const a = await timed(`document.querySelector('li[data-layer="box_${k}"] .layer-name').click()`);
    const b = await timed(`window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }))`);
    const c = await timed(`window.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, bubbles: true }))`);
    if (i >= WARMUP) (sel.push(a), mov.push(b), und.push(c));
  }
  for (const [what, xs] of [
    ['select', sel],
    ['move (arrow key)', mov],
    ['undo (Ctrl+Z)', und],
  ])
    entries.push({
      name: `editor, 200 objects: ${what} → shown`,
      runs: xs.length,
      p50: quantile(xs, 0.5),
      p90: quantile(xs, 0.9),
      goal: 'usable: within a frame or two',
    });
} finally {
  await browser.close();
  await app.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}

const load = `${loadStart.join(' ')} → ${loadNow().join(' ')}`;
console.log(`template editor in Chromium, load average (1, 5, 15 min) ${load}`);
printTable(
  [
    ['case', (e) => e.name],
    ['runs', (e) => String(e.runs)],
    ['p50', (e) => e.p50.toFixed(1)],
    ['p90', (e) => e.p90.toFixed(1)],
    ['goal', (e) => e.goal],
  ],
  entries,
);
mergeResults(entries.map((e) => ({ name: e.name, unit: 'ms', runs: e.runs, p50: +e.p50.toFixed(1), p90: +e.p90.toFixed(1), goal: e.goal, load })));
