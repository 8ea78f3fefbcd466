// The editor's operations on a design's JSON: add an object of each type, rename (the name is the
// override key), delete, duplicate, copy and paste (also into another design), reorder, lock and hide,
// group, move, resize and rotate a selection, and edit fields. Each returns a new design and never
// changes its input; only the objects and lists an operation touches are new (structural sharing), so
// the history keeps 100 steps of a 200-object design cheaply. Refusals are `{ path, message }` as the
// engine words its errors. Objects are chosen by their index in one list: the design's `objects`, or
// a slide's (`where.slide`). No DOM.
import type { ObjectType } from '../../../src/objects/types.js';
import type { ShapeOutline } from '../../../src/scene/scene.js';
import { boxCorners, boxHolds, rotatedBounds, unionBounds, type Box } from './geometry.js';

// ── the design as JSON ───────────────────────────────────────────────────────────────────────────

/** A template object as the design JSON holds it: the common fields the editor reads, and any others. */
export interface ObjectJson {
  type: string;
  name?: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation?: number;
  hidden?: boolean;
  locked?: boolean;
  group?: string;
  [field: string]: unknown;
}

export interface SlideJson {
  objects: ObjectJson[];
  [field: string]: unknown;
}

/** A `fonts` entry: a family name, or a file or catalogue package with its family. */
export type FontEntry = string | { family: string; path?: string; [field: string]: unknown };

export interface DesignJson {
  width: number;
  height: number;
  objects?: ObjectJson[];
  slides?: SlideJson[];
  fonts?: FontEntry[];
  [field: string]: unknown;
}

/** Why an operation was refused: the JSON path it concerns and what to do, as the engine's errors say it. */
export interface Problem {
  path: string;
  message: string;
}

/** A done operation: the new design and the selection to show (indices in the same list). */
export interface Done {
  ok: true;
  design: DesignJson;
  selection: number[];
}

export type OpResult = Done | { ok: false; error: Problem };

/** Which list of objects an operation works on: the design's `objects` (default) or slide `slide`'s. */
export interface Where {
  slide?: number;
}

// The engine's limits (src/format/fields.ts LIMITS, checked equal by the tests): the Studio's bundle
// takes nothing from src/, so they are repeated here.
export const MAX_NAME_LENGTH = 200;
export const MAX_OBJECTS = 1000;
const MAX_COORDINATE = 100_000;
const MAX_SIDE = 100_000;
const DEFAULT_FONT_FAMILY = 'Inter';
const MAX_FONTS = 32;

const fail = (path: string, message: string): OpResult => ({ ok: false, error: { path, message } });

const WHAT: Record<ObjectType, string> = {
  text: 'a text object',
  image: 'an image object',
  shape: 'a shape object',
  chart: 'a chart object',
  mockup: 'a mockup object',
  video: 'a video object',
  svg: 'an svg object',
  line: 'a line object',
};
const what = (o: ObjectJson): string => WHAT[o.type as ObjectType] ?? `a ${o.type} object`;

/** How the editor calls an object in a message: its name, or what it is and where. */
function called(o: ObjectJson, path: string): string {
  return o.name !== undefined ? `"${o.name}"` : `${what(o)} (${path})`;
}

// ── lists, paths and names ───────────────────────────────────────────────────────────────────────

interface List {
  objects: readonly ObjectJson[];
  /** JSON path of the list: `$.objects` or `$.slides[2].objects`. */
  at: string;
  where: Where;
}

/** The JSON path of an object (`$.objects[3]`, `$.slides[1].objects[0]`), as the engine's errors name it. */
export function objectPath(index: number, where: Where = {}): string {
  return `${where.slide === undefined ? '$' : `$.slides[${where.slide}]`}.objects[${index}]`;
}

function listOf(design: DesignJson, where: Where): List | Problem {
  if (where.slide !== undefined) {
    const slides = design.slides ?? [];
    if (!Number.isInteger(where.slide) || where.slide < 0 || where.slide >= slides.length) {
      return { path: '$.slides', message: `there is no slide ${where.slide}: the design has ${slides.length} slide${slides.length === 1 ? '' : 's'}` };
    }
    return { objects: slides[where.slide]!.objects, at: `$.slides[${where.slide}].objects`, where };
  }
  if (design.slides !== undefined && design.objects === undefined) {
    return { path: '$.slides', message: 'this design is a slide video: say which slide the objects are on' };
  }
  return { objects: design.objects ?? [], at: '$.objects', where };
}

const isProblem = (v: unknown): v is Problem => typeof v === 'object' && v !== null && 'message' in v && 'path' in v && !('objects' in v);

/** The design with one list replaced: only the list, and the slide and slides holding it, are new. */
function withList(design: DesignJson, where: Where, objects: ObjectJson[]): DesignJson {
  if (where.slide === undefined) return { ...design, objects };
  const slides = [...design.slides!];
  slides[where.slide] = { ...slides[where.slide]!, objects };
  return { ...design, slides };
}

/**
 * `f` applied to every list of the design (the canvas's and each slide's); a list, a slide and the
 * design are new only where `f` gave back another object somewhere.
 */
function mapLists(design: DesignJson, f: (objects: readonly ObjectJson[]) => ObjectJson[]): DesignJson {
  const changed = (a: readonly ObjectJson[], b: readonly ObjectJson[]) => a.length !== b.length || a.some((o, i) => o !== b[i]);
  let out = design;
  if (design.objects) {
    const next = f(design.objects);
    if (changed(design.objects, next)) out = { ...out, objects: next };
  }
  if (design.slides) {
    let slides: SlideJson[] | undefined;
    design.slides.forEach((s, i) => {
      const next = f(s.objects);
      if (changed(s.objects, next)) (slides ??= [...design.slides!])[i] = { ...s, objects: next };
    });
    if (slides) out = { ...out, slides };
  }
  return out;
}

/** Every object of the design, on the canvas and on every slide: names are the design's, not a list's. */
function everyObject(design: DesignJson): ObjectJson[] {
  return [...(design.objects ?? []), ...(design.slides ?? []).flatMap((s) => s.objects)];
}

function namesOf(design: DesignJson): Set<string> {
  const out = new Set<string>();
  for (const o of everyObject(design)) if (o.name !== undefined) out.add(o.name);
  return out;
}

