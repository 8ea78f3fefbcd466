// First start of the embedded service: a demo account with the example designs, so `npm start`
// gives something to render at once. Its admin key is returned once and never stored in clear.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJson } from '../design/parse.js';
import type { DesignSummary } from '../store/metadata/records.js';
import type { Service } from './service.js';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));

export interface SeedResult {
  accountId: number;
  apiKey: string;
  designs: (DesignSummary & { example: string })[];
}

/** The name of the demo account that seedIfEmpty creates. */
export const DEMO_ACCOUNT = 'demo';

/**
 * The design file of each example folder: its design.json, else the Polotno document it holds
 * instead (imported as the Imprint design it converts to). Imprint designs come first, then Polotno
 * ones, each by folder name, so a new Polotno example never moves the ids the docs use.
 */
async function exampleFiles(examplesDir: string): Promise<{ name: string; file: string }[]> {
  const folders = (await readdir(examplesDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const found: { name: string; file: string }[] = [];
  for (const file of ['design.json', 'polotno.json']) {
    for (const name of folders) {
      if (found.some((f) => f.name === name) || !existsSync(join(examplesDir, name, file))) continue;
      found.push({ name, file });
    }
  }
  return found;
}

/** Seeds an empty database; undefined when it already has accounts. */
export async function seedIfEmpty(service: Service, examplesDir = EXAMPLES_DIR): Promise<SeedResult | undefined> {
  if ((await service.ctx.meta.countAccounts()) > 0) return undefined;
  const { account, apiKey } = await service.createAccount({ name: DEMO_ACCOUNT, plan: 'basic', balance: 10 });
  const designs: SeedResult['designs'] = [];
  for (const { name, file } of await exampleFiles(examplesDir)) {
    const dir = join(examplesDir, name);
    const text = await readFile(join(dir, file), 'utf8');
    const d = await service.importDesign(account.id, parseJson(text, '$', `examples/${name}/${file}`), { baseDir: dir, name });
    designs.push({ ...d, example: name });
  }
  return { accountId: account.id, apiKey, designs };
}
