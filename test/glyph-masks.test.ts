// Glyph masks (src/paint/glyph-masks.ts): a render's pixels do not depend on what the cache held
// before, even after it filled up and let masks go; text that masks cannot copy exactly
// (rotated, translucent) is filled from its outlines.
import { describe, expect, it } from 'vitest';
import type { DesignInput } from '../src/engine.js';
import { Engine } from '../src/index.js';
import { svgPathBox } from '../src/paint/glyph-masks.js';

const engine = new Engine({ threads: 0 });
const text = (extra: Record<string, unknown> = {}): DesignInput => ({
  width: 400,
  height: 200,
  background: { type: 'color', color: '#ffffff' },
  objects: [{ type: 'text', name: 't', x: 10, y: 10, width: 380, height: 180, text: 'Glyph masks: Hamburgefonstiv 0123', font_size: 28, ...extra }],
});
const png = async (design: DesignInput) => (await engine.render({ design, format: 'png' })).bytes;

describe('glyph masks', () => {
  it('gives the same bytes before and after the mask cache filled up and let the oldest go', async () => {
    const before = await png(text());
    // Every size from 60 to 159 px is a new set of masks (13 glyphs of up to ~110×120 px, ~50 kB
    // each; ~30 MB in all): more than the 16 MB the cache keeps, so the first render's masks are let go.
    const big = (size: number): DesignInput => ({
      width: 1600,
      height: 400,
      objects: [{ type: 'text', name: 't', x: 0, y: 0, width: 1600, height: 400, text: 'ABCDEFGHIJKLM', font_size: size }],
    });
    for (let size = 60; size < 160; size++) await png(big(size));
    expect((await png(text())).equals(before)).toBe(true);
  });

  it('paints translucent and rotated text (outline fills) as it did before masks', async () => {
    const translucent = await png(text({ color: '#10131c80' }));
    const rotated = await png(text({ rotation: 12 }));
    // Rendering them again, after opaque text filled the cache, changes nothing either.
    await png(text());
    expect((await png(text({ color: '#10131c80' }))).equals(translucent)).toBe(true);
    expect((await png(text({ rotation: 12 }))).equals(rotated)).toBe(true);
  });

  it('bounds a glyph path by its points, and has no box for an empty glyph', () => {
    expect(svgPathBox('M10,-20L300,0Q350,700 120,650Z')).toEqual([10, -20, 350, 700]);
    expect(svgPathBox('')).toBeNull();
  });
});
