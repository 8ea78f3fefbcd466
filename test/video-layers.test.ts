// Static layers of a video (src/render/frames.ts): objects that never change are painted once, those
// under every animated object into the background and those above into an overlay, and the frames
// still show what still renders of the same times show (the overlay covers what moves under it).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DesignInput } from '../src/engine.js';
import { Engine } from '../src/index.js';
import { rasterBackend } from '../src/paint/raster.js';
import type { DisplayItem, DisplayList } from '../src/scene/display-list.js';
import { frameAt as frameOf } from './support/video-frames.js';

const engine = new Engine({ threads: 0 }); // on this thread, where the painter can be watched
const tmp = mkdtempSync(join(tmpdir(), 'imprint-video-layers-'));
afterEach(() => vi.restoreAllMocks());

const design = {
  width: 320,
  height: 180,
  duration: 1,
  background: { type: 'color', color: '#102030' },
  objects: [
    { type: 'shape', name: 'floor', x: 0, y: 150, width: 320, height: 30, background: { type: 'color', color: '#335577' } },
    {
      type: 'shape',
      name: 'dot',
      x: 20,
      y: 60,
      width: 60,
      height: 60,
      shape: 'ellipse',
      background: { type: 'color', color: '#e4572e' },
      animations: [
        {
          type: 'keyframes',
          property: 'x',
          keyframes: [
            { time: 0, value: 0 },
            { time: 1, value: 260 },
          ],
          easing: 'linear',
        },
      ],
    },
    { type: 'shape', name: 'card', x: 110, y: 40, width: 100, height: 100, background: { type: 'color', color: '#f6f1ea' } },
    {
      type: 'text',
      name: 'label',
      x: 110,
      y: 70,
      width: 100,
      height: 40,
      text: 'ON TOP',
      font_size: 20,
      font_weight: 700,
      color: '#10131c',
      text_align: 'center',
    },
  ],
} satisfies DesignInput;

/** Texts painted by one paint call. */
function texts(list: DisplayList): string[] {
  const out: string[] = [];
  const walk = (items: readonly DisplayItem[]) => {
    for (const it of items) {
      if (it.kind === 'glyphs') out.push(it.text);
      if (it.kind === 'group') walk(it.items);
    }
  };
  walk(list.items);
  return out;
}

const frameAt = (bytes: Buffer, time: number): Buffer => frameOf(bytes, join(tmp, `layers-${time}.mp4`), time);

/** Mean absolute difference per channel (0-255) over a region of two images of one size. */
async function meanDiff(a: Buffer, b: Buffer, region: { left: number; top: number; width: number; height: number }): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((i) => sharp(i).removeAlpha().extract(region).raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x!.length; i++) sum += Math.abs(x![i]! - y![i]!);
  return sum / x!.length;
}

describe('video static layers', () => {
  it('paints the objects above the moving one once, and every frame still shows them on top', async () => {
    const paint = vi.spyOn(rasterBackend, 'paint');
    const { bytes, frames } = await engine.render({ design, format: 'mp4' });
    expect(frames).toBe(30);
    // One paint for the background (with the floor), one for the overlay (card and label), then the frames.
    const withLabel = paint.mock.calls.filter(([list]) => texts(list).includes('ON TOP'));
    expect(withLabel).toHaveLength(1);
    expect(paint.mock.calls.length).toBeGreaterThanOrEqual(2 + 29);
    paint.mockRestore();

    // At 0.5 s the dot is under the card: the frame shows the card and label, as the still does.
    const card = { left: 110, top: 40, width: 100, height: 100 };
    const still = (await engine.render({ design, format: 'png', time: 0.5 })).bytes;
    const frame = frameAt(bytes, 0.5);
    expect(await meanDiff(frame, still, card)).toBeLessThan(3);
    expect(await meanDiff(frame, still, { left: 0, top: 0, width: 320, height: 180 })).toBeLessThan(3);
    // Where the dot is at 0.9 s (x ≈ 234-294), the frame shows it like the still of 0.9 s, and unlike
    // the still of 0.8 s (the dot 26 px to the left): a moving red edge costs H.264 a few levels.
    const dotArea = { left: 214, top: 50, width: 100, height: 80 };
    const frameLate = frameAt(bytes, 0.9);
    const at = async (time: number) => meanDiff(frameLate, (await engine.render({ design, format: 'png', time })).bytes, dotArea);
    expect(await at(0.9)).toBeLessThan(3.5);
    expect(await at(0.8)).toBeGreaterThan(12);
  });

  it('gives the fit report of every object, in design order', async () => {
    const { report } = await engine.render({ design, format: 'mp4' });
    expect(report.map((r) => r.name)).toEqual(['label']);
    const twoTexts: DesignInput = { ...design, objects: [{ ...design.objects[3]!, name: 'under', y: 10 }, ...design.objects] };
    expect((await engine.render({ design: twoTexts, format: 'mp4' })).report.map((r) => r.name)).toEqual(['under', 'label']);
  });
});
