// The raw baseline the benches compare against: a display list drawn with plain @napi-rs/canvas
// calls (fillText with the bundled font files instead of outlines), without Imprint's pipeline.
import { join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { bundledFonts } from '../dist/index.js';

const ROOT = new URL('..', import.meta.url).pathname;
const fonts = bundledFonts();
for (const fam of fonts.familyNames())
  for (const w of [400, 700]) {
    const face = fonts.face(fam, w);
    GlobalFonts.registerFromPath(join(ROOT, 'fonts', face.file), `${fam}${w}`);
  }

const rgba = ([r, g, b, a]) => `rgba(${r},${g},${b},${a})`;
/** Pixels of `list`, images from `images` (key → canvas). */
export function drawRaw(list, images) {
  const canvas = createCanvas(list.width, list.height);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingQuality = 'high';
  const shape = (g) => {
    const { x, y, width, height } = g.rect;
    ctx.beginPath();
    if (g.kind === 'ellipse') ctx.ellipse(x + width / 2, y + height / 2, width / 2, height / 2, 0, 0, 2 * Math.PI);
    else if (g.kind === 'round_rect') ctx.roundRect(x, y, width, height, g.radius);
    else ctx.rect(x, y, width, height);
  };
  const draw = (it) => {
    if (it.kind === 'group') {
      ctx.save();
      ctx.transform(...it.transform);
      ctx.globalAlpha *= it.opacity;
      if (it.clip) {
        shape(it.clip);
        ctx.clip();
      }
      it.items.forEach(draw);
      ctx.restore();
    } else if (it.kind === 'fill') {
      ctx.fillStyle = rgba(it.color);
      shape(it.geometry);
      ctx.fill();
    } else if (it.kind === 'stroke') {
      ctx.strokeStyle = rgba(it.color);
      ctx.lineWidth = it.width;
      ctx.setLineDash(it.dash ?? []);
      shape(it.geometry);
      ctx.stroke();
    } else if (it.kind === 'image') {
      const { src: s, dst: d } = it;
      ctx.drawImage(images.get(it.image), s.x, s.y, s.width, s.height, d.x, d.y, d.width, d.height);
    } else if (it.kind === 'glyphs') {
      // fillText with the same font file, at the run's first glyph origin.
      const [fam, w] = it.face.split('-');
      ctx.font = `${it.size}px ${fam}${w}`;
      ctx.fillStyle = rgba(it.color);
      ctx.fillText(it.text, it.glyphs[0].x, it.glyphs[0].y);
    }
  };
  list.items.forEach(draw);
  // The card's background is an opaque colour, which a hand-written renderer knows as well.
  return { width: canvas.width, height: canvas.height, pixels: canvas.data(), opaque: list.opaque };
}
