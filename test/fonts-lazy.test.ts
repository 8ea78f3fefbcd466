// Lazy fonts: a FontSet reads only its manifest; a face's file is opened by HarfBuzz on first use, once.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Every font file HarfBuzz opens is first wrapped in a Blob: counting Blobs counts the parses.
const parsed = vi.hoisted(() => ({ sizes: [] as number[] }));
vi.mock('harfbuzzjs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('harfbuzzjs')>();
  class Blob extends actual.Blob {
    constructor(data: ArrayBuffer | Uint8Array) {
      super(data);
      parsed.sizes.push(data.byteLength);
    }
  }
  return { ...actual, Blob };
});

// The shaper setup file (vitest.config.ts) already loaded the real modules: load them afresh, mocked.
vi.resetModules();
const { Engine } = await import('../src/engine.js');
const { FontSet } = await import('../src/text/fonts.js');
const { shapeParagraphs } = await import('../src/text/shape.js');
const { designWith } = await import('./support/scene.js');

/** The face files parsed so far, by name (the bundled files all differ in size). */
const bundled = new FontSet();
const SIZE_TO_FILE = new Map(
  bundled
    .familyNames()
    .flatMap((family) => [400, 700].flatMap((weight) => (['normal', 'italic'] as const).map((style) => bundled.face(family, weight, style).file)))
    .map((f) => [readFileSync(f).length, basename(f)]),
);
const parsedFiles = () => parsed.sizes.map((n) => SIZE_TO_FILE.get(n) ?? `unknown (${n} bytes)`);

beforeEach(() => {
  parsed.sizes.length = 0;
});

describe('lazy font faces', () => {
  it('constructing a FontSet parses no font file, and naming a face parses nothing either', () => {
    const fonts = new FontSet();
    expect(fonts.familyNames()).toEqual(['Inter', 'Lora', 'Roboto', 'Open Sans', 'Anton']);
    const face = fonts.face('Lora', 700);
    expect([face.key, face.family, face.weight, basename(face.file)]).toEqual(['Lora-700', 'Lora', 700, 'Lora_700Bold.ttf']);
    expect(parsedFiles()).toEqual([]);
  });

  it('a design in Inter 400 parses that face only, once, and a second render parses nothing', async () => {
    const fonts = new FontSet();
    // On the caller's thread, where this test counts the parses.
    const engine = new Engine({ fonts, threads: 0 });
    const text = { type: 'text', name: 't', x: 10, y: 20, width: 400, height: 120, font_size: 40, font_family: 'Inter' };
    const design = designWith([{ ...text, text: 'Hello, ёлка: “a”' }]);
    await engine.render({ design, format: 'png' });
    // One HarfBuzz face serves shaping, metrics and outlines.
    expect(parsedFiles()).toEqual(['Inter_400Regular.ttf']);
    await engine.render({ design, format: 'png' });
    await new Engine({ fonts, threads: 0 }).render({ design, format: 'jpg' });
    expect(parsedFiles()).toEqual(['Inter_400Regular.ttf']);
  });

  it('the first access of any face property parses it, once', () => {
    const face = new FontSet().face('Inter', 700);
    expect(face.bytes.length).toBeGreaterThan(0);
    expect(parsedFiles()).toEqual([]);
    expect(face.ascent).toBeGreaterThan(0);
    expect(face.outlines.getGlyph(1).advanceWidth).toBeGreaterThan(0);
    face.shaper.layout('Bold');
    expect([face.unitsPerEm, face.descent, face.underlinePosition, face.underlineThickness].every(Number.isFinite)).toBe(true);
    expect(parsedFiles()).toEqual(['Inter_700Bold.ttf']);
  });
});

describe('outlines and shaping share one parsed font without disturbing each other', () => {
  const span = (text: string) => ({ text, weight: 400, color: [0, 0, 0, 1] as const, underline: false });
  const clusters = (fonts: InstanceType<typeof FontSet>, text: string) => {
    const p = shapeParagraphs([span(text)], 'Inter', fonts, 0)[0]!;
    return p.clusters.map((c) => [p.text.slice(c.start, c.end), c.glyphs.map((g) => g.id)]);
  };

  it('outlines of composite glyphs (their components cached without code points) leave later shaping exact', () => {
    const latin = 'Seven eleven: “twelve” elephants, seen there';
    const expected = clusters(new FontSet(), latin);
    // Glyph ids of composites whose components ("е" is drawn with Latin "e", the quotes from commas)
    // are also glyphs of the later text; their outlines are fetched before that text is ever shaped.
    const composites = clusters(new FontSet(), 'ё: “ё” ä é').flatMap(([, ids]) => ids as number[]);
    const fonts = new FontSet();
    const face = fonts.face('Inter', 400);
    for (const id of composites) face.outlines.getGlyph(id).path.toSVG();
    expect(clusters(fonts, latin)).toEqual(expected);
    expect(
      clusters(fonts, latin)
        .map(([t]) => t)
        .join(''),
    ).toBe(latin);
  });
});
