// The editor's operations on design JSON: every added object is one the engine accepts, names stay
// unique and valid override keys, refusals name the path as the engine does, locked objects stay put,
// inputs are never changed, and only what an operation touches is new.
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../src/design/parse.js';
import { LIMITS } from '../../src/format/fields.js';
import { OBJECT_TYPES } from '../../src/objects/types.js';
import { SHAPE_OUTLINES } from '../../src/scene/scene.js';
import {
  ADDABLE_TYPES,
  addObject,
  assetsOf,
  blankDesign,
  copyObjects,
  deleteObjects,
  DEFAULT_CHART_DATA,
  duplicateObjects,
  findByName,
  groupObjects,
  MAX_NAME_LENGTH,
  MAX_OBJECTS,
  moveObjects,
  moveToIndex,
  normalAngle,
  objectAt,
  objectsInRect,
  pasteObjects,
  readClipboard,
  renameObject,
  reorder,
  resizeObjects,
  rotateObjects,
  selectionBounds,
  setBox,
  setHidden,
  setLocked,
  setRotation,
  SHAPE_KINDS,
  sharedNames,
  SIZE_PRESETS,
  ungroupObjects,
  uniqueName,
  updateObject,
  withGroupMates,
  type DesignJson,
  type NewObject,
  type ObjectJson,
  type OpResult,
  type Problem,
} from '../src/lib/design-ops.js';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

const shape = (name: string | undefined, x: number, y: number, more: Partial<ObjectJson> = {}): ObjectJson => ({
  type: 'shape',
  ...(name === undefined ? {} : { name }),
  x,
  y,
  width: 100,
  height: 50,
  background: { type: 'color', color: '#1e88e5' },
  ...more,
});
const text = (name: string, x: number, y: number, more: Partial<ObjectJson> = {}): ObjectJson => ({
  type: 'text',
  name,
  x,
  y,
  width: 200,
  height: 60,
  text: 'Hello',
  ...more,
});

/** A frozen design: an operation that wrote into its input would throw. */
const card = (objects: ObjectJson[], more: Partial<DesignJson> = {}): DesignJson => deepFreeze({ width: 1080, height: 1080, objects, ...more });

const ok = (r: OpResult): { design: DesignJson; selection: number[] } => {
  if (!r.ok) throw new Error(`${r.error.path}: ${r.error.message}`);
  return r;
};
const refused = (r: OpResult | { ok: false; error: Problem } | { ok: true }): Problem => {
  if (r.ok) throw new Error('expected a refusal');
  return (r as { error: Problem }).error;
};
/** The engine's own check: throws its validation_error if the design is not a valid template. */
const valid = (d: DesignJson) => parseDesign(JSON.parse(JSON.stringify(d)));

