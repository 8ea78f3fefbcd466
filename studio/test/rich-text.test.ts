// Rich text over the engine's substyle markup: markup → runs → markup is stable and keeps every
// attribute, formats apply to a range and toggle, typing takes the style before the caret, and what is
// written is what the engine's own parser reads back.
import { describe, expect, it } from 'vitest';
import { HEX_COLOR as ENGINE_HEX_COLOR } from '../../src/format/color.js';
import { parseMarkup, type SpanStyle } from '../../src/text/markup.js';
import {
  applyFormat,
  deleteText,
  formatMarkup,
  formatOf,
  HEX_COLOR,
  insertText,
  normalizeRuns,
  parseRich,
  plainOf,
  replaceText,
  styleAt,
  toggleFormat,
  toMarkup,
  withFormat,
  type Edited,
  type Run,
  type RunStyle,
} from '../src/lib/rich-text.js';

const runsOf = (markup: string): Run[] => {
  const p = parseRich(markup);
  if (!p.ok) throw new Error(p.message);
  return p.runs;
};
const got = (e: Edited): Run[] => {
  if (!e.ok) throw new Error(e.message);
  return e.runs;
};

/** The engine's reading of a run style, to compare with what its parser makes of the markup. */
const engineStyle = (s: RunStyle): SpanStyle => ({
  ...(s.font_weight !== undefined ? { weight: s.font_weight } : {}),
  ...(s.italic ? { italic: true } : {}),
  ...(s.font_family !== undefined ? { family: s.font_family } : {}),
  ...(s.color !== undefined ? { color: s.color } : {}),
  ...(s.underline ? { underline: true } : {}),
  ...(s.strikethrough ? { strikethrough: true } : {}),
  ...(s.link !== undefined ? { link: s.link } : {}),
  ...(s.lang !== undefined ? { lang: s.lang } : {}),
});
/** What the engine reads from the runs' markup, with its equal neighbours merged as runs are. */
const engineRuns = (runs: Run[]) => {
  const spans = parseMarkup(toMarkup(runs));
  const merged: { text: string; style: SpanStyle }[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && JSON.stringify(last.style) === JSON.stringify(s.style)) last.text += s.text;
    else merged.push({ text: s.text, style: s.style });
  }
  return merged;
};

const EVERY =
  'A <substyle bold="700" italic font_family="Lora" color="#e53935" underline strikethrough link="(url:https://example.com/a)" lang="ja">b</substyle> c';

