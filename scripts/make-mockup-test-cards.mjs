#!/usr/bin/env node
// Generates the small assets the golden/mockup cases place into mockup layers, into golden/assets/:
//   device.png           800x600  a dark tablet on a desk; its screen is the rectangle x 100..700, y 80..520
//                                 (600x440), dark grey with a dashed outline and "SCREEN 600x440"
//   poster-wall.png      800x600  a wall with a picture frame seen at an angle; the frame's opening is
//                                 the quad TL (250,110) TR (610,70) BR (630,540) BL (240,480)
//   shirt.png            600x450  a light grey t-shirt with soft fold shading on a beige backdrop
//   mask.png             600x450  alpha mask: opaque exactly on the t-shirt of shirt.png, transparent elsewhere
//   screen-portrait.png  390x844  a labelled portrait phone screen (1170x2532 / 3): quadrant colours, a 50 px
//                                 grid labelled every 100 px, TL/TR/BL/BR corner tiles, "TOP"/"BOTTOM"
//                                 bars, a centre marker with "CENTRE"
//   glare.png            600x440  transparent, with a soft white diagonal streak across the top-left (blend: screen)
//   shade.png            600x440  opaque: white at the top-left fading to mid grey at the bottom-right,
//                                 with a darker band along the bottom (for blend: multiply)
// Deterministic: drawn with @napi-rs/canvas using the bundled Inter faces only (registered under
// private family names, so no system font is ever picked), encoded with fixed sharp options.
// Run: node scripts/make-mockup-test-cards.mjs
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'golden', 'assets');
mkdirSync(outDir, { recursive: true });

GlobalFonts.registerFromPath(join(root, 'node_modules', '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'), 'ImprintMockBold');
GlobalFonts.registerFromPath(join(root, 'node_modules', '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'), 'ImprintMock');

