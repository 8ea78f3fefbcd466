// svg objects and image clip_svg end to end: the display list as data (viewBox placement, groups,
// gradients in their own space, colour replacement, the clip path), bad input at its JSON path, the
// png against Chromium drawing the same files as <img>, and the pdf: vector paths (no image XObject),
// rendered back by poppler close to the png.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { Engine, type RenderOptions } from '../src/engine.js';
import { ImprintError } from '../src/errors.js';
import { layoutOf, designWith, objectGroup } from './support/scene.js';
import { parseSvg } from '../src/svg/parse.js';
import { svgRefKey } from '../src/scene/keys.js';
import type { DisplayItem } from '../src/scene/display-list.js';
import type { ImageSize } from '../src/layout/layout.js';
import { compareWithChromium } from './support/chromium.js';
import { run, toolsAvailable } from './support/tools.js';
import { REPO_ROOT } from './support/golden-compare.js';
import { frameAt } from './support/video-frames.js';

const engine = new Engine();
const tmp = mkdtempSync(join(tmpdir(), 'imprint-svg-'));
const ICONS = join(REPO_ROOT, 'golden/svg/icon-set');
for (const f of ['star.svg', 'badge.svg', 'arrows.svg']) copyFileSync(join(ICONS, f), join(tmp, f));

