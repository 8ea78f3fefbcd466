// The sfnt table directory, read and rewritten in memory: a colour emoji font is opened without the
// tables Imprint never draws from (Noto Color Emoji's SVG table is 20 MB of its 25 MB; glyphs are
// painted from COLR), so the shaper's copy and the pdf embedder's parse stay small.

/** Table tags (4 characters, space padded) whose data no painter here uses when a COLR table is present. */
export const UNUSED_COLOUR_TABLES = ['SVG ', 'CBDT', 'CBLC', 'sbix'] as const;

interface TableRecord {
  tag: string;
  checksum: number;
  offset: number;
  length: number;
}

/** The table records of a TrueType/OpenType font (not a collection or WOFF), or undefined if it is not one. */
export function tableDirectory(bytes: Uint8Array): TableRecord[] | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(0);
  if (version !== 0x00010000 && version !== 0x4f54544f /* OTTO */ && version !== 0x74727565 /* true */) return undefined;
  const count = view.getUint16(4);
  if (bytes.length < 12 + 16 * count) return undefined;
  const tables: TableRecord[] = [];
  for (let i = 0; i < count; i++) {
    const o = 12 + 16 * i;
    const tag = String.fromCharCode(bytes[o]!, bytes[o + 1]!, bytes[o + 2]!, bytes[o + 3]!);
    tables.push({ tag, checksum: view.getUint32(o + 4), offset: view.getUint32(o + 8), length: view.getUint32(o + 12) });
  }
  return tables;
}

/** The OpenType checksum: the sum of big-endian uint32s, the tail zero padded. */
function checksum(bytes: Uint8Array, from: number, length: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let sum = 0;
  const whole = from + (length & ~3);
  for (let o = from; o < whole; o += 4) sum = (sum + view.getUint32(o)) >>> 0;
  if (length & 3) {
    let last = 0;
    for (let k = 0; k < 4; k++) last = (last << 8) | (k < (length & 3) ? bytes[whole + k]! : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/**
 * The font without the named tables: a new table directory, each kept table copied 4-byte aligned,
 * and head.checkSumAdjustment recomputed so the result is a valid font file. Returns the input itself
 * when none of the tables is present or the bytes are not a plain sfnt.
 */
export function withoutTables(bytes: Buffer, drop: readonly string[]): Buffer {
  const all = tableDirectory(bytes);
  if (!all || !all.some((t) => drop.includes(t.tag))) return bytes;
  return withTables(bytes, Object.fromEntries(drop.map((tag) => [tag, null])));
}

/**
 * The font with tables replaced, added (a Buffer) or dropped (null), as withoutTables writes it; the
 * directory stays sorted by tag and changed tables get their checksums. Throws if `bytes` is no sfnt.
 */
export function withTables(bytes: Buffer, changes: Readonly<Record<string, Buffer | null>>): Buffer {
  const all = tableDirectory(bytes);
  if (!all) throw new Error('withTables: not a TrueType/OpenType font');
  const kept: { tag: string; checksum: number | undefined; data: Buffer }[] = [
    ...all
      .filter((t) => !(t.tag in changes) && t.offset + t.length <= bytes.length)
      .map((t) => ({ tag: t.tag, checksum: t.checksum, data: bytes.subarray(t.offset, t.offset + t.length) })),
    ...Object.entries(changes).flatMap(([tag, data]) => (data ? [{ tag, checksum: undefined, data }] : [])),
  ].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  let end = 12 + 16 * kept.length;
  const offsets = kept.map((t) => {
    const o = end;
    end += (t.data.length + 3) & ~3;
    return o;
  });
  const out = Buffer.alloc(end);
  bytes.copy(out, 0, 0, 4);
  const pow = 2 ** Math.floor(Math.log2(Math.max(1, kept.length)));
  out.writeUInt16BE(kept.length, 4);
  out.writeUInt16BE(16 * pow, 6);
  out.writeUInt16BE(Math.log2(pow), 8);
  out.writeUInt16BE(16 * kept.length - 16 * pow, 10);
  let head = -1;
  kept.forEach((t, i) => {
    const o = 12 + 16 * i;
    t.data.copy(out, offsets[i]);
    if (t.tag === 'head' && t.data.length >= 12) {
      head = offsets[i]!;
      out.writeUInt32BE(0, head + 8);
    }
    out.write(t.tag, o, 'latin1');
    // A new or changed table's checksum (head's with checkSumAdjustment 0, as the format says).
    out.writeUInt32BE(t.checksum ?? checksum(out, offsets[i]!, t.data.length), o + 4);
    out.writeUInt32BE(offsets[i]!, o + 8);
    out.writeUInt32BE(t.data.length, o + 12);
  });
  if (head >= 0) out.writeUInt32BE((0xb1b0afba - checksum(out, 0, out.length)) >>> 0, head + 8);
  return out;
}

/** A COLR font without its unused bitmap and SVG colour tables; any other font as it is. */
export function withoutUnusedColourTables(bytes: Buffer): Buffer {
  const tables = tableDirectory(bytes);
  if (!tables?.some((t) => t.tag === 'COLR')) return bytes;
  return withoutTables(bytes, UNUSED_COLOUR_TABLES);
}
