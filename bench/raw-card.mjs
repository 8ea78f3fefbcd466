// The card-1080 example with its overrides rendered by hand (@napi-rs/canvas + sharp, no Imprint code):
// the raw baseline of bench/cold.mjs (one process, one render) and bench/threads.mjs (renders in
// worker threads). It is the baseline of the same work, not a pixel-identical render: the layout
// (positions, sizes, the photo's crop, the fitted font sizes) is hard-coded from Imprint's display list
// of this card, and text is drawn with fillText from the same font files instead of glyph outlines.
import { join } from 'node:path';
import { createCanvas, GlobalFonts, ImageData } from '@napi-rs/canvas';
import sharp from 'sharp';

const ROOT = join(import.meta.dirname, '..');

/** Sharp's encoder for each format, with Imprint's default options (src/encode/image.ts). */
const ENCODERS = {
  // RGB, zlib level 3, no adaptive filtering.
  png: (s) => s.png({ compressionLevel: 3, adaptiveFiltering: false }),
  jpg: (s) => s.jpeg({ quality: 90, chromaSubsampling: '4:2:0' }),
  webp: (s) => s.webp({ quality: 80, lossless: false, alphaQuality: 100, effort: 4 }),
  avif: (s) => s.avif({ quality: 50, effort: 2, chromaSubsampling: '4:2:0' }),
};

/** Opens the faces and decodes the photo once (as Imprint caches both), then returns a function that
 *  paints the card and encodes it to `format` (png, jpg, webp or avif; default png). */
export async function rawCardRenderer() {
  // The faces the card uses, from the bundled font packages, as Imprint opens them (on use, not all of them).
  for (const [file, name] of [
    ['@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf', 'Inter400'],
    ['@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf', 'Inter700'],
    ['@expo-google-fonts/lora/700Bold/Lora_700Bold.ttf', 'Lora700'],
  ]) {
    GlobalFonts.registerFromPath(join(ROOT, 'node_modules', file), name);
  }

  // The photo override: city-night.jpg (1600×900), cropped to the box's 1080:640 and resampled in one
  // sharp pass, as Imprint decodes images (Lanczos 3, straight to the drawn size).
  const { data, info } = await sharp(join(ROOT, 'examples', 'card-1080', 'city-night.jpg'))
    .extract({ left: 41, top: 0, width: 1519, height: 900 })
    .resize(1080, 640, { fit: 'fill', kernel: 'lanczos3' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });

  // The photo's pixels go onto a canvas once, as Imprint keeps each decoded image as a canvas.
  const photo = createCanvas(info.width, info.height);
  photo.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height), 0, 0);

  return async function renderRawCard(format = 'png') {
    const canvas = createCanvas(1080, 1080);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#f6f1ea';
    ctx.fillRect(0, 0, 1080, 1080);
    ctx.drawImage(photo, 0, 0);

    // Brand pill at 92 % opacity, badge with its border drawn inside, the rule.
    ctx.globalAlpha = 0.92;
    ctx.fillStyle = '#2f6fed';
    ctx.beginPath();
    ctx.roundRect(64, 60, 268, 56, 28);
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.beginPath();
    ctx.ellipse(934, 632, 98, 98, 0, 0, 2 * Math.PI);
    ctx.fill();
    ctx.strokeStyle = '#f6f1ea';
    ctx.lineWidth = 8;
    ctx.beginPath();
    ctx.ellipse(934, 632, 94, 94, 0, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = '#e2d9cc';
    ctx.fillRect(72, 1000, 936, 2);

    // Text runs: [font, size, colour, letter spacing px, text, x, baseline y], positions from the layout.
    const runs = [
      ['Inter700', 20, '#ffffff', 3.2, 'NORDIC TRAILS', 101.39, 95.28],
      ['Inter700', 50, '#ffffff', 0, '2 for 1', 860.71, 634.19],
      ['Inter700', 17, '#ffffff', 2.04, 'CITY NIGHTS', 868.36, 668.18],
      ['Inter700', 20, '#2f6fed', 2.8, 'OSLO · AFTER DARK', 72, 712.28],
      ['Lora700', 62, '#1b2030', 0, 'City lights, ', 72, 789.41],
      ['Lora700', 62, '#2f6fed', 0, 'after dark', 410.15, 789.41],
      ['Lora700', 62, '#1b2030', 0, ':', 706.01, 789.41],
      ['Lora700', 62, '#1b2030', 0, 'a weekend in Oslo', 72, 858.85],
      ['Inter400', 25, '#5b6172', 0, 'Harbour-front hotel, a rooftop dinner and a night walk with a', 72, 927.22],
      ['Inter400', 25, '#5b6172', 0, 'local photographer.', 72, 963.47],
      ['Inter400', 22, '#8a8f9c', 0, 'nordictrails.example  ·  Two guests, one price until ', 72, 1042],
      ['Inter700', 22, '#1b2030', 0, '15 July', 598.59, 1042],
    ];
    for (const [font, size, color, spacing, text, x, y] of runs) {
      ctx.font = `${size}px ${font}`;
      ctx.letterSpacing = `${spacing}px`;
      ctx.fillStyle = color;
      ctx.fillText(text, x, y);
    }

    // Encoded as Imprint encodes an opaque image: the alpha channel dropped, the same encoder options.
    return ENCODERS[format](sharp(canvas.data(), { raw: { width: 1080, height: 1080, channels: 4 } }).removeAlpha()).toBuffer();
  };
}
