// Shape objects placed: the outline (rect, ellipse, a figure of outlines.ts or an SVG path stretched to
// the box) filled as every fill is (fill.ts), and the border inside it. A shape that wraps a text gets
// its box from layout.ts before it comes here.
import type { DisplayItem, Geometry, Matrix } from '../../scene/display-list.js';
import type { Rect, SceneShape } from '../../scene/scene.js';
import { parsePathData, pathBounds, pathDataString, transformPath } from '../../svg/path-data.js';
import { IDENTITY, type ImageSizes } from '../boxes.js';
import { fillItems } from '../fill.js';
import { figureGeometry } from '../outlines.js';
import { castShadow, group, localBox, type ObjectLayout } from '../place.js';

export const shapeLayout: ObjectLayout<SceneShape> = (o, ctx) => {
  const local = localBox(o);
  return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, null, shapeItems(o, local, ctx.images)), o.shadow) };
};

function shapeGeometry(o: SceneShape, rect: Rect, radius: number): Geometry {
  if (o.shape === 'rect') return { kind: 'rect', rect };
  if (o.shape === 'ellipse') return { kind: 'ellipse', rect };
  if (o.shape === 'rounded_rect') return { kind: 'round_rect', rect, radius: Math.max(0, Math.min(radius, rect.width / 2, rect.height / 2)) };
  if (o.shape === 'path') return { kind: 'path', d: pathDataString(transformPath(parsePathData(o.path!.d), viewBoxMatrix(o.path!.viewBox, rect))) };
  return figureGeometry(o.shape, rect, o.star, o.vertices);
}

/** What a path shape's border paints, in its view box's coordinates: the outline (the border is clipped to it) and the view box. */
function pathReach(vb: Rect, d: string): Rect {
  const b = pathBounds(parsePathData(d)) ?? { x0: vb.x, y0: vb.y, x1: vb.x, y1: vb.y };
  const [x0, y0] = [Math.min(b.x0, vb.x), Math.min(b.y0, vb.y)];
  return { x: x0, y: y0, width: Math.max(b.x1, vb.x + vb.width) - x0, height: Math.max(b.y1, vb.y + vb.height) - y0 };
}

/** The transform that stretches a path shape's view box to `rect`. */
function viewBoxMatrix(vb: Rect, rect: Rect): Matrix {
  const sx = rect.width / vb.width;
  const sy = rect.height / vb.height;
  return [sx, 0, 0, sy, rect.x - vb.x * sx, rect.y - vb.y * sy];
}

function shapeItems(o: SceneShape, box: Rect, images: ImageSizes): DisplayItem[] {
  const outline = shapeGeometry(o, box, o.cornerRadius);
  const items = o.fill ? fillItems(o.fill, outline, box, images) : [];
  if (o.border) {
    const w = Math.min(o.border.width, box.width / 2, box.height / 2);
    const pattern = o.border.dash ? (o.border.dash.length % 2 === 1 ? [...o.border.dash, ...o.border.dash] : o.border.dash) : null;
    const dash = pattern
      ? pattern.length > 0 && pattern.some((d) => d > 0)
        ? pattern.map((d) => d * w)
        : null
      : o.border.style === 'dashed'
        ? [3 * w, 2 * w]
        : null;
    if (o.shape === 'path') {
      // In the view box's coordinates, stretched with the outline (an SVG stroke, as Polotno strokes
      // its figures): the band inside the outline is the stroke twice as wide, clipped to it.
      const vb = o.path!.viewBox;
      const own: Geometry = { kind: 'path', d: o.path!.d };
      const stroke: DisplayItem = { kind: 'stroke', geometry: own, color: o.border.color, width: 2 * w, dash };
      items.push({ kind: 'group', transform: viewBoxMatrix(vb, box), opacity: 1, bounds: pathReach(vb, o.path!.d), clip: own, items: [stroke] });
    } else if (o.shape === 'rect' || o.shape === 'rounded_rect' || o.shape === 'ellipse') {
      // The border lies inside the outline: stroke the outline inset by half the width.
      const inset = { x: w / 2, y: w / 2, width: box.width - w, height: box.height - w };
      items.push({ kind: 'stroke', geometry: shapeGeometry(o, inset, o.cornerRadius - w / 2), color: o.border.color, width: w, dash });
    } else {
      // Figures: a stroke twice as wide on the outline, clipped to it, is exactly the band inside
      // the outline at any corner angle and along curves (an inset polygon needs miters that sharp
      // tips cut off).
      const stroke: DisplayItem = { kind: 'stroke', geometry: outline, color: o.border.color, width: 2 * w, dash };
      items.push({ kind: 'group', transform: IDENTITY, opacity: 1, bounds: box, clip: outline, items: [stroke] });
    }
  }
  return items;
}
