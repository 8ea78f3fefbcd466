// General placement overrides (x, y, width, height, rotation, opacity, hidden), valid on every object type.
import { Placement } from '../design/schema.js';
import type { DesignObject, Rect } from '../design/types.js';

export const placementOverrideFields = {
  x: Placement.x.optional(),
  y: Placement.y.optional(),
  width: Placement.width.optional(),
  height: Placement.height.optional(),
  rotation: Placement.rotation.optional(),
  opacity: Placement.opacity.optional(),
  hidden: Placement.hidden.optional(),
};

export function placementOf(o: DesignObject): { box: Rect; rotation: number; opacity: number; name?: string } {
  return {
    ...(o.name === undefined ? {} : { name: o.name }),
    box: { x: o.x, y: o.y, width: o.width, height: o.height },
    rotation: o.rotation ?? 0,
    opacity: o.opacity ?? 1,
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
