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
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { discoverCases, renderCase } from './support/golden-cases.js';
import { assertGolden } from './support/golden-compare.js';

/** One engine for every case, as a server has. */
const engine = new Engine();
const cases = discoverCases();

describe('golden renders', () => {
  for (const c of cases) {
    it(`${c.area}/${c.name}`, async () => {
      expect(existsSync(join(c.dir, 'README.md')), `${c.area}/${c.name} needs a README.md saying what the picture must show`).toBe(true);

      const overridesFile = join(c.dir, 'overrides.json');
      if (existsSync(overridesFile)) {
        expect(Object.keys(JSON.parse(readFileSync(overridesFile, 'utf8')) as object), `${overridesFile} must be {"objects_overrides": {...}}`).toEqual([
          'objects_overrides',
        ]);
      }
      const result = await renderCase(engine, c, 'png');
      await assertGolden(result.bytes, c);
    });
  }
});
