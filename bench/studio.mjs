// Bench of the Studio's edit loop (run by `npm run bench` after bench/preview.mjs, or alone with
// `node bench/studio.mjs` after `npm run build`): the time from a change in the form to the new
// preview painted, as a person at the Studio sees it. The service runs in this process as `imprint
// serve` builds it (embedded default in a temp dir, the example designs seeded into the demo account),
// Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) driven by playwright-core opens
// card-1080 at 1440×900, selects the headline, and BENCH_STUDIO_RUNS (20) times, after
// BENCH_STUDIO_WARMUP (3), sets a new headline in its text field. Measured in the page: from the
// input event to the frame after the new preview image has decoded (MutationObserver on the preview,
// img.decode(), requestAnimationFrame), so the Studio's debounce, the request, the server's render
// and the browser's decode all count. Goal (issue 17): median ≤ 250 ms on this machine. Prints a
// table and the load average; merges its entry into bench/results/latest.json.
/* global document, MutationObserver, requestAnimationFrame, Event -- the measuring function runs in the page */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { chromium } from 'playwright-core';
import { buildServer, listen } from '../dist/http/server.js';
import { configFromEnv } from '../dist/service/config.js';
import { seedIfEmpty } from '../dist/service/seed.js';
import { Service } from '../dist/service/service.js';
import { mergeResults, printTable } from './report.mjs';

const RUNS = Number(process.env.BENCH_STUDIO_RUNS ?? 20);
const WARMUP = Number(process.env.BENCH_STUDIO_WARMUP ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const GOAL_MS = 250;

const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const dir = mkdtempSync(join(tmpdir(), 'imprint-bench-studio-'));
const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' });
const service = await Service.open(config, { log: pino({ level: 'silent' }) });
const seed = await seedIfEmpty(service);
const app = await buildServer(service);
const base = await listen(app, service);
const card = seed.designs.find((d) => d.example === 'card-1080');
const loadStart = loadNow();

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
const times = [];
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${base}/studio`);
  await page.getByLabel('API key').fill(seed.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForSelector('[data-testid=design-card]');
  await page.goto(`${base}/studio#/designs/${card.id}`);
  await page
    .getByRole('listbox', { name: 'Objects' })
    .getByRole('option', { name: /^headline\b/ })
    .click();
  const field = page.getByLabel('Text', { exact: true });
  await field.waitFor();
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const ms = await field.evaluate(
      (el, text) =>
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
              .then(() =>
                requestAnimationFrame(() => {
                  clearTimeout(timer);
                  resolve(performance.now() - t0);
                }),
              )
              .catch(reject);
          });
          obs.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
          // What typing does: the value changes and an input event bubbles.
          const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value').set;
          setter.call(el, text);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      `Headline number ${i}: a weekend in Oslo`,
    );
    if (i >= WARMUP) times.push(ms);
  }
} finally {
  await browser.close();
  await app.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}

const entry = {
  name: 'studio form change → preview painted (card-1080)',
  runs: times.length,
  median_ms: Number(quantile(times, 0.5).toFixed(1)),
  p90_ms: Number(quantile(times, 0.9).toFixed(1)),
  min_ms: Number(Math.min(...times).toFixed(1)),
  goal_ms: GOAL_MS,
  load: `${loadStart} → ${loadNow()}`,
  cores: availableParallelism(),
};
printTable(
  [
    ['case', (e) => e.name],
    ['runs', (e) => String(e.runs)],
    ['median ms', (e) => e.median_ms.toFixed(1)],
    ['p90 ms', (e) => e.p90_ms.toFixed(1)],
    ['min ms', (e) => e.min_ms.toFixed(1)],
    ['goal ms', (e) => String(e.goal_ms)],
    ['load', (e) => e.load],
  ],
  [entry],
);
mergeResults([entry]);
