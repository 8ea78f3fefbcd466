// The stages every output shares: parse → resolve → load for each page of a request (with its checks
// before anything is loaded; images, SVG files, clips, the soundtrack, the texts' font files), and the
// layout of a page at one moment with its clips' frames.
import { loadAudio, type AudioFile } from '../assets/audio.js';
import { clipSeconds, decodeClipFrame, loadClips, sceneVideos, type Clips } from '../assets/clips.js';
import { loadImage, loadImages, type DecodedImage, type ImageCache, type LoadedImage } from '../assets/load.js';
import { loadSvgs } from '../assets/svg.js';
import { loadTextFaces } from '../assets/text-faces.js';
import type { SvgDocument } from '../svg/parse.js';
import { AssetNotFoundError, fileAssetResolver, type AssetResolver } from '../assets/resolver.js';
import { clipFrameKey } from '../scene/keys.js';
import { parseImageRef } from '../format/image-ref.js';
import { parseDesign, parseJson } from '../design/parse.js';
import { convertInput, traceError } from '../design/import.js';
import { designFontSet } from '../assets/design-fonts.js';
import type { Scene } from '../scene/scene.js';
import type { DisplayList } from '../scene/display-list.js';
import { layout, type FitReport, type ImageSize } from '../layout/layout.js';
import { absentTexts, sampleScene, stillTime } from '../layout/timeline.js';
import { resolveScene } from '../resolve/resolve.js';
import { withWatermark } from '../resolve/watermark.js';
import { checkImagePixels, checkRenderable } from '../render-checks.js';
import { catalogueFamily } from '../text/catalogue.js';
import type { FontSet } from '../text/fonts.js';
import { loadShaper } from '../text/harfbuzz.js';
import { limitsOf, planOf, type RenderOptions } from './options.js';

/** What an engine keeps between renders and hands to each render path. */
export interface EngineContext {
  fonts: FontSet;
  images: ImageCache;
}

export interface ScenePage {
  scene: Scene;
  /** The engine's fonts with the design's own font files in front. */
  fonts: FontSet;
  images: Map<string, LoadedImage>;
  clips: Clips;
  /** Parsed SVG files (svg objects, image clip shapes), by `svgRefKey`. */
  svgs: Map<string, SvgDocument>;
  /** An mp4's soundtrack, as a file ffmpeg reads. */
  audio?: AudioFile;
}

export interface LaidOutPage {
  displayList: DisplayList;
  report: FitReport;
  images: Map<string, LoadedImage>;
  /** Frames of the video objects at the page's time. */
  ready: Map<string, DecodedImage>;
  /** The fonts the page was laid out with (painters look its faces up by key). */
  fonts: FontSet;
}

/** A still shows a clip's frame as a 30 fps video would at that time. */
const STILL_CLIP_FPS = 30;

const noAssets: AssetResolver = async () => {
  throw new AssetNotFoundError('this render has no asset resolver: pass `assets` or `baseDir` to render()');
};

export function resolverOf(options: RenderOptions): AssetResolver {
  return options.assets ?? (options.baseDir !== undefined ? fileAssetResolver({ baseDir: options.baseDir }) : noAssets);
}

/** Intrinsic sizes layout places images and clips by (clips at their decode size), and SVG files' drawings. */
export function sizesOf(images: ReadonlyMap<string, LoadedImage>, clips: Clips, svgs: ReadonlyMap<string, SvgDocument> = new Map()): Map<string, ImageSize> {
  const sizes = new Map<string, ImageSize>([...images].map(([k, v]) => [k, { width: v.width, height: v.height, opaque: v.opaque }]));
  for (const [k, c] of clips.byKey) sizes.set(k, { width: c.width, height: c.height, opaque: true });
  for (const [k, svg] of svgs) sizes.set(k, { width: svg.width, height: svg.height, svg });
  return sizes;
}

/** parse → resolve → load for one design; `at` roots its error paths. */
async function scenePage(
  ctx: EngineContext,
  design: unknown,
  overrides: unknown,
  resolver: AssetResolver,
  at: { design: string; overrides: string },
  options: RenderOptions,
): Promise<ScenePage> {
  const input = typeof design === 'string' ? parseJson(design, at.design, 'the design') : design;
  // A Polotno document becomes an Imprint design here; its embedded files are served before the resolver's.
  const imported = convertInput(input, {
    format: options.inputFormat ?? 'auto',
    root: at.design,
    hasFamily: (f) => ctx.fonts.has(f) || catalogueFamily(f) !== undefined,
    ...(options.textSplitAllowed === undefined ? {} : { textSplitAllowed: options.textSplitAllowed }),
  });
  try {
    return await loadScenePage(ctx, imported.design, overrides, withFiles(resolver, imported.files), at, options);
  } catch (e) {
    throw traceError(imported, e);
  }
}

