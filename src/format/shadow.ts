// Drop shadows in template format v1: the `shadow` field (colour, blur, offsets in canvas pixels) and
// its scene form. Every object type takes it, with the same schema, override merge and painting.
import { z } from 'zod';
import type { SceneShadow } from '../scene/scene.js';
import { parseHexColor } from './color.js';
import { Color, doc } from './fields.js';

const px = (max: number) => z.number().finite().min(-max).max(max);

export const Shadow = z
  .strictObject({
    color: doc(Color, 'Shadow colour; its alpha sets how dark the shadow is. Default #00000080 (half-transparent black).', '#0000004d').optional(),
    blur: doc(
      z.number().finite().min(0).max(500),
      "Blur radius in pixels, as CSS box-shadow's (a Gaussian of σ = blur / 2). 0 = a sharp shadow. Default 0.",
      16,
    ).optional(),
    offset_x: doc(px(10_000), 'Shift to the right in canvas pixels (negative: left). The object’s rotation does not turn it. Default 0.', 0).optional(),
    offset_y: doc(px(10_000), 'Shift downwards in canvas pixels (negative: up). Default 0.', 8).optional(),
  })
  .meta({
    description:
      'A drop shadow under the object: its silhouette (what it paints: the fill and border of a shape, a photo within its clip, the glyphs of a text, the marks and labels of a chart, a mockup with its layers, a video frame) in the shadow colour, blurred and shifted. With blur, the shadow is blurred together with the object.',
    examples: [{ color: '#0000004d', blur: 16, offset_x: 0, offset_y: 8 }],
  });

export type Shadow = z.infer<typeof Shadow>;

export function shadowOf(s: Shadow | undefined): SceneShadow | null {
  if (!s) return null;
  return { color: parseHexColor(s.color ?? '#00000080'), blur: s.blur ?? 0, offsetX: s.offset_x ?? 0, offsetY: s.offset_y ?? 0 };
}
