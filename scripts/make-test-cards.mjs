#!/usr/bin/env node
// Generates the test-card images the golden tests place into image boxes and shape backgrounds:
//   golden/assets/landscape.png  800x500  labelled grid, one colour per quadrant, centre marker, TL/TR/BL/BR
//   golden/assets/portrait.png   500x800  the same layout in a different palette
//   golden/assets/photo.jpg      600x400  a smooth gradient "scene" (sky, sun, hills)
// Deterministic: drawn with @napi-rs/canvas using the bundled Inter font only (no system fonts), and
// encoded with fixed sharp options. Run: node scripts/make-test-cards.mjs
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'golden', 'assets');
mkdirSync(outDir, { recursive: true });

// Register the bundled faces under a private family name so no system font is ever picked.
GlobalFonts.registerFromPath(join(root, 'node_modules', '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'), 'ImprintCardBold');
GlobalFonts.registerFromPath(join(root, 'node_modules', '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'), 'ImprintCard');

/**
 * A test card: four coloured quadrants, a 50 px grid (labelled every 100 px along the top and left
 * edges), a border, big corner labels, a centre marker circle with cross-hairs, and a title.
 */
function testCard(width, height, title, palette) {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const cx = width / 2;
  const cy = height / 2;

  // Quadrants.
  ctx.fillStyle = palette.tl;
  ctx.fillRect(0, 0, cx, cy);
  ctx.fillStyle = palette.tr;
  ctx.fillRect(cx, 0, width - cx, cy);
  ctx.fillStyle = palette.bl;
  ctx.fillRect(0, cy, cx, height - cy);
  ctx.fillStyle = palette.br;
  ctx.fillRect(cx, cy, width - cx, height - cy);

  // Grid: thin lines every 50 px, stronger every 100 px.
  for (let x = 50; x < width; x += 50) {
    ctx.strokeStyle = x % 100 === 0 ? 'rgba(0,0,0,0.45)' : 'rgba(0,0,0,0.2)';
    ctx.lineWidth = x % 100 === 0 ? 2 : 1;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, height);
    ctx.stroke();
  }
  for (let y = 50; y < height; y += 50) {
    ctx.strokeStyle = y % 100 === 0 ? 'rgba(0,0,0,0.45)' : 'rgba(0,0,0,0.2)';
    ctx.lineWidth = y % 100 === 0 ? 2 : 1;
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(width, y);
    ctx.stroke();
  }

  // Grid labels.
  ctx.fillStyle = '#000000';
  ctx.font = '14px ImprintCard';
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  for (let x = 100; x < width; x += 100) ctx.fillText(String(x), x + 4, 10);
  for (let y = 100; y < height; y += 100) ctx.fillText(String(y), 10, y + 4);

  // Outer border, so the image edge is visible wherever it lands.
  ctx.strokeStyle = '#000000';
  ctx.lineWidth = 6;
  ctx.strokeRect(3, 3, width - 6, height - 6);

  // Corner labels on white tiles.
  const corner = (label, x, y, alignRight, alignBottom) => {
    const w = 96;
    const h = 64;
    const left = alignRight ? x - w : x;
    const top = alignBottom ? y - h : y;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(left, top, w, h);
    ctx.strokeStyle = '#000000';
    ctx.lineWidth = 3;
    ctx.strokeRect(left + 1.5, top + 1.5, w - 3, h - 3);
    ctx.fillStyle = '#000000';
    ctx.font = '44px ImprintCardBold';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(label, left + w / 2, top + h / 2 + 2);
  };
  corner('TL', 6, 6, false, false);
  corner('TR', width - 6, 6, true, false);
  corner('BL', 6, height - 6, false, true);
  corner('BR', width - 6, height - 6, true, true);

  // Title above the centre.
  ctx.font = '30px ImprintCardBold';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const label = `${title} ${width}x${height}`;
  const tw = ctx.measureText(label).width + 24;
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(cx - tw / 2, cy - 110, tw, 44);
  ctx.fillStyle = '#000000';
  ctx.fillText(label, cx, cy - 88);

  // Centre marker: white disc, black ring, red cross-hairs and a red dot.
  const r = Math.min(width, height) * 0.12;
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = '#000000';
  ctx.lineWidth = 5;
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
  ctx.arc(cx, cy, r * 0.25, 0, Math.PI * 2);
  ctx.fill();

  return canvas;
}

/** A smooth scene: vertical sky gradient, a soft sun, two rolling hills. */
function photo(width, height) {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const sky = ctx.createLinearGradient(0, 0, 0, height);
  sky.addColorStop(0, '#1f4e9c');
  sky.addColorStop(0.55, '#f6a85c');
  sky.addColorStop(1, '#fde2b0');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, width, height);

  const sun = ctx.createRadialGradient(width * 0.5, height * 0.52, 0, width * 0.5, height * 0.52, height * 0.3);
  sun.addColorStop(0, 'rgba(255,250,220,1)');
  sun.addColorStop(0.35, 'rgba(255,220,120,0.95)');
  sun.addColorStop(1, 'rgba(255,200,100,0)');
  ctx.fillStyle = sun;
  ctx.fillRect(0, 0, width, height);

  const hill = (baseY, amp, phase, top, bottom) => {
    const g = ctx.createLinearGradient(0, baseY - amp, 0, height);
    g.addColorStop(0, top);
    g.addColorStop(1, bottom);
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.moveTo(0, height);
    for (let x = 0; x <= width; x += 4) ctx.lineTo(x, baseY - amp * Math.sin((x / width) * Math.PI * 2 + phase));
    ctx.lineTo(width, height);
    ctx.closePath();
    ctx.fill();
  };
  hill(height * 0.72, height * 0.06, 0.5, '#4f8a3c', '#2f5e25');
  hill(height * 0.84, height * 0.05, 2.4, '#2f6b2a', '#173f15');
  return canvas;
}

async function writePng(name, canvas) {
  const { width, height } = canvas;
  const file = join(outDir, name);
  const bytes = await sharp(canvas.data(), { raw: { width, height, channels: 4, premultiplied: true } })
    .removeAlpha()
    .png({ compressionLevel: 9, adaptiveFiltering: false, palette: true, colours: 128, dither: 0 })
    .toBuffer();
  writeFileSync(file, bytes);
  return file;
}

async function writeJpg(name, canvas) {
  const { width, height } = canvas;
  const file = join(outDir, name);
  const bytes = await sharp(canvas.data(), { raw: { width, height, channels: 4, premultiplied: true } })
    .removeAlpha()
    .jpeg({ quality: 82, chromaSubsampling: '4:2:0' })
    .toBuffer();
  writeFileSync(file, bytes);
  return file;
}

const files = [
  await writePng('landscape.png', testCard(800, 500, 'LANDSCAPE', { tl: '#ef5350', tr: '#66bb6a', bl: '#42a5f5', br: '#ffca28' })),
  await writePng('portrait.png', testCard(500, 800, 'PORTRAIT', { tl: '#ab47bc', tr: '#ff7043', bl: '#26a69a', br: '#f06292' })),
  await writeJpg('photo.jpg', photo(600, 400)),
];
for (const f of files) console.log(`${f.slice(root.length + 1)}  ${(statSync(f).size / 1000).toFixed(1)} kB`);
