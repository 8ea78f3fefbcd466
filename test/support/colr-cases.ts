// What the COLRv1 gradient tests (colr-sweep, colr-extend) share: an engine with Google's COLRv1 test
// font, a grid of its glyphs, hand-built op-list glyphs clipped to a circle, the colour line read from
// the COLRv1 definition, and a sheet of cases drawn by both painters (png and a one-page pdf).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';
import { Engine, type DesignInput } from '../../src/engine.js';
import { drawColorGlyph } from '../../src/paint/color-glyphs.js';
import { PdfColorGlyphs, type PdfColorDoc } from '../../src/paint/pdf-color.js';
import type { RGBA } from '../../src/scene/scene.js';
import type { ColorBox, ColorGlyph, ColorMatrix, ColorOp, ColorStopOp, GradientExtend } from '../../src/text/colr.js';
import { FONTS_DIR, FontSet } from '../../src/text/fonts.js';
import { chromiumScreenshot } from './chromium.js';
import { envelopeMismatch } from './envelope-diff.js';
import { REPO_ROOT } from './golden-compare.js';
import { run } from './tools.js';

export const COLR_TEST_FONT = join(REPO_ROOT, 'test', 'fixtures', 'colr', 'test_glyphs-glyf_colr_1.ttf');

/** An engine whose font set has Inter and the test font as family "COLRv1 Test"; `cleanup` removes its folder. */
export function colrTestEngine(prefix: string): { engine: Engine; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      families: [
        { family: 'Inter', faces: [{ weight: 400, file: join(FONTS_DIR, 'Inter-Regular.ttf') }], license: join(FONTS_DIR, 'Inter-OFL.txt') },
        { family: 'COLRv1 Test', faces: [{ weight: 400, file: COLR_TEST_FONT }], license: join(REPO_ROOT, 'test', 'fixtures', 'colr', 'LICENSE') },
      ],
    }),
  );
  return { engine: new Engine({ fonts: new FontSet(dir), threads: 0 }), dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The test font's `rows` at `size` px, one text box per row of up to `columns` glyphs, each 1.2 em high from y 10. */
export function colrFontGrid(rows: readonly string[], columns: number, size: number): DesignInput & { width: number; height: number } {
  const line = size * 1.2;
  return {
    schema: 'imprint/design@1',
    width: columns * size + 20,
    height: rows.length * line + 20,
    background: { type: 'color', color: '#ffffff' },
    fonts: ['Inter', 'COLRv1 Test'],
    objects: rows.map((text, r) => ({
      type: 'text' as const,
      font_family: 'COLRv1 Test',
      color: '#000000',
      text,
      x: 10,
      y: 10 + r * line,
      width: columns * size,
      height: line,
      font_size: size,
      config: { text_replacement_strategy_fit_valign: 'top' as const },
    })),
  };
}

/** The same rows as an HTML page for Chromium, with the font through @font-face and the same line boxes. */
export function colrFontGridHtml(rows: readonly string[], size: number): string {
  return `<!doctype html><meta charset="utf-8"><style>@font-face { font-family: T; src: url("file://${COLR_TEST_FONT}"); }
html, body { margin: 0; background: #fff; }
div { position: absolute; left: 10px; white-space: pre; font-family: T; font-size: ${size}px; line-height: 1.2; }</style>
${rows.map((t, r) => `<div style="top: ${10 + r * size * 1.2}px">${t}</div>`).join('')}`;
}

export const stop = (offset: number, r: number, g: number, b: number, a = 1): ColorStopOp => ({ offset, color: [r, g, b, a] });

/** A circle (cubic Béziers, y up) as SVG path data, as HarfBuzz writes outlines. */
export function circle(cx: number, cy: number, r: number): string {
  const k = 0.5523 * r;
  return (
    `M${cx + r} ${cy}C${cx + r} ${cy + k} ${cx + k} ${cy + r} ${cx} ${cy + r}C${cx - k} ${cy + r} ${cx - r} ${cy + k} ${cx - r} ${cy}` +
    `C${cx - r} ${cy - k} ${cx - k} ${cy - r} ${cx} ${cy - r}C${cx + k} ${cy - r} ${cx + r} ${cy - k} ${cx + r} ${cy}Z`
  );
}

/** A case glyph's em box and the circle its paint is clipped to. */
export const BOX: ColorBox = [0, 0, 1000, 1000];
export const CLIP = { cx: 500, cy: 500, r: 450 };

export const invert = (m: ColorMatrix): ColorMatrix => {
  const det = m[0] * m[3] - m[1] * m[2];
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
};
export const apply = (m: ColorMatrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/** A glyph that clips to CLIP and paints `paint(bounds)` there, under `transform` if given (bounds: BOX in paint space). */
export function clippedGlyph(paint: (bounds: ColorBox) => ColorOp, transform?: ColorMatrix): ColorGlyph {
  let bounds: ColorBox = BOX;
  if (transform) {
    const inverse = invert(transform);
    const corners = [apply(inverse, 0, 0), apply(inverse, 1000, 0), apply(inverse, 0, 1000), apply(inverse, 1000, 1000)];
    bounds = [
      Math.min(...corners.map((p) => p[0])),
      Math.min(...corners.map((p) => p[1])),
      Math.max(...corners.map((p) => p[0])),
      Math.max(...corners.map((p) => p[1])),
    ];
  }
  const ops: ColorOp[] = [{ op: 'push_clip_path', path: circle(CLIP.cx, CLIP.cy, CLIP.r) }];
  if (transform) ops.push({ op: 'push_transform', matrix: transform }, paint(bounds), { op: 'pop_transform' });
  else ops.push(paint(bounds));
  ops.push({ op: 'pop_clip' });
  return { ops, box: BOX, usesForeground: false };
}

/**
 * The colour line at `t`, extended as COLRv1 defines it (pad clamps to 0..1, repeat takes t − ⌊t⌋,
 * reflect mirrors every other copy), written out from the definition, not through the painters' code.
 */
export function colourOnLine(stops: readonly ColorStopOp[], extend: GradientExtend, at: number): RGBA {
  let t = at;
  if (extend === 'pad') t = Math.min(1, Math.max(0, t));
  else if (extend === 'repeat') t -= Math.floor(t);
  else {
    t -= 2 * Math.floor(t / 2);
    if (t > 1) t = 2 - t;
  }
  if (t <= stops[0]!.offset) return stops[0]!.color;
  for (let i = 1; i < stops.length; i++) {
    const [a, b] = [stops[i - 1]!, stops[i]!];
    if (t <= b.offset) {
      const k = b.offset > a.offset ? (t - a.offset) / (b.offset - a.offset) : 1;
      return [0, 1, 2, 3].map((j) => a.color[j]! + k * (b.color[j]! - a.color[j]!)) as unknown as RGBA;
    }
  }
  return stops[stops.length - 1]!.color;
}

/** One cell per case glyph, COLUMNS to a row, on a khaki backdrop. */
export const CELL = 200;
export const COLUMNS = 5;
export const SCALE = CELL / 1000;
export const BACKDROP: [number, number, number] = [190, 190, 150];

/** The cell's glyph space → page pixels (y down). */
export const cellMatrix = (i: number): ColorMatrix => [SCALE, 0, 0, -SCALE, (i % COLUMNS) * CELL, Math.floor(i / COLUMNS) * CELL + CELL];

const pageOf = (n: number): { width: number; height: number } => ({ width: COLUMNS * CELL, height: Math.ceil(n / COLUMNS) * CELL });

/** The glyphs drawn by the raster painter, one per cell: a png. */
export function rasterSheet(glyphs: readonly ColorGlyph[]): Buffer {
  const page = pageOf(glyphs.length);
  const canvas = createCanvas(page.width, page.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = `rgb(${BACKDROP.join(',')})`;
  ctx.fillRect(0, 0, page.width, page.height);
  glyphs.forEach((g, i) => drawColorGlyph(ctx, g, [0, 0, 0, 1], cellMatrix(i)));
  return canvas.toBuffer('image/png');
}

/** The glyphs as one pdf page (1 pt per pixel), each the form the pdf painter writes. */
export async function pdfSheet(glyphs: readonly ColorGlyph[]): Promise<Buffer> {
  const page = pageOf(glyphs.length);
  const doc = new PDFDocument({ size: [page.width, page.height], margin: 0, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (b: Buffer) => chunks.push(b));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const internals = doc as unknown as PdfColorDoc & { page: { xobjects: Record<string, unknown> }; addContent(op: string): void };
  const forms = new PdfColorGlyphs(internals);
  internals.addContent(`${BACKDROP.map((v) => v / 255).join(' ')} rg 0 0 ${page.width} ${page.height} re f`);
  glyphs.forEach((g, i) => {
    internals.page.xobjects[`Em${i}`] = forms.form(`case${i}`, g, [0, 0, 0, 1]);
    // pdfkit's page space is y down, as the canvas's.
    internals.addContent(`q ${cellMatrix(i).join(' ')} cm /Em${i} Do Q`);
  });
  doc.end();
  return done;
}

/** Pixels of a sheet read back against the colours the definition gives. */
export interface Readback {
  checked: number;
  outside: { name: string; x: number; y: number; got: number[]; low: number[]; high: number[] }[];
  worst: number;
}

/**
 * The test font's `rows` rendered by `engine` at `size` px, and by Chromium from the same font file:
 * the share of pixels outside the envelope of Chromium's screenshot (`shot`, kept in `dir`).
 */
export async function againstChromium(
  engine: Engine,
  dir: string,
  rows: readonly string[],
  columns: number,
  size: number,
): Promise<{ mismatch: number; shot: string }> {
  const design = colrFontGrid(rows, columns, size);
  const ours = await engine.render({ design, format: 'png' });
  // The font sets USE_TYPO_METRICS (typo ascender 950, descender 0, against hhea's 950/−250): both
  // Chromium and layout follow it, so the rows line up without a shift.
  const page = join(dir, `grid-${size}.html`);
  writeFileSync(page, colrFontGridHtml(rows, size));
  const shot = join(dir, `grid-${size}-chromium.png`);
  chromiumScreenshot(page, shot, design.width, design.height);
  return { mismatch: await envelopeMismatch(ours.bytes, shot, 8), shot };
}

/**
 * `design` as png and as pdf (written to `dir`, checked by qpdf), the pdf rasterised by poppler and by
 * Ghostscript at 96 dpi: the share of their pixels outside the png's envelope, and the pdf's path.
 */
export async function pdfAgainstPng(engine: Engine, dir: string, design: DesignInput): Promise<{ file: string; poppler: number; gs: number }> {
  const png = await engine.render({ design, format: 'png' });
  const pdf = await engine.render({ design, format: 'pdf' });
  const file = join(dir, 'font.pdf');
  writeFileSync(file, pdf.bytes);
  run('qpdf', ['--check', file]);
  run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, join(dir, 'font-poppler')]);
  run('gs', ['-q', '-sDEVICE=png16m', '-r96', '-dGraphicsAlphaBits=4', '-o', join(dir, 'font-gs.png'), file]);
  return {
    file,
    poppler: await envelopeMismatch(png.bytes, join(dir, 'font-poppler.png')),
    gs: await envelopeMismatch(png.bytes, join(dir, 'font-gs.png')),
  };
}
