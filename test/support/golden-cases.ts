// The golden cases on disk and how to render one: shared by the png golden test and the pdf test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileAssetResolver } from '../../src/assets/resolver.js';
import type { DesignInput, Engine, OutputFormat, RenderResult } from '../../src/engine.js';
import type { ObjectsOverrides } from '../../src/resolve/types.js';
import { REPO_ROOT, type GoldenCase } from './golden-compare.js';

const GOLDEN_DIR = join(REPO_ROOT, 'golden');
const ASSETS_DIR = join(GOLDEN_DIR, 'assets');

/** Shared test cards, referred to by cases as "asset:<name>". */
export const TEST_CARDS = {
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
  // Font files for design fonts: a variable WOFF2 (a devDependency) and a bundled static face.
  'inter-variable': join(REPO_ROOT, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'),
  'inter-regular': join(REPO_ROOT, 'node_modules/@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'),
  // CFF-flavoured OpenType and a CFF2 variable font: Source Sans 3 (the devDependency source-sans, OFL).
  'source-sans-regular-otf': join(REPO_ROOT, 'node_modules/source-sans/OTF/SourceSans3-Regular.otf'),
  'source-sans-bold-otf': join(REPO_ROOT, 'node_modules/source-sans/OTF/SourceSans3-Bold.otf'),
  'source-sans-italic-otf': join(REPO_ROOT, 'node_modules/source-sans/OTF/SourceSans3-It.otf'),
  'source-sans-variable-otf': join(REPO_ROOT, 'node_modules/source-sans/VF/SourceSans3VF-Upright.otf'),
};

export function discoverCases(): GoldenCase[] {
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
  if (cases.length === 0) throw new Error(`no golden cases found under ${GOLDEN_DIR} (expected golden/<area>/<case>/design.json)`);
  return cases;
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** A case's design and overrides as read from disk: checked by the engine when rendered, not here. */
export function caseInput(c: GoldenCase): { design: DesignInput; overrides?: ObjectsOverrides } {
  const overridesFile = join(c.dir, 'overrides.json');
  const overrides = existsSync(overridesFile) ? (readJson(overridesFile) as { objects_overrides?: ObjectsOverrides }).objects_overrides : {};
  return { design: readJson(join(c.dir, 'design.json')) as DesignInput, overrides };
}

export function renderCase(engine: Engine, c: GoldenCase, format: OutputFormat): Promise<RenderResult> {
  return engine.render({
    ...caseInput(c),
    format,
    ...(format === 'png' ? { png: { compressionLevel: 9 } } : {}),
    assets: fileAssetResolver({ baseDir: c.dir, assets: TEST_CARDS }),
  });
}
