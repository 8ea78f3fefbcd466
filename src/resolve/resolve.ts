// resolve: Design + objects_overrides → Scene. Pure: validates each override against its object's
// type handler, merges it, and resolves every object into layout-ready values. No I/O.
import { childPath } from '../format/json-path.js';
import { checkContext } from '../design/parse.js';
import { bleedOf, type Design } from '../design/schema.js';
import type { DesignObject } from '../objects/registry.js';
import type { HiddenText, Scene, SceneFill, SceneObject } from '../scene/scene.js';
import { ImprintError, validationError } from '../errors.js';
import { bundledFonts, type FontSet } from '../text/fonts.js';
import { issueToError } from '../format/zod-error.js';
import { fillOf } from '../format/fill.js';
import { slidesOf } from './slides.js';
import { slotsOf, type Slot } from '../design/slots.js';
import { parseImageRef } from '../format/image-ref.js';
import { ImageRef } from '../format/fields.js';
import { z } from 'zod';
import { handlerFor } from '../objects/registry.js';

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
        ? { ...existing, ...value }
        : value;
  }
  return out;
}

interface OverrideEntry {
  name: string;
  raw: unknown;
  at: string;
  kind: 'object' | 'slide';
}

/** Interface A's map { name: fields } or interface B's list [{ name, object } | { name, slide }]. */
function entriesOf(overrides: unknown, root: string): OverrideEntry[] {
  if (Array.isArray(overrides)) {
    return overrides.map((item: unknown, i): OverrideEntry => {
      const at = childPath(root, i);
      if (item === null || typeof item !== 'object' || Array.isArray(item))
        throw validationError(at, 'expected { "name": "…", "object": {…} } or { "name": "…", "slide": {…} }');
      const { name, object, slide, ...extra } = item as Record<string, unknown>;
      const unknown = Object.keys(extra)[0];
      if (unknown !== undefined)
        throw validationError(childPath(at, unknown), `unknown field "${unknown}": remove it; an override has name and one of object or slide`);
      if (typeof name !== 'string' || name === '') throw validationError(childPath(at, 'name'), 'expected the name of an object or slide');
      if ((object === undefined) === (slide === undefined)) throw validationError(at, 'give exactly one of object or slide');
      return object !== undefined
        ? { name, raw: object, at: childPath(at, 'object'), kind: 'object' }
        : { name, raw: slide, at: childPath(at, 'slide'), kind: 'slide' };
    });
  }
  if (overrides === null || typeof overrides !== 'object') {
    throw validationError(root, 'expected objects_overrides to be an object mapping object names to overrides');
  }
  return Object.entries(overrides as Record<string, unknown>).map(([name, raw]) => ({ name, raw, at: childPath(root, name), kind: 'object' }));
}

export const SlideOverride = z.strictObject({
  path: ImageRef.meta({ description: 'Replaces the slide background with this image (centre-cropped).', examples: ['asset:photo'] }),
});

