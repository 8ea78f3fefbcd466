// Designs the service benchmarks share: a 16×16 png whose render costs next to nothing, so what
// is measured is the queue, the worker and HTTP around it.
export const TINY_DESIGN = {
  schema: 'imprint/design@1',
  width: 16,
  height: 16,
  background: { type: 'color', color: '#ffffff' },
  objects: [{ type: 'shape', name: 'dot', x: 4, y: 4, width: 8, height: 8, shape: 'ellipse', background: { type: 'color', color: '#e53935' } }],
};
