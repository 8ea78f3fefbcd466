// layout: Scene (+ intrinsic image sizes) → DisplayList and fit report. Pure and deterministic:
// no I/O, no pixels; every object becomes one group placed by its box, rotation and opacity, made by
// its type's row of the layout table (objects/<type>.ts), keyed by the same names as objects/registry.ts.
import type { AnySceneObject, Rect, Scene, SceneGroup, SceneObject, SceneShape, SceneText } from '../scene/scene.js';
import { pageCover } from '../scene/page-box.js';
import type { FontSet } from '../text/fonts.js';
import type { ImageSizes } from './boxes.js';
import type { DisplayItem, DisplayList } from '../scene/display-list.js';
import { fillItems, fillOpaque } from './fill.js';
import { chartLayout } from './objects/chart.js';
import { imageLayout } from './objects/image.js';
import { lineLayout } from './objects/line.js';
import { mockupLayout } from './objects/mockup.js';
import { shapeLayout } from './objects/shape.js';
import { svgLayout } from './objects/svg.js';
import { textLayout } from './objects/text.js';
import { videoLayout } from './objects/video.js';
import { group, localBox, placement, type LayoutContext, type ObjectLayout, type Placed } from './place.js';
import { layoutText, type TextFitReport, type TextLayout } from './text.js';

export type { ImageSize, ImageSizes } from './boxes.js';
export { placement } from './place.js';

export type FitReport = TextFitReport[];

export interface LayoutResult {
  displayList: DisplayList;
  report: FitReport;
}

/** A group (a slide): its objects laid out as siblings, clipped to its box. */
const groupLayout: ObjectLayout<SceneGroup> = (o, ctx) => {
  const local = localBox(o);
  const children = ctx.layOutSiblings(o.objects);
  return {
    group: group(
      o.box,
      local,
      o.rotation,
      o.scale,
      o.opacity,
      local,
      { kind: 'rect', rect: local },
      children.map((c) => c.group),
    ),
    ...(children.some((c) => c.report) ? { reports: children.flatMap((c) => (c.report ? [c.report] : (c.reports ?? []))) } : {}),
  };
};

/**
 * The layout table: a row for every type of scene object, the object types of objects/registry.ts
 * and the group of a slide. Layout comes after objects/ in the import order, so the rows live here
 * rather than in the handlers; keyed by the scene's own union, a type without a row does not compile.
 */
const LAYOUTS = {
  text: textLayout,
  image: imageLayout,
  shape: shapeLayout,
  chart: chartLayout,
  mockup: mockupLayout,
  video: videoLayout,
  svg: svgLayout,
  line: lineLayout,
  group: groupLayout,
} satisfies { [K in SceneObject['type']]: ObjectLayout<Extract<SceneObject, { type: K }>> };

/** Rows of types registered beside the built-in ones (objects/registry.ts registerObjectType). */
const REGISTERED = new Map<string, ObjectLayout<AnySceneObject>>();

/** The layout of a type registered with registerObjectType: for a test's throwaway type, not the package's API. */
export function registerObjectLayout<S extends AnySceneObject>(type: S['type'], layout: ObjectLayout<S>): void {
  if (Object.hasOwn(LAYOUTS, type) || REGISTERED.has(type)) throw new Error(`registerObjectLayout: object type "${type}" has a layout already`);
  REGISTERED.set(type, layout as ObjectLayout<AnySceneObject>);
}

function layoutOf(o: AnySceneObject): ObjectLayout<AnySceneObject> {
  const row = Object.hasOwn(LAYOUTS, o.type) ? (LAYOUTS[o.type as keyof typeof LAYOUTS] as ObjectLayout<AnySceneObject>) : REGISTERED.get(o.type);
  if (!row) throw new Error(`layout: no layout for object type "${o.type}" (register it with registerObjectLayout)`);
  return row;
}

