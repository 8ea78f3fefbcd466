// Polotno video elements → Imprint video objects: the clip trimmed by startTime and endTime, muted at
// volume 0; what Imprint cannot do to a clip (crop, corners, speed, partial volume) is refused.
import type { Converter } from '../context.js';
import type { VideoInput } from '../imprint-types.js';
import type { PolotnoVideo } from '../schema.js';
import { refuse, round } from '../shared.js';
import { animationsOf, begin, commonEffects } from './common.js';

export function convertVideo(c: Converter, e: PolotnoVideo, at: string, pageSeconds: number): VideoInput {
  const { base } = begin(e, 'video', { defaultWidth: 100, height: e.height ?? 100 });
  const out: VideoInput = { ...base, path: c.source(e.src, `${at}.src`, 'video', 'video') };
  for (const f of ['cropX', 'cropY', 'cropWidth', 'cropHeight', 'cornerRadius', 'clipSrc', 'borderSize', 'flipX', 'flipY'] as const) {
    const v = e[f];
    const neutral = f === 'cropWidth' || f === 'cropHeight' ? 1 : f === 'clipSrc' ? '' : f === 'flipX' || f === 'flipY' ? false : 0;
    if (v !== undefined && v !== neutral) refuse(at, f, `${f} is not supported on video elements: remove it (crop the clip itself)`);
  }
  const seconds = (e.duration ?? 0) / 1000;
  const start = e.startTime ?? 0;
  const end = e.endTime ?? 1;
  if ((start > 0 || end < 1) && seconds <= 0) refuse(at, 'duration', 'startTime and endTime are fractions of the clip duration: give duration (ms) too');
  if (start > 0) out.trim_start = round(start * seconds);
  if (end < 1) out.trim_end = round(end * seconds);
  if ((e.speed ?? 1) !== 1) refuse(at, 'speed', 'playback speed other than 1 is not supported: render the clip at the speed you want');
  const volume = e.volume ?? 1;
  if (volume === 0) out.muted = true;
  else if (volume !== 1) refuse(at, 'volume', 'only volume 0 (muted) or 1 is supported on video elements');
  out.config = { media_replacement_strategy: e.stretchEnabled ? 'fill' : 'cover' };
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}