function groupsOf(design: DesignJson): Set<string> {
  const out = new Set<string>();
  for (const o of everyObject(design)) if (o.group !== undefined) out.add(o.group);
  return out;
}

/** `base`, or `base_2`, `base_3`… : the first not in `taken`. A name already ending in _<n> counts on from its stem. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  const stem = /^(.*\S)_\d+$/.exec(base)?.[1] ?? base;
  for (let n = 2; ; n++) {
    const name = `${stem.slice(0, MAX_NAME_LENGTH - String(n).length - 1)}_${n}`;
    if (!taken.has(name)) return name;
  }
}

/** A name typed by the user, trimmed; or why it cannot be one (the engine's rule: 1 to 200 characters). */
export function cleanName(typed: string): { name: string } | { message: string } {
  const name = typed.trim();
  if (name === '') return { message: 'expected a name: an object is overridden by its name, so type one such as "headline"' };
  if (name.length > MAX_NAME_LENGTH) return { message: `expected a name of at most ${MAX_NAME_LENGTH} characters but received ${name.length}: shorten it` };
  return { name };
}

/** The indices, in order and each once; or the problem with one of them. */
function checkIndices(list: List, indices: readonly number[]): number[] | Problem {
  if (indices.length === 0) return { path: list.at, message: 'select one or more objects first' };
  for (const i of indices) {
    if (!Number.isInteger(i) || i < 0 || i >= list.objects.length) {
      return {
        path: `${list.at}[${i}]`,
        message: `there is no object ${i}: the list has ${list.objects.length} object${list.objects.length === 1 ? '' : 's'}`,
      };
    }
  }
  return [...new Set(indices)].sort((a, b) => a - b);
}

/** The first locked object among `indices`, as a refusal of `doing` ("moved"). */
function lockedProblem(list: List, indices: readonly number[], doing: string): Problem | undefined {
  const i = indices.find((k) => list.objects[k]!.locked === true);
  if (i === undefined) return undefined;
  const path = `${list.at}[${i}]`;
  return { path, message: `${called(list.objects[i]!, path)} is locked and cannot be ${doing}: unlock it first` };
}

/** The list, the sorted indices, and none of them locked (when `doing` is given); or the refusal. */
function prepare(design: DesignJson, indices: readonly number[], where: Where, doing?: string): { list: List; sel: number[] } | Problem {
  const list = listOf(design, where);
  if (isProblem(list)) return list;
  const sel = checkIndices(list, indices);
  if (isProblem(sel)) return sel;
  if (doing !== undefined) {
    const locked = lockedProblem(list, sel, doing);
    if (locked) return locked;
  }
  return { list, sel };
}

