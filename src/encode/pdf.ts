// encode: pages of display lists → one PDF through pdfkit. Fixed dates, producer and document id,
// so the same request always gives the same bytes; fonts are registered from the bundled set only.
import PDFDocument from 'pdfkit';
import type { DecodedImage, ImageCache, LoadedImage } from '../assets/load.js';
import type { DisplayList } from '../layout/display-list.js';
import { PdfPainter, PdfResources, preparePdfPage, PT_PER_PX, type PdfInternals } from '../paint/pdf.js';
import type { FontSet } from '../text/fonts.js';

/** Every Imprint pdf carries this date: the file must not depend on when it was made. */
export const PDF_FIXED_DATE = new Date('2000-01-01T00:00:00Z');

export interface PdfPageInput {
  list: DisplayList;
  images: ReadonlyMap<string, LoadedImage>;
  /** Images already decoded (video frames), by key. */
  ready?: ReadonlyMap<string, DecodedImage>;
}

export async function encodePdf(pages: readonly PdfPageInput[], fonts: FontSet, cache: ImageCache): Promise<Buffer> {
  // pdfkit draws synchronously; everything that needs decoding is decoded first.
  const prepared = await Promise.all(pages.map(async (p) => ({ ...(await preparePdfPage(p.list, p.images, cache)), ready: p.ready ?? new Map() })));
  const doc = new PDFDocument({
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
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const resources = new PdfResources(fonts, cache);
  pages.forEach((p, i) => {
    doc.addPage({ size: [p.list.width * PT_PER_PX, p.list.height * PT_PER_PX], margin: 0 });
    new PdfPainter(doc as unknown as Omit<PDFKit.PDFDocument, 'page'> & PdfInternals, resources, p.images, prepared[i]!).page(p.list);
  });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
