// Canvas maths: screen pixels to template pixels at the preview's scale, moving, and resizing by each
// of the 8 handles with the opposite edge or corner held in place — also for a rotated object, whose
// rotation is around the box centre as the service draws it.
import { describe, expect, it } from 'vitest';
import { changedFields, fitScale, HANDLES, moveBox, renderScale, resizeBox, toScreen, toTemplate, type Box, type Handle } from '../src/lib/geometry.js';

const BOX: Box = { x: 100, y: 200, width: 400, height: 300 };

/** A corner or edge midpoint of the box on the canvas (rotation about the centre), in template px. */
function point(b: Box, fx: number, fy: number, rotation: number): [number, number] {
  const t = (rotation * Math.PI) / 180;
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  const lx = (fx - 0.5) * b.width;
  const ly = (fy - 0.5) * b.height;
  return [cx + lx * Math.cos(t) - ly * Math.sin(t), cy + lx * Math.sin(t) + ly * Math.cos(t)];
}

/** The point a handle's opposite stays at, as fractions of the box. */
function opposite(h: Handle): [number, number] {
  const fx = h.includes('e') ? 0 : h.includes('w') ? 1 : 0.5;
  const fy = h.includes('s') ? 0 : h.startsWith('n') ? 1 : 0.5;
  return [fx, fy];
}

describe('canvas geometry', () => {
  it('fits a design into the stage, never above 1:1', () => {
    expect(fitScale(1080, 1080, 540, 800)).toBe(0.5);
    expect(fitScale(1920, 1080, 2000, 2000)).toBe(1);
    expect(fitScale(1080, 1920, 1000, 480)).toBe(0.25);
    expect(fitScale(1080, 1080, 0, 0)).toBe(1);
  });

  it('asks the preview for the displayed size times the pixel ratio, capped at 1', () => {
    expect(renderScale(0.5, 1)).toBe(0.5);
    expect(renderScale(0.5, 2)).toBe(1);
    expect(renderScale(0.41, 1)).toBe(0.45);
    expect(renderScale(0.001, 1)).toBe(0.05);
  });

  it('converts between screen and template pixels', () => {
    expect(toTemplate(50, 0.5)).toBe(100);
    expect(toScreen(100, 0.5)).toBe(50);
  });

  it('moves by the drag divided by the scale, rounded to whole template pixels', () => {
    expect(moveBox(BOX, 30, -20.2, 0.5)).toEqual({ x: 160, y: 160, width: 400, height: 300 });
    expect(changedFields(BOX, moveBox(BOX, 30, 0, 0.5))).toEqual({ x: 160 });
  });

  it('resizes by each handle of an unrotated box, the opposite side fixed', () => {
    const at = (h: Handle) => resizeBox(BOX, h, 20, 10, 0.5);
    expect(at('e')).toEqual({ x: 100, y: 200, width: 440, height: 300 });
    expect(at('w')).toEqual({ x: 140, y: 200, width: 360, height: 300 });
    expect(at('s')).toEqual({ x: 100, y: 200, width: 400, height: 320 });
    expect(at('n')).toEqual({ x: 100, y: 220, width: 400, height: 280 });
    expect(at('se')).toEqual({ x: 100, y: 200, width: 440, height: 320 });
    expect(at('nw')).toEqual({ x: 140, y: 220, width: 360, height: 280 });
    expect(at('ne')).toEqual({ x: 100, y: 220, width: 440, height: 280 });
    expect(at('sw')).toEqual({ x: 140, y: 200, width: 360, height: 320 });
  });

  it('keeps at least the minimum size when dragged past the opposite side', () => {
    const b = resizeBox(BOX, 'e', -5000, 0, 1);
    expect(b.width).toBe(1);
    expect(b.x).toBe(100);
    const n = resizeBox(BOX, 'n', 0, 5000, 1);
    expect(n).toEqual({ x: 100, y: 499, width: 400, height: 1 });
  });

  it('holds the opposite corner of a rotated box in place on the canvas for every handle', () => {
    for (const rotation of [30, -90, 135]) {
      for (const h of HANDLES) {
        const after = resizeBox(BOX, h, 37, -23, 0.5, rotation);
        const [fx, fy] = opposite(h);
        const [bx, by] = point(BOX, fx, fy, rotation);
        const [ax, ay] = point(after, fx, fy, rotation);
        // Whole-pixel rounding of x, y, width and height moves it by at most a pixel or so.
        expect(Math.hypot(ax - bx, ay - by), `${h} at ${rotation}°`).toBeLessThan(1.5);
      }
    }
  });

  it('grows a rotated box along its own axes: dragging e along the rotated x axis adds that length', () => {
    const d = 100 * 0.5; // 100 template px at scale 0.5
    const t = (90 * Math.PI) / 180;
    const after = resizeBox(BOX, 'e', d * Math.cos(t), d * Math.sin(t), 0.5, 90);
    expect(after.width).toBe(500);
    expect(after.height).toBe(300);
  });
});
