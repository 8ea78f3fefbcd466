// Polotno's text rules on imported documents (docs/polotno.md, "Text as Polotno lays it out"): overflowing
// text shrinks in 0.5 px steps (change-font-size), a paragraph's trailing spaces count when its last
// line is aligned (Konva), textSplitAllowed, and the whole-box background of documents before schema
// version 3. The reference for sizes, lines and line positions is Polotno's own algorithm (Konva 10.3's
// Text wrapping, as polotno-node bundles it, and Polotno's change-font-size loop) run in Chromium on a
// canvas with the same font file; native designs are shown to keep their CSS behaviour.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ImageCache } from '../src/assets/load.js';
import { Engine, type DesignInput, type RenderOptions } from '../src/engine.js';
import { layoutAt, withScenes } from '../src/render/scenes.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { bundledFonts, FONTS_DIR } from '../src/text/fonts.js';
import { chromiumJson } from './support/chromium.js';
import { toolsAvailable } from './support/tools.js';
import { builtBin, describeBuilt } from './support/stale-build.js';

type Json = Record<string, unknown>;
const engine = new Engine({ threads: 0 });
const render = (o: RenderOptions) => engine.render(o);

/** A one-page Polotno document of text elements (Inter unless given). */
function polotno(children: Json[], extra: Json = { schemaVersion: 4 }): DesignInput {
  return {
    width: 800,
    height: 600,
    ...extra,
    pages: [{ id: 'p', background: 'white', children: children.map((c, i) => ({ id: `e${i}`, type: 'text', fontFamily: 'Inter', ...c })) }],
  } as unknown as DesignInput;
}

interface LaidLine {
  text: string;
  /** Where the line's first glyph starts, in the text box. */
  x: number;
}

/** Each text object's lines (glyph runs sharing a baseline) and where they start, and its background rectangles. */
async function laidOut(options: RenderOptions): Promise<{ lines: LaidLine[][]; backgrounds: { x: number; y: number; width: number; height: number }[][] }> {
  const ctx = { fonts: bundledFonts(), images: new ImageCache(16 << 20) };
  return withScenes(ctx, options, async ([page]) => {
    const { displayList } = await layoutAt(ctx, page!, 0);
    const lines: LaidLine[][] = [];
    const backgrounds: { x: number; y: number; width: number; height: number }[][] = [];
    for (const it of displayList.items) {
      if (it.kind !== 'group') continue;
      const glyphs = it.items.filter((g): g is Extract<DisplayItem, { kind: 'glyphs' }> => g.kind === 'glyphs' && !g.strokeWidth);
      const byBaseline = new Map<number, LaidLine>();
      for (const run of glyphs) {
        const y = Math.round(run.glyphs[0]!.y);
        const line = byBaseline.get(y) ?? { text: '', x: Number.POSITIVE_INFINITY };
        line.text += run.text;
        line.x = Math.min(line.x, ...run.glyphs.map((g) => g.x));
        byBaseline.set(y, line);
      }
      lines.push([...byBaseline.entries()].sort((a, b) => a[0] - b[0]).map(([, l]) => l));
      backgrounds.push(
        it.items.flatMap((g) => (g.kind === 'fill' && (g.geometry.kind === 'rect' || g.geometry.kind === 'round_rect') ? [g.geometry.rect] : [])),
      );
    }
    return { lines, backgrounds };
  });
}

const TAGLINE = 'Fresh coffee every single morning';

