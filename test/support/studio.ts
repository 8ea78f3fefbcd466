// The Studio as a person meets it: the service `imprint serve` runs (embedded default, the example
// designs seeded into a demo account, an in-process worker), and Debian's Chromium driven by
// playwright-core opens /studio. Every console error and uncaught page error is collected, so a test
// can assert that a page showed none (a CSP violation is a console error).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildServer, listen } from '../../src/http/server.js';
import { configFromEnv } from '../../src/service/config.js';
import { seedIfEmpty, type SeedResult } from '../../src/service/seed.js';
import { Service } from '../../src/service/service.js';
import { TaskWorker } from '../../src/worker/worker.js';
import { REPO_ROOT } from './golden-compare.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface StudioService {
  /** http://127.0.0.1:<port> */
  base: string;
  service: Service;
  app: FastifyInstance;
  seed: SeedResult;
  /** Id of the seeded example design of that folder name (card-1080, promo-15s, …). */
  designId(example: string): number;
  close(): Promise<void>;
}

export async function startStudioService(env: Record<string, string> = {}): Promise<StudioService> {
  const dir = mkdtempSync(join(tmpdir(), 'imprint-studio-'));
  const config = configFromEnv({ IMPRINT_DATA_DIR: dir, IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', ...env });
  const service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
  const seed = (await seedIfEmpty(service))!;
  const worker = new TaskWorker(service.ctx, { slots: 1 });
  worker.start();
  const app = await buildServer(service);
  const base = await listen(app, service);
  return {
    base,
    service,
    app,
    seed,
    designId(example) {
      const d = seed.designs.find((x) => x.example === example);
      if (!d) throw new Error(`no seeded example ${example}`);
      return d.id;
    },
    async close() {
      await app.close();
      await worker.stop(0);
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface StudioBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions of every page so far, as text. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Which fonts the browser may find on the machine: `'machine'` (whatever fontconfig lists: CI installs
 * Debian's DejaVu and Liberation so that this case has some) or `'none'`, a bare machine: a fontconfig
 * file whose only folder holds Noto Sans Symbols 2, a font with no Latin letters (Chromium aborts when
 * fontconfig finds no font at all, as on a password field's bullets, so "none" means "none that can
 * draw the page"). The Studio bundles every face it draws with, so both must look the same.
 * `IMPRINT_TEST_SYSTEM_FONTS=none` makes `'none'` the default.
 */
export type SystemFonts = 'machine' | 'none';

/** The one font a bare machine (`'none'`) has: a package dependency, so it is there wherever the tests run. */
const BARE_MACHINE_FONT_DIR = join(REPO_ROOT, 'node_modules', '@expo-google-fonts', 'noto-sans-symbols-2', '400Regular');

export const DEFAULT_SYSTEM_FONTS: SystemFonts = process.env.IMPRINT_TEST_SYSTEM_FONTS === 'none' ? 'none' : 'machine';

/** A fresh browser with one page of the given viewport; downloads allowed. */
export async function openStudioBrowser(viewport = { width: 1440, height: 900 }, systemFonts: SystemFonts = DEFAULT_SYSTEM_FONTS): Promise<StudioBrowser> {
  let fontDir: string | null = null;
  const env: Record<string, string> = {};
  if (systemFonts === 'none') {
    fontDir = mkdtempSync(join(tmpdir(), 'imprint-nofonts-'));
    const conf = join(fontDir, 'fonts.conf');
    // The machine's own configuration (rendering settings: antialiasing, hinting, which Chromium
    // applies to web fonts too), with every font file rejected but the one in BARE_MACHINE_FONT_DIR:
    // what fontconfig gives on a machine with fontconfig installed and no font package.
    const xml = [
      '<?xml version="1.0"?>',
      '<fontconfig>',
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
      `  <dir>${BARE_MACHINE_FONT_DIR}</dir>`,
      `  <cachedir>${join(fontDir, 'cache')}</cachedir>`,
      `  <selectfont><acceptfont><glob>${BARE_MACHINE_FONT_DIR}/*</glob></acceptfont><rejectfont><glob>*</glob></rejectfont></selectfont>`,
      '</fontconfig>',
      '',
    ].join('\n');
    writeFileSync(conf, xml);
    env.FONTCONFIG_FILE = conf;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'],
    env: { ...(process.env as Record<string, string>), ...env },
  });
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, acceptDownloads: true });
  const errors: string[] = [];
  context.on('page', (p) => watch(p, errors));
  const page = await context.newPage();
  return {
    browser,
    context,
    page,
    errors,
    async close() {
      await browser.close();
      if (fontDir) rmSync(fontDir, { recursive: true, force: true });
    },
  };
}

/** A font that drew some of the page's text, as Chromium reports it (CSS.getPlatformFontsForNode). */
export interface DrawnFont {
  /** The font's family name as the font file gives it. */
  family: string;
  /** True for a web font (@font-face), false for a font found on the machine. */
  webFont: boolean;
  /** Glyphs drawn with it. */
  glyphs: number;
  /** The first element it was used in (tag, test id or class, and its text), to say where. */
  where: string;
}

/**
 * Every font that drew text on the page now, with where it was first used: what a person sees, asked
 * of the browser's own layout rather than read from the style sheet (a fallback for one missing
 * character shows up here, a `font-family` line does not).
 */
export async function fontsDrawn(page: Page): Promise<DrawnFont[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const found = new Map<string, DrawnFont>();
    const visit = async (node: typeof root, where: string): Promise<void> => {
      if (node.nodeType === 1) {
        const attrs = node.attributes ?? [];
        const attr = (n: string) => {
          const i = attrs.indexOf(n);
          return i >= 0 && i % 2 === 0 ? attrs[i + 1] : undefined;
        };
        const id = attr('data-testid') ?? attr('class');
        const text = (node.children ?? [])
          .filter((c) => c.nodeType === 3)
          .map((c) => c.nodeValue)
          .join('')
          .trim()
          .slice(0, 40);
        where = `${where} > ${node.localName}${id ? `[${id}]` : ''}${text ? ` "${text}"` : ''}`.split(' > ').slice(-3).join(' > ');
        if (['script', 'style', 'head', 'title'].includes(node.localName)) return;
        const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId: node.nodeId });
        for (const f of fonts) {
          const key = `${f.familyName}|${f.isCustomFont}`;
          const seen = found.get(key);
          if (seen) seen.glyphs += f.glyphCount;
          else found.set(key, { family: f.familyName, webFont: f.isCustomFont, glyphs: f.glyphCount, where });
        }
      }
      for (const child of node.children ?? []) await visit(child, where);
    };
    await visit(root, 'document');
    return [...found.values()];
  } finally {
    await cdp.detach();
  }
}

function watch(page: Page, errors: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
}

/** Signs in with the seeded demo key and waits for the designs grid. */
export async function signIn(page: Page, svc: StudioService): Promise<void> {
  await page.goto(`${svc.base}/studio`);
  await page.getByLabel('API key').fill(svc.seed.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('design-card').first().waitFor();
}

/** Waits until the editor shows a decoded preview. */
export async function previewShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid=preview]');
    return !!img && img.complete && img.naturalWidth > 0;
  });
}

/** Opens a seeded example design in the editor and waits until its preview is painted. */
export async function openExample(page: Page, svc: StudioService, example: string): Promise<void> {
  await page.goto(`${svc.base}/studio#/designs/${svc.designId(example)}`);
  await previewShown(page);
}

/** Selects a named object in the editor's object list. */
export async function pickObject(page: Page, name: string): Promise<void> {
  await page
    .getByRole('listbox', { name: 'Objects' })
    .getByRole('option', { name: new RegExp(`^${name}\\b`) })
    .click();
}
