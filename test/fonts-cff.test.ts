// CFF-flavoured OpenType (Source Sans 3's OTF build) and CFF2 variable fonts (its VF .otf) shipped
// with a design, end to end: the same layout as the family's TrueType build, pixels close to it and to
// Chromium with the same files, pdf that poppler and qpdf accept and that rasterises like the png, the
// CLI's --font, and damaged files refused at their path. The fonts are the devDependency source-sans (OFL).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import * as hb from 'harfbuzzjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { designFontSet } from '../src/assets/design-fonts.js';
import { fileAssetResolver } from '../src/assets/resolver.js';
import { parseDesign } from '../src/design/parse.js';
import { Engine, type DesignInput } from '../src/engine.js';
import { ImprintError } from '../src/errors.js';
import { layout } from '../src/layout/layout.js';
import { resolveScene } from '../src/resolve/resolve.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { readFontFile } from '../src/text/font-file.js';
import { writeCff, type OutlineCommand } from '../src/text/cff-write.js';
import { tableDirectory, withTables } from '../src/text/font-tables.js';
import { bundledFonts } from '../src/text/fonts.js';
import { loadShaper } from '../src/text/harfbuzz.js';
import { pdfFontProgram } from '../src/text/instance.js';
import { chromiumJson, chromiumScreenshot } from './support/chromium.js';
import { envelopeMismatch } from './support/envelope-diff.js';
import { run, toolsAvailable } from './support/tools.js';
import { builtBin, itBuilt, TESTS_BUILT } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const SOURCE_SANS = join(ROOT, 'node_modules/source-sans');
const STATIC = ['Regular', 'Bold', 'It'] as const;
const WEIGHTS = [200, 400, 650, 900] as const;
const engine = new Engine({ threads: 0 });
const pdfTools = toolsAvailable(['pdffonts', 'pdftotext', 'pdftoppm', 'qpdf'], 'CFF pdf tests need poppler and qpdf');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'imprint-cff-'));
  await mkdir(join(dir, 'fonts'));
  for (const style of STATIC) {
    await copyFile(join(SOURCE_SANS, `OTF/SourceSans3-${style}.otf`), join(dir, `fonts/SourceSans3-${style}.otf`));
    await copyFile(join(SOURCE_SANS, `TTF/SourceSans3-${style}.ttf`), join(dir, `fonts/SourceSans3-${style}.ttf`));
  }
  for (const ext of ['otf', 'ttf']) await copyFile(join(SOURCE_SANS, `VF/SourceSans3VF-Upright.${ext}`), join(dir, `fonts/SourceSans3VF-Upright.${ext}`));
});

/** The static family as design fonts, from its OTF (CFF) or TTF build. */
const family = (ext: 'otf' | 'ttf') => STATIC.map((style) => ({ family: 'Brand Sans', path: `fonts/SourceSans3-${style}.${ext}` }));

const TEXT =
  'Regular <substyle bold="700">Bold words</substyle> and <substyle italic>italic ones</substyle>, kerned AVATAR Type, figures 0123456789, Café «naïve» — and a line long enough to wrap twice.';

/** Regular, bold and italic in one wrapping text, in the family from `ext`. */
/** A design as plain JSON (the engine validates it). */
type Doc = { fonts: unknown[]; objects: Record<string, unknown>[] } & Record<string, unknown>;

const familyDesign = (ext: 'otf' | 'ttf'): Doc => ({
  width: 600,
  height: 220,
  background: { type: 'color', color: '#ffffff' },
  fonts: family(ext),
  objects: [
    {
      type: 'text',
      name: 't',
      x: 20,
      y: 20,
      width: 560,
      height: 180,
      font_size: 32,
      line_height: 1.3,
      font_family: 'Brand Sans',
      color: '#1a1a1a',
      text: TEXT,
      config: { text_replacement_strategy_fit_valign: 'top' },
    },
  ],
});

