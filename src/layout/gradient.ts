// Gradient geometry: a scene gradient placed on a box as the display list's plain data, with the CSS
// maths for linear-gradient angles, so a gradient here looks like the same gradient in a browser.
import type { Gradient } from '../scene/display-list.js';
import type { Rect, SceneFill } from '../scene/scene.js';

export type GradientFill = Extract<SceneFill, { kind: 'linear_gradient' | 'radial_gradient' }>;

export function placeGradient(fill: GradientFill, box: Rect): Gradient {
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

/** Every point of the gradient is opaque (so a canvas background of it makes the output opaque). */
export function gradientOpaque(fill: GradientFill): boolean {
  return fill.stops.every((s) => s.color[3] === 1);
}
