// The overrides the Studio sends: per object, only the fields the user changed from the template's
// values (ObjectInfo.values), nested objects (`config`, `border`, `background`) kept as objects with
// only their changed leaves. A field edited back to the template's value leaves the entry, an entry
// left empty leaves the overrides. Also the interface B shape (`[{name, object}, {name, slide}]`). No DOM.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Entry = Record<string, Json>;
export type Overrides = Record<string, Entry>;

const isRecord = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** obj[key] = value as an own property, also for a key such as `__proto__` (an object may have any name). */
function put<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export function getAt(obj: unknown, path: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const k of path) {
    if (!isRecord(cur) || !Object.hasOwn(cur, k)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** A copy of `obj` with `path` set to `value`, or removed (and emptied parents with it) when value is undefined. */
export function setAt(obj: Entry, path: readonly string[], value: Json | undefined): Entry {
  const [head, ...rest] = path;
  if (head === undefined) return obj;
  const out: Entry = { ...obj };
  if (rest.length === 0) {
    if (value === undefined) delete out[head];
    else put(out, head, value);
    return out;
  }
  const current = Object.hasOwn(out, head) ? out[head] : undefined;
  const next = setAt(isRecord(current) ? current : {}, rest, value);
  if (Object.keys(next).length === 0) delete out[head];
  else put<Json>(out, head, next);
  return out;
}

/** The value the object shows: the override where there is one, the template's value otherwise. */
export function effectiveValue(values: Record<string, unknown>, entry: Entry | undefined, path: readonly string[]): unknown {
  const o = getAt(entry, path);
  return o !== undefined ? o : getAt(values, path);
}

/**
 * The entry after the user set `path` to `value`: kept only when it differs from the template's
 * value; `undefined` removes the override of that field.
 */
export function editEntry(values: Record<string, unknown>, entry: Entry | undefined, path: readonly string[], value: Json | undefined): Entry {
  const same = value !== undefined && deepEqual(getAt(values, path), value);
  return setAt(entry ?? {}, path, same ? undefined : value);
}

/** The overrides with one object's entry replaced; an empty entry is dropped. */
export function withEntry(overrides: Overrides, name: string, entry: Entry): Overrides {
  const out = { ...overrides };
  if (Object.keys(entry).length === 0) delete out[name];
  else put(out, name, entry);
  return out;
}

export interface SlideOverride {
  path: string;
}

/** Interface B's overrides: one `{name, object}` per object entry, one `{name, slide}` per slide replaced. */
export function toInterfaceB(
  overrides: Overrides,
  slides: Record<string, SlideOverride> = {},
): ({ name: string; object: Entry } | { name: string; slide: SlideOverride })[] {
  return [...Object.entries(overrides).map(([name, object]) => ({ name, object })), ...Object.entries(slides).map(([name, slide]) => ({ name, slide }))];
}

/**
 * An error path of a preview sent in interface B's list form (`$.objects_overrides[2].object.text`)
 * as the map form names it (`objects_overrides`, the object's name, `text`), so the form can show it
 * under its field; other paths come back as they are.
 */
export function byObjectName(segments: readonly (string | number)[], list: ReturnType<typeof toInterfaceB>): (string | number)[] {
  const [root, index, kind, ...rest] = segments;
  if (root !== 'objects_overrides' || typeof index !== 'number' || kind !== 'object') return [...segments];
  const entry = list[index];
  return entry ? ['objects_overrides', entry.name, ...rest] : [...segments];
}
