// Perspective warping for the raster backend: the homography helpers and the resampler's quality
// guarantees (edge coverage, premultiplied filtering, orientation, degenerate input, determinism). Its
// speed is measured by bench/warp.mjs, not asserted here: a time bound fails on a busy machine.
import { describe, expect, it } from 'vitest';
import { applyHomography, invertHomography, rectToQuad, type Quad } from '../src/layout/homography.js';
import { warpImage } from '../src/paint/warp.js';

type Src = { width: number; height: number; rgba: Buffer };

function image(width: number, height: number, pixel: (x: number, y: number) => readonly [number, number, number, number]): Src {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set(pixel(x, y), (y * width + x) * 4);
  }
  return { width, height, rgba };
}

const at = (img: { width: number; rgba: Buffer }, x: number, y: number): number[] => [
  ...img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];

const shoelace = (q: Quad): number => Math.abs(q.reduce((s, [x, y], k) => s + x * q[(k + 1) % 4]![1] - q[(k + 1) % 4]![0] * y, 0)) / 2;

/** Signed distance of (x,y) inside a clockwise (y-down) quad: positive inside. */
function insideDistance(q: Quad, x: number, y: number): number {
  let m = Infinity;
  for (let k = 0; k < 4; k++) {
    const [x0, y0] = q[k]!;
    const [x1, y1] = q[(k + 1) % 4]!;
    m = Math.min(m, ((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) / Math.hypot(x1 - x0, y1 - y0));
  }
  return m;
}

const perspective: Quad = [
  [30.3, 20.7],
  [210.2, 45.1],
  [190.6, 170.4],
  [15.2, 140.9],
];

describe('homography helpers', () => {
  it('rectToQuad maps the corners exactly and the centre correctly', () => {
    const axis: Quad = [
      [10, 20],
      [110, 20],
      [110, 70],
      [10, 70],
    ];
    for (const quad of [axis, perspective]) {
      const h = rectToQuad(200, 100, quad);
      const corners: [number, number][] = [
        [0, 0],
        [200, 0],
        [200, 100],
        [0, 100],
      ];
      corners.forEach(([u, v], k) => {
        const [x, y] = applyHomography(h, u, v);
        expect(Math.abs(x - quad[k]![0])).toBeLessThan(1e-9);
        expect(Math.abs(y - quad[k]![1])).toBeLessThan(1e-9);
      });
    }
    expect(applyHomography(rectToQuad(200, 100, axis), 100, 50)).toEqual([60, 45]);
    // Projectively, the rect's centre goes to where the quad's diagonals cross.
    const [[ax, ay], [bx, by], [cx, cy], [dx, dy]] = perspective;
    const t = ((dx - ax) * (dy - by) - (dy - ay) * (dx - bx)) / ((cx - ax) * (dy - by) - (cy - ay) * (dx - bx));
    const [x, y] = applyHomography(rectToQuad(200, 100, perspective), 100, 50);
    expect(x).toBeCloseTo(ax + t * (cx - ax), 9);
    expect(y).toBeCloseTo(ay + t * (cy - ay), 9);
  });

  it('invert then apply round-trips', () => {
    const h = rectToQuad(640, 480, perspective);
    const inv = invertHomography(h);
    for (const [u, v] of [
      [0, 0],
      [123.4, 56.7],
      [640, 480],
      [320, 10],
    ] as const) {
      const [x, y] = applyHomography(h, u, v);
      const [u2, v2] = applyHomography(inv, x, y);
      expect(u2).toBeCloseTo(u, 9);
      expect(v2).toBeCloseTo(v, 9);
    }
  });
});

describe('warpImage', () => {
  it('reproduces the source for the identity quad', () => {
    const src = image(37, 23, (x, y) => [(x * 7) % 256, (y * 11) % 256, (x * y) % 256, 255 - ((x + y) % 128)]);
    const out = warpImage(src, [
      [0, 0],
      [37, 0],
      [37, 23],
      [0, 23],
    ]);
    expect(out).toMatchObject({ x: 0, y: 0, width: 37, height: 23 });
    expect(src.rgba.findIndex((v, i) => Math.abs(out.rgba[i]! - v) > 1)).toBe(-1);
  });

  it('fills a perspective quad with exact colour, anti-aliased edges and the right area', () => {
    const out = warpImage(
      image(50, 40, () => [200, 100, 50, 255]),
      perspective,
    );
    expect(out).toMatchObject({ x: 15, y: 20, width: 211 - 15, height: 171 - 20 });
    let sum = 0;
    let partial = 0;
    const wrong: string[] = [];
    for (let y = 0; y < out.height; y++) {
      for (let x = 0; x < out.width; x++) {
        const [r, g, b, a] = at(out, x, y) as [number, number, number, number];
        const d = insideDistance(perspective, out.x + x + 0.5, out.y + y + 0.5);
        sum += a / 255;
        const colourOk = r === 200 && g === 100 && b === 50;
        if (d > 0.75 ? !(colourOk && a === 255) : d < -0.75 ? a !== 0 : a > 0 && !colourOk) wrong.push(`${x},${y}: ${[r, g, b, a].join(',')} at d=${d}`);
        if (a > 0 && a < 255) partial++;
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(partial).toBeGreaterThan(200);
    expect(Math.abs(sum - shoelace(perspective)) / shoelace(perspective)).toBeLessThan(0.01);
  });

  it('keeps the orientation: source top-left lands at TL, bottom-right at BR', () => {
    const src = image(40, 40, (x, y) => (x < 20 && y < 20 ? [255, 0, 0, 255] : x >= 20 && y >= 20 ? [0, 0, 255, 255] : [0, 255, 0, 255]));
    const quad: Quad = [
      [120, 10],
      [190, 60],
      [110, 180],
      [20, 70],
    ]; // rotated and in perspective
    const out = warpImage(src, quad);
    const near = (p: readonly [number, number], q: readonly [number, number]) =>
      at(out, Math.floor(p[0] + (q[0] - p[0]) * 0.1 - out.x), Math.floor(p[1] + (q[1] - p[1]) * 0.1 - out.y));
    expect(near(quad[0], quad[2])).toEqual([255, 0, 0, 255]);
    expect(near(quad[2], quad[0])).toEqual([0, 0, 255, 255]);
    expect(near(quad[1], quad[3])).toEqual([0, 255, 0, 255]);
  });

  it('does not darken edges next to transparent source pixels', () => {
    const src = image(16, 16, (x, y) => (((x >> 2) + (y >> 2)) % 2 ? [255, 255, 255, 255] : [0, 0, 0, 0]));
    const out = warpImage(src, [
      [3.3, 2.1],
      [90.7, 12.5],
      [80.2, 70.9],
      [8.4, 60.6],
    ]);
    let seen = 0;
    let darkest = 255;
    for (let i = 0; i < out.rgba.length; i += 4) {
      if (out.rgba[i + 3]! === 0) continue;
      seen++;
      darkest = Math.min(darkest, out.rgba[i]!, out.rgba[i + 1]!, out.rgba[i + 2]!);
    }
    expect(seen).toBeGreaterThan(1000);
    expect(darkest).toBeGreaterThanOrEqual(250);
  });

  it('handles degenerate quads without throwing or NaN', () => {
    const src = image(8, 8, () => [10, 20, 30, 255]);
    const quads: Quad[] = [
      [
        [5, 5],
        [5, 5],
        [5, 5],
        [5, 5],
      ],
      [
        [0, 0],
        [10, 0],
        [20, 0],
        [5, 10],
      ], // TL, TR, BR collinear
      [
        [0, 0],
        [10, 10],
        [10, 0],
        [0, 10],
      ], // bow-tie
      [
        [0, 0],
        [10, 0],
        [3, 3],
        [0, 10],
      ], // concave
      [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 1e-12],
      ],
      [
        [0, 0],
        [NaN, 0],
        [10, 10],
        [0, 10],
      ],
      [
        [0, 0],
        [Infinity, 0],
        [10, 10],
        [0, 10],
      ],
    ];
    for (const quad of quads) {
      const out = warpImage(src, quad);
      for (const v of [out.x, out.y, out.width, out.height]) expect(Number.isFinite(v)).toBe(true);
      expect(out.rgba.length).toBe(out.width * out.height * 4);
      expect(out.rgba.every((v) => v === 0)).toBe(true);
    }
    expect(warpImage({ width: 0, height: 0, rgba: Buffer.alloc(0) }, perspective).width).toBe(0);
    // Tiny but valid: some coverage, all finite.
    const tiny = warpImage(src, [
      [1.1, 1.1],
      [1.4, 1.2],
      [1.3, 1.5],
      [1.1, 1.4],
    ]);
    expect(tiny).toMatchObject({ width: 1, height: 1 });
    expect(tiny.rgba[3]!).toBeLessThan(255);
  });

  it('is deterministic', () => {
    const src = image(64, 48, (x, y) => [(x * 37) % 256, (y * 53) % 256, (x * y * 3) % 256, (x * 5 + y * 3) % 256]);
    const a = warpImage(src, perspective);
    const b = warpImage({ ...src, rgba: Buffer.from(src.rgba) }, perspective);
    expect(a.rgba.equals(b.rgba)).toBe(true);
  });
});
