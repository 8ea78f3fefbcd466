// Chromium is the reference for text layout in every script, here for `fit`: 30 seeded texts per script
// family are sized into a box by Imprint (a fit text object, the whole pipeline: parse, resolve, layout)
// and by Chromium with the same font files in the same fallback order through @font-face and the same
// sizing rule, and the chosen size and the lines at it must agree on at least 95 % of them.
// (test/text-chromium.test.ts compares run widths, line breaks at given widths and bidi word order.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDesign } from '../src/design/parse.js';
import { layout } from '../src/layout/layout.js';
import { resolveScene } from '../src/resolve/resolve.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { fallbackFile, FALLBACK_FAMILIES } from '../src/text/fallback.js';
import { bundledFonts, FONTS_DIR } from '../src/text/fonts.js';
import { loadShaper } from '../src/text/harfbuzz.js';
import { chromiumJson } from './support/chromium.js';
import { toolsAvailable } from './support/tools.js';

const BOX = { width: 360, height: 160 };
const FONT_SIZE = 40;
const MIN_FONT_SIZE = 12;
const LINE_HEIGHT = 1.25;
const TEXTS_PER_FAMILY = 30;
const AGREEMENT = 0.95;

/** Words of each script family (Arabic and Hebrew mix in Latin words and numbers, as real headlines do). */
const FAMILIES: Record<string, { lang: string; words: string[]; joiner: string }> = {
  latin: {
    lang: 'en',
    joiner: ' ',
    words:
      'the quick brown fox jumps over a lazy dog weekend city lights harbour dinner photographer rooftop evening market coffee morning mountain river festival typography AVATAR office'.split(
        ' ',
      ),
  },
  cyrillic: {
    lang: 'ru',
    joiner: ' ',
    words: 'Привет мир город ночью выходные ужин на крыше фотограф прогулка гавань вечер рынок кофе утро гора река праздник Ёлка путешествие'.split(' '),
  },
  arabic: {
    lang: 'ar',
    joiner: ' ',
    words: 'مرحبا بالعالم مدينة الأضواء عطلة نهاية الأسبوع عشاء على السطح مصور جولة ليلية الميناء مساء سوق قهوة صباح جبل نهر مهرجان Imprint 2026 15 NYC'.split(
      ' ',
    ),
  },
  hebrew: {
    lang: 'he',
    joiner: ' ',
    words: 'שלום עולם עיר האורות סוף שבוע ארוחת ערב על הגג צלם סיור לילי נמל שוק קפה בוקר הר נהר פסטיבל Imprint 2026 123'.split(' '),
  },
  devanagari: {
    lang: 'hi',
    joiner: ' ',
    words: 'नमस्ते दुनिया शहर की रोशनी सप्ताहांत छत पर रात्रिभोज फोटोग्राफर रात सैर बंदरगाह शाम बाज़ार कॉफ़ी सुबह पहाड़ नदी त्योहार क्षत्रिय विद्या'.split(' '),
  },
  thai: {
    lang: 'th',
    joiner: '',
    words: 'ภาษา ไทย เป็น ที่ สวยงาม มาก เมือง แสงไฟ สุดสัปดาห์ อาหาร ค่ำ บน ดาดฟ้า ช่างภาพ ตลาด กาแฟ ตอนเช้า ภูเขา แม่น้ำ เทศกาล'.split(' '),
  },
  cjk: {
    lang: 'zh',
    joiner: '',
    words: '我们 今天 去 北京 吃 烤鸭 城市 的 夜景 周末 屋顶 晚餐 摄影师 散步 港口 市场 咖啡 早上 山 河 节日 ， 。'.split(' '),
  },
  japanese: {
    lang: 'ja',
    joiner: '',
    words: '東京 の 夜景 と ルーフトップ ディナー 週末 写真家 散歩 港 市場 コーヒー 朝 山 川 祭り です ます 、 。'.split(' '),
  },
};

/** A small seeded PRNG (mulberry32): the same texts on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function textsOf(name: string): string[] {
  const { words, joiner } = FAMILIES[name]!;
  const next = random([...name].reduce((n, c) => n * 31 + c.charCodeAt(0), 7));
  return Array.from({ length: TEXTS_PER_FAMILY }, () => {
    const n = 4 + Math.floor(next() * 16);
    const picked = Array.from({ length: n }, () => words[Math.floor(next() * words.length)]!);
    // Scripts written without spaces still put one between phrases now and then.
    return picked.map((w, i) => (i === 0 ? w : (joiner === '' && next() < 0.15 ? ' ' : joiner) + w)).join('');
  });
}

interface Laid {
  size: number;
  /** Each line's graphemes in visual order, left to right (compared as sets of characters). */
  lines: string[];
  /** Chromium: each line's words left to right. */
  words?: string[][];
}

