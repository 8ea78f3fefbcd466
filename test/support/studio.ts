// The Studio as a person meets it: the service `imprint serve` runs (embedded default, the example
// designs seeded into a demo account, an in-process worker), and Debian's Chromium driven by
// playwright-core opens /studio. Every console error and uncaught page error is collected, so a test
// can assert that a page showed none (a CSP violation is a console error).
import { mkdtempSync, rmSync } from 'node:fs';
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

/** A fresh browser with one page of the given viewport; downloads allowed. */
export async function openStudioBrowser(viewport = { width: 1440, height: 900 }): Promise<StudioBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, acceptDownloads: true });
  const errors: string[] = [];
  context.on('page', (p) => watch(p, errors));
  const page = await context.newPage();
  return { browser, context, page, errors, close: () => browser.close() };
}

function watch(page: Page, errors: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
}
