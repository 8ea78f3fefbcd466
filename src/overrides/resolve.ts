// resolve: Design + objects_overrides → Scene. Pure: validates each override against its object's
// type handler, merges it, and resolves every object into layout-ready values. No I/O.
import { childPath, jsonPath } from '../design/json-path.js';
import { checkContext } from '../design/parse.js';
import type { Design, DesignObject, Scene } from '../design/types.js';
import { validationError } from '../errors.js';
import { bundledFonts, type FontSet } from '../text/fonts.js';
import { issueToError } from '../design/zod-error.js';
import { fillOf } from './shape.js';
import { handlerFor } from './registry.js';

/** Where the design and the overrides sit in the request, for error paths. */
export interface ResolveRoots {
  design: string;
  overrides: string;
}

const DEFAULT_ROOTS: ResolveRoots = { design: '$', overrides: '$.objects_overrides' };

// Keys that would reach an object's prototype instead of a field.
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `{"config.text_replacement_strategy": "fit"}` → `{config: {text_replacement_strategy: "fit"}}`, as the spec writes fields. */
function expandDottedKeys(entry: Record<string, unknown>, at: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    const parts = key.split('.');
    const reserved = parts.find((p) => UNSAFE_KEYS.has(p));
    if (reserved !== undefined) throw validationError(childPath(at, key), `"${reserved}" is not a field name: remove "${key}"`);
    let target = out;
    for (const part of parts.slice(0, -1)) {
      const next = Object.hasOwn(target, part) ? target[part] : {};
      if (typeof next !== 'object' || next === null || Array.isArray(next)) {
        throw validationError(childPath(at, key), `"${key}" conflicts with the field "${part}": give it once, either nested or dotted`);
      }
      target = target[part] = { ...(next as Record<string, unknown>) };
    }
    const last = parts[parts.length - 1]!;
    if (Object.hasOwn(target, last) && parts.length > 1) {
      throw validationError(childPath(at, key), `"${key}" is given twice (nested and dotted): keep one`);
    }
    const existing = target[last];
    target[last] =
      typeof existing === 'object' && existing !== null && typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { ...(existing as object), ...(value as object) }
        : value;
  }
  return out;
}

export function resolveScene(design: Design, overrides: unknown = {}, fonts: FontSet = bundledFonts(), roots: ResolveRoots = DEFAULT_ROOTS): Scene {
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) {
    throw validationError(roots.overrides, 'expected objects_overrides to be an object mapping object names to overrides');
  }
  const ctx = checkContext(design, fonts);
  const byName = new Map<string, number>();
  design.objects.forEach((o, i) => o.name !== undefined && byName.set(o.name, i));

  const objects: DesignObject[] = [...design.objects];
  const overridden: ({ at: string; fields: Set<string> } | undefined)[] = [];

  for (const [name, raw] of Object.entries(overrides as Record<string, unknown>)) {
    const at = childPath(roots.overrides, name);
    const index = byName.get(name);
    if (index === undefined) {
      const names = [...byName.keys()];
      throw validationError(at, `the design has no object named "${name}": use one of ${names.length ? names.map((n) => JSON.stringify(n)).join(', ') : '(none: name objects in the design first)'}`);
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw validationError(at, `expected an object of fields to override for "${name}"`);
    }
    const object = objects[index]!;
    const handler = handlerFor(object);
    const entry = expandDottedKeys(raw as Record<string, unknown>, at);
    const parsed = handler.override.safeParse(entry);
    if (!parsed.success) {
      throw issueToError(parsed.error.issues[0]!, entry, {
        root: at,
        schema: handler.override,
        describe: (p) => (p.length === 0 ? handler.what : undefined),
      });
    }
    const merged = handler.merge(object, parsed.data, at);
    handler.check(merged, at, ctx);
    objects[index] = merged;
    overridden[index] = { at, fields: new Set(Object.keys(entry)) };
  }

  return {
    width: design.width,
    height: design.height,
    duration: design.duration ?? null,
    background: design.background ? fillOf(design.background, childPath(roots.design, 'background')) : { kind: 'color', color: [255, 255, 255, 1] },
    objects: objects.flatMap((o, i) => {
      if (o.hidden) return [];
      const fieldPath = (field: string): string => {
        const ov = overridden[i];
        return ov?.fields.has(field) ? childPath(ov.at, field) : jsonPath(['objects', i, field], roots.design);
      };
      return [handlerFor(o).toScene(o, fieldPath, ctx)];
    }),
  };
}
