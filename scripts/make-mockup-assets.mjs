#!/usr/bin/env node
// Generates the assets of the mockup-phone example and writes them into examples/mockup-phone/:
//   studio-phone.png   1600x1200  smartphone lying on a seamless paper backdrop, 3/4 view (the base)
//   backdrop-mask.png  1600x1200  alpha: opaque on the backdrop and shadow, transparent on the phone
//   glare.png          1600x1200  soft diagonal glare inside the screen quad (blend: screen)
//   screen-home.png    1170x2532  fitness app, home screen
//   screen-promo.png   1170x2532  fitness app, premium sale screen
//   landscape-shot.jpg 1600x900   alpine lake photo (a landscape source for the portrait screen quad)
// Deterministic: every random choice comes from a seeded PRNG, nothing is fetched, and text uses only
// the bundled Inter faces (registered under private names). The phone is ray-marched as a signed-distance solid (rounded slab, buttons)
// seen through a perspective camera, so the screen corners are exact projections of the display
// rectangle; they are printed at the end (base-image pixels, pixel edges at integers, as warp.ts maps
// them) and must match the `screen` quad in examples/mockup-phone/design.json. The display corners sit
// on the flat glass, inside the squarish body corners, so a rectangular screenshot covers the dark
// display exactly. Painted with @napi-rs/canvas plus per-pixel passes; encoded with sharp.
// Run: node scripts/make-mockup-assets.mjs [name prefix ...]   (e.g. `screen` redoes only the screens)
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'examples', 'mockup-phone');

GlobalFonts.registerFromPath(join(root, 'node_modules', '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'), 'Mock Inter');
GlobalFonts.registerFromPath(join(root, 'node_modules', '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'), 'Mock Inter Bold');

import { mulberry32, makeNoise, clamp, smoothstep, mix, screen, gradient, rgba, pixels, ridge, smoothSlope, reflectWater, finish, pine } from './photo-kit.mjs';

// ── vector helpers ──────────────────────────────────────────────────────────────────────────────

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};
/** Linear light (0..1+) to an sRGB byte. */
const toByte = (v) => Math.round(255 * clamp(v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055));

// ════════════════════════════════════════════════════════════════════════════════════════════════
// 1. The studio shot: phone, mask and glare
// ════════════════════════════════════════════════════════════════════════════════════════════════

const BW = 1600;
const BH = 1200;

// Phone geometry in millimetres, local frame: u to the right of the screen, v down the screen
// (top of the phone at v < 0), w out of the screen; the back lies on the table at w = 0.
const PH = {
  w: 71.6, // body width
  h: 147.6, // body height
  t: 7.9, // thickness
  corner: 6.5, // corner radius seen from the front: squarish, so the rectangular display fits snugly
  edge: 1.2, // rounding of the front and back edges
};
const SCREEN_AR = 1170 / 2532;
PH.dw = PH.w - 2 * 3.2; // display width: 3.2 mm from the body edge (frame and black border) at the sides
PH.dh = PH.dw / SCREEN_AR; // display height keeps the screenshot aspect ratio, so cover crops nothing
PH.dr = 0.8; // display corner radius: small, so a rectangular screenshot covers the dark area exactly

// Buttons: [side (-1 left, +1 right), v centre, half length], in mm.
const BUTTONS = [
  [1, -34, 11], // volume rocker
  [1, -11.5, 5.2], // power key
];

// Scene: phone centre on the table at the origin, world z up, camera in front (-y) and above.
// ALPHA: the top of the phone is turned this far to the right of straight away from the camera. At
// 46.3° the foreshortening shrinks both screen axes alike, so the quad's mean edge lengths (what the
// engine's cover/contain use) keep the screenshot aspect ratio: see the check printed at the end.
const ALPHA = (46.3 * Math.PI) / 180;
const ELEV = (49 * Math.PI) / 180; // camera elevation above the table
const DIST = 400; // camera distance to the phone centre, mm
const FOCAL = 2700; // px
const eU = [Math.cos(ALPHA), -Math.sin(ALPHA), 0];
const eV = [-Math.sin(ALPHA), -Math.cos(ALPHA), 0];
const P0 = [6, 2, 0]; // phone origin (centre of the back) in world mm
const TARGET = [0, 0, PH.t / 2];
const CAM = [TARGET[0], TARGET[1] - DIST * Math.cos(ELEV), TARGET[2] + DIST * Math.sin(ELEV)];
const FWD = norm([TARGET[0] - CAM[0], TARGET[1] - CAM[1], TARGET[2] - CAM[2]]);
const RIGHT = norm(cross(FWD, [0, 0, 1]));
const UP = cross(RIGHT, FWD);
const CX = BW / 2 + 10;
const CY = BH / 2 + 8;

const toWorld = (u, v, w) => [P0[0] + u * eU[0] + v * eV[0], P0[1] + u * eU[1] + v * eV[1], w];
function project(p) {
  const d = [p[0] - CAM[0], p[1] - CAM[1], p[2] - CAM[2]];
  const z = dot(d, FWD);
  return [CX + (FOCAL * dot(d, RIGHT)) / z, CY - (FOCAL * dot(d, UP)) / z];
}
/** Ray direction through the continuous image point (x, y) (pixel centres at +0.5). */
function rayDir(x, y) {
  const a = (x - CX) / FOCAL;
  const b = (CY - y) / FOCAL;
  return norm([FWD[0] + a * RIGHT[0] + b * UP[0], FWD[1] + a * RIGHT[1] + b * UP[1], FWD[2] + a * RIGHT[2] + b * UP[2]]);
}

/** Screen corners TL, TR, BR, BL in base-image pixels. */
const SCREEN_QUAD = [
  [-PH.dw / 2, -PH.dh / 2],
  [PH.dw / 2, -PH.dh / 2],
  [PH.dw / 2, PH.dh / 2],
  [-PH.dw / 2, PH.dh / 2],
].map(([u, v]) => project(toWorld(u, v, PH.t)));

function sdRoundRect(x, y, hx, hy, r) {
  const qx = Math.abs(x) - hx + r;
  const qy = Math.abs(y) - hy + r;
  return Math.min(Math.max(qx, qy), 0) + Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) - r;
}
/** Rounded box centred at the origin: half sizes hx, hy, hz, edge radius r. */
function sdRoundBox(x, y, z, hx, hy, hz, r) {
  const qx = Math.abs(x) - hx + r;
  const qy = Math.abs(y) - hy + r;
  const qz = Math.abs(z) - hz + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0)) + Math.min(Math.max(qx, qy, qz), 0) - r;
}
/** 2-D distance to the inner outline whose offset by PH.edge is the body outline. */
const bodyInner2 = (u, v) => sdRoundRect(u, v, PH.w / 2 - PH.edge, PH.h / 2 - PH.edge, PH.corner - PH.edge);
function sdPhone(u, v, w) {
  const d2 = bodyInner2(u, v);
  const dz = Math.abs(w - PH.t / 2) - (PH.t / 2 - PH.edge);
  let d = Math.hypot(Math.max(d2, 0), Math.max(dz, 0)) + Math.min(Math.max(d2, dz), 0) - PH.edge;
  if (Math.abs(Math.abs(u) - PH.w / 2) < 2 && v < 0) {
    for (const [side, vc, hl] of BUTTONS) {
      const b = sdRoundBox(u - side * (PH.w / 2 - 0.25), v - vc, w - PH.t / 2, 0.85, hl, 1.15, 0.6);
      if (b < d) d = b;
    }
  }
  return d;
}

