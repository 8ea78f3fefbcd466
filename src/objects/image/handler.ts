// Image objects: override fields path, crop, config (strategy, aliases mapped here; focal point),
// corner_radius, mask, an SVG clip shape and shadow.
import { shadowOf } from '../../format/shadow.js';
import { parseImageRef } from '../../format/image-ref.js';
import { childPath } from '../../format/json-path.js';
import type { SceneImage } from '../../scene/scene.js';
import { mergeFields, placementOf } from '../common.js';
import type { ObjectHandler } from '../handler.js';
import { MEDIA_ALIASES } from '../media.js';
import { ImageOverride, type ImageObject } from './schema.js';

export const imageHandler: ObjectHandler<ImageObject> = {
  type: 'image',
  what: 'an image object',
  override: ImageOverride,
  merge: mergeFields,
  check(o, at) {
    parseImageRef(o.path, childPath(at, 'path'));
    if (o.clip_svg !== undefined) parseImageRef(o.clip_svg, childPath(at, 'clip_svg'));
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
      ...(o.clip_svg !== undefined ? { clipSvg: { ...parseImageRef(o.clip_svg, fieldPath('clip_svg')), at: fieldPath('clip_svg') } } : {}),
      ...(o.shadow ? { shadow: shadowOf(o.shadow) } : {}),
    };
  },
};
