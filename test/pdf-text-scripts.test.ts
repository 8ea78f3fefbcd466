// The text of other scripts in pdf output, read back by poppler (pdftotext, also -raw and -bbox): pointed
// Hebrew and vocalised Arabic with every point after its letter, Devanagari, Bengali and Tamil words
// whole (conjuncts, the i sign drawn before its consonant, two-part vowels), a Thai paragraph with
// its marks; and text that was right before (Latin with kerning, CJK, unpointed Hebrew, Arabic) still
// written as plain text with no ActualText. How: src/paint/pdf.ts (`readsAsDrawn`, `textOf`) and
// src/text/shape.ts (`glyphCharacters`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { loadShaper } from '../src/text/harfbuzz.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';
import { run, toolsAvailable } from './support/tools.js';

type Glyphs = Extract<DisplayItem, { kind: 'glyphs' }>;
const glyphItems = (text: string): Glyphs[] =>
  objectGroup(layoutOf(designWith([{ type: 'text', name: 't', x: 0, y: 0, width: 580, height: 100, font_size: 40, text }])).displayList, 0).items.filter(
    (i): i is Glyphs => i.kind === 'glyphs',
  );

beforeAll(() => loadShaper());

describe('the characters each glyph stands for', () => {
  it('pointed Hebrew: every letter and every point is its own glyph with its own character', () => {
    const [run] = glyphItems('שָׁלוֹם');
    expect(run!.face).toBe('Noto Sans Hebrew-400');
    expect(run!.glyphs.every((g) => g.chars !== undefined && [...g.chars].length === 1 && g.rtl)).toBe(true);
    // Glyphs are in visual order: read right to left they spell the word (points in canonical order).
    const read = run!.glyphs
      .map((g) => g.chars)
      .reverse()
      .join('');
    expect(read.normalize('NFC')).toBe('שָׁלוֹם'.normalize('NFC'));
  });

  it('vocalised Arabic: the harakat are their own glyphs, a dot drawn apart from its letter stands for nothing', () => {
    const [run] = glyphItems('بِسْمِ');
    const read = run!.glyphs
      .flatMap((g) => (g.chars ? [g.chars] : []))
      .reverse()
      .join('');
    expect(read.normalize('NFC')).toBe('بِسْمِ'.normalize('NFC'));
    expect(run!.glyphs.filter((g) => g.chars !== undefined && /^\p{M}$/u.test(g.chars)).map((g) => g.chars)).toEqual(['ِ', 'ْ', 'ِ']);
    expect(run!.glyphs.filter((g) => g.chars === undefined).length).toBeGreaterThan(0);
  });

  it('a Devanagari i sign drawn before its consonant keeps the cluster whole on the first glyph; a half form takes its virama', () => {
    const [run] = glyphItems('हिन्दी');
    expect(run!.glyphs.map((g) => g.chars ?? null)).toEqual(['हि', null, 'न्', 'द', 'ी']);
    expect(run!.glyphs.some((g) => g.rtl)).toBe(false);
  });

  it('an emoji sequence stays whole on its colour glyph', () => {
    const items = glyphItems('❤️👍🏽');
    const emoji = items.find((i) => i.face.startsWith('Noto Color Emoji'))!;
    expect(emoji.glyphs.flatMap((g) => (g.chars ? [g.chars] : []))).toEqual(['❤️', '👍🏽']);
  });
});

const tools = toolsAvailable(['pdftotext', 'qpdf'], 'pdf text extraction needs poppler and qpdf');

