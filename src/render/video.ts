// The mp4 path: the frames rendered and piped to ffmpeg (frames.ts) with the soundtrack the page
// loaded, and the optional jpg poster at the video's size. Loaded by the engine only for an mp4, so
// stills never load ffmpeg's process code.
import { encoder } from '../encode/image.js';
import { stillTime } from '../layout/timeline.js';
import { rasterBackend } from '../paint/raster.js';
import { renderVideo } from './frames.js';
import { DEFAULT_FPS, MIME_TYPES } from '../output-formats.js';
import { JPG_MATTE, type RenderOptions } from './options.js';
import type { RenderResult } from './result.js';
import { layoutAt, withScenes, type EngineContext, type ScenePage } from './scenes.js';

export function renderMp4(ctx: EngineContext, options: RenderOptions): Promise<RenderResult> {
  return withScenes(ctx, options, ([page]) => video(ctx, options, page!));
}

async function video(ctx: EngineContext, options: RenderOptions, page: ScenePage): Promise<RenderResult> {
  const { scene, images, clips, audio } = page;
  if (scene.duration === null) throw new Error('checkRenderable lets no mp4 without a duration through');
  const video = await renderVideo(
    { scene, images, clips, svgs: page.svgs, fonts: page.fonts, cache: ctx.images },
    {
      fps: options.fps ?? DEFAULT_FPS,
      ...(options.size ? { size: options.size } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(audio && scene.audio
        ? { audio: { path: audio.path, start: scene.audio.start, duration: scene.duration, fadeOut: Math.min(scene.audio.fadeOut, scene.duration) } }
        : {}),
    },
  );
  let poster: Buffer | undefined;
  if (options.poster) {
    const still = await layoutAt(ctx, page, Math.min(options.poster.time ?? stillTime(scene), scene.duration));
    const image = await rasterBackend.paint(still.displayList, { images, fonts: still.fonts, cache: ctx.images, ready: still.ready }, { matte: JPG_MATTE });
    // The same size as the video (sd/hd scale the frames after painting, as ffmpeg does for the video).
    const jpg = encoder(image, 'jpg', options);
    poster = await (image.width !== video.width || image.height !== video.height ? jpg.resize(video.width, video.height, { fit: 'fill' }) : jpg).toBuffer();
  }
  return {
    bytes: video.bytes,
    format: 'mp4',
    mimeType: MIME_TYPES.mp4,
    width: video.width,
    height: video.height,
    report: video.report,
    frames: video.frames,
    ...(poster ? { poster } : {}),
  };
}
