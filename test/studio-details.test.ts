// The Studio's details as a person sees them, in Debian's Chromium against the real service (the
// example designs in a demo account): whole-design thumbnails, one clear message for a wrong key, name
// tags beside the object they name, an object list as tall as its objects, a chart table without a
// horizontal scroll, outlines inside the canvas, a usable editor at 1024 × 700, the render formats
// interface A takes, downloads named after the design, the task list's words and thumbnails, human
// field labels and the value a select leaves in use. Every check waits for its condition; the page's
// font is the bundled Inter, so no result depends on the machine's fonts.
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openExample,
  openStudioBrowser,
  pickObject,
  previewShown,
  signIn as signInAs,
  startStudioService,
  type StudioBrowser,
  type StudioService,
} from './support/studio.js';
import { toolsAvailable } from './support/tools.js';
import { waitFor } from './support/wait.js';

// The font picker's test installs a Google Fonts family: into a font folder of this file's own, not the
// run's shared one (vitest.config.ts), read when the service first looks a family up.
process.env.IMPRINT_FONTS_DIR = mkdtempSync(join(tmpdir(), 'imprint-studio-fonts-'));

let svc: StudioService;
let ui: StudioBrowser;
let page: Page;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The element's bounding box, failing the test when it is not shown. */
async function rect(locator: ReturnType<Page['locator']>): Promise<Rect> {
  const b = await locator.boundingBox();
  expect(b, 'element is shown').not.toBeNull();
  return b!;
}

/** `inner` lies within `outer` (half a pixel of rounding allowed). */
function within(inner: Rect, outer: Rect): boolean {
  const e = 0.5;
  return (
    inner.x >= outer.x - e &&
    inner.y >= outer.y - e &&
    inner.x + inner.width <= outer.x + outer.width + e &&
    inner.y + inner.height <= outer.y + outer.height + e
  );
}

/** The two boxes share no area (touching edges allowed). */
function apart(a: Rect, b: Rect): boolean {
  const e = 0.5;
  return a.x + a.width <= b.x + e || b.x + b.width <= a.x + e || a.y + a.height <= b.y + e || b.y + b.height <= a.y + e;
}

const signIn = (p: Page) => signInAs(p, svc);
const openDesign = (p: Page, example: string) => openExample(p, svc, example);

/** Selects the object and waits until the canvas shows it selected. */
async function selectObject(p: Page, name: string): Promise<void> {
  await pickObject(p, name);
  await p.locator(`.obj.selected[data-object="${name}"]`).waitFor();
}

function noConsoleErrors(except: RegExp[] = []): void {
  const left = ui.errors.filter((e) => !except.some((r) => r.test(e)));
  ui.errors.length = 0;
  expect(left).toEqual([]);
}

