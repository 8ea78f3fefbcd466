// Font files of any supported format (TTF, OTF, WOFF, WOFF2) → plain sfnt bytes plus what the file says
// about itself (family, weight, style, weight axis). WOFF2's decoder is loaded only when a WOFF2 arrives.
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import type * as HarfBuzz from 'harfbuzzjs';
import { tableDirectory } from './font-tables.js';
import type { FontStyle } from './faces.js';

/** Font files above this size are refused (the cap; a whole CJK family is ~10 MB). */
export const MAX_FONT_FILE_BYTES = 20 * 1024 * 1024;

export type FontFormat = 'ttf' | 'otf' | 'woff' | 'woff2';

/** A font file Imprint cannot use; the message says why and what to give instead. */
export class FontFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FontFileError';
  }
}

const SUPPORTED = 'give a TTF, OTF, WOFF or WOFF2 file';

/** The format from the first four bytes; anything else (collections, images, text) is refused. */
export function sniffFontFormat(bytes: Uint8Array): FontFormat {
  if (bytes.length === 0) throw new FontFileError(`the font file is empty (0 bytes): ${SUPPORTED}`);
  if (bytes.length > MAX_FONT_FILE_BYTES) {
    throw new FontFileError(`the font file is ${(bytes.length / 1048576).toFixed(1)} MB, more than the 20 MB allowed: subset it or give a WOFF2`);
  }
  if (bytes.length < 12) throw new FontFileError(`the font file is truncated (${bytes.length} bytes): ${SUPPORTED}`);
  const magic = Buffer.from(bytes.buffer, bytes.byteOffset, 4).toString('latin1');
  switch (magic) {
    case '\x00\x01\x00\x00':
    case 'true':
      return 'ttf';
    case 'OTTO':
      return 'otf';
    case 'wOFF':
      return 'woff';
    case 'wOF2':
      return 'woff2';
    case 'ttcf':
      throw new FontFileError(`font collections (.ttc/.otc) are not supported: extract the one face you need, or ${SUPPORTED}`);
    default:
      throw new FontFileError(`not a font file (it starts with ${JSON.stringify(magic)}): ${SUPPORTED}`);
  }
}

/** WOFF 1.0 → sfnt: each table is zlib-compressed on its own; the table directory is rebuilt. */
function unwoff(src: Buffer): Buffer {
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const flavor = view.getUint32(4);
  const count = view.getUint16(12);
  if (44 + count * 20 > src.length) throw new FontFileError(`the WOFF file is truncated: its table directory does not fit: ${SUPPORTED}`);
  const tables = Array.from({ length: count }, (_, i) => {
    const o = 44 + i * 20;
    const [tag, offset, compLength, origLength, checksum] = [
      view.getUint32(o),
      view.getUint32(o + 4),
      view.getUint32(o + 8),
      view.getUint32(o + 12),
      view.getUint32(o + 16),
    ];
    if (offset + compLength > src.length) throw new FontFileError(`the WOFF file is truncated (a table ends past the file's end): ${SUPPORTED}`);
    const raw = src.subarray(offset, offset + compLength);
    let data: Buffer;
    try {
      data = compLength < origLength ? inflateSync(raw) : raw;
    } catch {
      throw new FontFileError(`the WOFF file is corrupt (a table does not decompress): ${SUPPORTED}`);
    }
    if (data.length !== origLength) throw new FontFileError(`the WOFF file is corrupt (a table has the wrong size): ${SUPPORTED}`);
    return { tag, checksum, data };
  });
  let end = 12 + 16 * count;
  const offsets = tables.map((t) => {
    const at = end;
    end += (t.data.length + 3) & ~3;
    return at;
  });
  const out = Buffer.alloc(end);
  const pow2 = 2 ** Math.floor(Math.log2(Math.max(1, count)));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(count, 4);
  out.writeUInt16BE(16 * pow2, 6);
  out.writeUInt16BE(Math.log2(pow2), 8);
  out.writeUInt16BE(count * 16 - 16 * pow2, 10);
  tables.forEach((t, i) => {
    const o = 12 + i * 16;
    out.writeUInt32BE(t.tag, o);
    out.writeUInt32BE(t.checksum, o + 4);
    out.writeUInt32BE(offsets[i]!, o + 8);
    out.writeUInt32BE(t.data.length, o + 12);
    t.data.copy(out, offsets[i]);
  });
  return out;
}

/** Checks that the sfnt table directory lies inside the file (HarfBuzz would quietly see an empty font). */
function checkSfnt(sfnt: Buffer): void {
  if (sfnt.length < 12) throw new FontFileError(`the font file is truncated: ${SUPPORTED}`);
  const count = sfnt.readUInt16BE(4);
  if (count === 0 || 12 + count * 16 > sfnt.length) throw new FontFileError(`the font file is corrupt (bad table directory): ${SUPPORTED}`);
  for (let i = 0; i < count; i++) {
    const o = 12 + i * 16;
    const offset = sfnt.readUInt32BE(o + 8);
    const length = sfnt.readUInt32BE(o + 12);
    if (offset + length > sfnt.length) throw new FontFileError(`the font file is corrupt or truncated (a table ends past the file's end): ${SUPPORTED}`);
  }
}

