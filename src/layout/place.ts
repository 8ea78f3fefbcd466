// What every object's layout shares: the contract of a row of layout.ts's table (an object and the
// context → its placed group and fit report), the group placed by the object's box, turn, scale and
// opacity, and the drop shadow cast by that group.
import type { DisplayItem, Geometry, Matrix } from '../scene/display-list.js';
import type { Rect, SceneBase, SceneObject, SceneShadow, SceneText } from '../scene/scene.js';
import type { FontSet } from '../text/fonts.js';
import type { ImageSizes } from './boxes.js';
import type { TextFitReport, TextLayout } from './text.js';

/** What a type's layout is given besides its object. */
export interface LayoutContext {
  images: ImageSizes;
  fonts: FontSet;
  /** A text's layout, made once per list of objects: a shape that wraps the text takes its box from it too. */
  layOutText(t: SceneText): TextLayout;
  /** The objects of a list (a group's) laid out as siblings, in z-order. */
  layOutSiblings(objects: readonly SceneObject[]): Placed[];
}

/** An object laid out: its group, and the fit report of a text (or of the texts in a group). */
export type Placed = { group: DisplayItem; report?: TextFitReport; reports?: TextFitReport[] };

/** One row of the layout table: a scene object of one type → its placed group. */
export type ObjectLayout<S extends SceneBase> = (o: S, ctx: LayoutContext) => Placed;

/** The object's box in its own coordinates: what its items are laid out in. */
export function localBox(o: SceneBase): Rect {
  return { x: 0, y: 0, width: o.box.width, height: o.box.height };
}

/** The group of an object: `sized` is the box it was laid out in (a text's after sizing), turned and scaled about its centre. */
export function group(
  box: Rect,
  sized: Rect,
  rotation: number,
  scale: number,
  opacity: number,
  bounds: Rect,
  clip: Geometry | null,
  items: DisplayItem[],
): DisplayItem {
  return { kind: 'group', transform: placement(box.x, box.y, sized.width, sized.height, rotation, scale), opacity, bounds, clip, items };
}

/** Translate to (x, y), then rotate clockwise by `degrees` and scale, both around the centre of the box. */
export function placement(x: number, y: number, width: number, height: number, degrees: number, scale = 1): Matrix {
  if (degrees === 0 && scale === 1) return [1, 0, 0, 1, x, y];
  const r = (degrees * Math.PI) / 180;
  const cos = Math.cos(r) * scale;
  const sin = Math.sin(r) * scale;
  const cx = width / 2;
  const cy = height / 2;
  return [cos, sin, -sin, cos, x + cx - cos * cx + sin * cy, y + cy - sin * cx - cos * cy];
}

/** Gives an object's group its drop shadow (any object type): the painters shadow the whole layer. */
export function castShadow(g: DisplayItem, s: SceneShadow | null | undefined): DisplayItem {
  // A shadow with no alpha paints nothing; leaving it out spares the layer.
  if (s && s.color[3] > 0 && g.kind === 'group') g.shadow = { color: s.color, blur: s.blur, offset: [s.offsetX, s.offsetY] };
  return g;
}
