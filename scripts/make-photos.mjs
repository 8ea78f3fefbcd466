#!/usr/bin/env node
// Generates the procedural "photos" the examples use and writes them as JPEG (quality 85) into the
// example folders:
//   lake-sunset.jpg  1600x1067  mountain lake at sunset          → examples/card-1080/
//   city-night.jpg   1600x900   night skyline over a river        → examples/card-1080/
//   coffee-cup.jpg   1067x1600  cappuccino on a studio table      → examples/banner-1200x628/
//   sneaker.jpg      1600x1067  floating sneaker, flat backdrop   → examples/banner-1200x628/
//   aurora.jpg       1080x1920  northern lights over a lake       → examples/story-1080x1920/
// Deterministic: every random choice comes from a seeded PRNG, nothing is fetched, no system fonts are
// used. Painted with @napi-rs/canvas (paths, gradients, blur filters) plus per-pixel passes for skies,
// mountains and water; encoded with sharp. Run: node scripts/make-photos.mjs
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const examples = join(root, 'examples');

// ── deterministic randomness and noise ──────────────────────────────────────────────────────────

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Smooth 2-D value noise in [0, 1] and fractal sums of it, all from one seed. */
function makeNoise(seed) {
  const rng = mulberry32(seed);
  const perm = new Uint16Array(512);
  const p = [...Array(256).keys()];
  for (let i = 255; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [p[i], p[j]] = [p[j], p[i]];
  }
  for (let i = 0; i < 512; i++) perm[i] = p[i & 255];
  const values = new Float32Array(256).map(() => rng());
  const v = (x, y) => values[perm[(perm[x & 255] + y) & 511]];
  const noise = (x, y) => {
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    const xf = x - xi;
    const yf = y - yi;
    const u = xf * xf * (3 - 2 * xf);
    const w = yf * yf * (3 - 2 * yf);
    const a = v(xi, yi);
    const b = v(xi + 1, yi);
    const c = v(xi, yi + 1);
    const d = v(xi + 1, yi + 1);
    return a + (b - a) * u + (c - a) * w + (a - b - c + d) * u * w;
  };
  const fbm = (x, y, octaves = 5, gain = 0.5) => {
    let sum = 0;
    let amp = 0.5;
    let norm = 0;
    for (let o = 0; o < octaves; o++) {
      sum += amp * noise(x, y);
      norm += amp;
      amp *= gain;
      x = x * 2.03 + 17.1;
      y = y * 2.01 + 9.7;
    }
    return sum / norm;
  };
  return { noise, fbm };
}

// ── small colour helpers ────────────────────────────────────────────────────────────────────────

const clamp = (v, lo = 0, hi = 1) => (v < lo ? lo : v > hi ? hi : v);
const smoothstep = (a, b, x) => {
  const t = clamp((x - a) / (b - a));
  return t * t * (3 - 2 * t);
};
const mix = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
const screen = (a, b, t) => [
  255 - ((255 - a[0]) * (255 - b[0] * t)) / 255,
  255 - ((255 - a[1]) * (255 - b[1] * t)) / 255,
  255 - ((255 - a[2]) * (255 - b[2] * t)) / 255,
];
function gradient(stops, t) {
  if (t <= stops[0][0]) return stops[0][1];
  for (let i = 1; i < stops.length; i++) {
    const [t1, c1] = stops[i];
    if (t <= t1) {
      const [t0, c0] = stops[i - 1];
      return mix(c0, c1, (t - t0) / (t1 - t0));
    }
  }
  return stops[stops.length - 1][1];
}
const rgba = (c, a = 1) => `rgba(${Math.round(c[0])},${Math.round(c[1])},${Math.round(c[2])},${a})`;

/** Straight RGBA working buffer over a canvas; `put` writes it back. */
function pixels(ctx, w, h) {
  const img = ctx.getImageData(0, 0, w, h);
  return {
    d: img.data,
    get(x, y) {
      const i = (y * w + x) * 4;
      return [img.data[i], img.data[i + 1], img.data[i + 2]];
    },
    /** Bilinear sample, clamped to the image. */
    sample(x, y) {
      x = clamp(x, 0, w - 1.001);
      y = clamp(y, 0, h - 1.001);
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      const d = img.data;
      const i00 = (y0 * w + x0) * 4;
      const i10 = i00 + 4;
      const i01 = i00 + w * 4;
      const i11 = i01 + 4;
      const out = [0, 0, 0];
      for (let c = 0; c < 3; c++) {
        const top = d[i00 + c] + (d[i10 + c] - d[i00 + c]) * fx;
        const bot = d[i01 + c] + (d[i11 + c] - d[i01 + c]) * fx;
        out[c] = top + (bot - top) * fy;
      }
      return out;
    },
    set(x, y, c) {
      const i = (y * w + x) * 4;
      img.data[i] = c[0];
      img.data[i + 1] = c[1];
      img.data[i + 2] = c[2];
      img.data[i + 3] = 255;
    },
    put() {
      ctx.putImageData(img, 0, 0);
    },
  };
}

/**
 * A mountain ridge: the y of the skyline for every x, from a few shaped peaks plus fractal detail.
 * peaks: [centre x, height, half width, sharpness].
 */
function ridge(w, base, peaks, noise, { detail = 30, scale = 110, fine = 6 } = {}) {
  const r = new Float32Array(w + 4);
  for (let x = 0; x < w + 4; x++) {
    let h = 0;
    for (const [c, ph, hw, sharp] of peaks) {
      const t = Math.max(0, 1 - Math.abs(x - c) / hw);
      h = Math.max(h, ph * t ** sharp);
    }
    // Ridged detail: rougher near the peaks, as real mountain crests are.
    const n = noise.fbm(x / scale, 3.3, 5, 0.55);
    const f = noise.fbm(x / 14, 7.7, 3);
    r[x] = base - h - (n - 0.5) * detail * (0.6 + h / 300) - (f - 0.5) * fine;
  }
  return r;
}

/**
 * Calm-water reflection of everything above `horizon`, with ripples that grow towards the viewer,
 * a darker, bluer tint and a Fresnel fade to `deep`. `streak` smears lights vertically (night scenes).
 */
function reflectWater(px, w, h, horizon, noise, { tint = [0.8, 0.82, 0.9], deep = [20, 24, 44], fresnel = [0.12, 0.6], ripple = 1, streak = 0, extra } = {}) {
  for (let y = horizon; y < h; y++) {
    const u = y - horizon;
    const k = u / (h - horizon);
    for (let x = 0; x < w; x++) {
      const n1 = noise.noise(x / (110 + u * 3.2), u / (1.6 + u * 0.09));
      const n2 = noise.noise(x / (40 + u * 1.2) + 311, u / (1.1 + u * 0.06) + 91);
      const dy = (n1 - 0.5) * (2.5 + u * 0.16) * ripple;
      const dx = (n2 - 0.5) * (2 + u * 0.06) * ripple;
      const sy = horizon - 1 - u * 0.985 + dy;
      let c;
      if (streak > 0) {
        const len = 2 + u * streak;
        c = [0, 0, 0];
        const samples = 7;
        for (let s = 0; s < samples; s++) {
          const o = (s / (samples - 1) - 0.5) * len;
          const v = px.sample(x + dx, sy + o);
          c[0] += v[0] / samples;
          c[1] += v[1] / samples;
          c[2] += v[2] / samples;
        }
      } else c = px.sample(x + dx, sy);
      c = [c[0] * tint[0], c[1] * tint[1], c[2] * tint[2]];
      c = mix(c, deep, fresnel[0] + (fresnel[1] - fresnel[0]) * k ** 1.2);
      if (extra) c = extra(c, x, y, u, k);
      px.set(x, y, c);
    }
  }
}

