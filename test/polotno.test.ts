// The Polotno importer (issue 18, items 1 and 4): each element and field converted to the Imprint
// object that draws it (as data), the same pixels as the equivalent native design, overrides by
// element name, several pages as pdf pages and slides, the CLI (render --input-format, import
// polotno round trip) and every bad input refused at its Polotno JSON path with nothing rendered.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ffprobe from '@ffprobe-installer/ffprobe';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertPolotno, isPolotnoDocument } from '../src/design/polotno/convert.js';
import { cssColorToHex } from '../src/design/polotno/css-color.js';
import { parseLinearGradient } from '../src/design/polotno/css-gradient.js';
import { parseRichText } from '../src/design/polotno/rich-text.js';
import { render, type DesignInput } from '../src/engine.js';
import type { ObjectsOverrides, PolotnoDocument } from '../src/index.js';
import { ImprintError } from '../src/errors.js';
import { expectRefused } from './support/refusal.js';
import { builtBin, describeBuilt } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const EXAMPLE = join(ROOT, 'examples', 'polotno-card');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd: ROOT }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

type Json = Record<string, unknown>;
const page = (children: Json[], extra: Json = {}): PolotnoDocument =>
  ({ width: 400, height: 300, schemaVersion: 4, pages: [{ id: 'p', children, ...extra }] }) as PolotnoDocument;
const objectsOf = (doc: unknown): Json[] => convertPolotno(doc).design.objects as Json[];
const one = (element: Json): Json => objectsOf(page([element]))[0]!;
const PNG_1PX = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let polotno: PolotnoDocument;
beforeAll(async () => {
  polotno = JSON.parse(await readFile(join(EXAMPLE, 'polotno.json'), 'utf8')) as PolotnoDocument;
});

describe('detection', () => {
  it('tells a Polotno document from an Imprint design by its shape', () => {
    expect(isPolotnoDocument(polotno)).toBe(true);
    expect(isPolotnoDocument({ width: 10, height: 10, objects: [] })).toBe(false);
    expect(isPolotnoDocument({ width: 10, height: 10, slides: [] })).toBe(false);
    expect(isPolotnoDocument({ pages: 'x' })).toBe(false);
    expect(isPolotnoDocument(null)).toBe(false);
  });
});

