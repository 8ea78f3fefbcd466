// Video objects placed: the clip's frame at the sampled time, decoded at the box's size (assets/clips.ts)
// and fitted into the box.
import { clipFrameKey } from '../../scene/keys.js';
import type { SceneVideo } from '../../scene/scene.js';
import { placeMedia } from '../boxes.js';
import { castShadow, group, localBox, type ObjectLayout } from '../place.js';

export const videoLayout: ObjectLayout<SceneVideo> = (o, ctx) => {
  const local = localBox(o);
  const size = ctx.images.get(o.decodeKey);
  if (!size) throw new Error(`layout: no size for clip ${o.decodeKey} (the engine probes every clip before layout)`);
  const { src, dst } = placeMedia(o.fit, size, local);
  return {
    group: castShadow(group(o.box, local, o.rotation, o.scale, o.opacity, local, null, [{ kind: 'image', image: clipFrameKey(o), src, dst }]), o.shadow),
  };
};