/** `o` with `fields` set (undefined removes one): a new object only when a value differs. */
function patched(o: ObjectJson, fields: Record<string, unknown>): ObjectJson {
  let out: ObjectJson | undefined;
  for (const [k, v] of Object.entries(fields)) {
    const has = Object.hasOwn(o, k);
    if (v === undefined ? !has : has && o[k] === v) continue;
    out ??= { ...o };
    if (v === undefined) delete out[k];
    else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out ?? o;
}

/** Applies `f` to the chosen objects; the design itself when nothing changed. */
function mapChosen(design: DesignJson, list: List, sel: readonly number[], f: (o: ObjectJson, i: number) => ObjectJson): DesignJson {
  const objects = [...list.objects];
  let changed = false;
  for (const i of sel) {
    const next = f(objects[i]!, i);
    if (next !== objects[i]) {
      objects[i] = next;
      changed = true;
    }
  }
  return changed ? withList(design, list.where, objects) : design;
}

const done = (design: DesignJson, selection: number[]): Done => ({ ok: true, design, selection });

// ── new designs ──────────────────────────────────────────────────────────────────────────────────

export interface SizePreset {
  id: string;
  label: string;
  width: number;
  height: number;
  dpi?: number;
}

/** The sizes a new design starts from; "custom" is any width and height. */
export const SIZE_PRESETS: readonly SizePreset[] = [
  { id: 'square', label: 'Square post 1080 × 1080', width: 1080, height: 1080 },
  { id: 'portrait', label: 'Portrait post 1080 × 1350', width: 1080, height: 1350 },
  { id: 'story', label: 'Story 1080 × 1920', width: 1080, height: 1920 },
  { id: 'link', label: 'Link preview 1200 × 628', width: 1200, height: 628 },
  // A4 is 210 × 297 mm: at 300 dpi 2480.315 × 3507.874 px, kept exact so a pdf page is exactly A4.
  { id: 'a4', label: 'A4 at 300 dpi', width: 2480.315, height: 3507.874, dpi: 300 },
];

/** A blank design of a size: a white canvas and no objects. */
export function blankDesign(size: { width: number; height: number; dpi?: number }): { ok: true; design: DesignJson } | { ok: false; error: Problem } {
  for (const side of ['width', 'height'] as const) {
    const v = size[side];
    if (!Number.isFinite(v) || v < 1 || v > 8192) {
      return { ok: false, error: { path: `$.${side}`, message: `expected a canvas ${side} from 1 to 8192 pixels but received ${v}` } };
    }
  }
  if (size.dpi !== undefined && !(Number.isFinite(size.dpi) && size.dpi > 0 && size.dpi <= 10_000)) {
    return { ok: false, error: { path: '$.dpi', message: `expected dpi from above 0 to 10000, such as 300, but received ${size.dpi}` } };
  }
  const design: DesignJson = {
    schema: 'imprint/design@1',
    width: size.width,
    height: size.height,
    ...(size.dpi !== undefined ? { dpi: size.dpi } : {}),
    background: { type: 'color', color: '#ffffff' },
    objects: [],
  };
  return { ok: true, design };
}

// ── adding objects ───────────────────────────────────────────────────────────────────────────────

/** What a new object starts from; file types need the file (an upload's URL, a path or "asset:<name>"). */
export type NewObject =
  | { type: 'text'; text?: string }
  | { type: 'image'; path: string; size?: Size }
  | { type: 'shape'; shape?: ShapeOutline }
  | { type: 'line' }
  | { type: 'svg'; path: string; size?: Size }
  | { type: 'chart' }
  | { type: 'mockup'; base: string; size?: Size }
  | { type: 'video'; path: string; size?: Size };

export interface Size {
  width: number;
  height: number;
}

/** The types the editor adds, in the schema's order (the tests hold it to src/objects/types.ts). */
export const ADDABLE_TYPES = ['text', 'image', 'shape', 'chart', 'mockup', 'video', 'svg', 'line'] as const satisfies readonly NewObject['type'][];

/** Every outline a shape may have (the tests hold it to the engine's SHAPE_OUTLINES). */
export const SHAPE_KINDS = [
  'rect',
  'rounded_rect',
  'ellipse',
  'triangle',
  'right_triangle',
  'diamond',
  'pentagon',
  'hexagon',
  'octagon',
  'star',
  'cross',
  'arrow_right',
  'arrow_left',
  'arrow_up',
  'arrow_down',
  'heart',
  'speech_bubble',
  'polygon',
  'path',
] as const satisfies readonly ShapeOutline[];

/** A new chart's table: four quarters of two years, for the data grid to replace. */
export const DEFAULT_CHART_DATA: (string | number | null)[][] = [
  [null, 'Q1', 'Q2', 'Q3', 'Q4'],
  ['2025', 120, 180, 150, 210],
  ['2026', 140, 210, 190, 240],
];

export interface AddOptions extends Where {
  /** The centre of the new object, template px (where it was dropped). Default: the canvas centre. */
  at?: { x: number; y: number };
}

/** The first family the design lists (what a new text uses), or undefined for the default Inter. */
function firstFamily(design: DesignJson): string | undefined {
  const families = (design.fonts ?? []).map((f) => (typeof f === 'string' ? f : f.family));
  if (families.length === 0 || families.includes(DEFAULT_FONT_FAMILY)) return undefined;
  return families[0];
}

/** A size that fits within `max` × `max` keeping `natural`'s aspect ratio. */
function fitted(natural: Size | undefined, max: number): Size {
  if (!natural || !(natural.width > 0) || !(natural.height > 0)) return { width: max, height: max };
  const k = Math.min(max / natural.width, max / natural.height);
  return { width: Math.max(1, Math.round(natural.width * k)), height: Math.max(1, Math.round(natural.height * k)) };
}

const side = (v: number) => Math.max(1, Math.round(v));

interface NewFields {
  type: string;
  width: number;
  height: number;
  [field: string]: unknown;
}

/** The new object's fields, before its name and place; or the refusal (a file type without its file). */
function newObjectFields(design: DesignJson, spec: NewObject, at: string): NewFields | Problem {
  const W = design.width;
  const H = design.height;
  const s = Math.min(W, H);
  const needFile = (field: string, value: string, noun: string): Problem | undefined =>
    typeof value === 'string' && value.trim() !== ''
      ? undefined
      : { path: `${at}.${field}`, message: `expected ${noun}: upload one or choose an earlier upload` };
  switch (spec.type) {
    case 'text': {
      const fontSize = Math.min(1000, Math.max(8, Math.round(s / 15)));
      const family = firstFamily(design);
      return {
        type: 'text',
        width: side(W * 0.6),
        height: side(fontSize * 1.2 * 2),
        text: spec.text ?? 'Your text',
        ...(family !== undefined ? { font_family: family } : {}),
        font_size: fontSize,
        color: '#000000',
        text_align: 'center',
      };
    }
    case 'image':
      return needFile('path', spec.path, 'a picture') ?? { type: 'image', ...fitted(spec.size, side(s / 2)), path: spec.path };
    case 'svg':
      return needFile('path', spec.path, 'an SVG file') ?? { type: 'svg', ...fitted(spec.size, side(s / 3)), path: spec.path };
    case 'video':
      return needFile('path', spec.path, 'a video clip') ?? { type: 'video', ...fitted(spec.size, side(s / 2)), path: spec.path };
    case 'mockup':
      return needFile('base', spec.base, 'a base image') ?? { type: 'mockup', ...fitted(spec.size, side(s / 2)), base: spec.base, layers: [] };
    case 'shape': {
      const shape = spec.shape ?? 'rect';
      if (!(SHAPE_KINDS as readonly string[]).includes(shape))
        return { path: `${at}.shape`, message: `expected a shape of ${SHAPE_KINDS.join(', ')}, not "${shape}"` };
      const wide = shape === 'rect' || shape === 'rounded_rect' || shape === 'arrow_left' || shape === 'arrow_right';
      return {
        type: 'shape',
        shape,
        width: side(wide ? s * 0.4 : s / 3),
        height: side(wide ? s * 0.25 : s / 3),
        background: { type: 'color', color: '#1e88e5' },
        ...(shape === 'polygon'
          ? {
              vertices: [
                [0.5, 0],
                [1, 1],
                [0, 1],
              ],
            }
          : {}),
        ...(shape === 'path' ? { path_data: 'M50 0L100 38L82 100H18L0 38Z', view_box: [0, 0, 100, 100] } : {}),
      };
    }
    case 'line':
      return { type: 'line', width: side(W * 0.4), height: 8, color: '#000000', stroke_width: 8 };
    case 'chart':
      return {
        type: 'chart',
        width: side(W * 0.6),
        height: side(H * 0.4),
        chart_type: 'column',
        chart_data: DEFAULT_CHART_DATA.map((row) => [...row]),
      };
    default: {
      const type = (spec as { type: unknown }).type;
      return { path: `${at}.type`, message: `expected an object type of ${ADDABLE_TYPES.join(', ')}, not ${JSON.stringify(type)}` };
    }
  }
}

/**
 * Adds an object on top of the list: sensible defaults, a unique name from its type (`text`,
 * `text_2`…), centred on the canvas (or on `options.at`). Selection: the new object.
 */
export function addObject(design: DesignJson, spec: NewObject, options: AddOptions = {}): OpResult {
  const list = listOf(design, options);
  if (isProblem(list)) return { ok: false, error: list };
  const index = list.objects.length;
  const at = `${list.at}[${index}]`;
  if (index >= MAX_OBJECTS) return fail(list.at, `a list holds at most ${MAX_OBJECTS} objects: delete some first`);
  const fields = newObjectFields(design, spec, at);
  if (isProblem(fields)) return { ok: false, error: fields };
  const centre = options.at ?? { x: design.width / 2, y: design.height / 2 };
  const { type, ...rest } = fields;
  const object: ObjectJson = {
    type,
    name: uniqueName(type, namesOf(design)),
    x: Math.round(centre.x - fields.width / 2),
    y: Math.round(centre.y - fields.height / 2),
    ...rest,
  };
  return done(withList(design, list.where, [...list.objects, object]), [index]);
}

// ── names ────────────────────────────────────────────────────────────────────────────────────────

/** Shapes that wrap a text by name (`wrap.object`) follow its rename; other references there are none. */
function renameReferences(objects: readonly ObjectJson[], from: string, to: string): ObjectJson[] {
  return objects.map((o) => {
    const wrap = o.wrap as { object?: unknown } | undefined;
    return o.type === 'shape' && wrap && wrap.object === from ? { ...o, wrap: { ...wrap, object: to } } : o;
  });
}

/**
 * Renames an object. The name is its key in objects_overrides, so it must be 1 to 200 characters
 * (trimmed) and, in the editor, not taken by another object anywhere in the design; a shape that
 * wraps the object follows the new name.
 */
export function renameObject(design: DesignJson, index: number, typed: string, where: Where = {}): OpResult {
  const p = prepare(design, [index], where);
  if (isProblem(p)) return { ok: false, error: p };
  const path = `${p.list.at}[${index}].name`;
  const clean = cleanName(typed);
  if ('message' in clean) return fail(path, clean.message);
  const object = p.list.objects[index]!;
  const { name } = clean;
  if (object.name === name) return done(design, [index]);
  const taken = namesOf(design);
  if (taken.has(name)) {
    const owner = findByName(design, name)!;
    return fail(
      path,
      `the name "${name}" is taken by ${what(owner.object)} (${owner.path}): an override reaches objects by name, so choose another, such as "${uniqueName(name, taken)}"`,
    );
  }
  let out = withList(
    design,
    where,
    p.list.objects.map((o, i) => (i === index ? patched(o, { name }) : o)),
  );
  // A design's names are one set (slides included): wraps of the old name follow it wherever they are.
  const from = object.name;
  if (from !== undefined && !namesOf(out).has(from)) out = mapLists(out, (objects) => renameReferences(objects, from, name));
  return done(out, [index]);
}

/** Where the object of a name is (the first one, names being unique in the editor). */
export function findByName(design: DesignJson, name: string): { object: ObjectJson; index: number; where: Where; path: string } | undefined {
  const top = design.objects ?? [];
  const i = top.findIndex((o) => o.name === name);
  if (i >= 0) return { object: top[i]!, index: i, where: {}, path: objectPath(i) };
  for (const [si, s] of (design.slides ?? []).entries()) {
    const k = s.objects.findIndex((o) => o.name === name);
    if (k >= 0) return { object: s.objects[k]!, index: k, where: { slide: si }, path: objectPath(k, { slide: si }) };
  }
  return undefined;
}

/** Names given to more than one object (a role from an imported design): the layers panel marks them. */
export function sharedNames(design: DesignJson): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const o of everyObject(design)) if (o.name !== undefined) (seen.has(o.name) ? twice : seen).add(o.name);
  return [...twice];
}

