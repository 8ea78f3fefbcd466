// Font programs pdfkit can embed, made by HarfBuzz's subsetter (harfbuzzjs's harfbuzz-subset.wasm,
// compiled on the first need): variable faces become static at their axis location, and CFF2 outlines
// become CFF (HarfBuzz's downgrade), since pdfkit and PDF 1.7 readers know CFF, not CFF2. Only the
// glyphs a document draws are kept, at their own ids, so the ids layout chose stay valid.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as HarfBuzz from 'harfbuzzjs';
import { writeCff, type OutlineCommand } from './cff-write.js';
import { tableDirectory, withTables } from './font-tables.js';

/** The exports of harfbuzz-subset.wasm this module calls (plain C ABI: pointers are numbers). */
interface SubsetExports {
  memory: WebAssembly.Memory;
  _initialize?: () => void;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_length(blob: number): number;
  hb_blob_get_data(blob: number, length: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_input_glyph_set(input: number): number;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_pin_all_axes_to_default(input: number, face: number): number;
  hb_subset_input_pin_axis_location(input: number, face: number, tag: number, value: number): number;
  hb_subset_or_fail(face: number, input: number): number;
}

// hb_subset_flags_t (hb-subset.h).
const RETAIN_GIDS = 0x2;
const NAME_LEGACY = 0x8;
const NOTDEF_OUTLINE = 0x40;
const GLYPH_NAMES = 0x80;
const NO_LAYOUT_CLOSURE = 0x200;
/** HarfBuzz ≥ 13: an instance with every axis pinned gets a CFF table instead of CFF2. */
const DOWNGRADE_CFF2 = 0x4000;
/** hb_subset_sets_t: the tables to leave out. */
const DROP_TABLE_TAG = 3;
/** Shaping and signature tables: pdf places glyphs by id, and a changed font's signature is void. */
const UNUSED_IN_PDF = ['GSUB', 'GPOS', 'GDEF', 'BASE', 'JSTF', 'MATH', 'STAT', 'DSIG', 'morx', 'kerx', 'kern'];

let subsetter: Promise<SubsetExports> | undefined;

function loadSubsetter(): Promise<SubsetExports> {
  subsetter ??= (async () => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('harfbuzzjs/dist/harfbuzz-subset.wasm'));
    const { instance } = await WebAssembly.instantiate(wasm, {});
    const e = instance.exports as unknown as SubsetExports;
    e._initialize?.();
    return e;
  })();
  return subsetter;
}

function tag(s: string): number {
  return ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3)) >>> 0;
}

const hasTable = (sfnt: Buffer, name: string): boolean => tableDirectory(sfnt)?.some((t) => t.tag === name) ?? false;

// Programs by (file hash, location, glyphs): a document, or a run of documents, makes each once.
const cache = new Map<string, Promise<Buffer>>();
const CACHE_ENTRIES = 32;

/**
 * The font program to embed for a face of `sfnt` at the axis location `axes` (others at their
 * defaults) drawing `glyphs`: the file itself for a static TrueType or CFF font; otherwise a static
 * subset with those glyphs at their own ids and CFF outlines where the file has CFF2. (HarfBuzz leaves
 * a CFF2 instance's hmtx at the default instance's advances; pdf takes widths from /W, layout's own.)
 */
export function pdfFontProgram(sfnt: Buffer, axes: Readonly<Record<string, number>> | undefined, glyphs: Iterable<number>): Promise<Buffer> {
  const cff2 = hasTable(sfnt, 'CFF2');
  if (!axes && !cff2) return Promise.resolve(sfnt);
  const ids = [...new Set([0, ...glyphs])].sort((a, b) => a - b);
  const location = Object.entries(axes ?? {}).sort();
  const key = `${createHash('sha256').update(sfnt).digest('hex')}|${JSON.stringify(location)}|${createHash('sha256').update(ids.join(',')).digest('hex')}`;
  let out = cache.get(key);
  if (!out) {
    out = loadSubsetter().then(async (e) => {
      let made = instanceWith(e, sfnt, axes ?? {}, ids);
      // A CFF2 table left as it is (a static CFF2 font has no axes to pin, so HarfBuzz keeps it): CFF
      // written from the outlines HarfBuzz draws, the ones the raster backend fills.
      if (hasTable(made, 'CFF2')) made = await withCffFromOutlines(made, sfnt, axes ?? {}, ids);
      // HarfBuzz keeps the default instance's PostScript name ("…-ExtraLight" at any weight).
      const name = axes && Object.keys(axes).length > 0 ? await instanceName(sfnt, axes) : undefined;
      return name ? withPostScriptName(made, name) : made;
    });
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, out);
    out.catch(() => cache.delete(key));
  }
  return out;
}

