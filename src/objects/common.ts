// What every object type shares: the template fields (name, placement, visibility, timeline), the
// placement fields an override may set, the merge of an override, and placement → scene values.
import { z } from 'zod';
import { Timeline } from '../format/animation.js';
import { EASINGS, parseEasing } from '../format/easing.js';
import { doc, LIMITS, Placement } from '../format/fields.js';
import type { SceneAnimation, SceneObject } from '../scene/scene.js';

/** The largest `blur` in px (a Gaussian reaching 3σ = 750 px beyond the object). */
export const MAX_BLUR = 250;

/**
 * CSS `filter: blur(<blur>px)` on the whole object: what it paints, its drop shadow included (CSS blurs
 * an element's box-shadow with it), then its opacity. Page pixels, whatever the object's rotation.
 */
const Blur = doc(
  z
    .number({ error: `expected a number of pixels from 0 to ${MAX_BLUR} for blur` })
    .finite()
    .min(0, { error: `expected a blur from 0 to ${MAX_BLUR} px` })
    .max(MAX_BLUR, { error: `expected a blur from 0 to ${MAX_BLUR} px` }),
  `Gaussian blur of everything the object paints, exactly CSS filter: blur(<blur>px): σ = blur in canvas pixels, applied after the object's shadow is drawn (the shadow is blurred with it, as CSS blurs box-shadow) and before its opacity. The object's box grows by 3σ so the blur is not cut off. In pdf the blurred object is an image rasterised at 300 dpi of its area. 0 to ${MAX_BLUR}; default 0 (none).`,
  8,
);

/** Every object: placement, name, visibility, the Studio's lock and group, and its place on the timeline. */
export const common = {
  name: doc(
    z.string().min(1).max(LIMITS.maxNameLength),
    'Name used as the key in objects_overrides; unnamed objects cannot be overridden. Several objects may share a name (a role): an override of it applies to every one of them.',
    'headline',
  ).optional(),
  x: Placement.x,
  y: Placement.y,
  width: Placement.width,
  height: Placement.height,
  rotation: Placement.rotation.optional(),
  opacity: Placement.opacity.optional(),
  hidden: Placement.hidden.optional(),
  blur: Blur.optional(),
  // The Studio's own flags: kept in the design so a template reopens as it was left, never read by
  // resolve, layout or paint (placementOf takes neither), so they change no render and no override.
  locked: doc(
    z.boolean(),
    "Studio only, ignored by rendering and not overridable: true keeps the object from being moved, resized, rotated or deleted in the Studio's editor (and from being picked on its canvas) until it is unlocked. Default false.",
    true,
  ).optional(),
  group: doc(
    z.string().min(1).max(LIMITS.maxNameLength),
    "Studio only, ignored by rendering and not overridable: objects with the same group id are selected, moved, resized and copied together in the Studio's editor (a button's shape and its label). Any text; the editor makes ids such as group_1. Unlike name, it is not an override key. Default none.",
    'group_1',
  ).optional(),
  ...Timeline,
};

/**
 * Any template object, as far as the common fields go: what the shared checks and conversions read.
 * Typed from the field schemas rather than from the union of object types, which is built from this.
 */
export type PlacedObject = { type: string } & z.output<z.ZodObject<typeof common>>;

export const placementOverrideFields = {
  x: Placement.x.optional(),
  y: Placement.y.optional(),
  width: Placement.width.optional(),
  height: Placement.height.optional(),
  rotation: Placement.rotation.optional(),
  opacity: Placement.opacity.optional(),
  hidden: Placement.hidden.optional(),
  blur: Blur.optional(),
};

type SceneBaseFields = Pick<SceneObject, 'box' | 'rotation' | 'opacity' | 'name' | 'scale' | 'start' | 'end' | 'animations' | 'blur'>;

/** Placement and timeline of any object, resolved (easings parsed; parse has checked them). */
export function placementOf(o: PlacedObject): SceneBaseFields {
  return {
    ...(o.name === undefined ? {} : { name: o.name }),
    box: { x: o.x, y: o.y, width: o.width, height: o.height },
    rotation: o.rotation ?? 0,
    opacity: o.opacity ?? 1,
    ...(o.blur ? { blur: o.blur } : {}),
    scale: 1,
    start: o.start ?? 0,
    end: o.end ?? null,
    animations: (o.animations ?? []).map((a): SceneAnimation => {
      if (a.type === 'keyframes') {
        return {
          kind: 'keyframes',
          property: a.property,
          keyframes: a.keyframes.map((k) => ({ ...k })),
          easing: parseEasing(a.easing ?? 'ease-in-out') ?? EASINGS.linear!,
        };
      }
      const edge = a.type === 'slide_in' ? (a.from ?? 'left') : a.type === 'slide_out' ? (a.to ?? 'right') : 'left';
      return {
        kind: a.type,
        duration: a.duration,
        delay: a.delay ?? 0,
        easing: parseEasing(a.easing ?? 'ease-out') ?? EASINGS.linear!,
        edge,
        by: a.type === 'reveal' ? (a.by ?? 'word') : 'word',
      };
    }),
  };
}

/** Shallow merge, except that nested option objects (config, background, border) merge key by key. */
export function mergeFields<T extends object>(object: T, override: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...(object as Record<string, unknown>) };
  for (const [k, v] of Object.entries(override)) {
    if (v === undefined) continue;
    const cur = out[k];
    out[k] = isPlainObject(v) && isPlainObject(cur) ? { ...cur, ...v } : v;
  }
  return out as T;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