// ── editing fields ───────────────────────────────────────────────────────────────────────────────

const EDITABLE_WHEN_LOCKED = new Set(['locked', 'hidden']);

/**
 * Sets fields of one object (undefined removes a field): what the properties panel sends. `type` and
 * `name` have operations of their own; a locked object takes only `locked` and `hidden`.
 */
export function updateObject(design: DesignJson, index: number, fields: Record<string, unknown>, where: Where = {}): OpResult {
  const p = prepare(design, [index], where);
  if (isProblem(p)) return { ok: false, error: p };
  const path = `${p.list.at}[${index}]`;
  if ('type' in fields) return fail(`${path}.type`, "an object's type cannot change: add an object of the other type instead");
  if ('name' in fields) return fail(`${path}.name`, 'rename the object with renameObject, which keeps names unique');
  const object = p.list.objects[index]!;
  if (object.locked === true && Object.keys(fields).some((k) => !EDITABLE_WHEN_LOCKED.has(k))) {
    return fail(path, `${called(object, path)} is locked and cannot be changed: unlock it first`);
  }
  return done(
    mapChosen(design, p.list, [index], (o) => patched(o, fields)),
    [index],
  );
}

/** Sets `locked` on the chosen objects (false removes the field: it is the default). */
export function setLocked(design: DesignJson, indices: readonly number[], locked: boolean, where: Where = {}): OpResult {
  return setFlag(design, indices, 'locked', locked, where);
}

/** Sets `hidden` on the chosen objects: a hidden object is not drawn by the render. */
export function setHidden(design: DesignJson, indices: readonly number[], hidden: boolean, where: Where = {}): OpResult {
  return setFlag(design, indices, 'hidden', hidden, where);
}

function setFlag(design: DesignJson, indices: readonly number[], flag: 'locked' | 'hidden', on: boolean, where: Where): OpResult {
  const p = prepare(design, indices, where);
  if (isProblem(p)) return { ok: false, error: p };
  return done(
    mapChosen(design, p.list, p.sel, (o) => patched(o, { [flag]: on ? true : o[flag] === false ? false : undefined })),
    p.sel,
  );
}

// ── delete, duplicate, copy and paste ────────────────────────────────────────────────────────────

/** Groups left with one member are no groups: that member loses its `group`. */
function dropLoneGroups(objects: ObjectJson[], everywhere: readonly ObjectJson[]): ObjectJson[] {
  const count = new Map<string, number>();
  for (const o of everywhere) if (o.group !== undefined) count.set(o.group, (count.get(o.group) ?? 0) + 1);
  return objects.map((o) => (o.group !== undefined && count.get(o.group) === 1 ? patched(o, { group: undefined }) : o));
}

/** Deletes the chosen objects. A shape that wrapped a deleted text keeps its own box instead. */
export function deleteObjects(design: DesignJson, indices: readonly number[], where: Where = {}): OpResult {
  const p = prepare(design, indices, where, 'deleted');
  if (isProblem(p)) return { ok: false, error: p };
  const gone = new Set(p.sel);
  const removed = withList(
    design,
    where,
    p.list.objects.filter((_, i) => !gone.has(i)),
  );
  const left = namesOf(removed);
  const all = everyObject(removed);
  const out = mapLists(removed, (objects) =>
    dropLoneGroups(
      objects.map((o) => {
        const target = (o.wrap as { object?: unknown } | undefined)?.object;
        return o.type === 'shape' && typeof target === 'string' && !left.has(target) ? patched(o, { wrap: undefined }) : o;
      }),
      all,
    ),
  );
  return done(out, []);
}