/** Film grain (luminance only, seeded) and a soft vignette, applied in place. */
function finish(ctx, w, h, { seed, grain = 4, vignette = 0.35, warmth = 0 } = {}) {
  if (vignette > 0) {
    const g = ctx.createRadialGradient(w / 2, h / 2, Math.min(w, h) * 0.35, w / 2, h / 2, Math.hypot(w, h) * 0.6);
    g.addColorStop(0, 'rgba(0,0,0,0)');
    g.addColorStop(1, `rgba(0,0,0,${vignette})`);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, w, h);
  }
  const rng = mulberry32(seed);
  const img = ctx.getImageData(0, 0, w, h);
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    const n = (rng() + rng() - 1) * grain;
    d[i] = d[i] + n + warmth;
    d[i + 1] = d[i + 1] + n;
    d[i + 2] = d[i + 2] + n - warmth;
  }
  ctx.putImageData(img, 0, 0);
}

/** A conifer silhouette standing on (x, y). */
function pine(ctx, x, y, height, width, rng) {
  const tiers = 5 + Math.floor(height / 18);
  ctx.beginPath();
  ctx.moveTo(x, y - height);
  for (let i = 1; i <= tiers; i++) {
    const t = i / tiers;
    const ty = y - height + height * 0.92 * t;
    const tw = (width / 2) * (0.25 + 0.75 * t) * (0.85 + rng() * 0.3);
    ctx.lineTo(x + tw, ty);
    ctx.lineTo(x + tw * 0.35, ty - height * 0.03);
  }
  for (let i = tiers; i >= 1; i--) {
    const t = i / tiers;
    const ty = y - height + height * 0.92 * t;
    const tw = (width / 2) * (0.25 + 0.75 * t) * (0.85 + rng() * 0.3);
    ctx.lineTo(x - tw * 0.35, ty - height * 0.03);
    ctx.lineTo(x - tw, ty);
  }
  ctx.closePath();
  ctx.fill();
  ctx.fillRect(x - Math.max(1, width * 0.04), y - height * 0.1, Math.max(2, width * 0.08), height * 0.1 + 2);
}

// ── 1. mountain lake at sunset ─────────────────────────────────────────────────────────────────

function lakeSunset() {
  const W = 1600;
  const H = 1067;
  const HY = 640; // waterline
  const SX = 1040;
  const SY = 552;
  const noise = makeNoise(11);
  const rng = mulberry32(12);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const px = pixels(ctx, W, H);

  const sky = [
    [0, [28, 34, 82]],
    [0.28, [72, 56, 118]],
    [0.52, [164, 80, 118]],
    [0.72, [230, 120, 86]],
    [0.88, [250, 170, 96]],
    [1, [255, 206, 132]],
  ];
  const far = ridge(W, HY - 66, [[250, 250, 330, 1.25], [600, 175, 250, 1.3], [1370, 235, 300, 1.2], [1590, 150, 220, 1.1], [1040, 18, 160, 1]], noise, { detail: 46, scale: 90 });
  const mid = ridge(W, HY - 22, [[60, 190, 300, 1.15], [430, 120, 230, 1.3], [1270, 140, 250, 1.25], [1540, 205, 240, 1.2]], makeNoise(21), { detail: 36, scale: 80 });
  const near = ridge(W, HY - 4, [[120, 52, 260, 1.2], [700, 26, 300, 1], [1480, 64, 260, 1.2]], makeNoise(31), { detail: 14, scale: 60, fine: 3 });

  const layers = [
    { r: far, top: [150, 92, 132], bottom: [206, 128, 128], mist: [236, 160, 130], mistAmt: 0.55, tex: 16, sunGlow: 0.55 },
    { r: mid, top: [84, 56, 100], bottom: [128, 80, 108], mist: [200, 120, 120], mistAmt: 0.5, tex: 14, sunGlow: 0.25 },
    { r: near, top: [34, 26, 50], bottom: [40, 30, 52], mist: [60, 40, 64], mistAmt: 0.2, tex: 6, sunGlow: 0.05 },
  ];

  for (let y = 0; y < HY; y++) {
    const t = y / HY;
    const base = gradient(sky, t);
    for (let x = 0; x < W; x++) {
      const dx = x - SX;
      const dy = y - SY;
      const dist = Math.hypot(dx, dy * 1.5);
      const glow = Math.exp(-dist / 150) * 0.85 + Math.exp(-dist / 520) * 0.4;
      let c = screen(base, [255, 196, 128], glow);
      // Streaky clouds, lit from below by the low sun.
      const n = noise.fbm(x / 760 + 3.1, y / 80 + 1.7, 6, 0.55);
      const band = smoothstep(0.05, 0.22, t) * (1 - smoothstep(0.6, 0.82, t));
      const dens = smoothstep(0.5, 0.74, n) * band;
      if (dens > 0) {
        const lit = clamp(Math.exp(-Math.abs(dx) / 760) * (0.3 + 0.85 * t) + 0.12);
        const edge = smoothstep(0.5, 0.58, n) * (1 - smoothstep(0.58, 0.7, n));
        let cc = mix([58, 40, 86], [255, 146, 104], lit);
        cc = mix(cc, [255, 214, 160], edge * lit * 0.7);
        c = mix(c, cc, dens * 0.92);
      }
      // The sun disc, just touching the far ridge.
      const sd = Math.hypot(dx, dy);
      c = mix(c, [255, 250, 232], 1 - smoothstep(31, 34, sd));
      for (const L of layers) {
        const r = L.r[x];
        const cov = clamp(y + 1 - r);
        if (cov <= 0) continue;
        const lt = clamp((y - r) / Math.max(20, HY - r));
        let lc = mix(L.top, L.bottom, lt ** 0.7);
        const tex = (noise.fbm(x / 26, y / 60 + 40, 4) - 0.5) * L.tex + (noise.fbm(x / 9, y / 30, 2) - 0.5) * L.tex * 0.5;
        lc = [lc[0] + tex, lc[1] + tex, lc[2] + tex];
        lc = mix(lc, L.mist, smoothstep(0.45, 1, lt) * L.mistAmt);
        lc = screen(lc, [255, 170, 110], glow * L.sunGlow);
        // Rim light along the crest close to the sun.
        const rim = (1 - smoothstep(0, 3, y - r)) * Math.exp(-Math.abs(dx) / 260) * L.sunGlow;
        lc = mix(lc, [255, 210, 150], rim * 0.8);
        c = mix(c, lc, cov);
      }
      px.set(x, y, c);
    }
  }
  px.put();

  // Conifers on the near shore.
  ctx.fillStyle = rgba([30, 22, 42]);
  for (let x = -10; x < W + 10; ) {
    const xi = clamp(Math.round(x), 0, W - 1);
    const dense = noise.noise(x / 120, 5.5);
    if (dense > 0.35) {
      const h = 16 + rng() * 46 * (0.5 + dense);
      pine(ctx, x, near[xi] + 4, h, h * (0.32 + rng() * 0.12), rng);
    }
    x += 4 + rng() * 9;
  }
  ctx.fillRect(0, HY - 3, W, 3);

  const src = pixels(ctx, W, H);
  reflectWater(src, W, H, HY, makeNoise(41), {
    tint: [0.78, 0.76, 0.86],
    deep: [24, 22, 46],
    fresnel: [0.1, 0.62],
    extra: (c, x, y, u, k) => {
      // Sun glitter: a path of sparkles under the sun, widening towards the viewer.
      const g = Math.exp(-(((x - SX) / (16 + u * 0.55)) ** 2));
      if (g < 0.01) return c;
      const sp = smoothstep(0.6, 0.86, noise.noise(x / (5 + u * 0.12) + 500, u / (1 + u * 0.035)));
      c = screen(c, [255, 170, 100], g * 0.35 * (1 - k * 0.6));
      return screen(c, [255, 222, 170], g * sp * (1.2 - k * 0.5));
    },
  });
  src.put();

  // Foreground: a rock and reeds in the lower left corner.
  ctx.fillStyle = rgba([16, 12, 24]);
  ctx.beginPath();
  ctx.moveTo(0, H - 160);
  ctx.bezierCurveTo(60, H - 190, 150, H - 170, 210, H - 120);
  ctx.bezierCurveTo(260, H - 80, 300, H - 40, 330, H);
  ctx.lineTo(0, H);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = rgba([255, 160, 110], 0.35);
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(40, H - 178);
  ctx.bezierCurveTo(90, H - 186, 150, H - 172, 200, H - 128);
  ctx.stroke();
  ctx.strokeStyle = rgba([14, 10, 20]);
  for (let i = 0; i < 46; i++) {
    const x0 = 10 + rng() * 300;
    const hgt = 90 + rng() * 200;
    const bend = 20 + rng() * 60;
    ctx.lineWidth = 1.5 + rng() * 2.5;
    ctx.beginPath();
    ctx.moveTo(x0, H);
    ctx.quadraticCurveTo(x0 + bend * 0.3, H - hgt * 0.6, x0 + bend, H - hgt);
    ctx.stroke();
  }

  finish(ctx, W, H, { seed: 13, grain: 5, vignette: 0.38 });
  return canvas;
}

