// The README's Studio screenshot (docs/images/studio.png) shows the Studio as it is: taken again here
// the way scripts/studio-screenshot.mjs takes it (card-1080, its headline edited, the photo hovered),
// in Debian's Chromium against the real service, it must match the README's picture but for what
// differs from run to run (the preview's time, the server's port in the request panel, both masked).
// A change to the Studio that shows (a new field, say) fails here until the picture is retaken:
//   npm run build && node scripts/studio-screenshot.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { README_SCREENSHOT, studioScreenshot, VIEWPORT } from '../scripts/studio-screenshot.mjs';
import { decodeRgba, diffImages, diffPanel, DIFF_ROOT, type RawImage } from './support/golden-compare.js';
import { openStudioBrowser, startStudioService, type StudioBrowser, type StudioService } from './support/studio.js';
import { toolsAvailable } from './support/tools.js';

/**
 * A channel may differ this much: the picture is a palette png (quantised), so the same page gives
 * slightly different colours when the varying parts change the palette; a moved or new element
 * differs by far more.
 */
const CHANNEL_TOLERANCE = 40;
/** Share of pixels that may differ beyond that (a few glyph edges); one form field more or less is ~0.3 %. */
const MAX_DIFF_RATIO = 0.0005;

/** Paints the boxes black and opaque, so both pictures hold the same pixels there. */
function masked(img: RawImage, boxes: { x: number; y: number; width: number; height: number }[]): RawImage {
  const data = Buffer.from(img.data);
  for (const b of boxes) {
    const [x0, y0] = [Math.max(0, Math.floor(b.x) - 1), Math.max(0, Math.floor(b.y) - 1)];
    const [x1, y1] = [Math.min(img.width, Math.ceil(b.x + b.width) + 1), Math.min(img.height, Math.ceil(b.y + b.height) + 1)];
    for (let y = y0; y < y1; y++) data.fill(Buffer.from([0, 0, 0, 255]), (y * img.width + x0) * 4, (y * img.width + x1) * 4);
  }
  return { ...img, data };
}

let svc: StudioService;
let ui: StudioBrowser;

describe.skipIf(!toolsAvailable(['chromium'], 'the README screenshot is taken in Chromium'))("the README's Studio screenshot", () => {
  beforeAll(async () => {
    svc = await startStudioService();
    ui = await openStudioBrowser(VIEWPORT);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
    await svc?.close();
  }, 60_000);

  it('is the Studio as it looks now (docs/images/studio.png, retaken by scripts/studio-screenshot.mjs)', async () => {
    const { png, varying } = await studioScreenshot(ui.page, { base: svc.base, apiKey: svc.seed.apiKey, designId: svc.designId('card-1080') });
    expect(varying).toHaveLength(3);
    const readme = masked(await decodeRgba(README_SCREENSHOT), varying);
    const now = masked(await decodeRgba(png), varying);
    const diff = diffImages(readme, now, CHANNEL_TOLERANCE);
    if (diff.ratio > MAX_DIFF_RATIO) {
      const dir = join(DIFF_ROOT, 'readme-screenshot');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'actual.png'), png);
      writeFileSync(join(dir, 'diff.png'), await diffPanel(readme, now, diff));
    }
    expect(
      diff.ratio,
      `${diff.diffPixels} of ${diff.totalPixels} pixels differ from docs/images/studio.png: the Studio changed since the README's picture was taken. ` +
        `Look at ${join(DIFF_ROOT, 'readme-screenshot', 'diff.png')} (README | difference | now); if the change is meant, retake it: ` +
        'npm run build && node scripts/studio-screenshot.mjs',
    ).toBeLessThanOrEqual(MAX_DIFF_RATIO);
    expect(ui.errors).toEqual([]);
  }, 60_000);
});