/**
 * Copies of objects ready to join a design: clashing names renamed (`headline` → `headline_2`),
 * groups given fresh ids (a group of one copy is none), wraps pointed at the copies' new names, and
 * unlocked. `taken` and `groups` are updated with what the copies use.
 */
function copiesOf(objects: readonly ObjectJson[], taken: Set<string>, groups: Set<string>, dx: number, dy: number): ObjectJson[] {
  const renamed = new Map<string, string>();
  const copies = objects.map((o) => {
    const copy: ObjectJson = { ...o, x: clampCoordinate(o.x + dx), y: clampCoordinate(o.y + dy) };
    delete copy.locked;
    if (o.name !== undefined) {
      const name = uniqueName(o.name, taken);
      taken.add(name);
      if (name !== o.name) renamed.set(o.name, name);
      copy.name = name;
    }
    return copy;
  });
  const members = new Map<string, number>();
  for (const o of copies) if (o.group !== undefined) members.set(o.group, (members.get(o.group) ?? 0) + 1);
  const fresh = new Map<string, string>();
  return copies.map((o) => {
    let out = o;
    if (o.group !== undefined) {
      if ((members.get(o.group) ?? 0) < 2) out = patched(out, { group: undefined });
      else {
        let id = fresh.get(o.group);
        if (id === undefined) {
          id = uniqueName('group_1', groups);
          groups.add(id);
          fresh.set(o.group, id);
        }
        out = patched(out, { group: id });
      }
    }
    const wrap = out.wrap as { object?: unknown } | undefined;
    if (out.type === 'shape' && wrap && typeof wrap.object === 'string' && renamed.has(wrap.object)) {
      out = { ...out, wrap: { ...wrap, object: renamed.get(wrap.object) } };
    }
    return out;
  });
}

const clampCoordinate = (v: number) => Math.min(MAX_COORDINATE, Math.max(-MAX_COORDINATE, v));

/** How far a duplicate or a paste onto its original is moved, template px. */
export const DUPLICATE_OFFSET = 20;

/**
 * Duplicates the chosen objects, each copy just above its original, 20 px right and down, with new
 * unique names (a duplicated group is a new group). Selection: the copies.
 */
export function duplicateObjects(design: DesignJson, indices: readonly number[], where: Where = {}): OpResult {
  const p = prepare(design, indices, where);
  if (isProblem(p)) return { ok: false, error: p };
  if (p.list.objects.length + p.sel.length > MAX_OBJECTS) return fail(p.list.at, `a list holds at most ${MAX_OBJECTS} objects: delete some first`);
  const copies = copiesOf(
    p.sel.map((i) => p.list.objects[i]!),
    namesOf(design),
    groupsOf(design),
    DUPLICATE_OFFSET,
    DUPLICATE_OFFSET,
  );
  const objects: ObjectJson[] = [];
  const selection: number[] = [];
  let k = 0;
  p.list.objects.forEach((o, i) => {
    objects.push(o);
    if (p.sel.includes(i)) {
      selection.push(objects.length);
      objects.push(copies[k++]!);
    }
  });
  return done(withList(design, where, objects), selection);
}

/** The files an object draws: what must travel with it to another design. */
export function assetsOf(o: ObjectJson): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && v !== '') out.push(v);
  };
  switch (o.type) {
    case 'image':
      add(o.path);
      add(o.clip_svg);
      break;
    case 'svg':
      add(o.path);
      add(o.fill_image);
      break;
    case 'video':
      add(o.path);
      break;
    case 'mockup':
      add(o.base);
      if (Array.isArray(o.layers)) {
        for (const l of o.layers as unknown[]) {
          if (typeof l === 'object' && l !== null) {
            add((l as Record<string, unknown>).path);
            add((l as Record<string, unknown>).mask);
          }
        }
      }
      break;
    case 'shape':
      if (typeof o.background === 'object' && o.background !== null) add((o.background as Record<string, unknown>).path);
      break;
  }
  return out;
}

/** The font families an object's text uses: its own (default Inter) and those of its substyles. */
export function familiesOf(o: ObjectJson): string[] {
  if (o.type !== 'text' && o.type !== 'chart') return [];
  const out = [typeof o.font_family === 'string' ? o.font_family : DEFAULT_FONT_FAMILY];
  if (o.type === 'text' && typeof o.text === 'string') {
    for (const m of o.text.matchAll(/<substyle\b[^>]*?\sfont_family="([^"]*)"/g)) out.push(m[1]!);
  }
  return [...new Set(out)];
}

const familyOf = (f: FontEntry) => (typeof f === 'string' ? f : f.family);

/** What the clipboard holds: objects, the fonts entries they need and the files they draw. */
export interface Clipboard {
  format: typeof CLIPBOARD_FORMAT;
  objects: ObjectJson[];
  fonts: FontEntry[];
  assets: string[];
}

export const CLIPBOARD_FORMAT = 'imprint/objects@1';
/** The largest clipboard text a paste reads (a design of 1000 objects is far below it). */
export const MAX_CLIPBOARD_LENGTH = 10_000_000;

/** The chosen objects as clipboard text (JSON), with the fonts entries and the files they use. */
export function copyObjects(design: DesignJson, indices: readonly number[], where: Where = {}): { ok: true; text: string } | { ok: false; error: Problem } {
  const p = prepare(design, indices, where);
  if (isProblem(p)) return { ok: false, error: p };
  const objects = p.sel.map((i) => p.list.objects[i]!);
  const families = new Set(objects.flatMap(familiesOf));
  const declared = design.fonts ?? [DEFAULT_FONT_FAMILY];
  const fonts = declared.filter((f) => families.has(familyOf(f)));
  const assets = [...new Set([...objects.flatMap(assetsOf), ...fonts.flatMap((f) => (typeof f !== 'string' && typeof f.path === 'string' ? [f.path] : []))])];
  const clip: Clipboard = { format: CLIPBOARD_FORMAT, objects, fonts, assets };
  return { ok: true, text: JSON.stringify(clip) };
}

const NOT_OBJECTS = 'the clipboard does not hold objects copied in the Imprint Studio: copy objects in the editor first';

