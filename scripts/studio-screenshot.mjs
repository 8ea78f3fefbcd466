// Takes the Studio screenshot the README shows (docs/images/studio.png): the service as `npm start`
// runs it, on a temp dir with the example designs, and Debian's Chromium (CHROMIUM_PATH) through
// playwright-core, card-1080 open with its headline selected and edited. Run after `npm run build`:
//   node scripts/studio-screenshot.mjs              rewrite docs/images/studio.png
//   node scripts/studio-screenshot.mjs <file.png>   write it elsewhere
// test/studio-readme-screenshot.test.ts takes it again with studioScreenshot() and compares it with the
// README's, so a change to the Studio that shows is a change to this picture too.
/* global document -- the wait runs in the page */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';

/** The README's picture. */
export const README_SCREENSHOT = join(import.meta.dirname, '..', 'docs', 'images', 'studio.png');

/** The viewport it is taken at. */
export const VIEWPORT = { width: 1440, height: 900 };

/** Chromium's flags: those of the Studio tests (test/support/studio.ts), so both draw text alike. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'];

/** What differs from one run to the next: the preview's time and the server's port in the request panel. */
const VARYING = ['preview-time', 'request-url', 'request-curl'];

/**
 * Signs in on `page` (a fresh page of VIEWPORT size), opens the design `designId` with its headline
 * selected and edited, the photo hovered, and returns the screenshot as the README keeps it (a
 * palette png: a quarter of the bytes, no visible difference for an interface) with the boxes, in
 * page pixels, of the parts that vary from run to run.
 *
 * @param {import('playwright-core').Page} page
 * @param {{ base: string, apiKey: string, designId: number }} at the service's address, a key, card-1080's id
 * @returns {Promise<{ png: Buffer, varying: { x: number, y: number, width: number, height: number }[] }>}
 */
export async function studioScreenshot(page, { base, apiKey, designId }) {
  await page.goto(`${base}/studio`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForSelector('[data-testid=design-card]');
  await page.goto(`${base}/studio#/designs/${designId}`);
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
  const png = await sharp(await page.screenshot())
    .png({ palette: true, quality: 90, effort: 10 })
    .toBuffer();
  const varying = [];
  for (const id of VARYING) {
    const box = await page.getByTestId(id).boundingBox();
    if (box) varying.push(box);
  }
  return { png, varying };
}

/** The service as `npm start` runs it (from dist/), on a temp dir seeded with the examples, and the screenshot written to `out`. */
async function main(out) {
  const { pino } = await import('pino');
  const { chromium } = await import('playwright-core');
  const { buildServer, listen } = await import('../dist/http/server.js');
  const { configFromEnv } = await import('../dist/service/config.js');
  const { seedIfEmpty } = await import('../dist/service/seed.js');
  const { Service } = await import('../dist/service/service.js');
  const dir = mkdtempSync(join(tmpdir(), 'imprint-shot-'));
  const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1' }), {
    log: pino({ level: 'silent' }),
  });
  const seed = await seedIfEmpty(service);
  const app = await buildServer(service);
  const base = await listen(app, service);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    const card = seed.designs.find((d) => d.example === 'card-1080');
    const { png } = await studioScreenshot(page, { base, apiKey: seed.apiKey, designId: card.id });
    writeFileSync(out, png);
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
    await app.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv[2] ? resolve(process.argv[2]) : README_SCREENSHOT);
}
