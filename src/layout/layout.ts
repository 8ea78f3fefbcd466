// layout: Scene (+ intrinsic image sizes) → DisplayList and fit report. Pure and deterministic:
// no I/O, no pixels; every object becomes one group placed by its box, rotation and opacity.
import type { RGBA, Rect, Scene, SceneFill, SceneImageRef, SceneObject, SceneShadow, SceneShape, SceneSvg, SceneText } from '../scene/scene.js';
import { clipFrameKey, imageRefKey, svgRefKey } from '../scene/keys.js';
import { pageCover } from '../scene/page-box.js';
import type { SvgDocument } from '../svg/parse.js';
import type { FontSet } from '../text/fonts.js';
import { IDENTITY, pictureClip, placeMedia, type ImageSize, type ImageSizes } from './boxes.js';
import type { BoxGeometry, DisplayItem, DisplayList, Geometry, Matrix } from '../scene/display-list.js';
import { layoutChart } from './chart/chart.js';
import { gradientOpaque, placeGradient } from './gradient.js';
import { layoutLine } from './line.js';
import { layoutMockup } from './mockup.js';
import { figureGeometry } from './outlines.js';
import { svgClip, svgClipBy, svgItems, svgViewport } from './svg.js';
import { parsePathData, pathBounds, pathDataString, transformPath } from '../svg/path-data.js';
import { svgFrameProblem } from '../svg/clip.js';
import { layoutText, type TextFitReport, type TextLayout } from './text.js';

export type { ImageSize, ImageSizes } from './boxes.js';

export type FitReport = TextFitReport[];

export interface LayoutResult {
  displayList: DisplayList;
  report: FitReport;
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
  const bg = scene.background;
  const opaque = bg.kind === 'color' ? bg.color[3] === 1 : bg.kind === 'image' ? sizeOf(images, bg.image).opaque === true : gradientOpaque(bg);
  const print = { ...(scene.dpi === undefined ? {} : { dpi: scene.dpi }), ...(scene.bleed ? { bleed: scene.bleed } : {}) };
  return { displayList: { width: scene.width, height: scene.height, ...print, opaque, items }, report };
}

/** Gives an object's group its drop shadow (any object type): the painters shadow the whole layer. */
function castShadow(g: DisplayItem, s: SceneShadow | null | undefined): DisplayItem {
  // A shadow with no alpha paints nothing; leaving it out spares the layer.
  if (s && s.color[3] > 0 && g.kind === 'group') g.shadow = { color: s.color, blur: s.blur, offset: [s.offsetX, s.offsetY] };
  return g;
}

type Placed = { group: DisplayItem; report?: TextFitReport; reports?: TextFitReport[] };

/**
 * Objects of one list (the design's, or one slide's) in z-order. A shape that wraps a text of the
 * list takes its box from that text's layout, which is made once and reused when the text is placed.
 */