/** Clipboard text as a Clipboard, or why it is not one. Checks what a paste relies on; the engine checks the rest. */
export function readClipboard(text: string): Clipboard | Problem {
  const at = '$clipboard';
  if (typeof text !== 'string' || text.length > MAX_CLIPBOARD_LENGTH) return { path: at, message: NOT_OBJECTS };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { path: at, message: NOT_OBJECTS };
  }
  const clip = value as Partial<Clipboard> | null;
  if (typeof clip !== 'object' || clip === null || clip.format !== CLIPBOARD_FORMAT || !Array.isArray(clip.objects)) return { path: at, message: NOT_OBJECTS };
  const types = new Set<string>(ADDABLE_TYPES);
  for (const [i, o] of (clip.objects as unknown[]).entries()) {
    const path = `${at}.objects[${i}]`;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return { path, message: `expected an object: ${NOT_OBJECTS}` };
    const r = o as Record<string, unknown>;
    if (typeof r.type !== 'string' || !types.has(r.type)) return { path: `${path}.type`, message: `expected an object type of ${ADDABLE_TYPES.join(', ')}` };
    for (const k of ['x', 'y', 'width', 'height'] as const) {
      if (typeof r[k] !== 'number' || !Number.isFinite(r[k])) return { path: `${path}.${k}`, message: `expected ${k} as a number of pixels` };
    }
    if (r.name !== undefined && (typeof r.name !== 'string' || 'message' in cleanName(r.name))) {
      return { path: `${path}.name`, message: `expected a name of 1 to ${MAX_NAME_LENGTH} characters` };
    }
    if (r.group !== undefined && (typeof r.group !== 'string' || r.group === '')) return { path: `${path}.group`, message: 'expected a group id' };
  }
  const fonts = Array.isArray(clip.fonts)
    ? (clip.fonts as unknown[]).filter(
        (f): f is FontEntry =>
          (typeof f === 'string' && f !== '') || (typeof f === 'object' && f !== null && typeof (f as { family?: unknown }).family === 'string'),
      )
    : [];
  const assets = Array.isArray(clip.assets) ? (clip.assets as unknown[]).filter((a): a is string => typeof a === 'string') : [];
  return { format: CLIPBOARD_FORMAT, objects: clip.objects, fonts, assets };
}

export interface Pasted extends Done {
  /** The files the pasted objects draw: the caller copies them into the design's assets. */
  assets: string[];
  /** The `fonts` entries added to the design for the pasted texts. */
  fonts: FontEntry[];
}

const sameBox = (a: ObjectJson, b: ObjectJson) => a.type === b.type && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/**
 * Pastes clipboard text on top of the list: clashing names renamed, fresh group ids, the fonts the
 * texts use added to the design's `fonts`; over copies already in place (a paste into the design it
 * was copied from) it moves 20 px right and down until it lies on none. Selection: the pasted objects.
 */
export function pasteObjects(design: DesignJson, text: string, where: Where = {}): Pasted | { ok: false; error: Problem } {
  const list = listOf(design, where);
  if (isProblem(list)) return { ok: false, error: list };
  const clip = readClipboard(text);
  if (isProblem(clip)) return { ok: false, error: clip };
  if (clip.objects.length === 0) return { ok: false, error: { path: '$clipboard.objects', message: 'the clipboard holds no objects: copy some first' } };
  if (list.objects.length + clip.objects.length > MAX_OBJECTS) {
    return { ok: false, error: { path: list.at, message: `a list holds at most ${MAX_OBJECTS} objects: delete some first` } };
  }
  let offset = 0;
  for (let tries = 0; tries < 100 && clip.objects.some((c) => list.objects.some((o) => sameBox(o, { ...c, x: c.x + offset, y: c.y + offset }))); tries++) {
    offset += DUPLICATE_OFFSET;
  }
  const copies = copiesOf(clip.objects, namesOf(design), groupsOf(design), offset, offset);
  // The fonts entries the texts need and the design lacks (a design without `fonts` has Inter).
  const declared = design.fonts ?? [DEFAULT_FONT_FAMILY];
  const have = new Set(declared.map(familyOf));
  const needed = new Set(copies.flatMap(familiesOf));
  const added: FontEntry[] = [];
  for (const family of needed) {
    if (have.has(family)) continue;
    added.push(clip.fonts.find((f) => familyOf(f) === family) ?? family);
    have.add(family);
  }
  if (added.length > 0 && declared.length + added.length > MAX_FONTS) {
    return {
      ok: false,
      error: {
        path: '$.fonts',
        message: `a design lists at most ${MAX_FONTS} fonts and the pasted texts need ${added.length} more: remove unused fonts first`,
      },
    };
  }
  // A shape pasted without the text it wrapped (and no text of that name here) keeps its own box.
  const names = new Set([...namesOf(design), ...copies.flatMap((c) => (c.name === undefined ? [] : [c.name]))]);
  const placed = copies.map((c) => {
    const target = (c.wrap as { object?: unknown } | undefined)?.object;
    return c.type === 'shape' && typeof target === 'string' && !names.has(target) ? patched(c, { wrap: undefined }) : c;
  });
  let out = withList(design, where, [...list.objects, ...placed]);
  if (added.length > 0) out = { ...out, fonts: [...declared, ...added] };
  const selection = copies.map((_, i) => list.objects.length + i);
  return { ok: true, design: out, selection, assets: clip.assets, fonts: added };
}

// ── order ────────────────────────────────────────────────────────────────────────────────────────

export type OrderMove = 'forward' | 'backward' | 'front' | 'back';

/**
 * Moves the chosen objects in the z-order: one step up past the next object (forward), down
 * (backward), to the top (front) or the bottom (back). Selection: the same objects, where they are now.
 */
export function reorder(design: DesignJson, indices: readonly number[], move: OrderMove, where: Where = {}): OpResult {
  const p = prepare(design, indices, where);
  if (isProblem(p)) return { ok: false, error: p };
  const n = p.list.objects.length;
  const chosen = new Set(p.sel);
  let order = [...Array(n).keys()];
  if (move === 'front') order = [...order.filter((i) => !chosen.has(i)), ...p.sel];
  else if (move === 'back') order = [...p.sel, ...order.filter((i) => !chosen.has(i))];
  else if (move === 'forward') {
    // From the top down, so a block moves up as one and the top one stops at the top.
    for (let k = n - 2; k >= 0; k--) if (chosen.has(order[k]!) && !chosen.has(order[k + 1]!)) [order[k], order[k + 1]] = [order[k + 1]!, order[k]!];
  } else {
    for (let k = 1; k < n; k++) if (chosen.has(order[k]!) && !chosen.has(order[k - 1]!)) [order[k], order[k - 1]] = [order[k - 1]!, order[k]!];
  }
  return arranged(design, p.list, order, chosen);
}

