// Drop shadows on shapes, images and text: the group's shadow data, override merging, the pixels in raster (a layer
// composited with a Skia shadow) and pdf (rasterised at 300 dpi under the vector shape, read back by
// poppler), and the same shadow as CSS box-shadow in Chromium.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { compareWithChromium } from './support/chromium.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';
import { run, toolsAvailable } from './support/tools.js';

const engine = new Engine();
const tmp = mkdtempSync(join(tmpdir(), 'imprint-shadow-'));

async function pixels(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
const grey = (img: { data: Buffer; width: number }, x: number, y: number): number => img.data[(y * img.width + x) * 3]!;

const card = (shadow: unknown, extra: Record<string, unknown> = {}) =>
  designWith([{ type: 'shape', name: 'card', x: 50, y: 50, width: 100, height: 60, background: { type: 'color', color: '#ffffff' }, shadow, ...extra }], {
    width: 200,
    height: 160,
    background: { type: 'color', color: '#808080' },
  });

describe('shadow data', () => {
  it('a shape with a shadow is a group with the shadow, defaults filled in; a clear shadow is left out', () => {
    expect(objectGroup(layoutOf(card({ blur: 8 })).displayList, 0).shadow).toEqual({ color: [0, 0, 0, 128 / 255], blur: 8, offset: [0, 0] });
    expect(objectGroup(layoutOf(card({ color: '#00000000', blur: 8 })).displayList, 0).shadow).toBeUndefined();
    expect(objectGroup(layoutOf(card(undefined)).displayList, 0).shadow).toBeUndefined();
  });

  it('an override merges into the template shadow field by field', () => {
    const g = objectGroup(layoutOf(card({ color: '#ff0000', blur: 8, offset_y: 4 }), { card: { shadow: { blur: 20 } } }).displayList, 0);
    expect(g.shadow).toEqual({ color: [255, 0, 0, 1], blur: 20, offset: [0, 4] });
    const added = objectGroup(layoutOf(card(undefined), { card: { shadow: { offset_x: 6 } } }).displayList, 0);
    expect(added.shadow).toEqual({ color: [0, 0, 0, 128 / 255], blur: 0, offset: [6, 0] });
  });
});

describe('shadow pixels', () => {
  const sharpShadow = { color: '#000000', offset_x: 10, offset_y: 20 };

  it('raster: a sharp shadow is the shape moved by the offset, under the shape; the offset does not turn with the shape', async () => {
    const img = await pixels((await engine.render({ format: 'png', design: card(sharpShadow) })).bytes);
    expect(grey(img, 100, 80)).toBe(255); // the card
    expect(grey(img, 155, 120)).toBe(0); // shadow only: right of and below the card
    expect(grey(img, 55, 120)).toBe(128); // left of the shadow's edge (x 60)
    expect(grey(img, 65, 120)).toBe(0);
    const turned = await pixels((await engine.render({ format: 'png', design: card(sharpShadow, { rotation: 180 }) })).bytes);
    expect(grey(turned, 155, 120)).toBe(0);
  });

  it('raster: opacity applies to shape and shadow together, so a see-through shape does not show its own shadow', async () => {
    const img = await pixels((await engine.render({ format: 'png', design: card(sharpShadow, { opacity: 0.5 }) })).bytes);
    // Over the overlap of card and shadow: only the half-transparent white card over the grey canvas.
    expect(Math.abs(grey(img, 100, 100) - Math.round((255 + 128) / 2))).toBeLessThanOrEqual(1);
    expect(Math.abs(grey(img, 155, 120) - 64)).toBeLessThanOrEqual(1);
  });

  it('raster: a shape off the page still casts its shadow onto it', async () => {
    const design = designWith(
      [{ type: 'shape', x: -120, y: 40, width: 100, height: 60, background: { type: 'color', color: '#ffffff' }, shadow: { color: '#000000', offset_x: 150 } }],
      { width: 200, height: 160, background: { type: 'color', color: '#808080' } },
    );
    const img = await pixels((await engine.render({ format: 'png', design })).bytes);
    // The shape spans x -120..-20; its shadow 30..130.
    expect(grey(img, 28, 70)).toBe(128);
    expect(grey(img, 32, 70)).toBe(0);
    expect(grey(img, 128, 70)).toBe(0);
    expect(grey(img, 132, 70)).toBe(128);
  });

  it('raster at scale 2: blur and offsets scale with the page', async () => {
    const img = await pixels((await engine.render({ format: 'png', scale: 2, design: card(sharpShadow) })).bytes);
    expect(img.width).toBe(400);
    expect(grey(img, 310, 240)).toBe(0);
    expect(grey(img, 110, 240)).toBe(128);
    expect(grey(img, 130, 240)).toBe(0);
  });

  it('same input, same bytes (png and pdf)', async () => {
    const design = card({ color: '#1e88e5aa', blur: 12, offset_x: 4, offset_y: 9 }, { rotation: 10, opacity: 0.8 });
    for (const format of ['png', 'pdf'] as const) {
      expect((await engine.render({ format, design })).bytes.equals((await engine.render({ format, design })).bytes)).toBe(true);
    }
  });

  it.skipIf(!toolsAvailable(['pdftoppm'], 'reading pdf shadows back needs poppler'))(
    'pdf: the shadow is an image under the vector shape, within a few levels of the png (blurred and sharp)',
    async () => {
      for (const shadow of [sharpShadow, { color: '#00000099', blur: 16, offset_y: 8 }]) {
        const design = card(shadow);
        const pdf = (await engine.render({ format: 'pdf', design })).bytes;
        expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBeGreaterThanOrEqual(1);
        const file = join(tmp, 'shadow.pdf');
        writeFileSync(file, pdf);
        run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, file.replace(/\.pdf$/, '')]);
        const fromPdf = await pixels(await sharp(file.replace(/\.pdf$/, '.png')).toBuffer());
        const fromPng = await pixels((await engine.render({ format: 'png', design })).bytes);
        let worst = 0;
        for (let y = 2; y < 158; y += 3) for (let x = 2; x < 198; x += 3) worst = Math.max(worst, Math.abs(grey(fromPdf, x, y) - grey(fromPng, x, y)));
        // Box edges land on different sub-pixels; inside the blur the two agree within a few levels.
        expect(worst, JSON.stringify(shadow)).toBeLessThanOrEqual(shadow === sharpShadow ? 128 : 8);
        if (shadow === sharpShadow) expect(grey(fromPdf, 155, 120)).toBeLessThanOrEqual(2);
      }
    },
  );
});