function instanceWith(e: SubsetExports, sfnt: Buffer, axes: Readonly<Record<string, number>>, glyphs: readonly number[]): Buffer {
  const data = e.malloc(sfnt.length);
  new Uint8Array(e.memory.buffer).set(sfnt, data);
  const blob = e.hb_blob_create(data, sfnt.length, 2 /* writable: HarfBuzz may keep the memory as is */, 0, 0);
  const face = e.hb_face_create(blob, 0);
  const input = e.hb_subset_input_create_or_fail();
  try {
    if (!input) throw new Error('harfbuzz subset: out of memory');
    e.hb_subset_input_set_flags(input, RETAIN_GIDS | NAME_LEGACY | NOTDEF_OUTLINE | GLYPH_NAMES | NO_LAYOUT_CLOSURE | DOWNGRADE_CFF2);
    const keep = e.hb_subset_input_glyph_set(input);
    for (const id of glyphs) e.hb_set_add(keep, id);
    const drop = e.hb_subset_input_set(input, DROP_TABLE_TAG);
    for (const t of UNUSED_IN_PDF) e.hb_set_add(drop, tag(t));
    e.hb_subset_input_pin_all_axes_to_default(input, face);
    for (const [axis, value] of Object.entries(axes)) {
      if (!e.hb_subset_input_pin_axis_location(input, face, tag(axis), value)) throw new Error(`harfbuzz subset: the font has no ${axis} axis`);
    }
    const result = e.hb_subset_or_fail(face, input);
    if (!result) throw new Error('harfbuzz subset: this font cannot be made static for pdf');
    const out = e.hb_face_reference_blob(result);
    const bytes = Buffer.from(new Uint8Array(e.memory.buffer, e.hb_blob_get_data(out, 0), e.hb_blob_get_length(out)));
    e.hb_blob_destroy(out);
    e.hb_face_destroy(result);
    return bytes;
  } finally {
    if (input) e.hb_subset_input_destroy(input);
    e.hb_face_destroy(face);
    e.hb_blob_destroy(blob);
    e.free(data);
  }
}

/** `instance` with its CFF2 table replaced by CFF drawn from `sfnt` at `axes`: the kept glyphs' outlines, the others empty. */
async function withCffFromOutlines(instance: Buffer, sfnt: Buffer, axes: Readonly<Record<string, number>>, glyphs: readonly number[]): Promise<Buffer> {
  const hb = await import('harfbuzzjs');
  const face = new hb.Face(new hb.Blob(sfnt));
  const font = new hb.Font(face);
  const variations = Object.entries(axes);
  if (variations.length) font.setVariations(variations.map(([t, value]) => new hb.Variation(t, value)));
  // As many charstrings as the instance has glyphs (with retained ids: the highest kept id + 1).
  const maxp = new hb.Face(new hb.Blob(instance)).referenceTable('maxp');
  const count = maxp && maxp.length >= 6 ? (maxp[4]! << 8) | maxp[5]! : 0;
  const draw = outlineRecorder(hb);
  const kept = new Set(glyphs);
  const cffGlyphs = Array.from({ length: count }, (_, id) => {
    if (!kept.has(id)) return { advance: 0, outline: [] };
    const outline: OutlineCommand[] = [];
    font.drawGlyph(id, draw, outline);
    return { advance: font.glyphHAdvance(id), outline };
  });
  let postscriptName = '';
  try {
    postscriptName = face.getName(6, 'en');
  } catch {
    // no PostScript name: writeCff names the font itself
  }
  const { table } = writeCff(postscriptName, face.upem, cffGlyphs);
  return withTables(instance, { CFF2: null, 'CFF ': table });
}

