// Every script: shaping (Arabic joining, Hebrew marks, Devanagari conjuncts), fallback faces chosen per
// character, bidi visual order, start/end alignment, dictionary line breaks, and kerning that a
// paint-only substyle does not change.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../src/engine.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { bundledFonts } from '../src/text/fonts.js';
import { loadShaper } from '../src/text/harfbuzz.js';
import { shapeParagraphs, type ShapedParagraph } from '../src/text/shape.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';
import { run, toolsAvailable } from './support/tools.js';

type Rgba = readonly [number, number, number, number];
const span = (text: string, weight = 400, color: Rgba = [0, 0, 0, 1]) => ({ text, weight, color, underline: false });
const shape1 = (text: string, direction: 'auto' | 'ltr' | 'rtl' = 'auto'): ShapedParagraph =>
  shapeParagraphs([span(text)], 'Inter', bundledFonts(), 0, direction)[0]!;
const text = (fields: Record<string, unknown>) => ({ type: 'text', name: 't', x: 0, y: 0, width: 500, height: 100, font_size: 40, ...fields });
type Glyphs = Extract<DisplayItem, { kind: 'glyphs' }>;
const glyphItems = (fields: Record<string, unknown>): Glyphs[] =>
  objectGroup(layoutOf(designWith([text(fields)])).displayList, 0).items.filter((i): i is Glyphs => i.kind === 'glyphs');

beforeAll(() => loadShaper());

describe('shaping', () => {
  it('joins Arabic letters: the glyphs of a word differ from the isolated forms', () => {
    const word = shape1('مرحبا');
    expect(word.clusters.every((c) => c.face.family === 'Noto Sans Arabic')).toBe(true);
    const joined = word.clusters.map((c) => c.glyphs[0]!.id);
    const isolated = [...'مرحبا'].map((ch) => shape1(ch).clusters[0]!.glyphs[0]!.id);
    expect(joined).not.toEqual(isolated);
    // م starts the word (initial form), ح is medial: both differ from their isolated glyphs.
    expect(joined[0]).not.toBe(isolated[0]);
    expect(joined[2]).not.toBe(isolated[2]);
  });

  it('keeps Hebrew points with their letter in one cluster, every glyph present', () => {
    const p = shape1('שָׁלוֹם');
    expect(p.clusters.map((c) => p.text.slice(c.start, c.end))).toEqual(['שָׁ', 'ל', 'וֹ', 'ם']);
    expect(p.clusters[0]!.glyphs.length).toBe(3);
    expect(p.clusters.flatMap((c) => c.glyphs).every((g) => g.id !== 0)).toBe(true);
  });

  it('forms Devanagari conjuncts and reorders the i sign before its consonant', () => {
    const ksha = shape1('क्ष');
    expect(ksha.clusters).toHaveLength(1);
    expect(ksha.clusters[0]!.glyphs).toHaveLength(1); // three code points, one conjunct glyph
    const ki = shape1('कि');
    const ka = shape1('क').clusters[0]!.glyphs[0]!.id;
    expect(ki.clusters).toHaveLength(1);
    const ids = ki.clusters[0]!.glyphs.map((g) => g.id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ka); // the vowel sign is drawn first, to the left of क
    expect(ids[0]).not.toBe(ka);
  });

  it('shapes right-to-left runs right to left: clusters in logical order, advances positive', () => {
    const p = shape1('שלום 123');
    expect(p.level).toBe(1);
    expect(p.clusters.map((c) => p.text.slice(c.start, c.end)).join('')).toBe('שלום 123');
    expect(p.clusters.map((c) => c.level)).toEqual([1, 1, 1, 1, 1, 2, 2, 2]);
    expect(p.clusters.every((c) => c.advance > 0)).toBe(true);
  });
});

