// Line objects → display items: a stroke across the middle of the box from left to right, and heads
// at either end sized in multiples of the stroke width (Polotno's line heads, the same proportions).
import type { Point, Rect, LineHead, SceneLine } from '../../scene/scene.js';
import type { DisplayItem, Geometry } from '../../scene/display-list.js';
import { castShadow, group, localBox, type ObjectLayout } from '../place.js';

/** How far along the line a filled head reaches over the stroke, in stroke widths: the stroke starts there, under the head. */
const TUCK: Record<LineHead, number> = { none: 0, arrow: 0, bar: 0, triangle: 1.5, circle: 2, square: 2 };

function lineItems(o: SceneLine): { items: DisplayItem[]; bounds: Rect } {
  const { width: length, height } = o.box;
  const s = o.width;
  const y = height / 2;
  const start = TUCK[o.startHead] * s;
  const end = length - TUCK[o.endHead] * s;
  const items: DisplayItem[] = [];
  if (end > start) {
    items.push({
      kind: 'stroke',
      geometry: {
        kind: 'polyline',
        points: [
          [start, y],
          [end, y],
        ],
      },
      color: o.color,
      width: s,
      dash: o.dash.length > 0 ? o.dash.map((d) => d * s) : null,
      cap: o.cap,
    });
  }
  items.push(...head(o.startHead, s, ([hx, hy]) => [hx, y + hy], o), ...head(o.endHead, s, ([hx, hy]) => [length - hx, y + hy], o));
  // Heads reach 2 stroke widths either side of the middle, plus half a stroke for their outline.
  const reach = Math.max(height / 2, 2.5 * s + 1);
  return { items, bounds: { x: -s - 1, y: y - reach, width: length + 2 * s + 2, height: 2 * reach } };
}

/**
 * A head drawn pointing left with its tip at (0, 0), in stroke widths `s`, then placed by `at`; heads are
 * outlined with the stroke width and round joins (a filled head is filled too), never dashed.
 */
function head(kind: LineHead, s: number, at: (p: Point) => Point, o: SceneLine): DisplayItem[] {
  const pts = (ps: readonly Point[]): Point[] => ps.map(([px, py]) => at([px * s, py * s]));
  const outline = (geometry: Geometry): DisplayItem => ({ kind: 'stroke', geometry, color: o.color, width: s, dash: null, join: 'round' });
  const filled = (geometry: Geometry): DisplayItem[] => [{ kind: 'fill', geometry, color: o.color }, outline(geometry)];
  switch (kind) {
    case 'none':
      return [];
    case 'arrow':
      return [
        outline({
          kind: 'polyline',
          points: pts([
            [3, -2],
            [0, 0],
            [3, 2],
          ]),
        }),
      ];
    case 'triangle':
      return filled({
        kind: 'polygon',
        points: pts([
          [3, -2],
          [0, 0],
          [3, 2],
        ]),
      });
    case 'bar':
      return [
        outline({
          kind: 'polyline',
          points: pts([
            [0, -2],
            [0, 2],
          ]),
        }),
      ];
    case 'circle':
    case 'square': {
      const corners = pts([
        [0, -2],
        [4, 2],
      ]);
      const rect = boxOf(corners[0]!, corners[1]!);
      return filled(kind === 'circle' ? { kind: 'ellipse', rect } : { kind: 'rect', rect });
    }
  }
}

function boxOf([x0, y0]: Point, [x1, y1]: Point): Rect {
  return { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
}

export const lineLayout: ObjectLayout<SceneLine> = (o) => {
  const { items, bounds } = lineItems(o);
  return { group: castShadow(group(o.box, localBox(o), o.rotation, o.scale, o.opacity, bounds, null, items), o.shadow) };
};