describe('overflowing text shrinks as Polotno’s change-font-size does', () => {
  it('fits the tagline Polotno fits on one line at 40.5 px (the saved height holds one line at 41 px)', async () => {
    const el = { name: 'tagline', x: 60, y: 40, width: 660, height: 50, text: TAGLINE, fontSize: 41, lineHeight: 1.2 };
    const imported = await render({ design: polotno([el]), format: 'png' });
    expect(imported.report[0]).toMatchObject({ font_size: 40.5, line_count: 1, shrunk: true, clipped: false });
    // The same box as a native fit text: the largest quarter-pixel size that fits, 40.75.
    const native = await render({
      design: {
        width: 800,
        height: 600,
        objects: [
          {
            type: 'text',
            name: 'tagline',
            x: 60,
            y: 40,
            width: 660,
            height: 50,
            text: TAGLINE,
            font_size: 41,
            min_font_size: 1,
            overflow_wrap: 'normal',
            config: { text_replacement_strategy: 'fit', text_replacement_strategy_fit_valign: 'top' },
          },
        ],
      },
      format: 'png',
    });
    expect(native.report[0]).toMatchObject({ font_size: 40.75, line_count: 1 });
    // At the saved size the tagline takes two lines: what a renderer that keeps the size draws.
    const resized = await render({ design: polotno([{ ...el, textOverflow: 'resize' }]), format: 'png' });
    expect(resized.report[0]).toMatchObject({ font_size: 41, line_count: 2, shrunk: false });
    expect(resized.report[0]!.height).toBeCloseTo(2 * 41 * 1.2, 9);
  });

  it('shrinks an overridden, longer text in 0.5 px steps through interface A and B overrides', async () => {
    const el = { name: 'headline', x: 40, y: 40, width: 500, height: 120, text: 'Big summer sale', fontSize: 48, lineHeight: 1.25 };
    const longer = 'Big summer sale on every single item in the shop, this weekend only';
    const plain = await render({ design: polotno([el]), format: 'png' });
    // Polotno then sets the element's height to the text's: one line.
    expect(plain.report[0]).toMatchObject({ font_size: 48, line_count: 1, shrunk: false, height: 60 });
    const a = await render({ design: polotno([el]), overrides: { headline: { text: longer } }, format: 'png' });
    const b = await render({ design: polotno([el]), overrides: [{ name: 'headline', object: { text: longer } }], format: 'png' });
    for (const r of [a, b]) {
      const { font_size: size, line_count: lines } = r.report[0]!;
      expect(size).toBeLessThan(48);
      expect((48 - size) * 2).toBe(Math.round((48 - size) * 2)); // a whole number of 0.5 px steps
      expect(lines * size * 1.25).toBeLessThanOrEqual(120);
    }
    expect(b.report).toEqual(a.report);
    // The step before did not fit: 0.5 px larger is taller than the box.
    const bigger = await render({ design: polotno([{ ...el, text: longer, fontSize: a.report[0]!.font_size + 0.5, textOverflow: 'resize' }]), format: 'png' });
    expect(bigger.report[0]!.height).toBeGreaterThan(120);
  });

  it("keeps an element's own textOverflow: resize grows the box (and splits a word too long for a line)", async () => {
    const el = { name: 'word', x: 20, y: 30, width: 200, height: 40, text: 'Internationalisation', fontSize: 32 };
    const grown = await render({ design: polotno([{ ...el, textOverflow: 'resize' }]), format: 'png' });
    expect(grown.report[0]).toMatchObject({ font_size: 32, shrunk: false, word_broken: true, line_count: 2 });
    const shrunk = await render({ design: polotno([el]), format: 'png' });
    expect(shrunk.report[0]).toMatchObject({ shrunk: true, word_broken: false, line_count: 1 });
  });

  it('refuses a textOverflow Polotno does not have, and ellipsis, at its path', async () => {
    await expect(render({ design: polotno([{ width: 100, height: 40, text: 'x', textOverflow: 'shrink' }]), format: 'png' })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.pages[0].children[0].textOverflow',
      message: expect.stringMatching(/resize.*change-font-size/s),
    });
    await expect(render({ design: polotno([{ width: 100, height: 40, text: 'x', textOverflow: 'ellipsis' }]), format: 'png' })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.pages[0].children[0].textOverflow',
      message: expect.stringMatching(/not supported: use "change-font-size"/),
    });
  });
});

