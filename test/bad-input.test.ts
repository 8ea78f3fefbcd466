// Bad input, table-driven: every row must be refused with a validation_error (HTTP 400) that names the
// exact JSON path of the offending value and says how to fix it. A second block checks that all that
// bad input left nothing behind: the engine still renders the base design, byte for byte the same.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, type RenderOptions } from '../src/engine.js';
import { ImprintError } from '../src/errors.js';
import { expectRefused, PNG_SIGNATURE } from './support/refusal.js';

// ── fixtures ────────────────────────────────────────────────────────────────────────────────────

/** Design folder for relative image paths: photo.png (valid), garbage.png (not an image), a folder. */
const dir = mkdtempSync(join(tmpdir(), 'imprint-bad-input-'));
/** A folder outside the design folder, holding a valid image that a symlink inside `dir` points to. */
const outside = mkdtempSync(join(tmpdir(), 'imprint-outside-'));

beforeAll(async () => {
  const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#43a047' } })
    .png()
    .toBuffer();
  writeFileSync(join(dir, 'photo.png'), png);
  writeFileSync(join(dir, 'garbage.png'), Buffer.from('this is not an image, just some garbage bytes \x00\x01\x02\xff'));
  mkdirSync(join(dir, 'folder.png'));
  writeFileSync(join(outside, 'secret.png'), png);
  symlinkSync(join(outside, 'secret.png'), join(dir, 'escape.png'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

type Json = any;

/** A small valid design: objects[0] text "headline", objects[1] image "photo", objects[2] shape "box". */
function base(): Json {
  return {
    schema: 'imprint/design@1',
    width: 200,
    height: 120,
    background: { type: 'color', color: '#fff8e1' },
    fonts: ['Inter'],
    objects: [
      {
        type: 'text',
        name: 'headline',
        x: 10,
        y: 10,
        width: 180,
        height: 40,
        text: 'Hello <substyle bold="700" color="#e53935">world</substyle>',
        font_family: 'Inter',
        font_size: 24,
        min_font_size: 8,
        color: '#222222',
        config: { text_replacement_strategy: 'fit' },
      },
      { type: 'image', name: 'photo', x: 10, y: 60, width: 50, height: 50, path: 'photo.png', config: { media_replacement_strategy: 'cover' } },
      {
        type: 'shape',
        name: 'box',
        x: 70,
        y: 60,
        width: 120,
        height: 50,
        shape: 'rounded_rect',
        corner_radius: 8,
        background: { type: 'color', color: '#1e88e5' },
        border: { width: 2, color: '#000000', style: 'solid' },
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

/** The base design as JSON text with the first `from` replaced by `to` (for values JSON.parse creates). */
function text(from: string, to: string): string {
  const s = JSON.stringify(base());
  if (!s.includes(from)) throw new Error(`fixture: ${from} not in the base design`);
  return s.replace(from, to);
}

/** Shorthands for the base objects. */
const T = (d: Json): Json => d.objects[0];
const I = (d: Json): Json => d.objects[1];
const S = (d: Json): Json => d.objects[2];

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

const rows: Row[] = [
  // ── overrides: addressing ───────────────────────────────────────────────────────────────────
  { name: 'override names an unknown object', overrides: { nope: { text: 'x' } }, path: `${O}.nope`, message: 'no object named "nope"' },
  {
    name: 'override name that needs bracket notation',
    overrides: { 'my title': { text: 'x' } },
    path: `${O}["my title"]`,
    message: 'no object named "my title"',
  },
  {
    name: 'override key __proto__ (from JSON text)',
    overrides: JSON.parse('{"__proto__": {"text": "x"}}'),
    path: `${O}.__proto__`,
    message: 'no object named "__proto__"',
  },
  {
    name: 'overrides wrapped in objects_overrides twice',
    overrides: { objects_overrides: { headline: { text: 'x' } } },
    path: `${O}.objects_overrides`,
    message: 'no object named "objects_overrides"',
  },
  {
    name: 'overrides is a list without names (interface B form)',
    overrides: [{ headline: { text: 'x' } }],
    path: `${O}[0].headline`,
    message: 'an override has name and one of object or slide',
  },
  { name: 'overrides is a string (JSON text)', overrides: '{"headline": {"text": "x"}}', path: O, message: 'expected objects_overrides to be an object' },
  { name: 'override entry is a string', overrides: { headline: 'Hi there' }, path: `${O}.headline`, message: 'expected an object of fields' },
  { name: 'override entry is null', overrides: { headline: null }, path: `${O}.headline`, message: 'expected an object of fields' },
  { name: 'override entry is an array', overrides: { headline: ['Hi'] }, path: `${O}.headline`, message: 'expected an object of fields' },

  // ── overrides: fields the object type does not have ─────────────────────────────────────────
  { name: 'text on an image (override)', overrides: { photo: { text: 'x' } }, path: `${O}.photo.text`, message: 'unknown field "text" on an image object' },
  {
    name: 'path on a text (override)',
    overrides: { headline: { path: 'photo.png' } },
    path: `${O}.headline.path`,
    message: 'unknown field "path" on a text object',
  },
  {
    name: 'border on a text (override)',
    overrides: { headline: { border: { width: 1 } } },
    path: `${O}.headline.border`,
    message: 'unknown field "border" on a text object',
  },
  { name: 'text on a shape (override)', overrides: { box: { text: 'x' } }, path: `${O}.box.text`, message: 'unknown field "text" on a shape object' },
  {
    name: 'font_size is not overridable on a text',
    overrides: { headline: { font_size: 30 } },
    path: `${O}.headline.font_size`,
    message: 'unknown field "font_size" on a text object',
  },
  {
    name: 'unknown field inside border (override)',
    overrides: { box: { border: { thickness: 3 } } },
    path: `${O}.box.border.thickness`,
    message: 'unknown field "thickness"',
  },

  // ── overrides: wrong types and values ───────────────────────────────────────────────────────
  {
    name: 'number for string: text (override)',
    overrides: { headline: { text: 42 } },
    path: `${O}.headline.text`,
    message: 'expected a string but received the number 42',
  },
  {
    name: 'array for object: config (override)',
    overrides: { headline: { config: ['fit'] } },
    path: `${O}.headline.config`,
    message: 'expected an object but received an array',
  },
  { name: 'null for number: x (override)', overrides: { headline: { x: null } }, path: `${O}.headline.x`, message: 'expected a number but received null' },
  { name: 'string for boolean: hidden (override)', overrides: { box: { hidden: 'yes' } }, path: `${O}.box.hidden`, message: 'expected true or false' },
  { name: 'bad text_align (override)', overrides: { headline: { text_align: 'middle' } }, path: `${O}.headline.text_align`, message: '"center"' },
  {
    name: 'bad text_transform (override)',
    overrides: { headline: { text_transform: 'title' } },
    path: `${O}.headline.text_transform`,
    message: 'expected one of "none", "uppercase", "lowercase", "capitalize"',
  },
  {
    name: 'number for object: stroke (override)',
    overrides: { headline: { stroke: 4 } },
    path: `${O}.headline.stroke`,
    message: 'expected an object but received the number 4',
  },
  {
    name: 'stroke colour alone on a text without one (override)',
    overrides: { headline: { stroke: { color: '#000000' } } },
    path: `${O}.headline.stroke.width`,
    message: 'the text has no stroke to restyle: give stroke.width (in pixels) as well',
  },
  {
    name: 'stroke width alone on a text without one (dotted override key)',
    overrides: { headline: { 'stroke.width': 3 } },
    path: `${O}.headline.stroke.color`,
    message: 'give stroke.color (#rrggbb or #rrggbbaa) as well',
  },
  {
    name: 'stroke width too large (override)',
    overrides: { headline: { stroke: { color: '#000000', width: 500 } } },
    path: `${O}.headline.stroke.width`,
    message: 'expected at most 200 but received the number 500',
  },
  {
    name: 'lang that is not a language tag (override)',
    overrides: { headline: { lang: 'zh_TW' } },
    path: `${O}.headline.lang`,
    message:
      'expected a BCP 47 language tag: a language code, optionally with a script and a region, such as "ja", "zh-Hant", "zh-TW", "ko" or "en-US" but received the string "zh_TW"',
  },
  {
    name: 'bad config.text_replacement_strategy (nested override)',
    overrides: { headline: { config: { text_replacement_strategy: 'bogus' } } },
    path: `${O}.headline.config.text_replacement_strategy`,
    message: 'expected one of "fit", "fixed-width"',
  },
  {
    name: 'bad config.text_replacement_strategy (dotted override key)',
    overrides: { headline: { 'config.text_replacement_strategy': 'bogus' } },
    path: `${O}.headline.config.text_replacement_strategy`,
    message: 'expected one of "fit", "fixed-width"',
  },
  {
    name: 'bad config.media_replacement_strategy (dotted override key)',
    overrides: { photo: { 'config.media_replacement_strategy': 'zoom' } },
    path: `${O}.photo.config.media_replacement_strategy`,
    message: '"contain"',
  },
  {
    name: 'dotted key given twice (nested and dotted)',
    overrides: { headline: { config: { text_replacement_strategy: 'fit' }, 'config.text_replacement_strategy': 'fixed-width' } },
    path: `${O}.headline["config.text_replacement_strategy"]`,
    message: 'given twice',
  },
  {
    name: 'dotted key under a null parent',
    overrides: { headline: { config: null, 'config.text_replacement_strategy': 'fit' } },
    path: `${O}.headline["config.text_replacement_strategy"]`,
    message: 'conflicts with the field "config"',
  },
  {
    name: 'dotted key through __proto__',
    overrides: { headline: { '__proto__.width': 5 } },
    path: `${O}.headline["__proto__.width"]`,
    message: '__proto__',
  },
  { name: 'zero width (override)', overrides: { box: { width: 0 } }, path: `${O}.box.width`, message: 'greater than 0' },
  { name: 'negative height (override)', overrides: { photo: { height: -10 } }, path: `${O}.photo.height`, message: 'greater than 0' },
  { name: 'Infinity width (override)', overrides: { box: { width: Infinity } }, path: `${O}.box.width`, message: 'finite' },
  { name: 'NaN x (override)', overrides: { box: { x: NaN } }, path: `${O}.box.x`, message: 'finite' },
  { name: 'huge y 1e12 (override)', overrides: { headline: { y: 1e12 } }, path: `${O}.headline.y`, message: 'at most 100000' },
  { name: 'opacity above 1 (override)', overrides: { box: { opacity: 2 } }, path: `${O}.box.opacity`, message: 'at most 1' },
  {
    name: 'colour "#12" in shape background (override)',
    overrides: { box: { background: { color: '#12' } } },
    path: `${O}.box.background.color`,
    message: 'hex colour',
  },
  { name: 'colour "red" in border (override)', overrides: { box: { border: { color: 'red' } } }, path: `${O}.box.border.color`, message: 'hex colour' },
  { name: 'bad border style (override)', overrides: { box: { border: { style: 'dotted' } } }, path: `${O}.box.border.style`, message: '"dashed"' },

  // ── overrides: substyle markup in text ──────────────────────────────────────────────────────
  { name: 'unclosed substyle (override)', overrides: { headline: { text: 'a <substyle bold="700">b' } }, path: `${O}.headline.text`, message: 'never closed' },
  {
    name: 'nested substyle (override)',
    overrides: { headline: { text: '<substyle bold="700">a <substyle color="#ff0000">b</substyle></substyle>' } },
    path: `${O}.headline.text`,
    message: 'cannot be nested',
  },
  { name: 'stray </substyle> (override)', overrides: { headline: { text: 'a</substyle>' } }, path: `${O}.headline.text`, message: 'without a matching' },

  // ── overrides: image references ─────────────────────────────────────────────────────────────
  {
    name: 'https URL as image path (override)',
    overrides: { photo: { path: 'https://example.com/a.png' } },
    path: `${O}.photo.path`,
    message: 'external image URLs are not allowed',
  },
  {
    name: 'https URL as shape background.path (override)',
    overrides: { box: { background: { path: 'https://example.com/a.png' } } },
    path: `${O}.box.background.path`,
    message: 'external image URLs are not allowed',
  },
  {
    name: 'file:///etc/passwd as image path (override)',
    overrides: { photo: { path: 'file:///etc/passwd' } },
    path: `${O}.photo.path`,
    message: '"file:" references are not supported',
  },
  { name: 'absolute path (override)', overrides: { photo: { path: '/etc/passwd' } }, path: `${O}.photo.path`, message: 'absolute paths are not allowed' },
  {
    name: 'Windows drive path (override)',
    overrides: { photo: { path: 'C:\\Windows\\win.ini' } },
    path: `${O}.photo.path`,
    message: 'absolute paths are not allowed',
  },
  { name: '../ path (override)', overrides: { photo: { path: '../secret.png' } }, path: `${O}.photo.path`, message: 'leaves the design folder' },
  { name: 'path with a NUL byte (override)', overrides: { photo: { path: 'photo.png\0.txt' } }, path: `${O}.photo.path`, message: 'NUL' },
  { name: 'empty image path (override)', overrides: { photo: { path: '' } }, path: `${O}.photo.path`, message: 'non-empty image reference' },
  { name: 'asset: without a name (override)', overrides: { photo: { path: 'asset:' } }, path: `${O}.photo.path`, message: 'needs a name after "asset:"' },
  {
    name: 'shape background type image without path (override)',
    overrides: { box: { background: { type: 'image' } } },
    path: `${O}.box.background.path`,
    message: 'no background.path',
  },
  { name: 'missing image file (override)', overrides: { photo: { path: 'missing.png' } }, path: `${O}.photo.path`, message: 'no image file at "missing.png"' },
  {
    name: 'missing shape background image (override)',
    overrides: { box: { background: { type: 'image', path: 'missing.png' } } },
    path: `${O}.box.background.path`,
    message: 'no image file at "missing.png"',
  },
  { name: 'file that is not an image (override)', overrides: { photo: { path: 'garbage.png' } }, path: `${O}.photo.path`, message: 'is not a readable image' },
  {
    name: 'folder instead of an image file (override)',
    overrides: { photo: { path: 'folder.png' } },
    path: `${O}.photo.path`,
    message: 'no image file at "folder.png"',
  },
  { name: 'unknown asset: name (override)', overrides: { photo: { path: 'asset:nope' } }, path: `${O}.photo.path`, message: 'no asset named "nope"' },
  {
    name: 'symlink inside the design folder pointing outside it (override)',
    overrides: { photo: { path: 'escape.png' } },
    path: `${O}.photo.path`,
    message: 'outside the design folder',
  },

  // ── design: document shape ──────────────────────────────────────────────────────────────────
  { name: 'design is not JSON', design: '{"width": 200, "height": ', path: '$', message: 'not valid JSON' },
  { name: 'design is an array', design: [base()], path: '$', message: 'expected the design to be a JSON object' },
  { name: 'design is JSON text of an array', design: '[]', path: '$', message: 'expected the design to be a JSON object' },
  { name: 'design is null', design: null, path: '$', message: 'expected the design to be a JSON object' },
  { name: 'unknown top-level design field', design: edit((d) => (d.title = 'x')), path: '$.title', message: 'unknown field "title"' },
  { name: 'unknown schema version', design: edit((d) => (d.schema = 'imprint/design@2')), path: '$.schema', message: '"imprint/design@1"' },
  { name: 'missing canvas width', design: edit((d) => delete d.width), path: '$.width', message: 'missing' },
  { name: 'objects is an object', design: edit((d) => (d.objects = {})), path: '$.objects', message: 'expected an array but received an object' },
  {
    name: 'object is a string',
    design: edit((d) => (d.objects[1] = 'photo.png')),
    path: '$.objects[1]',
    message: 'expected an object but received the string',
  },

  // ── design: canvas ──────────────────────────────────────────────────────────────────────────
  { name: 'canvas too large', design: edit((d) => (d.width = 100_000)), path: '$.width', message: 'at most 8192' },
  { name: 'canvas zero height', design: edit((d) => (d.height = 0)), path: '$.height', message: 'at least 1' },
  // A fractional width is a print size (A4 at 300 dpi is 2480.315 px wide); under a pixel is not.
  { name: 'canvas width under 1 px', design: edit((d) => (d.width = 0.5)), path: '$.width', message: 'at least 1 pixel' },
  { name: 'canvas width as string', design: edit((d) => (d.width = '200')), path: '$.width', message: 'received the string "200"' },
  { name: 'canvas width 1e309 in JSON text (Infinity)', design: text('"width":200', '"width":1e309'), path: '$.width', message: 'Infinity' },
  { name: 'background colour "red"', design: edit((d) => (d.background.color = 'red')), path: '$.background.color', message: 'hex colour' },
  {
    name: 'background type image without path',
    design: edit((d) => (d.background = { type: 'image' })),
    path: '$.background.path',
    message: 'no background.path',
  },
  // ── gradients (canvas, shapes, overrides) ───────────────────────────────────────────────────
  {
    name: 'gradient with one stop',
    design: edit((d) => (d.background = { type: 'linear_gradient', stops: [{ offset: 0, color: '#000000' }] })),
    path: '$.background.stops',
    message: 'expected at least 2 items but received 1',
  },
  {
    name: 'gradient without stops',
    design: edit((d) => (S(d).background = { type: 'radial_gradient', radius: 0.5 })),
    path: '$.objects[2].background.stops',
    message: 'no background.stops are given: add at least 2 stops',
  },
  {
    name: 'gradient with 17 stops',
    design: edit((d) => (d.background = { type: 'linear_gradient', stops: Array.from({ length: 17 }, (_, i) => ({ offset: i / 16, color: '#000000' })) })),
    path: '$.background.stops',
    message: 'expected at most 16 items but received 17',
  },
  {
    name: 'gradient offsets descending',
    design: edit(
      (d) =>
        (S(d).background = {
          type: 'linear_gradient',
          stops: [
            { offset: 0, color: '#000000' },
            { offset: 0.7, color: '#ff0000' },
            { offset: 0.4, color: '#ffffff' },
          ],
        }),
    ),
    path: '$.objects[2].background.stops[2].offset',
    message: 'expected offsets in ascending order: at least 0.7 (the offset of stop 1) for stops[2].offset but received 0.4',
  },
  {
    name: 'gradient offset above 1',
    design: edit(
      (d) =>
        (d.background = {
          type: 'linear_gradient',
          stops: [
            { offset: 0, color: '#000000' },
            { offset: 100, color: '#ffffff' },
          ],
        }),
    ),
    path: '$.background.stops[1].offset',
    message: 'expected an offset from 0 to 1 but received the number 100',
  },
  {
    name: 'gradient offset below 0 (override)',
    overrides: {
      box: {
        background: {
          stops: [
            { offset: -0.5, color: '#000000' },
            { offset: 1, color: '#ffffff' },
          ],
        },
      },
    },
    path: `${O}.box.background.stops[0].offset`,
    message: 'expected an offset from 0 to 1 but received the number -0.5',
  },
  {
    name: 'gradient stop colour "black" (override)',
    overrides: {
      box: {
        background: {
          type: 'linear_gradient',
          stops: [
            { offset: 0, color: 'black' },
            { offset: 1, color: '#ffffff' },
          ],
        },
      },
    },
    path: `${O}.box.background.stops[0].color`,
    message: 'hex colour',
  },
  {
    name: 'unknown background type conic_gradient',
    design: edit((d) => (S(d).background = { type: 'conic_gradient', stops: [] })),
    path: '$.objects[2].background.type',
    message: 'expected one of "color", "image", "linear_gradient", "radial_gradient" but received the string "conic_gradient"',
  },
  {
    name: 'radial gradient center outside the box',
    design: edit(
      (d) =>
        (S(d).background = {
          type: 'radial_gradient',
          center: { x: 1.5, y: 0.5 },
          stops: [
            { offset: 0, color: '#000' },
            { offset: 1, color: '#fff' },
          ],
        }),
    ),
    path: '$.objects[2].background.center.x',
    message: 'expected a fraction of the width from 0 to 1 but received the number 1.5',
  },
  {
    name: 'gradient stop with unknown field',
    design: edit(
      (d) =>
        (d.background = {
          type: 'linear_gradient',
          stops: [
            { offset: 0, color: '#000', opacity: 0.5 },
            { offset: 1, color: '#fff' },
          ],
        }),
    ),
    path: '$.background.stops[0].opacity',
    message: 'unknown field "opacity"',
  },
  // ── shadows ─────────────────────────────────────────────────────────────────────────────────
  {
    name: 'shadow blur below 0',
    design: edit((d) => (S(d).shadow = { blur: -4 })),
    path: '$.objects[2].shadow.blur',
    message: 'expected at least 0 but received the number -4',
  },
  {
    name: 'shadow colour "grey" (override)',
    overrides: { box: { shadow: { color: 'grey' } } },
    path: `${O}.box.shadow.color`,
    message: 'hex colour',
  },
  {
    name: 'shadow with CSS field name offsetX',
    design: edit((d) => (S(d).shadow = { offsetX: 4 })),
    path: '$.objects[2].shadow.offsetX',
    message: 'unknown field "offsetX"',
  },
  {
    name: 'image shadow blur "soft"',
    design: edit((d) => (I(d).shadow = { blur: 'soft' })),
    path: '$.objects[1].shadow.blur',
    message: 'expected a number but received the string "soft"',
  },
  {
    name: 'image shadow colour "grey" (override)',
    overrides: { photo: { shadow: { color: 'grey' } } },
    path: `${O}.photo.shadow.color`,
    message: 'hex colour',
  },
  {
    name: 'text shadow with CSS field name offsetY',
    design: edit((d) => (T(d).shadow = { offsetY: 4 })),
    path: '$.objects[0].shadow.offsetY',
    message: 'unknown field "offsetY"',
  },
  {
    name: 'text shadow blur below 0 (override)',
    overrides: { headline: { shadow: { blur: -2 } } },
    path: `${O}.headline.shadow.blur`,
    message: 'expected at least 0 but received the number -2',
  },
  {
    name: 'background type color without color',
    design: edit((d) => (d.background = { type: 'color' })),
    path: '$.background.color',
    message: 'no background.color',
  },
  {
    name: 'https URL as canvas background.path',
    design: edit((d) => (d.background = { type: 'image', path: 'https://example.com/a.png' })),
    path: '$.background.path',
    message: 'external image URLs are not allowed',
  },
  {
    name: 'missing canvas background image file',
    design: edit((d) => (d.background = { type: 'image', path: 'missing.png' })),
    path: '$.background.path',
    message: 'no image file at "missing.png"',
  },

  // ── design: objects ─────────────────────────────────────────────────────────────────────────
  { name: 'unknown object type', design: edit((d) => (T(d).type = 'sticker')), path: '$.objects[0].type', message: '"shape"' },
  { name: 'missing object type', design: edit((d) => delete S(d).type), path: '$.objects[2].type', message: '"text", "image", "shape"' },
  {
    name: 'text on an image (template)',
    design: edit((d) => (I(d).text = 'x')),
    path: '$.objects[1].text',
    message: 'unknown field "text" on an image object',
  },
  {
    name: 'path on a text (template)',
    design: edit((d) => (T(d).path = 'photo.png')),
    path: '$.objects[0].path',
    message: 'unknown field "path" on a text object',
  },
  {
    name: 'border on a text (template)',
    design: edit((d) => (T(d).border = { width: 1 })),
    path: '$.objects[0].border',
    message: 'unknown field "border" on a text object',
  },
  { name: 'missing image path', design: edit((d) => delete I(d).path), path: '$.objects[1].path', message: 'missing' },
  { name: 'missing text', design: edit((d) => delete T(d).text), path: '$.objects[0].text', message: 'missing' },
  { name: 'missing x', design: edit((d) => delete S(d).x), path: '$.objects[2].x', message: 'missing' },
  { name: 'string for number: x', design: edit((d) => (T(d).x = '10')), path: '$.objects[0].x', message: 'expected a number but received the string "10"' },
  { name: 'number for string: text', design: edit((d) => (T(d).text = 7)), path: '$.objects[0].text', message: 'expected a string but received the number 7' },
  {
    name: 'array for object: border',
    design: edit((d) => (S(d).border = [2, '#000000'])),
    path: '$.objects[2].border',
    message: 'expected an object but received an array',
  },
  {
    name: 'null background on a shape',
    design: edit((d) => (S(d).background = null)),
    path: '$.objects[2].background',
    message: 'expected an object but received null',
  },
  { name: 'x 1e309 in JSON text (Infinity)', design: text('"x":10', '"x":1e309'), path: '$.objects[0].x', message: 'finite' },
  { name: 'x 1e12', design: edit((d) => (T(d).x = 1e12)), path: '$.objects[0].x', message: 'at most 100000' },
  { name: 'zero width', design: edit((d) => (T(d).width = 0)), path: '$.objects[0].width', message: 'greater than 0' },
  { name: 'negative height', design: edit((d) => (S(d).height = -5)), path: '$.objects[2].height', message: 'greater than 0' },
  { name: 'zero font_size', design: edit((d) => (T(d).font_size = 0)), path: '$.objects[0].font_size', message: 'greater than 0' },
  { name: 'font_size 1e12', design: edit((d) => (T(d).font_size = 1e12)), path: '$.objects[0].font_size', message: 'at most 1000' },
  { name: 'non-integer font_weight', design: edit((d) => (T(d).font_weight = 450.5)), path: '$.objects[0].font_weight', message: 'integer' },
  { name: 'negative border width', design: edit((d) => (S(d).border.width = -1)), path: '$.objects[2].border.width', message: 'at least 0' },
  { name: 'bad border style', design: edit((d) => (S(d).border.style = 'dotted')), path: '$.objects[2].border.style', message: '"solid", "dashed"' },
  { name: 'unknown shape', design: edit((d) => (S(d).shape = 'trapezoid')), path: '$.objects[2].shape', message: '"ellipse"' },
  { name: 'text colour "red"', design: edit((d) => (T(d).color = 'red')), path: '$.objects[0].color', message: 'hex colour' },
  { name: 'shape background colour "#12"', design: edit((d) => (S(d).background.color = '#12')), path: '$.objects[2].background.color', message: 'hex colour' },
  { name: 'border colour "#gggggg"', design: edit((d) => (S(d).border.color = '#gggggg')), path: '$.objects[2].border.color', message: 'hex colour' },
  {
    name: 'min_font_size > font_size',
    design: edit((d) => (T(d).min_font_size = 30)),
    path: '$.objects[0].min_font_size',
    message: 'must not exceed font_size',
  },
  { name: 'empty object name', design: edit((d) => (T(d).name = '')), path: '$.objects[0].name', message: 'at least 1' },
  {
    name: 'a wrap naming a name two objects share',
    design: edit((d) => {
      I(d).name = 'headline';
      S(d).wrap = { object: 'headline' };
    }),
    path: '$.objects[2].wrap.object',
    message: '"headline" names 2 objects ($.objects[0], $.objects[1])',
  },
  { name: 'text longer than 10000 characters', design: edit((d) => (T(d).text = 'a'.repeat(10_001))), path: '$.objects[0].text', message: 'at most 10000' },
  {
    name: 'more than 1000 objects',
    design: edit((d) => (d.objects = Array.from({ length: 1001 }, () => ({ type: 'shape', x: 0, y: 0, width: 1, height: 1 })))),
    path: '$.objects',
    message: 'at most 1000',
  },

  // ── design: fonts ───────────────────────────────────────────────────────────────────────────
  {
    name: 'font family that is not bundled',
    design: edit((d) => (T(d).font_family = 'Comic Sans')),
    path: '$.objects[0].font_family',
    message: 'font family "Comic Sans" is not available: use one of Inter, Lora, Roboto, Open Sans, Anton',
  },
  {
    name: 'font family not listed in fonts',
    design: edit((d) => (T(d).font_family = 'Lora')),
    path: '$.objects[0].font_family',
    message: 'not listed in $.fonts',
  },
  { name: 'empty font family', design: edit((d) => (T(d).font_family = '')), path: '$.objects[0].font_family', message: 'at least 1' },
  {
    name: 'fonts lists an unbundled family',
    design: edit((d) => (d.fonts = ['Inter', 'Papyrus'])),
    path: '$.fonts[1]',
    message: 'font family "Papyrus" is not available: use one of Inter, Lora, Roboto, Open Sans, Anton',
  },

  // ── design: substyle markup ─────────────────────────────────────────────────────────────────
  {
    name: 'nested substyle',
    design: edit((d) => (T(d).text = 'a <substyle bold="700">b <substyle color="#ff0000">c</substyle></substyle>')),
    path: '$.objects[0].text',
    message: 'cannot be nested',
  },
  { name: 'unclosed substyle', design: edit((d) => (T(d).text = 'a <substyle bold="700">b')), path: '$.objects[0].text', message: 'never closed' },
  { name: 'unterminated substyle tag', design: edit((d) => (T(d).text = 'a <substyle bold="700"')), path: '$.objects[0].text', message: 'close it with >' },
  { name: 'stray </substyle>', design: edit((d) => (T(d).text = 'a</substyle> b')), path: '$.objects[0].text', message: 'without a matching <substyle' },
  {
    name: 'unknown substyle attribute',
    design: edit((d) => (T(d).text = '<substyle slant="1">a</substyle>')),
    path: '$.objects[0].text',
    message: 'unknown substyle attribute "slant"',
  },
  {
    name: 'substyle font_family naming a missing family',
    design: edit((d) => (T(d).text = 'a <substyle font_family="Papyrus">b</substyle>')),
    path: '$.objects[0].text',
    message: 'substyle font_family: font family "Papyrus" is not available: use one of Inter, Lora, Roboto, Open Sans, Anton',
  },
  {
    name: 'substyle font_family not listed in fonts',
    design: edit((d) => (T(d).text = 'a <substyle font_family="Lora">b</substyle>')),
    path: '$.objects[0].text',
    message: 'not listed in $.fonts',
  },
  {
    name: 'substyle weight 1000',
    design: edit((d) => (T(d).text = '<substyle bold="1000">a</substyle>')),
    path: '$.objects[0].text',
    message: 'bold needs a numeric weight from 100 to 900',
  },
  {
    name: 'font_weight 1000',
    design: edit((d) => (T(d).font_weight = 1000)),
    path: '$.objects[0].font_weight',
    message: '900',
  },
  {
    name: 'font_style that is not normal or italic',
    design: edit((d) => (T(d).font_style = 'oblique')),
    path: '$.objects[0].font_style',
    message: 'italic',
  },
  {
    name: 'text_transform that is not a case change',
    design: edit((d) => (T(d).text_transform = 'upper')),
    path: '$.objects[0].text_transform',
    message: 'expected one of "none", "uppercase", "lowercase", "capitalize" but received the string "upper"',
  },
  {
    name: 'stroke colour that is not hex',
    design: edit((d) => (T(d).stroke = { color: 'black', width: 4 })),
    path: '$.objects[0].stroke.color',
    message: '#rrggbb',
  },
  {
    name: 'negative stroke width',
    design: edit((d) => (T(d).stroke = { color: '#000000', width: -2 })),
    path: '$.objects[0].stroke.width',
    message: 'expected at least 0 but received',
  },
  {
    name: 'stroke without a width',
    design: edit((d) => (T(d).stroke = { color: '#000000' })),
    path: '$.objects[0].stroke.width',
    message: 'expected a number but received nothing',
  },
  {
    name: 'stroke with an unknown field',
    design: edit((d) => (T(d).stroke = { color: '#000000', width: 2, join: 'miter' })),
    path: '$.objects[0].stroke.join',
    message: 'unknown field "join"',
  },
  {
    name: 'lang that is a language name, not a tag',
    design: edit((d) => (T(d).lang = 'chinese')),
    path: '$.objects[0].lang',
    message: 'expected a BCP 47 language tag',
  },
  {
    name: 'lang with subtags in an order BCP 47 does not allow',
    design: edit((d) => (T(d).lang = 'zh-TW-Hant')),
    path: '$.objects[0].lang',
    message: 'such as "ja", "zh-Hant", "zh-TW", "ko" or "en-US"',
  },
  {
    name: 'lang longer than 64 characters',
    design: edit((d) => (T(d).lang = `en-${'abcdefgh-'.repeat(7)}x`)),
    path: '$.objects[0].lang',
    message: 'expected a language tag of at most 64 characters',
  },
  {
    name: 'lang that is not a string',
    design: edit((d) => (T(d).lang = 17)),
    path: '$.objects[0].lang',
    message: 'expected a string but received the number 17',
  },
  { name: 'design lang that is not a tag', design: edit((d) => (d.lang = 'ja_JP')), path: '$.lang', message: 'expected a BCP 47 language tag' },
  {
    name: 'substyle lang that is not a tag',
    design: edit((d) => (T(d).text = 'Hello <substyle lang="japanese">世界</substyle>')),
    path: '$.objects[0].text',
    message:
      'substyle lang: expected a BCP 47 language tag: a language code, optionally with a script and a region, such as "ja", "zh-Hant", "zh-TW", "ko" or "en-US", received "japanese"',
  },
  {
    name: 'bad bold weight',
    design: edit((d) => (T(d).text = '<substyle bold="heavy">a</substyle>')),
    path: '$.objects[0].text',
    message: 'bold needs a numeric weight',
  },
  {
    name: 'bold weight out of range',
    design: edit((d) => (T(d).text = '<substyle bold="5000">a</substyle>')),
    path: '$.objects[0].text',
    message: 'bold needs a numeric weight',
  },
  { name: 'bad substyle color', design: edit((d) => (T(d).text = '<substyle color="red">a</substyle>')), path: '$.objects[0].text', message: 'substyle color' },
  {
    name: 'underline="yes"',
    design: edit((d) => (T(d).text = '<substyle underline="yes">a</substyle>')),
    path: '$.objects[0].text',
    message: 'underline is a bare attribute',
  },
  {
    name: 'link without (url:…)',
    design: edit((d) => (T(d).text = '<substyle link="https://example.com">a</substyle>')),
    path: '$.objects[0].text',
    message: 'link="(url:https://example.com)"',
  },
  {
    name: 'javascript: link',
    design: edit((d) => (T(d).text = '<substyle link="(url:javascript:alert(1))">a</substyle>')),
    path: '$.objects[0].text',
    message: 'must start with http://',
  },
  {
    name: 'malformed substyle attribute',
    design: edit((d) => (T(d).text = "<substyle bold='700'>a</substyle>")),
    path: '$.objects[0].text',
    message: 'name="value"',
  },

  // ── design: image references ────────────────────────────────────────────────────────────────
  {
    name: 'https URL as image path (template)',
    design: edit((d) => (I(d).path = 'https://example.com/a.png')),
    path: '$.objects[1].path',
    message: 'external image URLs are not allowed',
  },
  {
    name: 'https URL as shape background.path (template)',
    design: edit((d) => (S(d).background = { type: 'image', path: 'https://example.com/a.png' })),
    path: '$.objects[2].background.path',
    message: 'external image URLs are not allowed',
  },
  {
    name: 'file:///etc/passwd (template)',
    design: edit((d) => (I(d).path = 'file:///etc/passwd')),
    path: '$.objects[1].path',
    message: '"file:" references are not supported',
  },
  { name: 'absolute path (template)', design: edit((d) => (I(d).path = '/etc/passwd')), path: '$.objects[1].path', message: 'absolute paths are not allowed' },
  { name: '../ path (template)', design: edit((d) => (I(d).path = 'img/../../secret.png')), path: '$.objects[1].path', message: 'leaves the design folder' },
  {
    name: 'shape background type image without path (template)',
    design: edit((d) => (S(d).background = { type: 'image' })),
    path: '$.objects[2].background.path',
    message: 'no background.path',
  },
  {
    name: 'missing image file (template)',
    design: edit((d) => (I(d).path = 'missing.png')),
    path: '$.objects[1].path',
    message: 'no image file at "missing.png"',
  },
  {
    name: 'missing template image while the override sets only x',
    design: edit((d) => (I(d).path = 'missing.png')),
    overrides: { photo: { x: 20 } },
    path: '$.objects[1].path',
    message: 'no image file at "missing.png"',
  },
  {
    name: 'file that is not an image (template)',
    design: edit((d) => (I(d).path = 'garbage.png')),
    path: '$.objects[1].path',
    message: 'is not a readable image',
  },
  { name: 'unknown asset: name (template)', design: edit((d) => (I(d).path = 'asset:logo')), path: '$.objects[1].path', message: 'no asset named "logo"' },
  {
    name: 'image path with no baseDir and no resolver',
    options: { baseDir: undefined },
    path: '$.objects[1].path',
    message: 'pass `assets` or `baseDir`',
  },

  // ── design and overrides: image crop, focal point, corner radius, mask ──────────────────────
  {
    name: 'crop x above 1 (template)',
    design: edit((d) => (I(d).crop = { x: 1.5, y: 0, width: 0.5, height: 1 })),
    path: '$.objects[1].crop.x',
    message: 'expected a fraction of the image from 0 (left/top edge) to 1 (right/bottom edge) but received the number 1.5',
  },
  {
    name: 'crop y below 0 (template)',
    design: edit((d) => (I(d).crop = { x: 0, y: -0.1, width: 0.5, height: 0.5 })),
    path: '$.objects[1].crop.y',
    message: 'from 0 (left/top edge) to 1',
  },
  {
    name: 'crop width 0 (template)',
    design: edit((d) => (I(d).crop = { x: 0, y: 0, width: 0, height: 1 })),
    path: '$.objects[1].crop.width',
    message: 'expected a crop size greater than 0 (a fraction of the image, up to 1) but received the number 0',
  },
  {
    name: 'crop reaching past the right edge (template)',
    design: edit((d) => (I(d).crop = { x: 0.6, y: 0, width: 0.5, height: 1 })),
    path: '$.objects[1].crop.width',
    message: 'expected x + width to be at most 1 (the crop must lie inside the image): lower width to 0.4 or less',
  },
  {
    name: 'crop in pixels, not fractions (override)',
    overrides: { photo: { crop: { x: 0, y: 0, width: 400, height: 300 } } },
    path: `${O}.photo.crop.width`,
    message: 'expected a crop size of at most 1 (the whole image) but received the number 400',
  },
  {
    name: 'crop without height (override)',
    overrides: { photo: { crop: { x: 0, y: 0, width: 0.5 } } },
    path: `${O}.photo.crop.height`,
    message: 'but received nothing',
  },
  {
    name: 'focal point x above 1 (template)',
    design: edit((d) => (I(d).config = { focal_point: { x: 2, y: 0.5 } })),
    path: '$.objects[1].config.focal_point.x',
    message: 'expected a fraction of the image from 0 (left/top edge) to 1 (right/bottom edge) but received the number 2',
  },
  {
    name: 'focal point y negative (dotted override key)',
    overrides: { photo: { 'config.focal_point': { x: 0.5, y: -1 } } },
    path: `${O}.photo.config.focal_point.y`,
    message: 'but received the number -1',
  },
  {
    name: 'focal point misspelt as config.focus (template)',
    design: edit((d) => (I(d).config = { focus: { x: 0.5, y: 0.5 } })),
    path: '$.objects[1].config.focus',
    message: 'unknown field "focus"',
  },
  {
    name: 'negative corner_radius (template)',
    design: edit((d) => (I(d).corner_radius = -4)),
    path: '$.objects[1].corner_radius',
    message: 'expected a corner radius of at least 0 pixels (0 = square corners) but received the number -4',
  },
  {
    name: 'negative corner_radius (override)',
    overrides: { photo: { corner_radius: -1 } },
    path: `${O}.photo.corner_radius`,
    message: 'at least 0 pixels',
  },
  {
    name: 'unknown mask (template)',
    design: edit((d) => (I(d).mask = 'square')),
    path: '$.objects[1].mask',
    message: 'expected one of "none", "circle", "ellipse" but received the string "square"',
  },
  { name: 'unknown mask (override)', overrides: { photo: { mask: 'star' } }, path: `${O}.photo.mask`, message: '"circle"' },
  {
    name: 'filters.grayscale 2 (template)',
    design: edit((d) => (I(d).filters = { grayscale: 2 })),
    path: '$.objects[1].filters.grayscale',
    message: 'expected a grayscale amount from 0 (none) to 1 (full) but received the number 2',
  },
  {
    name: 'filters.brightness -1 (override)',
    overrides: { photo: { filters: { brightness: -1 } } },
    path: `${O}.photo.filters.brightness`,
    message: 'from 0 to 5',
  },
  {
    name: 'filters.blur is not a colour filter (template)',
    design: edit((d) => (I(d).filters = { blur: 4 })),
    path: '$.objects[1].filters.blur',
    message: 'unknown field "blur"',
  },
  { name: 'flip_x as a string (override)', overrides: { photo: { flip_x: 'yes' } }, path: `${O}.photo.flip_x`, message: 'received the string "yes"' },
  {
    name: 'image border width -1 (template)',
    design: edit((d) => (I(d).border = { width: -1, color: '#ffffff' })),
    path: '$.objects[1].border.width',
    message: 'expected a border width of at least 0 pixels (0 = no border) but received the number -1',
  },
  {
    name: 'image border colour alone on a picture without one (override)',
    overrides: { photo: { border: { color: '#ffffff' } } },
    path: `${O}.photo.border.width`,
    message: 'the image has no border to restyle: give border.width (in pixels) as well',
  },
  {
    name: 'text background mode "pill" (template)',
    design: edit((d) => (T(d).background = { color: '#ffeb3b', mode: 'pill' })),
    path: '$.objects[0].background.mode',
    message: 'expected one of "lines", "box", "full_width" but received the string "pill"',
  },
  {
    name: 'text background padding -2 (override)',
    design: edit((d) => (T(d).background = { color: '#ffeb3b' })),
    overrides: { headline: { background: { padding: -2 } } },
    path: `${O}.headline.background.padding`,
    message: 'at least 0 pixels',
  },
  {
    name: 'text background padding alone on a text without one (override)',
    overrides: { headline: { background: { padding: 8 } } },
    path: `${O}.headline.background.color`,
    message: 'the text has no background to restyle: give background.color',
  },
  {
    name: 'strikethrough as a number (override)',
    overrides: { headline: { strikethrough: 1 } },
    path: `${O}.headline.strikethrough`,
    message: 'received the number 1',
  },
  {
    name: 'substyle strikethrough with a value (template)',
    design: edit((d) => (T(d).text = 'Was <substyle strikethrough="yes">9.99</substyle>')),
    path: '$.objects[0].text',
    message: 'strikethrough is a bare attribute',
  },
  { name: 'mask on a shape (override)', overrides: { box: { mask: 'circle' } }, path: `${O}.box.mask`, message: 'unknown field "mask" on a shape object' },

  // ── render options ──────────────────────────────────────────────────────────────────────────
  { name: 'format "gif"', options: { format: 'gif' }, path: '$.format', message: 'expected "png", "jpg", "webp", "avif", "pdf" or "mp4" but received "gif"' },
  { name: 'format "webm"', options: { format: 'webm' }, path: '$.format', message: 'but received "webm"' },
  { name: 'format missing', options: { format: undefined }, path: '$.format', message: 'expected "png", "jpg", "webp", "avif", "pdf" or "mp4"' },
  { name: 'jpg quality 0', options: { format: 'jpg', jpg: { quality: 0 } }, path: '$.jpg.quality', message: 'at least 1' },
  { name: 'jpg quality 101', options: { format: 'jpg', jpg: { quality: 101 } }, path: '$.jpg.quality', message: 'at most 100' },
  { name: 'jpg quality 2.5', options: { format: 'jpg', jpg: { quality: 2.5 } }, path: '$.jpg.quality', message: 'integer' },
  { name: 'png compressionLevel 10', options: { png: { compressionLevel: 10 } }, path: '$.png.compressionLevel', message: 'at most 9' },
  { name: 'png compressionLevel -1', options: { png: { compressionLevel: -1 } }, path: '$.png.compressionLevel', message: 'at least 0' },
  { name: 'png compressionLevel as string', options: { png: { compressionLevel: '6' } }, path: '$.png.compressionLevel', message: 'received the string "6"' },
  { name: 'unknown png option', options: { png: { level: 6 } }, path: '$.png.level', message: 'unknown field "level"' },
  { name: 'unknown render option', options: { quality: 80 }, path: '$.quality', message: 'unknown field "quality"' },
  { name: 'assets is not a function', options: { assets: { logo: 'logo.png' } }, path: '$.assets', message: 'expected a function' },
  { name: 'empty baseDir', options: { baseDir: '' }, path: '$.baseDir', message: 'at least 1' },
];

// ── helpers ─────────────────────────────────────────────────────────────────────────────────────

function optionsOf(row: Row): RenderOptions {
  return { design: 'design' in row ? row.design : base(), overrides: row.overrides, format: 'png', baseDir: dir, ...row.options } as RenderOptions;
}

let bytesBefore: Buffer | undefined;

// ── the table ───────────────────────────────────────────────────────────────────────────────────

describe('bad input is refused with a validation_error at the exact JSON path', () => {
  it('has at least 50 rows with unique names', () => {
    expect(rows.length).toBeGreaterThanOrEqual(50);
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
  });

  it('renders the base design before any bad input', async () => {
    const result = await render({ design: base(), format: 'png', baseDir: dir });
    bytesBefore = result.bytes;
    expect(result.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await expectRefused(optionsOf(row), row);
  });
});

describe('bad input changes nothing and never crashes', () => {
  it('no bad row crashes the engine, even when all run at once', async () => {
    const settled = await Promise.allSettled(rows.map((r) => render(optionsOf(r))));
    // Whether each row is refused correctly is the table's job; here: nothing escapes as a non-ImprintError.
    const crashes = settled.flatMap((s, i) =>
      s.status === 'rejected' && !(s.reason instanceof ImprintError) ? [`${rows[i]!.name}: ${String(s.reason)}`] : [],
    );
    expect(crashes).toEqual([]);
  });

  it('a valid render of the base design still succeeds, returns a PNG, and leaves the design untouched', async () => {
    const design = base();
    const snapshot = structuredClone(design);
    const overrides = {
      headline: { text: 'Still <substyle underline>fine</substyle>', 'config.text_replacement_strategy': 'fixed-width' },
      box: { background: { color: '#43a047' } },
    };
    const overridesSnapshot = structuredClone(overrides);

    const plain = await render({ design, format: 'png', baseDir: dir });
    expect(plain.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(plain.mimeType).toBe('image/png');
    expect([plain.width, plain.height]).toEqual([200, 120]);
    expect(design).toEqual(snapshot);
    // Same input, same bytes: nothing the bad rows did (caches, shared state) leaks into later renders.
    expect(bytesBefore).toBeDefined();
    expect(plain.bytes.equals(bytesBefore!)).toBe(true);

    const overridden = await render({ design, overrides, format: 'png', baseDir: dir });
    expect(overridden.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(design).toEqual(snapshot);
    expect(overrides).toEqual(overridesSnapshot);

    const fromText = await render({ design: JSON.stringify(design), format: 'png', baseDir: dir });
    expect(fromText.bytes.equals(plain.bytes)).toBe(true);
  });
});