describe('fallback per character', () => {
  const samples: [string, string][] = [
    ['مرحبا', 'Noto Sans Arabic'],
    ['שלום', 'Noto Sans Hebrew'],
    ['नमस्ते', 'Noto Sans Devanagari'],
    ['নমস্কার', 'Noto Sans Bengali'],
    ['வணக்கம்', 'Noto Sans Tamil'],
    ['สวัสดี', 'Noto Sans Thai'],
    ['សួស្តី', 'Noto Sans Khmer'],
    ['ສະບາຍດີ', 'Noto Sans Lao'],
    ['Բարեւ', 'Noto Sans Armenian'],
    ['გამარჯობა', 'Noto Sans Georgian'],
    ['☃', 'Noto Sans Symbols 2'],
    ['👍🏽', 'Noto Color Emoji'],
  ];
  it.each(samples)('%s is drawn by %s and nothing is reported missing', (sample, family) => {
    const items = glyphItems({ text: `Hi ${sample}!` });
    expect(items.map((i) => i.face)).toEqual(['Inter-400', `${family}-400`, 'Inter-400']);
    expect(layoutOf(designWith([text({ text: `Hi ${sample}!` })])).report[0]!.missing_characters).toEqual([]);
  });

  it('uses the fallback face nearest the span weight', () => {
    const items = glyphItems({ text: 'Bold مرحبا', font_weight: 700 });
    expect(items.map((i) => i.face)).toEqual(['Inter-700', 'Noto Sans Arabic-700']);
  });

  it('draws Greek missing from Lora with Inter, the other bundled family', () => {
    expect(glyphItems({ text: 'λόγος logos', font_family: 'Lora' }).map((i) => i.face)).toEqual(['Inter-400', 'Lora-400']);
  });

  it('keeps emoji sequences whole: ZWJ family, flag, keycap and skin tone are one cluster each', () => {
    const p = shape1('👩‍👩‍👧🇯🇵#️⃣👍🏽');
    expect(p.clusters.map((c) => p.text.slice(c.start, c.end))).toEqual(['👩‍👩‍👧', '🇯🇵', '#️⃣', '👍🏽']);
    expect(p.clusters.every((c) => c.face.family === 'Noto Color Emoji')).toBe(true);
  });

  it('prefers Japanese forms when the paragraph has kana, Korean with Hangul', () => {
    const jp = shape1('日本語のテキスト');
    if (jp.clusters[0]!.face.family === 'Inter') return; // the optional CJK packages are not installed
    expect(jp.clusters[0]!.face.family).toBe('Noto Sans JP');
    expect(shape1('한국어 漢字').clusters.at(-1)!.face.family).toBe('Noto Sans KR');
    expect(shape1('中文字').clusters[0]!.face.family).toBe('Noto Sans SC');
  });

  it('line height stays the object font: a fallback run shares the baseline of the Latin text', () => {
    const items = glyphItems({ text: 'Hi สวัสดี 👍' });
    const baselines = new Set(items.map((i) => i.glyphs[0]!.y));
    expect(baselines.size).toBe(1);
    expect(glyphItems({ text: 'Hi' })[0]!.glyphs[0]!.y).toBe([...baselines][0]);
  });
});

