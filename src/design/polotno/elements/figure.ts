// Polotno figure elements → Imprint shape objects: rectangles, circles and the speech bubble as Imprint
// outlines, the straight-sided figures as polygons with Polotno's corners; its fixed drawings are refused.
import { POLOTNO_DRAWN_FIGURES } from '../figures.js';
import type { ShapeInput } from '../imprint-types.js';
import type { PolotnoFigure } from '../schema.js';
import { color, paint, refuse, round } from '../shared.js';
import { animationsOf, begin, commonEffects } from './common.js';

export function convertFigure(e: PolotnoFigure, at: string, pageSeconds: number): ShapeInput {
  const { base, width, height } = begin(e, 'shape', { defaultWidth: 100, height: e.height ?? 100 });
  const out: ShapeInput = { ...base };
  const sub = e.subType ?? 'rect';
  const radius = e.cornerRadius ?? 0;
  if (sub === 'rect') {
    out.shape = radius > 0 ? 'rounded_rect' : 'rect';
    if (radius > 0) out.corner_radius = round(Math.min(radius, width / 2, height / 2));
  } else if (sub === 'circle') out.shape = 'ellipse';
  else if (sub === 'speechBubble') {
    // Drawn in the element's own pixels (its corners and tail follow the box, not a fixed drawing).
    out.shape = 'path';
    out.path_data = speechBubblePath(width, height);
    out.view_box = [0, 0, round(width), round(height)];
  } else if (POLOTNO_DRAWN_FIGURES.includes(sub)) {
    refuse(
      at,
      'subType',
      `the figure "${sub}" is one of Polotno's fixed drawings, whose outlines belong to Polotno's commercially licensed SDK and are not shipped with Imprint: replace it with an svg element of the same shape (Polotno can export it as SVG), or a rect, circle or polygon figure`,
    );
  } else {
    const corners = FIGURES[sub];
    if (!corners) refuse(at, 'subType', `the figure "${sub}" is not one of Polotno's figures: use one of ${POLOTNO_FIGURES.join(', ')}`);
    out.shape = 'polygon';
    out.vertices = corners.map(([x, y]) => [round(x), round(y)]);
  }
  const fill = paint(e.fill ?? 'rgb(0, 161, 255)', width, height, `${at}.fill`);
  out.background = 'color' in fill ? { type: 'color', color: fill.color } : fill;
  const strokeWidth = e.strokeWidth ?? 0;
  if (strokeWidth > 0) {
    out.border = { width: strokeWidth, color: color(e.stroke ?? 'rgba(98, 197, 255, 1)', `${at}.stroke`), ...dashOf(e.dash) };
  }
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}

/** Corners of a regular figure inscribed in the box's ellipse, the first at the top (Polotno's pentagon, hexagon, star). */
function inscribed(n: number, radius: (i: number) => number): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return [0.5 + radius(i) * Math.sin(a), 0.5 - radius(i) * Math.cos(a)];
  });
}

/**
 * Polotno figures with straight sides, as the corners of an Imprint polygon in fractions of the box:
 * the outlines Polotno's renderer draws (regular figures inscribed in the box's ellipse, a star with
 * inner corners at half its radius, arrows with a 60 % shaft, a cross with arms 30 % thick). Curved
 * figures (heart, cloud, blobs…) are refused.
 */
const FIGURES: Record<string, [number, number][]> = {
  triangle: [
    [0.5, 0],
    [1, 1],
    [0, 1],
  ],
  rightTriangle: [
    [0, 0],
    [1, 0],
    [0, 1],
  ],
  diamond: [
    [0.5, 0],
    [1, 0.5],
    [0.5, 1],
    [0, 0.5],
  ],
  pentagon: inscribed(5, () => 0.5),
  hexagon: inscribed(6, () => 0.5),
  star: inscribed(10, (i) => (i % 2 === 0 ? 0.5 : 0.25)),
  cross: [
    [0.35, 0],
    [0.65, 0],
    [0.65, 0.35],
    [1, 0.35],
    [1, 0.65],
    [0.65, 0.65],
    [0.65, 1],
    [0.35, 1],
    [0.35, 0.65],
    [0, 0.65],
    [0, 0.35],
    [0.35, 0.35],
  ],
  rightArrow: [
    [0, 0.25],
    [0.6, 0.25],
    [0.6, 0],
    [1, 0.5],
    [0.6, 1],
    [0.6, 0.75],
    [0, 0.75],
  ],
  leftArrow: [
    [1, 0.25],
    [0.4, 0.25],
    [0.4, 0],
    [0, 0.5],
    [0.4, 1],
    [0.4, 0.75],
    [1, 0.75],
  ],
  upArrow: [
    [0.25, 1],
    [0.25, 0.4],
    [0, 0.4],
    [0.5, 0],
    [1, 0.4],
    [0.75, 0.4],
    [0.75, 1],
  ],
  downArrow: [
    [0.25, 0],
    [0.25, 0.6],
    [0, 0.6],
    [0.5, 1],
    [1, 0.6],
    [0.75, 0.6],
    [0.75, 0],
  ],
};

/** Every figure subType Polotno draws (@polotno/core TYPES), each drawn here with Polotno's outline. */
export const POLOTNO_FIGURES: readonly string[] = ['rect', 'circle', 'speechBubble', ...Object.keys(FIGURES)];

/** Polotno's speech bubble in the element's pixels: corners of 10 % of the shorter side, a tail 20 % wide and high at the middle. */
function speechBubblePath(width: number, height: number): string {
  const r = round(Math.min(width, height) * 0.1);
  const [w, h] = [round(width), round(height)];
  const tw = width * 0.2;
  const th = round(height * 0.2);
  const mid = width * 0.5;
  return [
    `M ${r},0 H ${round(w - r)} A ${r},${r} 0 0 1 ${w},${r} V ${round(h - r - th)}`,
    `A ${r},${r} 0 0 1 ${round(w - r)},${round(h - th)} H ${round(mid + tw / 2)} L ${round(mid)},${h} L ${round(mid - tw / 2)},${round(h - th)}`,
    `H ${r} A ${r},${r} 0 0 1 0,${round(h - r - th)} V ${r} A ${r},${r} 0 0 1 ${r},0 Z`,
  ].join(' ');
}

/** Polotno dashes are multiples of the stroke width, as the border's dash. */
function dashOf(dash: number[] | undefined): Pick<NonNullable<ShapeInput['border']>, 'dash'> {
  return dash && dash.length > 0 ? { dash } : {};
}
