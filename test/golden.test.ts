// Golden render tests: every golden/<area>/<case>/design.json (+ optional overrides.json holding
// {"objects_overrides": {...}}) is rendered to png and compared with expected.png beside it.
// Cases refer to the shared test cards as "asset:landscape", "asset:portrait" and "asset:photo"
// (golden/assets, made by scripts/make-test-cards.mjs).
//
//   npx vitest run test/golden.test.ts                    compare
//   UPDATE_GOLDEN=1 npx vitest run test/golden.test.ts    (re)write expected.png files; look at them!
//
// Failures leave a three-panel diff in test-output/golden-diff/<area>/<case>.png.
//
// All cases share one Engine, as a server does: a case must render the same whatever ran before it
// (painting composite glyphs once disturbed later shaping; test/layout.test.ts pins that down too).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileAssetResolver } from '../src/assets/resolver.js';
import { Engine } from '../src/engine.js';
import { assertGolden, REPO_ROOT, type GoldenCase } from './support/golden-compare.js';

const GOLDEN_DIR = join(REPO_ROOT, 'golden');
const ASSETS_DIR = join(GOLDEN_DIR, 'assets');
/** One engine for every case, as a server has. */
const engine = new Engine();

const TEST_CARDS = {
  landscape: join(ASSETS_DIR, 'landscape.png'),
  portrait: join(ASSETS_DIR, 'portrait.png'),
  photo: join(ASSETS_DIR, 'photo.jpg'),
  device: join(ASSETS_DIR, 'device.png'),
  'poster-wall': join(ASSETS_DIR, 'poster-wall.png'),
  shirt: join(ASSETS_DIR, 'shirt.png'),
  mask: join(ASSETS_DIR, 'mask.png'),
  'screen-portrait': join(ASSETS_DIR, 'screen-portrait.png'),
  glare: join(ASSETS_DIR, 'glare.png'),
  shade: join(ASSETS_DIR, 'shade.png'),
};

function discoverCases(): GoldenCase[] {
  const cases: GoldenCase[] = [];
  const dirs = (p: string): string[] =>
    readdirSync(p, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  for (const area of dirs(GOLDEN_DIR)) {
    if (area === 'assets') continue;
    for (const name of dirs(join(GOLDEN_DIR, area))) {
      const dir = join(GOLDEN_DIR, area, name);
      if (existsSync(join(dir, 'design.json'))) cases.push({ area, name, dir });
    }
  }
  return cases;
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

const cases = discoverCases();
if (cases.length === 0) throw new Error(`no golden cases found under ${GOLDEN_DIR} (expected golden/<area>/<case>/design.json)`);

describe('golden renders', () => {
  for (const c of cases) {
    it(`${c.area}/${c.name}`, async () => {
      expect(existsSync(join(c.dir, 'README.md')), `${c.area}/${c.name} needs a README.md saying what the picture must show`).toBe(true);

      const design = readJson(join(c.dir, 'design.json'));
      let overrides: unknown = {};
      const overridesFile = join(c.dir, 'overrides.json');
      if (existsSync(overridesFile)) {
        const doc = readJson(overridesFile) as Record<string, unknown>;
        expect(Object.keys(doc), `${overridesFile} must be {"objects_overrides": {...}}`).toEqual(['objects_overrides']);
        overrides = doc.objects_overrides;
      }

      const result = await engine.render({
        design,
        overrides,
        format: 'png',
        png: { compressionLevel: 9 },
        assets: fileAssetResolver({ baseDir: c.dir, assets: TEST_CARDS }),
      });
      await assertGolden(result.bytes, c);
    });
  }
});
