// The Studio's own object fields, `locked` and `group`: a design keeps them, bad values are refused at
// their path, and they change nothing a render makes nor anything a request may override.
import { describe, expect, it } from 'vitest';
import { ImprintError, parseDesign, render } from '../src/index.js';
import type { DesignInput } from '../src/engine.js';

const plain = {
  width: 240,
  height: 120,
  objects: [
    { type: 'shape', name: 'button', shape: 'rounded_rect', x: 40, y: 30, width: 160, height: 60, background: { type: 'color', color: '#e53935' } },
    { type: 'text', name: 'label', x: 40, y: 30, width: 160, height: 60, text: 'Shop now', font_size: 24, color: '#ffffff', text_align: 'center' },
  ],
};
const withFlags = {
  ...plain,
  objects: [
    { ...plain.objects[0], locked: true, group: 'group_1' },
    { ...plain.objects[1], locked: false, group: 'group_1' },
  ],
};

const errorOf = async (p: Promise<unknown>): Promise<ImprintError> => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ImprintError);
  return e as ImprintError;
};

describe('Studio fields locked and group', () => {
  it('are kept by parse', () => {
    const d = parseDesign(withFlags);
    expect(d.objects?.map((o) => [o.locked, o.group])).toEqual([
      [true, 'group_1'],
      [false, 'group_1'],
    ]);
  });

  it('refuse a wrong type or an empty group at the field', () => {
    const pathOf = (patch: Record<string, unknown>): string => {
      try {
        parseDesign({ ...plain, objects: [{ ...plain.objects[0], ...patch }] });
      } catch (e) {
        expect(e).toBeInstanceOf(ImprintError);
        return (e as ImprintError).path;
      }
      return 'accepted';
    };
    expect(pathOf({ locked: 'yes' })).toBe('$.objects[0].locked');
    expect(pathOf({ group: '' })).toBe('$.objects[0].group');
    expect(pathOf({ group: 'g'.repeat(201) })).toBe('$.objects[0].group');
  });

  it('change no byte of a png or a pdf', async () => {
    for (const format of ['png', 'pdf'] as const) {
      const a = await render({ design: plain as DesignInput, format });
      const b = await render({ design: withFlags as DesignInput, format });
      expect(Buffer.compare(a.bytes, b.bytes), format).toBe(0);
    }
  });

  it('cannot be overridden', async () => {
    for (const field of ['locked', 'group']) {
      const e = await errorOf(
        render({ design: withFlags as DesignInput, overrides: { button: { [field]: field === 'locked' ? false : 'g' } }, format: 'png' }),
      );
      expect(e.code).toBe('validation_error');
      expect(e.message).toContain(field);
    }
  });
});