describe('bidi', () => {
  it('orders a mixed line visually: Arabic right to left, the Latin brand and the number left to right', () => {
    const items = glyphItems({ text: 'مرحبا Imprint 2024 بالعالم', width: 900, font_size: 30 });
    const byX = items.flatMap((i) => i.glyphs.filter((g) => g.chars).map((g) => ({ x: g.x, chars: g.chars! })));
    byX.sort((a, b) => a.x - b.x);
    const visual = byX.map((g) => g.chars).join('');
    // Left to right on the page: the last Arabic word (its letters reversed), the brand and digits in
    // reading order, then the first Arabic word (reversed).
    expect(visual.replace(/\s/g, '')).toBe(`${[...'بالعالم'].reverse().join('')}Imprint2024${[...'مرحبا'].reverse().join('')}`);
  });

  it('mirrors brackets in right-to-left text', () => {
    const p = shape1('(שלום)');
    const rtlOpen = p.clusters[0]!.glyphs[0]!.id;
    const ltrOpen = shape1('(a)').clusters[0]!.glyphs[0]!.id;
    // The opening parenthesis of RTL text is drawn with the other bracket's glyph.
    expect(rtlOpen).toBe(shape1('(a)').clusters[2]!.glyphs[0]!.id);
    expect(rtlOpen).not.toBe(ltrOpen);
  });

  const xRange = (items: Glyphs[]) => {
    const xs = items.flatMap((i) => i.glyphs.map((g) => g.x));
    return { min: Math.min(...xs), max: Math.max(...xs) };
  };

  it('text_align start and end follow the paragraph direction', () => {
    const rtlStart = xRange(glyphItems({ text: 'שלום', text_align: 'start' }));
    const rtlEnd = xRange(glyphItems({ text: 'שלום', text_align: 'end' }));
    const ltrStart = xRange(glyphItems({ text: 'Hi', text_align: 'start' }));
    expect(rtlStart.min).toBeGreaterThan(300); // set against the right edge
    expect(rtlEnd.min).toBeLessThan(5);
    expect(ltrStart.min).toBeLessThan(5);
    // The default is start: Hebrew goes right, Latin left as before.
    expect(xRange(glyphItems({ text: 'שלום' })).min).toBeCloseTo(rtlStart.min, 6);
    expect(xRange(glyphItems({ text: 'Hi' })).min).toBeCloseTo(ltrStart.min, 6);
  });

  it('direction rtl sets a Latin paragraph right to left: start is the right edge, the full stop goes left', () => {
    const items = glyphItems({ text: 'Hello.', direction: 'rtl' });
    expect(xRange(items).min).toBeGreaterThan(300);
    const glyphs = items.flatMap((i) => i.glyphs).sort((a, b) => a.x - b.x);
    expect(glyphs[0]!.chars).toBe('.');
    const ltr = glyphItems({ text: 'Hello.', direction: 'ltr' });
    expect(xRange(ltr).min).toBeLessThan(5);
  });

  it('rejects an unknown direction with its path', () => {
    expect(() => layoutOf(designWith([text({ text: 'x', direction: 'up' })]))).toThrow(
      expect.objectContaining({ code: 'validation_error', path: '$.objects[0].direction', message: expect.stringMatching(/"auto", "ltr", "rtl"/) }),
    );
  });
});

describe('fallback fonts are opened lazily', () => {
  it('Latin text opens no fallback font; Arabic text opens only the Arabic face it uses', () => {
    // A fresh process that records every file read, shaping with the built library.
    const script = `
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const read = fs.readFileSync;
      const opened = [];
      fs.readFileSync = (p, ...rest) => { opened.push(String(p)); return read(p, ...rest); };
      syncBuiltinESMExports();
      const { FontSet } = await import('./dist/text/fonts.js');
      const { loadShaper } = await import('./dist/text/harfbuzz.js');
      const { shapeParagraphs } = await import('./dist/text/shape.js');
      await loadShaper();
      const fonts = new FontSet();
      const span = (text) => ({ text, weight: 400, color: [0, 0, 0, 1], underline: false });
      const noto = () => opened.filter((p) => p.includes('@expo-google-fonts/noto')).map((p) => p.split('/').pop());
      shapeParagraphs([span('Plain Latin, 100 % — «ok»')], 'Inter', fonts, 0);
      const latin = noto();
      shapeParagraphs([span('مرحبا Imprint')], 'Inter', fonts, 0);
      console.log(JSON.stringify({ latin, arabic: noto() }));`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: join(import.meta.dirname, '..'), encoding: 'utf8' });
    expect(out.status, out.stderr).toBe(0);
    const { latin, arabic } = JSON.parse(out.stdout) as { latin: string[]; arabic: string[] };
    expect(latin).toEqual([]);
    expect(arabic).toEqual(['NotoSansArabic_400Regular.ttf']);
  });
});

describe('chart labels', () => {
  it('take the same path: an Arabic category is drawn by the Arabic face, joined and right to left', () => {
    const chart_data = [
      [null, 'مرحبا', 'Paris'],
      ['Sales', 3, 5],
    ];
    const { displayList } = layoutOf(
      designWith([{ type: 'chart', name: 'c', x: 0, y: 0, width: 500, height: 300, chart_type: 'column', chart_data, legend: 'none' }]),
    );
    const runs: Glyphs[] = [];
    const walk = (items: readonly DisplayItem[]): void => {
      for (const it of items) {
        if (it.kind === 'glyphs') runs.push(it);
        if (it.kind === 'group') walk(it.items);
      }
    };
    walk(displayList.items);
    const arabic = runs.find((r) => r.face === 'Noto Sans Arabic-400');
    expect(arabic?.text).toBe('مرحبا');
    // Visual order: the first letter (م) is the rightmost glyph.
    const glyphs = [...arabic!.glyphs].sort((a, b) => a.x - b.x);
    expect(glyphs.at(-1)!.chars).toBe('م');
  });
});

