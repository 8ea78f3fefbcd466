// Polotno conformance: each hand-written Polotno document under test/fixtures/polotno/<case>/ is
// rendered by Imprint (png and pdf) and, as the reference, by Chromium drawing the equivalent HTML/CSS
// (test/support/polotno-html.ts, written from the Polotno field reference, not from the importer)
// with the same font and image files. Per case: the lines of every text element break at the same
// words, the png matches Chromium's screenshot within the case's envelope tolerance, and pdftoppm's
// raster of the pdf matches the png. A failing comparison writes expected | diff | actual to
// test-output/polotno-conformance/<case>.png.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ImageCache } from '../src/assets/load.js';
import { Engine, type DesignInput } from '../src/engine.js';
import { layoutAt, withScenes } from '../src/render/scenes.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import { bundledFonts } from '../src/text/fonts.js';
import { chromiumJson, chromiumScreenshot } from './support/chromium.js';
import { envelopeMismatch, ENVELOPE_TOLERANCE } from './support/envelope-diff.js';
import { decodeRgba, diffImages, diffPanel, REPO_ROOT, type DiffResult, type RawImage } from './support/golden-compare.js';
import { polotnoHtml } from './support/polotno-html.js';
import { run, toolsAvailable } from './support/tools.js';

/**
 * Fixtures the importer refuses on purpose, with the reason it gives: Polotno scales an image's blur by
 * the source file's pixel size, which Imprint does not reproduce. The test asserts the refusal.
 */