export function resolveScene(design: Design, overrides: unknown = {}, fonts: FontSet = bundledFonts(), roots: ResolveRoots = DEFAULT_ROOTS): Scene {
  const ctx = { ...checkContext(design, fonts), overrides: true };
  const slots = slotsOf(design, roots.design);
  const byName = new Map<string, number[]>();
  slots.forEach((s, i) => {
    if (s.object.name !== undefined) byName.set(s.object.name, [...(byName.get(s.object.name) ?? []), i]);
  });
  const objects: DesignObject[] = slots.map((s) => s.object);
  const overridden: ({ at: string; fields: Set<string> } | undefined)[] = [];
  const slideBackgrounds = new Map<number, { path: string; at: string }>();

  for (const { name, raw, at, kind } of entriesOf(overrides, roots.overrides)) {
    if (kind === 'slide') {
      const index = (design.slides ?? []).findIndex((s) => s.name === name);
      if (index < 0) {
        const names = (design.slides ?? []).flatMap((s) => (s.name ? [JSON.stringify(s.name)] : []));
        throw validationError(
          at.replace(/\.slide$/, '.name'),
          `the design has no slide named "${name}": use one of ${names.join(', ') || '(none: name the slides first)'}`,
        );
      }
      const parsed = SlideOverride.safeParse(raw);
      if (!parsed.success)
        throw issueToError(parsed.error.issues[0]!, raw, {
          root: at,
          schema: SlideOverride,
          describe: (p) => (p.length === 0 ? 'a slide override' : undefined),
        });
      parseImageRef(parsed.data.path, childPath(at, 'path'));
      slideBackgrounds.set(index, { path: parsed.data.path, at: childPath(at, 'path') });
      continue;
    }
    const indices = byName.get(name);
    if (indices === undefined) {
      const names = [...byName.keys()];
      throw validationError(
        at,
        `the design has no object named "${name}": use one of ${names.length ? names.map((n) => JSON.stringify(n)).join(', ') : '(none: name objects in the design first)'}`,
      );
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw validationError(at, `expected an object of fields to override for "${name}"`);
    }
    const entry = expandDottedKeys(raw as Record<string, unknown>, at);
    // A name several objects share is a role: the override applies to every one of them, so it must suit each.
    for (const index of indices) {
      const object = objects[index]!;
      const handler = handlerFor(object);
      try {
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
      } catch (e) {
        // Objects of one type fail alike: the plain error says it. Mixed types: say which one the field does not fit.
        const mixed = new Set(indices.map((i) => slots[i]!.object.type)).size > 1;
        throw mixed && e instanceof ImprintError ? sharedNameError(e, name, indices, index, slots) : e;
      }
      overridden[index] = { at, fields: new Set(Object.keys(entry)) };
    }
  }

  const hiddenTexts: HiddenText[] = [];
  const sceneOf = (i: number): SceneObject[] => {
    const o = objects[i]!;
    const fieldPath = (field: string): string => {
      const ov = overridden[i];
      return ov?.fields.has(field) ? childPath(ov.at, field) : childPath(slots[i]!.at, field);
    };
    if (o.hidden) {
      // Not drawn, but the fit report names it (layout/timeline.ts absentTexts).
      if (o.type === 'text' && o.name !== undefined) {
        const text = handlerFor(o).toScene(o, fieldPath, ctx);
        if (text.type === 'text') hiddenTexts.push({ text, slide: slots[i]!.slide });
      }
      return [];
    }
    return [handlerFor(o).toScene(o, fieldPath, ctx)];
  };
  const canvas = { width: design.width, height: design.height };
  const bleed = bleedOf(design);
  const print = { ...(design.dpi === undefined ? {} : { dpi: design.dpi }), ...(bleed ? { bleed } : {}) };
  const audioAt = childPath(roots.design, 'audio', 'path');
  const audio = design.audio
    ? { file: { ...parseImageRef(design.audio.path, audioAt), at: audioAt }, start: design.audio.start ?? 0, fadeOut: design.audio.fade_out ?? 1 }
    : null;
  // No background: slides stand on black; a still design is transparent (png, webp and avif keep the
  // alpha; jpg, pdf and mp4 have none or show it as white).
  const background: SceneFill = design.background
    ? fillOf(design.background, childPath(roots.design, 'background'))
    : { kind: 'color', color: design.slides ? [0, 0, 0, 1] : [255, 255, 255, 0] };
  const posterTime = design.poster_time ?? null;
  const lang = ctx.lang === undefined ? {} : { lang: ctx.lang };

  if (design.slides) {
    const slides = slidesOf(design.slides, canvas, bleed, (si) => slots.flatMap((s, i) => (s.slide === si ? sceneOf(i) : [])), slideBackgrounds, roots.design);
    checkPosterTime(posterTime, slides.duration, roots.design);
    return {
      ...canvas,
      ...print,
      duration: slides.duration,
      slides: true,
      posterTime,
      audio,
      background,
      ...lang,
      objects: slides.groups,
      ...hiddenOf(hiddenTexts),
    };
  }
  checkPosterTime(posterTime, design.duration ?? null, roots.design);
  const visible = slots.flatMap((_, i) => sceneOf(i));
  return {
    ...canvas,
    ...print,
    duration: design.duration ?? null,
    slides: false,
    posterTime,
    audio,
    background,
    ...lang,
    objects: visible,
    ...hiddenOf(hiddenTexts),
  };
}

/** An override of a shared name that does not suit one of its objects: the error names them all and the one it failed on. */
function sharedNameError(e: ImprintError, name: string, indices: readonly number[], failed: number, slots: readonly Slot[]): ImprintError {
  const list = indices.map((i) => `${handlerFor(slots[i]!.object).what} at ${slots[i]!.at}`).join(', ');
  const one = `${handlerFor(slots[failed]!.object).what} at ${slots[failed]!.at}`;
  return new ImprintError(
    e.code,
    e.path,
    `"${name}" names ${indices.length} objects (${list}) and the override applies to every one of them, but not to ${one}: ${e.message}. Override only fields all of them have, or give that object a name of its own`,
    { cause: e },
  );
}

const hiddenOf = (texts: HiddenText[]): Pick<Scene, 'hiddenTexts'> => (texts.length > 0 ? { hiddenTexts: texts } : {});

/** `poster_time` picks a moment of an animated design, so it needs a length and must fall inside it. */
function checkPosterTime(posterTime: number | null, duration: number | null, root: string): void {
  if (posterTime === null) return;
  const at = childPath(root, 'poster_time');
  if (duration === null) throw validationError(at, 'poster_time picks a moment of an animated design: give the design a "duration", or remove poster_time');
  if (posterTime > duration)
    throw validationError(at, `poster_time is ${posterTime} s but the design lasts ${duration} s: give a second from 0 to ${duration}`);
}
