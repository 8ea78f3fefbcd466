// Writes a CFF (version 1) table from glyph outlines: a CID-keyed font (Adobe-Identity-0, CID = glyph
// id) of unhinted Type 2 charstrings, one per glyph. pdf embeds CFF2 faces through it (instance.ts):
// PDF 1.7 readers know CFF, not CFF2, and these are the very outlines the raster backend fills.

/** One outline command in font units, y up, as HarfBuzz draws it. */
export type OutlineCommand =
  | readonly ['M' | 'L', x: number, y: number]
  | readonly ['Q', x1: number, y1: number, x: number, y: number]
  | readonly ['C', x1: number, y1: number, x2: number, y2: number, x: number, y: number]
  | readonly ['Z'];

export interface CffGlyph {
  /** Advance width in font units (pdf takes widths from /W; kept for a complete font). */
  advance: number;
  outline: readonly OutlineCommand[];
}

export interface CffTable {
  table: Buffer;
  /** The outlines' bounds in font units (control points included), for head and FontBBox. */
  bbox: { xMin: number; yMin: number; xMax: number; yMax: number };
}

/** Charstring numbers are 16.16 fixed point: coordinates are kept in 1/65536 units, so deltas add up exactly. */
const ONE = 65536;
const quantize = (v: number): number => Math.round(v * ONE);

