// Reference renderer for the Polotno conformance test: a Polotno store JSON page as an HTML page that
// Chromium draws, written from the field reference alone (not from Imprint's importer) so the two agree only if both read Polotno right.
//
// Semantics followed (Polotno schema reference, §3–§10):
// - every element is a box at (x, y) of width×height, rotated clockwise about its top-left corner;
// - opacity multiplies into the element (a group's opacity multiplies into each child separately);
// - blur = CSS blur(radius/2) (images: radius/1000 × min(source w, h), then /2); shadow =
//   drop-shadow(offsetX offsetY shadowBlur/2 colour×shadowOpacity) after the blur, in page directions
//   (Konva's canvas shadowOffset is not turned by the element's rotation);
// - text: line-height multiplier, letter-spacing in em, pre-wrap, no word splitting, verticalAlign in the box;
//   a text with a saved height that is taller than it, or has a word wider than the box, shrinks by 0.5 px
//   from its fontSize until neither holds (Polotno's server render, textOverflow change-font-size; an
//   element's textOverflow "resize" keeps its size);
// - images: crop fractions, trimmed to the box aspect from the crop's top-left unless stretchEnabled;
//   corner radius clamped to half the smaller side; border drawn inside; clipSrc as a mask; flips;
// - svg: colorsReplace on the markup, stretched to the box; figures and lines as inline SVG, figure
//   strokes inside the shape (a doubled stroke clipped to it), dashes in multiples of the stroke width.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

type Json = Record<string, unknown>;

const REPO = resolve(import.meta.dirname, '..', '..');

interface ManifestFace {
  weight: number;
  style?: string;
  file: string;
}
interface Manifest {
  families: { family: string; package: string; faces: ManifestFace[] }[];
}

/** @font-face rules for the bundled families (every face) and the document's fonts[] files. */
function fontFaces(doc: Json, baseDir: string): string {
  const manifest = JSON.parse(readFileSync(join(REPO, 'fonts', 'manifest.json'), 'utf8')) as Manifest;
  const rules = manifest.families.flatMap((f) =>
    f.faces.map(
      (face) =>
        `@font-face { font-family: "${f.family}"; font-weight: ${face.weight}; font-style: ${face.style ?? 'normal'}; src: url("file://${join(REPO, 'node_modules', f.package, face.file)}"); }`,
    ),
  );
  for (const font of (doc.fonts as Json[] | undefined) ?? []) {
    const family = String(font.fontFamily);
    if (typeof font.url === 'string' && font.url !== '') rules.push(`@font-face { font-family: "${family}"; src: url("${fileUrl(font.url, baseDir)}"); }`);
    for (const s of (font.styles as Json[] | undefined) ?? []) {
      rules.push(
        `@font-face { font-family: "${family}"; font-weight: ${str(s.fontWeight, 'normal')}; font-style: ${str(s.fontStyle, 'normal')}; src: ${str(s.src, '')}; }`,
      );
    }
  }
  return rules.join('\n');
}

const fileUrl = (src: string, baseDir: string): string => (/^(data|file):/.test(src) ? src : `file://${resolve(baseDir, src)}`);

const num = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const str = (v: unknown, d: string): string => (typeof v === 'string' ? v : d);
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A CSS colour with its alpha multiplied by `a`. */
const withAlpha = (colour: string, a: number): string => (a >= 1 ? colour : `color-mix(in srgb, ${colour} ${a * 100}%, transparent)`);

