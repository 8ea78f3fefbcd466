// The form generated from the override schemas the service validates with (overridesJsonSchema(),
// built from each object type's zod schema — the same JSON Schema GET /public/v2/designs/<id> sends
// as override_schema): every accepted field gets a control of the right kind, nothing is hand-kept.
import { describe, expect, it } from 'vitest';
import { overridesJsonSchema } from '../../src/design/json-schema.js';
import type { JsonSchema } from '../src/lib/json-schema.js';
import { allFields, colourInputValue, formFields, numberInputBounds, parseNumberInput, parseStringInput, type Field } from '../src/lib/schema-form.js';

const defs = (overridesJsonSchema() as { $defs: Record<string, JsonSchema> }).$defs;
const byId = (fields: Field[]) => Object.fromEntries(allFields(fields).map((f) => [f.id, f]));

describe('schema → form', () => {
  it('has a field for every property each object type accepts, and none for those it refuses', () => {
    for (const [type, schema] of Object.entries(defs)) {
      const accepted = Object.entries(schema.properties ?? {})
        .filter(([, s]) => !(s.not !== undefined && s.type === undefined))
        .map(([k]) => k);
      expect(
        formFields(schema).map((f) => f.key),
        type,
      ).toEqual(accepted);
    }
    // A video object's clip fields are "not accepted": its form has only the placement fields, blur and shadow.
    expect(formFields(defs.video!).map((f) => f.key)).toEqual(['x', 'y', 'width', 'height', 'rotation', 'opacity', 'hidden', 'blur', 'shadow']);
  });

  it('gives a text object a substyle text area, enum selects and the nested config group', () => {
    const f = byId(formFields(defs.text!));
    expect(f.text).toMatchObject({ kind: 'string', widget: 'markup', maxLength: 10000 });
    expect(f.text_align).toMatchObject({ kind: 'enum', options: ['left', 'center', 'right', 'justify', 'start', 'end'] });
    expect(f.config).toMatchObject({ kind: 'group' });
    expect(f['config.text_replacement_strategy']).toMatchObject({
      kind: 'enum',
      options: ['fit', 'fixed-width'],
      path: ['config', 'text_replacement_strategy'],
    });
    expect(f['config.text_replacement_strategy_fit_valign']).toMatchObject({ kind: 'enum', options: ['top', 'center', 'bottom'] });
    expect(f.hidden).toMatchObject({ kind: 'boolean' });
    expect(f.x).toMatchObject({ kind: 'number', integer: false, min: -100000, max: 100000 });
    expect(f.width).toMatchObject({ kind: 'number', exclusiveMin: 0, max: 100000 });
  });

  it('gives images and shape backgrounds the image widget, colours the colour widget', () => {
    expect(byId(formFields(defs.image!)).path).toMatchObject({ kind: 'string', widget: 'image' });
    expect(byId(formFields(defs.image!))['config.media_replacement_strategy']).toMatchObject({ kind: 'enum' });
    const shape = byId(formFields(defs.shape!));
    expect(shape['background.path']).toMatchObject({ widget: 'image' });
    expect(shape['background.color']).toMatchObject({ widget: 'color' });
    expect(shape['background.type']).toMatchObject({ kind: 'enum', options: ['color', 'image', 'linear_gradient', 'radial_gradient'] });
    // Gradient stops are a list of objects: edited as JSON; angle and radius are numbers.
    expect(shape['background.stops']).toMatchObject({ kind: 'json' });
    expect(shape['background.angle']).toMatchObject({ kind: 'number', min: -3600, max: 3600 });
    expect(shape['shadow.color']).toMatchObject({ widget: 'color' });
    expect(shape['shadow.blur']).toMatchObject({ kind: 'number', min: 0, max: 500 });
    expect(shape['border.width']).toMatchObject({ kind: 'number', min: 0, max: 1000 });
    expect(shape['border.color']).toMatchObject({ widget: 'color' });
    expect(shape['border.style']).toMatchObject({ kind: 'enum', options: ['solid', 'dashed'] });
  });

  it('gives a chart its data grid and a mockup its per-layer fields', () => {
    expect(byId(formFields(defs.chart!)).chart_data).toMatchObject({ kind: 'chart' });
    const layers = byId(formFields(defs.mockup!)).mockup_data;
    expect(layers?.kind).toBe('layers');
    const layer = layers?.kind === 'layers' ? byId(layers.layer) : {};
    expect(layer.image_url).toMatchObject({ kind: 'string', widget: 'image' });
    expect(layer.color).toMatchObject({ kind: 'string', widget: 'color' });
    expect(layer.hidden).toMatchObject({ kind: 'boolean' });
  });

  it('edits what it does not know as JSON rather than dropping it', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { stops: { type: 'array', items: { type: 'object', properties: { at: { type: 'number' } } } }, n: { type: 'integer', minimum: 1 } },
    };
    const f = byId(formFields(schema));
    expect(f.stops).toMatchObject({ kind: 'json' });
    expect(f.n).toMatchObject({ kind: 'number', integer: true, min: 1 });
  });
});

describe('typed input', () => {
  const width = byId(formFields(defs.text!)).width as Extract<Field, { kind: 'number' }>;
  const opacity = byId(formFields(defs.text!)).opacity as Extract<Field, { kind: 'number' }>;

  it('checks numbers against the schema bounds, empty meaning "no override"', () => {
    expect(parseNumberInput('920', width)).toEqual({ ok: true, value: 920 });
    expect(parseNumberInput(' 12.5 ', width)).toEqual({ ok: true, value: 12.5 });
    expect(parseNumberInput('', width)).toEqual({ ok: true, value: undefined });
    expect(parseNumberInput('0', width)).toEqual({ ok: false, message: 'must be more than 0' });
    expect(parseNumberInput('1.5', opacity)).toEqual({ ok: false, message: 'must be at most 1' });
    expect(parseNumberInput('abc', width)).toEqual({ ok: false, message: '"abc" is not a number' });
    expect(parseNumberInput('2.5', { integer: true })).toEqual({ ok: false, message: 'must be a whole number' });
    expect(numberInputBounds(width)).toEqual({ step: 'any', min: 0, max: 100000 });
  });

  it('checks strings against the pattern; colours as hex', () => {
    const colour = byId(formFields(defs.shape!))['border.color'] as Extract<Field, { kind: 'string' }>;
    expect(parseStringInput('#1e88e5', colour)).toEqual({ ok: true, value: '#1e88e5' });
    expect(parseStringInput('red', colour)).toEqual({ ok: false, message: 'a hex colour such as #1e88e5' });
    expect(parseStringInput('', colour)).toEqual({ ok: true, value: undefined });
    expect(colourInputValue('#AbC')).toBe('#aabbcc');
    expect(colourInputValue('#11223380')).toBe('#112233');
    expect(colourInputValue('red')).toBeUndefined();
  });
});
