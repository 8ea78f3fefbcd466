// Snapping on the canvas: a dragged selection's edges and centre meet the canvas, other objects and
// guides within a few screen pixels at any zoom, rotated objects by their drawn bounds, with the lines
// to draw; resizing snaps the dragged edges; arrow keys nudge; fit-to-screen and zoom about a point.
import { describe, expect, it } from 'vitest';
import { boxCorners, boxHolds, rotatedBounds, unionBounds } from '../src/lib/geometry.js';
import {
  clampZoom,
  fitView,
  MAX_ZOOM,
  MIN_ZOOM,
  nudge,
  snapMove,
  snapResize,
  toCanvasPoint,
  toViewPoint,
  zoomAround,
  zoomStep,
  type SnapContext,
} from '../src/lib/snapping.js';

const canvas = { width: 1000, height: 800 };
const ctx = (more: Partial<SnapContext> = {}): SnapContext => ({ others: [], canvas, zoom: 1, ...more });
const box = (x: number, y: number, width = 100, height = 50) => ({ box: { x, y, width, height } });

describe('rotated bounds', () => {
  it('are the box itself unturned, and the drawn corners turned', () => {
    expect(rotatedBounds({ x: 10, y: 20, width: 100, height: 50 })).toEqual({ x: 10, y: 20, width: 100, height: 50 });
    const b = rotatedBounds({ x: 0, y: 0, width: 100, height: 50 }, 90);
    expect(b.x).toBeCloseTo(25);
    expect(b.y).toBeCloseTo(-25);
    expect(b.width).toBeCloseTo(50);
    expect(b.height).toBeCloseTo(100);
    const d = rotatedBounds({ x: 0, y: 0, width: 100, height: 100 }, 45);
    expect(d.width).toBeCloseTo(100 * Math.SQRT2);
    expect(boxCorners({ x: 0, y: 0, width: 100, height: 50 })[2]).toEqual([100, 50]);
    expect(boxHolds({ x: 0, y: 0, width: 100, height: 50 }, 90, { x: 50, y: 70 })).toBe(true);
    expect(boxHolds({ x: 0, y: 0, width: 100, height: 50 }, 90, { x: 90, y: 25 })).toBe(false);
    expect(boxHolds({ x: 0, y: 0, width: 100, height: 50 }, 0, { x: 90, y: 25 })).toBe(true);
    expect(unionBounds([])).toBeUndefined();
    expect(unionBounds([d, { x: 500, y: 500, width: 1, height: 1 }])!.width).toBeCloseTo(501 + 50 * Math.SQRT2 - 50);
  });
});

describe('snapping a move', () => {
  it('pulls the centre onto the canvas centre within the threshold, and draws the line across the canvas', () => {
    // Centre at 450 + 47 = 497: 3 px from the canvas centre 500.
    const r = snapMove([box(400, 100)], 47, 0, ctx());
    expect(r.dx).toBe(50);
    expect(r.dy).toBe(0);
    expect(r.lines).toContainEqual({ axis: 'x', at: 500, from: 0, to: 800, kind: 'canvas' });
  });

  it('leaves a move beyond the threshold alone', () => {
    const r = snapMove([box(400, 100)], 40, 3, ctx());
    expect([r.dx, r.dy]).toEqual([40, 3]);
    expect(r.lines).toEqual([]);
  });

  it('measures the threshold in screen pixels: zoomed out, it reaches further on the canvas', () => {
    // 10 template px from the centre: 10 screen px at zoom 1 (beyond 6), 5 at zoom 0.5 (within).
    expect(snapMove([box(400, 100)], 40, 0, ctx()).dx).toBe(40);
    expect(snapMove([box(400, 100)], 40, 0, ctx({ zoom: 0.5 })).dx).toBe(50);
    expect(snapMove([box(400, 100)], 40, 0, ctx({ threshold: 12 })).dx).toBe(50);
  });

  it("meets other objects' edges and centres, the line spanning both", () => {
    const other = box(600, 300, 200, 100);
    // Left edge 598 → 600 (other's left); top 297 → 300 (other's top).
    const r = snapMove([box(500, 200)], 98, 97, ctx({ others: [other] }));
    expect([r.dx, r.dy]).toEqual([100, 100]);
    expect(r.lines).toContainEqual({ axis: 'x', at: 600, from: 300, to: 400, kind: 'object' });
    expect(r.lines).toContainEqual({ axis: 'y', at: 300, from: 600, to: 800, kind: 'object' });
  });

  it('meets guides', () => {
    const r = snapMove([box(100, 100)], 0, 4, ctx({ guides: [{ axis: 'y', at: 255 }] }));
    // Bottom edge 150 + 4 = 154, top 104, middle 129: none within 6 of 255.
    expect(r.dy).toBe(4);
    const near = snapMove([box(100, 100)], 0, 103, ctx({ guides: [{ axis: 'y', at: 255 }] }));
    expect(near.dy).toBe(105);
    expect(near.lines).toContainEqual({ axis: 'y', at: 255, from: 0, to: 1000, kind: 'guide' });
  });

  it('snaps a rotated object by its drawn bounds, and a selection by its frame', () => {
    // 100 × 50 turned 90° at (0, 0) is drawn from x 25 to 75: its left edge meets the canvas's at dx -25.
    const r = snapMove([{ box: { x: 0, y: 100, width: 100, height: 50 }, rotation: 90 }], -23, 0, ctx());
    expect(r.dx).toBeCloseTo(-25);
    const two = snapMove([box(100, 100), box(300, 100)], 0, 0, ctx({ others: [box(398, 500)] }));
    // The frame runs 100-400 across: its right edge 400 is 2 px from the other's left 398.
    expect(two.dx).toBe(-2);
  });

  it('returns the move itself for nothing moving', () => {
    expect(snapMove([], 3, 4, ctx())).toEqual({ dx: 3, dy: 4, lines: [] });
  });
});

