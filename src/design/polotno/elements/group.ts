// Polotno groups: no Imprint object of their own. What a group sets (opacity, visibility, animations)
// passes down to every element in it, and a motion Imprint cannot give a whole group is refused.
import type { ConvertedObject } from '../imprint-types.js';
import type { PolotnoAnimation, PolotnoElement, PolotnoGroupInput } from '../schema.js';
import { refuse, round } from '../shared.js';
import type { Shaped } from './common.js';

/** What the groups around an element pass on to it. */
export interface Inherited {
  readonly opacity: number;
  readonly hidden: boolean;
  readonly animations: readonly PolotnoAnimation[];
}

/** An element of the page itself, in no group. */
export const UNGROUPED: Inherited = { opacity: 1, hidden: false, animations: [] };

/** The children of a group to convert (those shown in export), and what it passes on to them. */
export function enterGroup(g: PolotnoGroupInput, at: string, inherited: Inherited): { children: PolotnoElement[]; next: Inherited } {
  const children = (g.children ?? []).filter((ch) => ch.showInExport !== false);
  const opacity = g.opacity ?? 1;
  const leaves = countLeaves(children);
  // Konva multiplies a group's opacity into each child's (overlapping children show through each
  // other), which is what multiplying it into every element does; fades and blinks likewise. A zoom
  // or a turn of the group moves its elements around the group's centre, not their own.
  const animations = (g.animations ?? []).filter((a) => a.enabled !== false && (a.name ?? 'none') !== 'none');
  if (animations.some((a) => a.name === 'zoom' || a.name === 'rotate') && leaves > 1) {
    refuse(
      at,
      'animations',
      'zoom and rotate animations of a group of several elements turn them around the group centre, which Imprint cannot: remove it and animate the elements',
    );
  }
  const next = {
    opacity: inherited.opacity * opacity,
    hidden: inherited.hidden || g.visible === false,
    animations: [...inherited.animations, ...animations],
  };
  return { children, next };
}

/** The element with its groups' animations after its own, converted as one list. */
export function withGroupAnimations(e: Shaped, inherited: Inherited): Shaped {
  return { ...e, animations: [...(e.animations ?? []), ...inherited.animations] };
}

/** Applies the groups' opacity and visibility to an element's converted object. */
export function applyGroups(out: ConvertedObject, inherited: Inherited): void {
  if (inherited.opacity !== 1) {
    out.opacity = round((out.opacity ?? 1) * inherited.opacity);
    // Opacity keyframes (a blink) are absolute: the group's opacity scales them too.
    for (const a of out.animations ?? []) {
      if (a.type === 'keyframes' && a.property === 'opacity') {
        a.keyframes = a.keyframes.map((k) => ({ time: k.time, value: round(k.value * inherited.opacity) }));
      }
    }
  }
  if (inherited.hidden) out.hidden = true;
}

function countLeaves(list: readonly PolotnoElement[]): number {
  return list.reduce((n, e) => n + (e.type === 'group' ? countLeaves(e.children ?? []) : 1), 0);
}
