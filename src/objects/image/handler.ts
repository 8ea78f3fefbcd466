// Image objects: override fields path, crop, config (strategy, aliases mapped here; focal point),
// corner_radius, mask, an SVG clip shape, flips, filters, border and shadow.
import { shadowOf } from '../../format/shadow.js';
import { validationError } from '../../errors.js';
import { parseHexColor } from '../../format/color.js';
import type { ColorFilters } from '../../scene/scene.js';
import { parseImageRef } from '../../format/image-ref.js';
import { childPath } from '../../format/json-path.js';
import type { SceneImage } from '../../scene/scene.js';
import { mergeFields, placementOf } from '../common.js';
import type { ObjectHandler } from '../handler.js';
import { MEDIA_ALIASES } from '../media.js';
import { ImageOverride, ImageObject } from './schema.js';

/** The filters with defaults filled in, or undefined when they leave every pixel as it is. */
function filtersOf(f: ImageObject['filters']): ColorFilters | undefined {
  if (!f) return undefined;
  const filters: ColorFilters = {
    grayscale: f.grayscale ?? 0,
    sepia: f.sepia ?? 0,
    brightness: f.brightness ?? 1,
    contrast: f.contrast ?? 1,
    saturate: f.saturate ?? 1,
  };
  const identity = filters.grayscale === 0 && filters.sepia === 0 && filters.brightness === 1 && filters.contrast === 1 && filters.saturate === 1;
  return identity ? undefined : filters;
}

export const imageHandler: ObjectHandler<typeof ImageObject, typeof ImageOverride, SceneImage> = {
  type: 'image',
  schema: ImageObject,
  what: 'an image object',
  override: ImageOverride,
  merge: mergeFields,
  check(o, at) {
    parseImageRef(o.path, childPath(at, 'path'));
    // An override may border a picture the template does not; then it must give both fields.
    for (const field of ['width', 'color'] as const) {
      if (o.border && o.border[field] === undefined) {
        throw validationError(
          childPath(at, 'border', field),
          `the image has no border to restyle: give border.${field} (${field === 'width' ? 'in pixels' : '#rrggbb or #rrggbbaa'}) as well`,
        );
      }
    }
    if (o.clip_svg !== undefined) {
      parseImageRef(o.clip_svg, childPath(at, 'clip_svg'));
      if (o.border) {
        throw validationError(
          childPath(at, 'border'),
          'a border follows corner_radius or the mask, not the shape of clip_svg: remove the border, or clip_svg (and round the corners with corner_radius or mask)',
        );
      }
    }
  },
  toScene(o, fieldPath): SceneImage {
    const pathAt = fieldPath('path');
    return {
      type: 'image',
      ...placementOf(o),
      image: { ...parseImageRef(o.path, pathAt), at: pathAt },
      fit: MEDIA_ALIASES[o.config?.media_replacement_strategy ?? 'cover'],
      ...(o.crop ? { crop: { ...o.crop } } : {}),
      ...(o.config?.focal_point ? { focus: [o.config.focal_point.x, o.config.focal_point.y] as const } : {}),
      ...(o.corner_radius ? { cornerRadius: o.corner_radius } : {}),
      ...(o.mask && o.mask !== 'none' ? { mask: o.mask } : {}),
      ...(o.flip_x ? { flipX: true } : {}),
      ...(o.flip_y ? { flipY: true } : {}),
      ...(filtersOf(o.filters) ? { filters: filtersOf(o.filters)! } : {}),
      ...(o.border && o.border.width > 0 ? { border: { width: o.border.width, color: parseHexColor(o.border.color) } } : {}),
      ...(o.clip_svg !== undefined ? { clipSvg: { ...parseImageRef(o.clip_svg, fieldPath('clip_svg')), at: fieldPath('clip_svg') } } : {}),
      ...(o.shadow ? { shadow: shadowOf(o.shadow) } : {}),
    };
  },
  assets(o) {
    return { images: [o.image], ...(o.clipSvg ? { svgClips: [o.clipSvg] } : {}) };
  },
};