/** One line per weight of the CFF2 (or TrueType) variable build. */
const variableDesign = (ext: 'otf' | 'ttf'): Doc => ({
  width: 600,
  height: 300,
  background: { type: 'color', color: '#ffffff' },
  fonts: [{ family: 'Brand VF', path: `fonts/SourceSans3VF-Upright.${ext}` }],
  objects: WEIGHTS.map((w, i) => ({
    type: 'text',
    name: `w${w}`,
    x: 20,
    y: 10 + i * 70,
    width: 560,
    height: 66,
    font_size: 48,
    font_family: 'Brand VF',
    font_weight: w,
    color: '#1a1a1a',
    text: `Brand ${w} AVAVAV`,
    config: { text_replacement_strategy_fit_valign: 'top' },
  })),
});

/** The design rendered by the library, its font paths relative to the test's folder. */
const render = (design: Doc, format: 'png' | 'jpg' | 'pdf') => engine.render({ design: design as unknown as DesignInput, format, baseDir: dir });

type Run = Extract<DisplayItem, { kind: 'glyphs' }>;

/** The design's glyph runs as layout placed them (with the design's font files loaded as a render does). */
async function runsOf(design: Doc): Promise<Run[]> {
  const fonts = await designFontSet(design.fonts, undefined, bundledFonts(), fileAssetResolver({ baseDir: dir }), '$');
  await loadShaper();
  const { displayList } = layout(resolveScene(parseDesign(design, fonts), {}, fonts), new Map(), fonts);
  const runs: Run[] = [];
  const walk = (items: readonly DisplayItem[]): void => {
    for (const it of items) {
      if (it.kind === 'group') walk(it.items);
      else if (it.kind === 'glyphs') runs.push(it);
    }
  };
  walk(displayList.items);
  return runs;
}

/** Lines of text (runs joined by baseline) and every glyph's position, rounded to 1/1000 px. */
function placement(runs: readonly Run[]): { lines: string[]; glyphs: string[] } {
  const lines = new Map<string, string>();
  for (const r of runs) {
    const y = r.glyphs[0]!.y.toFixed(3);
    lines.set(y, (lines.get(y) ?? '') + r.text);
  }
  return {
    lines: [...lines].map(([y, text]) => `${y}: ${text}`),
    glyphs: runs.flatMap((r) => r.glyphs.map((g) => `${g.x.toFixed(3)},${g.y.toFixed(3)}`)),
  };
}

/** Greyscale difference of two renders of one size: mean level, and the share of pixels more than `levels` apart. */
async function difference(a: Buffer, b: Buffer, levels: number): Promise<{ mean: number; share: number; worst: number }> {
  const grey = async (png: Buffer) => (await sharp(png).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true })).data;
  const [x, y] = await Promise.all([grey(a), grey(b)]);
  expect(x.length).toBe(y.length);
  let sum = 0;
  let over = 0;
  let worst = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.abs(x[i]! - y[i]!);
    sum += d;
    worst = Math.max(worst, d);
    if (d > levels) over++;
  }
  return { mean: sum / x.length, share: over / x.length, worst };
}

/** The ink of a render: the darker the text, the larger. */
async function ink(png: Buffer): Promise<number> {
  const { data } = await sharp(png).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data.reduce((n, v) => n + (255 - v), 0);
}

/** pdffonts' font lines, pdftotext's text and pdftoppm's 96 dpi raster (1 px = 0.75 pt) of a pdf. */
async function readPdf(name: string, bytes: Buffer): Promise<{ fonts: string[]; text: string; png: Buffer; check: string }> {
  const file = join(dir, `${name}.pdf`);
  await writeFile(file, bytes);
  run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, join(dir, name)]);
  return {
    fonts: run('pdffonts', [file]).split('\n').slice(2).filter(Boolean),
    text: run('pdftotext', [file, '-']),
    png: await readFile(join(dir, `${name}.png`)),
    check: spawnSync('qpdf', ['--check', file], { encoding: 'utf8' }).stdout,
  };
}

