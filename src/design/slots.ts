// Where a design's objects live: at the top level, or inside slides. Parse, resolve and the
// override lookup walk this one list, so a name means the same objects across the whole design.
import { jsonPath } from '../format/json-path.js';
import type { Design } from './schema.js';
import type { DesignObject } from '../objects/registry.js';

export interface Slot {
  /** Index of the slide, or null for a top-level object. */
  slide: number | null;
  index: number;
  object: DesignObject;
  /** JSON path of the object within the design (rooted at `root`). */
  at: string;
}

export function slotsOf(design: Design, root = '$'): Slot[] {
  const top = (design.objects ?? []).map((object, index): Slot => ({ slide: null, index, object, at: jsonPath(['objects', index], root) }));
  const slides = (design.slides ?? []).flatMap((s, si) =>
    s.objects.map((object, index): Slot => ({ slide: si, index, object, at: jsonPath(['slides', si, 'objects', index], root) })),
  );
  return [...top, ...slides];
}
