// Shape objects: override fields background.* and border.*; borders resolved here, the background as
// every fill is (format/fill.ts, shared with the canvas and slide backgrounds and a text's fill).
import { validationError } from '../../errors.js';
import { parseHexColor } from '../../format/color.js';
import { checkFill, fillOf, impliedFillType } from '../../format/fill.js';
import { childPath } from '../../format/json-path.js';
import { shadowOf } from '../../format/shadow.js';
import { STAR_INNER_RADIUS, STAR_POINTS, type Rect, type SceneShape } from '../../scene/scene.js';
import { parsePathData, pathBounds, pathDataString, PathDataError, type PathSegment } from '../../svg/path-data.js';
import { mergeFields, placementOf } from '../common.js';
import type { ObjectHandler } from '../handler.js';
import { ShapeOverride, type ShapeBackground, ShapeObject } from './schema.js';

/** A path shape's outline, normalised (absolute M L C Q Z), and the view box stretched to the box (checked by check). */
function pathOf(d: string, viewBox: readonly [number, number, number, number] | undefined): { d: string; viewBox: Rect } {
  const segments = parsePathData(d);
  const b = pathBounds(segments)!;
  const [x, y, width, height] = viewBox ?? [b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0];
  return { d: pathDataString(segments), viewBox: { x, y, width, height } };
}

function paddingOf(p: number | { x: number; y: number } | undefined): { x: number; y: number } {
  return typeof p === 'number' ? { x: p, y: p } : (p ?? { x: 0, y: 0 });
}

export const shapeHandler: ObjectHandler<typeof ShapeObject, typeof ShapeOverride, SceneShape> = {
  type: 'shape',
  schema: ShapeObject,
  what: 'a shape object',
  override: ShapeOverride,
  merge(o, ov) {
    const bg = ov.background as Partial<ShapeBackground> | undefined;
    // An override that gives only a colour, a path or gradient fields implies the background type.
    if (bg && bg.type === undefined) {
      const implied = impliedFillType(bg, o.background?.type);
      if (implied) ov = { ...ov, background: { ...bg, type: implied } };
    }
    return mergeFields(o, ov);
  },
  check(o, at) {
    if (o.background) checkFill(o.background, childPath(at, 'background'));
    if (o.shape === 'polygon' && !o.vertices) {
      throw validationError(childPath(at, 'vertices'), 'shape "polygon" needs its corners: give vertices as [[x, y], …] in fractions of the box, at least 3');
    }
    if (o.shape === 'path') {
      if (o.path_data === undefined) {
        throw validationError(childPath(at, 'path_data'), 'shape "path" needs its outline: give path_data, SVG path data such as "M0 0H100L50 100Z"');
      }
      let segments: PathSegment[];
      try {
        segments = parsePathData(o.path_data);
      } catch (e) {
        if (e instanceof PathDataError) throw validationError(childPath(at, 'path_data'), `${e.message}: give SVG path data such as "M0 0H100L50 100Z"`);
        throw e;
      }
      if (o.view_box === undefined) {
        const b = pathBounds(segments);
        if (!b || !(b.x1 > b.x0 && b.y1 > b.y0)) {
          throw validationError(
            childPath(at, 'path_data'),
            'the path encloses no area (its bounding box is a line or a point): give a closed outline, or view_box',
          );
        }
      }
    }
    // An override may style a border the template does not have; then it must say how wide.
    if (o.border && o.border.width === undefined) {
      throw validationError(childPath(at, 'border', 'width'), 'the shape has no border to restyle: give border.width (in pixels) as well');
    }
  },
  toScene(o, fieldPath): SceneShape {
    const b = o.border;
    return {
      type: 'shape',
      ...placementOf(o),
      shape: o.shape ?? 'rect',
      cornerRadius: o.corner_radius ?? 16,
      ...(o.shape === 'star' ? { star: { points: o.points ?? STAR_POINTS, innerRadius: o.inner_radius ?? STAR_INNER_RADIUS } } : {}),
      ...(o.shape === 'polygon' && o.vertices ? { vertices: o.vertices.map(([x, y]) => [x, y] as const) } : {}),
      ...(o.shape === 'path' && o.path_data !== undefined ? { path: pathOf(o.path_data, o.view_box) } : {}),
      ...(o.wrap ? { wrap: { object: o.wrap.object, padding: paddingOf(o.wrap.padding) } } : {}),
      fill: o.background ? fillOf(o.background, fieldPath('background')) : null,
      border:
        b && b.width !== undefined && b.width > 0
          ? { width: b.width, color: parseHexColor(b.color ?? '#000000'), style: b.style ?? 'solid', ...(b.dash ? { dash: b.dash } : {}) }
          : null,
      shadow: shadowOf(o.shadow),
    };
  },
  assets(o) {
    return o.fill?.kind === 'image' ? { images: [o.fill.image] } : {};
  },
};
