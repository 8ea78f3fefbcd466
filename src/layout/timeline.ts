// Animation sampling: the scene as it stands at time t. Pure: objects outside their start/end are
// dropped, keyframes and presets set each object's box, rotation, opacity, scale and text reveal.
import { ease } from '../format/easing.js';
import type { AnimatedProperty, Scene, SceneAnimation, SceneObject, SceneText } from '../scene/scene.js';
import type { TextFitReport } from './text.js';

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);

function keyframeValue(a: Extract<SceneAnimation, { kind: 'keyframes' }>, t: number): number {
  const ks = a.keyframes;
  if (t <= ks[0]!.time) return ks[0]!.value;
  for (let i = 1; i < ks.length; i++) {
    const k = ks[i]!;
    if (t <= k.time) {
      const prev = ks[i - 1]!;
      return prev.value + (k.value - prev.value) * ease(a.easing, (t - prev.time) / (k.time - prev.time));
    }
  }
  return ks[ks.length - 1]!.value;
}

function setProperty(o: SceneObject, property: AnimatedProperty, value: number): void {
  switch (property) {
    case 'x':
    case 'y':
    case 'width':
    case 'height':
      o.box = { ...o.box, [property]: property === 'width' || property === 'height' ? Math.max(1e-3, value) : value };
      return;
    case 'rotation':
      o.rotation = value;
      return;
    case 'opacity':
      o.opacity = clamp01(value);
      return;
    case 'scale':
      o.scale = Math.max(0, value);
  }
}

/** The object at time t, or null when it is not on screen then. */
export function sampleObject(o: SceneObject, t: number, scene: Pick<Scene, 'width' | 'height' | 'duration'>): SceneObject | null {
  if (t < o.start || (o.end !== null && t >= o.end)) return null;
  if (o.type === 'group') {
    // Children live on the group's own clock.
    const local = t - o.start;
    const objects = o.objects.flatMap((c) => sampleObject(c, local, { ...scene, duration: o.end === null ? scene.duration : o.end - o.start }) ?? []);
    if (o.animations.length === 0) return { ...o, objects };
    return sampleAnimations({ ...o, objects }, t, scene);
  }
  if (o.type === 'video') {
    const playing = { ...o, playTime: t - o.start };
    return o.animations.length === 0 ? playing : sampleAnimations(playing, t, scene);
  }
  if (o.animations.length === 0) return o;
  return sampleAnimations(o, t, scene);
}

function sampleAnimations(o: SceneObject, t: number, scene: Pick<Scene, 'width' | 'height' | 'duration'>): SceneObject {
  const s: SceneObject = { ...o, box: { ...o.box } };
  const end = o.end ?? scene.duration ?? Number.POSITIVE_INFINITY;
  for (const a of o.animations) {
    if (a.kind === 'keyframes') {
      setProperty(s, a.property, keyframeValue(a, t));
      continue;
    }
    const out = a.kind === 'fade_out' || a.kind === 'slide_out';
    const from = out ? end - a.delay - a.duration : o.start + a.delay;
    const p = ease(a.easing, clamp01((t - from) / a.duration));
    const { x, y, width, height } = s.box;
    const offset = { left: -(x + width), right: scene.width - x, top: -(y + height), bottom: scene.height - y }[a.edge];
    const horizontal = a.edge === 'left' || a.edge === 'right';
    switch (a.kind) {
      case 'fade_in':
        s.opacity *= p;
        break;
      case 'fade_out':
        s.opacity *= 1 - p;
        break;
      case 'slide_in':
      case 'slide_out': {
        const shift = offset * (a.kind === 'slide_in' ? 1 - p : p);
        s.box = horizontal ? { ...s.box, x: x + shift } : { ...s.box, y: y + shift };
        break;
      }
      case 'scale_in':
        s.scale *= p;
        break;
      case 'reveal':
        if (s.type === 'text') s.reveal = { by: a.by, progress: p };
        break;
    }
  }
  return s;
}

export function sampleScene(scene: Scene, t: number): Scene {
  const objects: SceneObject[] = [];
  for (const o of scene.objects) {
    const s = sampleObject(o, t, scene);
    if (s) objects.push(s);
  }
  return { ...scene, objects };
}

/** Seconds as a person reads them: at most two decimals, no trailing zeros. */
const seconds = (t: number): string => `${Math.round(t * 100) / 100} s`;

/** A fit report entry for a named text that was not laid out: the template's size, nothing measured. */
function absentEntry(o: SceneText, reason: string, appearsAt?: number): TextFitReport {
  return {
    name: o.name ?? null,
    type: 'text',
    font_size: o.fontSize,
    line_count: 0,
    shrunk: false,
    clipped: false,
    word_broken: false,
    missing_characters: [],
    height: o.box.height,
    hidden: true,
    hidden_reason: reason,
    // Slide starts are sums of durations less transitions: 2.6, not 2.5999999999999996.
    ...(appearsAt === undefined ? {} : { appears_at: Math.round(appearsAt * 1e6) / 1e6 }),
  };
}