/**
 * Tolerance: every channel within 5 levels on 99.9 % of the pixels (Skia's and Chromium's blurs approximate
 * the same Gaussian a little differently; measured: at most 4 levels, 5 % of pixels more than 1 level off).
 */
describe.runIf(toolsAvailable(['chromium'], 'comparing shadows with Chromium needs it'))('shadows against CSS box-shadow in Chromium', () => {
  it('blur 0, 8, 24 and 40 with offsets match within 5 levels on 99.9 % of pixels', async () => {
    const shadows = [
      { color: '#000000', blur: 0, offset_x: 8, offset_y: 8 },
      { color: '#00000080', blur: 8, offset_x: 0, offset_y: 6 },
      { color: '#1e88e5cc', blur: 24, offset_x: -6, offset_y: 12 },
      { color: '#00000066', blur: 40, offset_x: 0, offset_y: 0 },
    ];
    const boxes = shadows.map((s, i) => ({ x: 40 + (i % 2) * 200, y: 40 + Math.floor(i / 2) * 160, w: 120, h: 80, s }));
    const width = 440;
    const height = 340;
    const objects = boxes.map((b) => ({
      type: 'shape',
      x: b.x,
      y: b.y,
      width: b.w,
      height: b.h,
      background: { type: 'color', color: '#ffffff' },
      shadow: b.s,
    }));
    const ours = (await engine.render({ format: 'png', design: designWith(objects, { width, height, background: { type: 'color', color: '#eceff1' } }) }))
      .bytes;
    const divs = boxes
      .map(
        (b) =>
          `<div style="position:absolute;left:${b.x}px;top:${b.y}px;width:${b.w}px;height:${b.h}px;background:#fff;box-shadow:${b.s.offset_x}px ${b.s.offset_y}px ${b.s.blur}px ${b.s.color}"></div>`,
      )
      .join('');
    const { off, share, worst, screenshot } = await compareWithChromium(ours, divs, {
      width,
      height,
      background: '#eceff1',
      levels: 5,
      dir: tmp,
      name: 'shadows',
    });
    expect(share, `${off} pixels differ by more than 5 levels (worst ${worst}); Chromium: ${screenshot}`).toBeLessThanOrEqual(0.001);
  }, 60_000);
});