describe.skipIf(!toolsAvailable(['chromium'], 'the Studio detail tests drive Chromium'))('Studio details in Chromium', () => {
  beforeAll(async () => {
    svc = await startStudioService();
    // Thumbnails, previews and renders of several designs in a few seconds: more than the basic
    // plan's 50 requests a minute (pacing has its own test in studio-e2e).
    await svc.service.setPlan(svc.seed.accountId, { requests_per_minute: 600 });
    ui = await openStudioBrowser();
    page = ui.page;
    await signIn(page);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
    await svc?.close();
  }, 60_000);

  it('answers a wrong key with one clear message, and says nothing about storage', async () => {
    const fresh = await ui.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p = await fresh.newPage();
    try {
      await p.goto(`${svc.base}/studio`);
      expect(await p.locator('body').innerText()).not.toMatch(/sessionStorage/i);
      await p.getByLabel('API key').fill('imp_not-a-key-at-all');
      await p.getByRole('button', { name: 'Sign in' }).click();
      const alert = p.getByRole('alert');
      await alert.first().waitFor();
      await expect.poll(() => p.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
      expect(await alert.count()).toBe(1);
      expect(await p.locator('.notice').count()).toBe(0);
      expect(await alert.innerText()).toMatch(/^This key is not known\. Check it, or create one with npx imprint admin create-key .* --role admin\.$/);
      expect(await p.locator('body').innerText()).not.toMatch(/sessionStorage|unauthorized|signed out/i);
    } finally {
      await fresh.close();
    }
  }, 60_000);

  it('shows each design whole in its card: the thumbnail is letterboxed, not cropped', async () => {
    await page.goto(`${svc.base}/studio#/`);
    await page.waitForFunction(
      () => {
        const imgs = [...document.querySelectorAll<HTMLImageElement>('[data-testid=design-card] .thumb img')];
        return imgs.length === document.querySelectorAll('[data-testid=design-card]').length && imgs.every((i) => i.complete && i.naturalWidth > 0);
      },
      undefined,
      { timeout: 30_000 },
    );
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid=design-card] .thumb img')].map((img) => {
        const box = img.parentElement!.getBoundingClientRect();
        const r = img.getBoundingClientRect();
        // Where object-fit puts the picture inside the element.
        const k = Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight);
        const fit = getComputedStyle(img).objectFit;
        const pic = fit === 'contain' ? { width: img.naturalWidth * k, height: img.naturalHeight * k } : { width: r.width, height: r.height };
        return {
          alt: img.alt,
          element: { x: r.x, y: r.y, width: r.width, height: r.height },
          box: { x: box.x, y: box.y, width: box.width, height: box.height },
          fit,
          aspect: [pic.width / pic.height, img.naturalWidth / img.naturalHeight],
        };
      }),
    );
    expect(shown.length).toBe(svc.seed.designs.length);
    for (const s of shown) {
      expect(within(s.element, s.box), `${s.alt}: the picture stays inside its card`).toBe(true);
      expect(s.fit, s.alt).toBe('contain');
      expect(s.aspect[0], `${s.alt}: the design's own proportions`).toBeCloseTo(s.aspect[1]!, 2);
    }
    // The story (1080 × 1920) is portrait: bands either side, its full height shown.
    const story = shown.find((s) => s.alt.includes('story-1080x1920'))!;
    expect(story.aspect[0]).toBeLessThan(1);
    noConsoleErrors();
  }, 60_000);

  it('puts each name tag outside the outline it names and on the stage, for every object', async () => {
    for (const example of ['card-1080', 'mockup-phone']) {
      await openDesign(page, example);
      const stage = await rect(page.locator('.stage'));
      const names = await page.locator('[data-object]').evaluateAll((els) => els.map((e) => e.getAttribute('data-object')!));
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        await selectObject(page, name);
        const outline = page.locator(`.obj.selected[data-object="${name}"]`);
        const box = await rect(outline);
        const tag = await rect(outline.locator('.obj-label'));
        expect(apart(tag, box), `${example}/${name}: the tag does not cover its object`).toBe(true);
        expect(within(tag, stage), `${example}/${name}: the tag is on the stage, not cut off`).toBe(true);
      }
    }
    // Hover shows the same kind of tag: card-1080's photo starts at the top, so its tag goes below.
    await openDesign(page, 'card-1080');
    const photo = page.locator('[data-object="photo"]');
    await page.locator('[data-object="photo"]').hover({ position: { x: 20, y: 20 } });
    const tag = photo.locator('.obj-label');
    await expect.poll(() => tag.isVisible()).toBe(true);
    const [t, b] = [await rect(tag), await rect(photo)];
    expect(apart(t, b)).toBe(true);
    expect(t.y).toBeGreaterThanOrEqual(b.y + b.height - 0.5);
    noConsoleErrors();
  }, 90_000);

  it("keeps the mockup's selection box inside the canvas though the mockup reaches past it", async () => {
    await openDesign(page, 'mockup-phone');
    await selectObject(page, 'phone');
    const canvas = await rect(page.locator('.canvas'));
    const box = await rect(page.locator('.obj.selected[data-object="phone"]'));
    expect(within(box, canvas)).toBe(true);
    // It covers the canvas's width: the mockup spans it.
    expect(box.width).toBeCloseTo(canvas.width, 0);
    noConsoleErrors();
  }, 60_000);

  it('grows the object list with its objects instead of a fixed small box', async () => {
    await openDesign(page, 'card-1080');
    const list = page.getByRole('listbox', { name: 'Objects' });
    const sizes = () => list.evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight, options: el.querySelectorAll('[role=option]').length }));
    const card = await sizes();
    // card-1080's 11 objects all show, with no scroll inside the list.
    expect(card.options).toBe(11);
    expect(card.scroll).toBeLessThanOrEqual(card.client + 1);
    // chart-report's 27 take more than the old 290 px box.
    await openDesign(page, 'chart-report');
    expect((await sizes()).client).toBeGreaterThan(420);
    noConsoleErrors();
  }, 60_000);

  it('lists a name several objects share once, selects all of them together, and does not drag them into one place', async () => {
    const fig = (id: string, x: number) => ({
      id,
      type: 'figure',
      subType: 'rect',
      name: 'primary_colour',
      x,
      y: 40,
      width: 120,
      height: 120,
      fill: '#e53935',
    });
    const doc = {
      width: 800,
      height: 400,
      schemaVersion: 4,
      pages: [
        {
          id: 'p',
          background: 'white',
          children: [
            fig('a', 40),
            fig('b', 240),
            fig('c', 440),
            { id: 't', type: 'text', name: 'brand', x: 40, y: 260, width: 600, text: 'Brand', fontFamily: 'Inter', fontSize: 48 },
          ],
        },
      ],
    };
    const record = await svc.service.importDesign(svc.seed.accountId, doc, { name: 'roles' });
    await page.goto(`${svc.base}/studio#/designs/${record.id}`);
    await previewShown(page);
    const options = page.getByRole('listbox', { name: 'Objects' }).getByRole('option');
    expect(await options.allTextContents()).toEqual(['primary_colour×3shape', 'brandtext']);
    await pickObject(page, 'primary_colour');
    const outlines = page.locator('.obj.selected[data-object="primary_colour"]');
    await waitFor('three outlines selected', async () => ((await outlines.count()) === 3 ? true : undefined));
    await expect(page.getByTestId('shared-name').textContent()).resolves.toContain('3 objects share this name (shape)');
    // A drag would give all three one box: it only selects.
    const before = await rect(outlines.nth(1));
    await page.mouse.move(before.x + 20, before.y + 20);
    await page.mouse.down();
    await page.mouse.move(before.x + 120, before.y + 80, { steps: 5 });
    await page.mouse.up();
    expect(await rect(outlines.nth(1))).toEqual(before);
    await expect(page.locator('.object-form').textContent()).resolves.toContain('No overrides');
    // A click on the text's outline selects it, and only it.
    await page.locator('.obj[data-object="brand"]').click();
    await page.locator('.obj.selected[data-object="brand"]').waitFor();
    expect(await outlines.count()).toBe(0);
    noConsoleErrors();
  }, 60_000);

  it('fits the chart table into the sidebar at 1440 wide: no horizontal scroll, every number whole', async () => {
    await openDesign(page, 'chart-report');
    await selectObject(page, 'sales');
    const grid = page.locator('.chart-scroll');
    await grid.waitFor();
    const measure = () =>
      grid.evaluate((el) => ({
        columns: el.querySelector('tr')!.children.length,
        overflow: el.scrollWidth - el.clientWidth,
        clipped: [...el.querySelectorAll('input')].filter((i) => i.scrollWidth > i.clientWidth).map((i) => i.value),
      }));
    const m = await measure();
    expect(m.columns).toBe(5);
    expect(m.overflow).toBeLessThanOrEqual(0);
    expect(m.clipped).toEqual([]);
    noConsoleErrors();
  }, 60_000);

  it('at 1024 × 700 keeps the canvas large and the Render button on the first screen', async () => {
    const small = await ui.browser.newContext({ viewport: { width: 1024, height: 700 }, deviceScaleFactor: 1 });
    const p = await small.newPage();
    try {
      await signIn(p);
      await openDesign(p, 'card-1080');
      // The zoom the canvas is shown at: a 1080 px square at 45 % or more.
      const canvas = await rect(p.locator('.canvas'));
      expect(canvas.width / 1080).toBeGreaterThanOrEqual(0.45);
      expect(canvas.y + canvas.height).toBeLessThanOrEqual(700);
      const button = await rect(p.getByRole('button', { name: 'Render', exact: true }));
      expect(button.y).toBeGreaterThanOrEqual(0);
      expect(button.y + button.height).toBeLessThanOrEqual(700);
      // The page itself does not scroll: each column scrolls on its own.
      expect(await p.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(700);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
      // The photo's tag (an object at the top edge) stays on the smaller stage's margin.
      await selectObject(p, 'photo');
      const stage = await rect(p.locator('.stage'));
      expect(within(await rect(p.locator('.obj.selected .obj-label')), stage)).toBe(true);
    } finally {
      await small.close();
    }
    noConsoleErrors();
  }, 60_000);
  /** Renders card-1080 through the API (as another client would) and waits until the task is done. */
  async function apiRender(format: string): Promise<number> {
    const r = await fetch(`${svc.base}/public/v2/render`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.seed.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ design_id: svc.designId('card-1080'), format }),
    });
    expect(r.status).toBe(202);
    const id = ((await r.json()) as { task_id: number }).task_id;
    await waitFor(
      `the ${format} render`,
      async () => {
        const t = await svc.service.getRenderTask(svc.seed.accountId, String(id));
        return t.state === 'done' ? t : undefined;
      },
      60_000,
    );
    return id;
  }

  /** Renders the open design from the render panel in `format`; the task's id. */
  async function studioRender(format: string): Promise<number> {
    await page.getByLabel('Format').selectOption(format);
    await page.getByRole('button', { name: 'Render', exact: true }).click();
    await expect.poll(() => page.getByTestId('task-state').textContent(), { timeout: 60_000 }).toBe('done');
    return Number(/Task (\d+)/.exec((await page.locator('.task-line').textContent())!)![1]);
  }

  it('offers the render formats interface A accepts, webp and avif included', async () => {
    await openDesign(page, 'card-1080');
    expect(await page.getByLabel('Format').locator('option').allTextContents()).toEqual(['png', 'jpg', 'webp', 'avif', 'pdf']);
    await studioRender('avif');
    const href = await page.getByRole('link', { name: 'Download result' }).getAttribute('href');
    const bytes = Buffer.from(await (await fetch(new URL(href!, svc.base))).arrayBuffer());
    expect(bytes.subarray(4, 12).toString()).toBe('ftypavif');
    noConsoleErrors();
  }, 90_000);

  it("saves a render under the design's name, not task-<id>", async () => {
    await openDesign(page, 'card-1080');
    const id = await studioRender('png');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download result' }).click()]);
    expect(download.suggestedFilename()).toBe(`card-1080-task-${id}.png`);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    noConsoleErrors();
  }, 90_000);

  it('lists tasks in words, with a thumbnail of each finished image and a label for a pdf', async () => {
    const webpTask = await apiRender('webp');
    const pdfTask = await apiRender('pdf');
    await page.goto(`${svc.base}/studio#/tasks`);
    const row = (id: number) => page.locator(`[data-testid=task-row][data-task-id="${id}"]`);
    await row(pdfTask).waitFor();
    expect(await page.locator('table.tasks').innerText()).not.toMatch(/interface/i);
    expect(await row(webpTask).innerText()).toMatch(/API render/);
    expect(await row(webpTask).innerText()).toMatch(/card-1080/);
    // The webp's own picture, loaded from the page's origin (the page's CSP allows no other).
    const thumb = row(webpTask).locator('img[data-testid=task-thumb]');
    expect(await thumb.getAttribute('src')).toMatch(/^\/public\/v2\/results\/[^/]+\.webp$/);
    await thumb.evaluate((img: HTMLImageElement) => img.decode());
    expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1080);
    const shown = await rect(thumb);
    expect([shown.width, shown.height]).toEqual([48, 48]);
    // A pdf is labelled by its format.
    expect(await row(pdfTask).getByTestId('task-thumb').textContent()).toBe('PDF');
    // The result link saves the file under the design's name too.
    const [download] = await Promise.all([page.waitForEvent('download'), row(webpTask).getByRole('link', { name: 'Result' }).click()]);
    expect(download.suggestedFilename()).toBe(`card-1080-task-${webpTask}.webp`);
    noConsoleErrors();
  }, 90_000);
  it('offers every Google Fonts family in the font family field as the person types, and draws the one picked', async () => {
    await openDesign(page, 'card-1080');
    await selectObject(page, 'headline');
    const form = page.getByRole('region', { name: 'Fields of headline' });
    const family = form.getByLabel('Font family', { exact: true });
    const options = () => page.locator('[data-testid=font-families] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    // Before typing: the families matching the one in use (the headline's Lora).
    await expect.poll(options).toContain('Lora');
    await family.fill('Pacif');
    await expect.poll(options).toContain('Pacifico');
    const label = await page.locator('[data-testid=font-families] option[value="Pacifico"]').getAttribute('label');
    expect(label).toMatch(/Google Fonts, installed when used/);
    // Picked: the service installs it and the preview shows the headline in it.
    const before = await page.getByTestId('preview').getAttribute('src');
    await family.fill('Pacifico');
    await expect.poll(() => page.getByTestId('preview').getAttribute('src'), { timeout: 60_000 }).not.toBe(before);
    await previewShown(page);
    expect(await page.getByRole('alert').count()).toBe(0);
    // "Pacif", half typed, is no family: its preview was answered 400 (shown at the field), nothing else.
    noConsoleErrors([/status of 400/]);
  }, 90_000);

  it('labels fields in words, with the JSON key in the tooltip', async () => {
    await openDesign(page, 'card-1080');
    await selectObject(page, 'headline');
    const form = page.getByRole('region', { name: 'Fields of headline' });
    // Found by its label in words; the JSON key is the tooltip, and stays the control's data-field.
    const valign = form.getByLabel('Vertical alignment when fitting', { exact: true });
    expect(await valign.getAttribute('data-field')).toBe('config.text_replacement_strategy_fit_valign');
    const title = await form.locator('label', { hasText: 'Vertical alignment when fitting' }).getAttribute('title');
    expect(title).toMatch(/^config\.text_replacement_strategy_fit_valign: /);
    expect(await form.getByLabel('Text', { exact: true }).getAttribute('data-field')).toBe('text');
    // No label or legend shows a raw JSON key.
    const labels = await form.locator('label, legend').allInnerTexts();
    expect(labels.length).toBeGreaterThan(10);
    expect(labels.filter((l) => /_|^[a-z]/.test(l.trim()))).toEqual([]);
    noConsoleErrors();
  }, 60_000);

  it('shows the value a select leaves in use, not "(default)"', async () => {
    await openDesign(page, 'card-1080');
    await selectObject(page, 'headline');
    const form = page.getByRole('region', { name: 'Fields of headline' });
    const valign = form.locator('select[data-field="config.text_replacement_strategy_fit_valign"]');
    // A select shows the value in use: the template's (top) or the renderer's default (start), not "(default)".
    const selected = (l: ReturnType<Page['locator']>) => l.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.text);
    expect(await selected(valign)).toBe('top (template)');
    expect(await selected(form.locator('select[data-field="config.text_replacement_strategy"]'))).toBe('fit (template)');
    expect(await selected(form.locator('select[data-field="text_align"]'))).toBe('start (default)');
    expect(await form.locator('option', { hasText: /^\(default\)$/ }).count()).toBe(0);
    // An override shows as itself; back to the first option, and it is gone.
    await valign.selectOption('bottom');
    expect(await selected(valign)).toBe('bottom');
    await expect.poll(() => page.getByTestId('request-json').textContent()).toContain('"text_replacement_strategy_fit_valign": "bottom"');
    await valign.selectOption({ label: 'top (template)' });
    await expect.poll(() => page.getByTestId('request-json').textContent()).not.toContain('text_replacement_strategy_fit_valign');
    noConsoleErrors();
  }, 60_000);
});