/** Any supported format → sfnt (TTF/OTF) bytes. */
export async function toSfnt(bytes: Uint8Array): Promise<{ format: FontFormat; sfnt: Buffer }> {
  const format = sniffFontFormat(bytes);
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let sfnt: Buffer;
  if (format === 'woff') sfnt = unwoff(src);
  else if (format === 'woff2') {
    const { default: decompress } = await import('woff2-encoder/decompress');
    try {
      sfnt = Buffer.from(await decompress(src));
    } catch {
      throw new FontFileError(`the WOFF2 file is corrupt (it does not decompress): ${SUPPORTED}`);
    }
  } else sfnt = src;
  checkSfnt(sfnt);
  return { format, sfnt };
}

/** A font file ready to use: sfnt bytes, a content hash (for cache and face keys) and its own description. */
export interface FontFileInfo {
  format: FontFormat;
  sfnt: Buffer;
  /** sha256 of the sfnt bytes, hex. */
  hash: string;
  /** Typographic family (name id 16), else the family name (id 1). */
  family: string;
  /** OS/2 usWeightClass, clamped to 1-1000 (400 if absent). */
  weight: number;
  style: FontStyle;
  /** The `wght` axis of a variable font: the face covers every weight from min to max. */
  weightAxis?: { min: number; default: number; max: number };
}

function nameOf(face: HarfBuzz.Face, id: number): string {
  for (const lang of ['en', 'en-US', '']) {
    try {
      const n = face.getName(id, lang).trim();
      if (n) return n;
    } catch {
      // not present in this language
    }
  }
  return '';
}

/**
 * Refuses a CFF or CFF2 font whose outlines HarfBuzz cannot read (a damaged table draws nothing, so its
 * text would render blank): every glyph the character map reaches must have readable outlines. TrueType outlines need no
 * such check here: a damaged glyf/loca is caught by the table directory check or draws as HarfBuzz reads it.
 */
function checkCffOutlines(hb: typeof HarfBuzz, face: HarfBuzz.Face, sfnt: Buffer): void {
  const table = tableDirectory(sfnt)?.find((t) => t.tag === 'CFF ' || t.tag === 'CFF2')?.tag;
  if (!table) return;
  const font = new hb.Font(face);
  const checked = new Set<number>();
  const broken: number[] = [];
  for (const cp of face.collectUnicodes()) {
    const id = font.nominalGlyph(cp);
    if (id === undefined || checked.has(id)) continue;
    checked.add(id);
    // The extents run the same charstring interpreter as drawing, without a JavaScript call per
    // outline point (a CJK font has 65k glyphs), and fail where the charstring cannot be read.
    if (font.glyphExtents(id) === undefined) broken.push(cp);
  }
  if (broken.length > 0) {
    const first = `U+${broken[0]!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new FontFileError(
      `the font file is corrupt: the ${table.trim()} outlines of ${broken.length} of its ${checked.size} glyphs cannot be read (the first: ${first}): ${SUPPORTED}`,
    );
  }
}

/**
 * Decodes and describes a font file. HarfBuzz reads the names, OS/2 weight and italic bit, and fvar
 * axes; a file it sees no glyphs or characters in is refused as corrupt.
 */
export async function readFontFile(bytes: Uint8Array): Promise<FontFileInfo> {
  const { format, sfnt } = await toSfnt(bytes);
  const hb = await import('harfbuzzjs');
  const face = new hb.Face(new hb.Blob(sfnt));
  const maxp = face.referenceTable('maxp');
  const glyphCount = maxp && maxp.length >= 6 ? (maxp[4]! << 8) | maxp[5]! : 0;
  if (glyphCount === 0 || face.collectUnicodes().length === 0) {
    throw new FontFileError(`the font file is corrupt or has no characters (no glyphs or no character map): ${SUPPORTED}`);
  }
  checkCffOutlines(hb, face, sfnt);
  const family = nameOf(face, 16) || nameOf(face, 1);
  if (!family) throw new FontFileError('the font file has no family name (name table ids 16 and 1 are empty): give a family in the design');
  const os2 = face.referenceTable('OS/2');
  const rawWeight = os2 && os2.length >= 6 ? (os2[4]! << 8) | os2[5]! : 400;
  const italicBit = os2 && os2.length >= 64 ? (os2[63]! & 1) === 1 : false;
  const head = face.referenceTable('head');
  const macItalic = head && head.length >= 46 ? (head[45]! & 2) === 2 : false;
  const wght = face.getAxisInfos()['wght'];
  return {
    format,
    sfnt,
    hash: createHash('sha256').update(sfnt).digest('hex'),
    family,
    weight: Math.min(1000, Math.max(1, rawWeight || 400)),
    style: italicBit || macItalic ? 'italic' : 'normal',
    ...(wght && wght.max > wght.min ? { weightAxis: { min: wght.min, default: wght.default, max: wght.max } } : {}),
  };
}