/** An asset resolver that serves `files` (by relative path) and asks `resolver` for everything else. */
function withFiles(resolver: AssetResolver, files: ReadonlyMap<string, Uint8Array>): AssetResolver {
  if (files.size === 0) return resolver;
  return async (ref) => (ref.kind === 'path' && files.get(ref.path)) || resolver(ref);
}

async function loadScenePage(
  ctx: EngineContext,
  value: unknown,
  overrides: unknown,
  resolver: AssetResolver,
  at: { design: string; overrides: string },
  options: RenderOptions,
): Promise<ScenePage> {
  // The design's own font files load first (through the resolver, like images): its text is checked against them.
  const fonts = await designFontSet(
    value !== null && typeof value === 'object' ? (value as { fonts?: unknown }).fonts : undefined,
    options.fontFiles,
    ctx.fonts,
    resolver,
    at.design,
    options.missingFonts,
  );
  const parsed = parseDesign(value, fonts, at.design);
  let scene = resolveScene(parsed, overrides ?? {}, fonts, at);
  // The budget and the format's needs are checked before a byte is loaded.
  checkRenderable(scene, { ...planOf(options), at: { size: `${at.design}.width` } });
  const { watermark } = options;
  if (watermark) {
    // The logo's size decides its box, so it is loaded first.
    const ref = { ...parseImageRef(watermark.image, '$.watermark.image'), at: '$.watermark.image' };
    scene = withWatermark(scene, watermark, await loadImage(ref, resolver, ctx.images), '$.watermark');
  }
  const images = await loadImages(scene, resolver, ctx.images);
  checkImagePixels(images.values(), limitsOf(options));
  const svgs = await loadSvgs(scene, resolver);
  const clips = await loadClips(scene, resolver);
  let audio: AudioFile | undefined;
  try {
    if (options.format === 'mp4' && scene.audio) audio = await loadAudio(scene.audio.file, resolver);
    // The font files the texts are drawn with (parsed by HarfBuzz, which withScenes started loading): layout reads no file.
    await loadShaper();
    loadTextFaces(scene, fonts);
    return { scene, fonts, images, svgs, clips, ...(audio ? { audio } : {}) };
  } catch (e) {
    await Promise.all([clips.remove(), audio?.remove()]);
    throw e;
  }
}

function scenesOf(ctx: EngineContext, options: RenderOptions): Promise<ScenePage[]> {
  const resolver = resolverOf(options);
  if (options.pages) {
    return Promise.all(
      options.pages.map((p, i) =>
        scenePage(ctx, p.design, p.overrides, p.assets ?? resolver, { design: `$.pages[${i}].design`, overrides: `$.pages[${i}].overrides` }, options),
      ),
    );
  }
  return Promise.all([scenePage(ctx, options.design, options.overrides, resolver, { design: '$', overrides: '$.objects_overrides' }, options)]);
}

/** Runs `work` on the request's scenes, then removes their clips' and soundtracks' temporary files. */
export async function withScenes<T>(ctx: EngineContext, options: RenderOptions, work: (pages: ScenePage[]) => Promise<T>): Promise<T> {
  // Every path lays text out in `work`; HarfBuzz instantiates (once per process) while the images load.
  const shaper = loadShaper();
  shaper.catch(() => undefined); // awaited below; this only keeps a failure of scenesOf from leaving it unhandled
  const pages = await scenesOf(ctx, options);
  try {
    await shaper;
    return await work(pages);
  } finally {
    await Promise.all(pages.flatMap((p) => [p.clips.remove(), ...(p.audio ? [p.audio.remove()] : [])]));
  }
}

/** The second a still of this page shows: the caller's `time` (checked by checkRenderable), or the design's poster time. */
export function stillTimeOf(scene: Scene, options: RenderOptions): number {
  return options.time ?? stillTime(scene);
}

/** The scene at `time` laid out, with its video objects' frames at that time. */
export async function layoutAt(_ctx: EngineContext, { scene, images, clips, svgs, fonts }: ScenePage, time: number): Promise<LaidOutPage> {
  const sampled = sampleScene(scene, time);
  const laid = layout(sampled, sizesOf(images, clips, svgs), fonts);
  const { displayList } = laid;
  // Texts not on screen at this time are named too, with the reason.
  const report = [...laid.report, ...absentTexts(scene, time)];
  const ready = new Map<string, DecodedImage>();
  for (const v of sceneVideos(sampled.objects)) {
    const clip = clips.byKey.get(v.decodeKey)!;
    const key = clipFrameKey(v);
    if (!ready.has(key)) ready.set(key, await decodeClipFrame(clip, clipSeconds(v, clip, v.playTime, STILL_CLIP_FPS), key));
  }
  return { displayList, report, images, ready, fonts };
}
