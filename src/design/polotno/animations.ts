// Polotno animations (enter/exit/loop presets: fade, move, zoom, rotate, blink) → Imprint animations:
// presets where Imprint has the same motion, keyframes on placement, opacity and scale otherwise.
// The motions follow Polotno's renderer (a move starts 200 × strength px away, a zoom at 0.75 or 1.25).
import type { ImprintAnimatedProperty, ImprintAnimation, ImprintKeyframes } from './imprint-types.js';
import type { PolotnoAnimation } from './schema.js';

/** Polotno's schema does not store an easing; its presets ease out, except loops, which are linear. */
const EASING = 'ease-out';
const MOVE_PX = 200;
const MAX_KEYFRAMES = 64;

export interface AnimationTarget {
  /** The object's Imprint box and rotation (centre pivot) at rest. */
  x: number;
  y: number;
  rotation: number;
  opacity: number;
  /** Seconds: when the object's page starts and how long it lasts (keyframe times are from the video's or slide's start). */
  pageDuration: number;
}

export class AnimationError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

// Polotno's direction is the way the element moves: "right" comes from the left.
const DIRECTIONS: Record<string, [number, number]> = {
  right: [1, 0],
  left: [-1, 0],
  up: [0, -1],
  down: [0, 1],
  'bottom-right': [1, 1],
  'bottom-left': [-1, 1],
  'top-right': [1, -1],
  'top-left': [-1, -1],
};

function num(v: unknown, fallback: number, field: string): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new AnimationError(field, `expected a number but received ${JSON.stringify(v)}`);
  return v;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

const round = (v: number): number => Math.round(v * 1e6) / 1e6;

/**
 * Keyframes from a to b over [from, to]. An exit starts with the value at rest from the page's start
 * (it holds there anyway), so the timeline sees it as motion after a rest, not as an entrance.
 */
function ramp(property: ImprintAnimatedProperty, from: number, to: number, a: number, b: number, easing = EASING, exit = false): ImprintKeyframes {
  const start = round(Math.max(0, from));
  return {
    type: 'keyframes',
    property,
    easing,
    keyframes: [
      ...(exit && start > 0 ? [{ time: 0, value: round(a) }] : []),
      { time: start, value: round(a) },
      { time: round(Math.max(0, to)), value: round(b) },
    ],
  };
}

/** The Imprint animations for one element's Polotno animations; disabled ones are left out. */
export function convertAnimations(list: readonly PolotnoAnimation[], t: AnimationTarget): ImprintAnimation[] {
  return mergeKeyframes(presetsAndKeyframes(list, t));
}

/**
 * Imprint applies animations in order and the last keyframes of a property win at every moment, so an
 * enter and an exit on the same property become one keyframe list (their intervals must not overlap).
 */
function mergeKeyframes(list: ImprintAnimation[]): ImprintAnimation[] {
  const out: ImprintAnimation[] = [];
  const byProperty = new Map<string, ImprintKeyframes>();
  for (const k of list) {
    if (k.type !== 'keyframes') {
      out.push(k);
      continue;
    }
    const prev = byProperty.get(k.property);
    if (!prev) {
      const copy = { ...k, keyframes: [...k.keyframes] };
      byProperty.set(k.property, copy);
      out.push(copy);
      continue;
    }
    // An exit's leading rest keyframes repeat where the entrance ended: they fold into it.
    const end = prev.keyframes[prev.keyframes.length - 1]!;
    const incoming = k.keyframes.filter((f) => !(f.time <= end.time && f.value === end.value));
    const overlap = incoming.length > 0 && incoming[0]!.time < end.time;
    if (overlap || prev.easing !== k.easing) {
      throw new AnimationError(
        '',
        `two animations move the same property (${k.property}) ${overlap ? 'at the same time' : 'with different easings'}: Imprint cannot combine them; keep one of them`,
      );
    }
    prev.keyframes.push(...incoming);
  }
  return out;
}