export function layout(scene: Scene, images: ImageSizes, fonts: FontSet): LayoutResult {
  // The background covers the bleed too, and a fractional canvas's last raster row.
  const cover: Rect = pageCover(scene.width, scene.height, scene.bleed);
  const items: DisplayItem[] = [...fillItems(scene.background, { kind: 'rect', rect: cover }, cover, images)];
  const report: FitReport = [];
  for (const placed of layoutSiblings(scene.objects, images, fonts)) {
    if (placed.report) report.push(placed.report);
    if (placed.reports) report.push(...placed.reports);
    items.push(placed.group);
  }
  const opaque = fillOpaque(scene.background, images);
  const print = { ...(scene.dpi === undefined ? {} : { dpi: scene.dpi }), ...(scene.bleed ? { bleed: scene.bleed } : {}) };
  return { displayList: { width: scene.width, height: scene.height, ...print, opaque, items }, report };
}

/**
 * Objects of one list (the design's, or one slide's) in z-order. A shape that wraps a text of the
 * list takes its box from that text's layout, which is made once and reused when the text is placed.
 */
function layoutSiblings(objects: readonly SceneObject[], images: ImageSizes, fonts: FontSet): Placed[] {
  const texts = new Map<SceneText, TextLayout>();
  const ctx: LayoutContext = {
    images,
    fonts,
    layOutText: (t) => {
      let done = texts.get(t);
      if (!done) texts.set(t, (done = layoutText(t, fonts)));
      return done;
    },
    layOutSiblings: (list) => layoutSiblings(list, images, fonts),
  };
  return objects.flatMap((o) => {
    if (o.type === 'shape' && o.wrap) {
      const wrap = o.wrap;
      const text = objects.find((c): c is SceneText => c.type === 'text' && c.name === wrap.object);
      // The text is hidden or not on screen at this time: the button goes with its label.
      if (!text) return [];
      const wrapped = wrappedShape(o, wrap, text, ctx.layOutText(text));
      return wrapped ? [layoutObject(wrapped, ctx)] : [];
    }
    return [layoutObject(o, ctx)];
  });
}

/**
 * The shape around a text's laid-out lines: their rectangle (in the text's own coordinates) grown by
 * the padding, placed so the text's transform carries it (rotation and scale about its own centre).
 */
function wrappedShape(o: SceneShape, wrap: NonNullable<SceneShape['wrap']>, text: SceneText, t: TextLayout): SceneShape | null {
  const r = t.lines;
  const width = r.width + 2 * wrap.padding.x;
  const height = r.height + 2 * wrap.padding.y;
  if (!(width > 0 && height > 0)) return null;
  const [a, b, c, d, e, f] = placement(text.box.x, text.box.y, t.box.width, t.box.height, text.rotation, text.scale);
  const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
  const [px, py] = [a * cx + c * cy + e, b * cx + d * cy + f];
  return { ...o, box: { x: px - width / 2, y: py - height / 2, width, height }, rotation: text.rotation, scale: o.scale * text.scale };
}

function layoutObject(o: AnySceneObject, ctx: LayoutContext): Placed {
  const placed = layoutOf(o)(o, ctx);
  if (o.blur && o.blur > 0) castBlur(placed.group, o.blur, o.scale);
  return placed;
}

/**
 * Gives an object's group its blur (CSS filter: blur, σ = blur page px) and grows its bounds by 3σ, as
 * far as the Gaussian reaches, so the layer the painters blur holds all of it. Bounds are local: the
 * page pixels are divided by the group's scale (rotation keeps lengths).
 */
function castBlur(g: DisplayItem, blur: number, scale: number): void {
  if (g.kind !== 'group') return;
  g.blur = blur;
  const reach = (3 * blur) / Math.max(Math.abs(scale), 1e-3);
  g.bounds = { x: g.bounds.x - reach, y: g.bounds.y - reach, width: g.bounds.width + 2 * reach, height: g.bounds.height + 2 * reach };
}