describe('design operations', () => {
  it('repeats the engine lists and limits it names', () => {
    expect([...ADDABLE_TYPES].sort()).toEqual([...OBJECT_TYPES].sort());
    expect([...SHAPE_KINDS]).toEqual([...SHAPE_OUTLINES]);
    expect(MAX_NAME_LENGTH).toBe(LIMITS.maxNameLength);
    expect(MAX_OBJECTS).toBe(LIMITS.maxObjects);
  });

  it('adds an object of every type and every shape kind, centred, named uniquely, each accepted by the engine', () => {
    let d = card([]);
    const specs: NewObject[] = [
      { type: 'text' },
      { type: 'text', text: 'Second' },
      { type: 'image', path: 'asset:photo', size: { width: 1600, height: 900 } },
      ...SHAPE_KINDS.map((k): NewObject => ({ type: 'shape', shape: k })),
      { type: 'line' },
      { type: 'svg', path: 'icons/star.svg' },
      { type: 'chart' },
      { type: 'mockup', base: 'asset:phone' },
      { type: 'video', path: 'asset:clip' },
    ];
    for (const spec of specs) {
      const r = ok(addObject(d, spec));
      expect(r.selection).toEqual([d.objects!.length]);
      d = deepFreeze(r.design);
      const o = d.objects![r.selection[0]!]!;
      expect(o.type).toBe(spec.type);
      expect(Math.abs(o.x + o.width / 2 - 540)).toBeLessThanOrEqual(1);
      expect(Math.abs(o.y + o.height / 2 - 540)).toBeLessThanOrEqual(1);
    }
    const names = d.objects!.map((o) => o.name);
    expect(names.slice(0, 5)).toEqual(['text', 'text_2', 'image', 'shape', 'shape_2']);
    expect(new Set(names).size).toBe(names.length);
    expect(d.objects![2]).toMatchObject({ width: 540, height: 304 });
    expect(d.objects!.find((o) => o.type === 'chart')!.chart_data).toEqual(DEFAULT_CHART_DATA);
    expect(d.objects!.find((o) => o.shape === 'polygon')!.vertices).toHaveLength(3);
    expect(() => valid(d)).not.toThrow();
  });

  it('places an added object where it is dropped, in a slide, with the font the design lists', () => {
    const d = deepFreeze({ width: 800, height: 600, fonts: ['Lora'], slides: [{ duration: 2, objects: [] }] });
    const r = ok(addObject(d, { type: 'text' }, { slide: 0, at: { x: 100, y: 100 } }));
    const o = r.design.slides![0]!.objects[0]!;
    expect(o.font_family).toBe('Lora');
    expect(o.x + o.width / 2).toBeCloseTo(100, 0);
    expect(() => valid(r.design)).not.toThrow();
    expect(refused(addObject(d, { type: 'text' }))).toMatchObject({ path: '$.slides', message: expect.stringContaining('say which slide') });
    expect(refused(addObject(d, { type: 'text' }, { slide: 3 })).message).toContain('there is no slide 3');
  });

  it('refuses a file type without its file, and a list that is full', () => {
    expect(refused(addObject(card([]), { type: 'image', path: '' }))).toEqual({
      path: '$.objects[0].path',
      message: 'expected a picture: upload one or choose an earlier upload',
    });
    expect(refused(addObject(card([]), { type: 'mockup', base: '  ' })).path).toBe('$.objects[0].base');
    expect(refused(addObject(card([]), { type: 'shape', shape: 'blob' as never })).path).toBe('$.objects[0].shape');
    const full = card(Array.from({ length: MAX_OBJECTS }, (_, i) => shape(undefined, i, 0)));
    expect(refused(addObject(full, { type: 'text' })).message).toContain('at most 1000 objects');
  });

  it('makes blank designs of every size preset that the engine accepts', () => {
    for (const p of SIZE_PRESETS) {
      const r = blankDesign(p);
      if (!r.ok) throw new Error(r.error.message);
      expect(() => valid(r.design)).not.toThrow();
      expect([r.design.width, r.design.height, r.design.dpi]).toEqual([p.width, p.height, p.dpi]);
    }
    expect(SIZE_PRESETS.map((p) => p.id)).toEqual(['square', 'portrait', 'story', 'link', 'a4']);
    expect(blankDesign({ width: 0, height: 100 })).toMatchObject({ ok: false, error: { path: '$.width' } });
    expect(blankDesign({ width: 100, height: 9000 })).toMatchObject({ ok: false, error: { path: '$.height' } });
    expect(blankDesign({ width: 100, height: 100, dpi: 0 })).toMatchObject({ ok: false, error: { path: '$.dpi' } });
  });

  describe('names', () => {
    const d = card([text('headline', 0, 0), shape('button', 0, 100, { wrap: { object: 'headline', padding: 10 } }), shape(undefined, 0, 200)]);

    it('renames, trimmed, and a shape wrapping the object follows', () => {
      const r = ok(renameObject(d, 0, '  title  '));
      expect(r.design.objects![0]!.name).toBe('title');
      expect(r.design.objects![1]!.wrap).toEqual({ object: 'title', padding: 10 });
      expect(r.design.objects![2]).toBe(d.objects![2]);
      expect(() => valid(r.design)).not.toThrow();
      expect(ok(renameObject(d, 2, 'badge')).design.objects![2]!.name).toBe('badge');
    });

    it('refuses a name that is taken, with the path and a free name', () => {
      expect(refused(renameObject(d, 2, 'headline'))).toEqual({
        path: '$.objects[2].name',
        message: 'the name "headline" is taken by a text object ($.objects[0]): an override reaches objects by name, so choose another, such as "headline_2"',
      });
    });

    it('refuses an empty, blank or too long name, and a missing object', () => {
      expect(refused(renameObject(d, 0, '')).message).toMatch(/^expected a name/);
      expect(refused(renameObject(d, 0, '   ')).path).toBe('$.objects[0].name');
      expect(refused(renameObject(d, 0, 'x'.repeat(201))).message).toContain('at most 200 characters but received 201');
      expect(ok(renameObject(d, 0, 'x'.repeat(200))).design.objects![0]!.name).toHaveLength(200);
      expect(refused(renameObject(d, 7, 'a'))).toMatchObject({ path: '$.objects[7]', message: 'there is no object 7: the list has 3 objects' });
    });

    it('keeps the design when the name is the same', () => {
      expect(ok(renameObject(d, 0, 'headline')).design).toBe(d);
    });

    it('keeps names unique across slides', () => {
      const slides = deepFreeze({
        width: 100,
        height: 100,
        slides: [
          { duration: 1, objects: [text('intro', 0, 0)] },
          { duration: 1, objects: [text('outro', 0, 0)] },
        ],
      });
      expect(refused(renameObject(slides, 0, 'intro', { slide: 1 })).path).toBe('$.slides[1].objects[0].name');
      const added = ok(addObject(slides, { type: 'text' }, { slide: 1 })).design;
      expect(added.slides![1]!.objects[1]!.name).toBe('text');
      // Only the path to the change is new: the other slide is the same object.
      expect(added.slides![0]).toBe(slides.slides[0]);
      expect(added.slides![1]!.objects[0]).toBe(slides.slides[1]!.objects[0]);
      expect(() => valid(ok(moveObjects(deepFreeze(added), [0, 1], 5, 5, { slide: 1 })).design)).not.toThrow();
    });

    it('counts on from a numbered name, and lists shared names', () => {
      expect(uniqueName('text', new Set(['text', 'text_2']))).toBe('text_3');
      expect(uniqueName('headline_2', new Set(['headline', 'headline_2']))).toBe('headline_3');
      expect(uniqueName('a'.repeat(200), new Set(['a'.repeat(200)]))).toHaveLength(200);
      expect(sharedNames(card([text('x', 0, 0), text('x', 0, 0), text('y', 0, 0)]))).toEqual(['x']);
      expect(findByName(d, 'button')).toMatchObject({ index: 1, path: '$.objects[1]' });
    });
  });

  describe('delete and duplicate', () => {
    const d = card([
      shape('bg', 0, 0, { locked: true }),
      shape('pill', 10, 10, { wrap: { object: 'label' }, group: 'group_1' }),
      text('label', 10, 10, { group: 'group_1' }),
      shape(undefined, 300, 300),
    ]);

    it('deletes, and a shape wrapping a deleted text keeps its own box; a group of one is none', () => {
      const r = ok(deleteObjects(d, [2]));
      expect(r.design.objects).toHaveLength(3);
      expect(r.design.objects![1]!.wrap).toBeUndefined();
      expect(r.design.objects![1]!.group).toBeUndefined();
      expect(r.design.objects![2]).toBe(d.objects![3]);
      expect(() => valid(r.design)).not.toThrow();
    });

    it('refuses to delete a locked object, or nothing', () => {
      expect(refused(deleteObjects(d, [3, 0]))).toEqual({ path: '$.objects[0]', message: '"bg" is locked and cannot be deleted: unlock it first' });
      expect(refused(deleteObjects(d, [])).message).toBe('select one or more objects first');
      expect(refused(deleteObjects(d, [-1])).path).toBe('$.objects[-1]');
    });

    it('duplicates 20 px off, above each original, with new names; a whole group makes a new group and its wrap follows', () => {
      const r = ok(duplicateObjects(d, [1, 2, 0]));
      const o = r.design.objects!;
      expect(o.map((x) => x.name)).toEqual(['bg', 'bg_2', 'pill', 'pill_2', 'label', 'label_2', undefined]);
      expect(r.selection).toEqual([1, 3, 5]);
      expect(o[1]).toMatchObject({ x: 20, y: 20 });
      expect(o[1]!.locked).toBeUndefined();
      expect(o[3]).toMatchObject({ group: 'group_2', wrap: { object: 'label_2' } });
      expect(o[5]!.group).toBe('group_2');
      expect(() => valid(r.design)).not.toThrow();
      // One member of a group alone is no group.
      expect(ok(duplicateObjects(d, [2])).design.objects![3]!.group).toBeUndefined();
    });
  });

  describe('copy and paste', () => {
    const source = card(
      [
        text('headline', 100, 100, { font_family: 'Lora', text: 'A <substyle font_family="Roboto">b</substyle>' }),
        { type: 'image', name: 'photo', x: 0, y: 0, width: 300, height: 200, path: 'asset:photo', clip_svg: 'shapes/blob.svg' },
        shape('bg', 0, 0, { background: { type: 'image', path: 'photos/texture.jpg' } }),
      ],
      { fonts: ['Inter', 'Lora', 'Roboto'] },
    );

    it('puts objects, the fonts they use and the files they draw on the clipboard', () => {
      const clip = copyObjects(source, [0, 1, 2]);
      if (!clip.ok) throw new Error(clip.error.message);
      const read = readClipboard(clip.text);
      expect(read).toMatchObject({ fonts: ['Lora', 'Roboto'], assets: ['asset:photo', 'shapes/blob.svg', 'photos/texture.jpg'] });
      expect(assetsOf({ type: 'mockup', x: 0, y: 0, width: 1, height: 1, base: 'b.png', layers: [{ path: 'l.png', mask: 'm.png' }] })).toEqual([
        'b.png',
        'l.png',
        'm.png',
      ]);
    });

    it('pastes into the same design 20 px off with new names', () => {
      const clip = copyObjects(source, [0]);
      if (!clip.ok) throw new Error();
      const r = pasteObjects(source, clip.text);
      if (!r.ok) throw new Error(r.error.message);
      const o = r.design.objects![3]!;
      expect(o).toMatchObject({ name: 'headline_2', x: 120, y: 120 });
      expect(r.selection).toEqual([3]);
      expect(r.fonts).toEqual([]);
      // Pasted again: past the first copy too.
      const again = pasteObjects(deepFreeze(r.design), clip.text);
      if (!again.ok) throw new Error();
      expect(again.design.objects![4]).toMatchObject({ name: 'headline_3', x: 140, y: 140 });
    });

    it('pastes into another design in place, adding the fonts it lacks and listing the files to carry', () => {
      const clip = copyObjects(source, [0, 1]);
      if (!clip.ok) throw new Error();
      const target = card([text('headline', 5, 5)]);
      const r = pasteObjects(target, clip.text);
      if (!r.ok) throw new Error(r.error.message);
      expect(r.design.objects!.map((o) => o.name)).toEqual(['headline', 'headline_2', 'photo']);
      expect(r.design.objects![1]).toMatchObject({ x: 100, y: 100 });
      expect(r.design.fonts).toEqual(['Inter', 'Lora', 'Roboto']);
      expect(r.fonts).toEqual(['Lora', 'Roboto']);
      expect(r.assets).toEqual(['asset:photo', 'shapes/blob.svg']);
      expect(() => valid(r.design)).not.toThrow();
    });

    it('pastes a shape without the text it wrapped as a shape of its own box', () => {
      const d = card([shape('pill', 10, 10, { wrap: { object: 'label' } }), text('label', 10, 10)]);
      const clip = copyObjects(d, [0]);
      if (!clip.ok) throw new Error();
      const r = pasteObjects(card([]), clip.text);
      if (!r.ok) throw new Error(r.error.message);
      expect(r.design.objects![0]!.wrap).toBeUndefined();
      expect(() => valid(r.design)).not.toThrow();
      // Into its own design the label is there: the copy still wraps it.
      const same = pasteObjects(d, clip.text);
      if (!same.ok) throw new Error();
      expect(same.design.objects![2]!.wrap).toEqual({ object: 'label' });
    });

    it('refuses clipboard text that is not objects copied in the Studio', () => {
      const garbage = [
        '',
        'hello',
        '{"objects": []}',
        '[1,2]',
        'null',
        JSON.stringify({ format: 'imprint/objects@1', objects: [{ type: 'bogus', x: 0, y: 0, width: 1, height: 1 }] }),
        JSON.stringify({ format: 'imprint/objects@1', objects: [{ type: 'text', x: '0', y: 0, width: 1, height: 1 }] }),
        JSON.stringify({ format: 'imprint/objects@1', objects: [{ type: 'text', name: '', x: 0, y: 0, width: 1, height: 1 }] }),
        JSON.stringify({ format: 'imprint/objects@1', objects: [] }),
        'x'.repeat(10_000_001),
      ];
      for (const g of garbage) {
        const r = pasteObjects(source, g);
        expect(r.ok, g.slice(0, 80)).toBe(false);
      }
      expect(refused(pasteObjects(source, 'hello')).message).toContain('does not hold objects copied in the Imprint Studio');
      expect(refused(pasteObjects(source, garbage[6]!)).path).toBe('$clipboard.objects[0].x');
    });
  });

  describe('order', () => {
    const d = card(['a', 'b', 'c', 'd', 'e'].map((n, i) => shape(n, i, 0)));
    const names = (r: OpResult) =>
      ok(r)
        .design.objects!.map((o) => o.name)
        .join('');

    it('brings forward and sends backward one step, a block together', () => {
      expect(names(reorder(d, [1], 'forward'))).toBe('acbde');
      expect(ok(reorder(d, [1, 2], 'forward')).selection).toEqual([2, 3]);
      expect(names(reorder(d, [1, 2], 'forward'))).toBe('adbce');
      expect(names(reorder(d, [4], 'forward'))).toBe('abcde');
      expect(ok(reorder(d, [4], 'forward')).design).toBe(d);
      expect(names(reorder(d, [3], 'backward'))).toBe('abdce');
      expect(names(reorder(d, [0, 3], 'backward'))).toBe('abdce');
    });

    it('brings to front and sends to back, keeping their order', () => {
      expect(names(reorder(d, [3, 0], 'front'))).toBe('bcead');
      expect(ok(reorder(d, [3, 0], 'front')).selection).toEqual([3, 4]);
      expect(names(reorder(d, [4, 2], 'back'))).toBe('ceabd');
    });

    it('moves to an index, as a drag in the layers panel drops them', () => {
      expect(names(moveToIndex(d, [0], 2))).toBe('bcade');
      expect(names(moveToIndex(d, [0, 1], 99))).toBe('cdeab');
      expect(ok(moveToIndex(d, [3, 4], 0)).selection).toEqual([0, 1]);
      expect(refused(moveToIndex(d, [5], 0)).path).toBe('$.objects[5]');
    });
  });

  describe('lock, hide, groups and fields', () => {
    const d = card([shape('a', 0, 0), shape('b', 200, 0), text('c', 400, 0)]);

    it('locks and hides, removing the field when it goes back to its default', () => {
      const locked = ok(setLocked(d, [0, 1], true)).design;
      expect(locked.objects!.slice(0, 2).map((o) => o.locked)).toEqual([true, true]);
      expect(Object.hasOwn(ok(setLocked(deepFreeze(locked), [0], false)).design.objects![0]!, 'locked')).toBe(false);
      const hidden = ok(setHidden(d, [2], true)).design;
      expect(hidden.objects![2]!.hidden).toBe(true);
      expect(() => valid(hidden)).not.toThrow();
      expect(ok(setHidden(d, [2], false)).design).toBe(d);
    });

    it('refuses every change of a locked object but unlocking and hiding', () => {
      const locked = deepFreeze(ok(setLocked(d, [0], true)).design);
      const message = '"a" is locked and cannot be moved: unlock it first';
      expect(refused(moveObjects(locked, [1, 0], 5, 5))).toEqual({ path: '$.objects[0]', message });
      expect(refused(setBox(locked, 0, { width: 9 })).message).toContain('locked');
      expect(refused(resizeObjects(locked, [0, 1], { x: 0, y: 0, width: 10, height: 10 })).message).toContain('cannot be resized');
      expect(refused(rotateObjects(locked, [0], 10)).message).toContain('cannot be rotated');
      expect(refused(setRotation(locked, [0], 10)).message).toContain('cannot be rotated');
      expect(refused(updateObject(locked, 0, { background: { type: 'color', color: '#000' } })).message).toContain('cannot be changed');
      expect(ok(updateObject(locked, 0, { hidden: true })).design.objects![0]!.hidden).toBe(true);
      expect(ok(setLocked(locked, [0], false)).design.objects![0]!.locked).toBeUndefined();
      expect(ok(renameObject(locked, 0, 'backdrop')).design.objects![0]!.name).toBe('backdrop');
    });

    it('sets fields, removes one given undefined, and refuses type and name', () => {
      const r = ok(updateObject(d, 2, { color: '#e53935', text: 'Hi <substyle bold="700">you</substyle>' }));
      expect(r.design.objects![2]).toMatchObject({ color: '#e53935', text: 'Hi <substyle bold="700">you</substyle>' });
      expect(r.design.objects![0]).toBe(d.objects![0]);
      expect(Object.hasOwn(ok(updateObject(deepFreeze(r.design), 2, { color: undefined })).design.objects![2]!, 'color')).toBe(false);
      expect(ok(updateObject(d, 2, { text: 'Hello' })).design).toBe(d);
      expect(refused(updateObject(d, 2, { type: 'image' })).path).toBe('$.objects[2].type');
      expect(refused(updateObject(d, 2, { name: 'x' })).path).toBe('$.objects[2].name');
    });

    it('groups two or more, selects group mates together, ungroups', () => {
      const g = ok(groupObjects(d, [0, 2]));
      expect(g.design.objects!.map((o) => o.group)).toEqual(['group_1', undefined, 'group_1']);
      expect(() => valid(g.design)).not.toThrow();
      expect(withGroupMates(g.design, [2])).toEqual([0, 2]);
      // A second group takes a member away from the first, which is left with one: no group.
      const g2 = ok(groupObjects(deepFreeze(g.design), [1, 2]));
      expect(g2.design.objects!.map((o) => o.group)).toEqual([undefined, 'group_2', 'group_2']);
      const u = ok(ungroupObjects(deepFreeze(g.design), [0]));
      expect(u.design.objects!.map((o) => o.group)).toEqual([undefined, undefined, undefined]);
      expect(u.selection).toEqual([0, 2]);
      expect(refused(groupObjects(d, [1])).message).toBe('select two or more objects to group');
    });
  });

  describe('placement', () => {
    const d = card([shape('a', 100, 100), shape('b', 300, 200), shape('c', 500, 500, { rotation: 90 })]);

    it('moves a selection, sharing every object it does not touch', () => {
      const r = ok(moveObjects(d, [0, 1], 10, -20));
      expect(r.design.objects!.slice(0, 2).map((o) => [o.x, o.y])).toEqual([
        [110, 80],
        [310, 180],
      ]);
      expect(r.design.objects![2]).toBe(d.objects![2]);
      expect(ok(moveObjects(d, [0], 0, 0)).design).toBe(d);
      expect(refused(moveObjects(d, [0], NaN, 0)).message).toContain('finite');
    });

    it('the selection frame holds rotated objects as drawn', () => {
      // c is 100 × 50 turned 90°: it covers 525-575 across and 475-625 down.
      expect(selectionBounds(d, [2])).toEqual({ x: 525, y: 475, width: 50, height: 100 });
      expect(selectionBounds(d, [0, 1])).toEqual({ x: 100, y: 100, width: 300, height: 150 });
    });

    it("resizes a selection's frame, scaling each member's box with it", () => {
      const r = ok(resizeObjects(d, [0, 1], { x: 100, y: 100, width: 600, height: 300 }));
      expect(r.design.objects!.slice(0, 2).map((o) => [o.x, o.y, o.width, o.height])).toEqual([
        [100, 100, 200, 100],
        [500, 300, 200, 100],
      ]);
      // A member turned 90° stretches along its own axes: the frame's width is its height.
      const turned = ok(resizeObjects(d, [2], { x: 525, y: 475, width: 100, height: 100 })).design.objects![2]!;
      expect([turned.width, turned.height]).toEqual([100, 100]);
      expect(selectionBounds(ok(resizeObjects(d, [2], { x: 525, y: 475, width: 100, height: 100 })).design, [2])).toEqual({
        x: 525,
        y: 475,
        width: 100,
        height: 100,
      });
      expect(refused(resizeObjects(d, [0], { x: 0, y: 0, width: 0, height: 10 })).message).toContain('greater than 0');
    });

    it('rotates a selection about its centre, and one object about its own', () => {
      const r = ok(rotateObjects(d, [0, 1], 180));
      // Turned half round the frame's centre (250, 175): a and b swap places.
      expect(r.design.objects!.slice(0, 2).map((o) => [o.x, o.y, o.rotation])).toEqual([
        [300, 200, 180],
        [100, 100, 180],
      ]);
      const one = ok(rotateObjects(d, [2], -90)).design.objects![2]!;
      expect(one).toMatchObject({ x: 500, y: 500 });
      expect(Object.hasOwn(one, 'rotation')).toBe(false);
      expect(ok(setRotation(d, [0], 370)).design.objects![0]!.rotation).toBe(10);
      expect([normalAngle(-180), normalAngle(540), normalAngle(-190)]).toEqual([180, 180, 170]);
    });

    it('sets a box from a handle drag and refuses a side of 0', () => {
      expect(ok(setBox(d, 0, { width: 150, x: 90 })).design.objects![0]).toMatchObject({ x: 90, width: 150, height: 50 });
      expect(refused(setBox(d, 0, { height: 0 })).path).toBe('$.objects[0].height');
    });

    it('picks the topmost object under a point as drawn, and what a marquee encloses', () => {
      const stacked = card([shape('under', 0, 0, { width: 200, height: 200 }), shape('over', 50, 50), shape('c', 500, 500, { rotation: 90 })]);
      expect(objectAt(stacked, { x: 60, y: 60 })).toBe(1);
      expect(objectAt(stacked, { x: 60, y: 150 })).toBe(0);
      // c (100 × 50) turned 90° covers 525-575 across and 475-575 down: (550, 570) is on it, (590, 525) only on its unturned box.
      expect(objectAt(stacked, { x: 550, y: 570 })).toBe(2);
      expect(objectAt(stacked, { x: 590, y: 525 })).toBeUndefined();
      const lockedOver = ok(setLocked(stacked, [1], true)).design;
      expect(objectAt(lockedOver, { x: 60, y: 60 })).toBe(0);
      expect(objectAt(lockedOver, { x: 60, y: 60 }, { locked: true })).toBe(1);
      expect(objectsInRect(stacked, { x: 40, y: 40, width: 120, height: 70 })).toEqual([1]);
      expect(objectsInRect(stacked, { x: 40, y: 40, width: 10, height: 10 }, { touch: true })).toEqual([0]);
      const grouped = ok(groupObjects(stacked, [1, 2])).design;
      expect(objectsInRect(grouped, { x: 40, y: 40, width: 120, height: 70 })).toEqual([1, 2]);
    });
  });
});