// Images and text take the same field: the object's group (its clip included) casts the shadow.
describe('image and text shadows', () => {
  const photo = (shadow: unknown) =>
    designWith([{ type: 'image', name: 'photo', x: 20, y: 20, width: 80, height: 60, path: 'photo.png', corner_radius: 12, shadow }]);
  const sizes = new Map([['photo.png', { width: 400, height: 300, opaque: true }]]);
  const headline = (shadow: unknown, extra: Record<string, unknown> = {}) =>
    designWith([{ type: 'text', name: 'headline', x: 20, y: 30, width: 160, height: 60, font_size: 40, color: '#ffffff', text: 'Shadow', shadow, ...extra }], {
      width: 200,
      height: 120,
      background: { type: 'color', color: '#808080' },
    });

  it('an image or text with a shadow is a group with the shadow, defaults filled in; an override merges field by field', () => {
    expect(objectGroup(layoutOf(photo({ blur: 8, offset_y: 4 }), {}, sizes).displayList, 0).shadow).toEqual({
      color: [0, 0, 0, 128 / 255],
      blur: 8,
      offset: [0, 4],
    });
    expect(objectGroup(layoutOf(photo(undefined), {}, sizes).displayList, 0).shadow).toBeUndefined();
    expect(objectGroup(layoutOf(photo({ color: '#ff0000', blur: 8 }), { photo: { shadow: { blur: 2 } } }, sizes).displayList, 0).shadow).toEqual({
      color: [255, 0, 0, 1],
      blur: 2,
      offset: [0, 0],
    });
    expect(objectGroup(layoutOf(headline({ color: '#0000ff', offset_x: 3 }), { headline: { shadow: { offset_y: 5 } } }).displayList, 0).shadow).toEqual({
      color: [0, 0, 255, 1],
      blur: 0,
      offset: [3, 5],
    });
    expect(objectGroup(layoutOf(headline(undefined), { headline: { shadow: { offset_x: 6 } } }).displayList, 0).shadow).toEqual({
      color: [0, 0, 0, 128 / 255],
      blur: 0,
      offset: [6, 0],
    });
  });

  it('raster: the text shadow is the glyphs moved by the offset, under the white glyphs', async () => {
    const plain = await pixels((await engine.render({ format: 'png', design: headline(undefined) })).bytes);
    const img = await pixels((await engine.render({ format: 'png', design: headline({ color: '#000000', offset_x: 4, offset_y: 4 }) })).bytes);
    let white = 0;
    let shadowed = 0;
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) {
        if (grey(plain, x, y) === 255) white++;
        // Black shows only where the glyphs, 4 px up and left, are and the glyphs here are not.
        if (grey(img, x, y) === 0) {
          shadowed++;
          expect(grey(plain, x - 4, y - 4)).toBeGreaterThan(128);
        }
        if (grey(plain, x, y) === 255) expect(grey(img, x, y)).toBeGreaterThanOrEqual(250);
      }
    expect(white).toBeGreaterThan(200);
    expect(shadowed).toBeGreaterThan(50);
  });

  it.skipIf(!toolsAvailable(['pdftoppm', 'pdftotext'], 'reading pdf shadows back needs poppler'))(
    'pdf: the text shadow is a raster image under real text that still extracts, close to the png',
    async () => {
      const design = headline({ color: '#000000aa', blur: 6, offset_x: 3, offset_y: 4 });
      const pdf = (await engine.render({ format: 'pdf', design })).bytes;
      expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBeGreaterThanOrEqual(1);
      const file = join(tmp, 'text-shadow.pdf');
      writeFileSync(file, pdf);
      expect(run('pdftotext', ['-raw', file, '-']).trim()).toBe('Shadow');
      run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, file.replace(/\.pdf$/, '')]);
      const fromPdf = await pixels(await sharp(file.replace(/\.pdf$/, '.png')).toBuffer());
      const fromPng = await pixels((await engine.render({ format: 'png', design })).bytes);
      let off = 0;
      // Glyph edges anti-alias differently in poppler and Skia: compare the shadow, off the white glyphs.
      for (let y = 0; y < 120; y++)
        for (let x = 0; x < 200; x++) {
          if (grey(fromPdf, x, y) > 150 || grey(fromPng, x, y) > 150) continue;
          if (Math.abs(grey(fromPdf, x, y) - grey(fromPng, x, y)) > 12) off++;
        }
      // Measured: about 1 % of the pixels, all along glyph edges where the shadow shows through anti-aliasing.
      expect(off).toBeLessThan(200 * 120 * 0.02);
      // The shadow is there: dark below and right of the glyphs.
      let dark = 0;
      for (let i = 0; i < 200 * 120; i++) if (fromPdf.data[i * 3]! < 90) dark++;
      expect(dark).toBeGreaterThan(100);
    },
  );
});