describe('CFF (OTF) fonts shipped with a design', () => {
  it('lay out exactly as the TrueType build of the family: same line breaks and glyph positions', async () => {
    const [otf, ttf] = [placement(await runsOf(familyDesign('otf'))), placement(await runsOf(familyDesign('ttf')))];
    expect(otf.lines.length).toBeGreaterThanOrEqual(3);
    expect(otf.lines).toEqual(ttf.lines);
    expect(otf.glyphs).toEqual(ttf.glyphs);
    // Each style came from its own file (three faces, no synthesis).
    const faces = new Set((await runsOf(familyDesign('otf'))).map((r) => r.face));
    expect(faces.size).toBe(3);
    expect([...faces].some((k) => k.includes('synthetic'))).toBe(false);
  });

  it('render in png and jpg like the TrueType build (cubic and quadratic outlines of one design, both unhinted)', async () => {
    const [otf, ttf] = await Promise.all(['otf', 'ttf'].map((ext) => render(familyDesign(ext as 'otf'), 'png')));
    const d = await difference(otf!.bytes, ttf!.bytes, 32);
    // The TTF build's quadratic outlines approximate the cubic ones: edge pixels of curves differ, spread
    // evenly over the text (no glyph moved). Measured: mean 0.38 levels, 0.26 % of the pixels more than
    // 32 levels apart (worst 66).
    expect(d.mean).toBeLessThan(1);
    expect(d.share).toBeLessThan(0.005);
    expect(await ink(otf!.bytes)).toBeGreaterThan(0);
    const jpg = await render(familyDesign('otf'), 'jpg');
    expect(jpg.mimeType).toBe('image/jpeg');
    expect((await difference(jpg.bytes, otf!.bytes, 48)).share).toBeLessThan(0.005);
  });

  it.skipIf(!toolsAvailable(['chromium'], 'comparing OTF text with Chromium needs it'))(
    'measure and draw as Chromium does with the same .otf files through @font-face',
    async () => {
      // Widths: every style at 1000 px, where a font unit is a pixel.
      const SIZE = 1000;
      const samples = ['Hamburgefonstiv', 'AVATAR Type Wolf To', 'office affluent ffi fl', '0123456789 ½ €', 'Café «naïve» — “quotes”'];
      const fonts = await designFontSet(family('otf'), undefined, bundledFonts(), fileAssetResolver({ baseDir: dir }), '$');
      await loadShaper();
      const styles = [
        { weight: 400, style: 'normal' },
        { weight: 700, style: 'normal' },
        { weight: 400, style: 'italic' },
      ] as const;
      const runs = styles.flatMap((s) => samples.map((t) => ({ ...s, text: t })));
      const fontFace = STATIC.map(
        (style, i) =>
          `@font-face { font-family: "Brand Sans"; src: url("fonts/SourceSans3-${style}.otf"); font-weight: ${styles[i]!.weight}; font-style: ${styles[i]!.style}; }`,
      ).join('\n');
      await writeFile(
        join(dir, 'widths.html'),
        `<!doctype html><meta charset="utf-8"><style>${fontFace}
span { font-family: "Brand Sans"; font-size: ${SIZE}px; white-space: pre; font-synthesis: none; }</style>${runs.map((r) => `<span style="font-weight:${r.weight};font-style:${r.style}">${r.text}</span>`).join('<br>')}
<pre id="out"></pre><script>document.fonts.ready.then(() => { document.getElementById('out').textContent = JSON.stringify([...document.querySelectorAll('span')].map((s) => s.getBoundingClientRect().width)); });</script>`,
      );
      const widths = chromiumJson<number[]>(join(dir, 'widths.html'));
      const mismatches = runs.flatMap((r, i) => {
        const face = fonts.face('Brand Sans', r.weight, r.style);
        const shaped = face.shaper.layout(r.text);
        const ours = (shaped.positions.reduce((n, p) => n + p.xAdvance, 0) / face.unitsPerEm) * SIZE;
        // As in text-chromium.test.ts: Chromium's 1/64 px rounding, plus a little per glyph.
        return Math.abs(ours - widths[i]!) > 1 / 64 + 0.002 * shaped.glyphs.length ? [`${face.key} ${r.text}: ours ${ours}, Chromium ${widths[i]}`] : [];
      });
      expect(mismatches).toEqual([]);

      // Pixels: one line per style at 40 px, drawn by both.
      const lines = [
        { text: 'Regular Hamburgefonstiv AVATAR', css: '', fields: {} },
        { text: 'Bold Hamburgefonstiv AVATAR', css: 'font-weight:700', fields: { font_weight: 700 } },
        { text: 'Italic Hamburgefonstiv AVATAR', css: 'font-style:italic', fields: { font_style: 'italic' } },
      ];
      const design = {
        width: 600,
        height: 180,
        background: { type: 'color', color: '#ffffff' },
        fonts: family('otf'),
        objects: lines.map((l, i) => ({
          type: 'text',
          name: `l${i}`,
          x: 20,
          y: 10 + i * 56,
          width: 560,
          height: 52,
          font_size: 40,
          line_height: 1.3,
          font_family: 'Brand Sans',
          color: '#000000',
          text: l.text,
          config: { text_replacement_strategy_fit_valign: 'top' },
          ...l.fields,
        })),
      };
      const ours = await render(design, 'png');
      await writeFile(
        join(dir, 'lines.html'),
        `<!doctype html><meta charset="utf-8"><style>${fontFace}
body { margin: 0; background: #fff; } div { position: absolute; left: 20px; font: 40px/52px "Brand Sans"; white-space: pre; color: #000; font-synthesis: none; }</style>
${lines.map((l, i) => `<div style="top:${10 + i * 56}px;${l.css}">${l.text}</div>`).join('')}`,
      );
      const shot = join(dir, 'lines-chromium.png');
      chromiumScreenshot(join(dir, 'lines.html'), shot, 600, 180);
      await writeFile(join(dir, 'lines-ours.png'), ours.bytes);
      // The envelope comparison (support/envelope-diff.ts) forgives anti-aliasing and a pixel's shift of an
      // edge, not a moved glyph or another size. Measured: 0.03 % of the pixels outside it, 0.9 % more ink here.
      const mismatch = await envelopeMismatch(ours.bytes, shot);
      expect(mismatch, `ours ${join(dir, 'lines-ours.png')}, Chromium ${shot}`).toBeLessThan(0.003);
      expect(Math.abs((await ink(ours.bytes)) / (await ink(await readFile(shot))) - 1)).toBeLessThan(0.03);
    },
    120_000,
  );

  it.skipIf(!pdfTools)('embed in pdf as subset CFF fonts with ToUnicode: text reads back, qpdf is clean, pdftoppm matches the png', async () => {
    const design = familyDesign('otf');
    const [png, pdf] = await Promise.all([render(design, 'png'), render(design, 'pdf')]);
    const read = await readPdf('family', pdf.bytes);
    expect(read.fonts).toHaveLength(3);
    for (const [line, style] of read.fonts.map((l, i) => [l, STATIC[i]] as const)) {
      // An embedded (yes), subset (yes) CFF font with a ToUnicode map (yes), the file's own PostScript name.
      expect(line).toMatch(new RegExp(`^[A-Z]{6}\\+SourceSans3-${style}\\s+CID Type 0C\\s+Identity-H\\s+yes yes yes`));
    }
    expect(read.text.replace(/\s+/g, ' ').trim()).toBe(TEXT.replace(/<[^>]+>/g, ''));
    expect(read.check).toMatch(/No syntax or stream encoding errors/);
    // The pdf holds the CFF program itself (FontFile3), not an image or outlines.
    expect(pdf.bytes.toString('latin1')).toMatch(/\/FontFile3/);
    const mismatch = await envelopeMismatch(png.bytes, read.png);
    // Measured: 0.002 % (poppler's and Skia's anti-aliasing of the same outlines).
    expect(mismatch).toBeLessThan(0.005);
  });

  it('packed as WOFF or WOFF2 (CFF flavour) render exactly as the .otf; the CFF2 VF as WOFF2 too', async () => {
    for (const style of STATIC) {
      for (const ext of ['woff', 'woff2']) {
        await copyFile(join(SOURCE_SANS, `${ext.toUpperCase()}/OTF/SourceSans3-${style}.otf.${ext}`), join(dir, `fonts/SourceSans3-${style}.otf.${ext}`));
      }
    }
    await copyFile(join(SOURCE_SANS, 'WOFF2/VF/SourceSans3VF-Upright.otf.woff2'), join(dir, 'fonts/SourceSans3VF-Upright.otf.woff2'));
    const otf = await render(familyDesign('otf'), 'png');
    for (const ext of ['woff', 'woff2']) {
      const packed = await render({ ...familyDesign('otf'), fonts: family('otf').map((f) => ({ ...f, path: `${f.path}.${ext}` })) }, 'png');
      expect((await difference(packed.bytes, otf.bytes, 0)).share).toBe(0);
    }
    const vf = await render(variableDesign('otf'), 'png');
    const vfWoff2 = await render({ ...variableDesign('otf'), fonts: [{ family: 'Brand VF', path: 'fonts/SourceSans3VF-Upright.otf.woff2' }] }, 'png');
    expect((await difference(vfWoff2.bytes, vf.bytes, 0)).share).toBe(0);
  });

  itBuilt(
    'the CLI renders with --font <file>.otf: png and pdf',
    async () => {
      const design = { ...familyDesign('otf'), fonts: ['Source Sans 3'] };
      (design.objects[0] as { font_family: string }).font_family = 'Source Sans 3';
      await writeFile(join(dir, 'cli.json'), JSON.stringify(design));
      const fontArgs = STATIC.flatMap((s) => ['--font', `fonts/SourceSans3-${s}.otf`]);
      for (const out of ['cli.png', 'cli.pdf']) {
        const r = await promisify(execFile)(process.execPath, [builtBin(), 'render', 'cli.json', ...fontArgs, '--out', out], { cwd: dir });
        expect(r.stderr).not.toMatch(/error/i);
      }
      const direct = await render(familyDesign('otf'), 'png');
      // The same file under its own family name: the same pixels as the design's "Brand Sans".
      expect((await difference(await readFile(join(dir, 'cli.png')), direct.bytes, 0)).share).toBe(0);
      if (pdfTools) {
        const text = run('pdftotext', [join(dir, 'cli.pdf'), '-']);
        expect(text.replace(/\s+/g, ' ').trim()).toBe(TEXT.replace(/<[^>]+>/g, ''));
      }
    },
    60_000,
  );
});

