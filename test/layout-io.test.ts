// Layout does no I/O (docs/architecture.md): the font files a render's texts need are read while its
// assets load (src/assets/text-faces.ts), so laying out every golden case and example, at its still
// time and across its duration, reads no file. Each case gets a font set of its own, whose faces have
// read nothing yet (the fallback chain's faces are shared by the process: read by the first case that needs them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const reads = vi.hoisted(() => ({ files: [] as string[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((path: Parameters<typeof fs.readFileSync>[0], ...rest: [never]) => {
    reads.files.push(String(path));
    return fs.readFileSync(path, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

// The shaper setup file already loaded the engine's modules with the real node:fs: load them afresh.
vi.resetModules();
const { fileAssetResolver } = await import('../src/assets/resolver.js');
const { ImageCache } = await import('../src/assets/load.js');
const { layoutAt, stillTimeOf, withScenes } = await import('../src/render/scenes.js');
const { FontSet } = await import('../src/text/fonts.js');
const { loadShaper } = await import('../src/text/harfbuzz.js');
const { caseInput, discoverCases, TEST_CARDS } = await import('./support/golden-cases.js');
await loadShaper();

const ROOT = join(import.meta.dirname, '..');
const FONT_FILE = /\.(ttf|otf|woff2?|ttc)$/i;

interface Case {
  name: string;
  design: unknown;
  overrides?: unknown;
  dir: string;
  cards?: Record<string, string>;
}

const golden: Case[] = discoverCases().map((c) => ({ name: `golden/${c.area}/${c.name}`, ...caseInput(c), dir: c.dir, cards: TEST_CARDS }));
const examples: Case[] = readdirSync(join(ROOT, 'examples'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => {
    const dir = join(ROOT, 'examples', d.name);
    const file = ['design.json', 'polotno.json'].find((f) => existsSync(join(dir, f)));
    if (!file) return [];
    const o = join(dir, 'overrides.json');
    const overrides = existsSync(o) ? (JSON.parse(readFileSync(o, 'utf8')) as { objects_overrides?: unknown }).objects_overrides : {};
    return [{ name: `examples/${d.name}`, design: JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown, overrides, dir }];
  });

describe('layout reads no font file', () => {
  it.each([...golden, ...examples].map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const ctx = { fonts: new FontSet(), images: new ImageCache(64 << 20) };
    const options = {
      design: c.design,
      overrides: c.overrides,
      format: 'png',
      assets: fileAssetResolver({ baseDir: c.dir, ...(c.cards ? { assets: c.cards } : {}) }),
    } as const;
    await withScenes(ctx, options as never, async (pages) => {
      reads.files.length = 0;
      for (const page of pages) {
        const { scene } = page;
        const times = new Set([stillTimeOf(scene, options as never), 0, ...(scene.duration ? [scene.duration / 2, scene.duration * 0.99] : [])]);
        for (const t of times) await layoutAt(ctx, page, t);
      }
      expect(reads.files.filter((f) => FONT_FILE.test(f))).toEqual([]);
    });
  });
});
