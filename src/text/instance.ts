// Static instances of variable fonts for pdf embedding (pdfkit cannot embed a variation): HarfBuzz's
// subsetter (harfbuzzjs's harfbuzz-subset.wasm), compiled on the first need, pins the axes and keeps
// every glyph id, so the glyph ids layout chose stay valid. Instances are cached per file and location.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

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
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_keep_everything(input: number): void;
  hb_subset_input_pin_all_axes_to_default(input: number, face: number): number;
  hb_subset_input_pin_axis_location(input: number, face: number, tag: number, value: number): number;
  hb_subset_or_fail(face: number, input: number): number;
}

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

// Instances by (file hash, location): a document, or a run of documents, embeds each once.
const cache = new Map<string, Promise<Buffer>>();
const CACHE_ENTRIES = 32;

/**
 * A static TTF of `sfnt` at the axis location `axes` (others at their defaults), with the same glyph
 * ids. Throws if HarfBuzz cannot instance the file (CFF2 variable fonts, for one).
 */
export function staticInstance(sfnt: Buffer, axes: Readonly<Record<string, number>>): Promise<Buffer> {
  const key = `${createHash('sha256').update(sfnt).digest('hex')}|${JSON.stringify(Object.entries(axes).sort())}`;
  let out = cache.get(key);
  if (!out) {
    out = loadSubsetter().then((e) => instanceWith(e, sfnt, axes));
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, out);
    out.catch(() => cache.delete(key));
  }
  return out;
}

function instanceWith(e: SubsetExports, sfnt: Buffer, axes: Readonly<Record<string, number>>): Buffer {
  const data = e.malloc(sfnt.length);
  new Uint8Array(e.memory.buffer).set(sfnt, data);
  const blob = e.hb_blob_create(data, sfnt.length, 2 /* writable: HarfBuzz may keep the memory as is */, 0, 0);
  const face = e.hb_face_create(blob, 0);
  const input = e.hb_subset_input_create_or_fail();
  try {
    if (!input) throw new Error('harfbuzz subset: out of memory');
    e.hb_subset_input_keep_everything(input);
    e.hb_subset_input_pin_all_axes_to_default(input, face);
    for (const [axis, value] of Object.entries(axes)) {
      if (!e.hb_subset_input_pin_axis_location(input, face, tag(axis), value)) throw new Error(`harfbuzz subset: the font has no ${axis} axis`);
    }
    const result = e.hb_subset_or_fail(face, input);
    if (!result) throw new Error('harfbuzz subset: this variable font cannot be instanced for pdf (CFF2 outlines?)');
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