// ── 2. night city skyline over a river ─────────────────────────────────────────────────────────

function cityNight() {
  const W = 1600;
  const H = 900;
  const HY = 640;
  const noise = makeNoise(51);
  const rng = mulberry32(52);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');

  // Sky with city glow and faint lit clouds.
  const px = pixels(ctx, W, H);
  const sky = [
    [0, [6, 9, 26]],
    [0.45, [16, 22, 56]],
    [0.75, [48, 42, 92]],
    [0.92, [120, 74, 100]],
    [1, [170, 100, 92]],
  ];
  for (let y = 0; y < HY; y++) {
    const base = gradient(sky, y / HY);
    for (let x = 0; x < W; x++) {
      let c = base;
      const n = noise.fbm(x / 600, y / 110, 5);
      const dens = smoothstep(0.52, 0.78, n) * smoothstep(0.05, 0.5, y / HY);
      c = mix(c, [92, 70, 110], dens * 0.55);
      px.set(x, y, c);
    }
  }
  px.put();
  // Stars, mostly in the dark upper sky.
  for (let i = 0; i < 260; i++) {
    const x = rng() * W;
    const y = rng() ** 1.6 * HY * 0.55;
    const a = 0.25 + rng() * 0.6;
    ctx.fillStyle = `rgba(255,255,255,${a * (1 - y / (HY * 0.6))})`;
    ctx.beginPath();
    ctx.arc(x, y, 0.5 + rng() * 0.9, 0, Math.PI * 2);
    ctx.fill();
  }
  // A moon with halo.
  const moon = ctx.createRadialGradient(1320, 120, 10, 1320, 120, 160);
  moon.addColorStop(0, 'rgba(255,244,220,0.35)');
  moon.addColorStop(1, 'rgba(255,244,220,0)');
  ctx.fillStyle = moon;
  ctx.fillRect(1100, 0, 440, 320);
  ctx.fillStyle = '#fbf3e0';
  ctx.beginPath();
  ctx.arc(1320, 120, 22, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = 'rgba(200,190,170,0.35)';
  for (const [mx, my, mr] of [[1312, 112, 6], [1328, 128, 4], [1326, 110, 3]]) {
    ctx.beginPath();
    ctx.arc(mx, my, mr, 0, Math.PI * 2);
    ctx.fill();
  }

  const lights = createCanvas(W, H);
  const lctx = lights.getContext('2d');
  const warm = [[255, 214, 150], [255, 196, 120], [255, 236, 196], [210, 228, 255], [255, 226, 170]];

  function building(x, w, h, body, opts) {
    const top = HY - h;
    const g = ctx.createLinearGradient(0, top, 0, HY);
    g.addColorStop(0, rgba(mix(body, [255, 255, 255], opts.sheen ?? 0.04)));
    g.addColorStop(1, rgba(body));
    ctx.fillStyle = g;
    ctx.beginPath();
    if (opts.roof === 'spire') {
      ctx.moveTo(x, HY);
      ctx.lineTo(x, top + 40);
      ctx.lineTo(x + w * 0.2, top + 20);
      ctx.lineTo(x + w * 0.8, top + 20);
      ctx.lineTo(x + w, top + 40);
      ctx.lineTo(x + w, HY);
      ctx.fill();
      ctx.fillRect(x + w / 2 - 3, top - 110, 6, 140);
      ctx.fillRect(x + w * 0.3, top + 5, w * 0.4, 20);
    } else if (opts.roof === 'stepped') {
      ctx.moveTo(x, HY);
      ctx.lineTo(x, top + 60);
      ctx.lineTo(x + w * 0.12, top + 60);
      ctx.lineTo(x + w * 0.12, top + 28);
      ctx.lineTo(x + w * 0.26, top + 28);
      ctx.lineTo(x + w * 0.26, top);
      ctx.lineTo(x + w * 0.74, top);
      ctx.lineTo(x + w * 0.74, top + 28);
      ctx.lineTo(x + w * 0.88, top + 28);
      ctx.lineTo(x + w * 0.88, top + 60);
      ctx.lineTo(x + w, top + 60);
      ctx.lineTo(x + w, HY);
      ctx.fill();
    } else if (opts.roof === 'slant') {
      ctx.moveTo(x, HY);
      ctx.lineTo(x, top + w * 0.5);
      ctx.lineTo(x + w, top);
      ctx.lineTo(x + w, HY);
      ctx.fill();
    } else {
      ctx.rect(x, top, w, h);
      ctx.fill();
      if (opts.antenna) ctx.fillRect(x + w * 0.6, top - opts.antenna, 3, opts.antenna);
    }
    // A faintly lit side facade gives the block depth.
    if (opts.side) {
      ctx.fillStyle = rgba(mix(body, [90, 100, 150], 0.18));
      ctx.fillRect(x + w * 0.72, top + (opts.roof ? 60 : 0), w * 0.28, h - (opts.roof ? 60 : 0));
    }
    // Windows.
    const rowH = opts.rowH ?? 11 + Math.floor(rng() * 4);
    const colW = opts.colW ?? 8 + Math.floor(rng() * 4);
    const litP = opts.lit ?? 0.45;
    const wy0 = top + (opts.roof ? 70 : 10);
    const tone = warm[Math.floor(rng() * warm.length)];
    for (let wy = wy0; wy < HY - 8; wy += rowH) {
      const floorLit = noise.noise(x / 7 + wy / 40, wy / 23) < litP + 0.2;
      for (let wx = x + 5; wx < x + w - 6; wx += colW) {
        if (!floorLit || rng() > litP) continue;
        const c = rng() < 0.8 ? tone : warm[Math.floor(rng() * warm.length)];
        const a = (0.45 + rng() * 0.55) * (opts.dim ?? 1);
        lctx.fillStyle = rgba(c, a);
        lctx.fillRect(wx, wy, colW * 0.55, rowH * 0.55);
      }
    }
    if (h > 260 && !opts.dim) {
      lctx.fillStyle = 'rgba(255,60,50,0.95)';
      lctx.beginPath();
      lctx.arc(x + w / 2, top - (opts.roof === 'spire' ? 110 : opts.antenna ?? 0), 3, 0, Math.PI * 2);
      lctx.fill();
    }
  }

  // Far layer: hazy, dim.
  for (let x = -20; x < W; ) {
    const w = 30 + rng() * 60;
    const h = 60 + rng() * 150 * (0.6 + noise.noise(x / 200, 2));
    building(x, w, h, [44, 44, 80], { lit: 0.25, dim: 0.45, rowH: 8, colW: 6 });
    x += w * (0.7 + rng() * 0.3);
  }
  // Mid layer.
  for (let x = -30; x < W; ) {
    const w = 50 + rng() * 80;
    const center = Math.exp(-(((x - 760) / 420) ** 2));
    const h = 90 + rng() * 160 + center * 140;
    building(x, w, h, [22, 24, 46], { lit: 0.42, side: rng() < 0.5, antenna: rng() < 0.3 ? 20 + rng() * 40 : 0 });
    x += w + rng() * 12;
  }
  // Landmark towers.
  building(640, 92, 520, [14, 16, 32], { roof: 'spire', lit: 0.55, side: true, rowH: 12, colW: 9 });
  building(812, 120, 400, [16, 18, 36], { roof: 'stepped', lit: 0.5, side: true });
  building(470, 84, 430, [15, 17, 34], { roof: 'slant', lit: 0.5, side: true });
  building(1040, 110, 360, [18, 20, 38], { lit: 0.55, side: true, antenna: 70 });
  building(330, 100, 300, [17, 19, 36], { lit: 0.5, side: true });
  building(1230, 96, 280, [17, 19, 36], { lit: 0.45, side: true, antenna: 36 });
  // Embankment with street lamps.
  ctx.fillStyle = '#07080f';
  ctx.fillRect(0, HY - 14, W, 14);
  for (let x = 12; x < W; x += 46) {
    lctx.fillStyle = 'rgba(255,200,130,0.95)';
    lctx.beginPath();
    lctx.arc(x, HY - 18, 2.2, 0, Math.PI * 2);
    lctx.fill();
  }

  // Bloom: the lights once sharp, once blurred on top.
  ctx.drawImage(lights, 0, 0);
  ctx.save();
  ctx.globalCompositeOperation = 'lighter';
  ctx.filter = 'blur(6px)';
  ctx.globalAlpha = 0.6;
  ctx.drawImage(lights, 0, 0);
  ctx.filter = 'blur(24px)';
  ctx.globalAlpha = 0.5;
  ctx.drawImage(lights, 0, 0);
  ctx.restore();

  const src = pixels(ctx, W, H);
  reflectWater(src, W, H, HY, makeNoise(61), {
    tint: [0.85, 0.82, 0.9],
    deep: [6, 8, 20],
    fresnel: [0.08, 0.45],
    ripple: 1.4,
    streak: 0.35,
  });
  src.put();
  finish(ctx, W, H, { seed: 53, grain: 5, vignette: 0.3 });
  return canvas;
}

// ── 3. cappuccino product shot ─────────────────────────────────────────────────────────────────

function coffeeCup() {
  const W = 1067;
  const H = 1600;
  const rng = mulberry32(71);
  const noise = makeNoise(72);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const TABLE = 960; // where the table meets the wall (soft)

  // Wall and table: warm seamless paper, lit from the upper left.
  const px = pixels(ctx, W, H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const wall = mix([214, 190, 164], [232, 214, 192], clamp(1 - Math.hypot(x - 300, y - 400) / 1300));
      const table = mix([206, 178, 148], [188, 158, 128], clamp((y - TABLE) / (H - TABLE)));
      const t = smoothstep(TABLE - 30, TABLE + 60, y);
      let c = mix(wall, table, t);
      const light = Math.exp(-Math.hypot(x - 520, (y - 760) * 0.8) / 520) * 0.35;
      c = screen(c, [255, 244, 226], light);
      // Linen texture on the table.
      const tex = (noise.noise(x / 1.6, y / 40) - 0.5) * 6 * t + (noise.fbm(x / 90, y / 30, 3) - 0.5) * 10 * t;
      px.set(x, y, [c[0] + tex, c[1] + tex, c[2] + tex]);
    }
  }
  px.put();

  const CX = 540;
  const SAUCER_Y = 1190;
  const RIM_Y = 860;
  const RX = 236;
  const RY = 66;
  const FOOT_Y = 1150;
  const FOOT_RX = 132;

  function bean(x, y, angle, s, blur) {
    ctx.save();
    ctx.translate(x, y);
    ctx.rotate(angle);
    ctx.filter = `blur(${blur + 6}px)`;
    ctx.fillStyle = 'rgba(60,35,20,0.35)';
    ctx.beginPath();
    ctx.ellipse(8 * s, 10 * s, 30 * s, 20 * s, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.filter = blur > 0 ? `blur(${blur}px)` : 'none';
    const g = ctx.createRadialGradient(-10 * s, -8 * s, 2, 0, 0, 34 * s);
    g.addColorStop(0, '#8a5a3a');
    g.addColorStop(0.6, '#4f2f1c');
    g.addColorStop(1, '#2a170d');
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.ellipse(0, 0, 30 * s, 21 * s, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = '#1c0e07';
    ctx.lineWidth = 3.5 * s;
    ctx.beginPath();
    ctx.moveTo(-26 * s, 2 * s);
    ctx.bezierCurveTo(-8 * s, -8 * s, 8 * s, 10 * s, 26 * s, -2 * s);
    ctx.stroke();
    ctx.fillStyle = 'rgba(255,230,200,0.35)';
    ctx.beginPath();
    ctx.ellipse(-12 * s, -10 * s, 9 * s, 4 * s, -0.3, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }
  // Out-of-focus beans behind, sharp beans in front (shallow depth of field).
  for (const [x, y, a, s] of [[190, 1010, 0.6, 0.8], [250, 990, 2.1, 0.75], [880, 1000, 1.2, 0.8], [960, 1030, 2.6, 0.85]]) bean(x, y, a, s, 4);

  // Saucer shadow (light from the upper left, so it falls right and down).
  ctx.save();
  ctx.filter = 'blur(26px)';
  ctx.fillStyle = 'rgba(70,45,25,0.42)';
  ctx.beginPath();
  ctx.ellipse(CX + 40, SAUCER_Y + 40, 350, 86, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();

  // Saucer: underside thickness, then top face with its inner well.
  ctx.fillStyle = '#b9b1a6';
  ctx.beginPath();
  ctx.ellipse(CX, SAUCER_Y + 16, 340, 92, 0, 0, Math.PI * 2);
  ctx.fill();
  let g = ctx.createLinearGradient(CX - 340, 0, CX + 340, 0);
  g.addColorStop(0, '#e2ddd5');
  g.addColorStop(0.35, '#fbfaf7');
  g.addColorStop(1, '#cfc8be');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.ellipse(CX, SAUCER_Y, 340, 90, 0, 0, Math.PI * 2);
  ctx.fill();
  g = ctx.createRadialGradient(CX - 40, SAUCER_Y - 20, 20, CX, SAUCER_Y, 230);
  g.addColorStop(0, '#f6f3ee');
  g.addColorStop(1, '#dcd5cb');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.ellipse(CX, SAUCER_Y - 4, 226, 58, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = 'rgba(150,140,128,0.35)';
  ctx.lineWidth = 3;
  ctx.stroke();

  // Cup shadow on the saucer.
  ctx.save();
  ctx.filter = 'blur(14px)';
  ctx.fillStyle = 'rgba(90,70,50,0.45)';
  ctx.beginPath();
  ctx.ellipse(CX + 40, FOOT_Y + 26, 170, 36, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();

  // Handle: a thick loop on the right, behind the body's edge.
  ctx.save();
  ctx.lineCap = 'round';
  ctx.strokeStyle = '#cfc7bb';
  ctx.lineWidth = 40;
  ctx.beginPath();
  ctx.moveTo(CX + 200, RIM_Y + 70);
  ctx.bezierCurveTo(CX + 330, RIM_Y + 40, CX + 350, RIM_Y + 190, CX + 170, RIM_Y + 215);
  ctx.stroke();
  ctx.strokeStyle = '#f4f1ec';
  ctx.lineWidth = 16;
  ctx.beginPath();
  ctx.moveTo(CX + 215, RIM_Y + 58);
  ctx.bezierCurveTo(CX + 318, RIM_Y + 36, CX + 330, RIM_Y + 150, CX + 250, RIM_Y + 188);
  ctx.stroke();
  ctx.restore();

  // Body: a bowl that tapers to the foot, shaded like a glazed cylinder.
  const body = () => {
    ctx.beginPath();
    ctx.moveTo(CX - RX, RIM_Y);
    ctx.bezierCurveTo(CX - RX + 4, RIM_Y + 170, CX - FOOT_RX - 40, FOOT_Y - 40, CX - FOOT_RX, FOOT_Y);
    ctx.ellipse(CX, FOOT_Y, FOOT_RX, 34, 0, Math.PI, 0, true);
    ctx.bezierCurveTo(CX + FOOT_RX + 40, FOOT_Y - 40, CX + RX - 4, RIM_Y + 170, CX + RX, RIM_Y);
    ctx.ellipse(CX, RIM_Y, RX, RY, 0, 0, Math.PI, false);
    ctx.closePath();
  };
  g = ctx.createLinearGradient(CX - RX, 0, CX + RX, 0);
  g.addColorStop(0, '#bdb4a8');
  g.addColorStop(0.12, '#e4ded6');
  g.addColorStop(0.3, '#fdfcfa');
  g.addColorStop(0.5, '#efebe5');
  g.addColorStop(0.8, '#cdc5ba');
  g.addColorStop(1, '#a89e92');
  ctx.fillStyle = g;
  body();
  ctx.fill();
  ctx.save();
  body();
  ctx.clip();
  g = ctx.createLinearGradient(0, RIM_Y, 0, FOOT_Y + 30);
  g.addColorStop(0, 'rgba(255,255,255,0)');
  g.addColorStop(0.7, 'rgba(120,100,80,0.08)');
  g.addColorStop(1, 'rgba(90,70,50,0.35)');
  ctx.fillStyle = g;
  ctx.fillRect(CX - RX, RIM_Y, RX * 2, FOOT_Y - RIM_Y + 40);
  // Glaze highlights: a window reflection and a soft streak.
  ctx.filter = 'blur(7px)';
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.beginPath();
  ctx.ellipse(CX - 128, RIM_Y + 150, 16, 96, -0.12, 0, Math.PI * 2);
  ctx.fill();
  ctx.filter = 'blur(20px)';
  ctx.fillStyle = 'rgba(255,250,240,0.5)';
  ctx.beginPath();
  ctx.ellipse(CX + 150, RIM_Y + 150, 18, 80, 0.15, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();

  // Rim and the cappuccino inside.
  ctx.fillStyle = '#f7f5f1';
  ctx.beginPath();
  ctx.ellipse(CX, RIM_Y, RX, RY, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#ddd6cc';
  ctx.beginPath();
  ctx.ellipse(CX, RIM_Y + 2, RX - 12, RY - 10, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.save();
  ctx.beginPath();
  ctx.ellipse(CX, RIM_Y + 2, RX - 12, RY - 10, 0, 0, Math.PI * 2);
  ctx.clip();
  g = ctx.createRadialGradient(CX, RIM_Y + 14, 10, CX, RIM_Y + 14, RX - 16);
  g.addColorStop(0, '#b77a46');
  g.addColorStop(0.75, '#8a532c');
  g.addColorStop(1, '#5e3519');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.ellipse(CX, RIM_Y + 12, RX - 20, RY - 16, 0, 0, Math.PI * 2);
  ctx.fill();
  // Latte art: a layered rosetta heart in milk foam.
  ctx.save();
  ctx.translate(CX + 6, RIM_Y + 12);
  ctx.scale(1, (RY - 16) / (RX - 20));
  ctx.filter = 'blur(2.5px)';
  const heart = (s) => {
    ctx.beginPath();
    ctx.moveTo(0, 120 * s);
    ctx.bezierCurveTo(-150 * s, 30 * s, -150 * s, -110 * s, -60 * s, -110 * s);
    ctx.bezierCurveTo(-20 * s, -110 * s, 0, -80 * s, 0, -60 * s);
    ctx.bezierCurveTo(0, -80 * s, 20 * s, -110 * s, 60 * s, -110 * s);
    ctx.bezierCurveTo(150 * s, -110 * s, 150 * s, 30 * s, 0, 120 * s);
    ctx.closePath();
  };
  ctx.rotate(-Math.PI / 2);
  const layersOf = [[1.28, '#f4e4cc'], [1.04, '#a86a3c'], [0.9, '#f6e8d2'], [0.66, '#a2643a'], [0.54, '#f8ecd8'], [0.32, '#9c6036'], [0.22, '#faf0e0']];
  for (const [s, col] of layersOf) {
    ctx.fillStyle = col;
    ctx.save();
    ctx.translate(-(1.28 - s) * 70, 0);
    heart(s);
    ctx.fill();
    ctx.restore();
  }
  ctx.strokeStyle = '#f4e4cc';
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.moveTo(-150, 0);
  ctx.lineTo(120, 0);
  ctx.stroke();
  ctx.restore();
  // Inner shadow where the foam meets the cup wall.
  ctx.strokeStyle = 'rgba(60,35,20,0.45)';
  ctx.filter = 'blur(6px)';
  ctx.lineWidth = 14;
  ctx.beginPath();
  ctx.ellipse(CX, RIM_Y + 2, RX - 12, RY - 10, 0, Math.PI * 1.05, Math.PI * 1.95);
  ctx.stroke();
  ctx.restore();
  ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.ellipse(CX, RIM_Y, RX - 2, RY - 2, 0, Math.PI * 1.1, Math.PI * 1.6);
  ctx.stroke();

  // Steam.
  ctx.save();
  ctx.filter = 'blur(9px)';
  ctx.lineCap = 'round';
  for (let i = 0; i < 4; i++) {
    const x0 = CX - 90 + i * 60 + rng() * 20;
    ctx.strokeStyle = `rgba(255,255,255,${0.16 + rng() * 0.08})`;
    ctx.lineWidth = 14 + rng() * 10;
    ctx.beginPath();
    ctx.moveTo(x0, RIM_Y - 20);
    ctx.bezierCurveTo(x0 - 50, RIM_Y - 120, x0 + 60, RIM_Y - 200, x0 + rng() * 30, RIM_Y - 300 - rng() * 80);
    ctx.stroke();
  }
  ctx.restore();

  // Spoon on the saucer, in front of the cup.
  ctx.save();
  ctx.translate(CX + 200, SAUCER_Y + 24);
  ctx.rotate(-0.28);
  ctx.filter = 'blur(6px)';
  ctx.fillStyle = 'rgba(80,60,40,0.35)';
  ctx.fillRect(-110, 8, 200, 12);
  ctx.filter = 'none';
  g = ctx.createLinearGradient(0, -8, 0, 8);
  g.addColorStop(0, '#f2f2f0');
  g.addColorStop(0.5, '#9d9a94');
  g.addColorStop(1, '#d8d6d2');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.roundRect(-120, -5, 170, 10, 5);
  ctx.fill();
  ctx.beginPath();
  ctx.ellipse(82, 0, 40, 17, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();

  // Sharp beans in the foreground.
  for (const [x, y, a, s] of [[230, 1380, 0.4, 1.15], [330, 1440, 1.9, 1.05], [820, 1420, 2.8, 1.1], [150, 1480, 1.3, 1.2]]) bean(x, y, a, s, 0);
  for (let i = 0; i < 6; i++) bean(80 + rng() * 900, 1500 + rng() * 90, rng() * 6, 1.2 + rng() * 0.2, 2.5);

  finish(ctx, W, H, { seed: 73, grain: 3.5, vignette: 0.22, warmth: 2 });
  return canvas;
}

// ── 4. sneaker on a flat backdrop ──────────────────────────────────────────────────────────────

/** The backdrop is one flat colour at every edge, so a contain-fitted photo blends into a panel of it. */
const SNEAKER_BACKDROP = [221, 231, 238]; // #dde7ee

function sneaker() {
  const W = 1600;
  const H = 1067;
  const rng = mulberry32(81);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = rgba(SNEAKER_BACKDROP);
  ctx.fillRect(0, 0, W, H);
  // Soft central light that fades to the flat colour well before the edges.
  const light = ctx.createRadialGradient(W / 2, H / 2 - 40, 0, W / 2, H / 2 - 40, 460);
  light.addColorStop(0, 'rgba(255,255,255,0.35)');
  light.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, W, H);
  // Floating shadow.
  ctx.save();
  ctx.filter = 'blur(30px)';
  ctx.fillStyle = 'rgba(60,80,100,0.30)';
  ctx.beginPath();
  ctx.ellipse(W / 2 + 10, 860, 420, 34, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.filter = 'blur(12px)';
  ctx.fillStyle = 'rgba(50,70,90,0.22)';
  ctx.beginPath();
  ctx.ellipse(W / 2 + 10, 860, 280, 14, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();

  const ACCENT = '#f2684a';
  const ACCENT_DARK = '#c9472c';
  ctx.save();
  ctx.translate(W / 2 + 10, H / 2 + 10);
  ctx.rotate(-0.13);
  ctx.scale(1.12, 1.12);
  ctx.translate(-500, -190);

  const upper = () => {
    ctx.beginPath();
    ctx.moveTo(28, 236);
    ctx.bezierCurveTo(-6, 180, -2, 110, 34, 66);
    ctx.bezierCurveTo(70, 52, 118, 62, 156, 88);
    ctx.bezierCurveTo(204, 118, 262, 118, 300, 92);
    ctx.lineTo(338, 36);
    ctx.bezierCurveTo(348, 14, 392, 10, 410, 28);
    ctx.lineTo(430, 70);
    ctx.bezierCurveTo(540, 112, 700, 150, 850, 186);
    ctx.bezierCurveTo(940, 206, 1000, 232, 990, 262);
    ctx.bezierCurveTo(800, 268, 500, 268, 300, 254);
    ctx.bezierCurveTo(150, 244, 60, 232, 28, 236);
    ctx.closePath();
  };
  const sole = () => {
    ctx.beginPath();
    ctx.moveTo(24, 226);
    ctx.bezierCurveTo(-2, 260, 6, 322, 44, 332);
    ctx.lineTo(820, 338);
    ctx.bezierCurveTo(900, 338, 976, 322, 1002, 288);
    ctx.bezierCurveTo(1010, 274, 1004, 258, 990, 256);
    ctx.bezierCurveTo(800, 266, 500, 266, 300, 252);
    ctx.bezierCurveTo(150, 242, 60, 224, 24, 226);
    ctx.closePath();
  };

  // Inside of the collar (lining), seen through the ankle opening.
  ctx.fillStyle = '#3b3f47';
  ctx.beginPath();
  ctx.moveTo(40, 70);
  ctx.bezierCurveTo(120, 40, 260, 40, 340, 40);
  ctx.lineTo(300, 96);
  ctx.bezierCurveTo(250, 124, 200, 120, 156, 92);
  ctx.bezierCurveTo(118, 66, 70, 58, 40, 70);
  ctx.fill();

  // Upper: off-white leather.
  let g = ctx.createLinearGradient(0, 20, 0, 260);
  g.addColorStop(0, '#ffffff');
  g.addColorStop(0.6, '#f3f1ee');
  g.addColorStop(1, '#d9d6d1');
  ctx.fillStyle = g;
  upper();
  ctx.fill();

  ctx.save();
  upper();
  ctx.clip();
  // Toe cap with perforations.
  ctx.fillStyle = '#f7f6f3';
  ctx.beginPath();
  ctx.moveTo(780, 170);
  ctx.bezierCurveTo(760, 200, 770, 240, 800, 270);
  ctx.lineTo(1010, 270);
  ctx.lineTo(1010, 150);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = 'rgba(120,115,110,0.45)';
  ctx.setLineDash([5, 5]);
  ctx.lineWidth = 1.6;
  ctx.beginPath();
  ctx.moveTo(792, 174);
  ctx.bezierCurveTo(772, 204, 782, 240, 810, 266);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = 'rgba(110,105,100,0.55)';
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 6; col++) {
      const x = 840 + col * 22 + (row % 2) * 11;
      const y = 204 + row * 14 - col * 3;
      if (x < 980) {
        ctx.beginPath();
        ctx.arc(x, y, 2.4, 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }
  // Heel counter in the accent colour.
  g = ctx.createLinearGradient(0, 60, 0, 240);
  g.addColorStop(0, ACCENT);
  g.addColorStop(1, ACCENT_DARK);
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.moveTo(28, 240);
  ctx.bezierCurveTo(-6, 180, -2, 110, 34, 66);
  ctx.bezierCurveTo(62, 56, 92, 60, 118, 70);
  ctx.bezierCurveTo(104, 130, 118, 200, 176, 250);
  ctx.closePath();
  ctx.fill();
  // Side stripe.
  g = ctx.createLinearGradient(200, 0, 720, 0);
  g.addColorStop(0, ACCENT_DARK);
  g.addColorStop(0.5, ACCENT);
  g.addColorStop(1, '#f58a6d');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.moveTo(190, 226);
  ctx.bezierCurveTo(360, 214, 540, 160, 730, 170);
  ctx.bezierCurveTo(560, 178, 380, 236, 230, 252);
  ctx.closePath();
  ctx.fill();
  // Eyestay.
  ctx.fillStyle = '#ebe8e3';
  ctx.beginPath();
  ctx.moveTo(396, 40);
  ctx.lineTo(436, 66);
  ctx.bezierCurveTo(540, 108, 640, 134, 720, 152);
  ctx.lineTo(700, 180);
  ctx.bezierCurveTo(600, 160, 480, 128, 392, 96);
  ctx.closePath();
  ctx.fill();
  // Stitching along the panels.
  ctx.strokeStyle = 'rgba(110,100,95,0.5)';
  ctx.setLineDash([6, 5]);
  ctx.lineWidth = 1.6;
  ctx.beginPath();
  ctx.moveTo(112, 82);
  ctx.bezierCurveTo(100, 140, 114, 200, 166, 246);
  ctx.moveTo(398, 90);
  ctx.bezierCurveTo(480, 122, 600, 154, 700, 174);
  ctx.moveTo(40, 236);
  ctx.bezierCurveTo(300, 246, 700, 262, 980, 254);
  ctx.stroke();
  ctx.setLineDash([]);
  // Shading: the upper is a rounded volume lit from above.
  g = ctx.createLinearGradient(0, 30, 0, 262);
  g.addColorStop(0, 'rgba(255,255,255,0.15)');
  g.addColorStop(0.55, 'rgba(0,0,0,0)');
  g.addColorStop(1, 'rgba(40,40,50,0.18)');
  ctx.fillStyle = g;
  ctx.fillRect(-20, 0, 1040, 280);
  ctx.restore();

  // Tongue label and heel pull tab.
  ctx.fillStyle = '#2b2f36';
  ctx.beginPath();
  ctx.roundRect(356, 30, 36, 22, 4);
  ctx.fill();
  ctx.fillStyle = ACCENT;
  ctx.fillRect(364, 38, 20, 6);
  ctx.fillStyle = ACCENT_DARK;
  ctx.beginPath();
  ctx.roundRect(22, 40, 26, 50, 8);
  ctx.fill();

  // Eyelets and laces.
  const eyelets = [];
  for (let i = 0; i < 6; i++) {
    const t = i / 5;
    eyelets.push([420 + t * 270, 78 + t * 78 + Math.sin(t * Math.PI) * 4]);
  }
  ctx.lineCap = 'round';
  for (let i = 0; i < eyelets.length - 1; i++) {
    const [x0, y0] = eyelets[i];
    const [x1, y1] = eyelets[i + 1];
    ctx.strokeStyle = 'rgba(40,40,50,0.25)';
    ctx.lineWidth = 12;
    ctx.beginPath();
    ctx.moveTo(x0 + 2, y0 - 16);
    ctx.lineTo(x1 + 4, y1 - 6);
    ctx.stroke();
    ctx.strokeStyle = '#fbfaf8';
    ctx.lineWidth = 9;
    ctx.beginPath();
    ctx.moveTo(x0, y0 - 20);
    ctx.lineTo(x1, y1 - 10);
    ctx.stroke();
    ctx.strokeStyle = 'rgba(180,175,170,0.8)';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x0, y0 - 16);
    ctx.lineTo(x1, y1 - 6);
    ctx.stroke();
  }
  for (const [x, y] of eyelets) {
    ctx.fillStyle = '#9a958e';
    ctx.beginPath();
    ctx.arc(x, y, 6, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#3a3a40';
    ctx.beginPath();
    ctx.arc(x, y, 3, 0, Math.PI * 2);
    ctx.fill();
  }
  // Lace ends hanging from the top eyelet.
  ctx.strokeStyle = '#f4f2ee';
  ctx.lineWidth = 8;
  ctx.beginPath();
  ctx.moveTo(420, 60);
  ctx.bezierCurveTo(400, 110, 420, 160, 380, 190);
  ctx.moveTo(424, 62);
  ctx.bezierCurveTo(460, 120, 450, 170, 470, 200);
  ctx.stroke();
  ctx.strokeStyle = '#2b2f36';
  ctx.lineWidth = 8;
  ctx.beginPath();
  ctx.moveTo(384, 186);
  ctx.lineTo(376, 200);
  ctx.moveTo(468, 196);
  ctx.lineTo(472, 212);
  ctx.stroke();

  // Sole: white foam midsole over a gum outsole.
  g = ctx.createLinearGradient(0, 226, 0, 338);
  g.addColorStop(0, '#ffffff');
  g.addColorStop(0.6, '#f1f0ed');
  g.addColorStop(1, '#cfccc7');
  ctx.fillStyle = g;
  sole();
  ctx.fill();
  ctx.save();
  sole();
  ctx.clip();
  ctx.strokeStyle = '#b98a5c';
  ctx.lineWidth = 34;
  ctx.beginPath();
  ctx.moveTo(0, 336);
  ctx.lineTo(820, 342);
  ctx.bezierCurveTo(900, 342, 980, 326, 1008, 290);
  ctx.stroke();
  ctx.strokeStyle = 'rgba(90,60,35,0.55)';
  ctx.lineWidth = 2;
  for (let x = 60; x < 960; x += 26) {
    ctx.beginPath();
    ctx.moveTo(x, 322 + (x > 860 ? -(x - 860) * 0.25 : 0));
    ctx.lineTo(x + 8, 340);
    ctx.stroke();
  }
  ctx.strokeStyle = 'rgba(150,145,140,0.5)';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(20, 286);
  ctx.bezierCurveTo(300, 296, 700, 300, 990, 282);
  ctx.stroke();
  ctx.filter = 'blur(6px)';
  ctx.strokeStyle = 'rgba(60,60,70,0.35)';
  ctx.lineWidth = 10;
  ctx.beginPath();
  ctx.moveTo(24, 226);
  ctx.bezierCurveTo(60, 224, 150, 242, 300, 252);
  ctx.bezierCurveTo(500, 266, 800, 266, 990, 256);
  ctx.stroke();
  ctx.restore();
  ctx.restore();

  finish(ctx, W, H, { seed: 83, grain: 1.5, vignette: 0 });
  void rng;
  return canvas;
}

// ── 5. northern lights over a lake (portrait) ──────────────────────────────────────────────────

function aurora() {
  const W = 1080;
  const H = 1920;
  const HY = 1420; // waterline
  const noise = makeNoise(91);
  const rng = mulberry32(92);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const px = pixels(ctx, W, H);

  const sky = [
    [0, [4, 8, 22]],
    [0.5, [8, 20, 40]],
    [0.85, [16, 44, 60]],
    [1, [34, 70, 78]],
  ];
  const peaks = ridge(W, HY - 30, [[180, 280, 300, 1.2], [520, 200, 240, 1.3], [860, 330, 320, 1.15], [1080, 220, 200, 1.1]], makeNoise(93), { detail: 50, scale: 70 });
  const hills = ridge(W, HY - 6, [[300, 40, 300, 1], [900, 60, 260, 1]], makeNoise(94), { detail: 12, scale: 50, fine: 3 });

  for (let y = 0; y < HY; y++) {
    const base = gradient(sky, y / HY);
    for (let x = 0; x < W; x++) {
      let c = base;
      // Two curtains of aurora: bright green at the lower edge, rays fading to violet above.
      for (const [yb, amp, ph, str] of [[760, 170, 0.4, 1], [520, 120, 2.2, 0.55]]) {
        const b = yb + amp * Math.sin(x / 240 + ph) + (noise.fbm(x / 300, ph, 3) - 0.5) * 160;
        const d = b - y;
        if (d < -60 || d > 900) continue;
        const rays = 0.35 + 0.65 * noise.fbm(x / 9 + d / 900, ph * 3, 3) ** 1.5;
        const falloff = d < 0 ? Math.exp(d / 14) : Math.exp(-d / (260 + 220 * noise.noise(x / 120, ph)));
        const fold = 0.6 + 0.4 * noise.noise(x / 60 + 11, ph);
        const I = falloff * rays * fold * str;
        const col = mix([90, 255, 170], [150, 90, 220], smoothstep(80, 520, d));
        c = screen(c, col, clamp(I * 1.2));
      }
      for (const [r, top, bottom, snow] of [[peaks, [36, 50, 74], [20, 30, 48], true], [hills, [8, 14, 22], [8, 14, 22], false]]) {
        const ry = r[x];
        const cov = clamp(y + 1 - ry);
        if (cov <= 0) continue;
        const lt = clamp((y - ry) / Math.max(20, HY - ry));
        let lc = mix(top, bottom, lt);
        if (snow) {
          // Snow fields on slopes, lit green-blue by the sky, with rocky gullies.
          const slope = (r[Math.min(W + 3, x + 3)] - r[Math.max(0, x - 3)]) / 6;
          const facing = clamp(0.5 - slope * 1.4);
          const gully = noise.fbm(x / 10 + y / 60, y / 160, 4);
          const snowAmt = smoothstep(0.42, 0.56, gully + (1 - lt) * 0.35 - lt * 0.3) * (1 - smoothstep(0.5, 0.95, lt));
          const snowCol = mix([70, 100, 120], [160, 205, 210], facing);
          lc = mix(lc, snowCol, snowAmt * 0.85);
          lc = mix(lc, [24, 46, 60], smoothstep(0.6, 1, lt) * 0.5);
        }
        c = mix(c, lc, cov);
      }
      px.set(x, y, c);
    }
  }
  px.put();

  // Stars (drawn over the sky only; the aurora is semi-transparent so they shine through a little).
  for (let i = 0; i < 700; i++) {
    const x = rng() * W;
    const y = rng() * (HY - 300);
    if (y > peaks[Math.floor(x)] - 4) continue;
    const a = 0.2 + rng() ** 2 * 0.8;
    const r = 0.5 + rng() ** 3 * 1.6;
    ctx.fillStyle = `rgba(255,255,255,${a})`;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
    if (r > 1.6) {
      const g = ctx.createRadialGradient(x, y, 0, x, y, r * 6);
      g.addColorStop(0, `rgba(200,230,255,${a * 0.4})`);
      g.addColorStop(1, 'rgba(200,230,255,0)');
      ctx.fillStyle = g;
      ctx.fillRect(x - r * 6, y - r * 6, r * 12, r * 12);
    }
  }

  // Spruce forest on the shore.
  ctx.fillStyle = '#060b12';
  for (let x = -10; x < W + 10; ) {
    const xi = clamp(Math.round(x), 0, W - 1);
    const dense = noise.noise(x / 90, 8.5);
    const h = 30 + rng() * 70 * (0.4 + dense) + (x < 200 || x > 880 ? 60 + rng() * 60 : 0);
    pine(ctx, x, hills[xi] + 6, h, h * (0.22 + rng() * 0.08), rng);
    x += 5 + rng() * 8;
  }
  ctx.fillRect(0, HY - 3, W, 3);

  const src = pixels(ctx, W, H);
  reflectWater(src, W, H, HY, makeNoise(95), { tint: [0.72, 0.8, 0.82], deep: [4, 10, 18], fresnel: [0.12, 0.7], ripple: 0.8 });
  src.put();

  // A snowy shore and rocks in the very front.
  ctx.fillStyle = '#0a121b';
  ctx.beginPath();
  ctx.moveTo(0, H - 150);
  ctx.bezierCurveTo(200, H - 190, 380, H - 120, 560, H - 100);
  ctx.bezierCurveTo(760, H - 80, 900, H - 130, W, H - 110);
  ctx.lineTo(W, H);
  ctx.lineTo(0, H);
  ctx.fill();
  ctx.fillStyle = 'rgba(120,170,180,0.35)';
  ctx.beginPath();
  ctx.moveTo(0, H - 150);
  ctx.bezierCurveTo(200, H - 190, 380, H - 120, 560, H - 100);
  ctx.bezierCurveTo(380, H - 112, 200, H - 172, 0, H - 138);
  ctx.fill();

  finish(ctx, W, H, { seed: 96, grain: 4, vignette: 0.3 });
  return canvas;
}

// ── encode and write ───────────────────────────────────────────────────────────────────────────

async function writeJpeg(canvas, name, folders) {
  const { width, height } = canvas;
  const raw = Buffer.from(canvas.getContext('2d').getImageData(0, 0, width, height).data.buffer);
  const bytes = await sharp(raw, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .jpeg({ quality: 85, chromaSubsampling: '4:2:0', mozjpeg: true })
    .toBuffer();
  for (const folder of folders) {
    const dir = join(examples, folder);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, name);
    writeFileSync(file, bytes);
    console.log(`${relative(root, file).padEnd(44)} ${width}x${height}  ${(statSync(file).size / 1024).toFixed(0)} KB`);
  }
}

const photos = [
  ['lake-sunset.jpg', lakeSunset, ['card-1080']],
  ['city-night.jpg', cityNight, ['card-1080']],
  ['coffee-cup.jpg', coffeeCup, ['banner-1200x628']],
  ['sneaker.jpg', sneaker, ['banner-1200x628']],
  ['aurora.jpg', aurora, ['story-1080x1920']],
];
const only = process.argv.slice(2);
for (const [name, paint, folders] of photos) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) continue;
  await writeJpeg(paint(), name, folders);
}
