// What every converted element shares: its name and box (Polotno turns an element about its top-left
// corner, Imprint about the box centre), the effects all types have, and its animations.
import { validationError } from '../../../errors.js';
import { AnimationError, convertAnimations } from '../animations.js';
import type { ConvertedObject } from '../imprint-types.js';
import type { PolotnoAnimation, PolotnoElement, PolotnoGroupInput } from '../schema.js';
import { colorWithAlpha, refuse, round } from '../shared.js';

/** An element that is drawn: any but a group. */
export type Shaped = Exclude<PolotnoElement, PolotnoGroupInput>;

/** An Imprint box: Polotno's placement turned about the centre. */
type Box = Pick<ConvertedObject, 'x' | 'y' | 'width' | 'height' | 'rotation'>;

/**
 * The fields every Imprint object begins with (in the design: type, name, x, y, width, height, rotation).
 * Picked from the objects' types, so that a common field the schema renames breaks the build here too.
 */
export type Begun<T extends ConvertedObject['type']> = { type: T } & Pick<ConvertedObject, 'name'> & Box;

/**
 * Placement of an element: Polotno rotates around the top-left corner (x, y), Imprint around the box
 * centre, so the box moves to where Polotno's rotated centre lands.
 */
function placement(x: number, y: number, width: number, height: number, rotation: number): Box {
  if (rotation === 0) return { x: round(x), y: round(y), width: round(width), height: round(height) };
  const r = (rotation * Math.PI) / 180;
  const cx = x + (width / 2) * Math.cos(r) - (height / 2) * Math.sin(r);
  const cy = y + (width / 2) * Math.sin(r) + (height / 2) * Math.cos(r);
  return { x: round(cx - width / 2), y: round(cy - height / 2), width: round(width), height: round(height), rotation: round(rotation) };
}

/** Polotno allows one name on several elements (a role such as "primary_colour"): an override of it applies to all. */
function nameOf(e: { name?: string | undefined }): Pick<ConvertedObject, 'name'> {
  const name = e.name?.trim();
  return name ? { name } : {};
}

/**
 * The Imprint object of an element, begun: its type, name and box. `defaultWidth` is Polotno's width
 * for the type when the element has none; `height` the height the converter settled on.
 */
export function begin<T extends ConvertedObject['type']>(
  e: Shaped,
  type: T,
  size: { defaultWidth: number; height: number },
): { base: Begun<T>; width: number; height: number } {
  const width = e.width ?? size.defaultWidth;
  const height = size.height;
  const base: Begun<T> = { type, ...nameOf(e), ...placement(e.x ?? 0, e.y ?? 0, width, height, e.rotation ?? 0) };
  return { base, width, height };
}

/** Effects every element type has; those without an exact Imprint equivalent are refused. */
export function commonEffects(e: Shaped, at: string, out: ConvertedObject): void {
  if (e.shadowEnabled) {
    // Konva draws shadows with the canvas shadowOffset, which the element's rotation does not turn:
    // page pixels, as Imprint's offsets are.
    out.shadow = {
      color: colorWithAlpha(e.shadowColor ?? 'black', e.shadowOpacity ?? 1, `${at}.shadowColor`),
      // Konva's shadowBlur is the canvas shadowBlur (σ = blur / 2), as Imprint's shadow.blur.
      blur: round(e.shadowBlur ?? 5),
      offset_x: round(e.shadowOffsetX ?? 0),
      offset_y: round(e.shadowOffsetY ?? 0),
    };
  }
  if (e.blurEnabled) {
    const radius = e.blurRadius ?? 10;
    if (e.type === 'image' || e.type === 'svg' || e.type === 'video') {
      // Polotno scales an image's blur with the source's size, which only the renderer knows.
      refuse(at, 'blurRadius', `blur on ${e.type} elements depends on the source file's pixel size in Polotno and is not supported: remove blurEnabled`);
    }
    // Konva's blur radius R draws as CSS blur(R / 2 px), which is Imprint's blur.
    if (radius > 0) out.blur = round(radius / 2);
  }
  // Filters are image fields: an image element is the only one converted to an image object.
  if (e.brightnessEnabled && (e.brightness ?? 0) !== 0) {
    if (out.type !== 'image')
      refuse(at, 'brightnessEnabled', `brightness is supported on image elements only, not on ${e.type} elements: remove brightnessEnabled`);
    out.filters = { ...out.filters, brightness: round(1 + (e.brightness ?? 0)) };
  }
  if (e.sepiaEnabled) {
    if (out.type !== 'image') refuse(at, 'sepiaEnabled', `sepia is supported on image elements only, not on ${e.type} elements: remove sepiaEnabled`);
    out.filters = { ...out.filters, sepia: 1 };
  }
  if (e.grayscaleEnabled) {
    if (out.type !== 'image')
      refuse(at, 'grayscaleEnabled', `grayscale is supported on image elements only, not on ${e.type} elements: remove grayscaleEnabled`);
    out.filters = { ...out.filters, grayscale: 1 };
  }
  const named = e.filters && !Array.isArray(e.filters) ? Object.keys(e.filters) : [];
  if (named.length > 0) {
    refuse(
      at,
      `filters.${named[0]}`,
      `the "${named[0]}" filter has no exact equivalent in Imprint: remove it (grayscaleEnabled, sepiaEnabled and brightnessEnabled are supported on images)`,
    );
  }
  if (e.opacity !== undefined && e.opacity !== 1) out.opacity = e.opacity;
  if (e.visible === false) out.hidden = true;
}

/** The element's animations (its own and its groups'), as Imprint animations of the object at rest. */
export function animationsOf(list: readonly PolotnoAnimation[] | undefined, out: ConvertedObject, at: string, pageSeconds: number): void {
  if (!list?.length) return;
  try {
    const anims = convertAnimations(list, { x: out.x, y: out.y, rotation: out.rotation ?? 0, opacity: out.opacity ?? 1, pageDuration: pageSeconds });
    if (anims.length) out.animations = anims;
  } catch (e) {
    if (e instanceof AnimationError) throw validationError(`${at}.animations${e.field}`, e.message);
    throw e;
  }
}
