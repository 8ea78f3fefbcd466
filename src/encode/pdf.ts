// encode: pages of display lists → one PDF through pdfkit. Fixed dates, producer and document id,
// so the same request always gives the same bytes; fonts are registered from the bundled set only.
// The pages are painted by the pdf paint backend, driven by the same walk as raster output.
import type PDFDocument from 'pdfkit';
import { lazyRequire } from '../lazy-require.js';
import type { ImageCache } from '../assets/load.js';
import type { PageInput } from '../paint/backend.js';
import { PdfBackend, type PdfInternals } from '../paint/pdf.js';
import { paintPages } from '../paint/walk.js';
import type { FontSet } from '../text/fonts.js';

/** Every Imprint pdf carries this date: the file must not depend on when it was made. */
const pdfkit = lazyRequire<typeof PDFDocument>('pdfkit');

export const PDF_FIXED_DATE = new Date('2000-01-01T00:00:00Z');

/** One pdf page: a display list, its images, and images already decoded (video frames) by key. */
export type PdfPageInput = PageInput;

export async function encodePdf(pages: readonly PdfPageInput[], fonts: FontSet, cache: ImageCache): Promise<Buffer> {
  const doc = new (pdfkit())({
    autoFirstPage: false,
    compress: true,
    pdfVersion: '1.7',
    // The document id is a hash of the info dictionary, so it is fixed too.
    info: { Producer: 'Imprint', Creator: 'Imprint', CreationDate: PDF_FIXED_DATE, ModDate: PDF_FIXED_DATE },
  });
  for (const name of fonts.familyNames()) {
    for (const weight of [400, 700]) {
      const face = fonts.face(name, weight);
      doc.registerFont(face.key, face.bytes);
    }
  }
  // pdfkit's own types lack the internals the backend needs (see paint/pdf.ts); the rest is checked here.
  return paintPages(new PdfBackend(doc as unknown as Omit<PDFKit.PDFDocument, 'page'> & PdfInternals, fonts, cache), pages);
}
