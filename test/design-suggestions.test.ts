// Unknown fields anywhere in a design (top level, objects, nested fields, animations, slides) are
// refused with the closest known field suggested; `$schema` (for editors) is accepted and ignored.
import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean } from '../src/format/suggest.js';
import { render, type RenderOptions } from '../src/engine.js';
import { ImprintError } from '../src/errors.js';
import { FIX_HINT, RAW_ZOD } from './support/refusal.js';

type Json = Record<string, unknown>;

/** Render options for hand-made (and deliberately wrong) documents. */
const png = (design: Json, overrides?: Json): RenderOptions => ({
  design: design as RenderOptions['design'],
  overrides: overrides as RenderOptions['overrides'],
  format: 'png',
});

const shape = (extra: Json = {}): Json => ({
  type: 'shape',
  name: 'box',
  x: 10,
  y: 10,
  width: 80,
  height: 40,
  background: { type: 'color', color: '#1e88e5' },
  ...extra,
});
const text = (extra: Json = {}): Json => ({ type: 'text', name: 'headline', x: 10, y: 60, width: 180, height: 40, text: 'Hello', ...extra });
const design = (top: Json = {}, objects: Json[] = [shape(), text()]): Json => ({ width: 200, height: 120, objects, ...top });

interface Row {
  name: string;
  design: Json;
  overrides?: Json;
  path: string;
  /** The whole message, or all of it before "; <what> has: <field list>" when `listed`. */
  message: string;
  /** The message ends with the fields the object has (their list grows with the format). */
  listed?: boolean;
}

const rows: Row[] = [
  {
    name: 'an object field named by its last word',
    design: design({}, [shape({ radius: 12 })]),
    path: '$.objects[0].radius',
    message: 'unknown field "radius" on a shape object: did you mean "corner_radius" or "inner_radius"? Rename it or remove it',
    listed: true,
  },
  {
    name: 'a top-level field misspelt',
    design: design({ backgound: { type: 'color', color: '#ffffff' } }),
    path: '$.backgound',
    message: 'unknown field "backgound" on a design: did you mean "background"? Rename it or remove it',
    listed: true,
  },
  {
    name: 'a nested field in British spelling',
    design: design({}, [shape({ border: { width: 2, colour: '#000000' } })]),
    path: '$.objects[0].border.colour',
    message: 'unknown field "colour" on border: did you mean "color"? Rename it or remove it',
    listed: true,
  },
  {
    name: 'a field in camelCase',
    design: design({}, [text({ fontSize: 30 })]),
    path: '$.objects[0].fontSize',
    message: 'unknown field "fontSize" on a text object: did you mean "font_size"? Rename it or remove it',
    listed: true,
  },
  {
    name: 'a word shared by several fields',
    design: design({}, [text({ font: 'Lora' })]),
    path: '$.objects[0].font',
    message: 'unknown field "font" on a text object: did you mean "font_family", "font_size" or "font_weight"? Rename it or remove it',
    listed: true,
  },
  {
    name: 'a field of an animation',
    design: design({ duration: 3 }, [shape({ animations: [{ type: 'fade_in', duration: 1, easeing: 'linear' }] })]),
    path: '$.objects[0].animations[0].easeing',
    message: 'unknown field "easeing" on a fade_in animation: did you mean "easing"? Rename it or remove it',
    listed: true,
  },
  {
    name: 'an object on a slide',
    design: { width: 200, height: 120, slides: [{ duration: 2, objects: [shape({ corner_raduis: 8 })] }] },
    path: '$.slides[0].objects[0].corner_raduis',
    message: 'unknown field "corner_raduis" on a shape object: did you mean "corner_radius"? Rename it or remove it',
    listed: true,
  },
  {
    name: 'a misspelt required field: reported as missing, with the misspelling named',
    design: design({ duration: 3 }, [shape({ animations: [{ type: 'fade_in', durration: 1 }] })]),
    path: '$.objects[0].animations[0].duration',
    message: 'expected a number but received nothing (the field is missing); "durration" looks like a misspelling: rename it to "duration"',
  },
  {
    name: 'nothing close: no guess',
    design: design({ title: 'Spring' }),
    path: '$.title',
    message: 'unknown field "title" on a design: remove it',
    listed: true,
  },
  {
    name: 'an override field, through the same helper',
    design: design(),
    overrides: { box: { backgroud: { color: '#43a047' } } },
    path: '$.objects_overrides.box.backgroud',
    message: 'unknown field "backgroud" on a shape object: did you mean "background"? Rename it or remove it',
    listed: true,
  },
];

describe('unknown design fields suggest the closest known field', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_, row) => {
    const e = await render(png(row.design, row.overrides)).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ImprintError);
    const err = e as ImprintError;
    expect({ code: err.code, path: err.path }).toEqual({ code: 'validation_error', path: row.path });
    if (row.listed) {
      expect(err.message.startsWith(`${row.message}; `), err.message).toBe(true);
      expect(err.message.slice(row.message.length)).toMatch(/^; [\w[\] ]+ has: [\w$]+(, [\w$]+)*$/);
    } else expect(err.message).toBe(row.message);
    expect(err.message).not.toMatch(RAW_ZOD);
    expect(err.message).toMatch(FIX_HINT);
  });

  it('lists the suggested field among the fields the object has', async () => {
    const e = await render(png(design({}, [shape({ radius: 12 })]))).catch((err: unknown) => err);
    expect(
      String((e as Error).message)
        .split(' has: ')[1]!
        .split(', '),
    ).toContain('corner_radius');
  });
});

describe('closestNames', () => {
  const fields = ['x', 'y', 'width', 'height', 'corner_radius', 'background', 'border', 'font_size', 'min_font_size'];
  it.each([
    ['heigth', ['height']],
    ['Width', ['width']],
    ['corner-radius', ['corner_radius']],
    ['radius', ['corner_radius']],
    ['size', ['font_size']],
    ['border_color', ['border']],
    ['z', []],
    ['title', []],
    ['', []],
  ] as const)('%s → %j', (key, expected) => expect(closestNames(key, fields)).toEqual(expected));

  it('words the guess for a message', () => {
    expect(didYouMean('colour', ['color', 'style'])).toBe('did you mean "color"?');
    expect(didYouMean('q', ['color'])).toBe('');
  });
});

describe('$schema', () => {
  it('is accepted at the top level of a design and ignored by rendering', async () => {
    const plain = design();
    const withSchema = { $schema: '../../docs/template.schema.json', ...plain };
    const [a, b] = await Promise.all([render(png(plain)), render(png(withSchema))]);
    expect(b.bytes.equals(a.bytes)).toBe(true);
  });

  it('must be a string', async () => {
    const e = await render(png({ $schema: 1, ...design() })).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ImprintError);
    expect((e as ImprintError).path).toBe('$.$schema');
    expect((e as ImprintError).message).toBe('expected a string but received the number 1');
  });

  it('is still refused inside objects, where editors do not look for it', async () => {
    const e = await render(png(design({}, [shape({ $schema: 'x' })]))).catch((err: unknown) => err);
    expect((e as ImprintError).path).toBe('$.objects[0].$schema');
  });
});
