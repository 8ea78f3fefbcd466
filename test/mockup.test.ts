// Mockups as data: base image, layer areas scaled into the box, cover/contain in rectangles and
// quads, colour layers and masks, and the mockup_data overrides.
import { describe, expect, it } from 'vitest';
import type { DisplayItem } from '../src/scene/display-list.js';
import { applyHomography, rectToQuad } from '../src/layout/homography.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';

const QUAD = [
  [200, 100],
  [700, 150],
  [680, 900],
  [220, 860],
];
const mockup = (layers: unknown[]) =>
  designWith([{ type: 'mockup', name: 'phone', x: 0, y: 0, width: 500, height: 500, base: 'base.png', layers }], { width: 500, height: 500 });
const sizes = new Map([
  ['base.png', { width: 1000, height: 1000 }],
  ['shot.png', { width: 1170, height: 2532 }],
  ['wide.png', { width: 1600, height: 900 }],
  ['mask.png', { width: 1000, height: 1000 }],
]);
const layerItems = (design: unknown, overrides: unknown = {}): DisplayItem[] => {
  const group = objectGroup(layoutOf(design, overrides, sizes).displayList, 0);
  return group.items.slice(1).flatMap((g) => (g.kind === 'group' ? g.items : []));
};

describe('mockup layout', () => {
  it('draws the base over the whole box and scales layer areas from base pixels', () => {
    const design = mockup([{ id: 'screen', kind: 'image', area: { x: 100, y: 200, width: 400, height: 400 }, path: 'wide.png', fit: 'fill' }]);
    const group = objectGroup(layoutOf(design, {}, sizes).displayList, 0);
    expect(group.items[0]).toMatchObject({ kind: 'image', image: 'base.png', dst: { x: 0, y: 0, width: 500, height: 500 } });
    expect(layerItems(design)[0]).toMatchObject({ kind: 'image', image: 'wide.png', dst: { x: 50, y: 100, width: 200, height: 200 } });
    expect(group.clip).toMatchObject({ kind: 'rect' });
  });

  it('warps a cover-cropped picture into a quad: the whole quad, the centre of a portrait source', () => {
    const [item] = layerItems(mockup([{ id: 'screen', kind: 'image', quad: QUAD, path: 'wide.png' }]));
    if (item?.kind !== 'image_quad') throw new Error('expected image_quad');
    item.quad.forEach(([x, y], i) => {
      expect(x).toBeCloseTo(QUAD[i]![0]! / 2, 6);
      expect(y).toBeCloseTo(QUAD[i]![1]! / 2, 6);
    });
    // The quad stands for a rectangle taller than wide, so a landscape source loses its sides.
    expect(item.src.y).toBe(0);
    expect(item.src.x).toBeGreaterThan(0);
    expect(item.src.x * 2 + item.src.width).toBeCloseTo(1600, 6);
  });

  it('contain keeps the whole picture inside the quad, centred along the perspective', () => {
    const [item] = layerItems(mockup([{ id: 'screen', kind: 'image', quad: QUAD, path: 'wide.png', fit: 'contain' }]));
    if (item?.kind !== 'image_quad') throw new Error('expected image_quad');
    expect(item.src).toEqual({ x: 0, y: 0, width: 1600, height: 900 });
    const scaled = QUAD.map(([x, y]) => [x! / 2, y! / 2] as const) as never;
    const w = (Math.hypot(250, 25) + Math.hypot(230, 20)) / 2;
    const h = (Math.hypot(10, 380) + Math.hypot(10, 375)) / 2;
    const toQuad = rectToQuad(w, h, scaled);
    const inner = item.quad;
    // Left and right edges of the picture are those of the quad; top and bottom lie inside it.
    expect(inner[0][0]).toBeCloseTo(applyHomography(toQuad, 0, (h - (w * 9) / 16) / 2)[0], 6);
    expect(inner[0][1]).toBeGreaterThan(50);
    expect(inner[3][1]).toBeLessThan(430);
  });

  it('colour layers fill their area, or colour their mask', () => {
    const plain = layerItems(mockup([{ id: 'bg', kind: 'color', quad: QUAD, color: '#ff0000' }]));
    expect(plain[0]).toMatchObject({ kind: 'fill', color: [255, 0, 0, 1], geometry: { kind: 'polygon' } });
    const masked = layerItems(mockup([{ id: 'bg', kind: 'color', area: { x: 0, y: 0, width: 1000, height: 1000 }, color: '#00ff00', mask: 'mask.png' }]));
    expect(masked[0]).toMatchObject({ kind: 'image', image: 'mask.png', tint: [0, 255, 0, 1], dst: { width: 500, height: 500 } });
  });

  it('mockup_data replaces a layer picture or colour, hides or shows layers', () => {
    const design = mockup([
      { id: 'screen', kind: 'image', quad: QUAD, path: 'wide.png' },
      { id: 'bg', kind: 'color', area: { x: 0, y: 0, width: 10, height: 10 }, color: '#ff0000' },
      { id: 'glare', kind: 'artwork', area: { x: 0, y: 0, width: 10, height: 10 }, path: 'mask.png', hidden: true },
    ]);
    const items = layerItems(design, { phone: { mockup_data: { screen: { image_url: 'shot.png' }, bg: { color: '#0000ff' }, glare: { hidden: false } } } });
    expect(items.map((i) => (i.kind === 'image_quad' || i.kind === 'image' ? i.image : i.kind === 'fill' ? i.color : i.kind))).toEqual([
      'shot.png',
      [0, 0, 255, 1],
      'mask.png',
    ]);
    expect(layerItems(design, { phone: { mockup_data: { screen: { hidden: true }, bg: { hidden: true } } } })).toHaveLength(0);
  });

  it('layer opacity and blend become the layer group', () => {
    const design = mockup([{ id: 'glare', kind: 'artwork', area: { x: 0, y: 0, width: 1000, height: 1000 }, path: 'mask.png', blend: 'screen', opacity: 0.5 }]);
    expect(objectGroup(layoutOf(design, {}, sizes).displayList, 0).items[1]).toMatchObject({ kind: 'group', opacity: 0.5, blend: 'screen' });
  });
});