describe('textSplitAllowed', () => {
  const el = { name: 'word', x: 20, y: 30, width: 200, height: 120, text: 'Internationalisation never splits', fontSize: 32, align: 'left' };

  it('off (the default): the text shrinks until its longest word fits whole', async () => {
    const r = await render({ design: polotno([el]), format: 'png' });
    expect(r.report[0]).toMatchObject({ shrunk: true, word_broken: false });
    expect((await laidOut({ design: polotno([el]), format: 'png' })).lines[0]![0]!.text).toBe('Internationalisation');
  });

  it('on: the word is split across lines and the size kept while the lines fit the height', async () => {
    const r = await render({ design: polotno([el]), format: 'png', textSplitAllowed: true });
    expect(r.report[0]).toMatchObject({ font_size: 32, shrunk: false, word_broken: true, line_count: 3 });
    const lines = (await laidOut({ design: polotno([el]), format: 'png', textSplitAllowed: true })).lines[0]!.map((l) => l.text.trim());
    // A split word, then the rest.
    expect(lines[0]!.length).toBeLessThan('Internationalisation'.length);
    expect(lines.join('').replace(/ /g, '')).toBe('Internationalisationneversplits');
  });

  it('is refused when not a boolean, or set for an Imprint design', async () => {
    await expect(render({ design: polotno([el]), format: 'png', textSplitAllowed: 'yes' as unknown as boolean })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.textSplitAllowed',
      message: expect.stringContaining('expected textSplitAllowed true or false'),
    });
    const native = { width: 100, height: 100, objects: [{ type: 'text' as const, x: 0, y: 0, width: 100, height: 50, text: 'x' }] };
    await expect(render({ design: native, format: 'png', textSplitAllowed: true })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.textSplitAllowed',
      message: expect.stringContaining('import polotno --text-split-allowed'),
    });
    // false is the default and changes nothing, so it is accepted everywhere.
    await expect(render({ design: native, format: 'png', textSplitAllowed: false })).resolves.toBeDefined();
  });
});

