// Golden-image comparison for the render tests.
//
// A pixel differs when any RGBA channel differs by more than CHANNEL_TOLERANCE (of 255); pixels that
// are fully transparent in both images count as equal whatever their colour channels hold. A case
// fails when more than DEFAULT_MAX_DIFF_RATIO of its pixels differ; a case folder may raise that with
// a tolerance.json {"maxDiffRatio": n, "reason": "why"} (the reason is required).
//
// On failure a three-panel picture (expected | diff: differing pixels red over a faded expected |
// actual) and the actual render are written to test-output/golden-diff/<area>/<case>.png and
// <case>.actual.png, and the error message names both.
//
// UPDATE_GOLDEN=1 writes (or overwrites) expected.png instead of comparing.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

export const CHANNEL_TOLERANCE = 2;
export const DEFAULT_MAX_DIFF_RATIO = 0.0001; // 0.01 % of the pixels

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIFF_ROOT = join(REPO_ROOT, 'test-output', 'golden-diff');

export function updatingGolden(): boolean {
  return process.env.UPDATE_GOLDEN === '1';
}

export interface GoldenCase {
  /** "text", "image", … */
  area: string;
  /** Folder name of the case inside its area. */
  name: string;
  /** The case folder; holds expected.png and an optional tolerance.json. */
  dir: string;
}

export interface Tolerance {
  maxDiffRatio: number;
  reason: string | null;
}

export interface RawImage {
  width: number;
  height: number;
  /** Straight (not premultiplied) RGBA. */
  data: Buffer;
}

export interface DiffResult {
  width: number;
  height: number;
  diffPixels: number;
  totalPixels: number;
  ratio: number;
  /** One byte per pixel of the larger extent: 1 where the pixel differs. */
  mask: Uint8Array;
}

export async function decodeRgba(png: Buffer | string): Promise<RawImage> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

export function readTolerance(dir: string): Tolerance {
  const file = join(dir, 'tolerance.json');
  if (!existsSync(file)) return { maxDiffRatio: DEFAULT_MAX_DIFF_RATIO, reason: null };
  const t = JSON.parse(readFileSync(file, 'utf8')) as { maxDiffRatio?: unknown; reason?: unknown };
  if (typeof t.maxDiffRatio !== 'number' || !(t.maxDiffRatio >= 0 && t.maxDiffRatio <= 1)) {
    throw new Error(`${file}: maxDiffRatio must be a number between 0 and 1`);
  }
  if (typeof t.reason !== 'string' || t.reason.trim() === '') {
    throw new Error(`${file}: a tolerance needs a "reason" saying why this case may differ more than usual`);
  }
  return { maxDiffRatio: t.maxDiffRatio, reason: t.reason };
}

/** Pixel diff over the union of both extents; pixels outside either image always differ. */
export function diffImages(expected: RawImage, actual: RawImage, channelTolerance = CHANNEL_TOLERANCE): DiffResult {
  const width = Math.max(expected.width, actual.width);
  const height = Math.max(expected.height, actual.height);
  const mask = new Uint8Array(width * height);
  let diffPixels = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let differs: boolean;
      if (x >= expected.width || y >= expected.height || x >= actual.width || y >= actual.height) {
        differs = true;
      } else {
        const e = (y * expected.width + x) * 4;
        const a = (y * actual.width + x) * 4;
        const ea = expected.data[e + 3]!;
        const aa = actual.data[a + 3]!;
        if (ea === 0 && aa === 0) differs = false;
        else {
          differs = false;
          for (let c = 0; c < 4; c++) {
            if (Math.abs(expected.data[e + c]! - actual.data[a + c]!) > channelTolerance) {
              differs = true;
              break;
            }
          }
        }
      }
      if (differs) {
        mask[y * width + x] = 1;
        diffPixels++;
      }
    }
  }
  const totalPixels = width * height;
  return { width, height, diffPixels, totalPixels, ratio: diffPixels / totalPixels, mask };
}

const GUTTER = 8;

/** Straight RGBA over a light checkerboard, so transparent areas stay visible in the panels. */
function overChecker(img: RawImage, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const bg = ((x >> 3) + (y >> 3)) % 2 === 0 ? 255 : 220;
      let r: number;
      let g: number;
      let b: number;
      if (x < img.width && y < img.height) {
        const i = (y * img.width + x) * 4;
        const a = img.data[i + 3]! / 255;
        r = img.data[i]! * a + bg * (1 - a);
        g = img.data[i + 1]! * a + bg * (1 - a);
        b = img.data[i + 2]! * a + bg * (1 - a);
      } else {
        // Outside the image: magenta hatching marks missing pixels.
        const hatch = (x + y) % 8 < 4;
        r = hatch ? 255 : bg;
        g = hatch ? 0 : bg;
        b = hatch ? 255 : bg;
      }
      out[o] = Math.round(r);
      out[o + 1] = Math.round(g);
      out[o + 2] = Math.round(b);
      out[o + 3] = 255;
    }
  }
  return out;
}

