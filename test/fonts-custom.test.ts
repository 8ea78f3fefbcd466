// Fonts beyond the bundled faces: files of each format, variable instances, CSS font matching with
// synthetic styles, fonts shipped with a design (engine, render threads, pdf, CLI) and their errors.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { pino } from 'pino';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine, type DesignInput } from '../src/engine.js';
import { ImprintError } from '../src/errors.js';
import { readFontFile, sniffFontFormat } from '../src/text/font-file.js';
import { fileFaceKey, openFontFile } from '../src/text/faces.js';
import { bundledFonts, FontSet, matchWeight } from '../src/text/fonts.js';
import { verticalMetrics } from '../src/text/harfbuzz.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { TaskWorker } from '../src/worker/worker.js';
import { chromiumJson, chromiumScreenshot } from './support/chromium.js';
import { toolsAvailable } from './support/tools.js';
import { waitUntil } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const WOFF2 = join(ROOT, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
const INTER_400 = bundledFonts().face('Inter', 400).file;
const INTER_400_ITALIC = bundledFonts().face('Inter', 400, 'italic').file;

/** WOFF 1.0 from an sfnt, as a font tool would write it: every table zlib-compressed on its own. */
function woff1(sfnt: Buffer): Buffer {
  const count = sfnt.readUInt16BE(4);
  const tables = Array.from({ length: count }, (_, i) => {
    const o = 12 + i * 16;
    const data = sfnt.subarray(sfnt.readUInt32BE(o + 8), sfnt.readUInt32BE(o + 8) + sfnt.readUInt32BE(o + 12));
    const packed = deflateSync(data);
    return { tag: sfnt.readUInt32BE(o), checksum: sfnt.readUInt32BE(o + 4), data, stored: packed.length < data.length ? packed : data };
  });
  let offset = 44 + 20 * count;
  const header = Buffer.alloc(offset);
  header.write('wOFF', 0, 'latin1');
  header.writeUInt32BE(sfnt.readUInt32BE(0), 4);
  header.writeUInt16BE(count, 12);
  const bodies = tables.map((t, i) => {
    const o = 44 + i * 20;
    header.writeUInt32BE(t.tag, o);
    header.writeUInt32BE(offset, o + 4);
    header.writeUInt32BE(t.stored.length, o + 8);
    header.writeUInt32BE(t.data.length, o + 12);
    header.writeUInt32BE(t.checksum, o + 16);
    const padded = Buffer.alloc((t.stored.length + 3) & ~3);
    t.stored.copy(padded);
    offset += padded.length;
    return padded;
  });
  const out = Buffer.concat([header, ...bodies]);
  out.writeUInt32BE(out.length, 8);
  return out;
}

/** Advance of "H" in em at the face's weight (variable instances follow their weight). */
const advanceOfH = (set: FontSet, family: string, weight: number): number => {
  const face = set.face(family, weight);
  const run = face.shaper.layout('H');
  return run.positions[0]!.xAdvance / face.unitsPerEm;
};

describe('font files of every format', () => {
  it('reads TTF, WOFF and WOFF2: family, weight, style and the weight axis of a variable font', async () => {
    const ttf = await readFile(INTER_400);
    expect(await readFontFile(ttf)).toMatchObject({ format: 'ttf', family: 'Inter', weight: 400, style: 'normal' });
    expect((await readFontFile(ttf)).weightAxis).toBeUndefined();
    expect(await readFontFile(await readFile(INTER_400_ITALIC))).toMatchObject({ family: 'Inter', weight: 400, style: 'italic' });
    const woff = await readFontFile(woff1(ttf));
    expect(woff).toMatchObject({ format: 'woff', family: 'Inter', weight: 400 });
    // The same glyphs as the TTF it was packed from.
    const fromWoff = openFontFile({ sfnt: woff.sfnt }, 'W', 400);
    const fromTtf = bundledFonts().face('Inter', 400);
    expect(fromWoff.outlines.getGlyph(fromWoff.shaper.layout('g').glyphs[0]!.id).path.toSVG()).toBe(
      fromTtf.outlines.getGlyph(fromTtf.shaper.layout('g').glyphs[0]!.id).path.toSVG(),
    );
    expect(await readFontFile(await readFile(WOFF2))).toMatchObject({ format: 'woff2', family: 'Inter', weightAxis: { min: 100, default: 400, max: 900 } });
  });

  it('knows OTF (CFF) files by their magic bytes and reads them (end to end in fonts-cff.test.ts)', async () => {
    expect(sniffFontFormat(Buffer.from('OTTO\0\0\0\0\0\0\0\0', 'latin1'))).toBe('otf');
    const otf = await readFile(join(ROOT, 'node_modules/source-sans/OTF/SourceSans3-It.otf'));
    expect(await readFontFile(otf)).toMatchObject({ format: 'otf', family: 'Source Sans 3', weight: 400, style: 'italic' });
  });

  it.each([
    ['an empty file', Buffer.alloc(0), /empty \(0 bytes\)/],
    ['a collection', Buffer.from('ttcf\0\x01\0\0\0\0\0\x01\0\0\0\x0c', 'latin1'), /collections \(\.ttc\/\.otc\) are not supported/],
    ['a png', Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1'), /not a font file/],
    ['a truncated TTF', (async () => (await readFile(INTER_400)).subarray(0, 4000))(), /corrupt or truncated/],
    ['a corrupt WOFF2', Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(200, 7)]), /WOFF2 file is corrupt/],
    ['a file over 20 MB', Buffer.concat([Buffer.from([0, 1, 0, 0]), Buffer.alloc(20 * 1024 * 1024)]), /more than the 20 MB allowed/],
  ])('refuses %s and says what to give instead', async (_, bytes, message) => {
    await expect(readFontFile(await bytes)).rejects.toThrow(message);
  });
});

