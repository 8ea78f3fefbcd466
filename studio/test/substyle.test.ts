// The text toolbar's substyle editing: tags put around the selection, toggled off again, never
// nested (the service refuses nested tags), and what the service's own markup parser makes of the result.
import { describe, expect, it } from 'vitest';
import { parseMarkup } from '../../src/text/markup.js';
import { applySubstyle, BOLD, checkLink, colourAttr, linkAttr, parsePieces, plainText, UNDERLINE } from '../src/lib/substyle.js';

/** Applies an attribute to the first occurrence of `word` in the text. */
const onWord = (text: string, word: string, attr = BOLD) => {
  const i = text.indexOf(word);
  return applySubstyle(text, i, i + word.length, attr);
};

describe('substyle toolbar', () => {
  it('wraps the selected word of plain text and selects the same characters again', () => {
    const edit = onWord('Summer sale now', 'sale');
    expect(edit.text).toBe('Summer <substyle bold="700">sale</substyle> now');
    expect(edit.text.slice(edit.start, edit.end)).toBe('sale');
    expect(parseMarkup(edit.text)).toEqual([
      { text: 'Summer ', style: {} },
      { text: 'sale', style: { weight: 700 } },
      { text: ' now', style: {} },
    ]);
  });

  it('toggles: Bold twice gives the text back', () => {
    const once = onWord('Summer sale now', 'sale');
    const twice = applySubstyle(once.text, once.start, once.end, BOLD);
    expect(twice.text).toBe('Summer sale now');
    expect(twice.text.slice(twice.start, twice.end)).toBe('sale');
  });

  it('adds an attribute to an existing tag instead of nesting a second one', () => {
    const bold = onWord('Summer sale now', 'sale');
    const red = applySubstyle(bold.text, bold.start, bold.end, colourAttr('#e53935'));
    expect(red.text).toBe('Summer <substyle bold="700" color="#e53935">sale</substyle> now');
    expect(() => parseMarkup(red.text)).not.toThrow();
  });

  it('splits a tag when only part of it is selected, keeping every piece un-nested', () => {
    const source = 'Get <substyle bold="700">big savings</substyle> today';
    const edit = onWord(source, 'savings', UNDERLINE);
    expect(edit.text).toBe('Get <substyle bold="700">big </substyle><substyle bold="700" underline>savings</substyle> today');
    expect(parseMarkup(edit.text).map((s) => [s.text, s.style])).toEqual([
      ['Get ', {}],
      ['big ', { weight: 700 }],
      ['savings', { weight: 700, underline: true }],
      [' today', {}],
    ]);
  });

  it('styles a selection that spans plain text and a tag, and merges equal neighbours', () => {
    const source = 'ab<substyle bold="700">cd</substyle>ef';
    // Select "bcde" (source offsets: "b" at 1, "e" ends at the closing tag + 1).
    const start = 1;
    const end = source.indexOf('</substyle>') + '</substyle>'.length + 1;
    const edit = applySubstyle(source, start, end, BOLD);
    expect(edit.text).toBe('a<substyle bold="700">bcde</substyle>f');
    expect(edit.text.slice(edit.start, edit.end)).toBe('bcde');
  });

  it('treats a selection that starts or ends inside the tag markup as its text', () => {
    const source = '<substyle color="#ff0000">red</substyle> rest';
    const edit = applySubstyle(source, 0, source.indexOf(' rest'), BOLD);
    expect(edit.text).toBe('<substyle bold="700" color="#ff0000">red</substyle> rest');
  });

  it('makes a link with the service syntax and checks the URL', () => {
    const edit = onWord('Read more here', 'here', linkAttr('https://example.com/a?b=1'));
    expect(edit.text).toBe('Read more <substyle link="(url:https://example.com/a?b=1)">here</substyle>');
    expect(parseMarkup(edit.text)[1]!.style.link).toBe('https://example.com/a?b=1');
    expect(checkLink('https://example.com')).toBeUndefined();
    expect(checkLink('javascript:alert(1)')).toMatch(/http/);
    expect(checkLink('https://example.com/"x')).toMatch(/cannot contain/);
  });

  it('says why when nothing is selected or the tags are malformed, and leaves the text alone', () => {
    expect(applySubstyle('plain', 2, 2, BOLD)).toEqual({ text: 'plain', start: 2, end: 2, note: 'select some text first' });
    const broken = '<substyle bold="700">open';
    const edit = applySubstyle(broken, 0, broken.length, BOLD);
    expect(edit.text).toBe(broken);
    expect(edit.note).toMatch(/malformed/);
    expect(parsePieces('<substyle bold="700">a<substyle>b</substyle></substyle>')).toBeUndefined();
  });

  it('keeps literal angle brackets that are not substyle tags, and multi-line text', () => {
    const source = 'a < b\n<substyles> stays';
    const edit = onWord(source, 'stays');
    expect(edit.text).toBe('a < b\n<substyles> <substyle bold="700">stays</substyle>');
    expect(plainText(edit.text)).toBe(source);
  });

  it('accepts a selection given end first (a backwards drag)', () => {
    const edit = applySubstyle('one two', 7, 4, BOLD);
    expect(edit.text).toBe('one <substyle bold="700">two</substyle>');
  });
});
