// The pdf path, shaped like the raster one (still.ts): every page laid out at its still time, then
// painted by the pdf backend (paint/pdf.ts) into one document (encode/pdf.ts: fixed metadata, the
// faces the pages draw embedded). pdfkit itself is loaded on the first pdf: stills and videos never load it.
import type { ImageCache } from '../assets/load.js';
import { pdfDocument, type PdfDocumentOptions } from '../encode/pdf.js';
import type { PageInput } from '../paint/backend.js';
import { PdfBackend } from '../paint/pdf.js';
import { paintPages } from '../paint/walk.js';
import { FontSet } from '../text/fonts.js';
import { MIME_TYPES } from '../output-formats.js';
import type { RenderOptions } from './options.js';
import { stillTime } from '../layout/timeline.js';
import type { Scene } from '../scene/scene.js';
import { layoutAt, stillTimeOf, withScenes, type EngineContext, type ScenePage } from './scenes.js';
import type { RenderResult } from './result.js';

/** One pdf page: a display list, its images, and images already decoded (video frames) by key. */
export type PdfPageInput = PageInput;

/** Pages of display lists → one pdf: each painted by the pdf backend, with the same walk as raster output, into one document. */
export async function encodePdf(pages: readonly PdfPageInput[], fonts: FontSet, cache: ImageCache, options: PdfDocumentOptions = {}): Promise<Buffer> {
  const document = await pdfDocument(
    pages.map((p) => p.list),
    fonts,
    options,
  );
  return paintPages(new PdfBackend(document, fonts, cache), pages);
}

/**
 * A slide design makes one pdf page per slide (a Polotno document of several pages comes in as one),
 * each slide on its own at the moment its entrance animations have ended; `time` picks one moment
 * of the video instead.
 */
function pdfPages(page: ScenePage, options: RenderOptions): { page: ScenePage; time: number }[] {
  const { scene } = page;
  if (!scene.slides || options.time !== undefined) return [{ page, time: stillTimeOf(scene, options) }];
  return scene.objects.map((slide, index) => {
    const hidden = scene.hiddenTexts?.filter((h) => h.slide === index);
    const alone: Scene = {
      ...scene,
      slides: false,
      posterTime: null,
      duration: slide.end === null ? scene.duration : slide.end - slide.start,
      // The slide without its transitions, starting at 0. With a bleed, its objects on their own: the
      // slide's group would clip them to the canvas, and the bleed shows what reaches past it.
      objects: scene.bleed && slide.type === 'group' ? slide.objects : [{ ...slide, start: 0, end: null, animations: [] }],
      // Its own hidden texts only: the others are on other pages.
      hiddenTexts: hidden?.length ? hidden : undefined,
    };
    return { page: { ...page, scene: alone }, time: stillTime(alone) };
  });
}

export function renderPdf(ctx: EngineContext, options: RenderOptions): Promise<RenderResult> {
  return withScenes(ctx, options, async (scenes) => {
    const pages = await Promise.all(scenes.flatMap((s) => pdfPages(s, options)).map(({ page, time }) => layoutAt(ctx, page, time)));
    // A document has one /Lang: the first design's that gives one (a pdf of several designs is usually one language).
    const lang = scenes.find((s) => s.scene.lang !== undefined)?.scene.lang;
    const bytes = await encodePdf(
      pages.map((p) => ({ list: p.displayList, images: p.images, ready: p.ready })),
      // One set that knows every page's faces (their keys name the file, so pages never clash).
      pages.length === 1 ? pages[0]!.fonts : new FontSet(ctx.fonts, [...new Set(pages.flatMap((p) => p.fonts.ownFaces()))]),
      ctx.images,
      lang === undefined ? {} : { lang },
    );
    const first = pages[0]!.displayList;
    // Entries of a multi-page document carry their page index.
    const report = pages.length > 1 ? pages.flatMap((p, page) => p.report.map((r) => ({ ...r, page }))) : pages[0]!.report;
    const sizes = pages.map((p) => ({ width: p.displayList.width, height: p.displayList.height }));
    return { bytes, format: 'pdf', mimeType: MIME_TYPES.pdf, width: first.width, height: first.height, pages: sizes, report };
  });
}