describe('CFF2 variable fonts', () => {
  it('render each weight as an instance: heavier and wider as the weight grows, as the TrueType VF build does', async () => {
    const [cff2, ttf] = await Promise.all(['otf', 'ttf'].map((ext) => render(variableDesign(ext as 'otf'), 'png')));
    const strips = async (png: Buffer) =>
      Promise.all(
        WEIGHTS.map((_, i) =>
          sharp(png)
            .extract({ left: 0, top: 10 + i * 70, width: 600, height: 66 })
            .png()
            .toBuffer()
            .then(ink),
        ),
      );
    const inks = await strips(cff2!.bytes);
    expect(inks).toEqual([...inks].sort((a, b) => a - b));
    expect(inks[3]! / inks[0]!).toBeGreaterThan(2.5);
    // Same advances as the TrueType build at every weight, and the same pixels within anti-aliasing.
    expect(placement(await runsOf(variableDesign('otf'))).glyphs).toEqual(placement(await runsOf(variableDesign('ttf'))).glyphs);
    const d = await difference(cff2!.bytes, ttf!.bytes, 32);
    // Measured: mean 0.19 levels, 0.12 % of the pixels more than 32 apart (curve edges; worst 69).
    expect(d.mean).toBeLessThan(0.5);
    expect(d.share).toBeLessThan(0.005);
  });

  it.skipIf(!pdfTools)('embed in pdf as static CFF instances (HarfBuzz downgrades CFF2): one per weight, real text, as in the png', async () => {
    const design = variableDesign('otf');
    const [png, pdf] = await Promise.all([render(design, 'png'), render(design, 'pdf')]);
    const read = await readPdf('variable', pdf.bytes);
    expect(read.fonts).toHaveLength(4);
    for (const line of read.fonts) expect(line).toMatch(/CID Type 0C\s+Identity-H\s+yes yes yes/);
    // Each instance under its own PostScript name (Adobe TN #5902: the file's name 25 prefix and the weight).
    expect(read.fonts.map((l) => /\+(\S+)/.exec(l)![1]).sort()).toEqual(WEIGHTS.map((w) => `SourceSans3Upright_${w}wght`).sort());
    expect(read.text.replace(/\f/g, '').split('\n').filter(Boolean)).toEqual(WEIGHTS.map((w) => `Brand ${w} AVAVAV`));
    expect(read.check).toMatch(/No syntax or stream encoding errors/);
    const mismatch = await envelopeMismatch(png.bytes, read.png);
    // Measured: 0.14 % (the instance's outlines are rounded to font units, and poppler anti-aliases).
    expect(mismatch).toBeLessThan(0.005);
  });

  it('the pdf font program: CFF in place of CFF2, only the glyphs drawn, at their own ids', async () => {
    const vf = await readFile(join(dir, 'fonts/SourceSans3VF-Upright.otf'));
    const info = await readFontFile(vf);
    expect(info.weightAxis).toEqual({ min: 200, default: 200, max: 900 });
    const source = new hb.Font(new hb.Face(new hb.Blob(vf)));
    const ids = [...'Brand'].map((c) => source.nominalGlyph(c.codePointAt(0)!)!);
    const program = await pdfFontProgram(vf, { wght: 650 }, ids);
    const tags = tableDirectory(program)!.map((t) => t.tag);
    expect(tags).toContain('CFF ');
    expect(tags).not.toContain('CFF2');
    expect(tags).not.toContain('fvar');
    const made = new hb.Font(new hb.Face(new hb.Blob(program)));
    source.setVariations([new hb.Variation('wght', 650)]);
    // The instance's outlines: those HarfBuzz draws from the variable font at 650, rounded to font units.
    for (const id of ids) {
      const [a, b] = [made.glyphExtents(id)!, source.glyphExtents(id)!];
      for (const k of ['xBearing', 'yBearing', 'width', 'height'] as const) expect(Math.abs(a[k] - b[k])).toBeLessThanOrEqual(1);
    }
    // …not the default (200) outlines: the 650 stems are wider.
    const light = new hb.Font(new hb.Face(new hb.Blob(vf)));
    expect(made.glyphExtents(ids[0]!)!.width).toBeGreaterThan(light.glyphExtents(ids[0]!)!.width + 10);
    // A glyph not drawn is left empty: the program carries the document's glyphs only.
    const unused = source.nominalGlyph('Z'.codePointAt(0)!)!;
    expect(made.glyphToPath(unused)).toBe('');
    expect(program.length).toBeLessThan(vf.length / 10);
  });
});