// Studio lighting. Key: a large softbox up and to the left, behind the phone. Fill: a strip light on
// the right. The table is warm light-grey seamless paper.
const KEY_DIR = norm([-0.42, 0.5, 0.76]);
const KEY_T1 = norm(cross(KEY_DIR, [0, 0, 1]));
const KEY_T2 = cross(KEY_T1, KEY_DIR);
const FILL_DIR = norm([0.86, -0.05, 0.5]);
const FILL_T1 = norm(cross(FILL_DIR, [0, 0, 1]));
const FILL_T2 = cross(FILL_T1, FILL_DIR);
const PAPER = [0.8, 0.785, 0.757];

function softRect(dir, c, t1, t2, hw, hh, soft) {
  const z = dot(dir, c);
  if (z <= 0.05) return 0;
  const a = Math.abs(dot(dir, t1) / z);
  const b = Math.abs(dot(dir, t2) / z);
  return (1 - smoothstep(hw - soft, hw + soft, a)) * (1 - smoothstep(hh - soft, hh + soft, b));
}

/** Radiance seen in direction dir (world), linear RGB: what the glass and the metal reflect. */
function env(dir) {
  if (dir[2] < 0.02) {
    // The paper table, a little darker towards the horizon of the reflection.
    const k = 0.55 + 0.25 * clamp(-dir[2] * 3);
    return [PAPER[0] * k, PAPER[1] * k, PAPER[2] * k];
  }
  const h = clamp(dir[2]);
  // Seamless paper curving up behind the set, then the dim studio.
  let s = 0.5 * (1 - smoothstep(0.02, 0.35, h)) + 0.035;
  const key = softRect(dir, KEY_DIR, KEY_T1, KEY_T2, 0.62, 0.42, 0.18) * 3.2;
  const fill = softRect(dir, FILL_DIR, FILL_T1, FILL_T2, 0.08, 0.75, 0.06) * 1.6;
  return [s + key * 1.0 + fill * 0.95, s + key * 0.99 + fill * 0.98, s + key * 0.96 + fill * 1.0];
}

/** Table illumination (linear multiplier) at world point (x, y) on the table, without the phone. */
function tableLight(x, y) {
  const k = Math.exp(-((x + 170) ** 2 + (y - 230) ** 2) / (2 * 330 ** 2));
  return 0.72 + 0.48 * k;
}

/** Shadow factor of the phone on the table at world point (x, y). */
function tableShadow(x, y) {
  const dx = x - P0[0];
  const dy = y - P0[1];
  const u = dx * eU[0] + dy * eU[1];
  const v = dx * eV[0] + dy * eV[1];
  const d = sdRoundRect(u, v, PH.w / 2, PH.h / 2, PH.corner); // 2-D distance to the footprint, mm
  if (d > 60) return 1;
  // Cast shadow: the key light is up and to the left behind, so it falls towards the viewer, right.
  const ox = (-KEY_DIR[0] / KEY_DIR[2]) * PH.t * 2.2;
  const oy = (-KEY_DIR[1] / KEY_DIR[2]) * PH.t * 2.2;
  const su = u - (ox * eU[0] + oy * eU[1]);
  const sv = v - (ox * eV[0] + oy * eV[1]);
  const ds = sdRoundRect(su, sv, PH.w / 2, PH.h / 2, PH.corner);
  const contact = 0.8 * Math.exp(-Math.max(d, 0) / 0.8);
  const ao = 0.45 * (1 - smoothstep(-3, 8, d));
  const cast = 0.38 * (1 - smoothstep(-12, 20, ds));
  const wide = 0.14 * (1 - smoothstep(-10, 55, ds));
  return (1 - contact) * (1 - ao) * (1 - cast) * (1 - wide);
}

/** Linear colour of the table seen along a ray that hits it at world (x, y). */
function tableColor(x, y) {
  const l = tableLight(x, y) * tableShadow(x, y);
  return [PAPER[0] * l, PAPER[1] * l * 0.995, PAPER[2] * l * 0.985];
}

const PHONE_BOX = { u: PH.w / 2 + 1.2, v: PH.h / 2 + 0.5, w0: 0, w1: PH.t };

/** March one ray. Returns { hit, color (linear), glare (0..1 screen-glare amount at this sample) }. */
function trace(dir) {
  // Ray in the phone frame.
  const ro = [CAM[0] - P0[0], CAM[1] - P0[1], CAM[2]];
  const ou = ro[0] * eU[0] + ro[1] * eU[1];
  const ov = ro[0] * eV[0] + ro[1] * eV[1];
  const ow = ro[2];
  const du = dir[0] * eU[0] + dir[1] * eU[1];
  const dv = dir[0] * eV[0] + dir[1] * eV[1];
  const dw = dir[2];
  // Slab test against the bounding box.
  let t0 = 0;
  let t1 = Infinity;
  for (const [o, d, lo, hi] of [
    [ou, du, -PHONE_BOX.u, PHONE_BOX.u],
    [ov, dv, -PHONE_BOX.v, PHONE_BOX.v],
    [ow, dw, PHONE_BOX.w0, PHONE_BOX.w1],
  ]) {
    if (Math.abs(d) < 1e-12) {
      if (o < lo || o > hi) return miss(dir);
      continue;
    }
    let a = (lo - o) / d;
    let b = (hi - o) / d;
    if (a > b) [a, b] = [b, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, b);
  }
  if (t0 > t1) return miss(dir);
  let t = t0;
  for (let i = 0; i < 160 && t <= t1 + 0.01; i++) {
    const u = ou + du * t;
    const v = ov + dv * t;
    const w = ow + dw * t;
    const d = sdPhone(u, v, w);
    if (d < 0.002) return shadePhone(u, v, w, [du, dv, dw], dir);
    t += Math.max(d, 0.004);
  }
  return miss(dir);
}

function miss(dir) {
  const t = -CAM[2] / dir[2];
  return { hit: false, color: tableColor(CAM[0] + dir[0] * t, CAM[1] + dir[1] * t), glare: 0 };
}

const toWorldDir = (a, b, c) => [a * eU[0] + b * eV[0], a * eU[1] + b * eV[1], c];

