// The Studio end to end, as a person uses it: the real service (`imprint serve` on its embedded
// default, the example designs in a demo account) and Debian's Chromium driven by playwright-core.
// Sign in, see the designs, open card-1080, change the headline and see the preview change where the
// headline is, drag the photo and see x/y in the form, upload an image and use it, edit a chart cell,
// render a png (the downloaded file equals the API's render of the same request), render the promo
// as mp4 until done, import a design zip with an error and see it at its JSON path. No page shows a
// console error. Screenshots of the main views are goldens (golden/studio/, looked at), and Chromium
// is asked which fonts drew their text: only the two the Studio bundles. This file runs with the
// machine's fonts (CI installs DejaVu and Liberation for it); studio-e2e-bare-machine.test.ts runs it
// again on a machine with none, against the same goldens.
//
//   npx vitest run test/studio-e2e.test.ts                  compare
//   UPDATE_GOLDEN=1 npx vitest run test/studio-e2e.test.ts  rewrite golden/studio/*/expected.png
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertGolden, REPO_ROOT } from './support/golden-compare.js';
import {
  DEFAULT_SYSTEM_FONTS,
  fontsDrawn,
  openExample,
  openStudioBrowser,
  pickObject,
  startStudioService,
  type StudioBrowser,
  type StudioService,
} from './support/studio.js';
import { toolsAvailable } from './support/tools.js';
import { waitFor } from './support/wait.js';

let svc: StudioService;
let ui: StudioBrowser;
let page: Page;

const auth = () => ({ authorization: `Bearer ${svc.seed.apiKey}` });

/** The preview's pixels (decoded from the image element's source) cropped to a box in template pixels. */
async function previewBox(box: { x: number; y: number; width: number; height: number }, designWidth: number): Promise<Buffer> {
  const src = await page.getByTestId('preview').getAttribute('src');
  expect(src).toBeTruthy();
  const bytes = src!.startsWith('data:')
    ? Buffer.from(src!.slice(src!.indexOf(',') + 1), 'base64')
    : Buffer.from(
        await page.evaluate(async (u) => {
          const r = await fetch(u);
          return Array.from(new Uint8Array(await r.arrayBuffer()));
        }, src!),
      );
  const img = sharp(bytes);
  const { width } = await img.metadata();
  const k = width / designWidth;
  const region = { left: Math.round(box.x * k), top: Math.round(box.y * k), width: Math.round(box.width * k), height: Math.round(box.height * k) };
  return img.extract(region).raw().toBuffer();
}

/** Share of bytes (channels) that differ by more than 16 between two equal-sized raw crops. */
function changed(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 16) n++;
  return n / a.length;
}

/** Waits until the preview shows a new image (its source changed and it has decoded). */
async function nextPreview(before: string | null): Promise<void> {
  await page.waitForFunction(
    (old) => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=preview]');
      return !!img && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0;
    },
    before,
    { timeout: 15_000 },
  );
}

const previewSrc = () => page.getByTestId('preview').getAttribute('src');

const openDesign = (example: string) => openExample(page, svc, example);
const selectObject = (name: string) => pickObject(page, name);

/**
 * Every text on the page is drawn with the faces the Studio bundles, none with a font of the machine:
 * asked of Chromium's layout, so a fallback for one character would show here.
 */
async function onlyBundledFonts(): Promise<void> {
  const fonts = await fontsDrawn(page);
  expect(fonts.filter((f) => !f.webFont || !['Inter', 'JetBrains Mono'].includes(f.family))).toEqual([]);
  expect(fonts.length).toBeGreaterThan(0);
}

/** Says which run this is: with the machine's fonts, or on a bare machine (studio-e2e-bare-machine.test.ts). */
const SUITE = `Studio in Chromium (system fonts: ${DEFAULT_SYSTEM_FONTS})`;

function noConsoleErrors(except: RegExp[] = []): void {
  const left = ui.errors.filter((e) => !except.some((r) => r.test(e)));
  ui.errors.length = 0;
  expect(left).toEqual([]);
}

