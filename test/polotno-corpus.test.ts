// The Polotno corpus (test/fixtures/polotno-corpus/) stays usable: every design folder holds the document
// as its source repository saved it (valid Polotno store JSON) and a source.json naming where it came
// from, at which commit and under which licence. The corpus run itself (npm run corpus:polotno) needs
// the network for its fonts, so it is not part of the test suite.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORPUS = join(import.meta.dirname, 'fixtures', 'polotno-corpus');
const designs = readdirSync(CORPUS).filter((n) => statSync(join(CORPUS, n)).isDirectory());

describe('Polotno corpus', () => {
  it('has 30 to 40 designs and a README that lists each of them', () => {
    expect(designs.length).toBeGreaterThanOrEqual(30);
    expect(designs.length).toBeLessThanOrEqual(40);
    const readme = readFileSync(join(CORPUS, 'README.md'), 'utf8');
    for (const name of designs) expect(readme, `README.md lists ${name}`).toContain(name);
  });

  it.each(designs)('%s: polotno.json is a Polotno document and source.json names its repository, path, commit and licence', (name) => {
    const dir = join(CORPUS, name);
    const doc = JSON.parse(readFileSync(join(dir, 'polotno.json'), 'utf8')) as { pages?: { children?: unknown[] }[] };
    expect(Array.isArray(doc.pages) && doc.pages.length > 0 && doc.pages.every((p) => Array.isArray(p.children))).toBe(true);

    const source = JSON.parse(readFileSync(join(dir, 'source.json'), 'utf8')) as Record<string, unknown>;
    expect(source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(typeof source.path === 'string' && source.path.endsWith('.json')).toBe(true);
    expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
    const licence = source.licence as { spdx?: unknown; note?: unknown } | undefined;
    expect(licence && (typeof licence.spdx === 'string' || licence.spdx === null) && typeof licence.note === 'string').toBe(true);
    const ref = source.reference_image as { file?: unknown; path?: unknown; commit?: unknown } | undefined;
    if (ref !== undefined) {
      expect(typeof ref.file === 'string' && existsSync(join(dir, ref.file))).toBe(true);
      expect(ref.commit).toMatch(/^[0-9a-f]{40}$/);
    }
  });
});