/** A static CFF2 font: the VF at `wght` made static by HarfBuzz's instancer, its CFF2 table kept (no downgrade). */
async function staticCff2(vf: Buffer, wght: number): Promise<Buffer> {
  const wasm = await readFile(join(ROOT, 'node_modules/harfbuzzjs/dist/harfbuzz-subset.wasm'));
  const e = (await WebAssembly.instantiate(wasm, {})).instance.exports as Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory };
  e._initialize?.();
  const data = e.malloc!(vf.length);
  new Uint8Array(e.memory.buffer).set(vf, data);
  const face = e.hb_face_create!(e.hb_blob_create!(data, vf.length, 2, 0, 0), 0);
  const input = e.hb_subset_input_create_or_fail!();
  e.hb_subset_input_keep_everything!(input);
  e.hb_subset_input_pin_axis_location!(input, face, 0x77676874 /* wght */, wght);
  const blob = e.hb_face_reference_blob!(e.hb_subset_or_fail!(face, input));
  return Buffer.from(new Uint8Array(e.memory.buffer, e.hb_blob_get_data!(blob, 0), e.hb_blob_get_length!(blob)));
}

/** The font with its TrueType outlines replaced by a CFF table that writeCff made from HarfBuzz's drawing of them. */
async function asCffFont(ttf: Buffer): Promise<Buffer> {
  const face = new hb.Face(new hb.Blob(ttf));
  const font = new hb.Font(face);
  const maxpTable = face.referenceTable('maxp')!;
  const count = (maxpTable[4]! << 8) | maxpTable[5]!;
  const draw = new hb.DrawFuncs();
  draw.setMoveToFunc((x, y, d) => (d as OutlineCommand[]).push(['M', x, y]));
  draw.setLineToFunc((x, y, d) => (d as OutlineCommand[]).push(['L', x, y]));
  draw.setQuadraticToFunc((x1, y1, x, y, d) => (d as OutlineCommand[]).push(['Q', x1, y1, x, y]));
  draw.setCubicToFunc((x1, y1, x2, y2, x, y, d) => (d as OutlineCommand[]).push(['C', x1, y1, x2, y2, x, y]));
  draw.setClosePathFunc((d) => (d as OutlineCommand[]).push(['Z']));
  const glyphs = Array.from({ length: count }, (_, id) => {
    const outline: OutlineCommand[] = [];
    font.drawGlyph(id, draw, outline);
    return { advance: font.glyphHAdvance(id), outline };
  });
  const maxp = Buffer.from([0, 0, 0x50, 0, (count >> 8) & 0xff, count & 0xff]); // version 0.5: no TrueType fields
  const out = withTables(ttf, {
    glyf: null,
    loca: null,
    cvt: null,
    fpgm: null,
    prep: null,
    gasp: null,
    maxp,
    'CFF ': writeCff('InterCFF-Regular', face.upem, glyphs).table,
  });
  out.write('OTTO', 0, 'latin1');
  return out;
}