describe('CSS font matching (CSS Fonts 4 §5.2)', () => {
  const faces = (...weights: (number | [number, number])[]) => weights.map((w) => (typeof w === 'number' ? { weight: w } : { weight: w[0], weightRange: w }));
  const chosen = (available: ReturnType<typeof faces>, desired: number) => {
    const f = matchWeight(available, desired);
    return f.weightRange ? `${f.weightRange[0]}-${f.weightRange[1]}` : f.weight;
  };
  it.each([
    // available, desired, chosen
    [[100, 300, 600, 900], 400, 300], // 400: up to 500 first, then lighter descending
    [[100, 300, 600, 900], 500, 300],
    [[100, 300, 600, 900], 200, 100], // below 400: lighter descending
    [[100, 300, 600, 900], 700, 900], // above 500: heavier ascending
    [[500, 700], 400, 500], // 400 takes 500 before anything lighter or heavier
    [[500, 700], 300, 500], // nothing lighter: heavier ascending
    [[200, 800], 500, 200], // 500: nothing in 500..500, so lighter before heavier
    [[200, 800], 600, 800],
    [[600, 700], 650, 700],
    [[400], 900, 400],
    [[[100, 900]], 350, '100-900'],
    [[[300, 500], 700], 200, '300-500'],
    [[[300, 500], 700], 600, 700],
  ] as const)('faces %j, weight %d → %s', (available, desired, expected) => {
    expect(chosen(faces(...(available as unknown as (number | [number, number])[])), desired)).toBe(expected);
  });

  it('bundled families: every weight of Inter, Lora 400-700; italic faces for italic; no synthesis where a face exists', () => {
    const fonts = bundledFonts();
    const key = (family: string, weight: number, style?: 'normal' | 'italic') => fonts.face(family, weight, style).key;
    expect([key('Inter', 100), key('Inter', 450), key('Inter', 550), key('Inter', 650), key('Inter', 900)]).toEqual([
      'Inter-100',
      'Inter-500',
      'Inter-600',
      'Inter-700',
      'Inter-900',
    ]);
    expect([key('Lora', 300), key('Lora', 900), key('Lora', 700, 'italic')]).toEqual(['Lora-400', 'Lora-700', 'Lora-700-italic']);
    expect(fonts.face('Lora', 900).synthetic).toBeUndefined();
  });

  it('a family with one upright face: bold is synthesized above 200 more than the face, italic always (as Chromium)', () => {
    const plain = openFontFile(INTER_400, 'Plain', 400);
    const fonts = new FontSet(bundledFonts(), [plain]);
    expect(fonts.face('Plain', 600).synthetic).toBeUndefined();
    expect(fonts.face('Plain', 700).synthetic).toEqual({ bold: true });
    expect(fonts.face('Plain', 400, 'italic').synthetic).toEqual({ italic: true });
    const both = fonts.face('Plain', 800, 'italic');
    expect([both.key, both.synthetic]).toEqual(['Plain-400+synthetic-bold-italic', { bold: true, italic: true }]);
    // Painters find it by key; a set that never chose it derives it from its base face.
    expect(new FontSet(bundledFonts(), [plain]).byFaceKey(both.key).synthetic).toEqual({ bold: true, italic: true });
  });

  it('a variable face is instanced at the exact weight: its own key, and advances that follow the weight', async () => {
    const info = await readFontFile(await readFile(WOFF2));
    const key = fileFaceKey('Brand', 400, 'normal', info.hash);
    const fonts = new FontSet(bundledFonts(), [openFontFile({ sfnt: info.sfnt }, 'Brand', 400, 'normal', { key, weightRange: [100, 900] })]);
    expect(fonts.face('Brand', 350).key).toBe(`${key}@wght=350`);
    const advances = [100, 350, 650, 900].map((w) => advanceOfH(fonts, 'Brand', w));
    expect(advances).toEqual([...advances].sort((a, b) => a - b));
    expect(new Set(advances).size).toBe(4);
    // Outlines follow the instance too.
    const outline = (w: number) => fonts.face('Brand', w).outlines.getGlyph(fonts.face('Brand', w).shaper.layout('H').glyphs[0]!.id).path.toSVG();
    expect(outline(100)).not.toBe(outline(900));
  });
});