function presetsAndKeyframes(list: readonly PolotnoAnimation[], t: AnimationTarget): ImprintAnimation[] {
  const out: ImprintAnimation[] = [];
  list.forEach((a, i) => {
    if (a.enabled === false) return;
    const name = a.name ?? 'none';
    if (name === 'none') return;
    const field = `[${i}]`;
    const duration = (a.duration ?? 500) / 1000;
    const delay = (a.delay ?? 0) / 1000;
    if (duration <= 0) throw new AnimationError(`${field}.duration`, 'expected a duration greater than 0 ms');
    const data = a.data ?? {};
    const strength = num(data.strength, 1, `${field}.data.strength`);
    // Enter runs from the page start + delay; exit ends delay before the page ends (Imprint's out presets).
    const start = a.type === 'exit' ? t.pageDuration - delay - duration : delay;
    const end = start + duration;
    const enter = a.type === 'enter';
    switch (name) {
      case 'fade': {
        if (a.type === 'loop') break;
        const fade: Extract<ImprintAnimation, { type: 'fade_in' | 'fade_out' }> = { type: enter ? 'fade_in' : 'fade_out', duration: round(duration) };
        if (delay > 0) fade.delay = round(delay);
        fade.easing = 'linear';
        out.push(fade);
        return;
      }
      case 'move': {
        if (a.type === 'loop') break;
        const dirName = data.direction === undefined ? 'right' : text(data.direction);
        const dir = DIRECTIONS[dirName];
        if (!dir) {
          throw new AnimationError(
            `${field}.data.direction`,
            `expected one of ${Object.keys(DIRECTIONS).join(', ')} for a move animation but received ${JSON.stringify(dirName)}`,
          );
        }
        const d = MOVE_PX * strength;
        // Enter: from d px against the direction to rest; exit: from rest d px along it.
        const [fx, fy] = enter ? [-dir[0] * d, -dir[1] * d] : [0, 0];
        const [tx, ty] = enter ? [0, 0] : [dir[0] * d, dir[1] * d];
        if (dir[0] !== 0) out.push(ramp('x', start, end, t.x + fx, t.x + tx, EASING, !enter));
        if (dir[1] !== 0) out.push(ramp('y', start, end, t.y + fy, t.y + ty, EASING, !enter));
        return;
      }
      case 'zoom': {
        if (a.type === 'loop') break;
        const dirName = data.direction === undefined ? 'in' : text(data.direction);
        if (dirName !== 'in' && dirName !== 'out') {
          throw new AnimationError(`${field}.data.direction`, `expected "in" or "out" for a zoom animation but received ${JSON.stringify(dirName)}`);
        }
        const far = dirName === 'in' ? 1 - 0.25 * strength : 1 + 0.25 * strength;
        out.push(enter ? ramp('scale', start, end, Math.max(0, far), 1) : ramp('scale', start, end, 1, Math.max(0, far), EASING, true));
        return;
      }
      case 'rotate': {
        // One full turn per duration, around the centre; a loop turns for the whole page.
        if (a.type !== 'loop') {
          out.push(
            enter ? ramp('rotation', start, end, t.rotation - 360, t.rotation) : ramp('rotation', start, end, t.rotation, t.rotation + 360, EASING, true),
          );
          return;
        }
        const turns = (t.pageDuration - delay) / duration;
        out.push(ramp('rotation', delay, t.pageDuration, t.rotation, t.rotation + 360 * turns, 'linear'));
        return;
      }
      case 'blink': {
        if (a.type !== 'loop') break;
        // Opacity as a triangle wave with the animation's period, for the rest of the page.
        const keyframes: { time: number; value: number }[] = [];
        for (let s = delay, k = 0; s <= t.pageDuration + 1e-9; s += duration / 2, k++) {
          keyframes.push({ time: round(s), value: k % 2 === 0 ? t.opacity : 0 });
          if (keyframes.length > MAX_KEYFRAMES) {
            throw new AnimationError(
              `${field}.duration`,
              `a blink this fast needs more than ${MAX_KEYFRAMES} keyframes over the page: make it slower or the page shorter`,
            );
          }
        }
        out.push({ type: 'keyframes', property: 'opacity', easing: 'linear', keyframes });
        return;
      }
      default:
        break;
    }
    throw new AnimationError(
      `${field}.name`,
      `the ${a.type} animation "${name}" is not supported: use fade, move or zoom for enter and exit, rotate or blink for loop (bounce and cameraZoom have no exact equivalent)`,
    );
  });
  return out;
}
