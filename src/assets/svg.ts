// Loads the SVG files a scene draws (svg objects, image clip shapes) through the same resolver as
// images, and parses each into plain drawing data once: a bounded cache keyed by the file's hash.
// Errors point at the field that named the file.
import { createHash } from 'node:crypto';
import { ImprintError, validationError } from '../errors.js';
import { sceneAssets } from '../objects/registry.js';
import { imageRefKey, svgRefKey } from '../scene/keys.js';
import type { Scene, SceneImageRef } from '../scene/scene.js';
import { svgClipProblem } from '../svg/clip.js';
import { parseSvg, SVG_LIMITS, SvgError, type SvgDocument } from '../svg/parse.js';
import { AssetNotFoundError, type AssetResolver } from './resolver.js';

/** Every SVG file the scene draws (svg objects, image clip shapes: as each object lists them), or only the clip shapes. */
export function sceneSvgRefs(scene: Scene, which: 'all' | 'clips' = 'all'): SceneImageRef[] {
  const { svgs, svgClips } = sceneAssets(scene.objects);
  return which === 'all' ? svgs : svgClips;
}

// Parsed drawings by file hash, least recently used first out, bounded by the source size they came from
// (the parsed data is of the same order). Module-wide: parsing is pure, so every engine can share it.
const CACHE_BYTES = 32 * 1024 * 1024;
const parsed = new Map<string, { doc: SvgDocument; bytes: number }>();
let cachedBytes = 0;

function remember(hash: string, doc: SvgDocument, bytes: number): void {
  parsed.set(hash, { doc, bytes });
  cachedBytes += bytes;
  for (const [k, v] of parsed) {
    if (cachedBytes <= CACHE_BYTES) break;
    parsed.delete(k);
    cachedBytes -= v.bytes;
  }
}

/** Parses SVG bytes (cached by content); `at` and `name` are for the error. */
export function parseSvgBytes(bytes: Uint8Array, at: string, name: string): SvgDocument {
  if (bytes.byteLength > SVG_LIMITS.maxBytes) {
    throw validationError(at, `"${name}" is ${(bytes.byteLength / 1048576).toFixed(1)} MB: SVG files may be at most ${SVG_LIMITS.maxBytes / 1048576} MB (simplify the drawing)`);
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  const hit = parsed.get(hash);
  if (hit) {
    parsed.delete(hash);
    parsed.set(hash, hit);
    return hit.doc;
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) throw validationError(at, `"${name}" is compressed (svgz): use the uncompressed .svg file`);
  const raster = rasterKind(bytes);
  if (raster) throw validationError(at, `"${name}" is a ${raster} image, not an SVG drawing: use an .svg file here`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw validationError(at, `"${name}" is not UTF-8 text: save the SVG as UTF-8`);
  }
  let doc: SvgDocument;
  try {
    doc = parseSvg(text);
  } catch (e) {
    if (e instanceof SvgError) throw validationError(at, `"${name}" cannot be drawn: ${e.message}`);
    throw e;
  }
  remember(hash, doc, bytes.byteLength);
  return doc;
}

/** The kind of raster image the bytes begin like, or undefined: a picture given where a drawing belongs. */
function rasterKind(b: Uint8Array): string | undefined {
  const starts = (...sig: number[]): boolean => sig.every((v, i) => b[i] === v);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'PNG';
  if (starts(0xff, 0xd8, 0xff)) return 'JPEG';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'GIF';
  if (starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return 'WebP';
  return undefined;
}

/** Resolves and parses each distinct SVG reference once. Keys are `svgRefKey`s. */
export async function loadSvgs(scene: Scene, resolver: AssetResolver): Promise<Map<string, SvgDocument>> {
  const out = new Map<string, SvgDocument>();
  const clips = new Set(sceneSvgRefs(scene, 'clips'));
  for (const ref of sceneSvgRefs(scene)) {
    const key = svgRefKey(ref);
    if (out.has(key) && !clips.has(ref)) continue;
    const name = imageRefKey(ref);
    let bytes: Uint8Array;
    try {
      bytes = await resolver(ref);
    } catch (e) {
      if (e instanceof ImprintError) throw e;
      if (e instanceof AssetNotFoundError) throw validationError(ref.at, e.message.replace('no image file', 'no SVG file'));
      throw new ImprintError('render_failed', ref.at, `could not read SVG "${name}": ${(e as Error).message}`, { cause: e });
    }
    const doc = parseSvgBytes(bytes, ref.at, name);
    out.set(key, doc);
    // A drawing with <mask>s clips by what it paints (its alpha), which any drawing can.
    if (clips.has(ref) && !doc.masked) {
      const problem = svgClipProblem(doc);
      if (problem) throw validationError(ref.at, `"${name}" cannot clip the picture: ${problem}`);
    }
  }
  return out;
}
