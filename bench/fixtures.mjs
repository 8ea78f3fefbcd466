// What the benchmarks share: a 16×16 png whose render costs next to nothing (so what is measured is
// the queue, the worker and HTTP around it), the examples, and the card scaled to other sizes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileAssetResolver } from '../dist/index.js';

const ROOT = join(import.meta.dirname, '..');

export const TINY_DESIGN = {
  schema: 'imprint/design@1',
  width: 16,
  height: 16,
  background: { type: 'color', color: '#ffffff' },
  objects: [{ type: 'shape', name: 'dot', x: 4, y: 4, width: 8, height: 8, shape: 'ellipse', background: { type: 'color', color: '#e53935' } }],
};

// Lengths in px that scale with the canvas; everything else (colours, em-relative letter spacing,
// line-height factors, strategies) stays.
const LENGTHS = new Set(['x', 'y', 'width', 'height', 'font_size', 'min_font_size', 'max_font_size', 'corner_radius']);

/** A design or overrides document with every length multiplied by `k`: the same card at another size. */
export function scaled(doc, k) {
  if (Array.isArray(doc)) return doc.map((d) => scaled(d, k));
  if (doc === null || typeof doc !== 'object') return doc;
  return Object.fromEntries(Object.entries(doc).map(([key, v]) => [key, typeof v === 'number' && LENGTHS.has(key) ? v * k : scaled(v, k)]));
}

/** An example of examples/: its design, its overrides and a resolver for its folder's files. */
export function example(name) {
  const dir = join(ROOT, 'examples', name);
  const file = JSON.parse(readFileSync(join(dir, 'overrides.json'), 'utf8'));
  return {
    design: JSON.parse(readFileSync(join(dir, 'design.json'), 'utf8')),
    overrides: file.objects_overrides ?? file.overrides,
    assets: fileAssetResolver({ baseDir: dir }),
  };
}
