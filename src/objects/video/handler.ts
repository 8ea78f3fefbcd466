// Video objects: only placement (and blur and shadow) can be overridden. The interface's limits say a video on the canvas
// cannot be replaced by an upload, so an override with path (or any clip field) is refused clearly.
import { validationError } from '../../errors.js';
import { parseImageRef } from '../../format/image-ref.js';
import { shadowOf } from '../../format/shadow.js';
import { childPath } from '../../format/json-path.js';
import { imageRefKey } from '../../scene/keys.js';
import type { SceneVideo } from '../../scene/scene.js';
import { mergeFields, placementOf } from '../common.js';
import type { ObjectHandler } from '../handler.js';
import { MEDIA_ALIASES } from '../media.js';
import { VideoOverride, VideoObject } from './schema.js';

export const videoHandler: ObjectHandler<typeof VideoObject, typeof VideoOverride, SceneVideo> = {
  type: 'video',
  schema: VideoObject,
  what: 'a video object',
  override: VideoOverride,
  merge(o, ov) {
    return mergeFields(o, ov);
  },
  check(o, at) {
    parseImageRef(o.path, childPath(at, 'path'));
    if (o.trim_end !== undefined && o.trim_end <= (o.trim_start ?? 0)) {
      throw validationError(childPath(at, 'trim_end'), `trim_end (${o.trim_end} s) must come after trim_start (${o.trim_start ?? 0} s)`);
    }
  },
  toScene(o, fieldPath): SceneVideo {
    const at = fieldPath('path');
    const clip = parseImageRef(o.path, at);
    const placement = placementOf(o);
    const fit = MEDIA_ALIASES[o.config?.media_replacement_strategy ?? 'cover'];
    return {
      type: 'video',
      at: at.replace(/\.path$/, ''),
      ...placement,
      clip: { ...clip, at },
      decodeKey: `${imageRefKey(clip)}@${placement.box.width}x${placement.box.height}:${fit}`,
      trimStart: o.trim_start ?? 0,
      trimEnd: o.trim_end ?? null,
      loop: o.loop ?? false,
      muted: o.muted ?? false,
      fit,
      playTime: 0,
      ...(o.shadow ? { shadow: shadowOf(o.shadow) } : {}),
    };
  },
  assets(o) {
    return { videos: [o] };
  },
};
