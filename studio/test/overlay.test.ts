// The canvas overlay's outlines and name tags: an outline never reaches past the canvas (the mockup's
// 4:3 photo box on a square card is wider than the card), a tag sits outside the outline it names
// (below when there is no room above), and the stage's margin shrinks on a small screen.
import { describe, expect, it } from 'vitest';
import { stageMargin, TAG_HEIGHT, tagPlacement, visibleBox } from '../src/lib/overlay.js';

describe('canvas overlay', () => {
  it('cuts an outline to the canvas and says which sides were cut', () => {
    // mockup-phone: a 1440 × 1080 box at x = -207 on a 1080 × 1080 canvas, shown at 0.5.
    const v = visibleBox({ x: -207, y: 0, width: 1440, height: 1080 }, 0.5, 540, 540);
    expect([v.x, v.y, v.width, v.height]).toEqual([0, 0, 540, 540]);
    expect(v.clipped).toEqual({ left: true, top: false, right: true, bottom: false });
    // A box inside the canvas is only scaled.
    const inside = visibleBox({ x: 72, y: 732, width: 740, height: 150 }, 0.5, 540, 540);
    expect([inside.x, inside.y, inside.width, inside.height]).toEqual([36, 366, 370, 75]);
    expect(Object.values(inside.clipped).some(Boolean)).toBe(false);
  });

  it('keeps a box wholly outside the canvas as an empty outline at the nearest edge', () => {
    const v = visibleBox({ x: 2000, y: -500, width: 100, height: 100 }, 1, 1080, 1080);
    expect([v.x, v.y, v.width, v.height]).toEqual([1080, 0, 0, 0]);
  });

  it('puts a tag above its object, below one at the top edge, and above one as tall as the canvas', () => {
    expect(tagPlacement({ x: 36, y: 366, width: 370, height: 75 }, 540, 540).side).toBe('above');
    // card-1080's photo starts at the top: its tag goes under it, not off the canvas.
    expect(tagPlacement({ x: 0, y: 0, width: 540, height: 320 }, 540, 540).side).toBe('below');
    expect(tagPlacement({ x: 0, y: TAG_HEIGHT - 1, width: 540, height: 100 }, 540, 540).side).toBe('below');
    expect(tagPlacement({ x: 0, y: TAG_HEIGHT, width: 540, height: 100 }, 540, 540).side).toBe('above');
    // No room on either side: above, in the stage's margin (which is at least a tag high).
    expect(tagPlacement({ x: 0, y: 0, width: 540, height: 540 }, 540, 540).side).toBe('above');
  });

  it('ends the tag at the right edge of an object that starts in the right half', () => {
    expect(tagPlacement({ x: 400, y: 200, width: 60, height: 60 }, 540, 540).align).toBe('end');
    expect(tagPlacement({ x: 100, y: 200, width: 400, height: 60 }, 540, 540).align).toBe('start');
  });

  it('leaves a margin round the canvas for handles and a tag, smaller on a small stage', () => {
    expect(stageMargin(790, 820)).toBe(32);
    expect(stageMargin(552, 618)).toBeGreaterThanOrEqual(TAG_HEIGHT);
    expect(stageMargin(552, 618)).toBeLessThan(32);
  });
});
