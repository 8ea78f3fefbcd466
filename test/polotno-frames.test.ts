// Polotno frames and decorated drawings (issue 28): svg elements with maskSrc (a picture seen
// through the svg's shape), borderSize / borderColor / cornerRadius on svg elements, and every figure
// subType Polotno has, curved ones included, converted as data and drawn (pixels); bad input refused
// at its Polotno JSON path with how to fix it. The pictures themselves are golden/polotno/*.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertPolotno } from '../src/design/polotno/convert.js';
import { POLOTNO_FIGURES } from '../src/design/polotno/elements/figure.js';
import { POLOTNO_DRAWN_FIGURES } from '../src/design/polotno/figures.js';
import { fileAssetResolver } from '../src/assets/resolver.js';
import { render, type DesignInput } from '../src/engine.js';
import { designAssetRefs } from '../src/service/design-assets.js';
import type { PolotnoDocument } from '../src/index.js';
import { TEST_CARDS } from './support/golden-cases.js';
import { expectRefused } from './support/refusal.js';

type Json = Record<string, unknown>;
const page = (children: Json[]): PolotnoDocument =>
  ({ width: 200, height: 200, schemaVersion: 4, pages: [{ id: 'p', background: 'white', children }] }) as PolotnoDocument;
const one = (element: Json): Json => (convertPolotno(page([element])).design.objects as Json[])[0]!;

/** The figure subTypes of @polotno/core 0.1.0's figure-to-svg TYPES (polotno 4.4.0), in its order. */
const POLOTNO_SUBTYPES = [
  'rect', 'circle', 'star', 'triangle', 'rightTriangle', 'diamond', 'pentagon', 'hexagon', 'speechBubble', 'cross', 'arc', 'cloud',
  'rightArrow', 'leftArrow', 'downArrow', 'upArrow', 'asterisk1', 'asterisk2', 'bookmark', 'butterfly', 'cylinder', 'diamond2', 'door',
  'drop1', 'drop2', 'explosion', 'flag', 'flower', 'frame', 'heart1', 'home', 'home2', 'hourglass', 'house', 'keyhole', 'kiss', 'leaf',
  'lightning1', 'lightning2', 'magnet', 'mithosis', 'orangeRicky', 'party', 'pillow', 'polygon', 'rainbow', 'rhodeIsland', 'shell',
  'shield1', 'shield2', 'skewedRectangle', 'softFlower', 'softStar', 'stairs1', 'stairs2', 'teewee', 'blob1', 'blob10', 'blob11',
  'blob12', 'blob13', 'blob14', 'blob15', 'blob16', 'blob17', 'blob18', 'blob19', 'blob2', 'blob20', 'blob21', 'blob22', 'blob23',
  'blob24', 'blob25', 'blob26', 'blob27', 'blob28', 'blob29', 'blob3', 'blob30', 'blob31', 'blob32', 'blob4', 'blob5', 'blob6',
  'blob7', 'blob8', 'blob9',
]; // prettier-ignore

const SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
const DISC = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#123"/></svg>';
const RED = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#f00"/></svg>';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'imprint-polotno-frames-'));
  await writeFile(join(dir, 'square.svg'), SQUARE);
  await writeFile(join(dir, 'disc.svg'), DISC);
  await writeFile(join(dir, 'red.svg'), RED);
  await writeFile(
    join(dir, 'ring.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="none" stroke="#000"/></svg>',
  );
  await writeFile(
    join(dir, 'faint.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill-opacity="0.5"/></svg>',
  );
  await writeFile(join(dir, 'notes.txt'), 'not a picture');
  // A picture in one colour, so what shows through a frame is known: solid blue.
  await sharp({ create: { width: 40, height: 20, channels: 3, background: '#0000ff' } })
    .png()
    .toFile(join(dir, 'blue.png'));
});

async function pixels(design: PolotnoDocument): Promise<(x: number, y: number) => number[]> {
  const { bytes } = await render({ design, format: 'png', assets: fileAssetResolver({ baseDir: dir, assets: { photo: TEST_CARDS.photo } }) });
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return (x, y) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
}