describe('rich text', () => {
  it("uses the engine's colour syntax", () => {
    expect(HEX_COLOR.source).toBe(ENGINE_HEX_COLOR.source);
  });

  it('reads markup as runs, every attribute kept', () => {
    expect(runsOf(EVERY)).toEqual([
      { text: 'A ', style: {} },
      {
        text: 'b',
        style: {
          font_weight: 700,
          italic: true,
          underline: true,
          strikethrough: true,
          color: '#e53935',
          link: 'https://example.com/a',
          font_family: 'Lora',
          lang: 'ja',
        },
      },
      { text: ' c', style: {} },
    ]);
    expect(toMarkup(runsOf(EVERY))).toBe(EVERY);
  });

  it('writes markup normalised and stable: one attribute order, equal neighbours merged, empty tags dropped', () => {
    const messy =
      '<substyle color="#fff" bold="700">Su</substyle><substyle bold="700" color="#fff">mmer</substyle><substyle italic></substyle> <substyle>sale</substyle>';
    const once = toMarkup(runsOf(messy));
    expect(once).toBe('<substyle bold="700" color="#fff">Summer</substyle> sale');
    expect(toMarkup(runsOf(once))).toBe(once);
    for (const m of [EVERY, 'plain', '', 'a < b > c <substylex>', 'x\n<substyle underline>y</substyle>\nz', '<substyle bold="400" bold="800">w</substyle>']) {
      const first = toMarkup(runsOf(m));
      expect(toMarkup(runsOf(first)), m).toBe(first);
      expect(engineRuns(runsOf(m)), m).toEqual(normalizeRuns(runsOf(m)).map((r) => ({ text: r.text, style: engineStyle(r.style) })));
    }
    // The last of an attribute given twice wins, as in the engine.
    expect(runsOf('<substyle bold="400" bold="800">w</substyle>')[0]!.style.font_weight).toBe(800);
  });

  it('refuses malformed markup and attributes the engine refuses', () => {
    for (const bad of [
      '<substyle bold="700">a',
      'a</substyle>',
      '<substyle bold="700">a<substyle italic>b</substyle></substyle>',
      '<substyle shout>a</substyle>',
      '<substyle bold="heavy">a</substyle>',
      '<substyle bold="950">a</substyle>',
      '<substyle color="red">a</substyle>',
      '<substyle italic="yes">a</substyle>',
      '<substyle link="https://x.com">a</substyle>',
      '<substyle link="(url:javascript:alert(1))">a</substyle>',
      '<substyle font_family="">a</substyle>',
      '<substyle lang="">a</substyle>',
    ]) {
      const p = parseRich(bad);
      expect(p.ok, bad).toBe(false);
      expect(() => parseMarkup(bad), bad).toThrow();
    }
    expect(parseRich('<substyle shout>a</substyle>')).toEqual({
      ok: false,
      message: 'unknown substyle attribute "shout": use bold, italic, font_family, color, underline, strikethrough, link or lang',
    });
  });

  it('bolds a word and toggles it back', () => {
    const runs = runsOf('Summer sale now');
    const bold = got(toggleFormat(runs, 7, 11, 'bold'));
    expect(toMarkup(bold)).toBe('Summer <substyle bold="700">sale</substyle> now');
    expect(toMarkup(got(toggleFormat(bold, 7, 11, 'bold')))).toBe('Summer sale now');
    // Part of it bold already: the button makes all of it bold.
    expect(toMarkup(got(toggleFormat(bold, 5, 9, 'bold')))).toBe('Summe<substyle bold="700">r sale</substyle> now');
  });

  it('on a bold text object, bold off writes a normal weight and bold on removes it', () => {
    const base = { font_weight: 700 };
    const runs = runsOf('Big deal');
    expect(formatOf(runs, 0, 3, base).bold).toBe(true);
    const off = got(toggleFormat(runs, 0, 3, 'bold', base));
    expect(toMarkup(off)).toBe('<substyle bold="400">Big</substyle> deal');
    expect(toMarkup(got(toggleFormat(off, 0, 3, 'bold', base)))).toBe('Big deal');
  });

  it('sets and removes colour, link, family, weight, language, underline and strikethrough on a range', () => {
    let runs = runsOf('Get big savings today');
    runs = got(applyFormat(runs, 4, 15, { color: '#e53935', link: 'https://shop.example.com', underline: true }));
    runs = got(applyFormat(runs, 8, 15, { font_family: 'Lora', font_weight: 300, lang: 'en-GB', strikethrough: true }));
    expect(toMarkup(runs)).toBe(
      'Get <substyle color="#e53935" underline link="(url:https://shop.example.com)">big </substyle>' +
        '<substyle bold="300" font_family="Lora" color="#e53935" underline strikethrough link="(url:https://shop.example.com)" lang="en-GB">savings</substyle> today',
    );
    expect(() => parseMarkup(toMarkup(runs))).not.toThrow();
    runs = got(applyFormat(runs, 0, 21, { color: null, link: null, underline: false, font_family: null, font_weight: null, lang: null, strikethrough: false }));
    expect(toMarkup(runs)).toBe('Get big savings today');
  });

  it('refuses values the markup cannot hold, and an empty range', () => {
    const runs = runsOf('Hello');
    expect(applyFormat(runs, 0, 5, { color: 'red' })).toEqual({ ok: false, message: 'a colour is a hex colour such as #e53935' });
    expect(applyFormat(runs, 0, 5, { link: 'ftp://x' }).ok).toBe(false);
    expect(applyFormat(runs, 0, 5, { link: 'https://x.com/a"b' }).ok).toBe(false);
    expect(applyFormat(runs, 0, 5, { link: 'https://x.com/>' }).ok).toBe(false);
    expect(applyFormat(runs, 0, 5, { font_family: 'A"B' }).ok).toBe(false);
    expect(applyFormat(runs, 0, 5, { font_weight: 950 }).ok).toBe(false);
    expect(applyFormat(runs, 0, 5, { lang: 'not a tag' }).ok).toBe(false);
    expect(applyFormat(runs, 2, 2, { italic: true })).toEqual({ ok: false, message: 'select some text first' });
  });

  it('shows a range as the toolbar needs it: uniform values, or mixed', () => {
    const runs = runsOf('a <substyle bold="700" color="#111">bc</substyle> d');
    expect(formatOf(runs, 2, 4)).toMatchObject({ bold: true, color: '#111', italic: false, font_weight: 700, link: null });
    expect(formatOf(runs, 0, 4)).toMatchObject({ bold: 'mixed', color: 'mixed', italic: false });
    // A caret: the style typing there would get, that of the character before it.
    expect(formatOf(runs, 3, 3).bold).toBe(true);
    expect(formatOf(runs, 2, 2).bold).toBe(false);
    expect(formatOf(runs, 0, 0).bold).toBe(false);
    expect(styleAt(runsOf('<substyle italic>x</substyle>y'), 0)).toEqual({ italic: true });
  });

  it('types with the style before the caret, replaces a selection, deletes', () => {
    const runs = runsOf('Summer <substyle bold="700">sale</substyle>');
    expect(toMarkup(got(insertText(runs, 11, '!')))).toBe('Summer <substyle bold="700">sale!</substyle>');
    expect(toMarkup(got(insertText(runs, 7, 'big ')))).toBe('Summer big <substyle bold="700">sale</substyle>');
    expect(toMarkup(got(insertText(runs, 7, 'big ', { font_weight: 700 })))).toBe('Summer <substyle bold="700">big sale</substyle>');
    expect(toMarkup(got(replaceText(runs, 7, 11, 'deals')))).toBe('Summer <substyle bold="700">deals</substyle>');
    expect(toMarkup(got(deleteText(runs, 5, 9)))).toBe('Summe<substyle bold="700">le</substyle>');
    expect(toMarkup(got(deleteText(runs, 0, 99)))).toBe('');
    expect(plainOf(got(insertText([], 0, 'new')))).toBe('new');
  });

  it('refuses typed text the markup cannot write', () => {
    const runs = runsOf('a <substyle bold="700">b</substyle>');
    expect(insertText(runs, 1, '</substyle>')).toEqual({ ok: false, message: expect.stringContaining('cannot hold') });
    expect(insertText(runs, 1, '<substyle bold="700">').ok).toBe(false);
    expect(insertText(runs, 3, '<substyles').ok).toBe(false);
    // Plain text may hold what only looks like a tag.
    expect(toMarkup(got(insertText(runs, 0, 'x<substylex ')))).toBe('x<substylex a <substyle bold="700">b</substyle>');
  });

  it('keeps an emoji whole at the edge of a range', () => {
    const runs = runsOf('hi 👋 there');
    // 4 is the middle of the emoji's surrogate pair: the range grows to hold it whole.
    const r = got(applyFormat(runs, 4, 5, { underline: true }));
    expect(toMarkup(r)).toBe('hi <substyle underline>👋</substyle> there');
  });

  it('formats markup in and out for a caller that keeps the markup', () => {
    expect(formatMarkup('Hello world', 6, 11, { color: '#00ff00' })).toEqual({ ok: true, markup: 'Hello <substyle color="#00ff00">world</substyle>' });
    expect(formatMarkup('<substyle>x', 0, 1, { italic: true }).ok).toBe(false);
    expect(withFormat({ italic: true }, { bold: true })).toEqual({ font_weight: 700, italic: true });
  });

  it('writes, for any runs of any styles, markup the engine reads back as those runs', () => {
    // A fixed pseudo-random walk over styles and texts (deterministic: no seed from the clock).
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const styles: RunStyle[] = [
      {},
      { font_weight: 700 },
      { italic: true, color: '#123' },
      { underline: true, link: 'mailto:a@b.c' },
      { strikethrough: true, font_family: 'Roboto', lang: 'zh-Hant' },
      { font_weight: 300, italic: true, underline: true },
    ];
    const words = ['a', 'bc', ' ', 'déf', '\n', '👋', '<', '>', '"q"', 'x y'];
    for (let k = 0; k < 200; k++) {
      const runs: Run[] = Array.from({ length: 1 + rand(6) }, () => ({ text: words[rand(words.length)]!, style: styles[rand(styles.length)]! }));
      const norm = normalizeRuns(runs);
      const lang = (s: SpanStyle) => ({ ...s, ...(s.lang ? { lang: s.lang.toLowerCase() } : {}) });
      expect(engineRuns(runs).map((r) => ({ ...r, style: lang(r.style) }))).toEqual(norm.map((r) => ({ text: r.text, style: lang(engineStyle(r.style)) })));
      expect(runsOf(toMarkup(runs))).toEqual(norm);
    }
  });
});