/** Imprint: the whole pipeline for one fit text object; lines from the glyphs' baselines, left to right. */
function imprint(text: string): Laid {
  const design = parseDesign({
    width: BOX.width,
    height: BOX.height,
    objects: [
      {
        type: 'text',
        name: 't',
        x: 0,
        y: 0,
        ...BOX,
        text,
        font_size: FONT_SIZE,
        min_font_size: MIN_FONT_SIZE,
        line_height: LINE_HEIGHT,
        config: { text_replacement_strategy: 'fit', text_replacement_strategy_fit_valign: 'top' },
      },
    ],
  });
  const { displayList, report } = layout(resolveScene(design, {}), new Map(), bundledFonts());
  const glyphs: { x: number; y: number; chars: string }[] = [];
  const walk = (items: readonly DisplayItem[]) => {
    for (const it of items) {
      if (it.kind === 'group') walk(it.items);
      else if (it.kind === 'glyphs') for (const g of it.glyphs) if (g.chars) glyphs.push({ x: g.x, y: g.y, chars: g.chars });
    }
  };
  walk(displayList.items);
  // Baselines are a line height apart; marks sit a little above or below theirs.
  const size = report[0]!.font_size;
  const baselines: number[] = [];
  for (const y of glyphs.map((g) => g.y).sort((a, b) => a - b)) if (baselines.length === 0 || y - baselines.at(-1)! > size * 0.5) baselines.push(y);
  const lineOf = (y: number) => baselines.findIndex((b) => Math.abs(y - b) <= size * 0.5);
  const lines = baselines.map((_, j) =>
    glyphs
      .filter((g) => lineOf(g.y) === j)
      .sort((a, b) => a.x - b.x)
      .map((g) => g.chars)
      .join(''),
  );
  return { size, lines };
}

/** The font-family list Chromium falls back through: the bundled Inter, then the chain in its order for this language. */
function cssFamilies(lang: string): string[] {
  const cjkFirst = lang === 'ja' ? ['Noto Sans JP'] : lang === 'ko' ? ['Noto Sans KR'] : [];
  const chain = FALLBACK_FAMILIES.map((f) => f.family);
  return ['Inter', ...cjkFirst, ...chain.filter((f) => !cjkFirst.includes(f))];
}

/**
 * Chromium: each text in a div of the box's width, sized by the same rule as Imprint's fit (the
 * largest quarter pixel size from the template size down to the minimum at which the lines fit the
 * height and no word overflows the width); lines from the graphemes' boxes.
 */
