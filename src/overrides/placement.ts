// General placement overrides (x, y, width, height, rotation, opacity, hidden), valid on every object type.
import { Placement, type DesignObject } from '../design/schema.js';
import { EASINGS, parseEasing } from '../format/easing.js';
import type { SceneAnimation, SceneObject } from '../scene/scene.js';

export const placementOverrideFields = {
  x: Placement.x.optional(),
  y: Placement.y.optional(),
  width: Placement.width.optional(),
  height: Placement.height.optional(),
  rotation: Placement.rotation.optional(),
  opacity: Placement.opacity.optional(),
  hidden: Placement.hidden.optional(),
};

type SceneBaseFields = Pick<SceneObject, 'box' | 'rotation' | 'opacity' | 'name' | 'scale' | 'start' | 'end' | 'animations'>;

/** Placement and timeline of any object, resolved (easings parsed; parse has checked them). */
export function placementOf(o: DesignObject): SceneBaseFields {
  return {
    ...(o.name === undefined ? {} : { name: o.name }),
    box: { x: o.x, y: o.y, width: o.width, height: o.height },
    rotation: o.rotation ?? 0,
    opacity: o.opacity ?? 1,
    scale: 1,
    start: o.start ?? 0,
    end: o.end ?? null,
    animations: (o.animations ?? []).map((a): SceneAnimation => {
      if (a.type === 'keyframes') {
        return { kind: 'keyframes', property: a.property, keyframes: a.keyframes.map((k) => ({ ...k })), easing: parseEasing(a.easing ?? 'ease-in-out') ?? EASINGS.linear! };
      }
      const edge = a.type === 'slide_in' ? (a.from ?? 'left') : a.type === 'slide_out' ? (a.to ?? 'right') : 'left';
      return { kind: a.type, duration: a.duration, delay: a.delay ?? 0, easing: parseEasing(a.easing ?? 'ease-out') ?? EASINGS.linear!, edge, by: a.type === 'reveal' ? (a.by ?? 'word') : 'word' };
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