describe('fonts shipped with a design', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'imprint-fonts-'));
    await writeFile(join(dir, 'brand.woff2'), await readFile(WOFF2));
    await writeFile(join(dir, 'corrupt.woff2'), Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(300, 9)]));
    await writeFile(join(dir, 'empty.ttf'), Buffer.alloc(0));
    await writeFile(join(dir, 'huge.ttf'), Buffer.concat([Buffer.from([0, 1, 0, 0]), Buffer.alloc(21 * 1024 * 1024)]));
    await writeFile(join(dir, 'notes.ttf'), 'not a font at all');
  });

  const text = (extra: Record<string, unknown> = {}) => ({
    type: 'text',
    name: 't',
    x: 10,
    y: 10,
    width: 580,
    height: 80,
    font_size: 40,
    font_family: 'Brand Sans',
    text: 'Brand AVAVAV',
    ...extra,
  });
  const design = (fonts: unknown[], objects: unknown[] = [text()]): DesignInput =>
    ({ width: 600, height: 100, background: { type: 'color', color: '#ffffff' }, fonts: ['Inter', ...fonts], objects }) as DesignInput;
  const brand = { family: 'Brand Sans', path: 'brand.woff2' };
  const engine = new Engine({ threads: 0 });

  /** The ink of a render: the darker the text, the larger. */
  const ink = async (png: Buffer) => {
    const { data } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    return data.reduce((n, v) => n + (255 - v), 0);
  };

  it('renders a variable WOFF2 at any weight, heavier as the weight grows; render threads load it through the assets too', async () => {
    const inks = [];
    for (const w of [100, 350, 650, 900]) {
      const r = await engine.render({ design: design([brand], [text({ font_weight: w })]), format: 'png', baseDir: dir });
      inks.push(await ink(r.bytes));
    }
    expect(inks).toEqual([...inks].sort((a, b) => a - b));
    const threaded = new Engine({ threads: 1 });
    try {
      const onThread = await threaded.render({ design: design([brand], [text({ font_weight: 650 })]), format: 'png', baseDir: dir });
      expect(await ink(onThread.bytes)).toBe(inks[2]);
    } finally {
      await threaded.close();
    }
  });

  it('the fit report says which text was synthetic', async () => {
    const plain = { family: 'Plain', path: 'brand.woff2', weight: 400 };
    const r = await engine.render({
      design: design(
        [brand, plain],
        [
          text({ name: 'variable', font_weight: 900 }),
          text({ name: 'slanted', font_family: 'Plain', text: 'a <substyle italic>b</substyle>', y: 100, height: 40 }),
        ],
      ),
      format: 'png',
      baseDir: dir,
    });
    const report = r.report as { name: string; synthetic_bold?: boolean; synthetic_italic?: boolean }[];
    // A variable font covers 100-900: never synthetic bold; no italic file: synthetic italic.
    expect(report.map((e) => [e.name, e.synthetic_bold ?? false, e.synthetic_italic ?? false])).toEqual([
      ['variable', false, false],
      ['slanted', false, true],
    ]);
  });

  it.each([
    [
      'a corrupt file',
      [{ family: 'Brand Sans', path: 'corrupt.woff2' }],
      '$.fonts[1].path',
      /WOFF2 file is corrupt.*families available: Brand Sans, Inter, Lora, Roboto, Open Sans, Anton/,
    ],
    ['an empty file', [{ family: 'Brand Sans', path: 'empty.ttf' }], '$.fonts[1].path', /empty \(0 bytes\)/],
    ['a file over 20 MB', [{ family: 'Brand Sans', path: 'huge.ttf' }], '$.fonts[1].path', /20 MB/],
    ['a text file', [{ family: 'Brand Sans', path: 'notes.ttf' }], '$.fonts[1].path', /not a font file/],
    ['a missing file', [{ family: 'Brand Sans', path: 'fonts/none.woff2' }], '$.fonts[1].path', /no font file at "fonts\/none.woff2"/],
    ['a file entry with weight 1000', [{ ...brand, weight: 1000 }], '$.fonts[1].weight', /900/],
    [
      'a file entry with style oblique',
      [{ ...brand, style: 'oblique' }],
      '$.fonts[1]',
      /a font file as \{"family": …, "path": …, "weight"\?: 100-900, "style"\?: "normal" or "italic"\}/,
    ],
    ['an unknown family', [brand, 'Papyrus'], '$.fonts[2]', /"Papyrus" is not available: use one of Brand Sans, Inter, Lora, Roboto, Open Sans, Anton/],
  ])('refuses %s with a validation_error at its path', async (_, fonts, path, message) => {
    const err = await engine.render({ design: design(fonts), format: 'png', baseDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImprintError);
    expect(err).toMatchObject({ code: 'validation_error', path });
    expect((err as Error).message).toMatch(message);
  });

  it.each([
    [
      'font_family naming no family',
      { font_family: 'Papyrus' },
      '$.objects[0].font_family',
      /"Papyrus" is not available: use one of Brand Sans, Inter, Lora, Roboto, Open Sans, Anton/,
    ],
    ['a substyle font_family naming no family', { text: 'a <substyle font_family="Papyrus">b</substyle>' }, '$.objects[0].text', /substyle font_family/],
    ['weight 1000', { font_weight: 1000 }, '$.objects[0].font_weight', /900/],
    ['substyle weight 50', { text: '<substyle bold="50">b</substyle>' }, '$.objects[0].text', /from 100 to 900/],
  ])('refuses %s in text', async (_, fields, path, message) => {
    const err = await engine.render({ design: design([brand], [text(fields)]), format: 'png', baseDir: dir }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation_error', path });
    expect((err as Error).message).toMatch(message);
  });

  it.skipIf(!toolsAvailable(['pdffonts', 'pdftotext'], 'checking embedded fonts needs poppler-utils'))(
    'pdf embeds each variable instance used as a static font, and only the faces used',
    async () => {
      const r = await engine.render({
        design: design([brand], [text({ text: 'Light', font_weight: 200 }), text({ name: 'heavy', text: 'Heavy', font_weight: 800, y: 50, height: 40 })]),
        format: 'pdf',
        baseDir: dir,
      });
      const file = join(dir, 'out.pdf');
      await writeFile(file, r.bytes);
      const fonts = spawnSync('pdffonts', [file], { encoding: 'utf8' }).stdout.split('\n').slice(2).filter(Boolean);
      // Two instances, embedded and subset, with a ToUnicode map; no bundled face (the design draws none).
      expect(fonts).toHaveLength(2);
      for (const line of fonts) expect(line).toMatch(/CID TrueType\s+Identity-H\s+yes yes yes/);
      expect(spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout).toMatch(/Light\s+Heavy/);
    },
  );

  describe('CLI --font', () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd: dir }).then(
        (r) => ({ code: 0, stderr: r.stderr }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );

    it('adds the family named inside the file; a design lists it by that name', async () => {
      // The file's family is "Inter": it comes before the bundled Inter, so 350 is an exact instance, not the 300 face.
      await writeFile(join(dir, 'cli.json'), JSON.stringify(design([], [text({ font_family: 'Inter', font_weight: 350 })])));
      const withFont = await run(['render', 'cli.json', '--font', 'brand.woff2', '--out', 'with.png']);
      expect(withFont).toMatchObject({ code: 0 });
      const bundled = await run(['render', 'cli.json', '--out', 'bundled.png']);
      expect(bundled.code).toBe(0);
      expect(await ink(await readFile(join(dir, 'with.png')))).not.toBe(await ink(await readFile(join(dir, 'bundled.png'))));
    });

    it.each([
      ['corrupt.woff2', /^validation_error at \$\.fontFiles\[0\]: --font corrupt\.woff2: the WOFF2 file is corrupt/],
      ['huge.ttf', /^validation_error at \$\.fontFiles\[0\]: --font huge\.ttf: the font file is 21\.0 MB, more than the 20 MB allowed/],
      ['none.ttf', /^validation_error at \$\.fontFiles\[0\]: --font none\.ttf: no such file/],
    ])('refuses --font %s with exit 2 and one line', async (file, message) => {
      await writeFile(join(dir, 'cli.json'), JSON.stringify(design([], [text({ font_family: 'Inter' })])));
      const r = await run(['render', 'cli.json', '--font', file, '--out', 'bad.png']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    });
  });

  it('a stored design keeps its font: import-design refuses a corrupt one (nothing stored), stores a good one, and the worker renders with it', async () => {
    const data = await mkdtemp(join(tmpdir(), 'imprint-fonts-service-'));
    const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: data, IMPRINT_BASE_URL: 'https://render.example.com' }), {
      log: pino({ level: 'silent' }),
      queuePollMs: 50,
    });
    const worker = new TaskWorker(service.ctx, { slots: 1 });
    try {
      const { account } = await service.createAccount({ name: 'Acme' });
      const template = design([{ family: 'Brand Sans', path: 'fonts/brand.woff2' }], [text({ font_weight: 650 })]);
      const corrupt = new Map([['fonts/brand.woff2', new Uint8Array(await readFile(join(dir, 'corrupt.woff2')))]]);
      const refused = await service.importDesign(account.id, template, { files: corrupt }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'validation_error', path: '$.fonts[1].path' });
      expect((refused as Error).message).toMatch(/"fonts\/brand\.woff2": the WOFF2 file is corrupt/);
      expect(await service.ctx.blobs.list('designs/')).toEqual([]);

      const files = new Map([['fonts/brand.woff2', new Uint8Array(await readFile(WOFF2))]]);
      const stored = await service.importDesign(account.id, template, { files });
      expect(Object.keys(stored.assets)).toEqual(['fonts/brand.woff2']);
      worker.start();
      const task = await service.createTask(account.id, { designId: stored.id, format: 'png' });
      await waitUntil('the task to end', async () => ['done', 'error'].includes((await service.ctx.meta.listTasks(account.id))[0]!.state), 60_000, 50);
      expect((await service.ctx.meta.listTasks(account.id))[0]).toMatchObject({ state: 'done', error: null });
      const direct = await engine.render({ design: design([brand], [text({ font_weight: 650 })]), format: 'png', baseDir: dir });
      expect(await ink((await service.resultBytes(account.id, task.id))!)).toBe(await ink(direct.bytes));
    } finally {
      await worker.stop(0);
      await service.close();
    }
  }, 90_000);

  it.skipIf(!toolsAvailable(['chromium'], 'comparing synthetic styles with Chromium needs it'))(
    'synthetic italic and bold look as in Chromium with the same single-face family',
    async () => {
      await writeFile(join(dir, 'plain.ttf'), await readFile(INTER_400));
      // Rows: upright, synthetic italic (a single stem, whose slant is easy to measure), synthetic bold.
      const rows = [
        { text: 'Hillo AVA', css: '' },
        { text: 'l', css: 'font-style:italic', font_style: 'italic' },
        { text: 'Hillo AVA', css: 'font-weight:700', font_weight: 700 },
      ];
      const objects = rows.map(({ css, ...fields }, i) =>
        text({ name: `r${i}`, font_family: 'Plain', font_size: 60, line_height: 1.2, y: i * 80, height: 72, ...fields }),
      );
      const ours = await engine.render({
        design: { ...(design([], objects) as object), width: 600, height: 240, fonts: [{ family: 'Plain', path: 'plain.ttf' }] },
        format: 'png',
        baseDir: dir,
      });
      await writeFile(
        join(dir, 'synthetic.html'),
        `<!doctype html><meta charset="utf-8"><style>@font-face{font-family:Plain;src:url("plain.ttf")}
body{margin:0;background:#fff}div{position:absolute;left:10px;font:60px/72px Plain;white-space:pre}</style>${rows.map((r, i) => `<div style="top:${i * 80}px;${r.css}">${r.text}</div>`).join('')}`,
      );
      const shot = join(dir, 'chromium.png');
      chromiumScreenshot(join(dir, 'synthetic.html'), shot, 600, 240);
      /** Per row: ink (in fully dark pixels), inked columns, and the slope of the ink's mean x per scanline (x per px down). */
      const measure = async (png: Buffer) => {
        const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
        return rows.map((_, r) => {
          let ink = 0;
          let left = info.width;
          let right = 0;
          const centres: [number, number][] = [];
          for (let y = r * 80; y < r * 80 + 80; y++) {
            let w = 0;
            let sx = 0;
            for (let x = 0; x < info.width; x++) {
              const v = 255 - data[y * info.width + x]!;
              ink += v / 255;
              if (v > 64) [left, right] = [Math.min(left, x), Math.max(right, x)];
              w += v;
              sx += v * x;
            }
            if (w > 255 * 3) centres.push([y, sx / w]);
          }
          const my = centres.reduce((a, [y]) => a + y, 0) / centres.length;
          const mx = centres.reduce((a, [, x]) => a + x, 0) / centres.length;
          const slope = centres.reduce((a, [y, x]) => a + (y - my) * (x - mx), 0) / centres.reduce((a, [y]) => a + (y - my) ** 2, 0);
          return { ink, width: right - left, slope };
        });
      };
      const [c, o] = [await measure(await readFile(shot)), await measure(ours.bytes)];
      // Italic: the stem leans as Chromium's does (Skia's skew of -1/4).
      expect(o[1]!.slope).toBeCloseTo(-0.25, 1);
      expect(Math.abs(o[1]!.slope - c[1]!.slope)).toBeLessThan(0.01);
      // Bold adds as much ink relative to the upright line as Chromium's (within 3 %), without moving the glyphs.
      expect(Math.abs(o[2]!.ink / o[0]!.ink - c[2]!.ink / c[0]!.ink)).toBeLessThan(0.03);
      expect(o[2]!.ink / o[0]!.ink).toBeGreaterThan(1.2);
      expect(Math.abs(o[2]!.width - c[2]!.width)).toBeLessThanOrEqual(2);
    },
  );

  it.skipIf(!toolsAvailable(['chromium'], 'comparing variable-font widths with Chromium needs it'))(
    'a variable instance measures as Chromium lays out the same file at that weight',
    async () => {
      const SIZE = 40;
      // Latin only: the file is Inter's latin subset (Chromium would draw anything else with a system font).
      const texts = ['Brand AVAVAV Tywo', 'Hamburgefonstiv 0123456789', 'The quick brown fox jumps over the lazy dog.', 'Café — «naïve» “quotes” ½'];
      const weights = [100, 250, 350, 480, 650, 777, 900];
      const info = await readFontFile(await readFile(WOFF2));
      const fonts = new FontSet(bundledFonts(), [openFontFile({ sfnt: info.sfnt }, 'V', 400, 'normal', { key: 'V', weightRange: [100, 900] })]);
      const runs = weights.flatMap((weight) => texts.map((t) => ({ weight, text: t })));
      await writeFile(join(dir, 'v.woff2'), await readFile(WOFF2));
      const spans = runs.map((r, i) => `<span id="r${i}" style="font-weight:${r.weight}">${r.text}</span>`).join('<br>');
      await writeFile(
        join(dir, 'variable.html'),
        `<!doctype html><meta charset="utf-8"><style>@font-face { font-family: V; src: url("v.woff2"); font-weight: 100 900; }
span { font: ${SIZE}px V; white-space: pre; font-synthesis: none; }</style>${spans}
<pre id="out"></pre><script>document.fonts.ready.then(() => { document.getElementById('out').textContent = JSON.stringify([...document.querySelectorAll('span')].map((s) => s.getBoundingClientRect().width)); });</script>`,
      );
      const widths = chromiumJson<number[]>(join(dir, 'variable.html'));
      const mismatches = runs.flatMap(({ weight, text: t }, i) => {
        const face = fonts.face('V', weight);
        const run = face.shaper.layout(t);
        const ours = (run.positions.reduce((n, p) => n + p.xAdvance, 0) / face.unitsPerEm) * SIZE;
        // As in text-chromium.test.ts: Chromium's 1/64 px rounding, plus a little per glyph.
        return Math.abs(ours - widths[i]!) > 1 / 64 + 0.002 * run.glyphs.length
          ? [`${weight} ${t}: ours ${ours.toFixed(3)}, Chromium ${widths[i]!.toFixed(3)}`]
          : [];
      });
      expect(mismatches).toEqual([]);
      // And the weights really differ in width (the instances are not one face).
      expect(new Set(widths.filter((_, i) => i % texts.length === 0).map((w) => w.toFixed(2))).size).toBe(weights.length);
    },
    120_000,
  );
});