function chromium(dir: string, texts: { text: string; lang: string; size: number }[]): { fit: Laid; atOurs: Laid }[] {
  const faces = [
    `@font-face { font-family: "Inter"; src: url("file://${resolve(FONTS_DIR, bundledFonts().face('Inter', 400).file)}"); }`,
    ...FALLBACK_FAMILIES.flatMap((f) => {
      const file = fallbackFile(f.family, 400);
      return file ? [`@font-face { font-family: "${f.family}"; src: url("file://${file.file}"); }`] : [];
    }),
  ];
  const divs = texts
    .map(
      (t, i) =>
        `<div id="t${i}" data-size="${t.size}" lang="${t.lang}" dir="auto" style="font-family: ${cssFamilies(t.lang)
          .map((f) => `'${f}'`)
          .join(', ')}">${t.text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</div>`,
    )
    .join('\n');
  const script = `
const STEP = 0.25, W = ${BOX.width}, H = ${BOX.height}, FS = ${FONT_SIZE}, MIN = ${MIN_FONT_SIZE}, LH = ${LINE_HEIGHT};
const seg = new Intl.Segmenter('en', { granularity: 'grapheme' });
function measure(div, size) {
  div.style.fontSize = size + 'px';
  const node = div.firstChild;
  const range = document.createRange();
  const boxes = [];
  for (const { segment, index } of seg.segment(node.data)) {
    range.setStart(node, index);
    range.setEnd(node, index + segment.length);
    const r = range.getClientRects()[0];
    if (r) boxes.push({ segment, top: r.top, left: r.left });
  }
  const tops = [];
  for (const b of boxes) if (!tops.some((t) => Math.abs(t - b.top) < size * 0.5)) tops.push(b.top);
  tops.sort((a, b) => a - b);
  const onLine = (b, t) => Math.abs(b.top - t) < size * 0.5;
  const lines = tops.map((t) => boxes.filter((b) => onLine(b, t)).sort((a, b) => a.left - b.left).map((b) => b.segment).join(''));
  const overflow = div.scrollWidth > W + 0.5;
  return { size, lines, fits: tops.length * size * LH <= H + 1e-6 && !overflow };
}
function fit(div) {
  const full = measure(div, FS);
  if (full.fits) return full;
  let lo = Math.ceil(MIN / STEP), hi = Math.ceil(FS / STEP);
  let best = measure(div, Math.min(lo * STEP, FS));
  if (lo >= hi || !best.fits) return best;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const r = measure(div, mid * STEP);
    if (r.fits) { lo = mid; best = r; } else hi = mid;
  }
  return best;
}
document.fonts.ready.then(() => {
  // A font file Chromium could not load would be replaced by a system font: say so rather than compare.
  const failed = [...document.fonts].filter((f) => f.status === 'error').map((f) => f.family);
  if (failed.length) { document.getElementById('out').textContent = JSON.stringify({ failed }); return; }
  const out = [...document.querySelectorAll('div[id^=t]')].map((d) => {
    const at = measure(d, Number(d.dataset.size));
    const r = fit(d);
    return { fit: { size: r.size, lines: r.lines }, atOurs: { size: at.size, lines: at.lines } };
  });
  document.getElementById('out').textContent = JSON.stringify(out);
});`;
  const page = join(dir, 'scripts.html');
  writeFileSync(
    page,
    `<!doctype html><meta charset="utf-8"><style>${faces.join('\n')}
div[id^=t] { width: ${BOX.width}px; line-height: ${LINE_HEIGHT}; white-space: normal; word-break: normal; overflow-wrap: normal; font-synthesis: none; font-kerning: normal; text-spacing-trim: space-all; }</style>
${divs}<pre id="out"></pre><script>${script}</script>`,
  );
  const out = chromiumJson<{ fit: Laid; atOurs: Laid }[] | { failed: string[] }>(page, { budgetMs: 30_000, timeoutMs: 120_000 });
  if (!Array.isArray(out)) throw new Error(`chromium could not load the font files of ${out.failed.join(', ')}`);
  return out;
}

/** A line's characters without spaces, sorted: which characters are on it, whatever their order. */
const content = (line: string) => [...line.replace(/\s/g, '')].sort().join('');

const chromiumReady = toolsAvailable(['chromium'], 'comparing text layout with Chromium needs it');
const texts = Object.keys(FAMILIES).flatMap((family) => textsOf(family).map((text) => ({ family, text, lang: FAMILIES[family]!.lang })));
let dir: string;
let ours: Laid[] = [];
let theirs: { fit: Laid; atOurs: Laid }[] = [];
beforeAll(async () => {
  await loadShaper();
  dir = mkdtempSync(join(tmpdir(), 'imprint-chromium-scripts-'));
  ours = texts.map((t) => imprint(t.text));
  if (chromiumReady)
    theirs = chromium(
      dir,
      texts.map((t, i) => ({ ...t, size: ours[i]!.size })),
    );
}, 180_000);

/**
 * Fit sizes agree within this: both bisect over quarter pixels, and at a size where a line is within
 * a hair of the box, Chromium's widths in 1/64 px units and Imprint's exact ones may fall either side.
 */
const SIZE_TOLERANCE = 0.5;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Imprint does not trim the spacing of adjacent CJK punctuation (Chromium's text-spacing-trim, on by
// default): Chromium is asked not to either.
describe('fit sizes against Chromium, per script', () => {
  it.skipIf(!chromiumReady).each(Object.keys(FAMILIES))('%s: the same line breaks and fit size for at least 95 %% of 30 texts', (family) => {
    const mine = texts.map((t, i) => ({ ...t, i })).filter((t) => t.family === family);
    const differ = mine.flatMap(({ text, i }) => {
      const us = ours[i]!;
      const { fit, atOurs } = theirs[i]!;
      const sameLines = us.lines.length === atOurs.lines.length && us.lines.every((l, j) => content(l) === content(atOurs.lines[j]!));
      const sameSize = Math.abs(us.size - fit.size) <= SIZE_TOLERANCE;
      return sameLines && sameSize
        ? []
        : [
            `${JSON.stringify(text)}: ours ${us.size}px ${JSON.stringify(us.lines)}; Chromium at that size ${JSON.stringify(atOurs.lines)}, its fit ${fit.size}px`,
          ];
    });
    expect(differ.length, differ.slice(0, 5).join('\n')).toBeLessThanOrEqual(Math.floor(mine.length * (1 - AGREEMENT)));
  });
});