function shadePhone(u, v, w, dl, dir) {
  const e = 0.004;
  const nl = norm([sdPhone(u + e, v, w) - sdPhone(u - e, v, w), sdPhone(u, v + e, w) - sdPhone(u, v - e, w), sdPhone(u, v, w + e) - sdPhone(u, v, w - e)]);
  const n = toWorldDir(nl[0], nl[1], nl[2]);
  const cosv = clamp(-dot(dir, n), 0, 1);
  const r = [dir[0] - 2 * dot(dir, n) * n[0], dir[1] - 2 * dot(dir, n) * n[1], dir[2] - 2 * dot(dir, n) * n[2]];
  const d2 = bodyInner2(u, v);
  const glassEdge = PH.edge * 0.42;
  let glare = 0;
  let c;
  if (w > PH.t / 2 && d2 < glassEdge) {
    // Front glass: black border, OLED display and the punch-hole camera in it.
    const fres = 0.04 + 0.96 * (1 - cosv) ** 5;
    const inDisplay = sdRoundRect(u, v, PH.dw / 2, PH.dh / 2, PH.dr);
    const island = Math.hypot(u, v + PH.dh / 2 - 3.4) - 1.7; // punch-hole front camera
    let base = [0.0009, 0.001, 0.0013];
    if (inDisplay < 0) base = island < 0 ? [0.0003, 0.0003, 0.0004] : [0.0032, 0.0037, 0.0048];
    if (Math.abs(island + 0.15) < 0.22) base = [0.012, 0.013, 0.016]; // lens ring
    const ref = env(r);
    const k = fres * 0.09;
    c = [base[0] + ref[0] * k, base[1] + ref[1] * k, base[2] + ref[2] * k];
    // A hairline where the glass meets the frame.
    if (d2 > glassEdge - 0.12) c = c.map((x) => x * 0.35);
    // How strongly the glass mirrors the key light here (used for the glare layer).
    if (inDisplay < 0) glare = 1;
  } else {
    // Titanium frame: mostly mirror-like, tinted, a little diffuse key light.
    const tint = [0.56, 0.53, 0.5];
    const f = tint.map((t0) => t0 + (1 - t0) * (1 - cosv) ** 5);
    const ref = env(r);
    const diff = Math.max(0, dot(n, KEY_DIR)) * 0.12 + 0.04;
    // Blurry reflections: average the environment a little around r.
    const ref2 = env(norm([r[0] + n[0] * 0.25, r[1] + n[1] * 0.25, r[2] + n[2] * 0.25]));
    c = [0, 1, 2].map((i) => f[i] * (ref[i] * 0.6 + ref2[i] * 0.4) * 0.8 + tint[i] * diff);
    // Occlusion near the table, and the bottom openings (USB-C port, speaker and microphone holes).
    const occl = 0.35 + 0.65 * smoothstep(0, PH.t * 0.55, w);
    c = c.map((x) => x * occl);
    if (v > PH.h / 2 - PH.edge - 0.5 && nl[1] > 0.6) {
      const z = w - PH.t / 2;
      const port = sdRoundRect(u, z, 4.4, 1.35, 1.3);
      let hole = 1;
      for (let i = 0; i < 6; i++) {
        for (const s of [-1, 1]) {
          const hu = s * (10.5 + i * 2.05);
          const hd = Math.hypot(u - hu, z) - 0.55;
          if (hd < 0.1) hole = Math.min(hole, smoothstep(-0.1, 0.1, hd));
        }
      }
      if (port < 0.12) c = c.map((x) => x * (0.08 + 0.92 * smoothstep(-0.12, 0.12, port)));
      c = c.map((x) => x * (0.12 + 0.88 * hole));
    }
    // Antenna bands: thin plastic lines across the frame.
    for (const [av, au] of [
      [PH.h / 2 - 13, null],
      [-PH.h / 2 + 13, null],
      [null, PH.w / 2 - 13],
    ]) {
      const dd = av !== null ? Math.abs(v - av) : Math.abs(Math.abs(u) - au) + (v > 0 ? 0 : 99);
      if (dd < 0.45 && d2 > -0.2) c = c.map((x, i) => x * 0.55 + [0.05, 0.048, 0.046][i] * 0.45);
    }
  }
  return { hit: true, color: c, glare };
}

/** Glare amount on the display at local (u, v): a soft diagonal sweep, brightest top left. */
function glareAt(u, v) {
  const s = u / PH.dw + 0.5; // 0..1 across
  const t = v / PH.dh + 0.5; // 0..1 down
  // Distance along the diagonal from the top-left corner, in display widths.
  const q = (s * PH.dw * 0.82 + t * PH.dh * 0.57) / PH.dw;
  const sheen = (1 - smoothstep(0, 0.95, q)) * 0.24;
  const band = Math.exp(-(((q - 0.5) / 0.1) ** 2)) * 0.2;
  const thin = Math.exp(-(((q - 0.7) / 0.028) ** 2)) * 0.1;
  return clamp(sheen + band + thin);
}

function renderStudio() {
  const rgb = Buffer.alloc(BW * BH * 3);
  const maskA = Buffer.alloc(BW * BH);
  const glareA = Buffer.alloc(BW * BH);
  // Image-space bounding box of the phone (with margin), where rays need supersampling.
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const su of [-1, 1])
    for (const sv of [-1, 1])
      for (const w of [0, PH.t]) {
        const [x, y] = project(toWorld(su * (PH.w / 2 + 1.5), sv * (PH.h / 2 + 1.5), w));
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  x0 = Math.floor(x0) - 2;
  y0 = Math.floor(y0) - 2;
  x1 = Math.ceil(x1) + 2;
  y1 = Math.ceil(y1) + 2;
  const SS = 4;
  const vignette = (x, y) => 1 - 0.16 * smoothstep(0.45, 1.25, Math.hypot((x - BW * 0.45) / (BW * 0.62), (y - BH * 0.42) / (BH * 0.62)));
  for (let y = 0; y < BH; y++) {
    for (let x = 0; x < BW; x++) {
      let c;
      let cover = 0;
      let g = 0;
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) {
        c = [0, 0, 0];
        for (let j = 0; j < SS; j++) {
          for (let i = 0; i < SS; i++) {
            const dir = rayDir(x + (i + 0.5) / SS, y + (j + 0.5) / SS);
            const s = trace(dir);
            // Tone-map each sample before averaging, so edges antialias in display space.
            c[0] += toByte(s.color[0]);
            c[1] += toByte(s.color[1]);
            c[2] += toByte(s.color[2]);
            if (s.hit) cover++;
            if (s.glare) {
              const tf = (PH.t - CAM[2]) / dir[2];
              const px = CAM[0] + dir[0] * tf - P0[0];
              const py = CAM[1] + dir[1] * tf - P0[1];
              g += glareAt(px * eU[0] + py * eU[1], px * eV[0] + py * eV[1]);
            }
          }
        }
        const n = SS * SS;
        c = [c[0] / n, c[1] / n, c[2] / n];
        cover /= n;
        g /= n;
      } else {
        const s = trace(rayDir(x + 0.5, y + 0.5));
        c = [toByte(s.color[0]), toByte(s.color[1]), toByte(s.color[2])];
      }
      const vg = vignette(x, y);
      const o = y * BW + x;
      rgb[o * 3] = Math.round(c[0] * vg);
      rgb[o * 3 + 1] = Math.round(c[1] * vg);
      rgb[o * 3 + 2] = Math.round(c[2] * vg);
      maskA[o] = Math.round(255 * (1 - cover));
      glareA[o] = Math.round(255 * clamp(g));
    }
  }
  return { rgb, maskA, glareA };
}