const REFUSED: Record<string, { path: string; message: RegExp }> = {
  'effects-blur-image': { path: '$.pages[0].children[0].blurRadius', message: /blur on image elements depends on the source file's pixel size/ },
};

/**
 * Share of pixels (envelope diff, test/support/envelope-diff.ts) allowed to differ from Chromium. The
 * default covers anti-aliasing of glyph and shape edges; a case that needs more says why.
 */
const DEFAULT_TOLERANCE = 0.01;
const TOLERANCE: Record<string, { share: number; reason: string }> = {
  'text-line-through': {
    share: 0.025,
    reason: 'as text-underline: Chromium snaps the line-through and underline to whole pixels, Imprint draws them at the fractional metrics (1.4 % measured)',
  },
  'text-underline': {
    share: 0.025,
    reason:
      "Chromium snaps an underline's position and thickness to whole pixels, Imprint draws it at the font's fractional metrics: the difference runs along every underlined line (1.6 % measured)",
  },
  'image-crop': {
    share: 0.02,
    reason:
      'the test cards are drawn at 0.2–0.5× and up to 2×: their 1-px grid lines and small labels are resampled differently by Skia and Chromium (1.1 % measured)',
  },
};

/** pdftoppm's raster of the pdf against the png (first page), per case where more than the default is needed. */
const PDF_TOLERANCE = 0.01;
const PDF_TOLERANCE_FOR: Record<string, { share: number; reason: string }> = {
  'image-data-url': {
    share: 0.03,
    reason: 'a 40×30 image drawn 6× larger: poppler samples it nearest-neighbour, Skia smooths it, so its colour edges differ (1.9 % measured)',
  },
  'image-flip': {
    share: 0.035,
    reason: 'as image-crop: the 800×500 test card drawn at 0.225× in four copies, its 1-px grid lines resampled otherwise by poppler (2.4 % measured)',
  },
  'page-background-image': {
    share: 0.035,
    reason: 'the 500×800 test card is drawn at 0.8× as the page background: poppler resamples its 1-px grid lines otherwise than Skia (2.5 % measured)',
  },
  'image-crop': {
    share: 0.03,
    reason: 'test cards drawn at 0.2–2×: poppler resamples their 1-px grid lines and small labels otherwise than Skia (2.0 % measured)',
  },
  'text-stroke': {
    share: 0.015,
    reason: 'a 2-px outline is mostly anti-aliased edge: poppler and Skia cover its pixels a little differently (1.0 % measured)',
  },
};

const ROOT = join(import.meta.dirname, 'fixtures', 'polotno');
const OUT = join(REPO_ROOT, 'test-output', 'polotno-conformance');
const work = join(OUT, 'work');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
afterAll(() => rmSync(work, { recursive: true, force: true }));

const engine = new Engine({ threads: 0 });
const cases = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

type Json = Record<string, unknown>;
/** A Polotno document goes where a design does: render() tells it apart by its shape. */
const asInput = (doc: Json): DesignInput => doc as unknown as DesignInput;

/** Lines of each text object of the first page as Imprint lays them out, in paint order (outlines left out). */
async function imprintLines(design: Json, baseDir: string): Promise<string[][]> {
  const ctx = { fonts: bundledFonts(), images: new ImageCache(64 << 20) };
  return withScenes(ctx, { design: asInput(design), format: 'png', baseDir }, async ([page]) => {
    const { displayList } = await layoutAt(ctx, page!, 0);
    const texts: string[][] = [];
    const visit = (items: readonly DisplayItem[]): void => {
      for (const it of items) {
        if (it.kind !== 'group') continue;
        const glyphs = it.items.filter((g): g is Extract<DisplayItem, { kind: 'glyphs' }> => g.kind === 'glyphs' && !g.strokeWidth);
        if (glyphs.length === 0) {
          visit(it.items);
          continue;
        }
        texts.push(linesOf(glyphs));
      }
    };
    visit(displayList.items);
    return texts;
  });
}

/** Text of each painted line: glyph runs that share a baseline, top to bottom. */
function linesOf(glyphs: Extract<DisplayItem, { kind: 'glyphs' }>[]): string[] {
  const byBaseline = new Map<number, string>();
  for (const it of glyphs) {
    const y = Math.round(it.glyphs[0]!.y);
    byBaseline.set(y, (byBaseline.get(y) ?? '') + it.text);
  }
  return [...byBaseline.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
}

/** Lines compared as words: spacing at the edges and case (textTransform) aside. */
const normal = (texts: string[][]): string[][] => texts.map((lines) => lines.map((l) => l.replace(/\s+/g, ' ').trim().toLowerCase()));

/**
 * The pixels the envelope diff counts (a channel outside the range its 3×3 neighbourhood spans in the
 * other image, ± the tolerance, in either direction), as a diff for the three-panel picture.
 */
function envelopeDiff(e: RawImage, a: RawImage): DiffResult {
  const { width, height } = e;
  const mask = new Uint8Array(width * height);
  const outside = (p: RawImage, q: RawImage, x: number, y: number): boolean => {
    for (let c = 0; c < 3; c++) {
      let lo = 255;
      let hi = 0;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          const v = q.data[(yy * width + xx) * 4 + c]!;
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
      const v = p.data[(y * width + x) * 4 + c]!;
      if (v < lo - ENVELOPE_TOLERANCE || v > hi + ENVELOPE_TOLERANCE) return true;
    }
    return false;
  };
  let diffPixels = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (outside(a, e, x, y) || outside(e, a, x, y)) {
        mask[y * width + x] = 1;
        diffPixels++;
      }
    }
  }
  return { width, height, diffPixels, totalPixels: width * height, ratio: diffPixels / (width * height), mask };
}

/** expected | diff | actual, written when a comparison fails; returns its path. */
async function writePanel(name: string, expected: Buffer | string, actual: Buffer | string): Promise<string> {
  const flat = async (png: Buffer | string): Promise<RawImage> => decodeRgba(await sharp(png).flatten({ background: '#ffffff' }).png().toBuffer());
  const [e, a] = await Promise.all([flat(expected), flat(actual)]);
  const diff = e.width === a.width && e.height === a.height ? envelopeDiff(e, a) : diffImages(e, a);
  const file = join(OUT, `${name}.png`);
  writeFileSync(file, await diffPanel(e, a, diff));
  return file;
}

const ready = toolsAvailable(['chromium', 'pdftoppm'], 'the Polotno conformance test compares with Chromium and rasterises pdfs with pdftoppm');