const SQUARE = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect x="1" y="1" width="8" height="8" fill="#ff0000"/></svg>`;
writeFileSync(join(tmp, 'square.svg'), SQUARE);
const sizes = (file: string, text: string): Map<string, { width: number; height: number; svg: ReturnType<typeof parseSvg> }> => {
  const svg = parseSvg(text);
  return new Map([[svgRefKey({ kind: 'path', path: file }), { width: svg.width, height: svg.height, svg }]]);
};
const svgObject = (extra: Record<string, unknown> = {}) => ({ type: 'svg', name: 'icon', x: 10, y: 20, width: 200, height: 100, path: 'square.svg', ...extra });
const leaves = (items: readonly DisplayItem[]): DisplayItem[] => items.flatMap((i) => (i.kind === 'group' ? leaves(i.items) : [i]));

describe('svg layout (display list as data)', () => {
  it('places the viewBox by preserveAspectRatio (contain, centred) and clips the object to its box', () => {
    const { displayList } = layoutOf(designWith([svgObject()]), {}, sizes('square.svg', SQUARE));
    const g = objectGroup(displayList, 0);
    expect(g.transform).toEqual([1, 0, 0, 1, 10, 20]);
    expect(g.clip).toEqual({ kind: 'rect', rect: { x: 0, y: 0, width: 200, height: 100 } });
    const view = g.items[0]!;
    expect(view.kind === 'group' && view.transform).toEqual([10, 0, 0, 10, 50, 0]);
    expect(leaves(g.items)).toEqual([{ kind: 'fill', geometry: { kind: 'path', d: 'M 1 1 L 9 1 L 9 9 L 1 9 Z' }, color: [255, 0, 0, 1] }]);
    expect(JSON.parse(JSON.stringify(displayList))).toEqual(displayList);
  });

  it.each([
    ['fill', [20, 0, 0, 10, 0, 0]],
    ['cover', [20, 0, 0, 20, 0, -50]],
    ['contain', [10, 0, 0, 10, 50, 0]],
  ] as const)('config.media_replacement_strategy %s', (fit, matrix) => {
    const { displayList } = layoutOf(designWith([svgObject({ config: { media_replacement_strategy: fit } })]), {}, sizes('square.svg', SQUARE));
    const view = objectGroup(displayList, 0).items[0]!;
    expect(view.kind === 'group' && view.transform).toEqual(matrix);
  });

  it('replaces colours by their #rrggbbaa form, and an override adds to the template colours key by key', () => {
    const text = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h5v5z" fill="red"/><path d="M0 0h5v5z" fill="#00f" stroke="rgb(0,128,0)"/></svg>`;
    const design = designWith([svgObject({ colors: { '#FF0000': '#111111', green: '#222222' } })]);
    const colours = (overrides: unknown) =>
      leaves(objectGroup(layoutOf(design, overrides, sizes('square.svg', text)).displayList, 0).items).map((i) => ('color' in i ? i.color : null));
    expect(colours({})).toEqual([
      [17, 17, 17, 1],
      [0, 0, 255, 1],
      [34, 34, 34, 1],
    ]);
    expect(colours({ icon: { colors: { blue: '#333333', 'rgb(255, 0, 0)': '#444444' } } })).toEqual([
      [68, 68, 68, 1],
      [51, 51, 51, 1],
      [34, 34, 34, 1],
    ]);
  });

  it('draws a gradient in its own space: a group with the gradient transform, the path carried into it', () => {
    const text = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><linearGradient id="g"><stop stop-color="#000"/><stop offset="1" stop-color="#fff"/></linearGradient><rect x="10" y="20" width="50" height="40" fill="url(#g)" fill-opacity="0.5" fill-rule="evenodd"/></svg>`;
    const { displayList } = layoutOf(designWith([svgObject({ width: 100, height: 100 })]), {}, sizes('square.svg', text));
    const view = objectGroup(displayList, 0).items[0]! as Extract<DisplayItem, { kind: 'group' }>;
    const inner = view.items[0]! as Extract<DisplayItem, { kind: 'group' }>;
    expect(inner.transform).toEqual([50, 0, 0, 40, 10, 20]);
    expect(inner.items[0]).toEqual({
      kind: 'gradient',
      geometry: { kind: 'path', d: 'M 0 0 L 1 0 L 1 1 L 0 1 Z' },
      gradient: {
        kind: 'linear',
        from: [0, 0],
        to: [1, 0],
        stops: [
          { offset: 0, color: [0, 0, 0, 0.5] },
          { offset: 1, color: [255, 255, 255, 0.5] },
        ],
      },
      evenOdd: true,
    });
  });

  it('strokes carry SVG caps, joins, miter limit and dashes', () => {
    const text = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h5v5" fill="none" stroke="#000" stroke-width="2" stroke-linecap="square" stroke-linejoin="bevel" stroke-dasharray="1,2,3" stroke-dashoffset="1"/></svg>`;
    const [stroke] = leaves(objectGroup(layoutOf(designWith([svgObject()]), {}, sizes('square.svg', text)).displayList, 0).items);
    expect(stroke).toEqual({
      kind: 'stroke',
      geometry: { kind: 'path', d: 'M 0 0 L 5 0 L 5 5' },
      color: [0, 0, 0, 1],
      width: 2,
      dash: [1, 2, 3, 1, 2, 3],
      join: 'bevel',
      cap: 'square',
      miterLimit: 4,
      dashOffset: 1,
    });
  });

  it('an image clip_svg clips the picture area with the union of the filled shapes, the viewBox stretched over it', () => {
    const blob = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="10"/><path d="M10 0 L5 10 L10 10 Z" transform="translate(0 0)"/><path d="M0 0h1" stroke="#000" fill="none"/></svg>`;
    const images = new Map<string, ImageSize>([['photo.png', { width: 400, height: 200 }], ...sizes('blob.svg', blob)]);
    const design = designWith([{ type: 'image', x: 0, y: 0, width: 200, height: 100, path: 'photo.png', clip_svg: 'blob.svg', mask: 'circle' }]);
    const g = objectGroup(layoutOf(design, {}, images).displayList, 0);
    expect(g.clip).toBeNull();
    const clipped = g.items[0] as Extract<DisplayItem, { kind: 'group' }>;
    // Both shapes wound the same way (the triangle was reversed), scaled 20 × 10; the stroke-only path is left out.
    expect(clipped.clip).toEqual({ kind: 'path', d: 'M 0 0 L 100 0 L 100 100 L 0 100 Z M 200 100 L 100 100 L 200 0 Z' });
    expect(clipped.clipEvenOdd).toBeUndefined();
  });
});

const render = (options: Omit<RenderOptions, 'baseDir'>) => engine.render({ baseDir: tmp, ...options });

async function refused(options: Omit<RenderOptions, 'baseDir'>): Promise<ImprintError> {
  try {
    await render(options);
  } catch (e) {
    if (e instanceof ImprintError) return e;
    throw e;
  }
  throw new Error('expected a validation_error');
}

describe('svg bad input', () => {
  writeFileSync(join(tmp, 'text.svg'), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n  <text x="1" y="5">Hi</text>\n</svg>`);
  writeFileSync(join(tmp, 'broken.svg'), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g></svg>`);
  writeFileSync(join(tmp, 'lines.svg'), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h5" stroke="#000" fill="none"/></svg>`);
  writeFileSync(join(tmp, 'huge.svg'), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><!--${'x'.repeat(2 * 1024 * 1024)}--></svg>`);

  it.each([
    [
      'an unsupported element',
      { path: 'text.svg' },
      '$.objects[0].path',
      /"text.svg" cannot be drawn: <text> at line 2, column 3: <text> is not supported .*supported are svg, g/,
    ],
    ['malformed XML', { path: 'broken.svg' }, '$.objects[0].path', /not well-formed XML: line 1, column 64: <\/svg> does not match the open <g>/],
    ['a missing file', { path: 'nope.svg' }, '$.objects[0].path', /no SVG file at "nope.svg"/],
    ['an http URL', { path: 'https://example.com/a.svg' }, '$.objects[0].path', /external image URLs are not allowed/],
    ['a file over 2 MB', { path: 'huge.svg' }, '$.objects[0].path', /at most 2 MB/],
    ['a colour key that is no colour', { colors: { blurple: '#000000' } }, '$.objects[0].colors.blurple', /expected the key "blurple" to be a colour/],
    ['a replacement that is not hex', { colors: { red: 'blue' } }, '$.objects[0].colors.red', /hex colour/],
    ['an unknown fit', { config: { media_replacement_strategy: 'zoom' } }, '$.objects[0].config.media_replacement_strategy', /cover/],
  ])('%s → validation_error at its path', async (_name, fields, path, message) => {
    const e = await refused({ format: 'png', design: designWith([svgObject(fields)]) });
    expect(e.code).toBe('validation_error');
    expect(e.path).toBe(path);
    expect(e.message).toMatch(message);
  });

  it('bad overrides point at the override', async () => {
    const e = await refused({ format: 'png', design: designWith([svgObject()]), overrides: { icon: { path: 'text.svg' } } });
    expect([e.code, e.path]).toEqual(['validation_error', '$.objects_overrides.icon.path']);
  });

  it('clip_svg: a file with no filled shapes, a missing file, a URL', async () => {
    writeFileSync(
      join(tmp, 'photo.png'),
      await sharp({ create: { width: 4, height: 4, channels: 3, background: '#888' } })
        .png()
        .toBuffer(),
    );
    const image = (clip: string) => designWith([{ type: 'image', x: 0, y: 0, width: 100, height: 100, path: 'photo.png', clip_svg: clip }]);
    let e = await refused({ format: 'png', design: image('lines.svg') });
    expect([e.path, e.message]).toEqual(['$.objects[0].clip_svg', expect.stringMatching(/cannot clip the picture: it has no filled shapes/)]);
    e = await refused({ format: 'png', design: image('gone.svg') });
    expect(e.path).toBe('$.objects[0].clip_svg');
    e = await refused({ format: 'png', design: image('http://x/y.svg') });
    expect([e.path, e.message]).toEqual(['$.objects[0].clip_svg', expect.stringMatching(/external image URLs/)]);
  });
});

/** The icon-set files at default fit (the file's preserveAspectRatio), rotated and faded as CSS does it. */
const ICON_BOXES = [
  { file: 'star.svg', x: 20, y: 20, w: 120, h: 120, rotation: 0, opacity: 1 },
  { file: 'badge.svg', x: 160, y: 20, w: 180, h: 120, rotation: 0, opacity: 1 },
  { file: 'arrows.svg', x: 360, y: 20, w: 100, h: 140, rotation: 0, opacity: 1 },
  { file: 'star.svg', x: 40, y: 170, w: 110, h: 110, rotation: 15, opacity: 1 },
  { file: 'badge.svg', x: 170, y: 180, w: 150, h: 100, rotation: 0, opacity: 0.6 },
  { file: 'arrows.svg', x: 350, y: 180, w: 120, h: 100, rotation: 0, opacity: 1 },
];
const iconDesign = () =>
  designWith(
    ICON_BOXES.map((b) => ({ type: 'svg', x: b.x, y: b.y, width: b.w, height: b.h, path: b.file, rotation: b.rotation, opacity: b.opacity })),
    { width: 480, height: 300, background: { type: 'color', color: '#ffffff' } },
  );

describe('svg pixels', () => {
  /**
   * Chromium draws the same files as <img> in boxes of the same size. Tolerance: 8 levels on all but
   * 0.6 % of the pixels (measured 0.36 %, every one on an anti-aliased curved edge: rounded corners,
   * circles, dots; Chromium draws arcs as conics, we as cubics, and its edge coverage differs a little).
   */
  it.skipIf(!toolsAvailable(['chromium'], 'comparing svg drawing with a browser needs chromium'))(
    'the png matches Chromium drawing the files as <img>',
    async () => {
      const ours = (await render({ format: 'png', design: iconDesign() })).bytes;
      const body = ICON_BOXES.map(
        (b) =>
          `<img src="${b.file}" style="position:absolute;left:${b.x}px;top:${b.y}px;width:${b.w}px;height:${b.h}px;transform:rotate(${b.rotation}deg);opacity:${b.opacity}">`,
      ).join('');
      const { off, share, worst, screenshot } = await compareWithChromium(ours, body, {
        width: 480,
        height: 300,
        background: '#fff',
        levels: 8,
        dir: tmp,
        name: 'icons',
      });
      writeFileSync(join(tmp, 'icons-ours.png'), ours);
      expect(
        share,
        `${off} pixels differ by more than 8 levels (worst ${worst}); Chromium: ${screenshot}, ours: ${join(tmp, 'icons-ours.png')}`,
      ).toBeLessThanOrEqual(0.006);
    },
    60_000,
  );

  it.skipIf(!toolsAvailable(['pdftoppm', 'qpdf'], 'reading pdfs back needs poppler and qpdf'))(
    'the pdf draws the svg as vector paths (no image XObject) and looks like the png',
    async () => {
      const pdf = (await render({ format: 'pdf', design: iconDesign() })).bytes;
      const file = join(tmp, 'icons-pdf.pdf');
      writeFileSync(file, pdf);
      const qdf = run('qpdf', ['--qdf', '--object-streams=disable', file, '-']);
      expect(qdf).not.toMatch(/\/Subtype \/Image/);
      // Paths: curves (c), fills of both rules (f, f*), strokes (S).
      expect(qdf).toMatch(/ c\n/);
      expect(qdf).toMatch(/\nf\*\n/);
      expect(qdf).toMatch(/\nS\n/);
      run('pdftoppm', ['-r', '96', '-png', '-singlefile', file, file.replace(/\.pdf$/, '')]);
      const rgb = async (png: Buffer | string) => (await sharp(png).removeAlpha().raw().toBuffer()) as Buffer;
      const [a, b] = await Promise.all([rgb(file.replace(/\.pdf$/, '.png')), rgb((await render({ format: 'png', design: iconDesign() })).bytes)]);
      let off = 0;
      for (let i = 0; i < a.length; i += 3) if (Math.max(...[0, 1, 2].map((c) => Math.abs(a[i + c]! - b[i + c]!))) > 24) off++;
      // Poppler anti-aliases edges its own way (measured 0.8 % of the pixels, all on edges); shapes and colours agree.
      expect(off / (a.length / 3)).toBeLessThan(0.012);
    },
  );
});

describe('svg in video', () => {
  it('an mp4 draws svg objects in its static layers and in animated frames like the stills', async () => {
    const design = {
      ...(iconDesign() as Record<string, unknown>),
      duration: 1,
      objects: [
        { type: 'svg', x: 20, y: 20, width: 180, height: 120, path: 'badge.svg' },
        { type: 'svg', x: 240, y: 60, width: 200, height: 200, path: 'star.svg', animations: [{ type: 'fade_in', duration: 0.5 }] },
      ],
    };
    const { bytes } = await render({ format: 'mp4', design } as Omit<RenderOptions, 'baseDir'>);
    const frame = await sharp(frameAt(bytes, join(tmp, 'svg.mp4'), 0.8))
      .removeAlpha()
      .raw()
      .toBuffer();
    const still = await sharp((await render({ format: 'png', design, time: 0.8 } as Omit<RenderOptions, 'baseDir'>)).bytes)
      .removeAlpha()
      .raw()
      .toBuffer();
    let sum = 0;
    for (let i = 0; i < still.length; i++) sum += Math.abs(still[i]! - frame[i]!);
    // H.264 (yuv420p) costs a few levels; a missing or misplaced drawing would cost tens.
    expect(sum / still.length).toBeLessThan(3);
  }, 60_000);
});