describe('CFF written from outlines (for CFF2 fonts HarfBuzz cannot downgrade)', () => {
  it.skipIf(!pdfTools)('a static CFF2 font (no axes to pin) renders in png, and in pdf as CFF drawn from its outlines', async () => {
    const vf = await readFile(join(dir, 'fonts/SourceSans3VF-Upright.otf'));
    const fixed = await staticCff2(vf, 650);
    expect(tableDirectory(fixed)!.map((t) => t.tag)).toContain('CFF2');
    expect(tableDirectory(fixed)!.map((t) => t.tag)).not.toContain('fvar');
    await writeFile(join(dir, 'fonts/static-cff2.otf'), fixed);
    const design: Doc = {
      ...variableDesign('otf'),
      height: 80,
      fonts: [{ family: 'Brand VF', path: 'fonts/static-cff2.otf' }],
      objects: [{ ...variableDesign('otf').objects[2]!, y: 10, text: 'Static CFF2 Àgé 650' }],
    };
    const [png, pdf] = await Promise.all([render(design, 'png'), render(design, 'pdf')]);
    expect(await ink(png.bytes)).toBeGreaterThan(0);
    // The program embedded: CFF written from the outlines HarfBuzz draws, glyph for glyph the same.
    const source = new hb.Font(new hb.Face(new hb.Blob(fixed)));
    const ids = [...'Àgé'].map((c) => source.nominalGlyph(c.codePointAt(0)!)!);
    const program = await pdfFontProgram(fixed, undefined, ids);
    expect(tableDirectory(program)!.map((t) => t.tag)).toEqual(expect.arrayContaining(['CFF ']));
    expect(tableDirectory(program)!.map((t) => t.tag)).not.toContain('CFF2');
    const made = new hb.Font(new hb.Face(new hb.Blob(program)));
    for (const id of ids) expect(made.glyphExtents(id)).toEqual(source.glyphExtents(id));
    const read = await readPdf('static-cff2', pdf.bytes);
    expect(read.fonts).toHaveLength(1);
    expect(read.fonts[0]).toMatch(/CID Type 0C\s+Identity-H\s+yes yes yes/);
    expect(read.text.trim()).toBe('Static CFF2 Àgé 650');
    expect(read.check).toMatch(/No syntax or stream encoding errors/);
    // Measured: 0.24 % (the text sits a pixel higher in poppler's raster, in every font format).
    expect(await envelopeMismatch(png.bytes, read.png)).toBeLessThan(0.005);
  });

  it.skipIf(!pdfTools)('the CFF written keeps the outlines exactly and scales by the FontMatrix (Inter, 2048 units per em, quadratic)', async () => {
    const ttf = await readFile(bundledFonts().face('Inter', 400).file);
    const cff = await asCffFont(ttf);
    const [a, b] = [new hb.Font(new hb.Face(new hb.Blob(ttf))), new hb.Font(new hb.Face(new hb.Blob(cff)))];
    for (const ch of 'AgQ&@é') {
      const id = a.nominalGlyph(ch.codePointAt(0)!)!;
      expect(b.glyphExtents(id)).toEqual(a.glyphExtents(id));
    }
    await writeFile(join(dir, 'fonts/inter-cff.otf'), cff);
    const line = (path: string): Doc => ({
      width: 500,
      height: 70,
      background: { type: 'color', color: '#ffffff' },
      fonts: [{ family: 'I', path }],
      objects: [{ type: 'text', x: 10, y: 5, width: 480, height: 60, font_size: 40, font_family: 'I', color: '#000000', text: 'Hamburgefonstiv ÀÉ @&' }],
    });
    await writeFile(join(dir, 'fonts/inter.ttf'), ttf);
    const [png, pdf] = await Promise.all([render(line('fonts/inter.ttf'), 'png'), render(line('fonts/inter-cff.otf'), 'pdf')]);
    const read = await readPdf('inter-cff', pdf.bytes);
    expect(read.fonts[0]).toMatch(/^[A-Z]{6}\+Inter-Regular\s+CID Type 0C/);
    expect(read.text.trim()).toBe('Hamburgefonstiv ÀÉ @&');
    // Measured: 0 %: poppler drew the CFF at the TrueType font's size and place.
    expect(await envelopeMismatch(png.bytes, read.png)).toBeLessThan(0.005);
  });
});

