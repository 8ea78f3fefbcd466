// Bad input for charts and mockups, table-driven: every row must be refused with a validation_error
// (HTTP 400) that names the exact JSON path of the offending value (template or objects_overrides)
// and says how to fix it. A second block checks that the valid chart + mockup design still renders
// and that none of the input handed to render() was changed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileAssetResolver } from '../src/assets/resolver.js';
import { render, type RenderOptions } from '../src/engine.js';
import { ImprintError } from '../src/errors.js';
import { expectRefused, PNG_SIGNATURE } from './support/refusal.js';

// ── fixtures ────────────────────────────────────────────────────────────────────────────────────

/**
 * Design folder: base.png (the phone, 100×200), screen.png, shot.png, glare.png, mask.png (valid
 * images) and garbage.png (not an image).
 */
const dir = mkdtempSync(join(tmpdir(), 'imprint-bad-chart-mockup-'));

beforeAll(async () => {
  const png = (width: number, height: number, background: string): Promise<Buffer> =>
    sharp({ create: { width, height, channels: 4, background } })
      .png()
      .toBuffer();
  writeFileSync(join(dir, 'base.png'), await png(100, 200, '#263238'));
  writeFileSync(join(dir, 'screen.png'), await png(40, 80, '#43a047'));
  writeFileSync(join(dir, 'shot.png'), await png(30, 60, '#1e88e5'));
  writeFileSync(join(dir, 'glare.png'), await png(20, 20, '#ffffff80'));
  writeFileSync(join(dir, 'mask.png'), await png(100, 200, '#00000080'));
  writeFileSync(join(dir, 'garbage.png'), Buffer.from('this is not an image, just some garbage bytes \x00\x01\x02\xff'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Json = any;

/**
 * A small valid design: objects[0] chart "sales", objects[1] mockup "phone" with layers
 * [0] image "screen" (area), [1] color "case" (quad), [2] artwork "glare" (area), [3] color "tint" (mask).
 */
function base(): Json {
  return {
    schema: 'imprint/design@1',
    width: 400,
    height: 240,
    background: { type: 'color', color: '#fafafa' },
    fonts: ['Inter'],
    objects: [
      {
        type: 'chart',
        name: 'sales',
        x: 10,
        y: 10,
        width: 260,
        height: 200,
        chart_type: 'column',
        chart_data: [
          [null, 'Q1', 'Q2', 'Q3', 'Q4'],
          ['2025', 120, 180, 150, 90],
          ['2026', 140, 210, null, 130],
        ],
        colors: ['#2f6fed', '#e4572e'],
        font_family: 'Inter',
        font_size: 10,
        title: 'Sales by quarter',
        legend: 'bottom',
        number_format: { prefix: '$', decimals: 0 },
      },
      {
        type: 'mockup',
        name: 'phone',
        x: 290,
        y: 10,
        width: 100,
        height: 200,
        base: 'base.png',
        layers: [
          { id: 'screen', kind: 'image', area: { x: 10, y: 20, width: 80, height: 160 }, path: 'screen.png', fit: 'cover' },
          {
            id: 'case',
            kind: 'color',
            quad: [
              [0, 0],
              [100, 0],
              [100, 20],
              [0, 20],
            ],
            color: '#e4572e',
            blend: 'multiply',
          },
          { id: 'glare', kind: 'artwork', area: { x: 10, y: 20, width: 80, height: 80 }, path: 'glare.png', blend: 'screen', opacity: 0.5 },
          { id: 'tint', kind: 'color', area: { x: 0, y: 0, width: 100, height: 200 }, color: '#17bebb', mask: 'mask.png', opacity: 0.3 },
        ],
      },
    ],
  };
}

/** A copy of the base design changed by `f`. */
function edit(f: (d: Json) => void): Json {
  const d = base();
  f(d);
  return d;
}

/** Shorthands for the base objects and mockup layers. */
const C = (d: Json): Json => d.objects[0];
const M = (d: Json): Json => d.objects[1];
const L = (d: Json, i: number): Json => d.objects[1].layers[i];

/** A header row with `n` column titles. */
const header = (n: number): (string | null)[] => [null, ...Array.from({ length: n }, (_, j) => `C${j + 1}`)];
/** A series row with `n` numbers. */
const series = (title: string, n: number): (string | number)[] => [title, ...Array.from({ length: n }, (_, j) => j + 1)];

interface Row {
  name: string;
  /** Default: base(). */
  design?: unknown;
  overrides?: unknown;
  /** Merged over `{ format: 'png', baseDir: dir }`. */
  options?: Record<string, unknown>;
  /** Expected JSON path, exactly. */
  path: string;
  /** Expected fragment of the message. */
  message: string;
}

const O = '$.objects_overrides';
const CD = `${O}.sales.chart_data`;
const MD = `${O}.phone.mockup_data`;
const CT = '$.objects[0]';
const LT = '$.objects[1].layers';

/** chart_data override rows: the override entry for "sales". */
const data = (chart_data: unknown): Json => ({ sales: { chart_data } });
/** mockup_data override rows: the override entry for "phone". */
const layers = (mockup_data: unknown): Json => ({ phone: { mockup_data } });

const rows: Row[] = [
  // ── chart_data through overrides: table shape ───────────────────────────────────────────────
  { name: 'chart_data is an empty table []', overrides: data([]), path: CD, message: 'chart_data is empty' },
  { name: 'chart_data has only the header row', overrides: data([[null, 'Q1', 'Q2']]), path: CD, message: 'chart_data has no series' },
  { name: 'header row with no column titles', overrides: data([[null], ['2025']]), path: `${CD}[0]`, message: 'at least one column title' },
  {
    name: 'first cell of the table is not null',
    overrides: data([
      ['Year', 'Q1'],
      ['2025', 1],
    ]),
    path: `${CD}[0][0]`,
    message: 'first cell of the table must be null but is the string "Year"',
  },
  {
    name: 'column title is a number',
    overrides: data([
      [null, 'Q1', 2026],
      ['2025', 1, 2],
    ]),
    path: `${CD}[0][2]`,
    message: 'expected a column title (a string) but received 2026',
  },
  {
    name: 'column title is null',
    overrides: data([
      [null, null, 'Q2'],
      ['2025', 1, 2],
    ]),
    path: `${CD}[0][1]`,
    message: 'expected a column title (a string) but received null',
  },
  {
    name: 'row shorter than the header (ragged)',
    overrides: data([
      [null, 'Q1', 'Q2', 'Q3'],
      ['2025', 1, 2, 3],
      ['2026', 4, 5],
    ]),
    path: `${CD}[2]`,
    message: 'row 2 has 3 cells but the header has 4',
  },
  {
    name: 'row longer than the header (ragged)',
    overrides: data([
      [null, 'Q1', 'Q2'],
      ['2025', 1, 2, 3],
    ]),
    path: `${CD}[1]`,
    message: 'row 1 has 4 cells but the header has 3',
  },
  {
    name: 'series title is a number',
    overrides: data([
      [null, 'Q1'],
      [2025, 1],
    ]),
    path: `${CD}[1][0]`,
    message: 'expected a series title (a string) but received 2025',
  },
  {
    name: 'series title is null',
    overrides: data([
      [null, 'Q1'],
      ['2025', 1],
      [null, 2],
    ]),
    path: `${CD}[2][0]`,
    message: 'expected a series title (a string) but received null',
  },
  {
    name: 'string in a number cell',
    overrides: data([
      [null, 'Q1', 'Q2', 'Q3'],
      ['2025', 1, 2, 3],
      ['2026', 4, 5, '12'],
    ]),
    path: `${CD}[2][3]`,
    message: 'expected a number (or null for a gap) but received the string "12"',
  },
  {
    name: 'boolean in a number cell',
    overrides: data([
      [null, 'Q1', 'Q2', 'Q3'],
      ['2025', 1, 2, 3],
      ['2026', 4, 5, true],
    ]),
    path: `${CD}[2][3]`,
    message: 'expected a number',
  },
  {
    name: 'object in a number cell',
    overrides: data([
      [null, 'Q1', 'Q2', 'Q3'],
      ['2025', 1, { value: 2 }, 3],
    ]),
    path: `${CD}[1][2]`,
    message: 'expected a number',
  },
  {
    name: 'nested arrays too deep (a cell is an array)',
    overrides: data([
      [null, 'Q1', 'Q2'],
      ['2025', [1, 2], 3],
    ]),
    path: `${CD}[1][1]`,
    message: 'expected a number',
  },
  {
    name: 'Infinity in a number cell',
    overrides: data([
      [null, 'Q1', 'Q2'],
      ['2025', 1, Infinity],
    ]),
    path: `${CD}[1][2]`,
    message: 'finite',
  },
  {
    name: 'more than 50 series (51 rows after the header)',
    overrides: data([header(3), ...Array.from({ length: 51 }, (_, i) => series(`S${i + 1}`, 3))]),
    path: CD,
    message: 'the table has 51 series rows: at most 50 are allowed',
  },
  {
    name: 'more than 100 columns (101 categories)',
    overrides: data([header(101), series('2025', 101)]),
    path: `${CD}[0]`,
    message: 'the table has 101 columns: at most 100 are allowed',
  },
  { name: 'chart_data is a string, not an array', overrides: data('Q1,Q2\n1,2'), path: CD, message: 'expected an array but received the string' },
  { name: 'chart_data is an object, not an array', overrides: data({ Q1: 1, Q2: 2 }), path: CD, message: 'expected an array but received an object' },
  {
    name: 'a row that is not an array',
    overrides: data([[null, 'Q1'], '2025,1']),
    path: `${CD}[1]`,
    message: 'expected an array but received the string "2025,1"',
  },
  { name: 'the header row is null', overrides: data([null, ['2025', 1]]), path: `${CD}[0]`, message: 'expected an array but received null' },

  // ── chart_data in the template ──────────────────────────────────────────────────────────────
  { name: 'empty chart_data (template)', design: edit((d) => (C(d).chart_data = [])), path: `${CT}.chart_data`, message: 'chart_data is empty' },
  {
    name: 'string in a number cell (template)',
    design: edit((d) => (C(d).chart_data[2][3] = 'n/a')),
    path: `${CT}.chart_data[2][3]`,
    message: 'expected a number (or null for a gap) but received the string "n/a"',
  },
  {
    name: 'boolean in a number cell (template)',
    design: edit((d) => (C(d).chart_data[1][1] = false)),
    path: `${CT}.chart_data[1][1]`,
    message: 'expected a number',
  },
  {
    name: 'ragged row (template)',
    design: edit((d) => C(d).chart_data[1].pop()),
    path: `${CT}.chart_data[1]`,
    message: 'row 1 has 4 cells but the header has 5',
  },
  { name: 'missing chart_data (template)', design: edit((d) => delete C(d).chart_data), path: `${CT}.chart_data`, message: 'missing' },
  {
    name: 'a valid template table does not excuse a bad override table',
    overrides: data([
      [null, 'Q1'],
      ['2025', '1'],
    ]),
    path: `${CD}[1][1]`,
    message: 'expected a number (or null for a gap) but received the string "1"',
  },

  // ── chart fields ────────────────────────────────────────────────────────────────────────────
  { name: 'unknown chart_type', design: edit((d) => (C(d).chart_type = 'radar')), path: `${CT}.chart_type`, message: 'expected one of "bar", "column"' },
  { name: 'missing chart_type', design: edit((d) => delete C(d).chart_type), path: `${CT}.chart_type`, message: 'missing' },
  { name: 'colour "blue" in colors', design: edit((d) => (C(d).colors = ['#2f6fed', 'blue'])), path: `${CT}.colors[1]`, message: 'hex colour' },
  { name: 'colors is an empty list', design: edit((d) => (C(d).colors = [])), path: `${CT}.colors`, message: 'at least 1' },
  { name: 'colors is one string', design: edit((d) => (C(d).colors = '#2f6fed')), path: `${CT}.colors`, message: 'expected an array but received the string' },
  { name: 'bad text_color', design: edit((d) => (C(d).text_color = 'grey')), path: `${CT}.text_color`, message: 'hex colour' },
  { name: 'unknown field on a chart', design: edit((d) => (C(d).series = [])), path: `${CT}.series`, message: 'unknown field "series" on a chart object' },
  {
    name: 'unknown field in number_format',
    design: edit((d) => (C(d).number_format.currency = 'EUR')),
    path: `${CT}.number_format.currency`,
    message: 'unknown field "currency"',
  },
  { name: 'number_format.decimals 7', design: edit((d) => (C(d).number_format.decimals = 7)), path: `${CT}.number_format.decimals`, message: 'at most 6' },
  { name: 'donut_hole 0.95', design: edit((d) => (C(d).donut_hole = 0.95)), path: `${CT}.donut_hole`, message: 'at most 0.9' },
  { name: 'bad legend position', design: edit((d) => (C(d).legend = 'left')), path: `${CT}.legend`, message: '"right", "none"' },
  { name: 'title longer than 200 characters', design: edit((d) => (C(d).title = 't'.repeat(201))), path: `${CT}.title`, message: 'at most 200' },
  { name: 'chart font not listed in fonts', design: edit((d) => (C(d).font_family = 'Lora')), path: `${CT}.font_family`, message: 'not listed in $.fonts' },
  {
    name: 'chart font that is not bundled',
    design: edit((d) => (C(d).font_family = 'Comic Sans')),
    path: `${CT}.font_family`,
    message: 'font family "Comic Sans" is not available',
  },
  {
    name: 'title is not overridable',
    overrides: { sales: { title: 'New title' } },
    path: `${O}.sales.title`,
    message: 'unknown field "title" on a chart object',
  },
  {
    name: 'chart_type is not overridable',
    overrides: { sales: { chart_type: 'line' } },
    path: `${O}.sales.chart_type`,
    message: 'unknown field "chart_type" on a chart object',
  },
  {
    name: 'colors is not overridable',
    overrides: { sales: { colors: ['#000000'] } },
    path: `${O}.sales.colors`,
    message: 'unknown field "colors" on a chart object',
  },
  {
    name: 'mockup_data on a chart',
    overrides: { sales: { mockup_data: {} } },
    path: `${O}.sales.mockup_data`,
    message: 'unknown field "mockup_data" on a chart object',
  },
  {
    name: 'chart_data on a mockup',
    overrides: {
      phone: {
        chart_data: [
          [null, 'Q1'],
          ['a', 1],
        ],
      },
    },
    path: `${O}.phone.chart_data`,
    message: 'unknown field "chart_data" on a mockup object',
  },

  // ── mockup_data through overrides ───────────────────────────────────────────────────────────
  {
    name: 'unknown layer id in mockup_data',
    overrides: layers({ screne: { image_url: 'shot.png' } }),
    path: `${MD}.screne`,
    message: 'the mockup has no layer "screne": use one of "screen", "case"',
  },
  {
    name: 'layer id that needs bracket notation',
    overrides: layers({ 'my screen': { hidden: true } }),
    path: `${MD}["my screen"]`,
    message: 'no layer "my screen"',
  },
  {
    name: 'unknown field in a layer override',
    overrides: layers({ screen: { path: 'shot.png' } }),
    path: `${MD}.screen.path`,
    message: 'unknown field "path"',
  },
  { name: 'mask is not overridable', overrides: layers({ tint: { mask: 'mask.png' } }), path: `${MD}.tint.mask`, message: 'unknown field "mask"' },
  {
    name: 'image_url on a color layer',
    overrides: layers({ case: { image_url: 'shot.png' } }),
    path: `${MD}.case.image_url`,
    message: 'layer "case" is a color layer: image_url works on image layers; give color instead',
  },
  {
    name: 'image_url on an artwork layer',
    overrides: layers({ glare: { image_url: 'shot.png' } }),
    path: `${MD}.glare.image_url`,
    message: 'layer "glare" is an artwork layer: image_url works on image layers',
  },
  {
    name: 'color on an image layer',
    overrides: layers({ screen: { color: '#ff0000' } }),
    path: `${MD}.screen.color`,
    message: 'color works on color layers; give image_url instead',
  },
  {
    name: 'color on an artwork layer',
    overrides: layers({ glare: { color: '#ff0000' } }),
    path: `${MD}.glare.color`,
    message: 'layer "glare" is an artwork layer: color works on color layers',
  },
  { name: 'bad colour on a color layer', overrides: layers({ case: { color: 'orange' } }), path: `${MD}.case.color`, message: 'hex colour' },
  {
    name: 'external URL in image_url',
    overrides: layers({ screen: { image_url: 'https://example.com/shot.png' } }),
    path: `${MD}.screen.image_url`,
    message: 'external image URLs are not allowed',
  },
  {
    name: '../ path in image_url',
    overrides: layers({ screen: { image_url: '../shot.png' } }),
    path: `${MD}.screen.image_url`,
    message: 'leaves the design folder',
  },
  { name: 'empty image_url', overrides: layers({ screen: { image_url: '' } }), path: `${MD}.screen.image_url`, message: 'non-empty image reference' },
  {
    name: 'image_url is a number',
    overrides: layers({ screen: { image_url: 42 } }),
    path: `${MD}.screen.image_url`,
    message: 'expected a string but received the number 42',
  },
  { name: 'hidden is not a boolean', overrides: layers({ glare: { hidden: 'yes' } }), path: `${MD}.glare.hidden`, message: 'expected true or false' },
  { name: 'mockup_data is an array', overrides: layers([{ screen: { image_url: 'shot.png' } }]), path: MD, message: 'expected an object' },
  { name: 'mockup_data is a string', overrides: layers('screen=shot.png'), path: MD, message: 'expected an object' },
  {
    name: 'layer override is a string',
    overrides: layers({ screen: 'shot.png' }),
    path: `${MD}.screen`,
    message: 'expected an object but received the string "shot.png"',
  },
  { name: 'layer override is null', overrides: layers({ screen: null }), path: `${MD}.screen`, message: 'expected an object but received null' },
  {
    name: 'external URL in image_url (dotted override key)',
    overrides: { phone: { 'mockup_data.screen.image_url': 'https://example.com/shot.png' } },
    path: `${MD}.screen.image_url`,
    message: 'external image URLs are not allowed',
  },
  {
    name: 'missing image file for image_url',
    overrides: layers({ screen: { image_url: 'missing.png' } }),
    path: `${MD}.screen.image_url`,
    message: 'no image file at "missing.png"',
  },
  {
    name: 'image_url file that is not an image',
    overrides: layers({ screen: { image_url: 'garbage.png' } }),
    path: `${MD}.screen.image_url`,
    message: 'is not a readable image',
  },
  {
    name: 'unknown asset: in image_url (fileAssetResolver)',
    overrides: layers({ screen: { image_url: 'asset:hero' } }),
    options: { baseDir: undefined, assets: fileAssetResolver({ baseDir: dir, assets: { shot: 'shot.png' } }) },
    path: `${MD}.screen.image_url`,
    message: 'no asset named "hero": use one of shot',
  },
  {
    name: 'missing image_url file while an earlier layer override is fine',
    overrides: layers({ glare: { hidden: true }, case: { color: '#000000' }, screen: { image_url: 'nothere.png' } }),
    path: `${MD}.screen.image_url`,
    message: 'no image file at "nothere.png"',
  },

  // ── mockup in the template ──────────────────────────────────────────────────────────────────
  { name: 'missing base', design: edit((d) => delete M(d).base), path: '$.objects[1].base', message: 'missing' },
  { name: 'missing base image file', design: edit((d) => (M(d).base = 'phone.png')), path: '$.objects[1].base', message: 'no image file at "phone.png"' },
  { name: 'base that is not an image', design: edit((d) => (M(d).base = 'garbage.png')), path: '$.objects[1].base', message: 'is not a readable image' },
  {
    name: 'external URL as base',
    design: edit((d) => (M(d).base = 'https://example.com/phone.png')),
    path: '$.objects[1].base',
    message: 'external image URLs are not allowed',
  },
  {
    name: 'layers is an object',
    design: edit((d) => (M(d).layers = { screen: L(d, 0) })),
    path: '$.objects[1].layers',
    message: 'expected an array but received an object',
  },
  {
    name: 'more than 32 layers',
    design: edit(
      (d) =>
        (M(d).layers = Array.from({ length: 33 }, (_, i) => ({ id: `l${i}`, kind: 'color', area: { x: 0, y: 0, width: 1, height: 1 }, color: '#000000' }))),
    ),
    path: '$.objects[1].layers',
    message: 'at most 32',
  },
  {
    name: 'layer with both area and quad',
    design: edit((d) => (L(d, 1).area = { x: 0, y: 0, width: 10, height: 10 })),
    path: `${LT}[1]`,
    message: 'needs exactly one of area',
  },
  { name: 'layer with neither area nor quad', design: edit((d) => delete L(d, 0).area), path: `${LT}[0]`, message: 'layer "screen" needs exactly one of area' },
  { name: 'quad with 3 corners', design: edit((d) => L(d, 1).quad.pop()), path: `${LT}[1].quad`, message: 'expected four corners' },
  { name: 'quad with 5 corners', design: edit((d) => L(d, 1).quad.push([0, 0])), path: `${LT}[1].quad`, message: 'expected four corners' },
  { name: 'quad corner with one number', design: edit((d) => (L(d, 1).quad[2] = [100])), path: `${LT}[1].quad[2]`, message: 'expected a corner as [x, y]' },
  {
    name: 'quad corner as {x, y}',
    design: edit((d) => (L(d, 1).quad[2] = { x: 100, y: 20 })),
    path: `${LT}[1].quad[2]`,
    message: 'expected a corner as [x, y]',
  },
  {
    name: 'quad corner with a string',
    design: edit((d) => (L(d, 1).quad[3] = [0, '20'])),
    path: `${LT}[1].quad[3][1]`,
    message: 'expected a number but received the string "20"',
  },
  { name: 'area with zero width', design: edit((d) => (L(d, 0).area.width = 0)), path: `${LT}[0].area.width`, message: 'greater than 0' },
  { name: 'unknown field in area', design: edit((d) => (L(d, 0).area.w = 80)), path: `${LT}[0].area.w`, message: 'unknown field "w"' },
  { name: 'duplicate layer ids', design: edit((d) => (L(d, 2).id = 'screen')), path: `${LT}[2].id`, message: 'layer id "screen" is used twice' },
  {
    name: 'layer id with a space',
    design: edit((d) => (L(d, 0).id = 'my screen')),
    path: `${LT}[0].id`,
    message: 'expected a layer id of 1-64 letters, digits, _ or -',
  },
  {
    name: 'layer id with a dot',
    design: edit((d) => (L(d, 0).id = 'screen.main')),
    path: `${LT}[0].id`,
    message: 'expected a layer id of 1-64 letters, digits, _ or -',
  },
  { name: 'missing layer id', design: edit((d) => delete L(d, 0).id), path: `${LT}[0].id`, message: 'missing' },
  { name: 'unknown layer kind', design: edit((d) => (L(d, 0).kind = 'video')), path: `${LT}[0].kind`, message: 'expected one of "image", "color", "artwork"' },
  { name: 'unknown field on a layer', design: edit((d) => (L(d, 0).image_url = 'shot.png')), path: `${LT}[0].image_url`, message: 'unknown field "image_url"' },
  { name: 'color layer without color', design: edit((d) => delete L(d, 1).color), path: `${LT}[1].color`, message: 'color layer "case" needs a color' },
  { name: 'artwork layer without path', design: edit((d) => delete L(d, 2).path), path: `${LT}[2].path`, message: 'artwork layer "glare" needs a path' },
  {
    name: 'fit on a color layer',
    design: edit((d) => (L(d, 1).fit = 'contain')),
    path: `${LT}[1].fit`,
    message: 'fit does not apply to color layers: remove it',
  },
  {
    name: 'fit on an artwork layer',
    design: edit((d) => (L(d, 2).fit = 'cover')),
    path: `${LT}[2].fit`,
    message: 'fit does not apply to artwork layers: remove it',
  },
  { name: 'path on a color layer', design: edit((d) => (L(d, 1).path = 'screen.png')), path: `${LT}[1].path`, message: 'path does not apply to color layers' },
  {
    name: 'color on an image layer (template)',
    design: edit((d) => (L(d, 0).color = '#ff0000')),
    path: `${LT}[0].color`,
    message: 'color does not apply to image layers',
  },
  {
    name: 'mask on an artwork layer',
    design: edit((d) => (L(d, 2).mask = 'mask.png')),
    path: `${LT}[2].mask`,
    message: 'mask does not apply to artwork layers',
  },
  { name: 'bad layer colour', design: edit((d) => (L(d, 1).color = '#e4572')), path: `${LT}[1].color`, message: 'hex colour' },
  { name: 'layer opacity above 1', design: edit((d) => (L(d, 2).opacity = 1.5)), path: `${LT}[2].opacity`, message: 'at most 1' },
  {
    name: 'unknown blend mode',
    design: edit((d) => (L(d, 2).blend = 'overlay')),
    path: `${LT}[2].blend`,
    message: 'expected one of "normal", "multiply", "screen"',
  },
  { name: 'layer hidden is not a boolean (template)', design: edit((d) => (L(d, 2).hidden = 1)), path: `${LT}[2].hidden`, message: 'expected true or false' },
  {
    name: 'external URL as layer path',
    design: edit((d) => (L(d, 0).path = 'http://example.com/s.png')),
    path: `${LT}[0].path`,
    message: 'external image URLs are not allowed',
  },
  { name: 'missing layer image file', design: edit((d) => (L(d, 2).path = 'glare2.png')), path: `${LT}[2].path`, message: 'no image file at "glare2.png"' },
  { name: 'mask that is not an image', design: edit((d) => (L(d, 3).mask = 'garbage.png')), path: `${LT}[3].mask`, message: 'is not a readable image' },
  { name: 'missing mask file', design: edit((d) => (L(d, 3).mask = 'nomask.png')), path: `${LT}[3].mask`, message: 'no image file at "nomask.png"' },
  { name: 'absolute mask path', design: edit((d) => (L(d, 3).mask = '/etc/passwd')), path: `${LT}[3].mask`, message: 'absolute paths are not allowed' },
];

// ── helpers ─────────────────────────────────────────────────────────────────────────────────────

function optionsOf(row: Row): RenderOptions {
  return { design: 'design' in row ? row.design : base(), overrides: row.overrides, format: 'png', baseDir: dir, ...row.options } as RenderOptions;
}

let bytesBefore: Buffer | undefined;

/** Valid overrides for both objects, used before and after the bad rows. */
function goodOverrides(): Json {
  return {
    sales: {
      chart_data: [
        [null, 'Jan', 'Feb'],
        ['North', 3, 4],
        ['South', null, 6],
      ],
      height: 180,
    },
    phone: { mockup_data: { screen: { image_url: 'shot.png' }, case: { color: '#17bebb' }, glare: { hidden: true } } },
  };
}

// ── the table ───────────────────────────────────────────────────────────────────────────────────

describe('bad chart and mockup input is refused with a validation_error at the exact JSON path', () => {
  it('has at least 30 rows with unique names', () => {
    expect(rows.length).toBeGreaterThanOrEqual(30);
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
  });

  it('renders the base chart + mockup design before any bad input', async () => {
    const result = await render({ design: base(), format: 'png', baseDir: dir });
    bytesBefore = result.bytes;
    expect(result.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await expectRefused(optionsOf(row), row);
  });
});

describe('bad chart and mockup input changes nothing and never crashes', () => {
  it('no bad row crashes the engine, even when all run at once', async () => {
    const settled = await Promise.allSettled(rows.map((r) => render(optionsOf(r))));
    const crashes = settled.flatMap((s, i) =>
      s.status === 'rejected' && !(s.reason instanceof ImprintError) ? [`${rows[i]!.name}: ${String(s.reason)}`] : [],
    );
    const accepted = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [rows[i]!.name] : []));
    expect(crashes).toEqual([]);
    expect(accepted).toEqual([]);
  });

  it('the valid chart + mockup design still renders to PNG, the same bytes, and its inputs are untouched', async () => {
    const design = base();
    const snapshot = structuredClone(design);
    const overrides = goodOverrides();
    const overridesSnapshot = structuredClone(overrides);

    const plain = await render({ design, format: 'png', baseDir: dir });
    expect(plain.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(plain.mimeType).toBe('image/png');
    expect([plain.width, plain.height]).toEqual([400, 240]);
    expect(design).toEqual(snapshot);
    // Same input, same bytes: nothing the bad rows did (caches, shared state) leaks into later renders.
    expect(bytesBefore).toBeDefined();
    expect(plain.bytes.equals(bytesBefore!)).toBe(true);

    const overridden = await render({ design, overrides, format: 'png', baseDir: dir });
    expect(overridden.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(overridden.bytes.equals(plain.bytes)).toBe(false);
    expect(design).toEqual(snapshot);
    expect(overrides).toEqual(overridesSnapshot);

    // The same overrides through a fileAssetResolver and asset: references give the same picture.
    const viaAssets = await render({
      design,
      overrides: { ...goodOverrides(), phone: { mockup_data: { screen: { image_url: 'asset:shot' }, case: { color: '#17bebb' }, glare: { hidden: true } } } },
      format: 'png',
      assets: fileAssetResolver({ baseDir: dir, assets: { shot: 'shot.png' } }),
    });
    expect(viaAssets.bytes.equals(overridden.bytes)).toBe(true);

    const fromText = await render({ design: JSON.stringify(design), format: 'png', baseDir: dir });
    expect(fromText.bytes.equals(plain.bytes)).toBe(true);
    expect(design).toEqual(snapshot);
  });
});
