// Slide videos as scene data: each slide becomes a group on the timeline (its background first,
// then its objects, timed from the slide's start), and transitions become the groups' animations.
import { EASINGS } from '../format/easing.js';
import { childPath, jsonPath } from '../format/json-path.js';
import { parseImageRef } from '../format/image-ref.js';
import type { Slide } from '../design/schema.js';
import type { Edge, SceneAnimation, SceneGroup, SceneObject, Sides } from '../scene/scene.js';
import { pageCover } from '../scene/page-box.js';
import { fillOf } from '../format/fill.js';

const EXIT_EDGE: Record<string, Edge> = { left: 'left', right: 'right', up: 'top', down: 'bottom' };
const ENTRY_EDGE: Record<string, Edge> = { left: 'right', right: 'left', up: 'bottom', down: 'top' };

function preset(kind: 'fade_in' | 'slide_in' | 'slide_out', duration: number, edge: Edge): SceneAnimation {
  return { kind, duration, delay: 0, easing: EASINGS['ease-in-out']!, edge, by: 'word' };
}

/** Transition into the next slide: its type and seconds (a cut takes none). */
function transitionOf(s: Pick<Slide, 'transition'>): { type: 'cut' | 'crossfade' | 'slide' | 'push'; duration: number; direction: string } {
  const t = s.transition ?? { type: 'cut' };
  return { type: t.type, duration: t.type === 'cut' ? 0 : (t.duration ?? 0.5), direction: t.direction ?? 'left' };
}

/**
 * When each slide starts (seconds from the video's start) and how long the video lasts: a slide's
 * outgoing transition overlaps the next slide, so the next one starts that much before it ends.
 */
export function slideTimes(slides: readonly Pick<Slide, 'duration' | 'transition'>[]): { starts: number[]; duration: number } {
  const starts: number[] = [];
  let start = 0;
  slides.forEach((s, i) => {
    starts.push(start);
    start += s.duration - (i < slides.length - 1 ? transitionOf(s).duration : 0);
  });
  return { starts, duration: slides.length ? starts[starts.length - 1]! + slides[slides.length - 1]!.duration : 0 };
}

export function slidesOf(
  slides: readonly Slide[],
  canvas: { width: number; height: number },
  bleed: Sides | null,
  objectsOf: (slide: number) => SceneObject[],
  backgrounds: ReadonlyMap<number, { path: string; at: string }>,
  root: string,
): { groups: SceneGroup[]; duration: number } {
  const cover = pageCover(canvas.width, canvas.height, bleed ?? undefined);
  // A slide clips to its box: a fractional canvas's is the raster's whole pixels (the pdf page clips the rest).
  const box = { x: 0, y: 0, width: cover.width + cover.x, height: cover.height + cover.y };
  const groups: SceneGroup[] = [];
  const { starts } = slideTimes(slides);
  slides.forEach((s, i) => {
    const start = starts[i]!;
    const at = jsonPath(['slides', i], root);
    const incoming = i > 0 ? transitionOf(slides[i - 1]!) : null;
    const outgoing = i < slides.length - 1 ? transitionOf(s) : null;
    const animations: SceneAnimation[] = [];
    if (incoming?.type === 'crossfade') animations.push(preset('fade_in', incoming.duration, 'left'));
    if (incoming && (incoming.type === 'slide' || incoming.type === 'push'))
      animations.push(preset('slide_in', incoming.duration, ENTRY_EDGE[incoming.direction]!));
    if (outgoing?.type === 'push') animations.push(preset('slide_out', outgoing.duration, EXIT_EDGE[outgoing.direction]!));
    const override = backgrounds.get(i);
    const fill = override
      ? ({ kind: 'image', image: { ...parseImageRef(override.path, override.at), at: override.at } } as const)
      : s.background
        ? fillOf(s.background, childPath(at, 'background'))
        : null;
    // The background covers the bleed too (a pdf of the slide shows it; see render/pdf.ts).
    const base = { box: cover, rotation: 0, opacity: 1, scale: 1, start: 0, end: null, animations: [] };
    const background: SceneObject[] = !fill
      ? []
      : fill.kind === 'image'
        ? [{ ...base, type: 'image', image: fill.image, fit: 'cover' }]
        : [{ ...base, type: 'shape', shape: 'rect', cornerRadius: 0, fill, border: null, shadow: null }];
    groups.push({
      type: 'group',
      ...(s.name === undefined ? {} : { name: s.name }),
      box,
      rotation: 0,
      opacity: 1,
      scale: 1,
      start,
      end: start + s.duration,
      animations,
      objects: [...background, ...objectsOf(i)],
    });
  });
  const last = groups[groups.length - 1]!;
  return { groups, duration: last.end! };
}