/**
 * Moves the chosen objects, in their order, to `target`: the index the first of them has afterwards
 * (0 = the bottom), as the layers panel's drag drops them.
 */
export function moveToIndex(design: DesignJson, indices: readonly number[], target: number, where: Where = {}): OpResult {
  const p = prepare(design, indices, where);
  if (isProblem(p)) return { ok: false, error: p };
  const chosen = new Set(p.sel);
  const rest = [...p.list.objects.keys()].filter((i) => !chosen.has(i));
  const at = Math.min(Math.max(0, Math.round(Number.isFinite(target) ? target : 0)), rest.length);
  return arranged(design, p.list, [...rest.slice(0, at), ...p.sel, ...rest.slice(at)], chosen);
}

function arranged(design: DesignJson, list: List, order: readonly number[], chosen: ReadonlySet<number>): Done {
  const selection = order.flatMap((i, k) => (chosen.has(i) ? [k] : []));
  if (order.every((i, k) => i === k)) return done(design, selection);
  return done(
    withList(
      design,
      list.where,
      order.map((i) => list.objects[i]!),
    ),
    selection,
  );
}

// ── groups ───────────────────────────────────────────────────────────────────────────────────────

/** The chosen objects and every object sharing a group with one of them: what a click selects. */
export function withGroupMates(design: DesignJson, indices: readonly number[], where: Where = {}): number[] {
  const list = listOf(design, where);
  if (isProblem(list)) return [];
  const ok = indices.filter((i) => Number.isInteger(i) && i >= 0 && i < list.objects.length);
  const groups = new Set(ok.flatMap((i) => (list.objects[i]!.group !== undefined ? [list.objects[i]!.group] : [])));
  const out = new Set(ok);
  list.objects.forEach((o, i) => {
    if (o.group !== undefined && groups.has(o.group)) out.add(i);
  });
  return [...out].sort((a, b) => a - b);
}

/** Groups the chosen objects (two or more) under a new id; members of other groups leave those. */
export function groupObjects(design: DesignJson, indices: readonly number[], where: Where = {}): OpResult {
  const p = prepare(design, indices, where);
  if (isProblem(p)) return { ok: false, error: p };
  if (p.sel.length < 2) return fail(`${p.list.at}[${p.sel[0]}]`, 'select two or more objects to group');
  const id = uniqueName('group_1', groupsOf(design));
  const objects = p.list.objects.map((o, i) => (p.sel.includes(i) ? patched(o, { group: id }) : o));
  const grouped = withList(design, where, objects);
  // Groups its members left may now have one member: that one is no group.
  const all = everyObject(grouped);
  return done(
    mapLists(grouped, (list) => dropLoneGroups([...list], all)),
    p.sel,
  );
}

/** Ungroups the groups the chosen objects are in: all their members. Selection: those members. */
export function ungroupObjects(design: DesignJson, indices: readonly number[], where: Where = {}): OpResult {
  const p = prepare(design, indices, where);
  if (isProblem(p)) return { ok: false, error: p };
  const members = withGroupMates(design, p.sel, where).filter((i) => p.list.objects[i]!.group !== undefined);
  if (members.length === 0) return done(design, p.sel);
  return done(
    mapChosen(design, p.list, members, (o) => patched(o, { group: undefined })),
    members,
  );
}

// ── placement ────────────────────────────────────────────────────────────────────────────────────

/** The box of an object. */
export const boxOf = (o: ObjectJson): Box => ({ x: o.x, y: o.y, width: o.width, height: o.height });

/** The upright rectangle round the chosen objects as drawn (rotation included): the selection's frame. */
export function selectionBounds(design: DesignJson, indices: readonly number[], where: Where = {}): Box | undefined {
  const list = listOf(design, where);
  if (isProblem(list)) return undefined;
  return unionBounds(indices.flatMap((i) => (list.objects[i] ? [rotatedBounds(boxOf(list.objects[i]), list.objects[i].rotation ?? 0)] : [])));
}

/** Moves the chosen objects by (dx, dy) template px. Locked objects refuse. */
export function moveObjects(design: DesignJson, indices: readonly number[], dx: number, dy: number, where: Where = {}): OpResult {
  const p = prepare(design, indices, where, 'moved');
  if (isProblem(p)) return { ok: false, error: p };
  if (!Number.isFinite(dx) || !Number.isFinite(dy)) return fail(p.list.at, 'expected a move by a finite number of pixels');
  return done(
    mapChosen(design, p.list, p.sel, (o) => patched(o, { x: clampCoordinate(o.x + dx), y: clampCoordinate(o.y + dy) })),
    p.sel,
  );
}

/** Places one object's box (from a handle drag: geometry.ts resizeBox). Locked objects refuse. */
export function setBox(design: DesignJson, index: number, box: Partial<Box>, where: Where = {}): OpResult {
  const p = prepare(design, [index], where, 'moved or resized');
  if (isProblem(p)) return { ok: false, error: p };
  for (const k of ['width', 'height'] as const) {
    const v = box[k];
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) return fail(`${p.list.at}[${index}].${k}`, `expected ${k} greater than 0 pixels but received ${v}`);
  }
  for (const k of ['x', 'y'] as const) {
    const v = box[k];
    if (v !== undefined && !Number.isFinite(v)) return fail(`${p.list.at}[${index}].${k}`, `expected ${k} as a number of pixels`);
  }
  const fields: Record<string, number> = {};
  if (box.x !== undefined) fields.x = clampCoordinate(box.x);
  if (box.y !== undefined) fields.y = clampCoordinate(box.y);
  if (box.width !== undefined) fields.width = Math.min(MAX_SIDE, box.width);
  if (box.height !== undefined) fields.height = Math.min(MAX_SIDE, box.height);
  return done(
    mapChosen(design, p.list, [index], (o) => patched(o, fields)),
    [index],
  );
}

const hundredth = (v: number) => Math.round(v * 100) / 100;

/**
 * Resizes the chosen objects together: the selection's frame (selectionBounds) becomes `to`, and
 * each member's centre and sides scale with it (a rotated member's sides by the stretch along its own
 * axes), to 1/100 px. Sides stay at least 1 px. Locked objects refuse.
 */