describe.runIf(tools)('pdftotext reads the text of other scripts as written', () => {
  const engine = new Engine();
  const dir = mkdtempSync(join(tmpdir(), 'imprint-pdf-text-'));
  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One text object per line (each its own paragraph), rendered to a pdf file. */
  async function pdfOf(name: string, lines: readonly string[], extra: Record<string, unknown> = {}): Promise<string> {
    const objects = lines.map((text, i) => ({ type: 'text', name: `t${i}`, x: 10, y: 10 + i * 70, width: 580, height: 60, font_size: 28, text, ...extra }));
    const design = designWith(objects, { height: 20 + lines.length * 70 });
    const file = join(dir, `${name}.pdf`);
    writeFileSync(file, (await engine.render({ design, format: 'pdf' })).bytes);
    return file;
  }

  /** pdftotext's lines (its directional controls around right-to-left runs dropped), NFC, spaces squashed. */
  const textLines = (file: string, args: string[] = []): string[] =>
    run('pdftotext', [...args, file, '-'])
      .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
      .normalize('NFC')
      .split('\n')
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .filter(Boolean);

  const nfc = (s: string): string => s.normalize('NFC');
  /** A point or vowel sign with no letter before it: at the start of a line or of a word. */
  const strayMark = /(^|\s)\p{M}/mu;

  it('pointed Hebrew and vocalised Arabic in reading order, each point after its letter, with numbers', async () => {
    const lines = ['שָׁלוֹם עֲלֵיכֶם 2024', 'בְּרֵאשִׁית בָּרָא אֱלֹהִים', 'הַמְּחִיר 120 שְׁקָלִים בִּלְבַד', 'بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ', 'שלום עולם', 'لا إله إلا الله'];
    const file = await pdfOf('rtl', lines);
    run('qpdf', ['--check', file]);
    const got = textLines(file);
    expect(got[0]).toBe(nfc(lines[0]!));
    expect(got[1]).toBe(nfc(lines[1]!));
    // poppler joins a number to the right-to-left word after it (so it does with unpointed text).
    expect(got[2]).toMatch(new RegExp(`^${nfc('הַמְּחִיר')} 120 ?${nfc('שְׁקָלִים')} ${nfc('בִּלְבַד')}$`, 'u'));
    expect(got[3]).toBe(nfc(lines[3]!));
    expect(got[4]).toBe(lines[4]);
    expect(got[5]).toBe(lines[5]);
    expect(got.join('\n')).not.toMatch(strayMark);
    // -raw keeps the content stream's order of words (visual, right-to-left lines reversed word by
    // word): each Hebrew word is still spelled right.
    const raw = textLines(file, ['-raw']);
    expect(raw[0]!.split(' ').sort()).toEqual(nfc(lines[0]!).split(' ').sort());
    expect(raw[1]!.split(' ').sort()).toEqual(nfc(lines[1]!).split(' ').sort());
  });

  it('Devanagari, Bengali and Tamil words whole, once, also with -raw and as -bbox words', async () => {
    const lines = ['हिन्दी में नमस्ते दुनिया 2024', 'क्षत्रिय प्रमुख भाषा, विद्या।', 'নমস্কার বাংলা ভাষা কিন্তু', 'வணக்கம் தமிழ் கொண்டு'];
    const file = await pdfOf('indic', lines);
    run('qpdf', ['--check', file]);
    expect(textLines(file)).toEqual(lines);
    expect(textLines(file, ['-raw'])).toEqual(lines);
    const words = [...run('pdftotext', ['-bbox', file, '-']).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((m) => m[1]);
    expect(words).toEqual(lines.flatMap((l) => l.split(' ')));
  });

  it('a Thai paragraph with tone marks and vowels above and below, wrapped over lines', async () => {
    const paragraph = 'เป็นที่สวยงามมากเมืองแสงไฟสุดสัปดาห์อาหารค่ำบนดาดฟ้าช่างภาพตลาดกาแฟน้ำที่นี่';
    const file = await pdfOf('thai', [paragraph, 'ภาษาไทย สวัสดีครับ น้ำ ที่นี่'], { width: 300, height: 60, font_size: 20 });
    const got = textLines(file);
    expect(got.length).toBeGreaterThan(2);
    expect(got.slice(0, -1).join('')).toBe(paragraph);
    expect(got.at(-1)).toBe('ภาษาไทย สวัสดีครับ น้ำ ที่นี่');
  });

  it('text that read right as plain glyphs stays plain: no ActualText, kerning in TJ', async () => {
    const lines = ['office fine AVAVAV Tywo', '日本語の文章', 'שלום עולם', 'مرحبا بكم', 'ภาษาไทย'];
    const file = await pdfOf('plain', lines);
    const content = run('qpdf', ['--qdf', '--object-streams=disable', '--normalize-content=n', file, '-']);
    expect(content).not.toContain('ActualText');
    expect(content).toMatch(/<[0-9a-f]{4}> \d+(\.\d+)? <[0-9a-f]{4}>/);
    const got = textLines(file);
    expect(got.slice(0, 1)).toEqual([lines[0]]);
    for (const l of lines.slice(2)) expect(got).toContain(l);
  });

  it('a word that needs ActualText gets one span, and an outlined pass none: read once', async () => {
    const lines = ['हिन्दी में नमस्ते', 'שָׁלוֹם עֲלֵיכֶם'];
    const file = await pdfOf('stroked', lines, { stroke: { color: '#ff0000', width: 3 } });
    expect(textLines(file)).toEqual(lines.map(nfc));
    const content = run('qpdf', ['--qdf', '--object-streams=disable', '--normalize-content=n', file, '-']);
    // The Devanagari word's characters in one span; right-to-left words are written in visual order.
    const hex = (s: string) => [...Buffer.from(s, 'utf16le').swap16()].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(content).toContain(`/ActualText <FEFF${hex('हिन्दी')}>`);
    // Spans never nest: every BDC is closed before the next opens.
    const marks = [...content.matchAll(/\bBDC\b|\bEMC\b/g)].map((m) => m[0]);
    marks.forEach((m, i) => expect(m).toBe(i % 2 === 0 ? 'BDC' : 'EMC'));
  });
});