describe('line breaking', () => {
  it('breaks Thai between dictionary words only', () => {
    const p = shape1('ภาษาไทยเป็นภาษาที่สวยงามมาก');
    const ends = p.breaks.map((b) => p.text.slice(0, p.clusters[b.cluster - 1]!.end));
    const words = ends.map((e, i) => e.slice(i === 0 ? 0 : ends[i - 1]!.length));
    expect(words).toEqual(['ภาษา', 'ไทย', 'เป็น', 'ภาษา', 'ที่', 'สวยงาม', 'มาก']);
  });

  it('wraps a Thai paragraph at word boundaries without breaking words', () => {
    const { report } = layoutOf(designWith([text({ text: 'ภาษาไทยเป็นภาษาที่สวยงามมาก', width: 200, height: 300, font_size: 30, min_font_size: 30 })]));
    expect(report[0]!.line_count).toBeGreaterThan(1);
    expect(report[0]!.word_broken).toBe(false);
  });

  it('never starts a Japanese line with a closing mark', () => {
    const p = shape1('日本語の文章、テスト。「かぎ」');
    const starts = p.breaks.map((b) => p.text.slice(p.clusters[b.cluster]?.start ?? p.text.length)[0]);
    for (const mark of ['、', '。', '」']) expect(starts).not.toContain(mark);
    expect(p.breaks.length).toBeGreaterThan(8); // between ideographs
  });
});

describe('kerning across substyles', () => {
  const positions = (markup: string) => glyphItems({ text: markup, width: 1200 }).flatMap((i) => i.glyphs.map((g) => [g.id, Math.round(g.x * 1000)]));

  it('a colour substyle does not change glyph positions', () => {
    const plain = positions('AV');
    expect(positions('A<substyle color="#e53935">V</substyle>')).toEqual(plain);
    // AV kerns in Inter: the pair is narrower than its glyphs side by side.
    expect(plain[1]![1]).toBeLessThan(positions('A')[0]![1]! + Math.round(shape1('A').clusters[0]!.advance * 40 * 1000));
  });

  it('AVAVAV Tywo «Yes» TODAY. measures the same with colour, underline and link spans', () => {
    const plain = positions('AVAVAV Tywo «Yes» TODAY.');
    const styled = positions(
      'A<substyle color="#ff0000">V</substyle>A<substyle underline>VA</substyle>V T<substyle color="#00ff00">y</substyle>wo «<substyle link="(url:https://example.com)">Yes</substyle>» T<substyle color="#0000ff">O</substyle>DAY.',
    );
    expect(styled).toEqual(plain);
  });
});

describe.runIf(toolsAvailable(['pdftotext', 'pdffonts'], 'pdf text extraction needs poppler'))('pdf text of other scripts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'imprint-scripts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('embeds the fallback faces it uses and pdftotext reads Arabic and Hebrew in logical order, CJK as words', async () => {
    const lines = ['مرحبا بكم في Imprint 2024', 'המחיר הוא 120 ₪ בלבד', '日本語の文章', 'ภาษาไทย'];
    const design = designWith(lines.map((t, i) => ({ type: 'text', name: `t${i}`, x: 10, y: 10 + i * 60, width: 580, height: 50, font_size: 28, text: t })));
    const result = await render({ design, format: 'pdf' });
    const file = join(dir, 'scripts.pdf');
    writeFileSync(file, result.bytes);
    const fonts = run('pdffonts', [file]);
    for (const name of ['NotoSansArabic', 'NotoSansHebrew', 'NotoSansThai']) expect(fonts).toContain(name);
    // pdftotext marks right-to-left lines with directional controls; the text between is what counts.
    const text = run('pdftotext', [file, '-']).replace(/[\u200e\u200f\u202a-\u202e]/g, '');
    const got = text
      .split('\n')
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .filter(Boolean);
    expect(got[0]).toBe('مرحبا بكم في Imprint 2024');
    expect(got[1]).toMatch(/^המחיר הוא\s*(₪ 120|120 ₪)\s*בלבד$/);
    if (fonts.includes('NotoSansJP')) expect(got).toContain('日本語の文章');
    expect(got).toContain('ภาษาไทย');
  });
});