describe('snapping a resize', () => {
  it('snaps the edges the handle moves, keeping the opposite ones', () => {
    const r = snapResize({ x: 100, y: 100, width: 397, height: 50 }, 'e', ctx());
    expect(r.box).toEqual({ x: 100, y: 100, width: 400, height: 50 });
    expect(r.lines).toEqual([{ axis: 'x', at: 500, from: 0, to: 800, kind: 'canvas' }]);
    const nw = snapResize({ x: 3, y: 4, width: 97, height: 96 }, 'nw', ctx());
    expect(nw.box).toEqual({ x: 0, y: 0, width: 100, height: 100 });
  });

  it('leaves a rotated box as it is, and never shrinks below the minimum', () => {
    const b = { x: 100, y: 100, width: 397, height: 50 };
    expect(snapResize(b, 'e', ctx(), 30)).toEqual({ box: b, lines: [] });
    expect(snapResize({ x: 2, y: 0, width: 1, height: 10 }, 'e', ctx({ others: [box(0, 300, 1, 1)] }), 0, 1).box.width).toBe(1);
  });
});

describe('nudge and zoom', () => {
  it('nudges 1 px, 10 with shift, only for arrow keys', () => {
    expect(nudge('ArrowLeft', false)).toEqual({ dx: -1, dy: 0 });
    expect(nudge('ArrowDown', true)).toEqual({ dx: 0, dy: 10 });
    expect(nudge('ArrowUp', false)).toEqual({ dx: 0, dy: -1 });
    expect(nudge('ArrowRight', true)).toEqual({ dx: 10, dy: 0 });
    expect(nudge('a', false)).toBeUndefined();
  });

  it('fits the canvas into the viewport with padding, centred, not enlarging unless asked', () => {
    const v = fitView({ width: 1080, height: 1080 }, { width: 800, height: 600 }, { padding: 32 });
    expect(v.zoom).toBeCloseTo(536 / 1080);
    expect(v.x + (1080 * v.zoom) / 2).toBeCloseTo(400);
    expect(v.y).toBeCloseTo(32);
    expect(fitView({ width: 200, height: 100 }, { width: 800, height: 600 }).zoom).toBe(1);
    expect(fitView({ width: 200, height: 100 }, { width: 800, height: 600 }, { enlarge: true, padding: 0 }).zoom).toBe(4);
    expect(fitView({ width: 8192, height: 8192 }, { width: 10, height: 10 }).zoom).toBe(MIN_ZOOM);
  });

  it('zooms about a point, keeping the canvas point under it in place', () => {
    const v = { zoom: 0.5, x: 40, y: 30 };
    const at = { x: 300, y: 200 };
    const under = toCanvasPoint(v, at);
    const z = zoomAround(v, 2, at);
    expect(z.zoom).toBe(2);
    const back = toViewPoint(z, under);
    expect(back.x).toBeCloseTo(300);
    expect(back.y).toBeCloseTo(200);
    expect(zoomAround(v, 100, at).zoom).toBe(MAX_ZOOM);
    expect(clampZoom(NaN)).toBe(1);
  });

  it('steps through the zoom presets', () => {
    expect(zoomStep(1, 1)).toBe(1.5);
    expect(zoomStep(1, -1)).toBe(0.75);
    expect(zoomStep(0.6, 1)).toBe(0.75);
    expect(zoomStep(MAX_ZOOM, 1)).toBe(MAX_ZOOM);
    expect(zoomStep(MIN_ZOOM, -1)).toBe(MIN_ZOOM);
  });
});
