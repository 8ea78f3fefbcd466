// Shaping: clusters map back to the exact characters, whatever glyphs the font substitutes.
import { describe, expect, it } from 'vitest';
import { bundledFonts, FontSet } from '../src/text/fonts.js';
import { shapeParagraphs } from '../src/text/shape.js';

const span = (text: string, weight = 400) => ({ text, weight, color: [0, 0, 0, 1] as const, underline: false });

describe('shapeParagraphs', () => {
  it('covers every character exactly once, ligatures as one cluster', () => {
    const [p] = shapeParagraphs([span('office ёлка 😀 a\u0301')], 'Lora', bundledFonts(), 0);
    const covered = p!.clusters.map((c) => p!.text.slice(c.start, c.end)).join('');
    expect(covered).toBe('office ёлка 😀 a\u0301');
    expect(p!.clusters.some((c) => c.end - c.start === 2 && p!.text.slice(c.start, c.end) === 'fi')).toBe(true);
  });

  it('splits paragraphs at \\n and \\r\\n and keeps empty ones', () => {
    const paras = shapeParagraphs([span('a\r\n\nb')], 'Inter', bundledFonts(), 0);
    expect(paras.map((p) => p.text)).toEqual(['a', '', 'b']);
  });

  it('shapes bold spans with the bold face', () => {
    const [p] = shapeParagraphs([span('a'), span('b', 700)], 'Inter', bundledFonts(), 0);
    expect(p!.clusters.map((c) => c.face.key)).toEqual(['Inter-400', 'Inter-700']);
  });
});

describe('shaping is independent of what was shaped before', () => {
  it('a ligature sharing a glyph with another character ("->" and "→" in Inter) maps both texts exactly', () => {
    const fonts = new FontSet();
    const fresh = (text: string) =>
      shapeParagraphs([span(text)], 'Inter', new FontSet(), 0)[0]!.clusters.map((c) => [c.start, c.end, c.glyphs.map((g) => g.id)]);
    const arrowFirst = fresh('red → blue');
    shapeParagraphs([span('shirt -> blue, a -> b')], 'Inter', fonts, 0);
    const after = shapeParagraphs([span('red → blue')], 'Inter', fonts, 0)[0]!.clusters.map((c) => [c.start, c.end, c.glyphs.map((g) => g.id)]);
    expect(after).toEqual(arrowFirst);
    const both = shapeParagraphs([span('a -> b → c')], 'Inter', fonts, 0)[0]!;
    expect(both.clusters.map((c) => both.text.slice(c.start, c.end)).join('')).toBe('a -> b → c');
  });
});
