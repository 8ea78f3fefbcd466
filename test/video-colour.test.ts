// mp4 colour as a viewer sees it: an mp4 of flat, saturated swatches is decoded the way its tags tell a
// player to (BT.709, limited range) and each swatch is compared with the png of the same design at the
// same time, in CIELAB. Decoding the same file with the BT.601 matrix shows the check can fail.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { render } from '../src/index.js';
import { deltaE76, srgbToLab, type Rgb } from './support/colour.js';

const tmp = mkdtempSync(join(tmpdir(), 'imprint-video-colour-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Largest CIE76 ΔE allowed between the png and the decoded video at a swatch's centre. */
const MAX_DELTA_E = 2;

const SWATCHES = [
  { name: 'blue', color: '#0000ff' },
  { name: 'red', color: '#ff0000' },
  { name: 'green', color: '#00ff00' },
  { name: 'grey', color: '#808080' },
  { name: 'brand', color: '#1e88e5' },
  // Black and white are where a range mix-up (full vs limited) shows first.
  { name: 'black', color: '#000000' },
  { name: 'white', color: '#ffffff' },
] as const;
const SWATCH_WIDTH = 80;
const SWATCH_HEIGHT = 200;
const WIDTH = SWATCH_WIDTH * SWATCHES.length;
const HEIGHT = 240;

/** Swatches side by side above a band where, if `animated`, a dot moves (so frames go through the pipe). */
function design(animated: boolean, duration: number) {
  return {
    width: WIDTH,
    height: HEIGHT,
    duration,
    background: { type: 'color' as const, color: '#404040' },
    objects: [
      ...SWATCHES.map((s, k) => ({
        type: 'shape' as const,
        name: s.name,
        x: k * SWATCH_WIDTH,
        y: 0,
        width: SWATCH_WIDTH,
        height: SWATCH_HEIGHT,
        background: { type: 'color' as const, color: s.color },
      })),
      ...(animated
        ? [
            {
              type: 'shape' as const,
              name: 'dot',
              shape: 'ellipse' as const,
              x: 0,
              y: 210,
              width: 20,
              height: 20,
              background: { type: 'color' as const, color: '#ffcc00' },
              animations: [
                {
                  type: 'keyframes' as const,
                  property: 'x' as const,
                  keyframes: [
                    { time: 0, value: 0 },
                    { time: duration, value: WIDTH - 20 },
                  ],
                  easing: 'linear' as const,
                },
              ],
            },
          ]
        : []),
    ],
  };
}

interface ColourProbe {
  streams: { width: number; height: number; pix_fmt: string; color_space?: string; color_primaries?: string; color_transfer?: string; color_range?: string }[];
}

function save(bytes: Buffer, name: string): string {
  const file = join(tmp, `${name}.mp4`);
  writeFileSync(file, bytes);
  return file;
}

function probe(file: string): ColourProbe['streams'][number] {
  const out = execFileSync(ffprobeInstaller.path, ['-v', 'error', '-select_streams', 'v:0', '-show_streams', '-of', 'json', file], { encoding: 'utf8' });
  return (JSON.parse(out) as ColourProbe).streams[0]!;
}

/**
 * Frame `index` as rgb24, converted with the matrix named here, never the decoder's guess: the test
 * states what a player reading the tags does. accurate_rnd and full_chroma_int keep the decode's own
 * rounding from being counted against the encoder.
 */
function decodeFrame(file: string, index: number, matrix: 'bt709' | 'bt601'): Buffer {
  const vf = `select=eq(n\\,${index}),scale=in_color_matrix=${matrix}:in_range=tv:flags=bicubic+accurate_rnd+full_chroma_int,format=rgb24`;
  return execFileSync(ffmpegInstaller.path, ['-v', 'error', '-i', file, '-vf', vf, '-frames:v', '1', '-f', 'rawvideo', 'pipe:1'], { maxBuffer: 64 << 20 });
}

/** The pixel at the centre of swatch k, in an image of `width` × `height` (design scaled to fit). */
function centre(rgb: Buffer, channels: number, width: number, height: number, k: number): Rgb {
  const x = Math.floor(((k + 0.5) * SWATCH_WIDTH * width) / WIDTH);
  const y = Math.floor(((SWATCH_HEIGHT / 2) * height) / HEIGHT);
  const i = (y * width + x) * channels;
  return [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
}

/**
 * The colr box of an mp4: nclx, its three code points and the full-range bit. +faststart puts the moov
 * box (which holds colr) before the media data, so the first match is the box, not picture bytes.
 */
function colrBox(bytes: Buffer): { type: string; primaries: number; transfer: number; matrix: number; fullRange: boolean } | null {
  const at = bytes.indexOf('colr');
  if (at < 0) return null;
  return {
    type: bytes.toString('latin1', at + 4, at + 8),
    primaries: bytes.readUInt16BE(at + 8),
    transfer: bytes.readUInt16BE(at + 10),
    matrix: bytes.readUInt16BE(at + 12),
    fullRange: (bytes[at + 14]! & 0x80) !== 0,
  };
}

interface SwatchResult {
  name: string;
  png: Rgb;
  bt709: Rgb;
  bt601: Rgb;
  deltaE709: number;
  deltaE601: number;
}

/** Renders the mp4 and the png at the middle frame's time, then measures every swatch both ways. */
async function measure(name: string, doc: ReturnType<typeof design>, size: 'design' | 'sd' = 'design') {
  const fps = 30;
  const video = await render({ design: doc, format: 'mp4', fps, size });
  const middle = Math.floor(video.frames! / 2);
  const png = await render({ design: doc, format: 'png', time: middle / fps });
  const { data: still, info } = await sharp(png.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const file = save(video.bytes, name);
  const stream = probe(file);
  const decoded = { bt709: decodeFrame(file, middle, 'bt709'), bt601: decodeFrame(file, middle, 'bt601') };
  const swatches: SwatchResult[] = SWATCHES.map((s, k) => {
    const ref = centre(still, info.channels, info.width, info.height, k);
    const bt709 = centre(decoded.bt709, 3, stream.width, stream.height, k);
    const bt601 = centre(decoded.bt601, 3, stream.width, stream.height, k);
    return { name: s.name, png: ref, bt709, bt601, deltaE709: deltaE76(ref, bt709), deltaE601: deltaE76(ref, bt601) };
  });
  return { bytes: video.bytes, stream, swatches };
}

function report(label: string, swatches: readonly SwatchResult[]): void {
  console.log(
    `${label}: ΔE76 png vs decode (bt709 / bt601)\n${swatches.map((s) => `  ${s.name.padEnd(6)} png ${s.png.join(',')}  bt709 ${s.bt709.join(',')} ΔE ${s.deltaE709.toFixed(2)}  bt601 ${s.bt601.join(',')} ΔE ${s.deltaE601.toFixed(2)}`).join('\n')}`,
  );
}

/** What every mp4 here must satisfy: the four tags, the colr box, and the swatches within MAX_DELTA_E. */
function expectBt709(result: Awaited<ReturnType<typeof measure>>): void {
  expect(result.stream).toMatchObject({ pix_fmt: 'yuv420p', color_space: 'bt709', color_primaries: 'bt709', color_transfer: 'bt709', color_range: 'tv' });
  // ISO/IEC 23091-2 code points: 1 = BT.709 for primaries, transfer and matrix.
  expect(colrBox(result.bytes)).toEqual({ type: 'nclx', primaries: 1, transfer: 1, matrix: 1, fullRange: false });
  for (const s of result.swatches) {
    expect(s.deltaE709, `${s.name}: png ${s.png.join(',')} vs bt709 decode ${s.bt709.join(',')}`).toBeLessThanOrEqual(MAX_DELTA_E);
  }
}

describe('colour helper', () => {
  it('matches published CIELAB values of sRGB primaries', () => {
    const near = (a: readonly number[], b: readonly number[]) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 1));
    near(srgbToLab([255, 255, 255]), [100, 0, 0]);
    near(srgbToLab([255, 0, 0]), [53.24, 80.09, 67.2]);
    near(srgbToLab([0, 0, 255]), [32.3, 79.19, -107.86]);
    near(srgbToLab([0, 255, 0]), [87.73, -86.18, 83.18]);
    expect(deltaE76([0, 0, 255], [0, 0, 255])).toBe(0);
  });
});

describe('mp4 colour: BT.709, limited range, tagged', () => {
  it('an animated design (frames piped to ffmpeg): tags, colr box, every swatch within ΔE 2; BT.601 decode is off', async () => {
    const result = await measure('animated', design(true, 1));
    report('animated 560x240', result.swatches);
    expectBt709(result);
    // The wrong matrix on the same file: neutral swatches agree (both matrices map grey to grey), every
    // coloured one is further off, and at least one beyond the limit, so the limit can catch it.
    const coloured = result.swatches.filter((s) => !['grey', 'black', 'white'].includes(s.name));
    for (const s of coloured) expect(s.deltaE601, s.name).toBeGreaterThan(s.deltaE709);
    expect(Math.max(...coloured.map((s) => s.deltaE601))).toBeGreaterThan(2 * MAX_DELTA_E);
  });

  it('a still design at sd size (one frame repeated by ffmpeg, Lanczos upscale in the same scaler)', async () => {
    const result = await measure('still-sd', design(false, 1), 'sd');
    report('still sd 1680x720', result.swatches);
    expect(result.stream).toMatchObject({ width: 1680, height: 720 });
    expectBt709(result);
  });

  it('a 5 s still (2 s segments joined without re-encoding) keeps the tags and the colours', async () => {
    const result = await measure('still-joined', design(false, 5));
    report('still 5 s joined', result.swatches);
    expectBt709(result);
  });
});