describe.runIf(ready)('Polotno conformance against Chromium', () => {
  it('has at least 22 fixtures, each with a polotno.json', () => {
    expect(cases.length).toBeGreaterThanOrEqual(22);
    for (const c of cases) expect(() => JSON.parse(readFileSync(join(ROOT, c, 'polotno.json'), 'utf8')) as unknown, c).not.toThrow();
  });

  it.for(cases)('%s', { timeout: 120_000 }, async (name: string) => {
    const dir = join(ROOT, name);
    const design = JSON.parse(readFileSync(join(dir, 'polotno.json'), 'utf8')) as Json;
    const refused = REFUSED[name];
    if (refused) {
      await expect(engine.render({ design: asInput(design), format: 'png', baseDir: dir })).rejects.toMatchObject({
        code: 'validation_error',
        path: refused.path,
        message: expect.stringMatching(refused.message) as unknown,
      });
      return;
    }
    const png = (await engine.render({ design: asInput(design), format: 'png', baseDir: dir })).bytes;
    const pngFile = join(work, `${name}.imprint.png`);
    writeFileSync(pngFile, png);

    const pages = (design.pages as Json[]).length;
    const screenshots: string[] = [];
    let theirs: string[][] = [];
    for (let p = 0; p < pages; p++) {
      const page = await polotnoHtml(design, dir, p);
      const html = join(work, `${name}.p${p}.html`);
      writeFileSync(html, page.html);
      if (p === 0) theirs = chromiumJson<string[][]>(html);
      const shot = join(work, `${name}.p${p}.chromium.png`);
      chromiumScreenshot(html, shot, page.width, page.height);
      screenshots.push(shot);
    }

    // (a) Line breaks: the same words on each line of every text element.
    const ours = await imprintLines(design, dir);
    expect(normal(ours), `${name}: lines of each text element, Imprint vs Chromium`).toEqual(normal(theirs));

    // (b) Pixels against Chromium.
    const tolerance = TOLERANCE[name]?.share ?? DEFAULT_TOLERANCE;
    const share = await envelopeMismatch(screenshots[0]!, png);
    if (share > tolerance) {
      const panel = await writePanel(name, screenshots[0]!, png);
      expect.fail(`${name}: ${(share * 100).toFixed(2)} % of pixels differ from Chromium (allowed ${(tolerance * 100).toFixed(2)} %): ${panel}`);
    }

    // (c) The pdf, rasterised by pdftoppm at 72 dpi (a Polotno pixel is a point at its default dpi 72, as
    // Polotno's toPDF makes it), against the png; further pages against Chromium.
    const pdf = (await engine.render({ design: asInput(design), format: 'pdf', baseDir: dir })).bytes;
    const pdfFile = join(work, `${name}.pdf`);
    writeFileSync(pdfFile, pdf);
    run('pdftoppm', ['-r', '72', '-png', pdfFile, join(work, `${name}.pdf`)]);
    const rasters = readdirSync(work)
      .filter((f) => f.startsWith(`${name}.pdf-`) && f.endsWith('.png'))
      .sort();
    expect(rasters, `${name}: one pdf page per Polotno page`).toHaveLength(pages);
    for (let p = 0; p < pages; p++) {
      const raster = join(work, rasters[p]!);
      const against = p === 0 ? png : screenshots[p]!;
      const allowed = p === 0 ? (PDF_TOLERANCE_FOR[name]?.share ?? PDF_TOLERANCE) : tolerance;
      const off = await envelopeMismatch(against, raster);
      if (off > allowed) {
        const panel = await writePanel(`${name}.pdf-p${p}`, against, raster);
        expect.fail(
          `${name}: pdf page ${p + 1} differs from ${p === 0 ? 'the png' : 'Chromium'} in ${(off * 100).toFixed(2)} % of pixels (allowed ${(allowed * 100).toFixed(2)} %): ${panel}`,
        );
      }
    }
  });
});