describe('frames: an svg with maskSrc shows the picture through its shape', () => {
  it('converts to an svg object whose fill_image is the picture, stretched to the box (Polotno stretches a frame)', () => {
    expect(one({ type: 'svg', src: 'disc.svg', maskSrc: 'blue.png', x: 10, y: 20, width: 100, height: 60 })).toEqual({
      type: 'svg',
      x: 10,
      y: 20,
      width: 100,
      height: 60,
      path: 'disc.svg',
      config: { media_replacement_strategy: 'fill' },
      fill_image: 'blue.png',
    });
    // A frame's picture may come embedded, as Polotno's editor saves an uploaded photo.
    const embedded = convertPolotno(page([{ type: 'svg', src: 'disc.svg', maskSrc: `data:image/png;base64,${Buffer.from('x').toString('base64')}` }]));
    expect((embedded.design.objects as Json[])[0]!.fill_image).toMatch(/^embedded\/[0-9a-f]{24}\.png$/);
  });

  it("stores the frame's picture with the design (import and design zips carry it)", () => {
    const refs = designAssetRefs(convertPolotno(page([{ type: 'svg', src: 'disc.svg', maskSrc: 'photos/p.jpg' }])).design).map((r) => r.path);
    expect(refs.sort()).toEqual(['disc.svg', 'photos/p.jpg']);
  });

  it("draws the picture inside the shape and the page outside it, whatever the drawing's own colours", async () => {
    const at = await pixels(page([{ type: 'svg', src: 'disc.svg', maskSrc: 'blue.png', x: 0, y: 0, width: 200, height: 100 }]));
    expect(at(100, 50)).toEqual([0, 0, 255]); // the middle of the (stretched) disc: the picture, not #112233
    expect(at(3, 3)).toEqual([255, 255, 255]); // the box's corner, outside the ellipse: the page
    expect(at(100, 150)).toEqual([255, 255, 255]); // below the box
  });

  it('a frame of strokes and see-through paint shows the picture as much as the drawing paints (its alpha)', async () => {
    // ring.svg: a circle stroke (no fill) of width 1 on r = 4, in a 10-unit view box stretched to 200 px.
    const ring = await pixels(page([{ type: 'svg', src: 'ring.svg', maskSrc: 'blue.png', x: 0, y: 0, width: 200, height: 200 }]));
    expect(ring(100, 20)).toEqual([0, 0, 255]); // on the stroke
    expect(ring(100, 100)).toEqual([255, 255, 255]); // inside the ring: nothing painted there
    const faint = await pixels(page([{ type: 'svg', src: 'faint.svg', maskSrc: 'blue.png', x: 0, y: 0, width: 200, height: 200 }]));
    const [r, g, b] = faint(100, 100);
    // Half the picture over the white page.
    expect([Math.abs(r! - 128) <= 2, Math.abs(g! - 128) <= 2, b]).toEqual([true, true, 255]);
  });

  it('the picture covers the box, centred: a 2:1 picture in a square frame shows its middle', async () => {
    // The photo card is 3:2; in a square box cover keeps its middle 2/3 across.
    const framed = await pixels(page([{ type: 'svg', src: 'square.svg', maskSrc: 'asset:photo', x: 0, y: 0, width: 200, height: 200 }]));
    const image = await pixels(page([{ type: 'image', src: 'asset:photo', x: 0, y: 0, width: 200, height: 200, cropX: 1 / 6, cropWidth: 2 / 3 }]));
    for (const [x, y] of [
      [20, 20],
      [100, 100],
      [180, 150],
    ] as const) {
      expect(
        framed(x, y)
          .map((v, i) => Math.abs(v - image(x, y)[i]!))
          .every((d) => d <= 2),
        `(${x}, ${y})`,
      ).toBe(true);
    }
  });
});