describe('vertical metrics: where a line’s baseline sits, as Chromium (Skia over FreeType) reads them', () => {
  /** An hhea table with `ascender`/`descender`, and an OS/2 table with typo and win metrics and fsSelection. */
  const tables = (o: { hhea: [number, number]; typo: [number, number]; win: [number, number]; useTypo: boolean }) => {
    const hhea = new Uint8Array(36);
    const h = new DataView(hhea.buffer);
    h.setInt16(4, o.hhea[0]);
    h.setInt16(6, o.hhea[1]);
    const os2 = new Uint8Array(96);
    const v = new DataView(os2.buffer);
    v.setUint16(62, o.useTypo ? 0x80 : 0x40);
    v.setInt16(68, o.typo[0]);
    v.setInt16(70, o.typo[1]);
    v.setUint16(74, o.win[0]);
    v.setUint16(76, o.win[1]);
    return [hhea, os2] as const;
  };

  it('follows USE_TYPO_METRICS, else hhea, else typo, else usWin', () => {
    expect(verticalMetrics(...tables({ hhea: [950, -250], typo: [800, -200], win: [1000, 300], useTypo: true }))).toEqual({ ascender: 800, descender: -200 });
    expect(verticalMetrics(...tables({ hhea: [950, -250], typo: [800, -200], win: [1000, 300], useTypo: false }))).toEqual({ ascender: 950, descender: -250 });
    expect(verticalMetrics(...tables({ hhea: [0, 0], typo: [800, -200], win: [1000, 300], useTypo: false }))).toEqual({ ascender: 800, descender: -200 });
    expect(verticalMetrics(...tables({ hhea: [0, 0], typo: [0, 0], win: [1000, 300], useTypo: false }))).toEqual({ ascender: 1000, descender: -300 });
    // A font without an OS/2 table keeps hhea's.
    expect(verticalMetrics(tables({ hhea: [900, -100], typo: [0, 0], win: [0, 0], useTypo: false })[0], undefined)).toEqual({ ascender: 900, descender: -100 });
  });

  it('a real font that sets USE_TYPO_METRICS with typo metrics other than hhea’s lays out on the typo ones', async () => {
    // The COLRv1 test font: hhea 950/−250, typo 950/0, USE_TYPO_METRICS set (test/colr-sweep.test.ts
    // shows Chromium drawing it on the typo baseline).
    const face = openFontFile(join(import.meta.dirname, 'fixtures', 'colr', 'test_glyphs-glyf_colr_1.ttf'), 'COLR test', 400);
    expect(face.ascent).toBeCloseTo(0.95, 6);
    expect(face.descent).toBeCloseTo(0, 6);
  });
});
