// The files a template references (images, clips, audio, mockup bases and masks) by relative path.
// They are stored with the design in blobs, so it renders on any node. Hidden objects count too:
// an override can show them.
import { posix } from 'node:path';
import { imageBytesProblem, imageHeader, imagePixelsProblem } from '../assets/load.js';
import { childPath } from '../format/json-path.js';
import { parseImageRef } from '../format/image-ref.js';
import { validationError } from '../errors.js';
import { FontFileError, readFontFile } from '../text/font-file.js';

/** Schema fields that hold a file reference (see src/design/schema*.ts). */
const REF_KEYS = new Set(['path', 'mask', 'base', 'clip_svg', 'fill_image']);

export interface AssetRef {
  /** Normalised relative path: the key of the design's asset manifest. */
  path: string;
  /** JSON path in the template, for errors. */
  at: string;
}

export function normaliseAssetPath(path: string): string {
  return posix.normalize(path.replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
}

export function designAssetRefs(template: unknown): AssetRef[] {
  const refs = new Map<string, AssetRef>();
  const walk = (v: unknown, at: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, childPath(at, i)));
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const here = childPath(at, k);
        if (REF_KEYS.has(k) && typeof x === 'string') {
          const ref = parseImageRef(x, here);
          if (ref.kind === 'asset') {
            throw validationError(here, `a stored design cannot use "asset:${ref.name}": put the file beside the design and reference it by relative path`);
          }
          const path = normaliseAssetPath(ref.path);
          if (!refs.has(path)) refs.set(path, { path, at: here });
        } else walk(x, here);
      }
    }
  };
  walk(template, '$');
  return [...refs.values()];
}

/**
 * A file of the design that is an image must be one that renders accept: over the image limits it
 * is refused at import, with its JSON path and the render's own words, instead of by every render.
 * A file whose header sharp cannot read is no image (a clip, a soundtrack) and is left to the render.
 */
export async function checkAssetImage(ref: AssetRef, bytes: Uint8Array): Promise<void> {
  if (FONT_PATH.test(ref.at)) return checkAssetFont(ref, bytes);
  const header = await imageHeader(bytes).catch(() => undefined);
  if (!header) return;
  const subject = `"${ref.path}"`;
  const problem = imageBytesProblem(subject, bytes.byteLength) ?? imagePixelsProblem(subject, header.width, header.height);
  if (problem) throw validationError(ref.at, problem);
}

/** `fonts` entries' paths: their files are fonts, checked as renders will read them. */
const FONT_PATH = /^\$\.fonts\[\d+\]\.path$/;

/** A corrupt, unsupported or oversized font file is refused at import with its JSON path; nothing is stored. */
async function checkAssetFont(ref: AssetRef, bytes: Uint8Array): Promise<void> {
  try {
    await readFontFile(bytes);
  } catch (e) {
    if (e instanceof FontFileError) throw validationError(ref.at, `"${ref.path}": ${e.message}`);
    throw e;
  }
}
