// The designs grid's new designs (the presets of lib/design-ops.ts), name rules and search
// (studio/src/lib/new-design.ts): every preset makes a design the engine renders at that size; bad sizes and names say how to fix
// them; search finds by name words and id.
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../src/design/parse.js';
import { LIMITS } from '../../src/format/fields.js';
import { Engine, type DesignInput } from '../../src/engine.js';
import { blankDesign, SIZE_PRESETS } from '../src/lib/design-ops.js';
import { checkName, copyName, MAX_CANVAS_SIDE, parseSide, searchDesigns } from '../src/lib/new-design.js';

describe('new designs', () => {
  it('keeps the canvas limit the engine has', () => {
    expect(MAX_CANVAS_SIDE).toBe(LIMITS.maxCanvasSide);
  });

  it.each(SIZE_PRESETS)('makes a blank $label design the engine renders at that size', async (preset) => {
    const made = blankDesign(preset);
    if (!made.ok) throw new Error(made.error.message);
    const design = made.design as DesignInput;
    expect(() => parseDesign(design)).not.toThrow();
    const png = await new Engine({ threads: 0 }).render({ design, format: 'png', scale: 0.1 });
    expect([png.width, png.height]).toEqual([Math.round(Math.round(preset.width) * 0.1), Math.round(Math.round(preset.height) * 0.1)]);
  });

  it('makes A4 at 300 dpi an exact A4 pdf page', async () => {
    const a4 = SIZE_PRESETS.find((p) => p.id === 'a4')!;
    const made = blankDesign(a4);
    if (!made.ok) throw new Error(made.error.message);
    const pdf = await new Engine({ threads: 0 }).render({ design: made.design as DesignInput, format: 'pdf' });
    // 595.276 × 841.89 pt is A4.
    expect(pdf.bytes.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.27\d+ 841\.8\d+\]/);
  });

  it.each([
    ['', 'Enter the width in pixels, a number such as 1080.'],
    ['abc', 'Enter the width in pixels, a number such as 1080.'],
    ['0', 'The width must be between 1 and 8192 pixels.'],
    ['9000', 'The width must be between 1 and 8192 pixels.'],
  ])('refuses a custom width of %j: %s', (text, message) => {
    expect(parseSide('width', text)).toEqual({ field: 'width', message });
  });

  it('takes a custom size as typed, fractions included', () => {
    expect(parseSide('height', ' 1350 ')).toBe(1350);
    expect(parseSide('height', '841.5')).toBe(841.5);
  });

  it('trims names and refuses empty and overlong ones', () => {
    expect(checkName('  Summer sale ')).toBe('Summer sale');
    expect(checkName('   ')).toEqual({ field: 'name', message: 'Give the design a name.' });
    expect(checkName('x'.repeat(121))).toEqual({ field: 'name', message: 'Keep the name to 120 characters (it has 121).' });
  });

  it('names a copy after its original, among the names taken', () => {
    expect(copyName('Summer sale', ['Summer sale'])).toBe('Summer sale copy');
    expect(copyName('Summer sale', ['Summer sale copy', 'Summer sale copy 2'])).toBe('Summer sale copy 3');
    expect(copyName('x'.repeat(120), []).length).toBeLessThanOrEqual(120);
  });

  it('finds designs by every word of the query in the name, or by id, in any case', () => {
    const designs = [
      { design_id: 1, name: 'Summer sale card' },
      { design_id: 12, name: 'Winter promo' },
      { design_id: 3, name: 'summer story' },
    ];
    expect(searchDesigns(designs, 'SUMMER').map((d) => d.design_id)).toEqual([1, 3]);
    expect(searchDesigns(designs, 'summer card').map((d) => d.design_id)).toEqual([1]);
    expect(searchDesigns(designs, '12').map((d) => d.design_id)).toEqual([12]);
    expect(searchDesigns(designs, '  ')).toHaveLength(3);
    expect(searchDesigns(designs, 'autumn')).toEqual([]);
  });
});