function layoutSiblings(objects: readonly SceneObject[], images: ImageSizes, fonts: FontSet): Placed[] {
  const texts = new Map<SceneText, TextLayout>();
  const textLayout = (t: SceneText): TextLayout => {
    let done = texts.get(t);
    if (!done) texts.set(t, (done = layoutText(t, fonts)));
    return done;
  };
  return objects.flatMap((o) => {
    if (o.type === 'shape' && o.wrap) {
      const wrap = o.wrap;
      const text = objects.find((c): c is SceneText => c.type === 'text' && c.name === wrap.object);
      // The text is hidden or not on screen at this time: the button goes with its label.
      if (!text) return [];
      const wrapped = wrappedShape(o, wrap, text, textLayout(text));
      return wrapped ? [layoutObject(wrapped, images, fonts, textLayout)] : [];
    }
    return [layoutObject(o, images, fonts, textLayout)];
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

function layoutObject(o: SceneObject, images: ImageSizes, fonts: FontSet, textLayout: (t: SceneText) => TextLayout): Placed {
  const placed = layoutContent(o, images, fonts, textLayout);
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

function layoutContent(o: SceneObject, images: ImageSizes, fonts: FontSet, textLayout: (t: SceneText) => TextLayout): Placed {
  const local: Rect = { x: 0, y: 0, width: o.box.width, height: o.box.height };
  // Groups and mockups clip their content to their own box.
  const clippedToBox = (items: DisplayItem[]): DisplayItem => group(o.box, local, o.rotation, o.scale, o.opacity, local, { kind: 'rect', rect: local }, items);
  switch (o.type) {
    case 'text': {
      const t = textLayout(o);
      // Glyphs reach outside their em box a little; an outline a further half its width.
      // A background reaches past the lines by its padding.
      const pad = o.background ? Math.max(o.background.padding.x, o.background.padding.y) : 0;
      const margin = t.report.font_size + Math.max(o.stroke ? o.stroke.width / 2 : 0, pad);
      const bounds = { x: -margin, y: -margin, width: t.box.width + 2 * margin, height: t.box.height + 2 * margin };
      const g = group(o.box, t.box, o.rotation, o.scale, o.opacity, bounds, t.clip ? { kind: 'rect', rect: t.box } : null, t.items);
      return { group: castShadow(g, o.shadow), report: t.report };
    }
    case 'image': {
      const framing = { ...(o.crop ? { crop: o.crop } : {}), ...(o.focus ? { focus: o.focus } : {}) };
      const { src, dst } = placeMedia(o.fit, sizeOf(images, o.image), local, framing);
      const picture: DisplayItem = { kind: 'image', image: imageRefKey(o.image), src, dst, ...(o.filters ? { filters: o.filters } : {}) };
      const image = flipped(picture, dst, o.flipX ?? false, o.flipY ?? false);
      if (o.clipSvg) {
        // The SVG clip wins over mask and corners: a group of its own, so the object's group keeps its plain shape.
        const doc = svgOf(images, o.clipSvg);
        const clipped: DisplayItem = doc.masked
          ? // A drawing with <mask>s is more than the union of its shapes: the picture is kept as much
            // as the drawing paints (its alpha), as a browser draws the picture "source-in" over it.
            {
              kind: 'group',
              transform: IDENTITY,
              opacity: 1,
              bounds: local,
              clip: null,
              mask: { items: svgItems(doc, dst, 'fill', {}), luminance: false },
              items: [image],
            }
          : { kind: 'group', transform: IDENTITY, opacity: 1, bounds: local, ...svgClipOf(doc, dst), items: [image] };
        return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, null, [clipped]), o.shadow) };
      }
      const clip = pictureClip(dst, o.cornerRadius ?? 0, o.mask ?? 'none');
      const items = [image];
      if (o.border) items.push(pictureBorder(dst, clip, o.border));
      return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, clip, items), o.shadow) };
    }
    case 'shape': {
      return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, null, shapeItems(o, local, images)), o.shadow) };
    }
    case 'chart':
      // Clipped like mockups: labels near the edges never paint outside the chart's box.
      return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, { kind: 'rect', rect: local }, layoutChart(o, fonts)), o.shadow) };
    case 'video': {
      const size = images.get(o.decodeKey);
      if (!size) throw new Error(`layout: no size for clip ${o.decodeKey} (the engine probes every clip before layout)`);
      const { src, dst } = placeMedia(o.fit, size, local);
      return {
        group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, null, [{ kind: 'image', image: clipFrameKey(o), src, dst }]), o.shadow),
      };
    }
    case 'line': {
      const { items, bounds } = layoutLine(o);
      return { group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, bounds, null, items), o.shadow) };
    }
    case 'group': {
      const children = layoutSiblings(o.objects, images, fonts);
      return {
        group: clippedToBox(children.map((c) => c.group)),
        ...(children.some((c) => c.report) ? { reports: children.flatMap((c) => (c.report ? [c.report] : (c.reports ?? []))) } : {}),
      };
    }
    case 'mockup':
      return { group: castShadow(clippedToBox(layoutMockup(o, (r) => sizeOf(images, r))), o.shadow) };
    case 'svg':
      return { group: svgObject(o, local, images) };
  }
}

/**
 * An svg object: the drawing (or its fill_image seen through the drawing's filled shapes), clipped to
 * the box (as a browser's <img> of the file clips it) with rounded corners, and its border. Polotno
 * draws the border as a node of its own: a stroke centred on the box inset by half the width, with
 * corners rounded by cornerRadius − width, not clipped, not shadowed, at the element's opacity.
 */
function svgObject(o: SceneSvg, local: Rect, images: ImageSizes): DisplayItem {
  const doc = svgOf(images, o.svg);
  let content: DisplayItem[];
  if (o.fillImage) {
    // The picture covers the box, centred, kept where the drawing paints (Polotno's "source-in"): a
    // vector clip by the filled shapes when that is the same (opaque fills only), else the drawing's alpha.
    const { src, dst } = placeMedia('cover', sizeOf(images, o.fillImage), local);
    const picture: DisplayItem = { kind: 'image', image: imageRefKey(o.fillImage), src, dst };
    const frame: DisplayItem = { kind: 'group', transform: IDENTITY, opacity: 1, bounds: local, clip: null, items: [picture] };
    if (doc.masked || svgFrameProblem(doc)) frame.mask = { items: svgItems(doc, local, o.fit, o.colors), luminance: false };
    else {
      const { geometry, evenOdd } = svgClipBy(doc, svgViewport(doc, local, o.fit));
      Object.assign(frame, { clip: geometry, ...(evenOdd ? { clipEvenOdd: true } : {}) });
    }
    content = [frame];
  } else content = svgItems(doc, local, o.fit, o.colors);
  const r = Math.min(o.cornerRadius ?? 0, local.width / 2, local.height / 2);
  const clip: Geometry = r > 0 ? { kind: 'round_rect', rect: local, radius: r } : { kind: 'rect', rect: local };
  if (!o.border) return castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, clip, content), o.shadow);
  const w = Math.min(o.border.width, local.width / 2, local.height / 2);
  const line = { x: w / 2, y: w / 2, width: local.width - w, height: local.height - w };
  const radius = Math.max(0, Math.min((o.cornerRadius ?? 0) - w, line.width / 2, line.height / 2));
  const geometry: Geometry = radius > 0 ? { kind: 'round_rect', rect: line, radius } : { kind: 'rect', rect: line };
  const drawing = castShadow({ kind: 'group', transform: IDENTITY, opacity: o.opacity, bounds: local, clip, items: content }, o.shadow);
  const border: DisplayItem = {
    kind: 'group',
    transform: IDENTITY,
    opacity: o.opacity,
    bounds: local,
    clip: null,
    items: [{ kind: 'stroke', geometry, color: o.border.color, width: w, dash: null }],
  };
  return group(o.box, local, o.rotation, o.scale, 1, local, null, [drawing, border]);
}

