// Image objects: override fields path and config.media_replacement_strategy (aliases mapped here).
import { z } from 'zod';
import { childPath } from '../format/json-path.js';
import { parseImageRef } from '../format/image-ref.js';
import { ImageObject, MediaConfig, type MediaStrategyName, type ImageObject as ImageObjectT } from '../design/schema.js';
import type { MediaFit, SceneImage } from '../scene/scene.js';
import type { ObjectHandler } from './handler.js';
import { mergeFields, placementOf, placementOverrideFields } from './placement.js';

export const MEDIA_ALIASES: Record<MediaStrategyName, MediaFit> = {
  cover: 'cover',
  crop: 'cover',
  contain: 'contain',
  fit: 'contain',
  fill: 'fill',
  stretch: 'fill',
};

export const ImageOverride = z.strictObject({
  ...placementOverrideFields,
  path: ImageObject.shape.path.optional(),
  config: MediaConfig.optional(),
});

export const imageHandler: ObjectHandler<ImageObjectT> = {
  type: 'image',
  what: 'an image object',
  override: ImageOverride,
  merge: mergeFields,
  check(o, at) {
    parseImageRef(o.path, childPath(at, 'path'));
  },
  toScene(o, fieldPath): SceneImage {
    const pathAt = fieldPath('path');
    return {
      type: 'image',
      ...placementOf(o),
      image: { ...parseImageRef(o.path, pathAt), at: pathAt },
      fit: MEDIA_ALIASES[o.config?.media_replacement_strategy ?? 'cover'],
    };
  },
};
