// Runs the examples in docs/*.md and README.md: each ```json example=<id> overrides``` block renders
// against the ```json example=<id> design``` block; a following ```text example=<id> error``` block
// is the exact error line it must produce, otherwise it must render.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DesignInput } from '../src/engine.js';
import { fileAssetResolver, ImprintError, render } from '../src/index.js';
import type { Overrides } from '../src/resolve/types.js';

const ROOT = join(import.meta.dirname, '..');
const files = [
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
  'README.md',
];
const FENCE = /```(json|text) example=([\w-]+) (design|overrides|error)\n([\s\S]*?)```/g;

// Parsed from the docs as they stand: the engine checks them when they render.
interface Case {
  file: string;
  id: string;
  overrides: Overrides;
  error?: string;
}
const designs = new Map<string, DesignInput>();
const cases: Case[] = [];
for (const file of files) {
  for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(FENCE)) {
    const [, , id, role, body] = m as unknown as [string, string, string, string, string];
    if (role === 'design') {
      designs.set(id, JSON.parse(body) as DesignInput);
      cases.push({ file, id, overrides: {} });
    } else if (role === 'overrides') cases.push({ file, id, overrides: JSON.parse(body) as Overrides });
    else cases[cases.length - 1]!.error = body.trim();
  }
}

const assets = fileAssetResolver({
  baseDir: ROOT,
  assets: {
    photo: 'golden/assets/landscape.png',
    phone: 'examples/mockup-phone/studio-phone.png',
    'backdrop-mask': 'examples/mockup-phone/backdrop-mask.png',
    screen: 'examples/mockup-phone/screen-home.png',
    promo: 'examples/mockup-phone/screen-promo.png',
    clip: 'golden/assets/clip-testsrc.mp4',
  },
});

describe('documentation examples', () => {
  it('finds examples', () => expect(cases.length).toBeGreaterThanOrEqual(8));
  it.each(cases.map((c, i) => [`${c.file} #${i} (${c.id})`, c] as const))('%s', async (_, c) => {
    const run = render({ design: designs.get(c.id), overrides: c.overrides, format: 'png', assets });
    if (c.error === undefined) {
      const { bytes } = await run;
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    } else {
      const e = await run.then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ImprintError);
      expect(String(e)).toBe(c.error);
    }
  });
});