/** DrawFuncs that append OutlineCommands to the array passed as draw data. */
function outlineRecorder(hb: typeof HarfBuzz): HarfBuzz.DrawFuncs {
  const funcs = new hb.DrawFuncs();
  const into = (data: unknown): OutlineCommand[] => data as OutlineCommand[];
  funcs.setMoveToFunc((x, y, data) => into(data).push(['M', x, y]));
  funcs.setLineToFunc((x, y, data) => into(data).push(['L', x, y]));
  funcs.setQuadraticToFunc((x1, y1, x, y, data) => into(data).push(['Q', x1, y1, x, y]));
  funcs.setCubicToFunc((x1, y1, x2, y2, x, y, data) => into(data).push(['C', x1, y1, x2, y2, x, y]));
  funcs.setClosePathFunc((data) => into(data).push(['Z']));
  return funcs;
}

/**
 * An instance's PostScript name as Adobe's TN #5902 makes it: the variations prefix (name id 25, else
 * the family name without what a PostScript name cannot hold), then each axis as _<value><tag>, e.g.
 * SourceSans3Upright_650wght. Undefined when it would be longer than the 63 characters allowed.
 */
async function instanceName(sfnt: Buffer, axes: Readonly<Record<string, number>>): Promise<string | undefined> {
  const hb = await import('harfbuzzjs');
  const face = new hb.Face(new hb.Blob(sfnt));
  const name = (id: number): string => {
    try {
      return face.getName(id, 'en');
    } catch {
      return '';
    }
  };
  const prefix = (name(25) || name(16) || name(1)).replace(/[^A-Za-z0-9]/g, '');
  const values = Object.entries(axes)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([t, v]) => `_${Number(v.toFixed(5))}${t.trim()}`)
    .join('');
  const full = `${prefix}${values}`;
  return prefix && full.length <= 63 ? full : undefined;
}

/** The font with its PostScript name (name id 6) set to `psName` in every record, the name table rewritten as format 0. */
function withPostScriptName(sfnt: Buffer, psName: string): Buffer {
  const dir = tableDirectory(sfnt)?.find((t) => t.tag === 'name');
  if (!dir || dir.length < 6) return sfnt;
  const table = sfnt.subarray(dir.offset, dir.offset + dir.length);
  const count = table.readUInt16BE(2);
  const storage = table.readUInt16BE(4);
  const utf16 = Buffer.from(psName, 'utf16le').swap16();
  const records: { platform: number; encoding: number; language: number; id: number; text: Buffer }[] = [];
  for (let i = 0; i < count && 6 + 12 * (i + 1) <= table.length; i++) {
    const o = 6 + 12 * i;
    const [platform, encoding, language, id, length, offset] = [0, 2, 4, 6, 8, 10].map((k) => table.readUInt16BE(o + k)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    // Format 1's language-tag records go (their tags are not kept); a string past the table is dropped.
    if (language >= 0x8000 || storage + offset + length > table.length) continue;
    const text = id !== 6 ? table.subarray(storage + offset, storage + offset + length) : platform === 1 ? Buffer.from(psName, 'latin1') : utf16;
    records.push({ platform, encoding, language, id, text });
  }
  if (!records.some((r) => r.id === 6)) records.push({ platform: 3, encoding: 1, language: 0x409, id: 6, text: utf16 });
  records.sort((a, b) => a.platform - b.platform || a.encoding - b.encoding || a.language - b.language || a.id - b.id);
  const head = Buffer.alloc(6 + 12 * records.length);
  head.writeUInt16BE(0, 0);
  head.writeUInt16BE(records.length, 2);
  head.writeUInt16BE(head.length, 4);
  let at = 0;
  records.forEach((r, i) => {
    const o = 6 + 12 * i;
    [r.platform, r.encoding, r.language, r.id, r.text.length, at].forEach((v, k) => head.writeUInt16BE(v, o + 2 * k));
    at += r.text.length;
  });
  return withTables(sfnt, { name: Buffer.concat([head, ...records.map((r) => r.text)]) });
}