export function resizeObjects(design: DesignJson, indices: readonly number[], to: Box, where: Where = {}): OpResult {
  const p = prepare(design, indices, where, 'resized');
  if (isProblem(p)) return { ok: false, error: p };
  if (![to.x, to.y, to.width, to.height].every(Number.isFinite) || to.width <= 0 || to.height <= 0) {
    return fail(p.list.at, 'expected a frame with a width and height greater than 0 pixels');
  }
  const from = selectionBounds(design, p.sel, where)!;
  const sx = from.width > 0 ? to.width / from.width : 1;
  const sy = from.height > 0 ? to.height / from.height : 1;
  return done(
    mapChosen(design, p.list, p.sel, (o) => {
      const t = ((o.rotation ?? 0) * Math.PI) / 180;
      // How much the object's own x and y axes stretch under the frame's scaling.
      const kx = Math.hypot(sx * Math.cos(t), sy * Math.sin(t));
      const ky = Math.hypot(sx * Math.sin(t), sy * Math.cos(t));
      const width = Math.min(MAX_SIDE, Math.max(1, hundredth(o.width * kx)));
      const height = Math.min(MAX_SIDE, Math.max(1, hundredth(o.height * ky)));
      const cx = to.x + (o.x + o.width / 2 - from.x) * sx;
      const cy = to.y + (o.y + o.height / 2 - from.y) * sy;
      return patched(o, { x: clampCoordinate(hundredth(cx - width / 2)), y: clampCoordinate(hundredth(cy - height / 2)), width, height });
    }),
    p.sel,
  );
}

/** Degrees into (-180, 180]. */
export function normalAngle(deg: number): number {
  const r = ((((deg + 180) % 360) + 360) % 360) - 180;
  return r === -180 ? 180 : r;
}

/**
 * Turns the chosen objects by `delta` degrees (clockwise) about `pivot` (default: the centre of the
 * selection's frame, for one object its own centre): each object turns and its centre goes round the
 * pivot. Rotation 0 removes the field. Locked objects refuse.
 */
export function rotateObjects(
  design: DesignJson,
  indices: readonly number[],
  delta: number,
  options: Where & { pivot?: { x: number; y: number } } = {},
): OpResult {
  const where: Where = options.slide === undefined ? {} : { slide: options.slide };
  const p = prepare(design, indices, where, 'rotated');
  if (isProblem(p)) return { ok: false, error: p };
  if (!Number.isFinite(delta)) return fail(p.list.at, 'expected a rotation by a finite number of degrees');
  const frame = selectionBounds(design, p.sel, where)!;
  const pivot = options.pivot ?? { x: frame.x + frame.width / 2, y: frame.y + frame.height / 2 };
  const t = (delta * Math.PI) / 180;
  return done(
    mapChosen(design, p.list, p.sel, (o) => {
      const cx = o.x + o.width / 2 - pivot.x;
      const cy = o.y + o.height / 2 - pivot.y;
      const nx = pivot.x + cx * Math.cos(t) - cy * Math.sin(t);
      const ny = pivot.y + cx * Math.sin(t) + cy * Math.cos(t);
      const rotation = hundredth(normalAngle((o.rotation ?? 0) + delta));
      const moved = Math.abs(nx - (o.x + o.width / 2)) > 1e-9 || Math.abs(ny - (o.y + o.height / 2)) > 1e-9;
      return patched(o, {
        rotation: rotation === 0 ? undefined : rotation,
        ...(moved ? { x: clampCoordinate(hundredth(nx - o.width / 2)), y: clampCoordinate(hundredth(ny - o.height / 2)) } : {}),
      });
    }),
    p.sel,
  );
}

/** Sets the rotation of each chosen object about its own centre (the angle field). Locked objects refuse. */
export function setRotation(design: DesignJson, indices: readonly number[], degrees: number, where: Where = {}): OpResult {
  const p = prepare(design, indices, where, 'rotated');
  if (isProblem(p)) return { ok: false, error: p };
  if (!Number.isFinite(degrees)) return fail(p.list.at, 'expected a rotation as a finite number of degrees');
  const rotation = hundredth(normalAngle(degrees));
  return done(
    mapChosen(design, p.list, p.sel, (o) => patched(o, { rotation: rotation === 0 ? undefined : rotation })),
    p.sel,
  );
}

// ── picking ──────────────────────────────────────────────────────────────────────────────────────

export interface PickOptions extends Where {
  /** Let locked objects be picked (the layers panel may; the canvas does not). Default false. */
  locked?: boolean;
  /** Let hidden objects be picked. Default false. */
  hidden?: boolean;
}

const pickable = (o: ObjectJson, options: PickOptions) => (options.locked || o.locked !== true) && (options.hidden || o.hidden !== true);

/** The topmost object whose drawn box (rotation included) holds the point; undefined for none. */
export function objectAt(design: DesignJson, point: { x: number; y: number }, options: PickOptions = {}): number | undefined {
  const list = listOf(design, options);
  if (isProblem(list)) return undefined;
  for (let i = list.objects.length - 1; i >= 0; i--) {
    const o = list.objects[i]!;
    if (pickable(o, options) && boxHolds(boxOf(o), o.rotation ?? 0, point)) return i;
  }
  return undefined;
}

/**
 * The objects a marquee selects: those whose drawn box lies wholly inside `rect` (or, with
 * `touch`, meets it), with their group mates. Locked and hidden objects are left out unless asked for.
 */
export function objectsInRect(design: DesignJson, rect: Box, options: PickOptions & { touch?: boolean } = {}): number[] {
  const list = listOf(design, options);
  if (isProblem(list)) return [];
  const x1 = rect.x + rect.width;
  const y1 = rect.y + rect.height;
  const hit = list.objects.flatMap((o, i) => {
    if (!pickable(o, options)) return [];
    const pts = boxCorners(boxOf(o), o.rotation ?? 0);
    const b = rotatedBounds(boxOf(o), o.rotation ?? 0);
    const inside = pts.every(([px, py]) => px >= rect.x && px <= x1 && py >= rect.y && py <= y1);
    const touches = b.x < x1 && b.x + b.width > rect.x && b.y < y1 && b.y + b.height > rect.y;
    return (options.touch ? touches : inside) ? [i] : [];
  });
  return withGroupMates(design, hit, options).filter((i) => pickable(list.objects[i]!, options));
}
