// Shaping: clusters map back to the exact characters, whatever glyphs the font substitutes.
import { describe, expect, it } from 'vitest';
import { bundledFonts } from '../src/text/fonts.js';
import { shapeText } from '../src/text/shape.js';

const span = (text: string, weight = 400) => ({ text, weight, color: [0, 0, 0, 1] as const, underline: false });

describe('shapeText', () => {
  it('covers every character exactly once, ligatures as one cluster', () => {
    const [p] = shapeText([span('office ёлка 😀 a\u0301')], 'Lora', bundledFonts(), 0);
    const covered = p!.clusters.map((c) => p!.text.slice(c.start, c.end)).join('');
    expect(covered).toBe('office ёлка 😀 a\u0301');
    expect(p!.clusters.some((c) => c.end - c.start === 2 && p!.text.slice(c.start, c.end) === 'fi')).toBe(true);
  });

  it('splits paragraphs at \\n and \\r\\n and keeps empty ones', () => {
    const paras = shapeText([span('a\r\n\nb')], 'Inter', bundledFonts(), 0);
    expect(paras.map((p) => p.text)).toEqual(['a', '', 'b']);
  });

  it('shapes bold spans with the bold face', () => {
    const [p] = shapeText([span('a'), span('b', 700)], 'Inter', bundledFonts(), 0);
    expect(p!.clusters.map((c) => c.face.key)).toEqual(['Inter-400', 'Inter-700']);
  });
});
