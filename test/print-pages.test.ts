// Print pages (issue 28): a design (or Polotno document) of a fractional size at a dpi renders to a
// raster rounded as Polotno's export rounds it (A4 at 300 dpi: 2480 × 3508) and to a pdf of the exact
// physical size (595.276 × 841.89 pt, read back with pdfinfo), and a bleed grows the pdf page on each
// side with a TrimBox at the canvas. The CLI test runs bin/imprint.js, which loads dist/: build first.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, type DesignInput } from '../src/engine.js';
import type { PolotnoDocument } from '../src/index.js';
import { expectRefused } from './support/refusal.js';
import { builtBin, describeBuilt } from './support/stale-build.js';

/** 210 × 297 mm at 300 dpi, as Polotno's editor stores A4 (unitToPx). */
const A4 = { width: (210 / 25.4) * 300, height: (297 / 25.4) * 300 };
/** 3 mm at 300 dpi. */
const BLEED = (3 / 25.4) * 300;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-print-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Boxes {
  size: [number, number];
  media: number[];
  trim: number[];
  bleed: number[];
}

/** Page size and boxes of each page, as `pdfinfo -box` prints them. */
function pdfBoxes(pdf: Buffer): Boxes[] {
  const file = join(dir, `boxes-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const out = execFileSync('pdfinfo', ['-box', '-f', '1', '-l', '100', file], { encoding: 'utf8' });
  // One page: "size:", "MediaBox:"…; several: the same lines prefixed "Page    2 ".
  const pages: Partial<Boxes>[] = [];
  for (const m of out.matchAll(/^(?:Page\s+(\d+)\s+)?(size|MediaBox|TrimBox|BleedBox):\s+(.*)$/gm)) {
    const page = (pages[Number(m[1] ?? 1) - 1] ??= {});
    const numbers = m[3]!.match(/[\d.]+/g)!.map(Number);
    if (m[2] === 'size') page.size = [numbers[0]!, numbers[1]!];
    else page[m[2] === 'MediaBox' ? 'media' : m[2] === 'TrimBox' ? 'trim' : 'bleed'] = numbers;
  }
  return pages as Boxes[];
}

/** The pdf's first page rasterised by pdftoppm at `dpi`. */
async function pdfPixels(pdf: Buffer, dpi: number): Promise<{ data: Buffer; width: number; height: number }> {
  const file = join(dir, `raster-${Math.random().toString(36).slice(2)}`);
  writeFileSync(`${file}.pdf`, pdf);
  execFileSync('pdftoppm', ['-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', '-png', `${file}.pdf`, file]);
  const { data, info } = await sharp(`${file}.png`).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const rgbAt = (p: { data: Buffer; width: number }, x: number, y: number): number[] => [...p.data.subarray((y * p.width + x) * 3, (y * p.width + x) * 3 + 3)];

/** An A4 page at 300 dpi: a cream background, a blue band across the top that reaches into the bleed on three sides. */
function a4(page: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): PolotnoDocument {
  return {
    width: A4.width,
    height: A4.height,
    unit: 'mm',
    dpi: 300,
    schemaVersion: 4,
    ...extra,
    pages: [
      {
        id: 'p1',
        background: '#fff3e0',
        ...page,
        children: [
          { id: 'band', type: 'figure', subType: 'rect', name: 'band', x: -BLEED, y: -BLEED, width: A4.width + 2 * BLEED, height: 600, fill: '#1e88e5' },
          { id: 't', type: 'text', name: 'title', x: 240, y: 1500, width: 2000, text: 'A4', fontFamily: 'Inter', fontSize: 200, fill: '#222222' },
        ],
      },
    ],
  };
}

describe('a Polotno document at 300 dpi', () => {
  it('renders A4 to a 2480 × 3508 png (Math.round of 2480.315 × 3507.874, as Polotno) with density 300, opaque to the last row', async () => {
    const result = await render({ design: a4(), format: 'png' });
    const meta = await sharp(result.bytes).metadata();
    expect([meta.width, meta.height, meta.density]).toEqual([2480, 3508, 300]);
    // The rounded-up last row is the background, not half transparent.
    const { data, info } = await sharp(result.bytes).raw().toBuffer({ resolveWithObject: true });
    const last = ((info.height - 1) * info.width + 100) * info.channels;
    expect([...data.subarray(last, last + info.channels)]).toEqual(info.channels === 4 ? [0xff, 0xf3, 0xe0, 255] : [0xff, 0xf3, 0xe0]);
    // jpg too.
    const jpg = await sharp((await render({ design: a4(), format: 'jpg' })).bytes).metadata();
    expect([jpg.width, jpg.height, jpg.density]).toEqual([2480, 3508, 300]);
  });

  it('renders A4 to a pdf whose MediaBox is A4 in points (595.276 × 841.89), with no bleed boxes of its own', async () => {
    const [page] = pdfBoxes((await render({ design: a4(), format: 'pdf' })).bytes);
    expect(page!.size).toEqual([595.276, 841.89]);
    expect(page!.media).toEqual([0, 0, 595.28, 841.89]);
    expect(page!.trim).toEqual(page!.media);
  });

  it('grows the pdf page by the bleed on each side, marks the canvas as TrimBox, and shows what reaches into the bleed', async () => {
    const pdf = (await render({ design: a4({ bleed: BLEED }), format: 'pdf' })).bytes;
    const [page] = pdfBoxes(pdf);
    // 3 mm = 8.504 pt a side.
    expect(page!.size).toEqual([612.283, 858.898]);
    expect(page!.bleed).toEqual(page!.media);
    expect(page!.trim).toEqual([8.5, 8.5, 603.78, 850.39]);
    // At 72 dpi a point is a pixel: the band fills the top-left corner of the bleed, the background the bottom one.
    const px = await pdfPixels(pdf, 72);
    expect([px.width, px.height]).toEqual([613, 859]);
    expect(rgbAt(px, 1, 1)).toEqual([0x1e, 0x88, 0xe5]);
    expect(rgbAt(px, 1, 857)).toEqual([0xff, 0xf3, 0xe0]);
    // The raster is the canvas without the bleed.
    const meta = await sharp((await render({ design: a4({ bleed: BLEED }), format: 'png' })).bytes).metadata();
    expect([meta.width, meta.height]).toEqual([2480, 3508]);
  });

  it('reads per-side bleed as Polotno resolveBleed does (bleedTop over bleed)', async () => {
    const [page] = pdfBoxes((await render({ design: a4({ bleed: BLEED, bleedTop: 0, bleedLeft: 2 * BLEED }), format: 'pdf' })).bytes);
    // left 17.008 + 595.276 + right 8.504; top 0 + 841.89 + bottom 8.504.
    expect(page!.size).toEqual([620.787, 850.394]);
    expect(page!.trim).toEqual([17.01, 8.5, 612.28, 850.39]);
  });

  it('gives every page of a multi-page document its bleed, the page background covering it', async () => {
    const doc = a4({ bleed: BLEED });
    doc.pages.push({ id: 'p2', background: '#2e7d32', bleed: BLEED, children: [] });
    const pdf = (await render({ design: doc, format: 'pdf' })).bytes;
    const pages = pdfBoxes(pdf);
    expect(pages.map((p) => p.size)).toEqual([
      [612.283, 858.898],
      [612.283, 858.898],
    ]);
    expect(pages[1]!.trim).toEqual([8.5, 8.5, 603.78, 850.39]);
    const first = await pdfPixels(pdf, 72);
    expect(rgbAt(first, 1, 1)).toEqual([0x1e, 0x88, 0xe5]);
    expect(rgbAt(first, 1, 857)).toEqual([0xff, 0xf3, 0xe0]);
  });

  it('takes a pixel for a point with unit "pt" whatever the dpi, and at the default 72 dpi', async () => {
    const doc = { width: 500, height: 300, pages: [{ id: 'p', background: 'white', children: [] }] } as PolotnoDocument;
    expect(pdfBoxes((await render({ design: doc, format: 'pdf' })).bytes)[0]!.size).toEqual([500, 300]);
    expect(pdfBoxes((await render({ design: { ...doc, unit: 'pt', dpi: 300 }, format: 'pdf' })).bytes)[0]!.size).toEqual([500, 300]);
    expect(pdfBoxes((await render({ design: { ...doc, unit: 'in', dpi: 144 }, format: 'pdf' })).bytes)[0]!.size).toEqual([250, 150]);
  });

  it('refuses bad print fields at their path with a fix', async () => {
    const rows: [PolotnoDocument, string, string][] = [
      [a4({ bleed: -3 }), '$.pages[0].bleed', 'expected a bleed of 0 pixels or more'],
      [a4({ bleedLeft: -1 }), '$.pages[0].bleedLeft', 'expected a bleed of 0 pixels or more'],
      [a4({}, { dpi: 0 }), '$.dpi', 'expected dpi greater than 0'],
      [a4({}, { unit: 'furlong' }), '$.unit', 'expected unit "px", "pt", "mm", "cm" or "in"'],
    ];
    for (const [design, path, message] of rows) await expectRefused({ design, format: 'pdf' }, { path, message });
    const two = a4({ bleed: BLEED });
    two.pages.push({ id: 'p2', bleed: 0, children: [] });
    await expectRefused({ design: two, format: 'pdf' }, { path: '$.pages[1].bleed', message: 'every page must have the bleed of the first' });
  });
});

describe('a native design with dpi and bleed', () => {
  const design = (extra: Record<string, unknown>): DesignInput => ({
    width: 2480.315,
    height: 3507.874,
    background: { type: 'color', color: '#fff3e0' },
    objects: [
      { type: 'shape', shape: 'rect', name: 'band', x: -35.433, y: -35.433, width: 2551.181, height: 600, background: { type: 'color', color: '#1e88e5' } },
    ],
    ...extra,
  });

  it('keeps CSS pixels without a dpi (0.75 pt a pixel), and the exact print size with one', async () => {
    expect(pdfBoxes((await render({ design: design({}), format: 'pdf' })).bytes)[0]!.media).toEqual([0, 0, 1860.24, 2630.91]);
    const [page] = pdfBoxes(
      (await render({ design: design({ dpi: 300, bleed: { top: 35.433, right: 35.433, bottom: 35.433, left: 35.433 } }), format: 'pdf' })).bytes,
    );
    expect(page!.size).toEqual([612.283, 858.898]);
    expect(page!.trim).toEqual([8.5, 8.5, 603.78, 850.39]);
    const png = await sharp((await render({ design: design({ dpi: 300, bleed: 35.433 }), format: 'png' })).bytes).metadata();
    expect([png.width, png.height, png.density]).toEqual([2480, 3508, 300]);
  });

  it('refuses a negative bleed, a dpi of 0 and a bleed in words at their path', async () => {
    await expectRefused({ design: design({ bleed: -1 }), format: 'pdf' }, { path: '$.bleed', message: 'expected a bleed of 0 pixels or more' });
    await expectRefused({ design: design({ bleed: { left: -1 } }), format: 'pdf' }, { path: '$.bleed.left', message: 'expected a bleed of 0 pixels or more' });
    await expectRefused({ design: design({ bleed: '3mm' }), format: 'pdf' }, { path: '$.bleed', message: 'expected bleed as pixels' });
    await expectRefused({ design: design({ dpi: 0 }), format: 'pdf' }, { path: '$.dpi', message: 'expected dpi greater than 0' });
  });
});

describeBuilt('CLI', () => {
  it('prints the rounded raster size and the exact pdf size of an A4 Polotno document', async () => {
    writeFileSync(join(dir, 'a4.json'), JSON.stringify(a4({ bleed: BLEED })));
    const run = (args: string[]) => promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd: dir });
    const png = await run(['render', 'a4.json', '--out', 'a4.png']);
    expect(png.stderr + png.stdout).toContain('png 2480x3508');
    const pdf = await run(['render', 'a4.json', '--out', 'a4.pdf']);
    expect(pdf.stderr + pdf.stdout).toContain('pdf 2480.315x3507.874');
    expect(pdfBoxes(readFileSync(join(dir, 'a4.pdf')))[0]!.trim).toEqual([8.5, 8.5, 603.78, 850.39]);
  });
});
