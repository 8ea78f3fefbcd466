// Overrides diffing: only fields that differ from the template are sent, nested objects keep only
// their changed leaves, an edit back to the template's value removes the override, and interface B's
// list shape.
import { describe, expect, it } from 'vitest';
import { byObjectName, deepEqual, editEntry, effectiveValue, getAt, setAt, toInterfaceB, withEntry } from '../src/lib/overrides.js';

const VALUES = { x: 64, y: 60, text: 'Hello', text_align: 'center', config: { text_replacement_strategy: 'fit' }, border: { width: 8, color: '#f6f1ea' } };

describe('overrides', () => {
  it('keeps a field only while it differs from the template', () => {
    let e = editEntry(VALUES, undefined, ['text'], 'Hi');
    expect(e).toEqual({ text: 'Hi' });
    e = editEntry(VALUES, e, ['x'], 80);
    expect(e).toEqual({ text: 'Hi', x: 80 });
    e = editEntry(VALUES, e, ['text'], 'Hello');
    expect(e).toEqual({ x: 80 });
    e = editEntry(VALUES, e, ['x'], undefined);
    expect(e).toEqual({});
  });

  it('writes nested fields as nested objects with only the changed leaf, and prunes emptied parents', () => {
    let e = editEntry(VALUES, undefined, ['border', 'style'], 'dashed');
    expect(e).toEqual({ border: { style: 'dashed' } });
    e = editEntry(VALUES, e, ['config', 'text_replacement_strategy_fit_valign'], 'top');
    expect(e).toEqual({ border: { style: 'dashed' }, config: { text_replacement_strategy_fit_valign: 'top' } });
    e = editEntry(VALUES, e, ['border', 'style'], undefined);
    expect(e).toEqual({ config: { text_replacement_strategy_fit_valign: 'top' } });
  });

  it('shows the override where there is one and the template value otherwise', () => {
    const e = { border: { color: '#000000' } };
    expect(effectiveValue(VALUES, e, ['border', 'color'])).toBe('#000000');
    expect(effectiveValue(VALUES, e, ['border', 'width'])).toBe(8);
    expect(effectiveValue(VALUES, e, ['hidden'])).toBeUndefined();
  });

  it('compares arrays and objects by value (a chart table edited back is no override)', () => {
    const chart = {
      chart_data: [
        [null, 'a'],
        ['s', 1],
      ],
    };
    expect(
      editEntry(
        chart,
        undefined,
        ['chart_data'],
        [
          [null, 'a'],
          ['s', 1],
        ],
      ),
    ).toEqual({});
    expect(
      editEntry(
        chart,
        undefined,
        ['chart_data'],
        [
          [null, 'a'],
          ['s', 2],
        ],
      ),
    ).toEqual({
      chart_data: [
        [null, 'a'],
        ['s', 2],
      ],
    });
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  });

  it('drops an emptied entry from the overrides and never shares objects with the previous state', () => {
    const before = { headline: { text: 'x' }, photo: { x: 1 } };
    const after = withEntry(before, 'headline', {});
    expect(after).toEqual({ photo: { x: 1 } });
    expect(before).toEqual({ headline: { text: 'x' }, photo: { x: 1 } });
    const entry = { border: { width: 1 } };
    const set = setAt(entry, ['border', 'color'], '#fff');
    expect(entry).toEqual({ border: { width: 1 } });
    expect(getAt(set, ['border', 'color'])).toBe('#fff');
  });

  it('treats a name like __proto__ as data', () => {
    const e = editEntry({}, undefined, ['__proto__'], 'x');
    expect(Object.keys(e)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('lists interface B overrides: objects then slides', () => {
    expect(toInterfaceB({ title: { text: 'Hi' } }, { intro: { path: 'u' } })).toEqual([
      { name: 'title', object: { text: 'Hi' } },
      { name: 'intro', slide: { path: 'u' } },
    ]);
  });
});

describe('byObjectName', () => {
  const list = toInterfaceB({ headline: { text: 'x' }, photo: { x: 1 } }, { intro: { path: 'u' } });
  it('turns a list-form error path back into the object name and field', () => {
    expect(byObjectName(['objects_overrides', 1, 'object', 'x'], list)).toEqual(['objects_overrides', 'photo', 'x']);
    expect(byObjectName(['objects_overrides', 0, 'object', 'config', 'text_replacement_strategy'], list)).toEqual([
      'objects_overrides',
      'headline',
      'config',
      'text_replacement_strategy',
    ]);
  });
  it('leaves slide entries, map paths and unknown indexes as they are', () => {
    expect(byObjectName(['objects_overrides', 2, 'slide', 'path'], list)).toEqual(['objects_overrides', 2, 'slide', 'path']);
    expect(byObjectName(['objects_overrides', 'headline', 'text'], list)).toEqual(['objects_overrides', 'headline', 'text']);
    expect(byObjectName(['objects_overrides', 9, 'object', 'x'], list)).toEqual(['objects_overrides', 9, 'object', 'x']);
  });
});
