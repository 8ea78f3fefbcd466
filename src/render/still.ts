// The raster still path: one page laid out at its still time, painted by the raster backend (at the
// caller's scale) onto a white matte for formats without alpha; the encoder (sharp) is chosen by the caller's format.
import { ALPHA_FORMATS } from '../encode/image.js';
import type { FitReport } from '../layout/layout.js';
import type { RasterImage } from '../paint/backend.js';
import { rasterBackend } from '../paint/raster.js';
import { JPG_MATTE, type RenderOptions } from './options.js';
import { layoutAt, stillTimeOf, withScenes, type EngineContext } from './scenes.js';

/** Raster formats up to encoding: laid out and painted (the options are validated by the caller). */
export function rasterizeStill(ctx: EngineContext, options: RenderOptions): Promise<{ image: RasterImage; report: FitReport }> {
  return withScenes(ctx, options, async ([page]) => {
    const { displayList, report, images, ready, fonts } = await layoutAt(ctx, page!, stillTimeOf(page!.scene, options));
    // Formats without alpha are flattened onto white; png, webp and avif keep transparency.
    const matte = ALPHA_FORMATS.has(options.format) ? undefined : JPG_MATTE;
    // A scaled still is painted at its output size through the canvas transform (crisp text, images decoded small).
    const scale = options.scale ?? 1;
    const image = await rasterBackend.paint(
      displayList,
      { images, fonts, cache: ctx.images, ready },
      { ...(matte ? { matte } : {}), ...(scale === 1 ? {} : { scale }) },
    );
    return { image, report };
  });
}