const isGradient = (v: string): boolean => /^\s*linear-gradient\(/.test(v);

/** Source pixel sizes of the images a page refers to (blur and crops depend on them). */
export async function imageSizes(doc: Json, baseDir: string): Promise<Map<string, { width: number; height: number }>> {
  const sizes = new Map<string, { width: number; height: number }>();
  const visit = async (els: Json[]): Promise<void> => {
    for (const el of els) {
      if (el.type === 'group') await visit((el.children as Json[]) ?? []);
      else if ((el.type === 'image' || el.type === 'svg') && typeof el.src === 'string' && !sizes.has(el.src)) {
        const m = await sharp(el.src.startsWith('data:') ? Buffer.from(el.src.split(',')[1]!, 'base64') : resolve(baseDir, el.src)).metadata();
        sizes.set(el.src, { width: m.width ?? 1, height: m.height ?? 1 });
      }
    }
  };
  for (const page of (doc.pages as Json[]) ?? []) {
    await visit((page.children as Json[]) ?? []);
    const bg = str(page.background, 'white');
    if (isImageBackground(bg)) {
      const m = await sharp(resolve(baseDir, bg)).metadata();
      sizes.set(bg, { width: m.width ?? 1, height: m.height ?? 1 });
    }
  }
  return sizes;
}

/** Polotno treats a background it cannot read as a colour or gradient as an image URL. */
function isImageBackground(bg: string): boolean {
  if (isGradient(bg)) return false;
  if (/^(#|rgba?\(|hsla?\(|transparent$)/i.test(bg.trim())) return false;
  return /[./:]/.test(bg);
}

interface Ctx {
  baseDir: string;
  sizes: Map<string, { width: number; height: number }>;
  /** Running index of visible text elements (data-text), in paint order. */
  texts: number;
}

/** CSS filter list of an element: blur, then the drop shadow. */
function filters(el: Json, blurPx: number): string {
  const parts: string[] = [];
  if (el.blurEnabled === true && blurPx > 0) parts.push(`blur(${blurPx / 2}px)`);
  if (el.shadowEnabled === true) {
    const colour = withAlpha(str(el.shadowColor, 'black'), num(el.shadowOpacity, 1));
    parts.push(`drop-shadow(${num(el.shadowOffsetX, 0)}px ${num(el.shadowOffsetY, 0)}px ${num(el.shadowBlur, 5) / 2}px ${colour})`);
  }
  return parts.length ? `filter:${parts.join(' ')};` : '';
}

function box(el: Json, w: number, h: number, opacity: number, filter: string, inner: string, extra = ''): string {
  const rot = num(el.rotation, 0);
  // Konva draws shadows with the canvas shadowOffset, which no transform turns: a rotated element's
  // filters go on an unturned wrapper, so its drop shadow falls in page directions (a blur is the same either way).
  const wrap = rot !== 0 && filter !== '';
  const div =
    `<div class="el"${rot ? ' data-rot="1"' : ''} style="position:absolute;left:${num(el.x, 0)}px;top:${num(el.y, 0)}px;width:${w}px;height:${h}px;` +
    `transform-origin:0 0;${rot ? `transform:rotate(${rot}deg);` : ''}opacity:${opacity};${wrap ? '' : filter}${extra}">${inner}</div>`;
  return wrap ? `<div style="position:absolute;left:0;top:0;width:100%;height:100%;${filter}">${div}</div>` : div;
}

function fontWeight(v: unknown): string {
  const s = str(v, 'normal');
  return s === 'normal' ? '400' : s === 'bold' ? '700' : s;
}

function text(el: Json, opacity: number, ctx: Ctx): string {
  const fontSize = num(el.fontSize, 14);
  const lh = lineHeight(el.lineHeight);
  const fill = str(el.fill, 'black');
  const w = num(el.width, 100);
  const h = num(el.height, 0);
  const va = str(el.verticalAlign, 'top');
  const strokeWidth = num(el.strokeWidth, 0);
  const linePx = fontSize * lh;
  const content = /<\/?(strong|em|u|span|b|i|s|p|br|div)\b/i.test(str(el.text, '')) ? str(el.text, '') : esc(str(el.text, ''));
  const style = [
    `font-family:'${str(el.fontFamily, 'Roboto')}'`,
    `font-size:${fontSize}px`,
    `font-weight:${fontWeight(el.fontWeight)}`,
    `font-style:${str(el.fontStyle, 'normal')}`,
    `line-height:${lh}`,
    `letter-spacing:${num(el.letterSpacing, 0)}em`,
    `text-align:${str(el.align, 'center')}`,
    `text-decoration:${str(el.textDecoration, '') || 'none'}`,
    `text-transform:${str(el.textTransform, 'none')}`,
    // Konva trims the space a line wraps at, so a decoration stops at the last glyph: with single spaces
    // pre-line does the same (pre-wrap would underline the hanging space); otherwise spaces are kept.
    `white-space:${str(el.textDecoration, '') !== '' && !/ {2}|\t/.test(str(el.text, '')) ? 'pre-line' : 'pre-wrap'}`,
    'overflow-wrap:normal',
    'word-break:normal',
    'font-synthesis:none',
    'font-kerning:normal',
    isGradient(fill) ? `background:${fill};-webkit-background-clip:text;background-clip:text;color:transparent` : `color:${fill}`,
    strokeWidth > 0 ? `-webkit-text-stroke:${strokeWidth}px ${str(el.stroke, 'black')};paint-order:stroke fill` : '',
  ]
    .filter(Boolean)
    .join(';');
  let under = '';
  if (el.backgroundEnabled === true) {
    // Per-line highlight behind all the text (a copy of it with clear glyphs, stacked under the text):
    // padding and corner radius are multiples of half the line height.
    const unit = linePx * 0.5;
    const pad = num(el.backgroundPadding, 0.5) * unit;
    const colour = withAlpha(str(el.backgroundColor, '#7ED321'), num(el.backgroundOpacity, 1));
    under =
      `<div aria-hidden="true" style="${style};grid-area:1/1;color:transparent;-webkit-text-stroke:0;background:none"><span style="background:${colour};box-shadow:0 0 0 ${pad}px ${colour};` +
      `border-radius:${num(el.backgroundCornerRadius, 0.5) * unit}px;-webkit-box-decoration-break:clone;box-decoration-break:clone">${content}</span></div>`;
  }
  const justify = va === 'middle' ? 'safe center' : va === 'bottom' ? 'safe flex-end' : 'flex-start';
  const i = ctx.texts++;
  const fit = h > 0 && str(el.textOverflow, 'change-font-size') !== 'resize' ? ` data-fit="${h}" data-width="${w}" data-fs="${fontSize}" data-lh="${lh}"` : '';
  const inner = `<div style="display:flex;flex-direction:column;justify-content:${justify};width:${w}px;height:${Math.max(h, 0)}px"><div style="display:grid">${under}<div data-text="${i}" data-line="${linePx}"${fit} style="${style};grid-area:1/1">${content}</div></div></div>`;
  return box(el, w, Math.max(h, 0), opacity, filters(el, num(el.blurRadius, 10)), inner);
}

function lineHeight(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const m = /^([\d.]+)(%?)$/.exec(v.trim());
    if (m) return m[2] ? Number(m[1]) / 100 : Number(m[1]);
  }
  return 1.2;
}

function image(el: Json, opacity: number, ctx: Ctx): string {
  const w = num(el.width, 100);
  const h = num(el.height, 100);
  const src = str(el.src, '');
  const size = ctx.sizes.get(src) ?? { width: w, height: h };
  const svg = el.type === 'svg';
  const stretch = typeof el.stretchEnabled === 'boolean' ? el.stretchEnabled : svg;
  let cx = num(el.cropX, 0) * size.width;
  let cy = num(el.cropY, 0) * size.height;
  let cw = num(el.cropWidth, 1) * size.width;
  let ch = num(el.cropHeight, 1) * size.height;
  if (!stretch) {
    // Trim the crop region to the box aspect, keeping its top-left corner.
    const aspect = w / h;
    if (cw / ch > aspect) cw = ch * aspect;
    else ch = cw / aspect;
  }
  const sx = w / cw;
  const sy = h / ch;
  let url = fileUrl(src, ctx.baseDir);
  if (svg) url = svgDataUrl(src, ctx.baseDir, (el.colorsReplace as Record<string, string> | undefined) ?? {});
  cx *= sx;
  cy *= sy;
  const img = `<img src="${url}" style="position:absolute;left:${-cx}px;top:${-cy}px;width:${size.width * sx}px;height:${size.height * sy}px;max-width:none;display:block">`;
  const radius = Math.min(num(el.cornerRadius, 0), Math.min(w, h) / 2);
  const flip = `${el.flipX === true ? 'scaleX(-1) ' : ''}${el.flipY === true ? 'scaleY(-1)' : ''}`.trim();
  const mask =
    typeof el.clipSrc === 'string' && el.clipSrc !== ''
      ? `-webkit-mask-image:url('${svgDataUrl(el.clipSrc, ctx.baseDir, {})}');-webkit-mask-size:100% 100%;mask-image:url('${svgDataUrl(el.clipSrc, ctx.baseDir, {})}');mask-size:100% 100%;`
      : '';
  let inner = `<div style="position:absolute;inset:0;overflow:hidden;border-radius:${radius}px;${flip ? `transform:${flip};` : ''}${mask}">${img}</div>`;
  const border = num(el.borderSize, 0);
  if (border > 0) {
    const r = Math.max(0, radius - border);
    inner += `<svg width="${w}" height="${h}" style="position:absolute;left:0;top:0;overflow:visible"><rect x="${border / 2}" y="${border / 2}" width="${w - border}" height="${h - border}" rx="${r}" ry="${r}" fill="none" stroke="${esc(str(el.borderColor, 'black'))}" stroke-width="${border}"/></svg>`;
  }
  const blurPx = (num(el.blurRadius, 10) / 1000) * Math.min(size.width, size.height);
  return box(el, w, h, opacity, filters(el, blurPx), inner);
}

/** The SVG file with each colorsReplace key swapped for its value, stretched to its box, as a data URL. */
function svgDataUrl(src: string, baseDir: string, replace: Record<string, string>): string {
  let markup = src.startsWith('data:') ? Buffer.from(src.split(',')[1]!, 'base64').toString('utf8') : readFileSync(resolve(baseDir, src), 'utf8');
  for (const [from, to] of Object.entries(replace)) markup = markup.split(from).join(to).split(from.toUpperCase()).join(to);
  markup = markup.replace(/<svg\b/, '<svg preserveAspectRatio="none"');
  return `data:image/svg+xml;base64,${Buffer.from(markup).toString('base64')}`;
}

/**
 * Outline of a figure subType in a w×h box, as Polotno's renderer draws it (@polotno/core figure-to-svg,
 * read for this reference; its schema gives no geometry): triangles and the diamond on the box's corners
 * and edge midpoints (a right triangle's right angle top left), regular figures and the star (inner
 * corners at half the radius) inscribed in the box's ellipse with a corner straight up, not stretched.
 */
export function figurePath(subType: string, w: number, h: number, cornerRadius: number): string {
  const poly = (pts: [number, number][]): string => `M${pts.map(([x, y]) => `${x * w} ${y * h}`).join(' L')} Z`;
  // Corner i of n on the ellipse of the box, clockwise from the top, at `radius` × the half sides.
  const inscribed = (n: number, radius: (i: number) => number): [number, number][] =>
    Array.from({ length: n }, (_, i) => {
      const a = (i * 2 * Math.PI) / n;
      return [0.5 + 0.5 * radius(i) * Math.sin(a), 0.5 - 0.5 * radius(i) * Math.cos(a)] as [number, number];
    });
  switch (subType) {
    case 'circle':
      return `M0 ${h / 2} A${w / 2} ${h / 2} 0 1 1 ${w} ${h / 2} A${w / 2} ${h / 2} 0 1 1 0 ${h / 2} Z`;
    case 'triangle':
      return poly([
        [0.5, 0],
        [1, 1],
        [0, 1],
      ]);
    case 'rightTriangle':
      return poly([
        [0, 0],
        [1, 0],
        [0, 1],
      ]);
    case 'diamond':
      return poly([
        [0.5, 0],
        [1, 0.5],
        [0.5, 1],
        [0, 0.5],
      ]);
    case 'pentagon':
      return poly(inscribed(5, () => 1));
    case 'hexagon':
      return poly(inscribed(6, () => 1));
    case 'star':
      return poly(inscribed(10, (i) => (i % 2 === 0 ? 1 : 0.5)));
    default: {
      const r = Math.min(cornerRadius, Math.min(w, h) / 2);
      return `M${r} 0 H${w - r} A${r} ${r} 0 0 1 ${w} ${r} V${h - r} A${r} ${r} 0 0 1 ${w - r} ${h} H${r} A${r} ${r} 0 0 1 0 ${h - r} V${r} A${r} ${r} 0 0 1 ${r} 0 Z`;
    }
  }
}

let clipIds = 0;

function figure(el: Json, opacity: number): string {
  const w = num(el.width, 100);
  const h = num(el.height, 100);
  const d = figurePath(str(el.subType, 'rect'), w, h, num(el.cornerRadius, 0));
  const sw = Math.min(num(el.strokeWidth, 0), w / 2, h / 2);
  const fill = paint(str(el.fill, 'rgb(0, 161, 255)'), w, h);
  const id = `clip${clipIds++}`;
  const dash = ((el.dash as number[] | undefined) ?? []).map((v) => v * sw);
  let svg = `<svg width="${w}" height="${h}" style="position:absolute;left:0;top:0;overflow:visible">${fill.defs}<path d="${d}" fill="${fill.ref}"/>`;
  if (sw > 0) {
    const stroke = paint(str(el.stroke, 'rgba(98, 197, 255, 1)'), w, h);
    // Inside stroke: twice the width, clipped to the shape.
    svg += `<clipPath id="${id}"><path d="${d}"/></clipPath>${stroke.defs}<path d="${d}" fill="none" stroke="${stroke.ref}" stroke-width="${sw * 2}" clip-path="url(#${id})"${dash.length ? ` stroke-dasharray="${dash.join(' ')}"` : ''}/>`;
  }
  svg += '</svg>';
  return box(el, w, h, opacity, filters(el, num(el.blurRadius, 10)), svg);
}

let gradientIds = 0;

/** A fill for SVG: a colour as it is, a CSS linear-gradient(angle, stops) as an SVG gradient over the box. */
function paint(v: string, w: number, h: number): { defs: string; ref: string } {
  if (!isGradient(v)) return { defs: '', ref: esc(v) };
  const inside = v.trim().slice('linear-gradient('.length, -1);
  const parts = inside.split(/,(?![^(]*\))/).map((s) => s.trim());
  let angle = 180;
  if (/deg$/.test(parts[0]!)) angle = Number(parts.shift()!.replace('deg', ''));
  const stops = parts.map((p, i) => {
    const m = /^(.*?)\s+([\d.]+)%$/.exec(p);
    return m ? { colour: m[1]!, at: Number(m[2]) / 100 } : { colour: p, at: parts.length > 1 ? i / (parts.length - 1) : 0 };
  });
  // CSS gradient line: through the centre at `angle`, long enough that the corners reach 0 % and 100 %.
  const a = (angle * Math.PI) / 180;
  const len = Math.abs(w * Math.sin(a)) + Math.abs(h * Math.cos(a));
  const [dx, dy] = [(Math.sin(a) * len) / 2, (-Math.cos(a) * len) / 2];
  const id = `grad${gradientIds++}`;
  const defs = `<defs><linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${w / 2 - dx}" y1="${h / 2 - dy}" x2="${w / 2 + dx}" y2="${h / 2 + dy}">${stops.map((s) => `<stop offset="${s.at}" stop-color="${esc(s.colour)}"/>`).join('')}</linearGradient></defs>`;
  return { defs, ref: `url(#${id})` };
}

/** A line head in the line's local frame (origin on the stroke's start, pointing along +x), h = stroke width. */
function head(kind: string, h: number, colour: string): string {
  const s = `stroke="${colour}" stroke-width="${h}" stroke-linecap="round" stroke-linejoin="round"`;
  switch (kind) {
    case 'arrow':
      return `<polyline points="${3 * h},${-2 * h} 0,0 ${3 * h},${2 * h}" fill="none" ${s}/>`;
    case 'triangle':
      return `<polygon points="${3 * h},${-2 * h} 0,0 ${3 * h},${2 * h}" fill="${colour}" ${s}/>`;
    case 'bar':
      return `<line x1="0" y1="${-2 * h}" x2="0" y2="${2 * h}" ${s}/>`;
    case 'circle':
      return `<circle cx="${2 * h}" cy="0" r="${2 * h}" fill="${colour}" ${s}/>`;
    case 'square':
      return `<rect x="0" y="${-2 * h}" width="${4 * h}" height="${4 * h}" fill="${colour}" ${s}/>`;
    default:
      return '';
  }
}

function line(el: Json, opacity: number): string {
  const w = num(el.width, 400);
  const h = num(el.height, 10);
  const colour = esc(str(el.color, 'black'));
  const dash = ((el.dash as number[] | undefined) ?? []).map((v) => v * h);
  const svg =
    `<svg width="${w}" height="${h}" style="position:absolute;left:0;top:0;overflow:visible">` +
    `<line x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}" stroke="${colour}" stroke-width="${h}"${dash.length ? ` stroke-dasharray="${dash.join(' ')}"` : ''}/>` +
    `<g transform="translate(0 ${h / 2})">${head(str(el.startHead, ''), h, colour)}</g>` +
    `<g transform="translate(${w} ${h / 2}) rotate(180)">${head(str(el.endHead, ''), h, colour)}</g></svg>`;
  return box(el, w, h, opacity, filters(el, num(el.blurRadius, 10)), svg);
}

function element(el: Json, parentOpacity: number, ctx: Ctx): string {
  if (el.visible === false || el.showInExport === false) return '';
  const opacity = parentOpacity * num(el.opacity, 1);
  switch (el.type) {
    case 'group':
      // No box of its own: children are in page coordinates; its opacity multiplies into each of them.
      return ((el.children as Json[]) ?? []).map((c) => element(c, opacity, ctx)).join('');
    case 'text':
      return text(el, opacity, ctx);
    case 'image':
    case 'svg':
      return image(el, opacity, ctx);
    case 'figure':
      return figure(el, opacity);
    case 'line':
      return line(el, opacity);
    default:
      throw new Error(`polotno-html: element type ${String(el.type)} is not drawn by the reference`);
  }
}

export interface PolotnoHtml {
  html: string;
  width: number;
  height: number;
  /** Visible text elements of the page, in paint order. */
  textCount: number;
}

/**
 * Page `pageIndex` of the Polotno document as a standalone HTML page. Its script writes, for each
 * visible text element, its lines (the characters laid on each line, measured unrotated) into <pre id="out">.
 */
export async function polotnoHtml(doc: Json, baseDir: string, pageIndex = 0): Promise<PolotnoHtml> {
  const page = (doc.pages as Json[])[pageIndex]!;
  const width = page.width === 'auto' || page.width === undefined ? num(doc.width, 1080) : num(page.width, 1080);
  const height = page.height === 'auto' || page.height === undefined ? num(doc.height, 1080) : num(page.height, 1080);
  const sizes = await imageSizes(doc, baseDir);
  const ctx: Ctx = { baseDir, sizes, texts: 0 };
  const bg = str(page.background, 'white');
  let background = `background:${bg};`;
  if (isImageBackground(bg)) {
    background = `background:url('${fileUrl(bg, baseDir)}') center / cover no-repeat;`;
  }
  const children = (page.children as Json[]) ?? [];
  // alwaysOnTop elements paint after the others.
  const ordered = [...children.filter((c) => c.alwaysOnTop !== true), ...children.filter((c) => c.alwaysOnTop === true)];
  const body = ordered.map((c) => element(c, 1, ctx)).join('');
  const script = `document.fonts.ready.then(() => {
  // Lines are measured unrotated, then the rotations are put back (the same page is screenshotted).
  const rotated = [...document.querySelectorAll('[data-rot]')].map((e) => [e, e.style.transform]);
  for (const [e] of rotated) e.style.transform = 'none';
  // change-font-size: 0.5 px steps down while the text is taller than its box or a word overflows it.
  for (const t of document.querySelectorAll('[data-fit]')) {
    const H = Number(t.dataset.fit), W = Number(t.dataset.width), lh = Number(t.dataset.lh);
    const copies = [...t.parentElement.children];
    let size = Number(t.dataset.fs);
    const steps = Math.round(2 * size) - 1;
    for (let s = 1; s < steps; s++) {
      for (const c of copies) c.style.fontSize = size + 'px';
      if (t.getBoundingClientRect().height <= H + 0.01 && t.scrollWidth <= W + 0.5) break;
      size -= 0.5;
    }
    for (const c of copies) c.style.fontSize = size + 'px';
    t.dataset.line = String(size * lh);
  }
  const out = [...document.querySelectorAll('[data-text]')].map((t) => {
    const half = Number(t.dataset.line) / 2;
    const lines = [];
    let top = null;
    const walker = document.createTreeWalker(t, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
        const rect = r.getClientRects()[0];
        const ch = node.data[i];
        if (!rect || rect.width === 0 || ch === '\\n') { if (lines.length) lines[lines.length - 1] += ch === '\\n' ? '' : ch; continue; }
        if (top === null || rect.top > top + half) { lines.push(''); top = rect.top; }
        lines[lines.length - 1] += ch;
      }
    }
    return lines;
  });
  for (const [e, t] of rotated) e.style.transform = t;
  document.getElementById('out').textContent = JSON.stringify(out);
});`;
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><style>${fontFaces(doc, baseDir)}\nhtml,body{margin:0;padding:0} strong,b{font-weight:700} em,i{font-style:italic} #out{display:none}</style></head>` +
    `<body><div style="position:relative;width:${width}px;height:${height}px;overflow:hidden;${background}">${body}</div>` +
    `<pre id="out"></pre><script>${script}</script></body></html>`;
  return { html, width, height, textCount: ctx.texts };
}
