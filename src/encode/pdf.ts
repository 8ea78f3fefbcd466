// encode: the pdf document the pdf backend (paint/pdf.ts) paints pages into: pdfkit with fixed dates,
// producer and document id, so the same request always gives the same bytes, and the font programs of
// the faces the pages draw (only those, subset). render/pdf.ts lays the pages out and paints them into it.
import { basename } from 'node:path';
import type PDFDocument from 'pdfkit';
import { ImprintError } from '../errors.js';
import { lazyRequire } from '../lazy-require.js';
import { isColorFace, type PdfInternals } from '../paint/pdf.js';
import type { PdfDocument } from '../paint/pdf-kit.js';
import type { DisplayItem, DisplayList } from '../scene/display-list.js';
import type { FontFace } from '../text/faces.js';
import type { FontSet } from '../text/fonts.js';
import { pdfFontProgram } from '../text/instance.js';

const pdfkit = lazyRequire<typeof PDFDocument>('pdfkit');

/** Every Imprint pdf carries this date: the file must not depend on when it was made. */
export const PDF_FIXED_DATE = new Date('2000-01-01T00:00:00Z');

/** Document-wide settings of the pdf. */
export interface PdfDocumentOptions {
  /** The document's language (the catalog's /Lang, a BCP 47 tag); default none. */
  lang?: string;
}

/** A new pdf for `pages` (the display lists it will show), with the faces they draw embedded. */
export async function pdfDocument(pages: readonly DisplayList[], fonts: FontSet, options: PdfDocumentOptions = {}): Promise<PdfDocument> {
  const doc = new (pdfkit())({
    autoFirstPage: false,
    compress: true,
    pdfVersion: '1.7',
    ...(options.lang === undefined ? {} : { lang: options.lang }),
    // The document id is a hash of the info dictionary, so it is fixed too.
    info: { Producer: 'Imprint', Creator: 'Imprint', CreationDate: PDF_FIXED_DATE, ModDate: PDF_FIXED_DATE },
  });
  // Each face the pages draw with, by key; a variable instance (or a CFF2 font) is embedded as a static
  // font of its own, holding the glyphs the pages draw (instance.ts).
  for (const [key, glyphs] of faceGlyphs(pages.map((p) => p.items))) {
    const face = fonts.byFaceKey(key);
    // Colour faces (emoji) are drawn as vector forms, not as text of their font (paint/pdf.ts).
    if (isColorFace(face)) continue;
    doc.registerFont(key, await embeddable(face, glyphs));
  }
  // pdfkit's own types lack the internals the backend needs (see paint/pdf.ts); the rest is checked here.
  const painted: PdfDocument = doc as unknown as Omit<PDFKit.PDFDocument, 'page'> & PdfInternals;
  return painted;
}

/**
 * The font program to embed for `face`. A file that renders as png can still defeat the subsetter or
 * the CFF writer (a hostile CFF2's deltas, a table HarfBuzz refuses): that is the font's fault, so it
 * is a validation_error naming the face, not a failed render.
 */
async function embeddable(face: FontFace, glyphs: Iterable<number>): Promise<Buffer> {
  try {
    return await pdfFontProgram(face.bytes, face.variations, glyphs);
  } catch (e) {
    const style = face.style === 'normal' ? '' : ` ${face.style}`;
    throw new ImprintError(
      'validation_error',
      '$.fonts',
      `the font file of "${face.family}" ${face.weight}${style} (${basename(face.file)}) cannot be embedded in a pdf (${(e as Error).message}): render png or jpg, or give the family another font file (a static .ttf or .otf)`,
      { cause: e },
    );
  }
}

/** The glyph ids each face draws, by face key. */
function faceGlyphs(lists: readonly (readonly DisplayItem[])[], out = new Map<string, Set<number>>()): Map<string, Set<number>> {
  for (const items of lists) {
    for (const it of items) {
      if (it.kind === 'group') faceGlyphs([it.items], out);
      else if (it.kind === 'glyphs') {
        let ids = out.get(it.face);
        if (!ids) out.set(it.face, (ids = new Set()));
        for (const g of it.glyphs) ids.add(g.id);
      }
    }
  }
  return out;
}
