// Stills of animated designs show the settled opening (or the design's poster_time), not a blank t=0;
// webp and avif are encoded with their quality options; a design without a background stays transparent
// in png, webp and avif and turns white in jpg and pdf.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../src/design/parse.js';
import { render, type DesignInput } from '../src/engine.js';
import { absentTexts, stillTime } from '../src/layout/timeline.js';
import { resolveScene } from '../src/resolve/resolve.js';
import { expectRefused } from './support/refusal.js';
import { run, toolsAvailable } from './support/tools.js';

const example = async (name: string) => ({
  design: JSON.parse(await readFile(`examples/${name}/design.json`, 'utf8')) as DesignInput,
  baseDir: `examples/${name}`,
});
const sceneOf = (design: DesignInput) => resolveScene(parseDesign(design));

/** Mean luminance of a region of an image, 0-255. */
async function meanLuma(bytes: Buffer, region: { left: number; top: number; width: number; height: number }): Promise<number> {
  const { data } = await sharp(bytes).extract(region).removeAlpha().greyscale().raw().toBuffer({ resolveWithObject: true });
  return data.reduce((sum, v) => sum + v, 0) / data.length;
}

describe('stills of animated designs', () => {
  it('default to the end of the opening entrances: promo-15s at 3.2 s, slides-video on its first slide at 1.2 s', async () => {
    // promo-15s: the last opening entrance is the footer (starts 2.4 s, fades 0.8 s); the fade to black
    // at 14 s and the slow zoom on the photo are not part of the opening.
    expect(stillTime(sceneOf((await example('promo-15s')).design))).toBeCloseTo(3.2, 6);
    // slides-video: the first slide's subtitle ends its fade at 1.2 s; the next slide comes in at 2.4 s.
    expect(stillTime(sceneOf((await example('slides-video')).design))).toBeCloseTo(1.2, 6);
  });

  it('name in the fit report the texts not on screen at their time, with the second each appears (slides-video)', async () => {
    const { design, baseDir } = await example('slides-video');
    const still = await render({ design, baseDir, format: 'png', scale: 0.1 });
    // At 1.2 s the first slide is complete: its texts are laid out, the later slides' are named as hidden.
    expect(still.report.find((e) => e.name === 'intro_title')).not.toHaveProperty('hidden');
    expect(still.report.find((e) => e.name === 'fjords_title')).toMatchObject({
      hidden: true,
      appears_at: 2.6,
      hidden_reason: 'fjords_title is hidden at 1.2 s (it appears at 2.6 s)',
    });
    const atStart = absentTexts(sceneOf(design), 0);
    expect(atStart.find((e) => e.name === 'intro_title')).toMatchObject({
      appears_at: 0.2,
      hidden_reason: 'intro_title is hidden at 0 s (it appears at 0.2 s)',
    });
    expect(atStart.every((e) => e.hidden === true && e.line_count === 0)).toBe(true);
  });

  it('name a hidden text of a slide video once in its pdf, on the page of its own slide', async () => {
    const { design, baseDir } = await example('slides-video');
    const pdf = await render({ design, baseDir, format: 'pdf', overrides: { fjords_title: { hidden: true } } });
    const hidden = pdf.report.filter((e) => e.name === 'fjords_title');
    const fjords = (design as { slides: { objects: { name?: string }[] }[] }).slides.findIndex((s) => s.objects.some((o) => o.name === 'fjords_title'));
    expect(fjords).toBeGreaterThan(0);
    expect(hidden).toEqual([expect.objectContaining({ hidden: true, page: fjords, hidden_reason: expect.stringMatching(/"hidden" is true/) })]);
  });

  it('show the text that t = 0 hides: the png headline area and the pdf text', async () => {
    const promo = await example('promo-15s');
    const still = await render({ ...promo, format: 'png' });
    const atZero = await render({ ...promo, format: 'png', time: 0 });
    const explicit = await render({ ...promo, format: 'png', time: 3.2 });
    expect(still.bytes.equals(explicit.bytes)).toBe(true);
    // The headline sits on the cream panel: dark glyphs lower the panel's mean luminance.
    const headline = { left: 70, top: 730, width: 700, height: 110 };
    expect(await meanLuma(atZero.bytes, headline)).toBeGreaterThan(235);
    expect(await meanLuma(still.bytes, headline)).toBeLessThan(215);
    // The report measures the text shown: every text object has its size.
    expect(still.report.find((r) => r.name === 'headline')?.line_count).toBe(2);
  });

  it.runIf(toolsAvailable(['pdftotext'], 'the pdf text check needs poppler'))('give a pdf with searchable text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imprint-still-'));
    for (const name of ['promo-15s', 'slides-video']) {
      const { bytes } = await render({ ...(await example(name)), format: 'pdf' });
      writeFileSync(join(dir, `${name}.pdf`), bytes);
    }
    expect(run('pdftotext', [join(dir, 'promo-15s.pdf'), '-']).replace(/\s+/g, ' ')).toContain('Chase the golden hour across the fjords');
    expect(run('pdftotext', [join(dir, 'slides-video.pdf'), '-'])).toContain('Nordic Trails 2027');
  });

  it('use the design poster_time when it has one, for stills and for the mp4 poster', async () => {
    const promo = await example('promo-15s');
    const design = { ...(promo.design as object), poster_time: 0 } as DesignInput;
    const blank = await render({ ...promo, design, format: 'png' });
    const atZero = await render({ ...promo, format: 'png', time: 0 });
    expect(blank.bytes.equals(atZero.bytes)).toBe(true);
  });

  it('refuse a time past the end and a poster_time outside the video, with the path', async () => {
    const promo = await example('promo-15s');
    await expectRefused({ ...promo, format: 'png', time: 16 }, { path: '$.time', message: 'the design lasts 15 s: give a time from 0 to 15' });
    await expectRefused(
      { ...promo, design: { ...(promo.design as object), poster_time: 20 } as DesignInput, format: 'png' },
      {
        path: '$.poster_time',
        message: 'poster_time is 20 s but the design lasts 15 s: give a second from 0 to 15',
      },
    );
    const still: DesignInput = { width: 10, height: 10, poster_time: 1, objects: [] };
    await expectRefused({ design: still, format: 'png' }, { path: '$.poster_time', message: 'poster_time picks a moment of an animated design' });
  });

  it('refuse an mp4 of a still design, and a video over the limit with how to raise it', async () => {
    await expectRefused(
      { design: { width: 10, height: 10, objects: [] }, format: 'mp4' },
      { path: '$.duration', message: 'an mp4 needs an animated design: add "duration"' },
    );
    await expectRefused(
      { design: { width: 16, height: 16, duration: 20, objects: [] }, format: 'mp4' },
      {
        path: '$.duration',
        message: 'the video lasts 20 s: at most 15 s are allowed; raise the limit with the maxDuration option (CLI: --max-duration <s>)',
      },
    );
  });
});