function group(
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

/** The picture mirrored inside its area `dst` (a group whose transform flips about dst's centre); the clip stays put. */
function flipped(picture: DisplayItem, dst: Rect, x: boolean, y: boolean): DisplayItem {
  if (!x && !y) return picture;
  const transform: Matrix = [x ? -1 : 1, 0, 0, y ? -1 : 1, x ? 2 * dst.x + dst.width : 0, y ? 2 * dst.y + dst.height : 0];
  return { kind: 'group', transform, opacity: 1, bounds: dst, clip: null, items: [picture] };
}

/**
 * A picture's border, inside its clip, as CSS draws border with border-radius: the outer edge is the
 * clip (the rounded corners or the mask), the inner edge the clip inset by the width, with corner
 * radius max(0, radius − width). Stroked as a path centred between the two, reaching 1 px past the
 * outer edge, which the group's clip cuts: the edge pixels are the clip's, with no sliver of photo between.
 */
function pictureBorder(dst: Rect, clip: BoxGeometry | null, border: { width: number; color: RGBA }): DisplayItem {
  const outer = clip ? clip.rect : dst;
  const w = Math.min(border.width, outer.width / 2, outer.height / 2);
  // Without a clip the stroke ends at the picture's edge itself (nothing cuts it).
  const over = clip ? 1 : 0;
  const inset = (w - over) / 2;
  const rect = { x: outer.x + inset, y: outer.y + inset, width: outer.width - 2 * inset, height: outer.height - 2 * inset };
  const radius = clip?.kind === 'round_rect' ? Math.max(0, clip.radius - inset) : 0;
  const geometry: Geometry = clip?.kind === 'ellipse' ? { kind: 'ellipse', rect } : radius > 0 ? { kind: 'round_rect', rect, radius } : { kind: 'rect', rect };
  return { kind: 'stroke', geometry, color: border.color, width: w + over, dash: null };
}

function shapeGeometry(o: SceneShape, rect: Rect, radius: number): Geometry {
  if (o.shape === 'rect') return { kind: 'rect', rect };
  if (o.shape === 'ellipse') return { kind: 'ellipse', rect };
  if (o.shape === 'rounded_rect') return { kind: 'round_rect', rect, radius: Math.max(0, Math.min(radius, rect.width / 2, rect.height / 2)) };
  if (o.shape === 'path') return { kind: 'path', d: pathDataString(transformPath(parsePathData(o.path!.d), viewBoxMatrix(o.path!.viewBox, rect))) };
  return figureGeometry(o.shape, rect, o.star, o.vertices);
}

/** An image clip_svg's clip: the union of the drawing's filled shapes, its viewBox stretched over `dst`. */
function svgClipOf(doc: SvgDocument, dst: Rect): { clip: Geometry; clipEvenOdd?: true } {
  const { geometry, evenOdd } = svgClip(doc, dst);
  return { clip: geometry, ...(evenOdd ? { clipEvenOdd: true as const } : {}) };
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

/** The fill of an outline; gradients and images are placed in `rect`, the box the outline fills. */
function fillItems(fill: SceneFill, outline: Geometry, rect: Rect, images: ImageSizes): DisplayItem[] {
  if (fill.kind === 'color') return [{ kind: 'fill', geometry: outline, color: fill.color }];
  if (fill.kind !== 'image') return [{ kind: 'gradient', geometry: outline, gradient: placeGradient(fill, rect) }];
  const { src, dst } = placeMedia('cover', sizeOf(images, fill.image), rect);
  const image: DisplayItem = { kind: 'image', image: imageRefKey(fill.image), src, dst };
  if (outline.kind === 'rect') return [image];
  return [{ kind: 'group', transform: IDENTITY, opacity: 1, bounds: rect, clip: outline, items: [image] }];
}

function svgOf(images: ImageSizes, ref: SceneImageRef): SvgDocument {
  const svg = images.get(svgRefKey(ref))?.svg;
  if (!svg) throw new Error(`layout: no drawing for SVG ${imageRefKey(ref)} (the engine parses every SVG file before layout)`);
  return svg;
}

function sizeOf(images: ImageSizes, ref: SceneImageRef): ImageSize {
  const size = images.get(imageRefKey(ref));
  if (!size) throw new Error(`layout: no size for image ${imageRefKey(ref)} (the engine loads every image before layout)`);
  return size;
}
