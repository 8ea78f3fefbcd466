// text_transform: the case mappings (locale-independent, across substyle spans), and that layout,
// the fit report and the display list's text all see the changed text.
import { describe, expect, it } from 'vitest';
import { designWith, layoutOf, lineTexts, objectGroup } from './support/scene.js';
import { transformTexts } from '../src/text/transform.js';

describe('transformTexts', () => {
  it('uppercases and lowercases with the Unicode default mappings, whatever the locale', () => {
    expect(transformTexts(['Straße ', 'istanbul'], 'uppercase')).toEqual(['STRASSE ', 'ISTANBUL']);
    expect(transformTexts(['İSTANBUL ΟΔΟΣ'], 'lowercase')).toEqual(['i̇stanbul οδος']);
    expect(transformTexts(['As Is'], 'none')).toEqual(['As Is']);
  });

  it('capitalizes the first letter of each word, across spans, leaving the rest as written', () => {
    expect(transformTexts(['the sum', 'mer', " don't e-mail 3rd mIXed"], 'capitalize')).toEqual(['The Sum', 'mer', " Don't E-Mail 3rd MIXed"]);
  });

  it('uses titlecase forms: digraphs and letters whose uppercase is several letters', () => {
    expect(transformTexts(['ǆungla ßa ﬁsh'], 'capitalize')).toEqual(['ǅungla Ssa Fish']);
  });

  it('keeps newlines and the number of spans', () => {
    expect(transformTexts(['a\nb', '', ' c'], 'capitalize')).toEqual(['A\nB', '', ' C']);
    // No boundary between spans: "b" + "c" is one word.
    expect(transformTexts(['a\nb', 'c'], 'capitalize')).toEqual(['A\nB', 'c']);
  });
});

describe('text_transform in layout', () => {
  const headline = (transform?: string) => ({
    type: 'text',
    name: 'headline',
    x: 0,
    y: 0,
    width: 300,
    height: 100,
    font_size: 30,
    text: 'Große <substyle bold="700">sale</substyle>',
    ...(transform === undefined ? {} : { text_transform: transform }),
  });

  it('shapes the transformed text: runs hold it, the substyle keeps its run', () => {
    const { displayList: list } = layoutOf(designWith([headline('uppercase')]));
    const runs = objectGroup(list, 0).items.flatMap((it) => (it.kind === 'glyphs' ? [it.text] : []));
    expect(runs).toEqual(['GROSSE ', 'SALE']);
  });

  it('is overridable; the override wins over the template', () => {
    const { displayList: list } = layoutOf(designWith([headline('uppercase')]), { headline: { text_transform: 'lowercase' } });
    expect(lineTexts(objectGroup(list, 0))).toEqual(['große sale']);
  });

  it('breaks lines of the transformed text: uppercase is wider', () => {
    const narrow = { ...headline(), text: 'wide words here', width: 170, config: { text_replacement_strategy: 'fixed-width' } };
    const lower = layoutOf(designWith([narrow]));
    const upper = layoutOf(designWith([{ ...narrow, text_transform: 'uppercase' }]));
    expect(lineTexts(objectGroup(lower.displayList, 0))).toEqual(['wide words', 'here']);
    expect(lineTexts(objectGroup(upper.displayList, 0))).toEqual(['WIDE', 'WORDS', 'HERE']);
    expect(upper.report[0]!.line_count).toBe(3);
  });
});
