// The watermark option (interface B's free demo mode puts a logo on the video): an image object on
// top of everything, sized as a share of the canvas width and kept in a corner or the centre.
import { z } from 'zod';
import { ImageRef } from '../format/fields.js';
import { parseImageRef } from '../format/image-ref.js';
import type { Scene, SceneImage } from '../scene/scene.js';

export const Watermark = z.strictObject({
  /** The logo: a path, an upload URL or `asset:<name>`, as an image object's `image`. Required. */
  image: ImageRef,
  /**
   * Where the logo sits, 3 % of the canvas's short side from the edges.
   * @default "bottom-right"
   */
  position: z.enum(['top-left', 'top-right', 'bottom-left', 'bottom-right', 'center']).optional(),
  /**
   * 0-1.
   * @default 0.6
   */
  opacity: z.number().min(0).max(1).optional(),
  /**
   * Width as a share of the canvas width; the height follows the logo's aspect ratio.
   * @default 0.2
   */
  width: z.number().gt(0).max(1).optional(),
});

export type WatermarkOptions = z.infer<typeof Watermark>;

/** The scene with the watermark on top; `size` is the logo's pixel size, `at` the option's path. */
export function withWatermark(scene: Scene, wm: WatermarkOptions, size: { width: number; height: number }, at: string): Scene {
  const width = scene.width * (wm.width ?? 0.2);
  const height = (width * size.height) / size.width;
  const margin = Math.min(scene.width, scene.height) * 0.03;
  const position = wm.position ?? 'bottom-right';
  const x = position === 'center' ? (scene.width - width) / 2 : position.endsWith('left') ? margin : scene.width - margin - width;
  const y = position === 'center' ? (scene.height - height) / 2 : position.startsWith('top') ? margin : scene.height - margin - height;
  const logo: SceneImage = {
    type: 'image',
    name: 'watermark',
    box: { x, y, width, height },
    rotation: 0,
    opacity: wm.opacity ?? 0.6,
    scale: 1,
    start: 0,
    end: null,
    animations: [],
    image: { ...parseImageRef(wm.image, `${at}.image`), at: `${at}.image` },
    fit: 'contain',
  };
  return { ...scene, objects: [...scene.objects, logo] };
}