describe('damaged OTF files', () => {
  /** The file with its CFF table's bytes from `from` (relative) for `length` set to zero. */
  const zeroedCff = async (from: number, length: number) => {
    const bytes = Buffer.from(await readFile(join(SOURCE_SANS, 'OTF/SourceSans3-Regular.otf')));
    const cff = tableDirectory(bytes)!.find((t) => t.tag === 'CFF ')!;
    bytes.fill(0, cff.offset + from, cff.offset + Math.min(cff.length, from + length));
    return bytes;
  };

  it.each([
    ['a truncated .otf', async () => (await readFile(join(SOURCE_SANS, 'OTF/SourceSans3-Regular.otf'))).subarray(0, 100_000), /corrupt or truncated/],
    ['an .otf whose CFF table is zeroed', () => zeroedCff(0, 1 << 30), /corrupt: the CFF outlines of 1605 of its 1605 glyphs cannot be read/],
    ['an .otf with a zeroed stretch of charstrings', () => zeroedCff(80_000, 4096), /corrupt: the CFF outlines of \d+ of its 1605 glyphs cannot be read/],
  ])('refuses %s with a validation_error naming the file at its path, rendering nothing', async (_, bytes, message) => {
    await writeFile(join(dir, 'fonts/damaged.otf'), await bytes());
    const design = {
      ...familyDesign('otf'),
      fonts: [...family('otf').slice(0, 2), { family: 'Brand Sans', path: 'fonts/damaged.otf', style: 'italic' }],
    };
    for (const format of ['png', 'pdf'] as const) {
      const err = await render(design, format).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ImprintError);
      expect(err).toMatchObject({ code: 'validation_error', path: '$.fonts[2].path' });
      expect((err as Error).message).toMatch(/^"fonts\/damaged\.otf": /);
      expect((err as Error).message).toMatch(message);
    }
    // The CLI names the file too (a run without the built package stops here).
    if (!TESTS_BUILT) return;
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ ...familyDesign('otf'), fonts: ['Source Sans 3'] }));
    const cli = await promisify(execFile)(process.execPath, [builtBin(), 'render', 'bad.json', '--font', 'fonts/damaged.otf', '--out', 'bad.png'], {
      cwd: dir,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(cli.code).toBe(2);
    expect(existsSync(join(dir, 'bad.png'))).toBe(false);
    expect(cli.stderr).toMatch(/^validation_error at \$\.fontFiles\[0\]: --font fonts\/damaged\.otf: /);
  });
});
