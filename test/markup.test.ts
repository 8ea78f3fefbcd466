// Substyle markup: spans and attributes, and literal text that only looks like markup.
import { describe, expect, it } from 'vitest';
import { parseMarkup } from '../src/text/markup.js';

describe('parseMarkup', () => {
  it('splits styled and plain spans', () => {
    expect(parseMarkup('Buy <substyle bold="700" color="#f00">now</substyle> or <substyle underline link="(url:https://x.io/a?b=1)">later</substyle>')).toEqual(
      [
        { text: 'Buy ', style: {} },
        { text: 'now', style: { weight: 700, color: '#f00' } },
        { text: ' or ', style: {} },
        { text: 'later', style: { underline: true, link: 'https://x.io/a?b=1' } },
      ],
    );
  });

  it('italic is a bare attribute and font_family names a family; bold takes any weight 100-900', () => {
    expect(
      parseMarkup('<substyle italic bold="350" font_family="Lora">x</substyle><substyle bold="100">y</substyle><substyle bold="900">z</substyle>'),
    ).toEqual([
      { text: 'x', style: { italic: true, weight: 350, family: 'Lora' } },
      { text: 'y', style: { weight: 100 } },
      { text: 'z', style: { weight: 900 } },
    ]);
  });

  it('keeps text that merely contains < and > as it is', () => {
    expect(parseMarkup('a < b > c <substyled> <b>')).toEqual([{ text: 'a < b > c <substyled> <b>', style: {} }]);
  });

  it('a tag may style the whole text; empty tags vanish', () => {
    expect(parseMarkup('<substyle bold="400">all</substyle><substyle underline></substyle>')).toEqual([{ text: 'all', style: { weight: 400 } }]);
  });

  it.each([
    ['<substyle bold="700">a<substyle underline>b</substyle></substyle>', /cannot be nested/],
    ['<substyle bold="700">open', /never closed/],
    ['close</substyle>', /without a matching/],
    ['<substyle slant>x</substyle>', /unknown substyle attribute "slant": use bold, italic, font_family/],
    ['<substyle italic="yes">x</substyle>', /italic is a bare attribute/],
    ['<substyle font_family="">x</substyle>', /font_family needs a family name/],
    ['<substyle bold="1000">x</substyle>', /from 100 to 900/],
    ['<substyle bold="50">x</substyle>', /from 100 to 900/],
    ['<substyle bold="heavy">x</substyle>', /numeric weight/],
    ['<substyle color="red">x</substyle>', /hex colour/],
    ['<substyle underline="yes">x</substyle>', /bare attribute/],
    ['<substyle link="https://x.io">x</substyle>', /link="\(url:/],
    ['<substyle link="(url:javascript:alert(1))">x</substyle>', /http:\/\/, https:\/\/ or mailto:/],
    ['<substyle bold="700"', /unterminated/],
  ])('rejects %s', (src, message) => {
    expect(() => parseMarkup(src)).toThrow(message);
  });
});
