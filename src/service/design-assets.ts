// The files a template references (images, clips, audio, mockup bases and masks) by relative path.
// They are stored with the design in blobs, so it renders on any node. Hidden objects count too:
// an override can show them.
import { posix } from 'node:path';
import { childPath } from '../design/json-path.js';
import { parseImageRef } from '../design/image-ref.js';
import { validationError } from '../errors.js';

/** Schema fields that hold a file reference (see src/design/schema*.ts). */
const REF_KEYS = new Set(['path', 'mask', 'base']);

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
