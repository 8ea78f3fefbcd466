// Takes the Studio screenshot the README shows (docs/images/studio.png): the service as `npm start`
// runs it, on a temp dir with the example designs, and Debian's Chromium (CHROMIUM_PATH) through
// playwright-core, card-1080 open with its headline selected and edited. Run after `npm run build`:
//   node scripts/studio-screenshot.mjs
/* global document -- the wait runs in the page */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { buildServer, listen } from '../dist/http/server.js';
import { configFromEnv } from '../dist/service/config.js';
import { seedIfEmpty } from '../dist/service/seed.js';
import { Service } from '../dist/service/service.js';

const OUT = join(import.meta.dirname, '..', 'docs', 'images', 'studio.png');
const dir = mkdtempSync(join(tmpdir(), 'imprint-shot-'));
const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' }), {
  log: pino({ level: 'silent' }),
});
const seed = await seedIfEmpty(service);
const app = await buildServer(service);
const base = await listen(app, service);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${base}/studio`);
  await page.getByLabel('API key').fill(seed.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForSelector('[data-testid=design-card]');
  const card = seed.designs.find((d) => d.example === 'card-1080');
  await page.goto(`${base}/studio#/designs/${card.id}`);
  await page
    .getByRole('listbox', { name: 'Objects' })
    .getByRole('option', { name: /^headline\b/ })
    .click();
  const before = await page.getByTestId('preview').getAttribute('src');
  await page.getByLabel('Text', { exact: true }).fill('Chase the <substyle color="#e4572e">midnight sun</substyle>\nacross the fjords');
  await page.waitForFunction((old) => {
    const img = document.querySelector('[data-testid=preview]');
    return img && img.getAttribute('src') !== old && img.complete;
  }, before);
  await page.locator('[data-object="photo"]').hover();
  // A palette png: a quarter of the bytes, no visible difference for an interface.
  await sharp(await page.screenshot())
    .png({ palette: true, quality: 90, effort: 10 })
    .toFile(OUT);
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await app.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