/** The screen rectangle of device.png and the frame opening of poster-wall.png (base-image pixels). */
const DEVICE_SCREEN = { x: 100, y: 80, width: 600, height: 440 };
const POSTER_QUAD = [
  [250, 110],
  [610, 70],
  [630, 540],
  [240, 480],
];

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** A tablet lying on a desk, screen switched off. */
function device() {
  const W = 800;
  const H = 600;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const desk = ctx.createLinearGradient(0, 0, 0, H);
  desk.addColorStop(0, '#d9cbb6');
  desk.addColorStop(1, '#b89f80');
  ctx.fillStyle = desk;
  ctx.fillRect(0, 0, W, H);
  // Drop shadow.
  ctx.fillStyle = 'rgba(0,0,0,0.25)';
  roundRect(ctx, 68, 62, 680, 500, 40);
  ctx.fill();
  // Body.
  ctx.fillStyle = '#1b1d22';
  roundRect(ctx, 56, 48, 688, 504, 40);
  ctx.fill();
  ctx.strokeStyle = '#5a5f6a';
  ctx.lineWidth = 4;
  roundRect(ctx, 58, 50, 684, 500, 38);
  ctx.stroke();
  // Camera dot (left bezel) and a home button (right bezel).
  ctx.fillStyle = '#3c4250';
  ctx.beginPath();
  ctx.arc(78, 300, 6, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = '#4a505c';
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.arc(722, 300, 12, 0, Math.PI * 2);
  ctx.stroke();
  // Screen (switched off): dark grey, dashed outline, label.
  const s = DEVICE_SCREEN;
  ctx.fillStyle = '#2b3038';
  ctx.fillRect(s.x, s.y, s.width, s.height);
  ctx.strokeStyle = '#8a93a3';
  ctx.lineWidth = 2;
  ctx.setLineDash([10, 8]);
  ctx.strokeRect(s.x + 1, s.y + 1, s.width - 2, s.height - 2);
  ctx.setLineDash([]);
  ctx.fillStyle = '#8a93a3';
  ctx.font = '28px ImprintMockBold';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(`SCREEN ${s.width}x${s.height}`, s.x + s.width / 2, s.y + s.height / 2);
  return canvas;
}

/** A picture frame on a wall, seen from the left: its right edge is nearer, so taller. */
function posterWall() {
  const W = 800;
  const H = 600;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const wall = ctx.createLinearGradient(0, 0, W, 0);
  wall.addColorStop(0, '#c9d3cf');
  wall.addColorStop(1, '#e6ece9');
  ctx.fillStyle = wall;
  ctx.fillRect(0, 0, W, H);
  // Floor.
  ctx.fillStyle = '#8c7359';
  ctx.beginPath();
  ctx.moveTo(0, 560);
  ctx.lineTo(W, 585);
  ctx.lineTo(W, H);
  ctx.lineTo(0, H);
  ctx.closePath();
  ctx.fill();
  // The frame: the opening scaled out from its centre, so the moulding keeps the perspective.
  const q = POSTER_QUAD;
  const cx = q.reduce((s, p) => s + p[0], 0) / 4;
  const cy = q.reduce((s, p) => s + p[1], 0) / 4;
  const grow = (k, dx = 0, dy = 0) => q.map(([x, y]) => [cx + (x - cx) * k + dx, cy + (y - cy) * k + dy]);
  const poly = (pts) => {
    ctx.beginPath();
    pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
  };
  ctx.fillStyle = 'rgba(0,0,0,0.22)';
  poly(grow(1.12, 12, 10));
  ctx.fill();
  ctx.fillStyle = '#5d3a1a';
  poly(grow(1.12));
  ctx.fill();
  ctx.fillStyle = '#7a4e28';
  poly(grow(1.06));
  ctx.fill();
  // The opening: pale grey, with an X from corner to corner so the quad shows when nothing covers it.
  ctx.fillStyle = '#b0b0b0';
  poly(q);
  ctx.fill();
  ctx.strokeStyle = '#7d7d7d';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(...q[0]);
  ctx.lineTo(...q[2]);
  ctx.moveTo(...q[1]);
  ctx.lineTo(...q[3]);
  ctx.stroke();
  return canvas;
}

/** The t-shirt outline in a 600x450 image. */
function shirtPath(ctx) {
  ctx.beginPath();
  ctx.moveTo(240, 40); // left shoulder at the collar
  ctx.quadraticCurveTo(300, 85, 360, 40); // neckline
  ctx.lineTo(440, 70); // right shoulder
  ctx.lineTo(520, 150); // right sleeve top
  ctx.lineTo(470, 200); // right sleeve end
  ctx.lineTo(430, 165); // right armpit
  ctx.lineTo(430, 420); // right hem
  ctx.quadraticCurveTo(300, 432, 170, 420); // hem
  ctx.lineTo(170, 165); // left armpit
  ctx.lineTo(130, 200); // left sleeve end
  ctx.lineTo(80, 150); // left sleeve top
  ctx.lineTo(160, 70); // left shoulder
  ctx.closePath();
}

function shirt() {
  const canvas = createCanvas(600, 450);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#efe6d8';
  ctx.fillRect(0, 0, 600, 450);
  ctx.save();
  shirtPath(ctx);
  ctx.clip();
  const cloth = ctx.createLinearGradient(80, 0, 520, 0);
  cloth.addColorStop(0, '#bdbdbd');
  cloth.addColorStop(0.5, '#f2f2f2');
  cloth.addColorStop(1, '#a8a8a8');
  ctx.fillStyle = cloth;
  ctx.fillRect(0, 0, 600, 450);
  // Folds: soft dark diagonal strokes.
  ctx.strokeStyle = 'rgba(0,0,0,0.16)';
  ctx.lineCap = 'round';
  for (const [x0, y0, x1, y1, w] of [
    [210, 230, 260, 400, 14],
    [380, 210, 350, 390, 12],
    [300, 120, 300, 200, 8],
  ]) {
    ctx.lineWidth = w;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
  }
  ctx.restore();
  // Seams.
  ctx.strokeStyle = '#8a8a8a';
  ctx.lineWidth = 2;
  shirtPath(ctx);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(170, 165);
  ctx.lineTo(160, 70);
  ctx.moveTo(430, 165);
  ctx.lineTo(440, 70);
  ctx.stroke();
  return canvas;
}

/** White where the shirt is, transparent elsewhere (antialiased edge). */
function mask() {
  const canvas = createCanvas(600, 450);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  shirtPath(ctx);
  ctx.fill();
  return canvas;
}

/** A portrait phone screen test card: which part of it lands where must be obvious. */
function screenPortrait() {
  const W = 390;
  const H = 844;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const cx = W / 2;
  const cy = H / 2;
  // Quadrants.
  for (const [x, y, c] of [
    [0, 0, '#5c6bc0'],
    [cx, 0, '#26c6da'],
    [0, cy, '#9ccc65'],
    [cx, cy, '#ffa726'],
  ]) {
    ctx.fillStyle = c;
    ctx.fillRect(x, y, cx, cy);
  }
  // Grid every 50 px, stronger every 100 px, labelled every 100 px along the left and right edges.
  for (let x = 50; x < W; x += 50) {
    ctx.strokeStyle = x % 100 === 0 ? 'rgba(0,0,0,0.45)' : 'rgba(0,0,0,0.2)';
    ctx.lineWidth = x % 100 === 0 ? 2 : 1;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, H);
    ctx.stroke();
  }
  for (let y = 50; y < H; y += 50) {
    ctx.strokeStyle = y % 100 === 0 ? 'rgba(0,0,0,0.45)' : 'rgba(0,0,0,0.2)';
    ctx.lineWidth = y % 100 === 0 ? 2 : 1;
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(W, y);
    ctx.stroke();
  }
  ctx.fillStyle = '#000000';
  ctx.font = '16px ImprintMockBold';
  ctx.textBaseline = 'top';
  for (let y = 100; y < H; y += 100) {
    ctx.textAlign = 'left';
    ctx.fillText(`y${y}`, 8, y + 4);
    ctx.textAlign = 'right';
    ctx.fillText(`y${y}`, W - 8, y + 4);
  }
  // "TOP" and "BOTTOM" bars like a status bar and a tab bar.
  ctx.fillStyle = '#212121';
  ctx.fillRect(0, 0, W, 40);
  ctx.fillRect(0, H - 40, W, 40);
  ctx.fillStyle = '#ffffff';
  ctx.font = '22px ImprintMockBold';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('TOP', cx, 21);
  ctx.fillText('BOTTOM', cx, H - 19);
  // Border.
  ctx.strokeStyle = '#000000';
  ctx.lineWidth = 6;
  ctx.strokeRect(3, 3, W - 6, H - 6);
  // Corner tiles, just inside the bars.
  const corner = (label, x, y, right, bottom) => {
    const w = 80;
    const h = 56;
    const left = right ? x - w : x;
    const top = bottom ? y - h : y;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(left, top, w, h);
    ctx.strokeStyle = '#000000';
    ctx.lineWidth = 3;
    ctx.strokeRect(left + 1.5, top + 1.5, w - 3, h - 3);
    ctx.fillStyle = '#000000';
    ctx.font = '36px ImprintMockBold';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(label, left + w / 2, top + h / 2 + 2);
  };
  corner('TL', 6, 46, false, false);
  corner('TR', W - 6, 46, true, false);
  corner('BL', 6, H - 46, false, true);
  corner('BR', W - 6, H - 46, true, true);
  // Title.
  ctx.font = '24px ImprintMockBold';
  const title = `PORTRAIT ${W}x${H}`;
  const tw = ctx.measureText(title).width + 20;
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(cx - tw / 2, cy - 120, tw, 36);
  ctx.fillStyle = '#000000';
  ctx.fillText(title, cx, cy - 101);
  // Centre marker.
  const r = 46;
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = '#000000';
  ctx.lineWidth = 4;
  ctx.stroke();
  ctx.strokeStyle = '#e00000';
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(cx - r * 1.5, cy);
  ctx.lineTo(cx + r * 1.5, cy);
  ctx.moveTo(cx, cy - r * 1.5);
  ctx.lineTo(cx, cy + r * 1.5);
  ctx.stroke();
  ctx.fillStyle = '#e00000';
  ctx.beginPath();
  ctx.arc(cx, cy, 10, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#000000';
  ctx.font = '20px ImprintMockBold';
  ctx.fillText('CENTRE', cx, cy + r + 34);
  return canvas;
}

/** Transparent with a soft white diagonal streak across the top-left, fading out on both sides. */
function glare() {
  const W = 600;
  const H = 440;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const g = ctx.createLinearGradient(60, 0, 300, 240);
  g.addColorStop(0, 'rgba(255,255,255,0)');
  g.addColorStop(0.35, 'rgba(255,255,255,0.5)');
  g.addColorStop(0.5, 'rgba(255,255,255,0.8)');
  g.addColorStop(0.65, 'rgba(255,255,255,0.5)');
  g.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  return canvas;
}

/** Opaque shading: white top-left, grey bottom-right, a dark band along the bottom edge. */
function shade() {
  const W = 600;
  const H = 440;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, '#ffffff');
  g.addColorStop(0.5, '#ffffff');
  g.addColorStop(1, '#6e6e6e');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#7a7a7a';
  ctx.fillRect(0, H - 40, W, 40);
  return canvas;
}

async function writePng(name, canvas, { alpha = false, colours = 128 } = {}) {
  const { width, height } = canvas;
  const file = join(outDir, name);
  let img = sharp(canvas.data(), { raw: { width, height, channels: 4, premultiplied: true } });
  img = alpha
    ? img.png({ compressionLevel: 9, adaptiveFiltering: false })
    : img.removeAlpha().png({ compressionLevel: 9, adaptiveFiltering: false, palette: true, colours, dither: 0 });
  writeFileSync(file, await img.toBuffer());
  return file;
}

const files = [
  await writePng('device.png', device()),
  await writePng('poster-wall.png', posterWall()),
  await writePng('shirt.png', shirt()),
  await writePng('mask.png', mask(), { alpha: true }),
  await writePng('screen-portrait.png', screenPortrait()),
  await writePng('glare.png', glare(), { alpha: true }),
  await writePng('shade.png', shade(), { colours: 256 }),
];
for (const f of files) console.log(`${f.slice(root.length + 1)}  ${(statSync(f).size / 1000).toFixed(1)} kB`);