/** expected | diff (red over a faded grey expected) | actual, side by side on a grey gutter. */
export async function diffPanel(expected: RawImage, actual: RawImage, diff: DiffResult): Promise<Buffer> {
  const { width, height, mask } = diff;
  const left = overChecker(expected, width, height);
  const right = overChecker(actual, width, height);
  const middle = Buffer.alloc(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const o = p * 4;
    if (mask[p]) {
      middle[o] = 255;
      middle[o + 1] = 0;
      middle[o + 2] = 0;
    } else {
      const lum = 0.299 * left[o]! + 0.587 * left[o + 1]! + 0.114 * left[o + 2]!;
      const faded = Math.round(255 - (255 - lum) * 0.25);
      middle[o] = faded;
      middle[o + 1] = faded;
      middle[o + 2] = faded;
    }
    middle[o + 3] = 255;
  }
  const raw = { width, height, channels: 4 as const };
  return sharp({ create: { width: width * 3 + GUTTER * 4, height: height + GUTTER * 2, channels: 4, background: '#606060' } })
    .composite([
      { input: left, raw, left: GUTTER, top: GUTTER },
      { input: middle, raw, left: width + GUTTER * 2, top: GUTTER },
      { input: right, raw, left: width * 2 + GUTTER * 3, top: GUTTER },
    ])
    .png()
    .toBuffer();
}

function diffFiles(c: GoldenCase): { panel: string; actual: string } {
  const dir = join(DIFF_ROOT, c.area);
  return { panel: join(dir, `${c.name}.png`), actual: join(dir, `${c.name}.actual.png`) };
}

const rel = (p: string): string => relative(REPO_ROOT, p);

/**
 * Compares a rendered png with the case's expected.png (or writes it under UPDATE_GOLDEN=1).
 * Throws an Error describing the failure; returns a short note on success.
 */
export async function assertGolden(actualPng: Buffer, c: GoldenCase): Promise<string> {
  const expectedFile = join(c.dir, 'expected.png');
  const files = diffFiles(c);

  if (updatingGolden()) {
    mkdirSync(c.dir, { recursive: true });
    writeFileSync(expectedFile, actualPng);
    rmSync(files.panel, { force: true });
    rmSync(files.actual, { force: true });
    return `wrote ${rel(expectedFile)}`;
  }

  if (!existsSync(expectedFile)) {
    throw new Error(
      `${c.area}/${c.name}: no ${rel(expectedFile)} yet. Render it with UPDATE_GOLDEN=1 npx vitest run test/golden.test.ts, then look at the picture before committing it.`,
    );
  }

  const tolerance = readTolerance(c.dir);
  const expected = await decodeRgba(expectedFile);
  const actual = await decodeRgba(actualPng);
  const diff = diffImages(expected, actual);
  const sizeMismatch = expected.width !== actual.width || expected.height !== actual.height;

  if (!sizeMismatch && diff.ratio <= tolerance.maxDiffRatio) {
    rmSync(files.panel, { force: true });
    rmSync(files.actual, { force: true });
    return `${diff.diffPixels} of ${diff.totalPixels} pixels differ`;
  }

  mkdirSync(dirname(files.panel), { recursive: true });
  writeFileSync(files.panel, await diffPanel(expected, actual, diff));
  writeFileSync(files.actual, actualPng);
  const pct = (r: number): string => `${(r * 100).toFixed(4)}%`;
  const why = sizeMismatch
    ? `size differs: expected ${expected.width}x${expected.height}, actual ${actual.width}x${actual.height}`
    : `${diff.diffPixels} of ${diff.totalPixels} pixels differ (${pct(diff.ratio)}; allowed ${pct(tolerance.maxDiffRatio)}${tolerance.reason ? `, tolerance.json: ${tolerance.reason}` : ''})`;
  throw new Error(
    `${c.area}/${c.name} does not match ${rel(expectedFile)}: ${why}.\n` +
      `  diff (expected | differing pixels in red | actual): ${rel(files.panel)}\n` +
      `  actual render: ${rel(files.actual)}\n` +
      `  If the change is intended, look at the picture, then re-run with UPDATE_GOLDEN=1.`,
  );
}
