// The designs grid as a person uses it, in Debian's Chromium against the real service: make a new
// blank design at a size preset (and at a custom size), open it, find it again by search, rename it,
// duplicate it, delete the copy after saying yes; bad input (an empty name, a size out of range, a
// name the service refuses) is a message in the page and nothing changes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudioBrowser, signIn, startStudioService, type StudioBrowser, type StudioService } from './support/studio.js';

let svc: StudioService;
let ui: StudioBrowser;
let page: Page;

beforeAll(async () => {
  svc = await startStudioService();
  ui = await openStudioBrowser();
  page = ui.page;
  await signIn(page, svc);
}, 60_000);

afterAll(async () => {
  await ui?.close();
  await svc?.close();
});

/** The designs the account has, as the service lists them (name → id). */
async function serviceDesigns(): Promise<Map<string, number>> {
  const res = await fetch(`${svc.base}/public/v2/designs`, { headers: { authorization: `Bearer ${svc.seed.apiKey}` } });
  const { designs } = (await res.json()) as { designs: { design_id: number; name: string }[] };
  return new Map(designs.map((d) => [d.name, d.design_id]));
}

const card = (name: string) => page.getByTestId('design-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

async function backToGrid(): Promise<void> {
  await page.getByRole('link', { name: 'Designs', exact: true }).first().click();
  await page.getByTestId('design-card').first().waitFor();
}

describe('designs grid', () => {
  it('makes a blank design from a size preset and opens it in the template editor at that size', async () => {
    await page.getByRole('button', { name: 'New design' }).click();
    const form = page.getByRole('form', { name: 'New design' });
    await form.getByLabel('Name').fill('  Spring story  ');
    await form.getByLabel('Start from').selectOption({ label: 'Story 1080 × 1920' });
    await form.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/designs\/\d+\/edit$/);
    const id = (await serviceDesigns()).get('Spring story');
    expect(id).toBeDefined();
    expect(page.url()).toMatch(new RegExp(`#/designs/${id}/edit$`));
    const detail = (await (await fetch(`${svc.base}/public/v2/designs/${id}`, { headers: { authorization: `Bearer ${svc.seed.apiKey}` } })).json()) as {
      width: number;
      height: number;
    };
    expect([detail.width, detail.height]).toEqual([1080, 1920]);
    await backToGrid();
    await card('Spring story').getByText('1080 × 1920').waitFor();
  }, 60_000);

  it('refuses an empty name and a custom size out of range in the form, and creates nothing', async () => {
    const before = await serviceDesigns();
    await page.getByRole('button', { name: 'New design' }).click();
    const form = page.getByRole('form', { name: 'New design' });
    await form.getByLabel('Name').fill('   ');
    await form.getByLabel('Start from').selectOption({ label: 'Custom size…' });
    await form.getByLabel('Width (px)').fill('9000');
    await form.getByLabel('Height (px)').fill('abc');
    // The browser's own check of a required field would stop a blank name before the page sees it; spaces pass it.
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('Give the design a name.').waitFor();
    await form.getByText('The width must be between 1 and 8192 pixels.').waitFor();
    await form.getByText('Enter the height in pixels, a number such as 1080.').waitFor();
    expect(await serviceDesigns()).toEqual(before);
    // Fixed, the same form creates the custom size.
    await form.getByLabel('Name').fill('Wide banner');
    await form.getByLabel('Width (px)').fill('1500');
    await form.getByLabel('Height (px)').fill('500');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/designs\/\d+\/edit$/);
    expect((await serviceDesigns()).has('Wide banner')).toBe(true);
    await backToGrid();
  }, 60_000);

  it('finds designs by name or id as the person types', async () => {
    const search = page.getByLabel('Search designs');
    await search.fill('spring');
    await expect.poll(() => page.getByTestId('design-card').count()).toBe(1);
    await card('Spring story').waitFor();
    await search.fill('no such design');
    await page.getByText('No design matches “no such design”.').waitFor();
    await search.fill('');
    await expect.poll(() => page.getByTestId('design-card').count()).toBe((await serviceDesigns()).size);
  });

  it('renames a design in place, and refuses an empty name with a message', async () => {
    const actions = page.getByRole('group', { name: 'Actions for Wide banner' });
    await actions.getByRole('button', { name: 'Rename' }).click();
    const input = page.getByLabel('New name of Wide banner');
    await input.fill('  ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Give the design a name.').waitFor();
    await input.fill('Wide summer banner');
    await page.getByRole('button', { name: 'Save' }).click();
    await card('Wide summer banner').waitFor();
    const names = await serviceDesigns();
    expect(names.has('Wide summer banner')).toBe(true);
    expect(names.has('Wide banner')).toBe(false);
  }, 60_000);

  it('duplicates a design under a "copy" name, and deletes the copy only after the person says yes', async () => {
    await page.getByRole('group', { name: 'Actions for Spring story' }).getByRole('button', { name: 'Duplicate' }).click();
    await card('Spring story copy').waitFor();
    const copyId = (await serviceDesigns()).get('Spring story copy');
    expect(copyId).toBeDefined();

    // "Cancel" in the confirmation keeps it.
    page.once('dialog', (d) => void d.dismiss());
    await page.getByRole('group', { name: 'Actions for Spring story copy' }).getByRole('button', { name: 'Delete' }).click();
    expect((await serviceDesigns()).get('Spring story copy')).toBe(copyId);

    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await page.getByRole('group', { name: 'Actions for Spring story copy' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => card('Spring story copy').count()).toBe(0);
    expect(asked).toContain('Delete “Spring story copy”');
    expect((await serviceDesigns()).has('Spring story copy')).toBe(false);
    // The original is untouched.
    expect((await serviceDesigns()).has('Spring story')).toBe(true);
  }, 60_000);

  it('shows no console or page error along the way', () => {
    expect(ui.errors).toEqual([]);
  });
});
