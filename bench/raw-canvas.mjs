// The raw baseline the benches compare against: a display list drawn with plain @napi-rs/canvas
// calls (fillText with the bundled font files instead of outlines), without Imprint's pipeline; for
// stills its text is laid out by hand (measureText, wrapping, fit), so it does the work Imprint does.
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
/**
 * Pixels of `list`, images from `images` (key → canvas). With `scene` (the resolved scene of the same
 * design), the text is not taken from the list's glyph runs but laid out by hand (drawRawText), after
 * the rest: the baseline then does its own text layout, as a hand-written renderer would.
 */
export function drawRaw(list, images, scene) {
  if (scene) list = withoutText(list);
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
  if (scene) drawRawText(ctx, scene);
  // The card's background is an opaque colour, which a hand-written renderer knows as well.
  return { width: canvas.width, height: canvas.height, pixels: canvas.data(), opaque: list.opaque };
}

/** `list` without its text: what a hand-written renderer draws from geometry alone. */
export function withoutText(list) {
  const strip = (items) => items.filter((it) => it.kind !== 'glyphs').map((it) => (it.kind === 'group' ? { ...it, items: strip(it.items) } : it));
  return { ...list, items: strip(list.items) };
}

/**
 * Text laid out by hand, as a renderer without Imprint would: for each text object of the resolved
 * scene, words are measured with measureText in their span's face, wrapped to the box, and the size is
 * lowered a pixel at a time (fit) until the lines fit its height; then each piece is drawn with
 * fillText. No caches: every call measures again.
 */
export function drawRawText(ctx, scene) {
  for (const o of scene.objects) {
    if (o.type !== 'text' || o.hidden) continue;
    const words = o.spans.flatMap((s) =>
      s.text
        .split(/(\s+)/)
        .filter(Boolean)
        .map((w) => ({ w, span: s })),
    );
    const fontOf = (span, size) => `${size}px ${o.family}${span.weight >= 550 ? 700 : 400}`;
    let size = o.fontSize;
    let lines;
    for (;;) {
      lines = [[]];
      let x = 0;
      for (const word of words) {
        if (word.w.includes('\n')) {
          lines.push([]);
          x = 0;
          continue;
        }
        ctx.font = fontOf(word.span, size);
        const width = ctx.measureText(word.w).width;
        if (x + width > o.box.width && x > 0 && word.w.trim()) {
          lines.push([]);
          x = 0;
        }
        lines.at(-1).push({ ...word, x, width });
        x += width;
      }
      if (o.strategy !== 'fit' || size <= o.minFontSize || lines.length * size * o.lineHeight <= o.box.height) break;
      size -= 1;
    }
    const lineHeight = size * o.lineHeight;
    lines.forEach((line, i) => {
      const used = line.length ? line.at(-1).x + line.at(-1).width : 0;
      const dx = o.align === 'center' ? (o.box.width - used) / 2 : o.align === 'right' ? o.box.width - used : 0;
      for (const piece of line) {
        ctx.font = fontOf(piece.span, size);
        ctx.fillStyle = rgba(piece.span.color);
        ctx.fillText(piece.w, o.box.x + dx + piece.x, o.box.y + (i + 0.8) * lineHeight);
      }
    });
  }
}
