// A person's edits in the Studio are never lost without asking (issue 27): change the headline,
// upload a photo and drag the badge of card-1080, then go to Designs, Back, reload: the edits are
// there each time, the grid marks the design, and the preview and the render request carry them.
// Closing the tab, or reloading, with edits asks first (beforeunload); "Reset all" asks too. Edits
// are kept per tab: another tab starts clean. An animated design opens at its poster time, where its
// text is on screen; before that, the fit report says the text has not appeared yet. Real service,
// real Chromium (test/support/studio.ts).
import type { Dialog, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openExample,
  openStudioBrowser,
  pickObject,
  previewShown as previewPainted,
  signIn as signInAs,
  startStudioService,
  type StudioBrowser,
  type StudioService,
} from './support/studio.js';
import { toolsAvailable } from './support/tools.js';

let svc: StudioService;
let ui: StudioBrowser;
let page: Page;

const headlineText = 'Edits that survive a reload';
const textArea = () => page.locator('textarea[data-field="text"]');
const field = (id: string) => page.locator(`input[data-field="${id}"]`);

const signIn = (p: Page) => signInAs(p, svc);
const previewShown = (p: Page = page) => previewPainted(p);
const openDesign = (example: string, p: Page = page) => openExample(p, svc, example);
const selectObject = (name: string) => pickObject(page, name);

/** The render request the editor shows, parsed. */
async function requestShown(): Promise<{ objects_overrides?: Record<string, Record<string, unknown>> }> {
  return JSON.parse((await page.getByTestId('request-json').textContent()) ?? '{}') as { objects_overrides?: Record<string, Record<string, unknown>> };
}

/** The edits made in the first test, as the request must show them whenever card-1080 is opened again. */
let photoUrl = '';
let badgeAt = { x: 0, y: 0 };

async function expectEditsBack(): Promise<void> {
  await selectObject('headline');
  await expect.poll(() => textArea().inputValue()).toBe(headlineText);
  const o = (await requestShown()).objects_overrides ?? {};
  expect(o.headline?.text).toBe(headlineText);
  expect(o.photo?.path).toBe(photoUrl);
  expect(o.badge).toMatchObject(badgeAt);
  await expect.poll(() => page.getByTestId('draft-notice').textContent()).toMatch(/edits from earlier in this tab are back/);
}