describeBuilt('the CLI flag --text-split-allowed', () => {
  const cli = (args: string[]) =>
    promisify(execFile)(process.execPath, [builtBin(), ...args]).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it('splits the word in render --report and in the design import polotno writes', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'imprint-polotno-split-'));
    try {
      const file = join(tmp, 'word.json');
      const el = { name: 'word', x: 20, y: 30, width: 200, height: 120, text: 'Internationalisation never splits', fontSize: 32, align: 'left' };
      writeFileSync(file, JSON.stringify(polotno([el])));
      const [off, on] = await Promise.all([
        cli(['render', file, '--out', join(tmp, 'off.png'), '--report']),
        cli(['render', file, '--out', join(tmp, 'on.png'), '--report', '--text-split-allowed']),
      ]);
      expect(off.code, off.stderr).toBe(0);
      expect(on.code, on.stderr).toBe(0);
      expect(off.stdout).toMatch(/"word_broken":\s*false/);
      expect(on.stdout).toMatch(/"font_size":\s*32,[\s\S]*"word_broken":\s*true/);
      const imported = await cli(['import', 'polotno', file, '--out', join(tmp, 'design'), '--text-split-allowed']);
      expect(imported.code, imported.stderr).toBe(0);
      const design = JSON.parse(readFileSync(join(tmp, 'design', 'design.json'), 'utf8')) as { objects: Json[] };
      expect(design.objects[0]).toMatchObject({ overflow_wrap: 'break-word', config: { text_replacement_strategy_fit_split_words: true } });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("a paragraph's trailing spaces count when its last line is aligned (Konva)", () => {
  it('moves a centred "Sale " half a space left, and leaves native designs as CSS does', async () => {
    const spaced = await laidOut({
      design: polotno([
        { x: 0, y: 0, width: 400, height: 60, text: 'Sale', fontSize: 40 },
        { x: 0, y: 100, width: 400, height: 60, text: 'Sale ', fontSize: 40 },
        { x: 0, y: 200, width: 400, height: 60, text: 'Sale ', fontSize: 40, align: 'right' },
        { x: 0, y: 300, width: 400, height: 60, text: 'Sale', fontSize: 40, align: 'right' },
      ]),
      format: 'png',
    });
    const [plain, centred, right, flush] = spaced.lines.map((l) => l[0]!.x);
    const space = 2 * (plain! - centred!);
    expect(space).toBeGreaterThan(8); // Inter's space at 40 px is about 11 px
    expect(space).toBeLessThan(14);
    expect(flush! - right!).toBeCloseTo(space, 5);

    const native = await laidOut({
      design: {
        width: 800,
        height: 600,
        objects: ['Sale', 'Sale '].map((text, i) => ({ type: 'text', x: 0, y: i * 100, width: 400, height: 60, text, font_size: 40, text_align: 'center' })),
      },
      format: 'png',
    });
    expect(native.lines[0]![0]!.x).toBe(native.lines[1]![0]!.x);
  });

  it('counts them at hard line breaks and at the end, not at wraps', async () => {
    const { lines } = await laidOut({
      design: polotno([
        // Line 1 ends at a "\n" with three spaces; lines 2–3 wrap at a space; line 3 ends the text with one.
        { x: 0, y: 0, width: 300, height: 200, text: 'Big sale   \nup to fifty percent off ', fontSize: 30, align: 'right' },
        { x: 0, y: 300, width: 300, height: 200, text: 'Big sale\nup to fifty percent off', fontSize: 30, align: 'right' },
      ]),
      format: 'png',
    });
    const [kept, trimmed] = lines;
    expect(kept!.map((l) => l.text.trim())).toEqual(trimmed!.map((l) => l.text.trim()));
    expect(kept).toHaveLength(3);
    const shift = kept!.map((l, i) => trimmed![i]!.x - l.x);
    expect(shift[0]).toBeGreaterThan(20); // three spaces
    expect(shift[1]).toBe(0); // the space the line wraps at does not count
    expect(shift[2]).toBeGreaterThan(6); // one space
    expect(shift[0]! / shift[2]!).toBeCloseTo(3, 5);
  });
});

describe('the background of a document saved before schema version 3', () => {
  const el = {
    x: 40,
    y: 40,
    width: 400,
    height: 96,
    text: 'Short\nA longer second line',
    fontSize: 32,
    lineHeight: 1.5,
    align: 'center',
    backgroundEnabled: true,
    backgroundColor: '#ffeb3b',
    backgroundPadding: 0.5,
    backgroundCornerRadius: 0,
  };
  // Padding: 0.5 × half the line height (32 × 1.5 / 2) = 12 px.
  const PAD = 12;

  it('is one rectangle over the whole element box, without schemaVersion (and before 3)', async () => {
    for (const extra of [{}, { schemaVersion: 2 }]) {
      const { backgrounds } = await laidOut({ design: polotno([el], extra), format: 'png' });
      expect(backgrounds[0]).toEqual([{ x: -PAD, y: -PAD, width: 400 + 2 * PAD, height: 96 + 2 * PAD }]);
    }
  });

  it('follows the lines from schema version 3 on', async () => {
    const { backgrounds } = await laidOut({ design: polotno([el], { schemaVersion: 3 }), format: 'png' });
    expect(backgrounds[0]).toHaveLength(2);
    expect(backgrounds[0]![0]!.width).toBeLessThan(backgrounds[0]![1]!.width);
    expect(backgrounds[0]![1]!.width).toBeLessThan(400);
  });
});

/**
 * The reference: Konva 10.3's Text line wrapping (as bundled by polotno-node 2.15, which Polotno's server
 * render runs) and Polotno's change-font-size loop (`Lb` in that bundle), run in Chromium on a canvas
 * with the bundled Inter file. Each case gives back the font size, the lines and where each line starts.
 */
const KONVA_PAGE = `
function konvaLines(ctx, text, W) {
  const width = (s) => ctx.measureText(s).width;
  const graphemes = (s) => Array.from(s);
  const out = [];
  for (const para of text.split('\\n')) {
    if (width(para) <= W) { out.push(para); continue; }
    let a = para;
    while (a.length > 0) {
      let lo = 0, hi = graphemes(a).length, best = '', bw = 0;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1, cand = graphemes(a).slice(0, mid + 1).join(''), f = width(cand);
        if (f <= W) { lo = mid + 1; best = cand; bw = f; } else hi = mid;
      }
      if (!best) break;
      const t = graphemes(a), n = graphemes(best), next = t[n.length];
      let cut;
      if ((next === ' ' || next === '-') && bw <= W) cut = n.length;
      else cut = Math.max(n.lastIndexOf(' '), n.lastIndexOf('-')) + 1;
      let end = n.length;
      if (cut > 0) { end = cut; best = t.slice(0, end).join(''); }
      out.push(best.trimEnd());
      a = t.slice(end).join('').trimStart();
      if (a.length > 0 && width(a) <= W) { out.push(a); break; }
    }
  }
  return out;
}
function polotnoFit(ctx, c) {
  const words = c.text.split('\\n').join(' ').split(/[\\s-]+/).map((w) => w.toLowerCase());
  let size = c.fontSize;
  const limit = Math.round(2 * c.fontSize) - 1;
  for (let s = 1; s < limit; s++) {
    ctx.font = size + 'px Inter';
    const lines = konvaLines(ctx, c.text, c.width);
    const tall = lines.length * c.lineHeight * size > c.height;
    let joined = lines.map((l) => l.toLowerCase()).join(';');
    const split = words.find((w) => !joined.includes(w) || ((joined = joined.replace(w, '')), false));
    if (!(tall || (split && !c.splitAllowed))) break;
    size -= 0.5;
  }
  ctx.font = size + 'px Inter';
  const lines = konvaLines(ctx, c.text, c.width);
  const x = lines.map((l) => { const w = ctx.measureText(l).width; return c.align === 'right' ? c.width - w : c.align === 'center' ? (c.width - w) / 2 : 0; });
  return { size, lines, x };
}
document.fonts.load('40px Inter').then(() => {
  const ctx = document.createElement('canvas').getContext('2d');
  document.getElementById('out').textContent = JSON.stringify(CASES.map((c) => polotnoFit(ctx, c)));
});`;

interface KonvaCase {
  text: string;
  width: number;
  height: number;
  fontSize: number;
  lineHeight: number;
  align: 'left' | 'center' | 'right';
  splitAllowed: boolean;
}

const CASES: KonvaCase[] = [
  { text: TAGLINE, width: 660, height: 50, fontSize: 41, lineHeight: 1.2, align: 'center', splitAllowed: false },
  { text: 'Summer sale   \nup to 50% off everything ', width: 320, height: 300, fontSize: 36, lineHeight: 1.2, align: 'center', splitAllowed: false },
  { text: 'Book your table today and enjoy ', width: 300, height: 400, fontSize: 36, lineHeight: 1.2, align: 'right', splitAllowed: false },
  { text: 'Dinner at the harbour, tonight only  ', width: 380, height: 90, fontSize: 40, lineHeight: 1.1, align: 'right', splitAllowed: false },
  { text: 'Internationalisation never splits', width: 200, height: 120, fontSize: 32, lineHeight: 1.2, align: 'left', splitAllowed: false },
  { text: 'Internationalisation never splits', width: 200, height: 120, fontSize: 32, lineHeight: 1.2, align: 'left', splitAllowed: true },
];

const chromiumReady = toolsAvailable(['chromium'], 'comparing with Polotno’s Konva text layout needs Chromium');
let dir: string | undefined;
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('against Konva and Polotno’s change-font-size in Chromium', () => {
  it.skipIf(!chromiumReady)('chooses the same font size, the same lines and the same line positions', async () => {
    dir = mkdtempSync(join(tmpdir(), 'imprint-polotno-konva-'));
    const inter = resolve(FONTS_DIR, bundledFonts().face('Inter', 400).file);
    const page = join(dir, 'konva.html');
    writeFileSync(
      page,
      `<!doctype html><meta charset="utf-8"><style>@font-face { font-family: "Inter"; src: url("file://${inter}"); }</style><pre id="out"></pre>` +
        `<script>const CASES = ${JSON.stringify(CASES)};${KONVA_PAGE}</script>`,
    );
    const expected = chromiumJson<{ size: number; lines: string[]; x: number[] }[]>(page);
    for (const [i, c] of CASES.entries()) {
      const element = { x: 0, y: 0, width: c.width, height: c.height, text: c.text, fontSize: c.fontSize, lineHeight: c.lineHeight, align: c.align };
      const options: RenderOptions = { design: polotno([element]), format: 'png', ...(c.splitAllowed ? { textSplitAllowed: true } : {}) };
      const [report, { lines }] = await Promise.all([render(options).then((r) => r.report[0]!), laidOut(options)]);
      const want = expected[i]!;
      expect(report.font_size, `case ${i}: font size`).toBe(want.size);
      expect(
        lines[0]!.map((l) => l.text.trimEnd()),
        `case ${i}: lines`,
      ).toEqual(want.lines.map((l) => l.trimEnd()));
      lines[0]!.forEach((l, j) => expect(Math.abs(l.x - want.x[j]!), `case ${i}, line ${j}: x ${l.x} vs Konva ${want.x[j]}`).toBeLessThan(0.5));
    }
  });
});