describe('webp, avif and transparency', () => {
  const square: DesignInput = {
    width: 120,
    height: 80,
    objects: [{ type: 'shape', x: 20, y: 20, width: 40, height: 40, background: { type: 'color', color: '#e53935' } }],
  };

  it.each([
    ['png', 'png', true],
    ['webp', 'webp', true],
    ['avif', 'heif', true],
    ['jpg', 'jpeg', false],
  ] as const)('%s: a design without a background is %s with alpha = %s', async (format, decoded, alpha) => {
    const r = await render({ design: square, format });
    const meta = await sharp(r.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual([decoded, 120, 80, alpha]);
    const { data } = await sharp(r.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const corner = [...data.subarray(0, 4)];
    // Transparent where nothing is painted; jpg has no alpha and shows white there.
    expect(corner).toEqual(alpha ? [0, 0, 0, 0] : [255, 255, 255, 255]);
    const centre = (40 * 120 + 40) * 4;
    expect(data[centre + 3]).toBe(255);
    expect(Math.abs(data[centre]! - 0xe5)).toBeLessThanOrEqual(format === 'png' ? 0 : 12);
  });

  it('keep a background colour opaque', async () => {
    const r = await render({ design: { ...square, background: { type: 'color', color: '#ffffff' } }, format: 'png' });
    expect((await sharp(r.bytes).metadata()).hasAlpha).toBe(false);
  });

  it('encode at the quality asked, lossless webp exactly, and the same bytes every time', async () => {
    const { design, baseDir } = await example('card-1080');
    const size = async (o: object) => (await render({ design, baseDir, format: 'webp', ...o })).bytes.length;
    expect(await size({ webp: { quality: 95 } })).toBeGreaterThan((await size({ webp: { quality: 30 } })) * 2);
    const avif = async (quality: number) => (await render({ design, baseDir, format: 'avif', avif: { quality } })).bytes;
    const [low, high] = [await avif(20), await avif(80)];
    expect(high.length).toBeGreaterThan(low.length * 2);
    expect((await avif(20)).equals(low)).toBe(true);
    const png = await render({ design, baseDir, format: 'png' });
    const lossless = await render({ design, baseDir, format: 'webp', webp: { lossless: true } });
    const a = await sharp(png.bytes).raw().toBuffer();
    const b = await sharp(lossless.bytes).raw().toBuffer();
    expect(b.equals(a)).toBe(true);
  });

  it('refuse quality values out of range with the path', async () => {
    await expectRefused(
      { design: square, format: 'webp', webp: { quality: 0 } },
      { path: '$.webp.quality', message: 'expected at least 1 but received the number 0' },
    );
    await expectRefused(
      { design: square, format: 'avif', avif: { quality: 101 } },
      { path: '$.avif.quality', message: 'expected at most 100 but received the number 101' },
    );
  });
});
