// Fills placed on a box, for a shape's outline, the canvas and a text's glyphs (the template side is
// format/fill.ts): a colour, a picture covering the box, or a gradient as the display list's plain
// data, with the CSS maths for linear-gradient angles, so a gradient here looks like it does in a browser.
import type { DisplayItem, Geometry, Gradient } from '../scene/display-list.js';
import { imageRefKey } from '../scene/keys.js';
import type { GradientSceneFill, Rect, SceneFill } from '../scene/scene.js';
import { IDENTITY, placeMedia, sizeOf, type ImageSizes } from './boxes.js';

export function placeGradient(fill: GradientSceneFill, box: Rect): Gradient {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  if (fill.kind === 'linear_gradient') {
    // CSS: the gradient line passes through the centre at the angle (0 = up, clockwise), and is just
    // long enough that the corners on either side get the first and last colours:
    // |w·sin a| + |h·cos a|.
    const a = (fill.angle * Math.PI) / 180;
    const dx = Math.sin(a);
    const dy = -Math.cos(a);
    const half = (Math.abs(box.width * dx) + Math.abs(box.height * dy)) / 2;
    return { kind: 'linear', from: [cx - dx * half, cy - dy * half], to: [cx + dx * half, cy + dy * half], stops: fill.stops };
  }
  const halfDiagonal = Math.hypot(box.width, box.height) / 2;
  return {
    kind: 'radial',
    center: [box.x + fill.center[0] * box.width, box.y + fill.center[1] * box.height],
    radius: fill.radius * halfDiagonal,
    stops: fill.stops,
  };
}

/** The fill of an outline; gradients and images are placed in `rect`, the box the outline fills. */
export function fillItems(fill: SceneFill, outline: Geometry, rect: Rect, images: ImageSizes): DisplayItem[] {
  if (fill.kind === 'color') return [{ kind: 'fill', geometry: outline, color: fill.color }];
  if (fill.kind !== 'image') return [{ kind: 'gradient', geometry: outline, gradient: placeGradient(fill, rect) }];
  const { src, dst } = placeMedia('cover', sizeOf(images, fill.image), rect);
  const image: DisplayItem = { kind: 'image', image: imageRefKey(fill.image), src, dst };
  if (outline.kind === 'rect') return [image];
  return [{ kind: 'group', transform: IDENTITY, opacity: 1, bounds: rect, clip: outline, items: [image] }];
}

/** Every point of the fill is opaque (so a canvas background of it makes the output opaque). */
export function fillOpaque(fill: SceneFill, images: ImageSizes): boolean {
  if (fill.kind === 'color') return fill.color[3] === 1;
  if (fill.kind === 'image') return sizeOf(images, fill.image).opaque === true;
  return fill.stops.every((s) => s.color[3] === 1);
}