describe('svg elements: borderSize, borderColor and cornerRadius as Polotno draws them', () => {
  it('converts them to the svg object fields', () => {
    expect(one({ type: 'svg', src: 'red.svg', cornerRadius: 12, borderSize: 4, borderColor: 'rgb(0, 0, 255)' })).toMatchObject({
      corner_radius: 12,
      border: { width: 4, color: '#0000ff' },
    });
    expect(one({ type: 'svg', src: 'red.svg', borderSize: 0, cornerRadius: 0 })).not.toHaveProperty('border');
  });

  it('rounds the clip of the drawing, and strokes the border inside the box, its corners rounded by cornerRadius − borderSize', async () => {
    const at = await pixels(
      page([{ type: 'svg', src: 'red.svg', x: 0, y: 0, width: 200, height: 200, cornerRadius: 60, borderSize: 10, borderColor: '#0000ff' }]),
    );
    expect(at(100, 100)).toEqual([255, 0, 0]); // the drawing
    expect(at(100, 4)).toEqual([0, 0, 255]); // the border along the top edge, 10 px wide
    expect(at(100, 14)).toEqual([255, 0, 0]);
    expect(at(2, 2)).toEqual([255, 255, 255]); // the corner: outside the rounded clip and the border
    // On the diagonal, the border's centre line has radius 50 at inset 5: it crosses (5 + 50(1 − 1/√2)) ≈ 19.6.
    expect(at(20, 20)).toEqual([0, 0, 255]);
    // The clip's radius is 60: at (14, 14) there is no drawing, and the border's outer edge (radius 55) is further in.
    expect(at(12, 12)).toEqual([255, 255, 255]);
  });

  it('a see-through svg with a border: the border and the drawing each take the opacity (the drawing shows through the border)', async () => {
    const at = await pixels(page([{ type: 'svg', src: 'red.svg', x: 0, y: 0, width: 200, height: 200, borderSize: 20, borderColor: '#0000ff', opacity: 0.5 }]));
    // Blue at half over (red at half over white) = (255·0.25 + …): red shows through.
    const [r, g, b] = at(10, 100);
    expect(r).toBeGreaterThan(50);
    expect(b).toBeGreaterThan(150);
    expect(g).toBeLessThan(140);
  });

  it('overrides restyle the border and the corner radius of an svg object', async () => {
    const design = {
      width: 100,
      height: 100,
      background: { type: 'color', color: '#ffffff' },
      objects: [{ type: 'svg', name: 'badge', x: 0, y: 0, width: 100, height: 100, path: 'red.svg' }],
    };
    const { bytes } = await render({
      design: design as DesignInput,
      overrides: { badge: { border: { width: 10, color: '#00ff00' }, corner_radius: 50 } },
      format: 'png',
      baseDir: dir,
    });
    const { data } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray((50 * 100 + 2) * 3, (50 * 100 + 2) * 3 + 3)]).toEqual([0, 255, 0]);
    expect([...data.subarray(0, 3)]).toEqual([255, 255, 255]); // the corner is clipped away
  });
});