/**
 * Fit report entries for the named texts that are not on screen at time `t` (video seconds): hidden
 * by their `hidden` field, not appeared yet, or gone. Without them a caller that looks a text up in
 * the report (the Studio's fit panel) finds nothing and cannot tell why. Times are on the design's
 * timeline: a slide's objects are counted from the slide's start.
 */
export function absentTexts(scene: Pick<Scene, 'objects' | 'hiddenTexts'>, t: number): TextFitReport[] {
  const out: TextFitReport[] = [];
  for (const { text: o } of scene.hiddenTexts ?? [])
    out.push(absentEntry(o, `${o.name} is hidden: its "hidden" is true (override it with "hidden": false to show it)`));
  const walk = (objects: readonly SceneObject[], offset: number, from: number, to: number): void => {
    for (const o of objects) {
      // The window the object is on screen, within its parent's (a slide's objects live within the slide).
      const start = Math.max(from, offset + o.start);
      const end = Math.min(to, o.end === null ? to : offset + o.end);
      if (o.type === 'group') walk(o.objects, offset + o.start, start, end);
      if (o.type !== 'text' || o.name === undefined || (t >= start && t < end)) continue;
      if (t < start) out.push(absentEntry(o, `${o.name} is hidden at ${seconds(t)} (it appears at ${seconds(start)})`, start));
      else if (end > start) out.push(absentEntry(o, `${o.name} is hidden at ${seconds(t)} (it is on screen from ${seconds(start)} to ${seconds(end)})`));
      else out.push(absentEntry(o, `${o.name} is never on screen: its start and end leave it no time within its slide`));
    }
  };
  // As sampleObject: an object without an end stays on screen (the last frame included).
  walk(scene.objects, 0, 0, Number.POSITIVE_INFINITY);
  return out;
}

/** Whether an object looks the same at every time of the video (no animation, on screen throughout). */
export function isStatic(o: SceneObject, duration: number): boolean {
  const always = o.type !== 'video' && o.animations.length === 0 && o.start <= 0 && (o.end === null || o.end >= duration);
  return always && (o.type !== 'group' || o.objects.every((c) => isStatic(c, duration)));
}

/** Entrances that start within this many seconds of the previous ones' end belong to the same opening. */
const OPENING_GAP = 0.5;

/** [from, to] of every entrance on the timeline, in video seconds: appearing, in-presets, finite keyframe moves. */
function entrances(objects: readonly SceneObject[], offset: number, duration: number, out: [number, number][]): void {
  for (const o of objects) {
    const start = offset + o.start;
    const end = o.end === null ? duration : offset + o.end;
    out.push([start, start]);
    for (const a of o.animations) {
      if (a.kind === 'keyframes') {
        const ks = a.keyframes;
        const first = offset + ks[0]!.time;
        const last = offset + ks[ks.length - 1]!.time;
        // Keyframes that come to rest (the same value twice in a row) have entered when the rest
        // begins; what moves after it (an exit) is not part of the opening, and a list that starts at
        // rest enters nothing.
        const rest = ks.findIndex((k, i) => i + 1 < ks.length && ks[i + 1]!.value === k.value);
        if (rest > 0) out.push([first, offset + ks[rest]!.time]);
        // Motion that runs until the object leaves (a slow zoom on a photo) is not an entrance.
        else if (rest < 0 && last < end) out.push([first, last]);
      } else if (a.kind !== 'fade_out' && a.kind !== 'slide_out') {
        out.push([start + a.delay, start + a.delay + a.duration]);
      }
    }
    // A group's children (a slide's objects) run on its clock.
    if (o.type === 'group') entrances(o.objects, start, Math.min(end, duration), out);
  }
}

/**
 * The second a still of an animated design shows: its `poster_time`, or else the moment the opening
 * has settled: entrances are merged while each starts within OPENING_GAP of the previous ones' end,
 * and the first such group's end is taken (so a slide video shows its first slide complete, and a
 * fade-out at the end of a promo is not what its still shows). 0 for a design without a length.
 */
export function stillTime(scene: Pick<Scene, 'duration' | 'posterTime' | 'objects'>): number {
  if (scene.posterTime !== null) return scene.posterTime;
  if (scene.duration === null) return 0;
  const spans: [number, number][] = [];
  entrances(scene.objects, 0, scene.duration, spans);
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let end: number | null = null;
  for (const [from, to] of spans) {
    if (end !== null && from > end + OPENING_GAP) break;
    end = Math.max(end ?? to, to);
  }
  return Math.min(end ?? 0, scene.duration);
}