describe.skipIf(!toolsAvailable(['chromium'], 'the Studio end-to-end test drives Chromium'))(SUITE, () => {
  beforeAll(async () => {
    svc = await startStudioService();
    // The walk-through below sends ~50 requests in a few seconds (thumbnails, previews, renders): more
    // than the basic plan's 50 a minute. Its pacing on a tight plan has a test of its own at the end.
    await svc.service.setPlan(svc.seed.accountId, { requests_per_minute: 600 });
    ui = await openStudioBrowser();
    page = ui.page;
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
    await svc?.close();
  }, 60_000);

  it.runIf(process.env.CI === 'true' && DEFAULT_SYSTEM_FONTS === 'machine')(
    'runs on a machine with system fonts (CI installs DejaVu and Liberation), so the goldens prove the page ignores them',
    () => {
      const families = execFileSync('fc-list', [':', 'family'], { encoding: 'utf8' });
      expect(families).toMatch(/DejaVu Sans/);
      expect(families).toMatch(/Liberation (Sans|Serif|Mono)/);
    },
  );

  it('refuses a wrong key with a message, then signs in with the demo key and shows the designs', async () => {
    await page.goto(`${svc.base}/studio`);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not known|unauthorized|key/i);
    noConsoleErrors([/status of 401/]);

    await page.getByLabel('API key').fill(svc.seed.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const cards = page.getByTestId('design-card');
    await expect.poll(() => cards.count()).toBe(svc.seed.designs.length);
    // The key stays in the tab's session storage, never in the address.
    expect(page.url()).not.toContain(svc.seed.apiKey);
    expect(await page.evaluate(() => Object.values(sessionStorage).join(' '))).toContain(svc.seed.apiKey);
    const card = page.locator(`[data-testid=design-card][data-design-id="${svc.designId('card-1080')}"]`);
    await expect.poll(() => card.textContent()).toMatch(/card-1080/);
    expect(await card.textContent()).toMatch(/1080 × 1080/);
    expect(await card.textContent()).toMatch(/image/);
    expect(await page.locator(`[data-testid=design-card][data-design-id="${svc.designId('slides-video')}"]`).textContent()).toMatch(/video/);
    expect(await page.locator(`[data-testid=design-card][data-design-id="${svc.designId('promo-15s')}"]`).textContent()).toMatch(/animated/);
    // Every card gets its thumbnail, a real picture.
    await page.waitForFunction(
      () => {
        const cards = document.querySelectorAll('[data-testid=design-card]');
        const imgs = [...document.querySelectorAll<HTMLImageElement>('[data-testid=design-card] img')];
        return imgs.length === cards.length && imgs.every((i) => i.complete && i.naturalWidth > 0);
      },
      undefined,
      { timeout: 30_000 },
    );
    await assertGolden(await page.screenshot(), { area: 'studio', name: 'designs', dir: join(REPO_ROOT, 'golden', 'studio', 'designs') });
    await onlyBundledFonts();
    noConsoleErrors();
  }, 60_000);

  it('outlines named objects, lists them for the keyboard, and re-renders the headline where it is', async () => {
    await openDesign('card-1080');
    // Hover shows the object's outline with its name and type.
    const headline = page.locator('[data-object="headline"]');
    expect(await headline.getAttribute('aria-label')).toBe('headline (text)');
    await headline.hover();
    // The list works with the keyboard: focus it, then the arrows move the selection.
    const list = page.getByRole('listbox', { name: 'Objects' });
    await list.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    const selected = list.locator('[aria-selected=true]');
    expect(await selected.count()).toBe(1);
    expect(await selected.textContent()).toMatch(/^brand_pill/);

    await selectObject('headline');
    const box = { x: 72, y: 732, width: 740, height: 150 };
    const before = await previewBox(box, 1080);
    const photoArea = { x: 0, y: 0, width: 1080, height: 600 };
    const photoBefore = await previewBox(photoArea, 1080);
    const src = await previewSrc();
    await page.getByLabel('Text', { exact: true }).fill('A completely different headline');
    await nextPreview(src);
    const after = await previewBox(box, 1080);
    expect(changed(before, after)).toBeGreaterThan(0.02);
    // Elsewhere (the photo) nothing moved.
    expect(changed(photoBefore, await previewBox(photoArea, 1080))).toBe(0);
    // The fit report of the selected text object.
    await expect.poll(() => page.getByTestId('fit-report').textContent()).toMatch(/\d+(\.\d+)?\s*px/);
    // What changes from run to run (the preview's time, the server's port in the request) is masked.
    const varying = [page.getByTestId('preview-time'), page.getByTestId('request-url'), page.getByTestId('request-curl')];
    await assertGolden(await page.screenshot({ mask: varying }), {
      area: 'studio',
      name: 'design-view',
      dir: join(REPO_ROOT, 'golden', 'studio', 'design-view'),
    });
    await onlyBundledFonts();
    noConsoleErrors();
  }, 60_000);

  it('moves the photo by dragging it and shows the new x and y in the form', async () => {
    await openDesign('card-1080');
    await selectObject('photo');
    const outline = page.locator('[data-object="photo"]');
    const b = (await outline.boundingBox())!;
    const scale = b.width / 1080;
    const src = await previewSrc();
    const start = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 60, start.y + 40, { steps: 6 });
    await page.mouse.up();
    // The placement fields (the photo's crop and focal point have an x and a y of their own).
    await expect.poll(async () => Number(await page.locator('input[data-field="x"]').inputValue())).toBeCloseTo(60 / scale, -1);
    expect(Number(await page.locator('input[data-field="y"]').inputValue())).toBeCloseTo(40 / scale, -1);
    await nextPreview(src);
    noConsoleErrors();
  }, 60_000);

  it('uploads an image and uses it as the photo', async () => {
    await openDesign('card-1080');
    await selectObject('photo');
    const red = await sharp({ create: { width: 800, height: 480, channels: 3, background: '#e02020' } })
      .png()
      .toBuffer();
    const src = await previewSrc();
    await page.getByLabel('Upload image').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: red });
    await nextPreview(src);
    const photo = await previewBox({ x: 300, y: 200, width: 200, height: 100 }, 1080);
    // The middle of the photo is now the uploaded red.
    const mean = [0, 1, 2].map((c) => {
      let sum = 0;
      for (let i = c; i < photo.length; i += 3) sum += photo[i]!;
      return sum / (photo.length / 3);
    });
    expect(mean[0]).toBeGreaterThan(200);
    expect(mean[1]).toBeLessThan(60);
    expect(mean[2]).toBeLessThan(60);
    const options = await page.getByLabel('Earlier uploads').locator('option').allTextContents();
    expect(options.length).toBeGreaterThan(0);
    noConsoleErrors();
  }, 60_000);

  it('edits a chart cell, refuses a non-number there, and re-renders the chart', async () => {
    await openDesign('chart-report');
    await selectObject('sales');
    const box = { x: 96, y: 528, width: 888, height: 424 };
    const before = await previewBox(box, 1080);
    const src = await previewSrc();
    const cell = page.getByLabel('Cell 1,1', { exact: true });
    await cell.fill('1');
    await nextPreview(src);
    expect(changed(before, await previewBox(box, 1080))).toBeGreaterThan(0.001);
    await cell.fill('abc');
    expect(await cell.getAttribute('aria-invalid')).toBe('true');
    noConsoleErrors();
  }, 60_000);

  it('renders a png whose download equals the API render of the request it shows', async () => {
    await openDesign('card-1080');
    await selectObject('headline');
    const src = await previewSrc();
    await page.getByLabel('Text', { exact: true }).fill('Rendered from the Studio');
    await nextPreview(src);
    await page.getByLabel('Format').selectOption('png');
    await page.getByRole('button', { name: 'Render' }).click();
    await expect.poll(() => page.getByTestId('task-state').textContent(), { timeout: 60_000 }).toMatch(/done/);
    const href = await page.getByRole('link', { name: 'Download result' }).getAttribute('href');
    const studioPng = Buffer.from(await (await fetch(new URL(href!, svc.base))).arrayBuffer());
    expect(studioPng.subarray(1, 4).toString()).toBe('PNG');
    // The download is named after the design (the service's own name is task-<id>.png), same bytes.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download result' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^card-1080-task-\d+\.png$/);
    expect((await readFile(await download.path())).equals(studioPng)).toBe(true);

    // The request the Studio shows, sent as is: the same bytes.
    const shown = JSON.parse((await page.getByTestId('request-json').textContent())!) as Record<string, unknown>;
    expect(shown.design_id).toBe(svc.designId('card-1080'));
    const curl = (await page.getByTestId('request-curl').textContent())!;
    expect(curl).toContain('$IMPRINT_API_KEY');
    expect(curl).not.toContain(svc.seed.apiKey);
    const r = await fetch(`${svc.base}/public/v2/render`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify(shown),
    });
    expect(r.status).toBe(202);
    const { task_id } = (await r.json()) as { task_id: number };
    const done = await waitFor(
      'the API render',
      async () => {
        const t = await svc.service.getRenderTask(svc.seed.accountId, String(task_id));
        return t.state === 'done' || t.state === 'error' ? t : undefined;
      },
      60_000,
    );
    expect(done.state).toBe('done');
    const apiPng = await svc.service.resultBytes(svc.seed.accountId, task_id);
    expect(apiPng!.equals(studioPng)).toBe(true);
    noConsoleErrors();
  }, 120_000);

  it('renders the promo as mp4, shows its progress moving, and the task reach done', async () => {
    await openDesign('promo-15s');
    await page.getByLabel('Format').selectOption('mp4');
    await page.getByRole('button', { name: 'Render' }).click();
    // The progress bar appears part-way and moves on (frames from the task's events stream).
    const bar = () =>
      page.evaluate(() => {
        const el = document.querySelector<HTMLProgressElement>('[data-testid=task-progress]');
        return el ? { value: el.value, text: el.parentElement?.textContent ?? '' } : null;
      });
    const partWay = async (above: number) =>
      page.waitForFunction(
        (min) => {
          const el = document.querySelector<HTMLProgressElement>('[data-testid=task-progress]');
          return !!el && el.value > min && el.value < 1;
        },
        above,
        { timeout: 120_000, polling: 100 },
      );
    await partWay(0);
    const first = (await bar())!;
    expect(first.text).toMatch(/\d+ of 450 frames · \d+ %/);
    await partWay(first.value);
    await expect.poll(() => page.getByTestId('task-state').textContent(), { timeout: 240_000, interval: 500 }).toMatch(/done/);
    const href = await page.getByRole('link', { name: 'Download result' }).getAttribute('href');
    expect(href).toMatch(/\.mp4$/);
    noConsoleErrors();
  }, 300_000);

  it('scrubs a video design, lists its slides, and shows a replaced slide background in the preview', async () => {
    await openDesign('slides-video');
    const slides = page.getByTestId('slide');
    expect(await slides.count()).toBe(5);
    expect(await slides.nth(2).textContent()).toMatch(/city/);
    // The scrubber: another moment is another picture.
    const corner = { x: 0, y: 0, width: 1920, height: 300 };
    const atStart = await previewBox(corner, 1920);
    let src = await previewSrc();
    await page.getByLabel('Time').fill('7.5');
    await nextPreview(src);
    const inCity = await previewBox(corner, 1920);
    expect(changed(atStart, inCity)).toBeGreaterThan(0.05);
    // The city slide's background replaced by an upload: the preview at that moment shows it.
    const green = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#10c040' } })
      .png()
      .toBuffer();
    src = await previewSrc();
    await page.getByLabel('Background of slide city').setInputFiles({ name: 'green.png', mimeType: 'image/png', buffer: green });
    await nextPreview(src);
    const replaced = await previewBox(corner, 1920);
    expect(changed(inCity, replaced)).toBeGreaterThan(0.05);
    // Mostly green now, under whatever the slide draws on top.
    let g = 0;
    for (let i = 0; i < replaced.length; i += 3) if (replaced[i + 1]! > replaced[i]! + 40 && replaced[i + 1]! > replaced[i + 2]! + 40) g++;
    expect(g / (replaced.length / 3)).toBeGreaterThan(0.3);
    noConsoleErrors();
  }, 60_000);

  it('lists the tasks with their state and result links', async () => {
    await page.goto(`${svc.base}/studio#/tasks`);
    const rows = page.getByTestId('task-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    expect(await rows.first().textContent()).toMatch(/done/);
    expect(await rows.first().getByRole('link', { name: 'Result' }).count()).toBe(1);
    // The picture is taken once the page has settled: every task finished (none still rendering) and
    // every row's design named (the design list loads beside the tasks and may arrive after them).
    await expect.poll(() => page.locator('[data-testid=task-row] .state:not(.done):not(.error)').count()).toBe(0);
    await expect.poll(async () => (await page.locator('[data-testid=task-row] a[href^="#/designs/"]').count()) === (await rows.count())).toBe(true);
    // Every image result's thumbnail has loaded and decoded before the picture is taken.
    await page.waitForFunction(() => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>('img[data-testid=task-thumb]')];
      return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
    });
    // Times vary, and so do the thumbnails: they show what the earlier tests' edits rendered, which a
    // loaded machine can catch a frame apart (a drag's last move); that they load is checked above.
    await assertGolden(await page.screenshot({ mask: [page.getByTestId('task-time'), page.locator('img[data-testid=task-thumb]')] }), {
      area: 'studio',
      name: 'tasks',
      dir: join(REPO_ROOT, 'golden', 'studio', 'tasks'),
    });
    await onlyBundledFonts();
    noConsoleErrors();
  }, 60_000);

  it('imports a design zip with an error and shows the error at its JSON path', async () => {
    await page.goto(`${svc.base}/studio#/import`);
    const design = {
      schema: 'imprint/design@1',
      width: 400,
      height: 300,
      objects: [{ type: 'text', name: 'title', x: 0, y: 0, width: 400, height: 100, text: 'Hi', font_size: -5 }],
    };
    const zip = Buffer.from(zipSync({ 'design.json': strToU8(JSON.stringify(design)) }));
    await page.getByLabel('Design zip').setInputFiles({ name: 'bad.zip', mimeType: 'application/zip', buffer: zip });
    await page.getByRole('button', { name: 'Import' }).click();
    const errors = page.getByTestId('import-errors');
    await expect.poll(() => errors.locator('li code').first().textContent()).toBe('$.objects[0].font_size');
    noConsoleErrors([/status of 400/]);
  }, 60_000);
  it('imports a Polotno .json and opens it with its elements as named objects', async () => {
    await page.goto(`${svc.base}/studio#/import`);
    const polotno = {
      width: 600,
      height: 400,
      schemaVersion: 4,
      pages: [
        {
          background: '#10131c',
          children: [
            { type: 'figure', name: 'panel', x: 40, y: 40, width: 520, height: 320, fill: '#2f6fed', cornerRadius: 24 },
            { type: 'text', name: 'headline', x: 80, y: 160, width: 440, text: 'From Polotno', fontFamily: 'Inter', fontSize: 56, fill: 'white' },
          ],
        },
      ],
    };
    await page.getByLabel('Design zip').setInputFiles({ name: 'polotno.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(polotno)) });
    await page.getByLabel('Name').fill('From the editor');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.waitForURL(/#\/designs\/\d+/);
    const list = page.getByRole('listbox');
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual([expect.stringContaining('panel'), expect.stringContaining('headline')]);
    noConsoleErrors();
  }, 60_000);

  it('shows design and object names that hold HTML and script as text, running none of it', async () => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const objectName = '<script>window.__pwned=2</script>';
    const d = await svc.service.importDesign(
      svc.seed.accountId,
      {
        schema: 'imprint/design@1',
        width: 400,
        height: 200,
        background: { type: 'color', color: '#ffffff' },
        objects: [{ type: 'text', name: objectName, x: 10, y: 10, width: 380, height: 100, text: 'Hi', font_size: 40 }],
      },
      { name: evil },
    );
    const dialogs: string[] = [];
    page.on('dialog', (dlg) => {
      dialogs.push(dlg.message());
      void dlg.dismiss();
    });
    await page.goto(`${svc.base}/studio#/`);
    const card = page.locator(`[data-testid=design-card][data-design-id="${d.id}"]`);
    await expect.poll(() => card.textContent()).toContain(evil);
    await page.goto(`${svc.base}/studio#/designs/${d.id}`);
    const option = page.getByRole('listbox', { name: 'Objects' }).getByRole('option').first();
    await expect.poll(() => option.textContent()).toContain(objectName);
    expect(await page.locator(`[data-object="${objectName.replace(/"/g, '\\"')}"]`).getAttribute('aria-label')).toBe(`${objectName} (text)`);
    // Nothing from the names became markup or ran.
    expect(await page.locator('img[src=x]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    noConsoleErrors();
  }, 60_000);

  it('on a plan of few requests a minute, pauses previews before the limit and says so, instead of meeting 429s', async () => {
    const tight = await svc.service.createAccount({ name: 'tight', plan: 'basic' });
    await svc.service.setPlan(tight.account.id, { requests_per_minute: 12 });
    const d = await svc.service.importDesign(tight.account.id, JSON.parse(await readFile(join(REPO_ROOT, 'examples/banner-1200x628/design.json'), 'utf8')), {
      baseDir: join(REPO_ROOT, 'examples/banner-1200x628'),
      name: 'banner',
    });
    const other = await ui.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p = await other.newPage();
    const responses: number[] = [];
    p.on('response', (r) => responses.push(r.status()));
    try {
      await p.goto(`${svc.base}/studio`);
      await p.getByLabel('API key').fill(tight.apiKey);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByTestId('design-card').first().waitFor();
      await p.goto(`${svc.base}/studio#/designs/${d.id}`);
      const name = (await svc.service.getDesign(tight.account.id, d.id)).template as { objects: { name?: string; type: string }[] };
      const text = name.objects.find((o) => o.type === 'text' && o.name)!.name!;
      await p
        .getByRole('listbox', { name: 'Objects' })
        .getByRole('option', { name: new RegExp(`^${text}\\b`) })
        .click();
      const field = p.getByLabel('Text', { exact: true });
      // One edit per preview until the Studio holds them back.
      for (let i = 0; i < 12; i++) {
        const before = await p.getByTestId('preview').getAttribute('src');
        await field.fill(`Edit number ${i}`);
        const paused = await Promise.race([
          p
            .getByRole('status')
            .filter({ hasText: "paused by the plan's rate limit" })
            .waitFor({ timeout: 15_000 })
            .then(() => true),
          p
            .waitForFunction((old) => document.querySelector('[data-testid=preview]')?.getAttribute('src') !== old, before, { timeout: 15_000 })
            .then(() => false),
        ]);
        if (paused) break;
      }
      expect(await p.getByRole('status').filter({ hasText: "paused by the plan's rate limit" }).count()).toBe(1);
      // The Studio never ran into the limit itself, and the requests it kept back are still there for a render.
      expect(responses.filter((s) => s === 429)).toEqual([]);
      await p.getByLabel('Format').selectOption('png');
      await p.getByRole('button', { name: 'Render' }).click();
      await expect.poll(() => p.getByTestId('task-state').textContent(), { timeout: 60_000 }).toMatch(/queued|pending|done/);
      expect(responses.filter((s) => s === 429)).toEqual([]);
    } finally {
      await other.close();
    }
    noConsoleErrors();
  }, 120_000);
});