/** A Type 2 charstring operand, `v` in 1/65536 units: the shortest integer form, else 16.16 fixed (255). */
function charstringNumber(out: number[], v: number): void {
  if (v % ONE === 0) {
    const n = v / ONE;
    if (n >= -107 && n <= 107) return void out.push(n + 139);
    if (n >= 108 && n <= 1131) return void out.push(((n - 108) >> 8) + 247, (n - 108) & 0xff);
    if (n >= -1131 && n <= -108) return void out.push(((-n - 108) >> 8) + 251, (-n - 108) & 0xff);
    if (n >= -32768 && n <= 32767) return void out.push(28, (n >> 8) & 0xff, n & 0xff);
  }
  if (v < -0x80000000 || v > 0x7fffffff) throw new Error(`cff: a glyph coordinate step of ${v / ONE} units is beyond CFF's range (±32767)`);
  out.push(255, (v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}

const RMOVETO = 21;
const RLINETO = 5;
const RRCURVETO = 8;
const ENDCHAR = 14;

/**
 * A glyph as a charstring: its width (relative to nominalWidthX 0), then each contour as rmoveto,
 * rlineto and rrcurveto (quadratics as their exact cubics), then endchar. Contours close implicitly, as
 * Z does. One operator per segment keeps every operand stack far below CFF's limit of 48.
 */
function charstring(glyph: CffGlyph, grow: (x: number, y: number) => void): Buffer {
  const out: number[] = [];
  const width = quantize(glyph.advance);
  if (width !== 0) charstringNumber(out, width);
  // The pen in 1/65536 units (what the charstring has drawn to) and in font units (for quadratics).
  let [qx, qy] = [0, 0];
  let [px, py] = [0, 0];
  const to = (x: number, y: number): void => {
    const [nx, ny] = [quantize(x), quantize(y)];
    charstringNumber(out, nx - qx);
    charstringNumber(out, ny - qy);
    [qx, qy, px, py] = [nx, ny, x, y];
    grow(x, y);
  };
  for (const c of glyph.outline) {
    switch (c[0]) {
      case 'M':
        to(c[1], c[2]);
        out.push(RMOVETO);
        break;
      case 'L':
        to(c[1], c[2]);
        out.push(RLINETO);
        break;
      case 'Q': {
        const [, x1, y1, x, y] = c;
        to(px + (2 / 3) * (x1 - px), py + (2 / 3) * (y1 - py));
        to(x + (2 / 3) * (x1 - x), y + (2 / 3) * (y1 - y));
        to(x, y);
        out.push(RRCURVETO);
        break;
      }
      case 'C':
        to(c[1], c[2]);
        to(c[3], c[4]);
        to(c[5], c[6]);
        out.push(RRCURVETO);
        break;
      case 'Z':
        break;
    }
  }
  out.push(ENDCHAR);
  return Buffer.from(out);
}

/** A DICT integer operand in its shortest form. */
function dictInt(v: number): number[] {
  if (v >= -107 && v <= 107) return [v + 139];
  if (v >= 108 && v <= 1131) return [((v - 108) >> 8) + 247, (v - 108) & 0xff];
  if (v >= -1131 && v <= -108) return [((-v - 108) >> 8) + 251, (-v - 108) & 0xff];
  if (v >= -32768 && v <= 32767) return [28, (v >> 8) & 0xff, v & 0xff];
  return dictOffset(v);
}

/** A DICT integer in the fixed 5-byte form, so offsets can be filled in without changing sizes. */
function dictOffset(v: number): number[] {
  return [29, (v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

/** A DICT real operand: packed decimal nibbles (0-9, a = point, c = E-, e = minus, f = end). */
function dictReal(v: number): number[] {
  const text = Number.isInteger(v)
    ? String(v)
    : v
        .toExponential(8)
        .replace(/\.?0+e/, 'e')
        .replace('e+0', '')
        .replace('e+', 'E')
        .replace('e-', 'c');
  const nibbles = [...text].map((ch) => (ch === '.' ? 0xa : ch === 'E' ? 0xb : ch === 'c' ? 0xc : ch === '-' ? 0xe : Number(ch)));
  nibbles.push(0xf);
  if (nibbles.length % 2) nibbles.push(0xf);
  const out = [30];
  for (let i = 0; i < nibbles.length; i += 2) out.push((nibbles[i]! << 4) | nibbles[i + 1]!);
  return out;
}

/** A CFF INDEX: count, offset size, 1-based offsets, then the data. */
function index(items: readonly Buffer[]): Buffer {
  if (items.length === 0) return Buffer.from([0, 0]);
  const total = items.reduce((n, b) => n + b.length, 0) + 1;
  const offSize = total < 0x100 ? 1 : total < 0x10000 ? 2 : total < 0x1000000 ? 3 : 4;
  const head = Buffer.alloc(3 + (items.length + 1) * offSize);
  head.writeUInt16BE(items.length, 0);
  head[2] = offSize;
  let offset = 1;
  for (let i = 0; i <= items.length; i++) {
    head.writeUIntBE(offset, 3 + i * offSize, offSize);
    offset += items[i]?.length ?? 0;
  }
  return Buffer.concat([head, ...items]);
}

/** Standard strings end at SID 390: the String INDEX's first string is SID 391. */
const SID_ADOBE = 391;
const SID_IDENTITY = 392;

/**
 * The CFF table of `glyphs` (glyph id = index = CID). `name` is the font's PostScript name;
 * `unitsPerEm` sets the FontMatrix (coordinates stay in font units).
 */
export function writeCff(name: string, unitsPerEm: number, glyphs: readonly CffGlyph[]): CffTable {
  if (glyphs.length === 0 || glyphs.length > 65535) throw new Error(`cff: ${glyphs.length} glyphs (a CFF font has 1 to 65535)`);
  const bbox = { xMin: Infinity, yMin: Infinity, xMax: -Infinity, yMax: -Infinity };
  const grow = (x: number, y: number): void => {
    bbox.xMin = Math.min(bbox.xMin, x);
    bbox.yMin = Math.min(bbox.yMin, y);
    bbox.xMax = Math.max(bbox.xMax, x);
    bbox.yMax = Math.max(bbox.yMax, y);
  };
  const charStrings = index(glyphs.map((g) => charstring(g, grow)));
  if (bbox.xMin > bbox.xMax) Object.assign(bbox, { xMin: 0, yMin: 0, xMax: 0, yMax: 0 });
  const box = [Math.floor(bbox.xMin), Math.floor(bbox.yMin), Math.ceil(bbox.xMax), Math.ceil(bbox.yMax)];

  const header = Buffer.from([1, 0, 4, 4]);
  // A PostScript name: printable ASCII without delimiters, at most 63 characters.
  const psName = name.replace(/[^\x21-\x7e]|[[\](){}<>/%]/g, '').slice(0, 63) || 'Imprint-Instance';
  const nameIndex = index([Buffer.from(psName, 'latin1')]);
  const strings = index([Buffer.from('Adobe'), Buffer.from('Identity')]);
  const globalSubrs = index([]);
  // charset: CIDs 1..n-1 are glyphs 1..n-1 (format 2, one range); .notdef is implicit.
  const charset = glyphs.length > 1 ? Buffer.from([2, 0, 1, ((glyphs.length - 2) >> 8) & 0xff, (glyphs.length - 2) & 0xff]) : Buffer.from([2]);
  // FDSelect format 3: every glyph uses font dict 0.
  const fdSelect = Buffer.from([3, 0, 1, 0, 0, 0, (glyphs.length >> 8) & 0xff, glyphs.length & 0xff]);
  // The one Private DICT: nominalWidthX 0 (widths are written as they are; defaultWidthX is 0 too).
  const privateDict = Buffer.from([...dictInt(0), 21]);

  const topDict = (offsets: { charset: number; fdSelect: number; charStrings: number; fdArray: number }): Buffer =>
    Buffer.from([
      ...dictInt(SID_ADOBE),
      ...dictInt(SID_IDENTITY),
      ...dictInt(0),
      12,
      30, // ROS
      ...(unitsPerEm === 1000 ? [] : [...[1 / unitsPerEm, 0, 0, 1 / unitsPerEm, 0, 0].flatMap(dictReal), 12, 7]), // FontMatrix
      ...box.flatMap(dictInt),
      5, // FontBBox
      ...dictInt(glyphs.length),
      12,
      34, // CIDCount
      ...dictOffset(offsets.charset),
      15,
      ...dictOffset(offsets.fdSelect),
      12,
      37,
      ...dictOffset(offsets.charStrings),
      17,
      ...dictOffset(offsets.fdArray),
      12,
      36,
    ]);
  // Offsets use the fixed 5-byte form, so the Top DICT's size is known before they are.
  const topSize = index([topDict({ charset: 0, fdSelect: 0, charStrings: 0, fdArray: 0 })]).length;
  const charsetAt = header.length + nameIndex.length + topSize + strings.length + globalSubrs.length;
  const fdSelectAt = charsetAt + charset.length;
  const charStringsAt = fdSelectAt + fdSelect.length;
  const fdArrayAt = charStringsAt + charStrings.length;
  const fontDict = (privateAt: number): Buffer => Buffer.from([...dictInt(privateDict.length), ...dictOffset(privateAt), 18]);
  const fdArraySize = index([fontDict(0)]).length;
  const fdArray = index([fontDict(fdArrayAt + fdArraySize)]);
  const top = index([topDict({ charset: charsetAt, fdSelect: fdSelectAt, charStrings: charStringsAt, fdArray: fdArrayAt })]);
  const table = Buffer.concat([header, nameIndex, top, strings, globalSubrs, charset, fdSelect, charStrings, fdArray, privateDict]);
  return { table, bbox };
}