describe("figures: every subType Polotno has is drawn, or refused where its outline is Polotno's licensed drawing", () => {
  it('knows every figure of Polotno, and only those', () => {
    expect([...POLOTNO_FIGURES, ...POLOTNO_DRAWN_FIGURES].sort()).toEqual([...POLOTNO_SUBTYPES].sort());
  });

  it("draws the speech bubble in the element's own pixels (radius 10 % of the shorter side)", () => {
    expect(one({ type: 'figure', subType: 'speechBubble', width: 200, height: 100 })).toMatchObject({
      shape: 'path',
      view_box: [0, 0, 200, 100],
      path_data: expect.stringMatching(/^M 10,0 H 190 A 10,10 0 0 1 200,10 V 70/) as unknown,
    });
  });

  it('renders every figure subType whose outline Imprint has', async () => {
    const children = POLOTNO_FIGURES.map((subType, i) => ({ type: 'figure', subType, x: (i % 10) * 20, y: Math.floor(i / 10) * 20, width: 18, height: 18 }));
    const { bytes } = await render({ design: page(children), format: 'png' });
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it.each(['heart1', 'cloud', 'blob7', 'arc'])("refuses %s, a drawing of Polotno's licensed SDK, and says what to use instead", async (subType) => {
    const e = await render({ design: page([{ type: 'figure', subType, width: 50, height: 50 }]), format: 'png' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'validation_error', path: '$.pages[0].children[0].subType' });
    expect((e as Error).message).toMatch(/commercially licensed SDK.*replace it with an svg element/);
  });
});

describe('maskSrc on an image element', () => {
  it('is ignored, as Polotno ignores it there: the image draws whole', async () => {
    const plain = await render({ design: page([{ type: 'image', src: 'blue.png', width: 100, height: 50 }]), format: 'png', baseDir: dir });
    const masked = await render({
      design: page([{ type: 'image', src: 'blue.png', width: 100, height: 50, maskSrc: 'disc.svg' }]),
      format: 'png',
      baseDir: dir,
    });
    expect(masked.bytes.equals(plain.bytes)).toBe(true);
  });
});

describe('bad input: refused at the Polotno path, with how to fix it', () => {
  const rows: { name: string; design: Json; path: string; message: string }[] = [
    {
      name: "a frame's picture that is missing",
      design: page([{ type: 'svg', src: 'disc.svg', maskSrc: 'photos/missing.jpg' }]),
      path: '$.pages[0].children[0].maskSrc',
      message: 'photos/missing.jpg',
    },
    {
      name: "a frame's picture that is not an image",
      design: page([{ type: 'svg', src: 'disc.svg', maskSrc: 'notes.txt' }]),
      path: '$.pages[0].children[0].maskSrc',
      message: '"notes.txt" is not a readable image',
    },
    {
      name: "a frame's picture that is a remote URL",
      design: page([{ type: 'svg', src: 'disc.svg', maskSrc: 'https://example.com/p.jpg' }]),
      path: '$.pages[0].children[0].maskSrc',
      message: 'remote URLs are not fetched',
    },
    {
      name: 'a frame that is not a drawing',
      design: page([{ type: 'svg', src: 'blue.png', maskSrc: 'blue.png' }]),
      path: '$.pages[0].children[0].src',
      message: '"blue.png" is a PNG image, not an SVG drawing: use an .svg file here',
    },
    {
      name: 'a frame that keeps its aspect (stretchEnabled false)',
      design: page([{ type: 'svg', src: 'disc.svg', maskSrc: 'blue.png', stretchEnabled: false }]),
      path: '$.pages[0].children[0].stretchEnabled',
      message: 'set stretchEnabled to true',
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      await expectRefused({ design: row.design as DesignInput, format: 'png', baseDir: dir }, row);
    });
  }
});

describe('SVG <mask> in a clip (clipSrc), a frame and an svg element', () => {
  const HOLE =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><mask id="m" maskUnits="userSpaceOnUse" x="0" y="0" width="100" height="100"><rect width="100" height="100" fill="white"/><rect x="25" y="25" width="50" height="50" fill="black"/></mask><rect width="100" height="100" mask="url(#m)"/></svg>';
  const HALF =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><mask id="m"><rect width="100" height="100" fill="#808080"/></mask><rect width="100" height="100" fill="#f00" mask="url(#m)"/></svg>';
  const ALPHA =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><mask id="m" mask-type="alpha"><rect width="50" height="100" fill="#000"/></mask><rect width="100" height="100" fill="#f00" mask="url(#m)"/></svg>';
  beforeAll(async () => {
    await writeFile(join(dir, 'hole.svg'), HOLE);
    await writeFile(join(dir, 'half.svg'), HALF);
    await writeFile(join(dir, 'alpha.svg'), ALPHA);
  });

  it('a luminance mask cuts a hole in a clipSrc: the picture around it, the page through it', async () => {
    const at = await pixels(page([{ type: 'image', src: 'blue.png', clipSrc: 'hole.svg', x: 0, y: 0, width: 200, height: 200, stretchEnabled: true }]));
    expect(at(20, 20)).toEqual([0, 0, 255]);
    expect(at(100, 100)).toEqual([255, 255, 255]);
  });

  it('a grey luminance mask keeps half (sRGB luminance of #808080), and an alpha mask keeps by alpha whatever its colour', async () => {
    const half = await pixels(page([{ type: 'svg', src: 'half.svg', x: 0, y: 0, width: 200, height: 200 }]));
    const [, g] = half(100, 100);
    // White under red at 128/255: green and blue = 255 − 128·(255/255)… about 127.
    expect(Math.abs(g! - 127)).toBeLessThanOrEqual(2);
    const alpha = await pixels(page([{ type: 'svg', src: 'alpha.svg', x: 0, y: 0, width: 200, height: 200 }]));
    expect(alpha(50, 100)).toEqual([255, 0, 0]); // under the black (opaque) half of the mask
    expect(alpha(150, 100)).toEqual([255, 255, 255]);
  });

  it('pdf draws masks as soft masks over vector content: luminance and alpha', async () => {
    const { bytes } = await render({
      design: page([
        { type: 'svg', src: 'half.svg', x: 0, y: 0, width: 100, height: 100 },
        { type: 'svg', src: 'alpha.svg', x: 100, y: 0, width: 100, height: 100 },
      ]),
      format: 'pdf',
      baseDir: dir,
    });
    const text = Buffer.from(bytes).toString('latin1');
    expect(text).toMatch(/\/S \/Luminosity/);
    expect(text).toMatch(/\/S \/Alpha/);
    expect(text).not.toMatch(/\/Subtype \/Image/);
  });

  it('the mask region is the element box grown by 10 % (objectBoundingBox) unless given: outside it nothing shows', async () => {
    await writeFile(
      join(dir, 'region.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><mask id="m" x="0" y="0" width="0.5" height="1"><rect width="100" height="100" fill="white"/></mask><rect width="100" height="100" fill="#f00" mask="url(#m)"/></svg>',
    );
    const at = await pixels(page([{ type: 'svg', src: 'region.svg', x: 0, y: 0, width: 200, height: 200 }]));
    expect(at(50, 100)).toEqual([255, 0, 0]);
    expect(at(150, 100)).toEqual([255, 255, 255]);
  });

  it('a mask that names something else, or nothing, is refused at src with the element and line', async () => {
    await writeFile(
      join(dir, 'bad-mask.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n<rect width="10" height="10" mask="url(#nope)"/></svg>',
    );
    await expectRefused(
      { design: page([{ type: 'svg', src: 'bad-mask.svg' }]), format: 'png', baseDir: dir },
      { path: '$.pages[0].children[0].src', message: '<rect> at line 2, column 1: mask="url(#nope)" names no element: no id="nope" in the file' },
    );
  });
});

describe('native path shapes', () => {
  const shape = (extra: Json): DesignInput => ({
    width: 100,
    height: 100,
    objects: [{ type: 'shape', x: 0, y: 0, width: 100, height: 100, shape: 'path', ...extra }],
  });
  it('refuses a path shape without path data, and broken path data, at path_data', async () => {
    await expectRefused({ design: shape({}), format: 'png' }, { path: '$.objects[0].path_data', message: 'shape "path" needs its outline: give path_data' });
    await expectRefused({ design: shape({ path_data: 'M0 0 L' }), format: 'png' }, { path: '$.objects[0].path_data', message: 'give SVG path data' });
  });

  it('stretches the view box to the box (default: the path bounds) and fills the outline', async () => {
    const { bytes } = await render({ design: shape({ path_data: 'M10 10H20V20H10Z', background: { type: 'color', color: '#ff0000' } }), format: 'png' });
    const { data } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray((2 * 100 + 2) * 3, (2 * 100 + 2) * 3 + 3)]).toEqual([255, 0, 0]);
    expect([...data.subarray((97 * 100 + 97) * 3, (97 * 100 + 97) * 3 + 3)]).toEqual([255, 0, 0]);
  });
});
