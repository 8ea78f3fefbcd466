// First start of the embedded service: a demo account with the example designs, so `npm start`
// gives something to render at once. Its admin key is returned once and never stored in clear.
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

/** Seeds an empty database; undefined when it already has accounts. */
export async function seedIfEmpty(service: Service, examplesDir = EXAMPLES_DIR): Promise<SeedResult | undefined> {
  if ((await service.ctx.meta.countAccounts()) > 0) return undefined;
  const { account, apiKey } = await service.createAccount({ name: 'demo', plan: 'basic', balance: 10 });
  const designs: SeedResult['designs'] = [];
  const entries = (await readdir(examplesDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  for (const name of entries) {
    const dir = join(examplesDir, name);
    const text = await readFile(join(dir, 'design.json'), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const d = await service.importDesign(account.id, parseJson(text, '$', `examples/${name}/design.json`), { baseDir: dir, name });
    designs.push({ ...d, example: name });
  }
  return { accountId: account.id, apiKey, designs };
}
