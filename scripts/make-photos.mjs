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
import { createCanvas, Path2D } from '@napi-rs/canvas';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const examples = join(root, 'examples');

import { mulberry32, makeNoise, clamp, smoothstep, mix, screen, gradient, rgba, pixels, ridge, smoothSlope, reflectWater, finish, pine } from './photo-kit.mjs';

// ── 1. mountain lake at sunset ─────────────────────────────────────────────────────────────────

function lakeSunset() {
  const W = 1600;
  const H = 1067;
  const HY = 640; // waterline
  const SX = 1040;
  const SY = 556;
  const noise = makeNoise(11);
  const rng = mulberry32(12);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const px = pixels(ctx, W, H);

  const sky = [
    [0, [30, 36, 84]],
    [0.3, [70, 56, 116]],
    [0.55, [158, 78, 116]],
    [0.74, [226, 118, 86]],
    [0.9, [248, 166, 96]],
    [1, [255, 204, 130]],
  ];
  const far = ridge(
    W,
    HY - 64,
    [
      [180, 230, 260, 1.35],
      [330, 270, 230, 1.5],
      [560, 200, 220, 1.4],
      [720, 120, 160, 1.3],
      [1250, 170, 200, 1.4],
      [1400, 250, 230, 1.45],
      [1560, 200, 200, 1.3],
      [1040, 16, 150, 1],
    ],
    noise,
    { detail: 14, scale: 70 },
  );
  const mid = ridge(
    W,
    HY - 24,
    [
      [40, 200, 260, 1.3],
      [240, 130, 200, 1.4],
      [470, 150, 210, 1.45],
      [1200, 110, 200, 1.4],
      [1330, 150, 200, 1.4],
      [1560, 230, 260, 1.3],
    ],
    makeNoise(21),
    { detail: 11, scale: 60 },
  );
  const near = ridge(
    W,
    HY - 4,
    [
      [120, 56, 260, 1.2],
      [700, 24, 300, 1],
      [1480, 70, 260, 1.2],
    ],
    makeNoise(31),
    { detail: 5, scale: 50, fine: 2 },
  );

  const layers = [
    { r: far, top: [140, 86, 128], bottom: [204, 126, 126], mist: [238, 158, 126], mistAmt: 0.6, tex: 26, sunGlow: 0.55 },
    { r: mid, top: [70, 46, 90], bottom: [118, 72, 102], mist: [196, 116, 116], mistAmt: 0.55, tex: 22, sunGlow: 0.22 },
    { r: near, top: [30, 22, 44], bottom: [36, 26, 48], mist: [60, 40, 64], mistAmt: 0.2, tex: 8, sunGlow: 0.05 },
  ];

  for (const L of layers) L.slope = smoothSlope(L.r, 50);

  for (let y = 0; y < HY; y++) {
    const t = y / HY;
    const base = gradient(sky, t);
    for (let x = 0; x < W; x++) {
      const dx = x - SX;
      const dy = y - SY;
      const dist = Math.hypot(dx, dy * 1.6);
      const glow = Math.exp(-dist / 130) * 0.9 + Math.exp(-dist / 520) * 0.4;
      let c = screen(base, [255, 196, 128], glow);
      // Streaky altocumulus, lit from below by the low sun, darker and bluer away from it.
      const z = (noise.fbm(x / 640 + 3.1, y / 46 + 1.7, 6, 0.58) - 0.47) / 0.12;
      const band = smoothstep(0.04, 0.2, t) * (1 - smoothstep(0.62, 0.84, t));
      const dens = smoothstep(0.2, 1.5, z) * band;
      if (dens > 0) {
        const detail = (noise.fbm(x / 60, y / 14 + 50, 3) - 0.47) / 0.13;
        const lit = clamp(Math.exp(-Math.abs(dx) / 700) * (0.25 + 0.9 * t) + 0.08 + detail * 0.06);
        let cc = mix([54, 38, 82], [250, 138, 100], lit);
        // Bright undersides and edges where the cloud thins.
        const edge = 1 - smoothstep(0.2, 0.9, z);
        cc = mix(cc, [255, 206, 150], clamp(edge * lit * 1.1));
        c = mix(c, cc, clamp(dens * (0.8 + detail * 0.08)));
      }
      // The sun disc, sitting on the far ridge.
      const sd = Math.hypot(dx, dy);
      c = mix(c, [255, 250, 234], 1 - smoothstep(29, 33, sd));
      for (const L of layers) {
        const r = L.r[x];
        const cov = clamp(y + 1 - r);
        if (cov <= 0) continue;
        const lt = clamp((y - r) / Math.max(20, HY - r));
        let lc = mix(L.top, L.bottom, lt ** 0.7);
        // Rock faces: broad slopes facing the sun are lighter; bump-shaded gullies and patches on top.
        const facing = clamp(0.5 + L.slope[x] * 1.3);
        const bump = ((noise.fbm((x + 1.5) / 34, y / 80 + 40, 4) - noise.fbm((x - 1.5) / 34, y / 80 + 40, 4)) / 0.12) * 9;
        const fineBump = ((noise.fbm((x + 1) / 9, y / 24, 2) - noise.fbm((x - 1) / 9, y / 24, 2)) / 0.14) * 3;
        const patch = (noise.fbm(x / 90, y / 60 + 9, 4) - 0.47) / 0.12;
        const tex = (facing - 0.5) * L.tex + clamp(bump + fineBump, -1.5, 1.5) * L.tex * 0.35 + patch * L.tex * 0.15;
        lc = [lc[0] + tex, lc[1] + tex * 0.85, lc[2] + tex * 0.8];
        lc = mix(lc, L.mist, smoothstep(0.4, 1, lt) * L.mistAmt);
        lc = screen(lc, [255, 170, 110], glow * L.sunGlow);
        // Rim light along the crest close to the sun.
        const rim = (1 - smoothstep(0, 3, y - r)) * Math.exp(-Math.abs(dx) / 240) * L.sunGlow;
        lc = mix(lc, [255, 214, 156], rim * 0.9);
        c = mix(c, lc, cov);
      }
      px.set(x, y, c);
    }
  }
  px.put();

  // Conifers on the near shore.
  ctx.fillStyle = rgba([28, 20, 40]);
  for (let x = -10; x < W + 10;) {
    const xi = clamp(Math.round(x), 0, W - 1);
    const dense = noise.noise(x / 120, 5.5);
    if (dense > 0.3) {
      const h = 14 + rng() * 44 * (0.5 + dense);
      pine(ctx, x, near[xi] + 4, h, h * (0.3 + rng() * 0.12), rng);
    }
    x += 3 + rng() * 8;
  }
  ctx.fillRect(0, HY - 3, W, 3);

  const src = pixels(ctx, W, H);
  const wn = makeNoise(41);
  reflectWater(src, W, H, HY, wn, {
    tint: [0.76, 0.74, 0.86],
    deep: [24, 22, 46],
    fresnel: [0.1, 0.6],
    ripple: 1.2,
    extra: (c, x, y, u, k) => {
      // Wind lines: faint horizontal bands where the surface is rougher.
      const wind = wn.fbm(x / 900 + 7, u / (4 + u * 0.1), 3);
      c = mix(c, [c[0] * 0.82, c[1] * 0.84, c[2] * 0.95], smoothstep(0.45, 0.62, wind));
      // Sun glitter: a narrow path of short sparkles under the sun, widening towards the viewer.
      const g = Math.exp(-(((x - SX) / (12 + u * 0.22)) ** 2));
      if (g < 0.01) return c;
      const s1 = wn.noise(x / (1.6 + u * 0.025) + 500, u / (0.6 + u * 0.006));
      const s2 = wn.noise(x / (5 + u * 0.06) + 900, u / (1.2 + u * 0.015) + 40);
      const sp = smoothstep(0.6, 0.92, s1 * 0.65 + s2 * 0.35);
      c = screen(c, [255, 160, 96], g * 0.4 * (1 - k * 0.7));
      return screen(c, [255, 226, 176], g * sp * (1.1 - k * 0.6));
    },
  });
  src.put();

  // Foreground: a dark shoreline with rocks and reeds in the lower left corner.
  ctx.fillStyle = rgba([14, 10, 22]);
  ctx.beginPath();
  ctx.moveTo(0, H - 120);
  ctx.bezierCurveTo(70, H - 132, 130, H - 118, 190, H - 92);
  ctx.bezierCurveTo(260, H - 66, 340, H - 38, 420, H - 28);
  ctx.bezierCurveTo(470, H - 20, 500, H - 8, 520, H);
  ctx.lineTo(0, H);
  ctx.closePath();
  ctx.fill();
  for (const [rx, ry, rw, rh] of [
    [120, H - 96, 70, 30],
    [250, H - 60, 54, 22],
    [360, H - 34, 40, 16],
  ]) {
    ctx.fillStyle = rgba([18, 13, 26]);
    ctx.beginPath();
    ctx.ellipse(rx, ry, rw, rh, 0, Math.PI, 0);
    ctx.fill();
    ctx.strokeStyle = rgba([255, 150, 104], 0.28);
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.ellipse(rx, ry, rw - 1, rh - 1, 0, Math.PI * 1.45, Math.PI * 1.95);
    ctx.stroke();
  }
  ctx.strokeStyle = rgba([12, 8, 18]);
  for (let i = 0; i < 60; i++) {
    const x0 = rng() * 260;
    const hgt = 60 + rng() * 170;
    const bend = 10 + rng() * 50;
    ctx.lineWidth = 1.2 + rng() * 2.2;
    ctx.beginPath();
    ctx.moveTo(x0, H - 100 + x0 * 0.2);
    ctx.quadraticCurveTo(x0 + bend * 0.3, H - 100 - hgt * 0.6, x0 + bend, H - 100 - hgt);
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
  for (const [mx, my, mr] of [
    [1312, 112, 6],
    [1328, 128, 4],
    [1326, 110, 3],
  ]) {
    ctx.beginPath();
    ctx.arc(mx, my, mr, 0, Math.PI * 2);
    ctx.fill();
  }

  const lights = createCanvas(W, H);
  const lctx = lights.getContext('2d');
  const warm = [
    [255, 214, 150],
    [255, 196, 120],
    [255, 236, 196],
    [210, 228, 255],
    [255, 226, 170],
  ];

  function building(x, w, h, body, opts) {
    const top = HY - h;
    const g = ctx.createLinearGradient(0, top, 0, HY);
    g.addColorStop(0, rgba(mix(body, [255, 255, 255], opts.sheen ?? 0.04)));
    g.addColorStop(1, rgba(body));
    ctx.fillStyle = g;
    const shape = new Path2D();
    if (opts.roof === 'spire') {
      shape.moveTo(x, HY);
      shape.lineTo(x, top + 40);
      shape.lineTo(x + w * 0.2, top + 20);
      shape.lineTo(x + w * 0.8, top + 20);
      shape.lineTo(x + w, top + 40);
      shape.lineTo(x + w, HY);
      shape.closePath();
      shape.rect(x + w / 2 - 3, top - 110, 6, 140);
      shape.rect(x + w * 0.3, top + 5, w * 0.4, 20);
    } else if (opts.roof === 'stepped') {
      shape.moveTo(x, HY);
      shape.lineTo(x, top + 60);
      shape.lineTo(x + w * 0.12, top + 60);
      shape.lineTo(x + w * 0.12, top + 28);
      shape.lineTo(x + w * 0.26, top + 28);
      shape.lineTo(x + w * 0.26, top);
      shape.lineTo(x + w * 0.74, top);
      shape.lineTo(x + w * 0.74, top + 28);
      shape.lineTo(x + w * 0.88, top + 28);
      shape.lineTo(x + w * 0.88, top + 60);
      shape.lineTo(x + w, top + 60);
      shape.lineTo(x + w, HY);
      shape.closePath();
    } else if (opts.roof === 'slant') {
      shape.moveTo(x, HY);
      shape.lineTo(x, top + w * 0.5);
      shape.lineTo(x + w, top);
      shape.lineTo(x + w, HY);
      shape.closePath();
    } else {
      shape.rect(x, top, w, h);
      if (opts.antenna) shape.rect(x + w * 0.6, top - opts.antenna, 3, opts.antenna);
    }
    ctx.fill(shape);
    // The building hides the lights of everything behind it.
    lctx.save();
    lctx.globalCompositeOperation = 'destination-out';
    lctx.fill(shape);
    lctx.restore();
    // A faintly lit side facade gives the block depth.
    if (opts.side) {
      ctx.fillStyle = rgba(mix(body, [90, 100, 150], 0.18));
      ctx.fillRect(x + w * 0.72, top + (opts.roof ? 60 : 0), w * 0.28, h - (opts.roof ? 60 : 0));
    }
    // Windows: a faint grid of dark glass, then lit offices that cluster by floor.
    const rowH = opts.rowH ?? 11 + Math.floor(rng() * 4);
    const colW = opts.colW ?? 8 + Math.floor(rng() * 4);
    const litP = opts.lit ?? 0.45;
    const wy0 = top + (opts.roof ? 70 : 10);
    const tone = warm[Math.floor(rng() * warm.length)];
    const cool = rng() < 0.2; // office towers with cool fluorescent light
    for (let wy = wy0; wy < HY - 8; wy += rowH) {
      const floor = noise.noise(x / 7 + wy / 40, wy / 23);
      for (let wx = x + 5; wx < x + w - 6; wx += colW) {
        ctx.fillStyle = 'rgba(120,140,190,0.07)';
        ctx.fillRect(wx, wy, colW * 0.55, rowH * 0.55);
        const p = floor > 0.62 ? litP * 1.6 : floor < 0.35 ? litP * 0.2 : litP * 0.7;
        if (rng() > p) continue;
        const c = cool ? (rng() < 0.85 ? [214, 232, 255] : tone) : rng() < 0.8 ? tone : warm[Math.floor(rng() * warm.length)];
        const a = (0.3 + rng() ** 0.7 * 0.7) * (opts.dim ?? 1);
        lctx.fillStyle = rgba(c, a);
        lctx.fillRect(wx, wy, colW * 0.55, rowH * 0.55);
      }
    }
    if (opts.crown) {
      lctx.fillStyle = rgba(opts.crown, 0.9);
      const [cx0, cx1] = opts.roof === 'stepped' ? [0.26, 0.74] : opts.roof === 'spire' ? [0.2, 0.8] : [0, 1];
      lctx.fillRect(x + w * cx0 + 2, top + 24, w * (cx1 - cx0) - 4, 3);
      lctx.fillRect(x + w * cx0 + 2, top + 34, w * (cx1 - cx0) - 4, 2);
    }
    if (h > 260 && !opts.dim) {
      lctx.fillStyle = 'rgba(255,60,50,0.95)';
      lctx.beginPath();
      lctx.arc(x + w / 2, top - (opts.roof === 'spire' ? 110 : (opts.antenna ?? 0)), 3, 0, Math.PI * 2);
      lctx.fill();
    }
  }

  // Far layer: hazy, dim.
  for (let x = -20; x < W;) {
    const w = 30 + rng() * 60;
    const h = 60 + rng() * 150 * (0.6 + noise.noise(x / 200, 2));
    building(x, w, h, [44, 44, 80], { lit: 0.25, dim: 0.45, rowH: 8, colW: 6 });
    x += w * (0.7 + rng() * 0.3);
  }
  // Mid layer.
  for (let x = -30; x < W;) {
    const w = 50 + rng() * 80;
    const center = Math.exp(-(((x - 760) / 420) ** 2));
    const h = 90 + rng() * 160 + center * 140;
    building(x, w, h, [22, 24, 46], { lit: 0.2, side: rng() < 0.5, antenna: rng() < 0.3 ? 20 + rng() * 40 : 0 });
    x += w + rng() * 12;
  }
  // Landmark towers.
  building(640, 92, 520, [14, 16, 32], { roof: 'spire', lit: 0.4, side: true, rowH: 12, colW: 9, crown: [150, 220, 255] });
  building(812, 120, 400, [16, 18, 36], { roof: 'stepped', lit: 0.35, side: true, crown: [255, 190, 120] });
  building(470, 84, 430, [15, 17, 34], { roof: 'slant', lit: 0.35, side: true });
  building(1040, 110, 360, [18, 20, 38], { lit: 0.4, side: true, antenna: 70 });
  building(330, 100, 300, [17, 19, 36], { lit: 0.3, side: true });
  building(1230, 96, 280, [17, 19, 36], { lit: 0.3, side: true, antenna: 36 });
  // Embankment with street lamps.
  ctx.fillStyle = '#07080f';
  ctx.fillRect(0, HY - 14, W, 14);
  for (let x = 12; x < W; x += 46) {
    lctx.fillStyle = 'rgba(255,190,110,1)';
    lctx.beginPath();
    lctx.arc(x, HY - 18, 2.6, 0, Math.PI * 2);
    lctx.fill();
  }
  // Traffic on the embankment road: streaks of head and tail lights.
  for (let i = 0; i < 40; i++) {
    const x = rng() * W;
    const len = 20 + rng() * 60;
    lctx.fillStyle = rng() < 0.5 ? 'rgba(255,80,60,0.8)' : 'rgba(255,236,200,0.85)';
    lctx.fillRect(x, HY - 8 - rng() * 3, len, 1.6);
  }

  // Bloom: the lights once sharp, once blurred on top.
  ctx.drawImage(lights, 0, 0);
  ctx.save();
  ctx.globalCompositeOperation = 'lighter';
  ctx.filter = 'blur(6px)';
  ctx.globalAlpha = 0.6;
  ctx.drawImage(lights, 0, 0);
  ctx.filter = 'blur(24px)';
  ctx.globalAlpha = 0.7;
  ctx.drawImage(lights, 0, 0);
  ctx.restore();

  const src = pixels(ctx, W, H);
  reflectWater(src, W, H, HY, makeNoise(61), {
    tint: [0.85, 0.82, 0.9],
    deep: [6, 8, 20],
    fresnel: [0.08, 0.45],
    ripple: 1,
    streak: 0.9,
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
  const LIFT = 130; // the set sits a little above the middle of the frame
  const TABLE = 960 - LIFT; // where the table meets the wall (soft)

  // Wall and table: warm seamless paper, lit from the upper left.
  const px = pixels(ctx, W, H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const wall = mix([214, 190, 164], [232, 214, 192], clamp(1 - Math.hypot(x - 300, y - 400) / 1300));
      const table = mix([206, 178, 148], [188, 158, 128], clamp((y - TABLE) / (H - TABLE)));
      const t = smoothstep(TABLE - 30, TABLE + 60, y);
      let c = mix(wall, table, t);
      const light = Math.exp(-Math.hypot(x - 520, (y - 760 + LIFT) * 0.8) / 520) * 0.35;
      c = screen(c, [255, 244, 226], light);
      // Linen texture on the table.
      const tex = (noise.noise(x / 1.6, y / 40) - 0.5) * 6 * t + (noise.fbm(x / 90, y / 30, 3) - 0.5) * 10 * t;
      px.set(x, y, [c[0] + tex, c[1] + tex, c[2] + tex]);
    }
  }
  px.put();

  const CX = 540;
  const SAUCER_Y = 1190 - LIFT;
  const RIM_Y = 860 - LIFT;
  const RX = 236;
  const RY = 66;
  const FOOT_Y = 1150 - LIFT;
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
  for (const [x, y, a, s] of [
    [190, 1010, 0.6, 0.8],
    [250, 990, 2.1, 0.75],
    [880, 1000, 1.2, 0.8],
    [960, 1030, 2.6, 0.85],
  ])
    bean(x, y - LIFT, a, s, 4);

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
  // The heart points at the viewer; smaller inner hearts stack towards the back, as poured.
  const layersOf = [
    [1.2, '#f4e4cc'],
    [0.98, '#a86a3c'],
    [0.84, '#f6e8d2'],
    [0.62, '#a2643a'],
    [0.5, '#f8ecd8'],
    [0.3, '#9c6036'],
    [0.2, '#faf0e0'],
  ];
  for (const [sc, col] of layersOf) {
    ctx.fillStyle = col;
    ctx.save();
    ctx.translate(0, -(1.2 - sc) * 46);
    heart(sc);
    ctx.fill();
    ctx.restore();
  }
  ctx.strokeStyle = '#f4e4cc';
  ctx.lineWidth = 5;
  ctx.beginPath();
  ctx.moveTo(0, -150);
  ctx.lineTo(0, 138);
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

  // Steam: soft, wide and barely there.
  ctx.save();
  ctx.lineCap = 'round';
  for (let i = 0; i < 3; i++) {
    const x0 = CX - 70 + i * 70 + rng() * 20;
    ctx.filter = 'blur(16px)';
    ctx.strokeStyle = `rgba(255,255,255,${0.12 + rng() * 0.06})`;
    ctx.lineWidth = 26 + rng() * 14;
    ctx.beginPath();
    ctx.moveTo(x0, RIM_Y - 10);
    ctx.bezierCurveTo(x0 - 60, RIM_Y - 130, x0 + 70, RIM_Y - 210, x0 + rng() * 40 - 20, RIM_Y - 330 - rng() * 80);
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
  for (const [x, y, a, s] of [
    [230, 1380, 0.4, 1.15],
    [330, 1440, 1.9, 1.05],
    [820, 1420, 2.8, 1.1],
    [150, 1480, 1.3, 1.2],
  ])
    bean(x, y - LIFT * 0.6, a, s, 0);
  for (let i = 0; i < 6; i++) bean(80 + rng() * 900, 1480 + rng() * 100, rng() * 6, 1.2 + rng() * 0.2, 2.5);

  finish(ctx, W, H, { seed: 73, grain: 3.5, vignette: 0.22, warmth: 2 });
  return canvas;
}

// ── 4. sneaker on a flat backdrop ──────────────────────────────────────────────────────────────

/** The backdrop is one flat colour at every edge, so a contain-fitted photo blends into a panel of it. */
const SNEAKER_BACKDROP = [221, 231, 238]; // #dde7ee; after the JPEG round trip the edges read #dde8ee (banner panel override)

function sneaker() {
  const W = 1600;
  const H = 1067;
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
  ctx.rotate(-0.1);
  ctx.scale(1.12, 1.12);
  ctx.translate(-500, -190);

  const upper = () => {
    ctx.beginPath();
    ctx.moveTo(28, 236);
    ctx.bezierCurveTo(-8, 180, -4, 100, 30, 56);
    ctx.bezierCurveTo(62, 42, 112, 50, 152, 74);
    ctx.bezierCurveTo(200, 102, 252, 104, 292, 80);
    ctx.lineTo(330, 24);
    ctx.bezierCurveTo(340, 4, 388, 0, 404, 18);
    ctx.lineTo(424, 60);
    ctx.bezierCurveTo(530, 80, 650, 94, 770, 104);
    ctx.bezierCurveTo(860, 112, 930, 124, 966, 152);
    ctx.bezierCurveTo(1004, 182, 1006, 236, 990, 262);
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
  ctx.moveTo(36, 60);
  ctx.bezierCurveTo(120, 30, 260, 26, 336, 30);
  ctx.lineTo(296, 84);
  ctx.bezierCurveTo(252, 110, 200, 106, 154, 78);
  ctx.bezierCurveTo(116, 54, 66, 46, 36, 60);
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
  ctx.moveTo(810, 100);
  ctx.bezierCurveTo(770, 160, 776, 230, 806, 270);
  ctx.lineTo(1010, 270);
  ctx.lineTo(1010, 150);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = 'rgba(120,115,110,0.45)';
  ctx.setLineDash([5, 5]);
  ctx.lineWidth = 1.6;
  ctx.beginPath();
  ctx.moveTo(822, 108);
  ctx.bezierCurveTo(784, 164, 788, 230, 816, 266);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = 'rgba(110,105,100,0.55)';
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 6; col++) {
      const x = 850 + col * 22 + (row % 2) * 11;
      const y = 150 + row * 16 + col * 2;
      if (x < 970 - row * 6) {
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
  ctx.bezierCurveTo(-8, 180, -4, 100, 30, 56);
  ctx.bezierCurveTo(60, 46, 92, 50, 118, 60);
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
  ctx.bezierCurveTo(360, 210, 540, 140, 740, 136);
  ctx.bezierCurveTo(560, 160, 380, 236, 230, 252);
  ctx.closePath();
  ctx.fill();
  // Eyestay.
  ctx.fillStyle = '#ebe8e3';
  ctx.beginPath();
  ctx.moveTo(396, 40);
  ctx.lineTo(436, 64);
  ctx.bezierCurveTo(540, 84, 640, 96, 730, 102);
  ctx.lineTo(716, 134);
  ctx.bezierCurveTo(620, 128, 490, 116, 392, 96);
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
  ctx.bezierCurveTo(490, 110, 620, 122, 712, 128);
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
  ctx.roundRect(352, 20, 36, 22, 4);
  ctx.fill();
  ctx.fillStyle = ACCENT;
  ctx.fillRect(360, 28, 20, 6);
  ctx.fillStyle = ACCENT_DARK;
  ctx.beginPath();
  ctx.roundRect(18, 28, 26, 50, 8);
  ctx.fill();

  // Eyelets and laces.
  const eyelets = [];
  for (let i = 0; i < 6; i++) {
    const t = i / 5;
    eyelets.push([432 + t * 262, 84 + t * 34 - Math.sin(t * Math.PI) * 3]);
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

  const sky = ctx.createLinearGradient(0, 0, 0, HY);
  sky.addColorStop(0, '#050a1a');
  sky.addColorStop(0.6, '#071226');
  sky.addColorStop(0.9, '#0c2230');
  sky.addColorStop(1, '#1a3a44');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, W, HY);
  // Stars first, so the aurora glows over them.
  for (let i = 0; i < 900; i++) {
    const x = rng() * W;
    const y = rng() * (HY - 200);
    const a = 0.2 + rng() ** 2 * 0.8;
    const r = 0.5 + rng() ** 3 * 1.5;
    ctx.fillStyle = `rgba(255,255,255,${a})`;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
    if (r > 1.5) {
      const g = ctx.createRadialGradient(x, y, 0, x, y, r * 6);
      g.addColorStop(0, `rgba(200,230,255,${a * 0.4})`);
      g.addColorStop(1, 'rgba(200,230,255,0)');
      ctx.fillStyle = g;
      ctx.fillRect(x - r * 6, y - r * 6, r * 12, r * 12);
    }
  }
  const px = pixels(ctx, W, H);

  const peaks = ridge(
    W,
    HY - 34,
    [
      [120, 250, 240, 1.4],
      [330, 190, 200, 1.5],
      [560, 150, 220, 1.4],
      [820, 320, 260, 1.35],
      [1060, 230, 200, 1.3],
    ],
    makeNoise(93),
    { detail: 14, scale: 55 },
  );
  const hills = ridge(
    W,
    HY - 6,
    [
      [300, 40, 300, 1],
      [900, 60, 260, 1],
    ],
    makeNoise(94),
    { detail: 5, scale: 50, fine: 2 },
  );
  const slope = smoothSlope(peaks, 40);
  const ribbons = [
    // lower edge y at x = 0, drift per px, wave amplitude, wavelength, phase, ray height, strength
    [1010, -0.62, 110, 250, 0.4, 120, 1],
    [940, -0.5, 90, 170, 1.7, 80, 0.6],
    [500, -0.15, 70, 330, 2.2, 90, 0.35],
  ];
  // Airglow: a faint green haze over the whole lower sky.
  const airglow = (y) => smoothstep(HY - 300, HY, y) * 0.1;

  for (let y = 0; y < HY; y++) {
    for (let x = 0; x < W; x++) {
      let c = screen(px.get(x, y), [60, 200, 140], airglow(y));
      for (const [y0, drift, amp, wl, ph, rh, str] of ribbons) {
        const b = y0 + drift * x + amp * Math.sin(x / wl + ph) + (noise.fbm(x / 200, ph, 3) - 0.47) * 120;
        const d = b - y; // height above the ribbon's lower edge
        if (d < -200 || d > 900) continue;
        const rz = (noise.fbm(x / 5 + y * 0.006, ph * 3, 3) - 0.47) / 0.14;
        const rays = clamp(0.5 + 0.4 * rz);
        const bundles = 0.05 + 0.95 * smoothstep(0.2, 0.75, noise.noise(x / 50 + 11, ph));
        const height = rh * (0.6 + 0.8 * noise.noise(x / 90, ph + 5));
        let I;
        if (d < 0) I = Math.exp(d / 7) * 0.85 * bundles;
        else I = (Math.exp(-d / height) * rays + Math.exp(-d / (height * 3)) * 0.08) * bundles;
        const col = d < 0 ? [110, 255, 180] : mix([110, 255, 175], [150, 80, 215], smoothstep(height * 0.3, height * 2, d));
        c = screen(c, col, clamp(I * 1.2 * str));
      }
      for (const [r, isPeak] of [
        [peaks, true],
        [hills, false],
      ]) {
        const ry = r[x];
        const cov = clamp(y + 1 - ry);
        if (cov <= 0) continue;
        let lc = [8, 14, 22];
        if (isPeak) {
          const lt = clamp((y - ry) / Math.max(20, HY - ry));
          // Rock with snow fields; slopes facing left catch the aurora light.
          const facing = clamp(0.5 - slope[x] * 1.4);
          const bump = ((noise.fbm((x + 1.5) / 26, y / 60 + 40, 4) - noise.fbm((x - 1.5) / 26, y / 60 + 40, 4)) / 0.12) * 9;
          const n = (noise.fbm(x / 12 + (y - ry) * slope[x] * 0.06, y / 70 + 7, 5) - 0.47) / 0.12;
          const snowAmt = smoothstep(-0.4, 0.5, n * 0.5 + (1 - lt) * 1.3 - lt * 1.1 - bump * 0.2);
          const lightness = clamp(facing * 0.8 + clamp(-bump, -1, 1) * 0.25 + 0.1);
          const rock = mix([14, 20, 32], [40, 56, 70], lightness);
          const snow = mix([46, 72, 92], [150, 196, 200], lightness);
          lc = mix(rock, snow, snowAmt * 0.9);
          lc = mix(lc, [30, 60, 70], smoothstep(0.55, 1, lt) * 0.45); // valley mist
        }
        c = mix(c, lc, cov);
      }
      px.set(x, y, c);
    }
  }
  px.put();

  // Spruce forest on the shore.
  ctx.fillStyle = '#060b12';
  for (let x = -10; x < W + 10;) {
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
    console.log(`${relative(root, file).padEnd(44)} ${width}x${height}  ${(statSync(file).size / 1000).toFixed(0)} kB`);
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
