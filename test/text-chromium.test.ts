// Chromium is the reference for text layout: with the same font files, every run Imprint shapes must
// be as wide as Chromium lays it out (both shape with HarfBuzz). The strings are every single-line text
// of the examples and golden cases plus kerning, ligature, figure and Cyrillic samples, in each bundled
// face; Chromium measures them at 1000 px, where a font unit is about half a pixel.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FONTS_DIR, FontSet } from '../src/text/fonts.js';
import { chromiumJson } from './support/chromium.js';
import { toolsAvailable } from './support/tools.js';

const ROOT = join(import.meta.dirname, '..');
const SIZE = 1000;
const dir = mkdtempSync(join(tmpdir(), 'imprint-chromium-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Single-line texts of the designs and overrides under `folder`, markup removed. */
function textsUnder(folder: string, into: Set<string>): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) textsUnder(path, into);
    else if (name.endsWith('.json')) collect(JSON.parse(readFileSync(path, 'utf8')) as unknown, into);
  }
}
function collect(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    const text = value.replace(/<[^>]+>/g, '');
    if (text.length > 1 && text.length < 200 && !/[\n\t]/.test(text) && !/^[#./]|\.(png|jpe?g|mp4|json)$/.test(text)) into.add(text);
  } else if (Array.isArray(value)) for (const v of value) collect(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v, into);
}

const SAMPLES = [
  'AVATAR Type Wolf To Ty',
  'office affluent ffi fl',
  '24,310 2024 +26.6% −20% 1/2 ½ 10:30',
  '«Ünïcödé» “quotes” — dash',
  'Привет, мир! Ёлка',
  'The city at night',
];

describe('text widths against Chromium', () => {
  it.skipIf(!toolsAvailable(['chromium'], 'comparing text layout with Chromium needs it'))(
    'every run is as wide as Chromium lays it out with the same font files, in every bundled face',
    () => {
      const texts = new Set(SAMPLES);
      textsUnder(join(ROOT, 'examples'), texts);
      textsUnder(join(ROOT, 'golden'), texts);
      const fonts = new FontSet();
      const faces = fonts.familyNames().flatMap((family) => [400, 700].map((weight) => fonts.face(family, weight)));
      const runs = faces.flatMap((face) => [...texts].map((text) => ({ face, text })));

      const css = faces.map((f) => `@font-face { font-family: "${f.key}"; src: url("file://${resolve(FONTS_DIR, f.file)}"); }`).join('\n');
      const spans = runs
        .map((r, i) => `<span id="r${i}" style="font-family: '${r.face.key}'">${r.text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</span>`)
        .join('<br>');
      const page = join(dir, 'widths.html');
      writeFileSync(
        page,
        `<!doctype html><meta charset="utf-8"><style>${css}\nspan { font-size: ${SIZE}px; white-space: pre; font-synthesis: none; }</style>${spans}
<pre id="out"></pre><script>document.fonts.ready.then(() => { document.getElementById('out').textContent = JSON.stringify([...document.querySelectorAll('span')].map((s) => s.getBoundingClientRect().width)); });</script>`,
      );
      const widths = chromiumJson<number[]>(page);
      expect(widths).toHaveLength(runs.length);

      let compared = 0;
      const mismatches = runs.flatMap(({ face, text }, i) => {
        const run = face.shaper.layout(text);
        // A character the face lacks is drawn by a system font in Chromium and as the face's empty box
        // here (this measures one face alone; fallback is compared by the line-break test below).
        if (run.glyphs.some((g) => g.id === 0)) return [];
        compared++;
        const ours = (run.positions.reduce((n, p) => n + p.xAdvance, 0) / face.unitsPerEm) * SIZE;
        // Chromium positions glyphs in 16.16 fixed point and rounds the run to 1/64 px; beyond that the
        // widths must agree (one font unit is 0.5 px in Inter and 1 px in Lora at this size).
        const tolerance = 1 / 64 + 0.002 * run.glyphs.length;
        return Math.abs(ours - widths[i]!) > tolerance
          ? [`${face.key} ${JSON.stringify(text)}: ours ${ours.toFixed(3)}, Chromium ${widths[i]!.toFixed(3)}`]
          : [];
      });
      expect(compared).toBeGreaterThan(1000);
      expect(mismatches.slice(0, 10), `${mismatches.length} of ${runs.length} runs differ`).toEqual([]);
    },
    120_000,
  );
});

describe('script runs', () => {
  it('cut where the script changes; spaces, digits and punctuation stay with the run before them', async () => {
    const { scriptRuns } = await import('../src/text/script-runs.js');
    expect(scriptRuns('arctic-escapes.example · группы до 8 человек')).toEqual(['arctic-escapes.example · ', 'группы до 8 человек']);
    expect(scriptRuns('— 2024: Ёлка and tree')).toEqual(['— 2024: Ёлка ', 'and tree']);
    expect(scriptRuns('Plain Latin, 100 %')).toEqual(['Plain Latin, 100 %']);
    expect(scriptRuns('')).toEqual(['']);
  });
});

// Paragraphs per script family, wrapped at several widths by Imprint and by Chromium with the same font
// files: the bundled family first, then the fallback faces in chain order, as a CSS font-family list.
// Imprint does not trim the spacing of adjacent CJK punctuation (Chromium's text-spacing-trim, on by
// default), so the page turns it off: widths then agree and only line breaking is compared.
const PARAGRAPHS: Record<string, string[]> = {
  Latin: [
    'The quick brown fox jumps over the lazy dog while the city sleeps under a quiet sky.',
    'Summer sale on every chair, table and lamp in the store this weekend only!',
  ],
  Cyrillic: ['Съешь же ещё этих мягких французских булок, да выпей чаю. Привет, мир!'],
  Arabic: ['مرحبا بكم في Imprint 2024! السعر 99.50 درهم شامل الضريبة لكل طلب جديد.', 'اللغة العربية جميلة جدا ونحن نحب الكتابة بها كل يوم.'],
  Hebrew: ['המחיר הוא 120 ₪ בלבד, עד 31.12.2026 (כולל מע"מ) לכל הזמנה חדשה.', 'שלום עולם, זהו משפט ארוך בעברית לבדיקת שבירת שורות.'],
  Devanagari: ['हिन्दी भारत की एक प्रमुख भाषा है और इसे देवनागरी लिपि में लिखा जाता है।'],
  Thai: ['ภาษาไทยเป็นภาษาที่สวยงามมาก และมีตัวอักษรที่เป็นเอกลักษณ์ของตัวเอง'],
  CJK: ['日本語の文章、テスト。「かぎかっこ」も正しく折り返されます。', '我们今天去北京吃烤鸭，好吗？天气很好。', '한국어 문장도 잘 표시됩니다. 감사합니다!'],
};

// Words per script family for seeded paragraphs (30 per family); CJK words join without spaces.
const WORDS: Record<string, { words: string[]; joiner: string; end: string }> = {
  Latin: {
    words: 'the quick brown fox jumps over lazy dog summer sale chair table lamp store weekend only Imprint 2024 office affluent'.split(' '),
    joiner: ' ',
    end: '.',
  },
  Cyrillic: { words: 'съешь же ещё этих мягких французских булок да выпей чаю привет мир ёлка группы человек'.split(' '), joiner: ' ', end: '.' },
  Arabic: { words: 'مرحبا بكم في السعر درهم شامل الضريبة لكل طلب جديد اللغة العربية جميلة Imprint 2024 99.50'.split(' '), joiner: ' ', end: '.' },
  Hebrew: { words: 'שלום עולם המחיר הוא בלבד עד כולל משפט ארוך בעברית לבדיקת שבירת שורות 120 Imprint'.split(' '), joiner: ' ', end: '.' },
  Devanagari: { words: 'हिन्दी भारत की एक प्रमुख भाषा है और इसे देवनागरी लिपि में लिखा जाता नमस्ते दुनिया'.split(' '), joiner: ' ', end: '।' },
  Thai: { words: 'ภาษา ไทย เป็น ที่ สวยงาม มาก และ มี ตัวอักษร เอกลักษณ์ ของ ตัวเอง วันนี้ อากาศ ดี'.split(' '), joiner: '', end: ' ' },
  CJK: { words: '日本語 の 文章 テスト 正しく 折り返し 我们 今天 北京 烤鸭 天气 很好 、 。 「かぎ」'.split(' '), joiner: '', end: '。' },
};

/** Deterministic paragraphs: a linear congruential generator seeded per family. */
function seededParagraphs(family: string, count: number): string[] {
  const { words, joiner, end } = WORDS[family]!;
  let seed = [...family].reduce((n, c) => n * 31 + c.charCodeAt(0), 7) >>> 0;
  const next = (n: number): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed % n;
  };
  return Array.from({ length: count }, () => {
    const n = 8 + next(10);
    return (
      Array.from({ length: n }, () => words[next(words.length)]!)
        .join(joiner)
        .replace(/^[、。]+/, '') + end
    );
  });
}