describe('elements as Imprint objects', () => {
  it('moves a rotated element so it turns around its top-left corner as in Polotno', () => {
    const o = one({ type: 'figure', x: 100, y: 50, width: 200, height: 100, rotation: 90 });
    // Turned 90° about (100, 50), the box's centre lands at (50, 150); Imprint turns around the centre.
    expect(o).toMatchObject({ x: -50, y: 100, width: 200, height: 100, rotation: 90 });
  });

  it('maps text fields: font, weight, style, colour, alignment, spacing, transform, stroke, sizing', () => {
    const o = one({
      type: 'text',
      name: 'headline',
      x: 10,
      y: 20,
      width: 300,
      height: 80,
      text: 'Hello',
      fontFamily: 'Lora',
      fontSize: 40,
      fontWeight: 'bold',
      fontStyle: 'italic',
      fill: 'rgba(255, 0, 0, 0.5)',
      align: 'right',
      verticalAlign: 'bottom',
      lineHeight: '150%',
      letterSpacing: 0.1,
      textTransform: 'uppercase',
      stroke: 'navy',
      strokeWidth: 3,
    });
    expect(o).toEqual({
      type: 'text',
      name: 'headline',
      x: 10,
      y: 20,
      width: 300,
      height: 80,
      text: 'Hello',
      font_family: 'Lora',
      font_size: 40,
      font_weight: 700,
      font_style: 'italic',
      color: '#ff000080',
      text_align: 'right',
      line_height: 1.5,
      letter_spacing: 0.1,
      text_transform: 'uppercase',
      overflow_wrap: 'normal',
      keep_trailing_spaces: true,
      stroke: { color: '#000080', width: 3 },
      config: { text_replacement_strategy: 'fit', text_replacement_strategy_fit_valign: 'bottom', text_replacement_strategy_fit_step: 0.5 },
      min_font_size: 1,
    });
  });

  it('grows a top-aligned text with its content (the editor default) and keeps an unmeasured height', () => {
    const o = one({ type: 'text', text: 'x', fontFamily: 'Inter', fontSize: 20, height: 0 });
    expect(o.config).toEqual({ text_replacement_strategy: 'fixed-width' });
    expect(o.height).toBe(24);
    expect(o.text_align).toBe('center');
  });

  it('migrates letter spacing stored in rem before schema version 1', () => {
    const doc = { ...page([{ type: 'text', text: 'x', fontFamily: 'Inter', fontSize: 32, letterSpacing: 1 }]), schemaVersion: 0 };
    expect(objectsOf(doc)[0]!.letter_spacing).toBe(0.5);
  });

  it('turns rich text into substyles, flattening nested tags', () => {
    const o = one({
      type: 'text',
      fontFamily: 'Inter',
      fill: 'black',
      text: '<p>Hello <strong>bold <span style="color: red;">red</span></strong> <u>u</u> <em>i</em></p><p><br></p><p>end &amp; more</p>',
    });
    expect(o.text).toBe(
      'Hello <substyle bold="700">bold </substyle><substyle bold="700" color="#ff0000">red</substyle> <substyle underline>u</substyle> <substyle italic>i</substyle>\n\nend & more',
    );
  });

  it("makes the element's decoration the text object's own, so an override of the text keeps it", () => {
    const o = one({ type: 'text', fontFamily: 'Inter', text: 'a <b>b</b> <u>c</u> <s>d</s>', textDecoration: 'underline' });
    expect(o).toMatchObject({ underline: true, text: 'a <substyle bold="700">b</substyle> c <substyle strikethrough>d</substyle>' });
    expect(one({ type: 'text', fontFamily: 'Inter', text: 'x', textDecoration: 'underline line-through' })).toMatchObject({
      underline: true,
      strikethrough: true,
    });
  });

  it('maps images: src, crop anchored at its top-left corner, corner radius, stretch', () => {
    const o = one({ type: 'image', src: 'photos/a.jpg', width: 200, height: 100, cropX: 0.1, cropY: 0.2, cropWidth: 0.5, cropHeight: 0.6, cornerRadius: 500 });
    expect(o).toMatchObject({
      path: 'photos/a.jpg',
      crop: { x: 0.1, y: 0.2, width: 0.5, height: 0.6 },
      config: { media_replacement_strategy: 'cover', focal_point: { x: 0.1, y: 0.2 } },
      corner_radius: 50,
    });
    expect(one({ type: 'image', src: 'a.jpg', stretchEnabled: true }).config).toEqual({ media_replacement_strategy: 'fill' });
  });

  it('stores a data: URL as a file the design refers to', () => {
    const c = convertPolotno(page([{ type: 'image', src: PNG_1PX }]));
    const path = (c.design.objects as Json[])[0]!.path as string;
    expect(path).toMatch(/^embedded\/[0-9a-f]{24}\.png$/);
    expect(c.files.get(path)!.subarray(1, 4).toString()).toBe('PNG');
  });

  it('maps figures: rect, rounded rect, circle, fill colour or gradient, the stroke inside as a border', () => {
    expect(one({ type: 'figure', subType: 'rect', fill: 'teal' })).toMatchObject({ shape: 'rect', background: { type: 'color', color: '#008080' } });
    expect(one({ type: 'figure', cornerRadius: 12, strokeWidth: 4, stroke: '#fff', dash: [3, 2] })).toMatchObject({
      shape: 'rounded_rect',
      corner_radius: 12,
      border: { width: 4, color: '#ffffff', dash: [3, 2] },
    });
    expect(one({ type: 'figure', subType: 'circle', fill: 'linear-gradient(90deg, red, blue 80%)' })).toMatchObject({
      shape: 'ellipse',
      background: {
        type: 'linear_gradient',
        angle: 90,
        stops: [
          { offset: 0, color: '#ff0000' },
          { offset: 0.8, color: '#0000ff' },
        ],
      },
    });
  });

  it('maps shadows with their opacity, offsets in page directions (canvas shadows ignore rotation), blur in CSS pixels', () => {
    const o = one({
      type: 'figure',
      rotation: 90,
      shadowEnabled: true,
      shadowBlur: 10,
      shadowOffsetX: 5,
      shadowOffsetY: 0,
      shadowColor: 'black',
      shadowOpacity: 0.5,
    });
    expect(o.shadow).toEqual({ color: '#00000080', blur: 10, offset_x: 5, offset_y: 0 });
    expect(one({ type: 'text', fontFamily: 'Inter', blurEnabled: true, blurRadius: 8 }).blur).toBe(4);
  });

  it('keeps hidden elements (an override can show them), drops those not shown in exports, puts alwaysOnTop last', () => {
    const objects = objectsOf(
      page([
        { type: 'figure', name: 'top', alwaysOnTop: true },
        { type: 'figure', name: 'hidden', visible: false },
        { type: 'figure', name: 'editor-only', showInExport: false },
        { type: 'figure', name: 'plain' },
      ]),
    );
    expect(objects.map((o) => o.name)).toEqual(['hidden', 'plain', 'top']);
    expect(objects[0]!.hidden).toBe(true);
  });

  it("maps figures with straight sides to polygons of Polotno's outline, lines and svg elements", () => {
    expect(one({ type: 'figure', subType: 'rightTriangle' })).toMatchObject({
      shape: 'polygon',
      vertices: [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
    });
    const star = one({ type: 'figure', subType: 'star' }).vertices as number[][];
    expect(star).toHaveLength(10);
    expect(star[0]).toEqual([0.5, 0]);
    expect(star[1]![0]).toBeCloseTo(0.5 + 0.25 * Math.sin(Math.PI / 5), 6);
    expect(one({ type: 'line', x: 10, y: 20, width: 300, height: 6, color: 'red', dash: [2, 1], startHead: 'circle', endHead: 'arrow' })).toEqual({
      type: 'line',
      x: 10,
      y: 20,
      width: 300,
      height: 6,
      color: '#ff0000',
      dash: [2, 1],
      start_head: 'circle',
      end_head: 'arrow',
    });
    expect(one({ type: 'svg', src: 'icons/star.svg', colorsReplace: { '#000': 'rgb(255, 0, 0)' } })).toMatchObject({
      type: 'svg',
      path: 'icons/star.svg',
      config: { media_replacement_strategy: 'fill' },
      colors: { '#000': '#ff0000' },
    });
    expect(one({ type: 'figure', strokeWidth: 2, dash: [2, 2] }).border).toMatchObject({ width: 2, dash: [2, 2] });
    expect(one({ type: 'text', fontFamily: 'Inter', text: 'x' }).overflow_wrap).toBe('normal');
  });

  it('flattens groups (children hold page coordinates), multiplying their opacity into each element as Konva does', () => {
    const objects = objectsOf(
      page([
        {
          type: 'group',
          children: [
            { type: 'figure', name: 'a', x: 5 },
            {
              type: 'group',
              opacity: 0.5,
              children: [
                { type: 'figure', name: 'b', x: 7, opacity: 0.5 },
                { type: 'figure', name: 'c' },
              ],
            },
          ],
        },
      ]),
    );
    expect(objects).toMatchObject([
      { name: 'a', x: 5 },
      { name: 'b', x: 7, opacity: 0.25 },
      { name: 'c', opacity: 0.5 },
    ]);
  });

  it('maps animations: fade and zoom presets, move as keyframes 200 px away, loops over the page', () => {
    const o = one({
      type: 'figure',
      x: 100,
      y: 100,
      animations: [
        { type: 'enter', name: 'move', duration: 1000, delay: 500, data: { direction: 'up', strength: 0.5 } },
        { type: 'exit', name: 'fade', duration: 1000 },
        { type: 'enter', name: 'zoom', duration: 500, enabled: false },
        { type: 'loop', name: 'rotate', duration: 2500 },
      ],
    });
    expect(o.animations).toEqual([
      {
        type: 'keyframes',
        property: 'y',
        easing: 'ease-out',
        keyframes: [
          { time: 0.5, value: 200 },
          { time: 1.5, value: 100 },
        ],
      },
      { type: 'fade_out', duration: 1, easing: 'linear' },
      {
        type: 'keyframes',
        property: 'rotation',
        easing: 'linear',
        keyframes: [
          { time: 0, value: 0 },
          { time: 5, value: 720 },
        ],
      },
    ]);
  });

  it('shows an element with an enter and an exit at rest in a still (the merged keyframes rest between them)', async () => {
    const doc = page([
      {
        type: 'figure',
        name: 'box',
        x: 300,
        y: 100,
        width: 50,
        height: 50,
        animations: [
          { type: 'enter', name: 'move', duration: 1000, data: { direction: 'right' } },
          { type: 'exit', name: 'move', duration: 1000, delay: 500, data: { direction: 'right' } },
        ],
      },
    ]);
    const x = (objectsOf(doc)[0]!.animations as { keyframes: { time: number; value: number }[] }[])[0]!.keyframes;
    expect(x).toEqual([
      { time: 0, value: 100 },
      { time: 1, value: 300 },
      { time: 3.5, value: 300 },
      { time: 4.5, value: 500 },
    ]);
    const { stillTime } = await import('../src/layout/timeline.js');
    const { resolveScene } = await import('../src/resolve/resolve.js');
    const { parseDesign } = await import('../src/design/parse.js');
    expect(stillTime(resolveScene(parseDesign(convertPolotno(doc).design), {}))).toBe(1);
  });

  it('takes hostile markup, data: URLs and gradients in linear time', () => {
    const text = { type: 'text', fontFamily: 'Inter' };
    expect(one({ ...text, text: `<b>x</b><p${' '.repeat(50_000)}` }).text).toContain('x');
    expect(() => one({ type: 'image', src: `data:${';'.repeat(5000)}` })).toThrow(/not a valid data: URL/);
    expect(one({ type: 'image', src: `data:image/png${';a'.repeat(5000)};base64,iVBORw0KGgo=` }).path).toMatch(/^embedded\/.*\.png$/);
    expect(() => one({ type: 'figure', fill: `linear-gradient(red, red ${'1'.repeat(1900)})` })).toThrow(ImprintError);
  });

  it('makes several pages slides with their durations, and a single page an animated design of its duration only when something moves', () => {
    const doc = { width: 400, height: 300, pages: [{ duration: 2000, background: 'red', children: [] }, { children: [{ type: 'figure', name: 'f' }] }] };
    const d = convertPolotno(doc).design;
    expect(d.slides).toEqual([
      { duration: 2, background: { type: 'color', color: '#ff0000' }, objects: [] },
      { duration: 5, background: { type: 'color', color: '#ffffff' }, objects: [expect.objectContaining({ name: 'f' })] },
    ]);
    // Polotno writes duration 5000 on every page: a page where nothing moves is a still design.
    const still = convertPolotno(page([{ type: 'figure', name: 'f' }], { duration: 5000 })).design;
    expect(still).not.toHaveProperty('duration');
    expect(convertPolotno(polotno).design).not.toHaveProperty('duration');
    const fade = { type: 'figure', name: 'f', animations: [{ type: 'enter', name: 'fade', duration: 500 }] };
    expect(convertPolotno(page([fade], { duration: 3000 })).design).toMatchObject({ duration: 3 });
    expect(convertPolotno(page([{ type: 'group', children: [fade] }])).design).toMatchObject({ duration: 5 });
  });

  it('lists font files of fonts[] and the families texts use', () => {
    const doc = {
      ...page([
        { type: 'text', fontFamily: 'Brand', text: 'x' },
        { type: 'text', fontFamily: 'Inter', text: '<span style="font-family: Lora">y</span>' },
      ]),
      fonts: [
        { fontFamily: 'Brand', url: 'fonts/Brand.woff2' },
        { fontFamily: 'Multi', styles: [{ src: 'url("fonts/M-Bold.ttf")', fontWeight: 'bold', fontStyle: 'normal' }] },
      ],
    };
    expect(convertPolotno(doc).design.fonts).toEqual([
      { family: 'Brand', path: 'fonts/Brand.woff2' },
      { family: 'Multi', path: 'fonts/M-Bold.ttf', weight: 700, style: 'normal' },
      'Inter',
      'Lora',
    ]);
    // A family the engine has needs no file: its URL is never fetched.
    const known = { ...page([{ type: 'text', fontFamily: 'Inter' }]), fonts: [{ fontFamily: 'Inter', url: 'https://fonts.example/inter.woff2' }] };
    expect(convertPolotno(known, { hasFamily: (f) => f === 'Inter' }).design.fonts).toEqual(['Inter']);
  });
});

describe('CSS values', () => {
  it('reads colours as CSS does', () => {
    expect(cssColorToHex('rgb(0, 161, 255)')).toBe('#00a1ff');
    expect(cssColorToHex('rgba(98,197,255,1)')).toBe('#62c5ff');
    expect(cssColorToHex('rgb(0 0 0 / 50%)')).toBe('#00000080');
    expect(cssColorToHex('hsl(120, 100%, 25%)')).toBe('#008000');
    expect(cssColorToHex('#ABC')).toBe('#aabbcc');
    expect(cssColorToHex('#11223380')).toBe('#11223380');
    expect(cssColorToHex('transparent')).toBe('#00000000');
    expect(cssColorToHex('RebeccaPurple')).toBe('#663399');
    expect(cssColorToHex('notacolour')).toBeUndefined();
    expect(cssColorToHex('rgb(1, 2)')).toBeUndefined();
  });

  it('reads linear gradients: angles, sides, corners of the box, spread positions', () => {
    expect(parseLinearGradient('linear-gradient(to right, red, lime, blue)', 100, 100)).toEqual({
      type: 'linear_gradient',
      angle: 90,
      stops: [
        { offset: 0, color: '#ff0000' },
        { offset: 0.5, color: '#00ff00' },
        { offset: 1, color: '#0000ff' },
      ],
    });
    expect(parseLinearGradient('linear-gradient(to top right, red, blue)', 100, 100).angle).toBeCloseTo(45);
    expect(parseLinearGradient('linear-gradient(0.25turn, rgba(0,0,0,0.5) 10%, white)', 10, 10)).toMatchObject({
      angle: 90,
      stops: [{ offset: 0.1 }, { offset: 1 }],
    });
    expect(() => parseLinearGradient('radial-gradient(red, blue)', 1, 1)).toThrow(/only linear-gradient/);
  });

  it('reads rich text line structure as a browser shows it', () => {
    expect(
      parseRichText('<p>a</p><p>b</p>')
        .map((r) => r.text)
        .join(''),
    ).toBe('a\nb');
    expect(
      parseRichText('a<br>b<br><br>')
        .map((r) => r.text)
        .join(''),
    ).toBe('a\nb\n\n');
    expect(
      parseRichText('<div>x<script>alert(1)</script></div>')
        .map((r) => r.text)
        .join(''),
    ).toBe('x');
  });
});

describe('rendering', () => {
  it('renders the Polotno card like the native card-1080 (the same design in Imprint format)', async () => {
    const [fromPolotno, native] = await Promise.all([
      render({ design: polotno, format: 'png', baseDir: EXAMPLE }),
      render({ design: await readFile(join(ROOT, 'examples/card-1080/design.json'), 'utf8'), format: 'png', baseDir: join(ROOT, 'examples/card-1080') }),
    ]);
    const [a, b] = await Promise.all([fromPolotno.bytes, native.bytes].map((p) => sharp(p).raw().toBuffer()));
    let differing = 0;
    for (let i = 0; i < a!.length; i += 3) if (Math.max(...[0, 1, 2].map((k) => Math.abs(a![i + k]! - b![i + k]!))) > 8) differing++;
    // The photo's crop is given in rounded fractions: a few of its pixels resample differently; the text is identical.
    expect(differing / (a!.length / 3)).toBeLessThan(0.001);
    expect(fromPolotno.report.map((r) => r.name)).toEqual(native.report.map((r) => r.name));
  });

  it('overrides elements by name and says which names exist', async () => {
    const overrides = JSON.parse(await readFile(join(EXAMPLE, 'overrides.json'), 'utf8')) as { objects_overrides: ObjectsOverrides };
    const [plain, changed] = await Promise.all([
      render({ design: polotno, format: 'png', baseDir: EXAMPLE }),
      render({ design: polotno, overrides: overrides.objects_overrides, format: 'png', baseDir: EXAMPLE }),
    ]);
    // Fitted, the body's box takes its text's height (Polotno's change-font-size), as it does with
    // the override, which switches it to fixed-width.
    expect(plain.report.find((r) => r.name === 'body')).toMatchObject({ height: 2 * 25 * 1.45, line_count: 2 });
    expect(changed.report.find((r) => r.name === 'body')).toMatchObject({ height: 2 * 25 * 1.45, font_size: 25 });
    expect(changed.bytes.equals(plain.bytes)).toBe(false);
    await expect(render({ design: polotno, overrides: { nope: { text: 'x' } }, format: 'png', baseDir: EXAMPLE })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects_overrides.nope',
    });
  });

  it('renders several pages as the pages of one pdf, and as slides of an mp4', async () => {
    const doc = {
      width: 320,
      height: 240,
      pages: [
        {
          background: '#ffeecc',
          duration: 1000,
          children: [{ type: 'text', name: 'one', x: 20, y: 20, width: 280, text: 'Page one', fontFamily: 'Inter', fontSize: 40 }],
        },
        {
          background: '#ccddff',
          duration: 1000,
          children: [{ type: 'text', name: 'two', x: 20, y: 20, width: 280, text: 'Page two', fontFamily: 'Inter', fontSize: 40 }],
        },
      ],
    };
    const pdf = await render({ design: doc, format: 'pdf' });
    const dir = await mkdtemp(join(tmpdir(), 'imprint-polotno-'));
    await writeFile(join(dir, 'doc.pdf'), pdf.bytes);
    const text = await promisify(execFile)('pdftotext', ['-layout', join(dir, 'doc.pdf'), '-']);
    expect(
      text.stdout
        .split('\f')
        .map((p) => p.trim())
        .filter(Boolean),
    ).toEqual(['Page one', 'Page two']);
    const mp4 = await render({ design: doc, format: 'mp4' });
    await writeFile(join(dir, 'doc.mp4'), mp4.bytes);
    const probe = await promisify(execFile)(ffprobe.path, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', join(dir, 'doc.mp4')]);
    expect(Number(probe.stdout)).toBeCloseTo(2, 1);
  });

  it('takes inputFormat: polotno refuses an Imprint design, imprint refuses a Polotno one', async () => {
    await expect(render({ design: { width: 10, height: 10, objects: [] }, format: 'png', inputFormat: 'polotno' })).rejects.toMatchObject({ path: '$.pages' });
    await expect(render({ design: { width: 400, height: 300, pages: [{ children: [] }] }, format: 'png', inputFormat: 'imprint' })).rejects.toMatchObject({
      path: '$.pages',
      message: expect.stringContaining('unknown field "pages"') as unknown,
    });
  });
});

describe('bad input: refused at its Polotno JSON path, nothing rendered', () => {
  const text = { type: 'text', text: 'x', fontFamily: 'Inter' };
  const rows: { name: string; design: Json; path: string; message: string }[] = [
    {
      name: 'an unsupported element type',
      design: page([{ type: 'table' }]),
      path: '$.pages[0].children[0].type',
      message: 'table elements are not supported',
    },
    { name: 'an unknown element type', design: page([{ type: 'sticker' }]), path: '$.pages[0].children[0].type', message: 'unknown element type "sticker"' },
    {
      name: 'an unknown field',
      design: page([{ ...text, fontSzie: 20 }]),
      path: '$.pages[0].children[0].fontSzie',
      message: 'unknown field "fontSzie" on a text element',
    },
    {
      name: 'a remote URL in src',
      design: page([{ type: 'image', src: 'https://example.com/a.jpg' }]),
      path: '$.pages[0].children[0].src',
      message: 'remote URLs are not fetched',
    },
    { name: 'a page without children', design: { width: 100, height: 100, pages: [{ id: 'p' }] }, path: '$.pages[0].children', message: 'expected an array' },
    { name: 'no pages', design: { width: 100, height: 100, pages: [] }, path: '$.pages', message: 'expected at least one page' },
    { name: 'a width of 0', design: page([{ type: 'figure', width: 0 }]), path: '$.pages[0].children[0].width', message: 'greater than 0' },
    {
      name: 'a NaN height',
      design: page([{ type: 'figure', height: Number.NaN }]),
      path: '$.pages[0].children[0].height',
      message: 'expected a finite number',
    },
    { name: 'a page size of 0', design: { width: 0, height: 100, pages: [{ children: [] }] }, path: '$.width', message: 'greater than 0' },
    {
      name: 'a colour that is not CSS',
      design: page([{ type: 'figure', fill: 'blurple' }]),
      path: '$.pages[0].children[0].fill',
      message: 'expected a CSS colour',
    },
    {
      name: 'an unknown figure',
      design: page([{ type: 'figure', subType: 'squiggle' }]),
      path: '$.pages[0].children[0].subType',
      message: 'the figure "squiggle" is not one of Polotno\'s figures',
    },
    {
      name: 'a filter with no exact equivalent',
      design: page([{ type: 'image', src: PNG_1PX, filters: { warm: { intensity: 1 } } }]),
      path: '$.pages[0].children[0].filters.warm',
      message: 'no exact equivalent',
    },
    {
      name: 'an unsupported animation',
      design: page([{ type: 'figure', animations: [{ type: 'enter', name: 'bounce' }] }]),
      path: '$.pages[0].children[0].animations[0].name',
      message: '"bounce" is not supported',
    },
    {
      name: 'a font family that is not available',
      design: page([{ type: 'text', text: 'x', fontFamily: 'Brand Sans' }]),
      path: '$.pages[0].children[0].fontFamily',
      message: 'font family "Brand Sans" is not available',
    },
    {
      name: 'a Google Fonts family that is not installed',
      design: page([{ type: 'text', text: 'x', fontFamily: 'Montserrat' }]),
      path: '$.pages[0].children[0].fontFamily',
      message: 'font family "Montserrat" is a Google Fonts family that is not installed: install it with npx imprint fonts install "Montserrat"',
    },
    {
      name: 'a missing image file',
      design: page([{ type: 'image', src: 'nope.png' }]),
      path: '$.pages[0].children[0].src',
      message: 'no image file at "nope.png"',
    },
    {
      name: 'pages of different sizes',
      design: { width: 100, height: 100, pages: [{ children: [] }, { width: 200, children: [] }] },
      path: '$.pages[1].width',
      message: 'every page must have the size',
    },
    {
      name: 'a rotated text without its measured height',
      design: page([{ type: 'text', fontFamily: 'Inter', text: 'x', rotation: 30, height: 0 }]),
      path: '$.pages[0].children[0].height',
      message: 'a rotated text needs the height',
    },
    {
      name: 'an audio track cut before its end',
      design: { ...page([]), audios: [{ src: 'a.mp3', duration: 10_000, endTime: 0.5 }] },
      path: '$.audios[0].endTime',
      message: 'an audio endTime before the end',
    },
    {
      name: 'lists in rich text',
      design: page([{ ...text, text: '<ul><li>a</li></ul>' }]),
      path: '$.pages[0].children[0].text',
      message: 'lists (<ul>, <ol>)',
    },
    {
      name: 'a zoom on a group of several',
      design: page([{ type: 'group', animations: [{ type: 'enter', name: 'zoom' }], children: [{ type: 'figure' }, { type: 'figure' }] }]),
      path: '$.pages[0].children[0].animations',
      message: 'zoom and rotate animations of a group',
    },
    {
      name: 'a crop on an svg',
      design: page([{ type: 'svg', src: 'a.svg', cropX: 0.2 }]),
      path: '$.pages[0].children[0].cropX',
      message: 'cropX is not supported on svg',
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      await expectRefused({ design: row.design as DesignInput, format: 'png', baseDir: EXAMPLE }, row);
    });
  }

  it('points an error found after conversion at the element and names the Imprint field', async () => {
    const e = await render({ design: page([{ ...text, fontSize: 5000 }]), format: 'png' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ImprintError);
    expect((e as ImprintError).path).toBe('$.pages[0].children[0].fontSize');
    expect((e as ImprintError).message).toContain('converted from this Polotno document, at $.objects[0].font_size');
  });
});

describeBuilt('CLI', () => {
  it('renders a Polotno file, and import polotno writes a folder that renders to the same bytes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'imprint-polotno-cli-'));
    const direct = await run(['render', 'examples/polotno-card/polotno.json', '--input-format', 'polotno', '--out', join(dir, 'direct.png')]);
    expect(direct.code, direct.stderr).toBe(0);
    const imported = await run(['import', 'polotno', 'examples/polotno-card/polotno.json', '--out', join(dir, 'design')]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ design: join(dir, 'design', 'design.json'), files: 1 });
    expect((await readdir(join(dir, 'design'))).sort()).toEqual(['design.json', 'lake-sunset.jpg']);
    const again = await run(['render', join(dir, 'design', 'design.json'), '--out', join(dir, 'again.png')]);
    expect(again.code, again.stderr).toBe(0);
    expect((await readFile(join(dir, 'again.png'))).equals(await readFile(join(dir, 'direct.png')))).toBe(true);
  });

  it('writes nothing for a bad file, and refuses a bad --input-format', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'imprint-polotno-cli-'));
    await writeFile(join(dir, 'bad.json'), JSON.stringify(page([{ type: 'image', src: 'missing.png' }])));
    const r = await run(['import', 'polotno', join(dir, 'bad.json'), '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^validation_error at \$\.pages\[0\]\.children\[0\]\.src: no image file at "missing\.png"/);
    await expect(readdir(join(dir, 'out'))).rejects.toThrow(/ENOENT/);
    const f = await run(['render', 'examples/polotno-card/polotno.json', '--input-format', 'figma', '--out', join(dir, 'x.png')]);
    expect(f.code).toBe(2);
    expect(f.stderr).toContain('expected --input-format auto, imprint or polotno');
  });
});