async function writeStudio() {
  const t = Date.now();
  const { rgb, maskA, glareA } = renderStudio();
  const raw = { raw: { width: BW, height: BH, channels: 3 } };
  await writePng(await sharp(rgb, raw).png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer(), 'studio-phone.png', BW, BH);
  // Mask and glare: white, the information is in the alpha channel.
  const rgbaOf = (a) => {
    const out = Buffer.alloc(BW * BH * 4, 255);
    for (let i = 0; i < BW * BH; i++) out[i * 4 + 3] = a[i];
    return out;
  };
  const raw4 = { raw: { width: BW, height: BH, channels: 4 } };
  await writePng(await sharp(rgbaOf(maskA), raw4).png({ compressionLevel: 9 }).toBuffer(), 'backdrop-mask.png', BW, BH);
  await writePng(await sharp(rgbaOf(glareA), raw4).png({ compressionLevel: 9 }).toBuffer(), 'glare.png', BW, BH);
  console.log(`  (studio render ${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

// ════════════════════════════════════════════════════════════════════════════════════════════════
// 2. App screenshots: "Pulse", a fitness app, 390x844 pt at @3x = 1170x2532 px
// ════════════════════════════════════════════════════════════════════════════════════════════════

const SW = 1170;
const SH = 2532;
const PT = 3; // px per point
const UI = {
  bg: '#f3f4f8',
  card: '#ffffff',
  ink: '#11131b',
  muted: '#7c8194',
  faint: '#e6e8ef',
  dark: '#161a27',
  coral: '#ff5b35',
  lime: '#c6f24e',
  blue: '#4d7cff',
  violet: '#8b5cf6',
};

const font = (size, bold = false) => `${size}px "${bold ? 'Mock Inter Bold' : 'Mock Inter'}"`;

/** Text at (x, baseline y), in points. */
function text(ctx, str, x, y, { size = 15, bold = false, color = UI.ink, align = 'left', spacing = 0 } = {}) {
  ctx.font = font(size, bold);
  ctx.fillStyle = color;
  ctx.textAlign = align;
  ctx.textBaseline = 'alphabetic';
  ctx.letterSpacing = `${spacing}px`;
  ctx.fillText(str, x, y);
  ctx.letterSpacing = '0px';
  ctx.font = font(size, bold);
  return ctx.measureText(str).width;
}

function rrect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** Soft drop shadow under a card. */
function cardShadow(ctx, x, y, w, h, r, { blur = 18, dy = 6, alpha = 0.07 } = {}) {
  ctx.save();
  ctx.shadowColor = `rgba(20,24,40,${alpha})`;
  ctx.shadowBlur = blur * PT;
  ctx.shadowOffsetY = dy * PT;
  ctx.fillStyle = '#ffffff';
  rrect(ctx, x, y, w, h, r);
  ctx.fill();
  ctx.restore();
}

function statusBar(ctx, color) {
  text(ctx, '9:41', 52, 35, { size: 17, bold: true, color, align: 'center' });
  ctx.fillStyle = color;
  // Signal bars.
  for (let i = 0; i < 4; i++) {
    const h = 4.2 + i * 2.4;
    rrect(ctx, 289 + i * 4.6, 31.5 - h, 3.1, h, 1);
    ctx.fill();
  }
  // Wi-Fi: three sectors and a dot.
  ctx.save();
  ctx.translate(318.5, 32);
  for (const [r0, r1] of [
    [9.2, 11.6],
    [5.3, 7.6],
  ]) {
    ctx.beginPath();
    ctx.arc(0, 0, r1, -Math.PI * 0.75, -Math.PI * 0.25);
    ctx.arc(0, 0, r0, -Math.PI * 0.25, -Math.PI * 0.75, true);
    ctx.closePath();
    ctx.fill();
  }
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.arc(0, 0, 3.7, -Math.PI * 0.75, -Math.PI * 0.25);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
  // Battery.
  ctx.globalAlpha = 0.4;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  rrect(ctx, 335.5, 21.5, 24.5, 12, 3.8);
  ctx.stroke();
  rrect(ctx, 361.3, 25.5, 1.6, 4.2, 0.8);
  ctx.fill();
  ctx.globalAlpha = 1;
  rrect(ctx, 337.5, 23.5, 17.5, 8, 2.2);
  ctx.fill();
}

function homeIndicator(ctx, color) {
  ctx.fillStyle = color;
  rrect(ctx, 195 - 67, 831, 134, 5, 2.5);
  ctx.fill();
}

function ring(ctx, cx, cy, r, width, frac, color, track) {
  ctx.lineCap = 'round';
  ctx.lineWidth = width;
  ctx.strokeStyle = track;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.beginPath();
  ctx.arc(cx, cy, r, -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * frac);
  ctx.stroke();
  ctx.lineCap = 'butt';
}

// Tab bar icons, drawn in a 24 pt box at (x, y).
const ICONS = {
  home(ctx, x, y) {
    ctx.beginPath();
    ctx.moveTo(x + 3, y + 10.5);
    ctx.lineTo(x + 12, y + 3);
    ctx.lineTo(x + 21, y + 10.5);
    ctx.lineTo(x + 21, y + 20);
    ctx.quadraticCurveTo(x + 21, y + 21.5, x + 19.5, y + 21.5);
    ctx.lineTo(x + 15, y + 21.5);
    ctx.lineTo(x + 15, y + 15);
    ctx.lineTo(x + 9, y + 15);
    ctx.lineTo(x + 9, y + 21.5);
    ctx.lineTo(x + 4.5, y + 21.5);
    ctx.quadraticCurveTo(x + 3, y + 21.5, x + 3, y + 20);
    ctx.closePath();
  },
  dumbbell(ctx, x, y) {
    ctx.beginPath();
    ctx.roundRect(x + 1.5, y + 8.5, 3, 7, 1.2);
    ctx.roundRect(x + 5, y + 5.5, 4, 13, 1.5);
    ctx.roundRect(x + 15, y + 5.5, 4, 13, 1.5);
    ctx.roundRect(x + 19.5, y + 8.5, 3, 7, 1.2);
    ctx.rect(x + 9, y + 10.8, 6, 2.4);
  },
  chart(ctx, x, y) {
    ctx.beginPath();
    ctx.roundRect(x + 3, y + 12, 4.2, 9.5, 1.5);
    ctx.roundRect(x + 9.9, y + 4, 4.2, 17.5, 1.5);
    ctx.roundRect(x + 16.8, y + 8.5, 4.2, 13, 1.5);
  },
  user(ctx, x, y) {
    ctx.beginPath();
    ctx.arc(x + 12, y + 8, 4.6, 0, Math.PI * 2);
    ctx.moveTo(x + 3.5, y + 21.5);
    ctx.bezierCurveTo(x + 3.5, y + 15, x + 8, y + 13.6, x + 12, y + 13.6);
    ctx.bezierCurveTo(x + 16, y + 13.6, x + 20.5, y + 15, x + 20.5, y + 21.5);
    ctx.closePath();
  },
};

function tabBar(ctx, active) {
  ctx.fillStyle = 'rgba(255,255,255,0.96)';
  ctx.fillRect(0, 756, 390, 88);
  ctx.fillStyle = UI.faint;
  ctx.fillRect(0, 756, 390, 0.6);
  const tabs = [
    ['home', 'Home'],
    ['dumbbell', 'Workouts'],
    ['chart', 'Progress'],
    ['user', 'Profile'],
  ];
  tabs.forEach(([icon, label], i) => {
    const cx = 49 + i * 97.3;
    const on = i === active;
    ctx.fillStyle = on ? UI.ink : '#a3a8b8';
    ctx.strokeStyle = ctx.fillStyle;
    ICONS[icon](ctx, cx - 12, 766);
    ctx.fill();
    text(ctx, label, cx, 803, { size: 10.5, bold: on, color: on ? UI.ink : '#a3a8b8', align: 'center' });
  });
  homeIndicator(ctx, UI.ink);
}

function screenHome() {
  const canvas = createCanvas(SW, SH);
  const ctx = canvas.getContext('2d');
  ctx.scale(PT, PT);
  ctx.fillStyle = UI.bg;
  ctx.fillRect(0, 0, 390, 844);
  statusBar(ctx, UI.ink);

  // Header.
  text(ctx, 'Thursday, 15 May', 22, 82, { size: 14, color: UI.muted });
  text(ctx, 'Morning, Alex', 22, 114, { size: 29, bold: true, spacing: -0.6 });
  // Bell and avatar.
  cardShadow(ctx, 282, 70, 40, 40, 20, { blur: 10, dy: 3, alpha: 0.06 });
  ctx.fillStyle = UI.ink;
  ctx.beginPath();
  ctx.moveTo(302, 79);
  ctx.bezierCurveTo(296.5, 79, 294.5, 83.5, 294.5, 88);
  ctx.lineTo(294.5, 93.5);
  ctx.lineTo(292.5, 96.5);
  ctx.lineTo(311.5, 96.5);
  ctx.lineTo(309.5, 93.5);
  ctx.lineTo(309.5, 88);
  ctx.bezierCurveTo(309.5, 83.5, 307.5, 79, 302, 79);
  ctx.fill();
  ctx.beginPath();
  ctx.arc(302, 98.5, 2.6, 0, Math.PI);
  ctx.fill();
  ctx.fillStyle = UI.coral;
  ctx.beginPath();
  ctx.arc(308.5, 80.5, 3.6, 0, Math.PI * 2);
  ctx.fill();
  let g = ctx.createLinearGradient(330, 70, 370, 110);
  g.addColorStop(0, '#ffb36b');
  g.addColorStop(1, '#ff5b35');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(350, 90, 20, 0, Math.PI * 2);
  ctx.fill();
  text(ctx, 'AC', 350, 95.5, { size: 15, bold: true, color: '#ffffff', align: 'center' });

  // Week strip.
  const days = ['M', 'T', 'W', 'T', 'F', 'S', 'S'];
  days.forEach((d, i) => {
    const x = 22 + i * 50;
    const on = i === 3;
    if (on) {
      ctx.fillStyle = UI.ink;
      rrect(ctx, x, 136, 46, 66, 23);
      ctx.fill();
    } else {
      ctx.fillStyle = '#ffffff';
      rrect(ctx, x, 136, 46, 66, 23);
      ctx.fill();
    }
    text(ctx, d, x + 23, 159, { size: 12, bold: true, color: on ? '#8f95a8' : '#9aa0b2', align: 'center' });
    text(ctx, String(12 + i), x + 23, 184, { size: 17, bold: true, color: on ? '#ffffff' : UI.ink, align: 'center' });
    if (i < 3 || on) {
      ctx.fillStyle = on ? UI.lime : UI.coral;
      ctx.beginPath();
      ctx.arc(x + 23, 193.5, 2.2, 0, Math.PI * 2);
      ctx.fill();
    }
  });

  // Activity card.
  ctx.fillStyle = UI.dark;
  rrect(ctx, 16, 218, 358, 190, 28);
  ctx.fill();
  ctx.save();
  rrect(ctx, 16, 218, 358, 190, 28);
  ctx.clip();
  g = ctx.createRadialGradient(330, 230, 0, 330, 230, 220);
  g.addColorStop(0, 'rgba(255,91,53,0.28)');
  g.addColorStop(1, 'rgba(255,91,53,0)');
  ctx.fillStyle = g;
  ctx.fillRect(16, 218, 358, 190);
  ctx.restore();
  text(ctx, 'Today’s activity', 36, 250, { size: 15, bold: true, color: '#ffffff' });
  text(ctx, '81% of goal', 354, 250, { size: 13, color: '#8f95a8', align: 'right' });
  const rc = [112, 330];
  ring(ctx, rc[0], rc[1], 58, 12, 0.81, UI.coral, 'rgba(255,91,53,0.18)');
  ring(ctx, rc[0], rc[1], 43, 12, 0.71, UI.lime, 'rgba(198,242,78,0.16)');
  ring(ctx, rc[0], rc[1], 28, 12, 0.83, '#5ad1ff', 'rgba(90,209,255,0.16)');
  const stats = [
    ['Move', '486', '/600 kcal', UI.coral],
    ['Exercise', '32', '/45 min', UI.lime],
    ['Stand', '10', '/12 h', '#5ad1ff'],
  ];
  stats.forEach(([label, v, unit, col], i) => {
    const y = 286 + i * 42;
    ctx.fillStyle = col;
    rrect(ctx, 206, y - 9, 8, 8, 2.5);
    ctx.fill();
    text(ctx, label, 221, y - 1, { size: 12, color: '#8f95a8' });
    const w = text(ctx, v, 206, y + 21, { size: 20, bold: true, color: '#ffffff' });
    text(ctx, unit, 206 + w + 3, y + 21, { size: 12.5, color: '#8f95a8' });
  });

  // Two stat tiles.
  for (const x of [16, 203]) cardShadow(ctx, x, 424, 171, 140, 24);
  // Steps with a week of bars.
  text(ctx, 'Steps', 32, 452, { size: 13, color: UI.muted });
  text(ctx, '8,214', 32, 482, { size: 25, bold: true, spacing: -0.4 });
  const steps = [0.55, 0.8, 0.62, 0.92, 0.7, 0.4, 0.82];
  steps.forEach((s, i) => {
    const h = 46 * s;
    ctx.fillStyle = i === 3 ? UI.coral : '#e9ebf2';
    rrect(ctx, 32 + i * 20.5, 548 - h, 12, h, 4);
    ctx.fill();
  });
  // Heart rate with a sparkline.
  text(ctx, 'Heart rate', 219, 452, { size: 13, color: UI.muted });
  let w = text(ctx, '72', 219, 482, { size: 25, bold: true, spacing: -0.4 });
  text(ctx, 'bpm', 219 + w + 4, 482, { size: 13, color: UI.muted });
  const hr = [0.45, 0.5, 0.42, 0.6, 0.55, 0.72, 0.5, 0.62, 0.48, 0.82, 0.58, 0.66, 0.52];
  const hx = (i) => 219 + i * (139 / (hr.length - 1));
  const hy = (v) => 550 - v * 44;
  ctx.beginPath();
  hr.forEach((v, i) => (i ? ctx.lineTo(hx(i), hy(v)) : ctx.moveTo(hx(i), hy(v))));
  ctx.lineTo(hx(hr.length - 1), 552);
  ctx.lineTo(hx(0), 552);
  ctx.closePath();
  g = ctx.createLinearGradient(0, 505, 0, 552);
  g.addColorStop(0, 'rgba(255,91,53,0.22)');
  g.addColorStop(1, 'rgba(255,91,53,0)');
  ctx.fillStyle = g;
  ctx.fill();
  ctx.beginPath();
  hr.forEach((v, i) => (i ? ctx.lineTo(hx(i), hy(v)) : ctx.moveTo(hx(i), hy(v))));
  ctx.strokeStyle = UI.coral;
  ctx.lineWidth = 2.2;
  ctx.lineJoin = 'round';
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  ctx.arc(hx(9), hy(hr[9]), 4.2, 0, Math.PI * 2);
  ctx.fill();
  ctx.lineWidth = 2.2;
  ctx.stroke();

  // Today's workout.
  text(ctx, 'Today’s workout', 22, 600, { size: 19, bold: true, spacing: -0.3 });
  text(ctx, 'See all', 368, 600, { size: 14, bold: true, color: UI.coral, align: 'right' });
  cardShadow(ctx, 16, 614, 358, 126, 26);
  // Thumbnail: warm gradient with a kettlebell.
  ctx.save();
  rrect(ctx, 26, 624, 106, 106, 19);
  ctx.clip();
  g = ctx.createLinearGradient(26, 624, 132, 730);
  g.addColorStop(0, '#ffb36b');
  g.addColorStop(0.55, '#ff5b35');
  g.addColorStop(1, '#d6336c');
  ctx.fillStyle = g;
  ctx.fillRect(26, 624, 106, 106);
  ctx.fillStyle = 'rgba(255,255,255,0.14)';
  ctx.beginPath();
  ctx.arc(118, 640, 46, 0, Math.PI * 2);
  ctx.fill();
  // Kettlebell: a wide handle loop on a round bell with a flat foot.
  ctx.fillStyle = '#1b1f2c';
  ctx.beginPath();
  ctx.roundRect(57, 645, 44, 36, [18, 18, 6, 6]);
  ctx.roundRect(66, 653, 26, 20, [11, 11, 3, 3]);
  ctx.fill('evenodd');
  ctx.beginPath();
  ctx.arc(79, 692, 25, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillRect(64, 710, 30, 6);
  ctx.fillStyle = 'rgba(255,255,255,0.18)';
  ctx.beginPath();
  ctx.ellipse(69, 686, 6, 10, -0.5, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
  ctx.fillStyle = '#fff1ec';
  rrect(ctx, 146, 632, 78, 22, 11);
  ctx.fill();
  text(ctx, 'STRENGTH', 185, 647, { size: 10, bold: true, color: UI.coral, align: 'center', spacing: 0.6 });
  text(ctx, 'Kettlebell Burn', 146, 680, { size: 18, bold: true, spacing: -0.3 });
  text(ctx, '25 min  ·  320 kcal  ·  Level 2', 146, 702, { size: 12.5, color: UI.muted });
  // Progress bar of the plan.
  ctx.fillStyle = '#eceef4';
  rrect(ctx, 146, 715, 150, 5, 2.5);
  ctx.fill();
  ctx.fillStyle = UI.coral;
  rrect(ctx, 146, 715, 96, 5, 2.5);
  ctx.fill();
  ctx.fillStyle = UI.ink;
  ctx.beginPath();
  ctx.arc(339, 677, 21, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  ctx.moveTo(334, 667.5);
  ctx.lineTo(347, 677);
  ctx.lineTo(334, 686.5);
  ctx.closePath();
  ctx.fill();

  tabBar(ctx, 0);
  return canvas;
}

function screenPromo() {
  const canvas = createCanvas(SW, SH);
  const ctx = canvas.getContext('2d');
  ctx.scale(PT, PT);
  // Backdrop: a vertical gradient with three coloured glows, computed per pixel (Skia dithers its
  // gradients, and the dither noise would triple the PNG size).
  const bgStops = [
    [0, [36, 18, 74]],
    [0.45, [22, 13, 51]],
    [1, [12, 10, 28]],
  ];
  const glows = [
    [330, 150, 230, [255, 91, 53]],
    [40, 260, 220, [139, 92, 246]],
    [260, 420, 200, [236, 72, 153]],
  ];
  const bg = pixels(ctx, SW, SH);
  for (let y = 0; y < SH; y++) {
    const yp = (y + 0.5) / PT;
    const base = gradient(bgStops, yp / 844);
    for (let x = 0; x < SW; x++) {
      const xp = (x + 0.5) / PT;
      let c = base;
      for (const [gx, gy, r, col] of glows) {
        const a = 0.42 * clamp(1 - Math.hypot(xp - gx, yp - gy) / r);
        if (a > 0) c = mix(c, col, a);
      }
      bg.set(x, y, c);
    }
  }
  bg.put();
  let g;
  // Big rings behind the headline.
  ctx.globalAlpha = 0.9;
  ring(ctx, 322, 196, 74, 14, 0.78, UI.coral, 'rgba(255,255,255,0.06)');
  ring(ctx, 322, 196, 55, 14, 0.62, '#ff4f9a', 'rgba(255,255,255,0.06)');
  ring(ctx, 322, 196, 36, 14, 0.9, UI.lime, 'rgba(255,255,255,0.06)');
  ctx.globalAlpha = 1;
  statusBar(ctx, '#ffffff');
  // Close button and restore link.
  ctx.fillStyle = 'rgba(255,255,255,0.12)';
  ctx.beginPath();
  ctx.arc(38, 80, 16, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 2;
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.moveTo(32.5, 74.5);
  ctx.lineTo(43.5, 85.5);
  ctx.moveTo(43.5, 74.5);
  ctx.lineTo(32.5, 85.5);
  ctx.stroke();
  ctx.lineCap = 'butt';
  text(ctx, 'Restore', 366, 85, { size: 14, color: 'rgba(255,255,255,0.7)', align: 'right' });

  // Eyebrow and headline.
  ctx.fillStyle = 'rgba(198,242,78,0.16)';
  rrect(ctx, 24, 128, 150, 28, 14);
  ctx.fill();
  text(ctx, 'PULSE PREMIUM', 99, 147, { size: 11.5, bold: true, color: UI.lime, align: 'center', spacing: 1.2 });
  ctx.font = font(88, true);
  ctx.letterSpacing = '-3.5px';
  g = ctx.createLinearGradient(24, 180, 240, 260);
  g.addColorStop(0, '#ffffff');
  g.addColorStop(1, '#ffd2c4');
  ctx.fillStyle = g;
  ctx.textAlign = 'left';
  ctx.fillText('50%', 20, 254);
  ctx.letterSpacing = '0px';
  text(ctx, 'off your first year', 24, 292, { size: 24, bold: true, color: '#ffffff', spacing: -0.4 });
  text(ctx, 'Summer sale: every plan, every workout.', 24, 318, { size: 14.5, color: 'rgba(255,255,255,0.66)' });

  // Countdown.
  text(ctx, 'OFFER ENDS IN', 24, 356, { size: 11, bold: true, color: 'rgba(255,255,255,0.5)', spacing: 1 });
  [
    ['02', 'days'],
    ['14', 'hrs'],
    ['36', 'min'],
    ['09', 'sec'],
  ].forEach(([v, l], i) => {
    const x = 24 + i * 66;
    ctx.fillStyle = 'rgba(255,255,255,0.09)';
    rrect(ctx, x, 366, 58, 56, 14);
    ctx.fill();
    ctx.strokeStyle = 'rgba(255,255,255,0.12)';
    ctx.lineWidth = 1;
    ctx.stroke();
    text(ctx, v, x + 29, 394, { size: 21, bold: true, color: '#ffffff', align: 'center' });
    text(ctx, l, x + 29, 412, { size: 11, color: 'rgba(255,255,255,0.55)', align: 'center' });
  });

  // Features.
  const feats = ['Personal training plans that adapt', 'Heart-rate zones and recovery score', 'Offline workouts, no ads'];
  feats.forEach((f, i) => {
    const y = 458 + i * 32;
    ctx.fillStyle = UI.lime;
    ctx.beginPath();
    ctx.arc(35, y - 5, 10, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = '#160d33';
    ctx.lineWidth = 2.2;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.beginPath();
    ctx.moveTo(30.5, y - 5);
    ctx.lineTo(34, y - 1.5);
    ctx.lineTo(40, y - 8.5);
    ctx.stroke();
    ctx.lineCap = 'butt';
    text(ctx, f, 55, y, { size: 15, color: '#ffffff' });
  });

  // Plans.
  const plan = (x, w, on, title, price, per, old) => {
    ctx.fillStyle = on ? 'rgba(255,255,255,0.12)' : 'rgba(255,255,255,0.05)';
    rrect(ctx, x, 568, w, 112, 20);
    ctx.fill();
    ctx.strokeStyle = on ? UI.coral : 'rgba(255,255,255,0.14)';
    ctx.lineWidth = on ? 2 : 1;
    rrect(ctx, x, 568, w, 112, 20);
    ctx.stroke();
    text(ctx, title, x + 16, 598, { size: 14, bold: true, color: 'rgba(255,255,255,0.8)' });
    const pw = text(ctx, price, x + 16, 632, { size: 24, bold: true, color: '#ffffff', spacing: -0.4 });
    if (old) {
      const ow = text(ctx, old, x + 22 + pw, 632, { size: 14, color: 'rgba(255,255,255,0.45)' });
      ctx.fillStyle = 'rgba(255,255,255,0.45)';
      ctx.fillRect(x + 21 + pw, 626.5, ow + 2, 1.2);
    }
    text(ctx, per, x + 16, 660, { size: 12.5, color: on ? UI.lime : 'rgba(255,255,255,0.5)', bold: on });
    // Radio.
    ctx.beginPath();
    ctx.arc(x + w - 24, 592, 9, 0, Math.PI * 2);
    if (on) {
      ctx.fillStyle = UI.coral;
      ctx.fill();
      ctx.fillStyle = '#ffffff';
      ctx.beginPath();
      ctx.arc(x + w - 24, 592, 3.6, 0, Math.PI * 2);
      ctx.fill();
    } else {
      ctx.strokeStyle = 'rgba(255,255,255,0.35)';
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
  };
  plan(16, 206, true, 'Yearly', '$39.99', '$3.33 / month', '$79.99');
  plan(232, 142, false, 'Monthly', '$9.99', 'billed monthly', null);
  // Best-value tag over the yearly card.
  ctx.fillStyle = UI.coral;
  rrect(ctx, 30, 557, 88, 22, 11);
  ctx.fill();
  text(ctx, 'BEST VALUE', 74, 572, { size: 10, bold: true, color: '#ffffff', align: 'center', spacing: 0.8 });

  // Call to action.
  ctx.save();
  ctx.shadowColor = 'rgba(255,91,53,0.45)';
  ctx.shadowBlur = 24 * PT;
  ctx.shadowOffsetY = 8 * PT;
  g = ctx.createLinearGradient(16, 0, 374, 0);
  g.addColorStop(0, '#ff7a3d');
  g.addColorStop(1, '#ff3f7f');
  ctx.fillStyle = g;
  rrect(ctx, 16, 704, 358, 58, 29);
  ctx.fill();
  ctx.restore();
  text(ctx, 'Start 7-day free trial', 195, 739, { size: 17, bold: true, color: '#ffffff', align: 'center' });
  text(ctx, 'Cancel anytime  ·  Renews at $39.99/year', 195, 790, { size: 12, color: 'rgba(255,255,255,0.5)', align: 'center' });
  homeIndicator(ctx, '#ffffff');
  return canvas;
}

async function writeScreen(paint, name) {
  const canvas = paint();
  const raw = Buffer.from(canvas.getContext('2d').getImageData(0, 0, SW, SH).data.buffer);
  const bytes = await sharp(raw, { raw: { width: SW, height: SH, channels: 4 } })
    .removeAlpha()
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
  writePng(bytes, name, SW, SH);
}

// ════════════════════════════════════════════════════════════════════════════════════════════════
// 3. Landscape photo: alpine lake on a clear morning, 1600x900 (painted like make-photos.mjs)
// ════════════════════════════════════════════════════════════════════════════════════════════════

function alpineLake() {
  const W = 1600;
  const H = 900;
  const HY = 560; // waterline
  const noise = makeNoise(311);
  const rng = mulberry32(312);
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const px = pixels(ctx, W, H);
  const SUNX = 380;
  const SUNY = 60;

  const sky = [
    [0, [38, 92, 168]],
    [0.45, [92, 148, 210]],
    [0.8, [168, 204, 232]],
    [1, [214, 228, 236]],
  ];
  const far = ridge(
    W,
    HY - 60,
    [
      [120, 250, 300, 1.2],
      [430, 330, 330, 1.3],
      [700, 230, 260, 1.15],
      [1010, 310, 300, 1.3],
      [1240, 370, 320, 1.35],
      [1520, 260, 300, 1.2],
    ],
    noise,
    { detail: 22, scale: 90 },
  );
  const mid = ridge(
    W,
    HY - 18,
    [
      [0, 190, 300, 1.1],
      [330, 110, 260, 1.2],
      [760, 70, 300, 1],
      [1120, 120, 260, 1.2],
      [1600, 210, 320, 1.1],
    ],
    makeNoise(321),
    { detail: 10, scale: 60 },
  );
  const near = ridge(
    W,
    HY - 3,
    [
      [80, 40, 260, 1],
      [800, 12, 300, 1],
      [1500, 50, 260, 1],
    ],
    makeNoise(331),
    { detail: 4, scale: 50, fine: 2 },
  );
  const farSlope = smoothSlope(far, 40);
  const midSlope = smoothSlope(mid, 40);

  for (let y = 0; y < HY; y++) {
    const base = gradient(sky, y / HY);
    for (let x = 0; x < W; x++) {
      const glow = Math.exp(-Math.hypot(x - SUNX, y - SUNY) / 380) * 0.45;
      let c = screen(base, [255, 246, 222], glow);
      // Fair-weather cumulus: puffy tops, flat grey-blue bases.
      const z = (noise.fbm(x / 300 + 5.3, y / 80 + 2.1, 6, 0.55) - 0.5) / 0.11;
      const band = smoothstep(0.05, 0.18, y / HY) * (1 - smoothstep(0.42, 0.6, y / HY));
      const dens = smoothstep(0.35, 1.4, z) * band;
      if (dens > 0) {
        const shade = clamp(0.6 + (noise.fbm(x / 60, (y - 6) / 30 + 40, 3) - 0.5) * 2.5 - smoothstep(0.2, 0.5, y / HY) * 0.35);
        const cc = mix([176, 190, 212], [252, 252, 250], shade);
        c = mix(c, cc, clamp(dens * 1.1));
      }
      for (const [r, slope, kind] of [
        [far, farSlope, 0],
        [mid, midSlope, 1],
        [near, null, 2],
      ]) {
        const ry = r[x];
        const cov = clamp(y + 1 - ry);
        if (cov <= 0) continue;
        const lt = clamp((y - ry) / Math.max(20, HY - ry));
        let lc;
        if (kind === 0) {
          // Granite and snow, sunlit faces to the left, blue haze at the foot.
          const facing = clamp(0.5 - slope[x] * 1.3);
          const bump = ((noise.fbm((x + 1.5) / 26, y / 60 + 40, 4) - noise.fbm((x - 1.5) / 26, y / 60 + 40, 4)) / 0.12) * 9;
          const n = (noise.fbm(x / 14 + (y - ry) * slope[x] * 0.05, y / 60 + 7, 5) - 0.47) / 0.12;
          // Snow above a ragged snowline, patchier lower down, thin on steep gullies.
          const alt = (HY - y - 210) / 90 + n * 0.16 - bump * 0.1;
          const snowAmt = smoothstep(-0.2, 0.45, alt) * (0.55 + 0.45 * smoothstep(-0.5, 0.5, n));
          const light = clamp(facing * 0.8 + clamp(-bump, -1, 1) * 0.25 + 0.15);
          const rock = mix([58, 66, 82], [128, 126, 124], light);
          const snow = mix([170, 190, 218], [250, 252, 255], light);
          lc = mix(rock, snow, snowAmt * 0.95);
          lc = mix(lc, [132, 160, 190], smoothstep(0.25, 1, lt) * 0.65);
        } else if (kind === 1) {
          // Forested slopes.
          const facing = clamp(0.5 - slope[x] * 1.5);
          const tex = (noise.fbm(x / 6, y / 5 + 19, 3) - 0.5) * 2;
          lc = mix([22, 52, 44], [62, 98, 66], clamp(facing * 0.8 + tex * 0.25));
          lc = mix(lc, [98, 138, 150], smoothstep(0.3, 1, lt) * 0.35 + (1 - smoothstep(0, 0.2, lt)) * 0.15);
        } else lc = [16, 34, 30];
        c = mix(c, lc, cov);
      }
      px.set(x, y, c);
    }
  }
  px.put();
  // Scattered spruce on the forested slopes, then a dense line along the near shore.
  for (let i = 0; i < 2600; i++) {
    const x = rng() * W;
    const xi = Math.floor(x);
    const top = mid[xi];
    const y = top + 6 + rng() ** 0.7 * (HY - top - 6);
    if (noise.noise(x / 60, y / 40 + 70) < 0.35) continue;
    const h = 8 + rng() * 14 * (0.6 + (y - top) / (HY - top));
    ctx.fillStyle = rgba(mix([12, 34, 28], [40, 74, 54], rng() * 0.7));
    pine(ctx, x, y, h, h * 0.32, rng);
  }
  ctx.fillStyle = rgba([14, 32, 28]);
  for (let x = -10; x < W + 10;) {
    const xi = clamp(Math.round(x), 0, W - 1);
    const dense = noise.noise(x / 110, 3.5);
    if (dense > 0.25) {
      const h = 16 + rng() * 52 * (0.5 + dense) + (x < 220 || x > 1380 ? 30 + rng() * 50 : 0);
      pine(ctx, x, near[xi] + 4, h, h * (0.28 + rng() * 0.1), rng);
    }
    x += 3 + rng() * 7;
  }
  ctx.fillRect(0, HY - 3, W, 3);

  const src = pixels(ctx, W, H);
  const wn = makeNoise(341);
  reflectWater(src, W, H, HY, wn, {
    tint: [0.74, 0.86, 0.88],
    deep: [16, 58, 70],
    fresnel: [0.1, 0.55],
    ripple: 0.9,
    extra: (c, x, y, u) => {
      const wind = wn.fbm(x / 700 + 3, u / (5 + u * 0.12), 3);
      return mix(c, [c[0] * 0.9 + 14, c[1] * 0.92 + 20, c[2] * 0.95 + 26], smoothstep(0.5, 0.66, wind) * 0.7);
    },
  });
  src.put();

  finish(ctx, W, H, { seed: 313, grain: 4, vignette: 0.22 });
  return canvas;
}

async function writeJpeg(canvas, name) {
  const { width, height } = canvas;
  const raw = Buffer.from(canvas.getContext('2d').getImageData(0, 0, width, height).data.buffer);
  const bytes = await sharp(raw, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .jpeg({ quality: 85, chromaSubsampling: '4:2:0', mozjpeg: true })
    .toBuffer();
  writePng(bytes, name, width, height);
}

// ── writing ────────────────────────────────────────────────────────────────────────────────────

function writePng(bytes, name, width, height) {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, name);
  writeFileSync(file, bytes);
  console.log(`${relative(root, file).padEnd(44)} ${width}x${height}  ${(statSync(file).size / 1000).toFixed(0)} kB`);
}

const jobs = [
  ['studio-phone.png', writeStudio],
  ['screen-home.png', () => writeScreen(screenHome, 'screen-home.png')],
  ['screen-promo.png', () => writeScreen(screenPromo, 'screen-promo.png')],
  ['landscape-shot.jpg', () => writeJpeg(alpineLake(), 'landscape-shot.jpg')],
];
const only = process.argv.slice(2);
for (const [name, run] of jobs) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) continue;
  await run();
}
const r1 = (n) => Math.round(n * 10) / 10;
console.log('screen quad (TL, TR, BR, BL):', JSON.stringify(SCREEN_QUAD.map(([x, y]) => [r1(x), r1(y)])));
// The engine fits cover/contain into the rectangle a quad stands for (mean of opposite edges); the
// view is chosen so that its aspect ratio matches the screenshots', so cover crops almost nothing.
const [tl, tr, br, bl] = SCREEN_QUAD;
const len = (a, b) => Math.hypot(b[0] - a[0], b[1] - a[1]);
const nominal = (len(tl, tr) + len(bl, br)) / (len(tl, bl) + len(tr, br));
console.log(`quad nominal aspect ${nominal.toFixed(4)} (screenshots ${SCREEN_AR.toFixed(4)})`);