describe.skipIf(!toolsAvailable(['chromium'], 'the Studio tests drive Chromium'))('Studio: edits are kept for the tab', () => {
  beforeAll(async () => {
    svc = await startStudioService();
    await svc.service.setPlan(svc.seed.accountId, { requests_per_minute: 600 });
    ui = await openStudioBrowser();
    page = ui.page;
    await signIn(page);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
    await svc?.close();
  }, 60_000);

  it('keeps the headline, an uploaded photo and a dragged badge through Designs, Back and a reload', async () => {
    await openDesign('card-1080');
    // Typed text.
    await selectObject('headline');
    await textArea().fill(headlineText);
    // An upload.
    await selectObject('photo');
    const blue = await sharp({ create: { width: 640, height: 400, channels: 3, background: '#2040e0' } })
      .png()
      .toBuffer();
    await page.getByLabel('Upload image').setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: blue });
    await expect.poll(async () => (await requestShown()).objects_overrides?.photo?.path ?? '').toMatch(/\/public\/v2\/uploads\//);
    photoUrl = String((await requestShown()).objects_overrides!.photo!.path);
    // A drag.
    await selectObject('badge');
    const b = (await page.locator('[data-object="badge"]').boundingBox())!;
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2 - 50, b.y + b.height / 2 + 30, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Number(await field('x').inputValue())).toBeLessThan(800);
    badgeAt = { x: Number(await field('x').inputValue()), y: Number(await field('y').inputValue()) };
    expect(ui.errors).toEqual([]);

    // To the designs grid: the design is marked, and opening it brings everything back.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Designs' }).click();
    const card = page.locator(`[data-testid=design-card][data-design-id="${svc.designId('card-1080')}"]`);
    await expect.poll(() => card.textContent()).toMatch(/edited/);
    expect(await page.locator(`[data-testid=design-card][data-design-id="${svc.designId('promo-15s')}"]`).textContent()).not.toMatch(/edited/);
    await card.getByRole('link').first().click();
    await previewShown();
    await expectEditsBack();

    // Back to the grid and forward again.
    await page.goBack();
    await card.waitFor();
    await page.goForward();
    await previewShown();
    await expectEditsBack();

    // A reload asks first (the tab has edits); accepted, the page comes back with them.
    const asked: string[] = [];
    const accept = (d: Dialog) => {
      asked.push(d.type());
      void d.accept();
    };
    page.on('dialog', accept);
    await page.reload();
    page.off('dialog', accept);
    await previewShown();
    expect(asked).toEqual(['beforeunload']);
    await expectEditsBack();
    // The preview is the edited design: the photo area is the uploaded blue.
    // What the person sees: the preview element's pixels, in the middle of the photo.
    const shot = sharp(await page.getByTestId('preview').screenshot());
    const { width } = await shot.metadata();
    const k = width / 1080;
    const { data } = await shot
      .removeAlpha()
      .extract({ left: Math.round(300 * k), top: Math.round(150 * k), width: Math.round(200 * k), height: Math.round(100 * k) })
      .raw()
      .toBuffer({ resolveWithObject: true });
    let r = 0;
    let bl = 0;
    for (let i = 0; i < data.length; i += 3) {
      r += data[i]!;
      bl += data[i + 2]!;
    }
    expect(bl / (data.length / 3)).toBeGreaterThan(180);
    expect(r / (data.length / 3)).toBeLessThan(80);
    expect(ui.errors.filter((e) => !/beforeunload/i.test(e))).toEqual([]);
  }, 90_000);

  it('asks before the tab is closed with edits, and stays open when the person says no', async () => {
    const asked: string[] = [];
    const dismiss = (d: Dialog) => {
      asked.push(d.type());
      void d.dismiss();
    };
    page.on('dialog', dismiss);
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => asked).toEqual(['beforeunload']);
    page.off('dialog', dismiss);
    expect(page.isClosed()).toBe(false);
    await expectEditsBack();
  }, 30_000);

  it('keeps edits per tab: another tab opens the design clean', async () => {
    const other = await ui.context.newPage();
    try {
      const before = page;
      page = other;
      await signIn(other);
      await openDesign('card-1080', other);
      await selectObject('headline');
      expect(await textArea().inputValue()).not.toBe(headlineText);
      expect((await requestShown()).objects_overrides).toBeUndefined();
      expect(await other.getByTestId('draft-notice').count()).toBe(0);
      page = before;
    } finally {
      await other.close();
    }
  }, 30_000);

  it('asks before "Reset all" discards the edits; once discarded, nothing asks on reload', async () => {
    await page.bringToFront();
    let answer: 'dismiss' | 'accept' = 'dismiss';
    const asked: string[] = [];
    const handler = (d: Dialog) => {
      asked.push(`${d.type()}: ${d.message()}`);
      void (answer === 'accept' ? d.accept() : d.dismiss());
    };
    page.on('dialog', handler);
    try {
      await page.getByRole('button', { name: 'Reset all' }).click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toMatch(/^confirm: Discard every edit of this design\?/);
      expect((await requestShown()).objects_overrides?.headline?.text).toBe(headlineText);
      answer = 'accept';
      await page.getByRole('button', { name: 'Reset all' }).click();
      await expect.poll(async () => (await requestShown()).objects_overrides).toBeUndefined();
      await page.reload();
      await previewShown();
      expect(asked).toHaveLength(2);
      expect((await requestShown()).objects_overrides).toBeUndefined();
      expect(await page.getByTestId('draft-notice').count()).toBe(0);
    } finally {
      page.off('dialog', handler);
    }
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Designs' }).click();
    const card = page.locator(`[data-testid=design-card][data-design-id="${svc.designId('card-1080')}"]`);
    await expect.poll(() => card.textContent()).toMatch(/card-1080/);
    expect(await card.textContent()).not.toMatch(/edited/);
  }, 30_000);

  it('saves a result with edits in the tab, opened by another host name than the service writes, without asking to leave', async () => {
    // The service writes result URLs as http://localhost:<port>; this page is at 127.0.0.1.
    const other = await ui.context.newPage();
    const asked: string[] = [];
    other.on('dialog', (d) => {
      asked.push(d.type());
      void d.dismiss();
    });
    const before = page;
    try {
      page = other;
      const at = svc.base.replace('localhost', '127.0.0.1');
      expect(at).not.toBe(svc.base);
      await other.goto(`${at}/studio`);
      await other.getByLabel('API key').fill(svc.seed.apiKey);
      await other.getByRole('button', { name: 'Sign in' }).click();
      await other.getByTestId('design-card').first().waitFor();
      await other.goto(`${at}/studio#/designs/${svc.designId('card-1080')}`);
      await previewShown(other);
      await selectObject('headline');
      await textArea().fill('Saved without leaving');
      await other.getByLabel('Format').selectOption('png');
      await other.getByRole('button', { name: 'Render' }).click();
      await expect.poll(() => other.getByTestId('task-state').textContent(), { timeout: 60_000 }).toMatch(/done/);
      const link = other.getByRole('link', { name: 'Download result' });
      expect(new URL((await link.getAttribute('href'))!, at).origin).toBe(new URL(at).origin);
      const [download] = await Promise.all([other.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toMatch(/^card-1080-task-\d+\.png$/);
      expect(asked).toEqual([]);
      expect(other.url()).toContain('#/designs/');
    } finally {
      page = before;
      await other.close();
    }
  }, 90_000);

  it('opens a damaged stored draft clean, without an error', async () => {
    await page.evaluate((id) => sessionStorage.setItem(`imprint.studio.draft.${id.account}.${id.design}`, '{"overrides":'), {
      account: svc.seed.accountId,
      design: svc.designId('card-1080'),
    });
    await openDesign('card-1080');
    expect((await requestShown()).objects_overrides).toBeUndefined();
    expect(ui.errors.filter((e) => !/beforeunload/i.test(e))).toEqual([]);
  }, 30_000);

  it('says the design was replaced since the edits were made, through reloads, until the person says OK', async () => {
    const key = `imprint.studio.draft.${svc.seed.accountId}.${svc.designId('card-1080')}`;
    const old = {
      overrides: { headline: { text: 'Made on an older version' } },
      slides: {},
      selected: 'headline',
      time: null,
      designUpdatedAt: '2000-01-01T00:00:00.000Z',
    };
    // Stored from another view (no editor open to write over it); the editor opens afresh and reads it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Designs' }).click();
    await page.getByTestId('design-card').first().waitFor();
    await page.evaluate(([k, v]) => sessionStorage.setItem(k!, v!), [key, JSON.stringify(old)]);
    await openDesign('card-1080');
    const notice = page.getByTestId('draft-notice');
    // What the note says now ('' when there is none): asked without waiting for it to appear.
    const said = async () => ((await notice.count()) ? ((await notice.textContent()) ?? '') : '');
    const stored = () => page.evaluate((k) => sessionStorage.getItem(k), key);
    await expect.poll(said).toMatch(/replaced since/);
    const accept = (d: Dialog) => void d.accept();
    page.on('dialog', accept);
    try {
      await page.reload();
      await previewShown();
      await expect.poll(said).toMatch(/replaced since/);
      await notice.getByRole('button', { name: 'OK' }).click();
      expect(await notice.count()).toBe(0);
      // Seen: the draft now belongs to the design as it is.
      await expect.poll(stored).not.toContain('2000-01-01');
      await page.reload();
      await previewShown();
      await expect.poll(said).toMatch(/edits from earlier in this tab are back/);
      expect(await said()).not.toMatch(/replaced since/);
      expect((await requestShown()).objects_overrides?.headline?.text).toBe('Made on an older version');
    } finally {
      page.off('dialog', accept);
    }
  }, 60_000);

  it('opens an animated design at its poster time, where its headline is on screen', async () => {
    const detail = (await (
      await fetch(`${svc.base}/public/v2/designs/${svc.designId('promo-15s')}`, { headers: { authorization: `Bearer ${svc.seed.apiKey}` } })
    ).json()) as { poster_time: number | null };
    expect(detail.poster_time).toBeGreaterThan(0);
    await openDesign('promo-15s');
    expect(Number(await page.getByLabel('Time').inputValue())).toBeCloseTo(detail.poster_time!, 1);
    // The fit report lists the headline with the size it was drawn at: it is on screen.
    await expect.poll(() => page.getByTestId('fit-report').textContent()).toMatch(/headline\s*\d+(\.\d+)?\s*px/);
    // At 0 s the headline has not appeared: the report says so (not "is not a text object"), and
    // offers to go where it appears.
    await selectObject('headline');
    await page.getByLabel('Time').fill('0');
    const report = page.getByTestId('fit-report');
    await expect.poll(() => report.textContent()).toMatch(/headline is hidden at 0 s \(it appears at [\d.]+ s\)/);
    expect(await report.textContent()).not.toMatch(/not a text object/);
    await report.getByRole('button', { name: /^Go to [\d.]+ s$/ }).click();
    await expect.poll(() => report.textContent()).toMatch(/headline\s*\d+(\.\d+)?\s*px/);
    expect(Number(await page.getByLabel('Time').inputValue())).toBeGreaterThan(0);
  }, 30_000);
});
