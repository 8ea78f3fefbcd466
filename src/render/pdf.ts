// The pdf path: every page laid out at its still time and painted by the pdf backend into one
// document. Loaded by the engine only for a pdf, so stills and videos never load pdfkit.
import { encodePdf } from '../encode/pdf.js';
import { FontSet } from '../text/fonts.js';
import { MIME, type RenderOptions } from './options.js';
import { layoutAt, withScenes, type EngineContext } from './scenes.js';
import { stillTimeOf } from './still.js';
import type { RenderResult } from './result.js';

export function renderPdf(ctx: EngineContext, options: RenderOptions): Promise<RenderResult> {
  return withScenes(ctx, options, async (scenes) => {
    const pages = await Promise.all(scenes.map((s) => layoutAt(ctx, s, stillTimeOf(s.scene, options))));
    const bytes = await encodePdf(
      pages.map((p) => ({ list: p.displayList, images: p.images, ready: p.ready })),
      // One set that knows every page's faces (their keys name the file, so pages never clash).
      pages.length === 1 ? pages[0]!.fonts : new FontSet(ctx.fonts, [...new Set(pages.flatMap((p) => p.fonts.ownFaces()))]),
      ctx.images,
    );
    const first = pages[0]!.displayList;
    // Entries of a multi-page document carry their page index.
    const report = pages.length > 1 ? pages.flatMap((p, page) => p.report.map((r) => ({ ...r, page }))) : pages[0]!.report;
    return { bytes, format: 'pdf', mimeType: MIME.pdf, width: first.width, height: first.height, report };
  });
}
