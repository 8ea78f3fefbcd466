// Video objects in template format v1: a clip from the template's own assets, trimmed, looped or
// muted. An override may move it but never change its clip, so those fields are refused by name.
import { z } from 'zod';
import { doc, ImageRef } from '../../format/fields.js';
import { Shadow } from '../../format/shadow.js';
import { common, placementOverrideFields } from '../common.js';
import { MediaConfig } from '../media.js';

export const VideoObject = z
  .strictObject({
    type: doc(z.literal('video'), "Object type: a clip from the template's own assets (it cannot be replaced by an upload).", 'video'),
    ...common,
    path: doc(ImageRef, 'The clip (mp4, mov, webm…): a relative path or "asset:<name>".', 'clips/waves.mp4'),
    trim_start: doc(z.number().finite().min(0).max(3600), 'Second of the clip to start from. Default 0.', 1.5).optional(),
    trim_end: doc(z.number().finite().gt(0).max(3600), 'Second of the clip to stop at. Default: its end.', 6).optional(),
    loop: doc(z.boolean(), 'Start again from trim_start when the trimmed clip ends; otherwise its last frame stays. Default false.', true).optional(),
    muted: doc(
      z.boolean(),
      "true silences the clip; otherwise its sound is mixed over the design's audio while the object is on screen. Default false.",
      true,
    ).optional(),
    config: MediaConfig.optional(),
    shadow: Shadow.optional(),
  })
  .meta({ description: 'A video clip placed into its box.' });

const CLIP_FIELDS = ['path', 'trim_start', 'trim_end', 'loop', 'muted', 'config'] as const;
const REFUSED =
  'expected no such field (a video on the canvas cannot be replaced or changed by a request: only x, y, width, height, rotation, opacity, hidden, blur and shadow can be overridden)';

// The clip fields are named (as never-valid) so the refusal says why, instead of "unknown field".
const refused = doc(z.never({ error: REFUSED }), 'Not accepted: the clip of a video object comes from the template only.', null).optional();
export const VideoOverride = z.strictObject({
  ...placementOverrideFields,
  ...Object.fromEntries(CLIP_FIELDS.map((f) => [f, refused])),
  // Field by field, like a shape's: a colour alone recolours the template's shadow.
  shadow: Shadow.optional(),
});

export type VideoObject = z.infer<typeof VideoObject>;