describe('line breaks against Chromium, per script', () => {
  it.skipIf(!toolsAvailable(['chromium'], 'comparing line breaks with Chromium needs it'))(
    'Imprint and Chromium break the same paragraphs at the same characters and order the words of bidi lines alike',
    async () => {
      const { fallbackFace } = await import('../src/text/faces.js');
      const { FALLBACK_FAMILIES } = await import('../src/text/fallback.js');
      const { loadShaper } = await import('../src/text/harfbuzz.js');
      const { shapeParagraphs } = await import('../src/text/shape.js');
      const { breakLines } = await import('../src/text/line-break.js');
      await loadShaper();
      const fonts = new FontSet();
      const size = 24;
      const widths = [180, 260, 340];
      const fallbacks = FALLBACK_FAMILIES.filter((f) => f.family !== 'Noto Color Emoji')
        .map((f) => fallbackFace(f.family, 400))
        .filter((f) => f !== null);
      const inter = fonts.face('Inter', 400);
      const faces = [inter, ...fallbacks];
      const css = faces
        .map((f) => `@font-face { font-family: "${f.key}"; src: url("file://${f.file.startsWith('/') ? f.file : join(FONTS_DIR, f.file)}"); }`)
        .join('\n');
      const family = faces.map((f) => `"${f.key}"`).join(', ');
      const cases = [
        ...Object.entries(PARAGRAPHS).flatMap(([script, texts]) => texts.flatMap((text) => widths.map((width) => ({ script, text, width })))),
        ...Object.keys(WORDS).flatMap((script) =>
          seededParagraphs(script, 30).map((text, i) => ({ script, text: text.trim(), width: widths[i % widths.length]! })),
        ),
      ];
      const divs = cases
        .map((c, i) => `<div id="d${i}" dir="auto" style="width: ${c.width}px">${c.text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</div>`)
        .join('');
      const page = join(dir, 'breaks.html');
      // Each line's first character offset: where a character's box starts below the previous one.
      writeFileSync(
        page,
        `<!doctype html><meta charset="utf-8"><style>${css}\ndiv { font-family: ${family}; font-size: ${size}px; line-height: 2; font-synthesis: none; text-align: start; text-spacing-trim: space-all; }</style>${divs}
<pre id="out"></pre><script>document.fonts.ready.then(async () => { await Promise.all([...document.fonts].map((f) => f.load())); const out = [...document.querySelectorAll('div')].map((d) => { const node = d.firstChild; const starts = [0]; const lefts = []; let top = null; for (let i = 0; i < node.length; i++) { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1); const rect = r.getClientRects()[0]; lefts.push(rect && rect.width > 0 ? rect.left : null); if (!rect || rect.width === 0) continue; const t = Math.round(rect.top / ${size}); if (top !== null && t > top) starts.push(i); top = t; } return { starts, lefts }; }); document.getElementById('out').textContent = JSON.stringify(out); });</script>`,
      );
      const measured = chromiumJson<{ starts: number[]; lefts: (number | null)[] }[]>(page, { budgetMs: 20_000, timeoutMs: 90_000 });
      const theirs = measured.map((m) => m.starts);

      const { visualOrder } = await import('../src/text/bidi.js');
      let bidiLines = 0;
      const wordOrder: string[] = [];
      const results = cases.map((c, i) => {
        const paras = shapeParagraphs([{ text: c.text, weight: 400, color: [0, 0, 0, 1], underline: false }], 'Inter', fonts, 0);
        const para = paras[0]!;
        const { lines } = breakLines(paras, c.width / size, 0);
        const ours = lines.map((l) => para.clusters[l.start]?.start ?? 0);
        const same = JSON.stringify(ours) === JSON.stringify(theirs[i]);
        // Word order of each line with right-to-left text, where the breaks agree: words (runs of
        // non-space characters) sorted by their leftmost x, here from the visual order of the clusters.
        if (same && para.clusters.some((cl) => cl.level > 0)) {
          for (const line of lines) {
            const idx = Array.from({ length: line.visibleEnd - line.start }, (_, k) => line.start + k);
            const order = visualOrder(idx.map((k) => para.clusters[k]!.level)).map((k) => idx[k]!);
            const xOf = new Map<number, number>();
            let x = 0;
            for (const k of order) {
              xOf.set(para.clusters[k]!.start, x);
              x += para.clusters[k]!.advance;
            }
            const words: { start: number; ours: number; theirs: number }[] = [];
            let current: (typeof words)[number] | null = null;
            for (const k of idx) {
              const cl = para.clusters[k]!;
              if (cl.whitespace) {
                current = null;
                continue;
              }
              if (!current) words.push((current = { start: cl.start, ours: Infinity, theirs: Infinity }));
              current.ours = Math.min(current.ours, xOf.get(cl.start)!);
              for (let u = cl.start; u < cl.end; u++) current.theirs = Math.min(current.theirs, measured[i]!.lefts[u] ?? Infinity);
            }
            const by = (key: 'ours' | 'theirs') => [...words].sort((a, b) => a[key] - b[key]).map((w) => w.start);
            bidiLines++;
            if (JSON.stringify(by('ours')) !== JSON.stringify(by('theirs')))
              wordOrder.push(`${c.script} @${c.width}px line at ${para.clusters[line.start]!.start}: ${c.text}`);
          }
        }
        return { ...c, ours, theirs: theirs[i]!, same };
      });
      expect(bidiLines).toBeGreaterThan(50);
      expect(wordOrder, 'bidi lines whose words Chromium orders differently').toEqual([]);
      const byScript = new Map<string, { same: number; all: number }>();
      for (const r of results) {
        const s = byScript.get(r.script) ?? { same: 0, all: 0 };
        s.all++;
        if (r.same) s.same++;
        byScript.set(r.script, s);
      }
      const differ = results
        .filter((r) => !r.same)
        .map((r) => `${r.script} @${r.width}px ours ${JSON.stringify(r.ours)} Chromium ${JSON.stringify(r.theirs)}: ${r.text}`);
      console.log([...byScript].map(([s, n]) => `${s} ${n.same}/${n.all}`).join(', '));
      // The bar: at least 95 % identical per script family.
      for (const [script, n] of byScript) expect(n.same / n.all, `${script}: ${n.same} of ${n.all} agree\n${differ.join('\n')}`).toBeGreaterThanOrEqual(0.95);
    },
    180_000,
  );
});
