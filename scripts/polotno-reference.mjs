// Independent Polotno → HTML reference: one page of a Polotno store JSON as absolutely positioned HTML
// that Chromium draws, written for the corpus comparison (scripts/polotno-corpus.mjs) without any code
// of Imprint's importer (src/design/polotno/), so the two agree only where both read Polotno the same.
//
// What it assumes of Polotno (Konva underneath):
// - an element is a box at (x, y), width × height, turned by `rotation` degrees about its top-left
//   corner; `opacity` multiplies down a group; `visible: false` and `showInExport: false` are not drawn;
// - text: font-family/size/weight/style as CSS, `lineHeight` a multiple of the font size, `letterSpacing`
//   in em, wrapped at spaces inside `width`, a paragraph's last line aligned with the spaces it ends in
//   (as Konva does), `align` (default center), `verticalAlign` inside `height`, shrunk 0.5 px at a time while
//   it overflows its saved `height` or a word its width (polotno-node's change-font-size),
//   `fill`, `stroke` + `strokeWidth` painted under the fill, rich text as the HTML it holds; a weight or
//   italic the family lacks is synthesised, as the browser canvas Polotno draws into does;
// - shadows: Konva hands shadowBlur to the canvas, whose Gaussian σ is shadowBlur / 2 — CSS
//   drop-shadow(<r>) has σ = r / 2, so r = shadowBlur; the offset is in page directions (not turned);
// - images and svg: the crop rectangle (fractions of the source) scaled onto the box; `cornerRadius`
//   rounds the box, `borderSize`/`borderColor` a border inside it, `flipX`/`flipY` mirror it; svg
//   `colorsReplace` swaps colours in the markup, which is stretched to the box;
// - figures: rect (cornerRadius), circle/ellipse, triangle, star and the other regular shapes as SVG
//   with the stroke inside; other subtypes (blobs…) are reported as not drawn;
// - lines: a stroke `height` thick along `width`, `color`, `dash` in multiples of the thickness;
// - page background: a CSS colour or gradient, or an image drawn to cover the page.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const num = (v, d) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const str = (v, d) => (typeof v === 'string' ? v : d);
const attr = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const html = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page's pixel size: a page may carry its own, else the document's ('auto' = the document's). */
export function pageSize(doc, page) {
  const w = typeof page.width === 'number' ? page.width : num(doc.width, 1080);
  const h = typeof page.height === 'number' ? page.height : num(doc.height, 1080);
  return { width: Math.round(w), height: Math.round(h) };
}

function weight(v) {
  if (v === undefined || v === null || v === 'normal' || v === '') return 400;
  if (v === 'bold') return 700;
  const n = Number(v);
  return Number.isFinite(n) ? n : 400;
}

function colourWithOpacity(colour, opacity) {
  if (opacity >= 1) return colour;
  return `color-mix(in srgb, ${colour} ${Math.max(0, opacity) * 100}%, transparent)`;
}

function shadowFilter(el) {
  if (el.shadowEnabled !== true) return '';
  const c = colourWithOpacity(str(el.shadowColor, 'black'), num(el.shadowOpacity, 1));
  return `drop-shadow(${num(el.shadowOffsetX, 0)}px ${num(el.shadowOffsetY, 0)}px ${num(el.shadowBlur, 5)}px ${c})`;
}

function blurFilter(el, scale = 1) {
  return el.blurEnabled === true ? `blur(${(num(el.blurRadius, 10) * scale) / 2}px)` : '';
}

function imageFilters(el) {
  const f = [];
  if (el.grayscaleEnabled === true) f.push('grayscale(1)');
  if (el.sepiaEnabled === true) f.push('sepia(1)');
  if (el.brightnessEnabled === true) f.push(`brightness(${1 + num(el.brightness, 0)})`);
  return f;
}

/** An absolutely placed, turned box holding `inner`; the shadow goes on an unturned wrapper. */
function place(el, opacity, inner, { filters = [], extra = '' } = {}) {
  const rot = num(el.rotation, 0);
  const shadow = shadowFilter(el);
  const own = filters.filter(Boolean);
  const box =
    `<div style="position:absolute;left:${num(el.x, 0)}px;top:${num(el.y, 0)}px;width:${Math.max(0, num(el.width, 0))}px;` +
    `height:${Math.max(0, num(el.height, 0))}px;transform-origin:0 0;transform:rotate(${rot}deg);` +
    `${own.length ? `filter:${own.join(' ')};` : ''}${extra}">${inner}</div>`;
  const wrapped = shadow ? `<div style="position:absolute;inset:0;filter:${shadow}">${box}</div>` : box;
  return `<div style="position:absolute;inset:0;opacity:${opacity}">${wrapped}</div>`;
}

function isRichText(s) {
  return /<\/?(p|div|br|span|strong|b|em|i|u|s|strike|del|ul|ol|li)\b[^>]*>/i.test(s);
}

function text(el, opacity) {
  const size = num(el.fontSize, 14);
  const raw = str(el.text, '');
  const fill = str(el.fill, 'black');
  const stroke = num(el.strokeWidth, 0);
  const gradient = /^\s*linear-gradient\(/.test(fill);
  const css = [
    `font-family:'${str(el.fontFamily, 'Roboto').replace(/'/g, '')}'`,
    // The size sits on the text's wrapper (the change-font-size loop below steps it); spacing follows it.
    'font-size:inherit',
    `font-weight:${weight(el.fontWeight)}`,
    `font-style:${str(el.fontStyle, 'normal') === 'italic' ? 'italic' : 'normal'}`,
    `line-height:${num(Number(el.lineHeight), 1.2)}`,
    `letter-spacing:${num(el.letterSpacing, 0)}em`,
    `text-align:${str(el.align, 'center')}`,
    `text-decoration:${str(el.textDecoration, '') || 'none'}`,
    `text-transform:${str(el.textTransform, 'none')}`,
    'white-space:pre-wrap',
    'overflow-wrap:normal',
    gradient ? `background:${fill};-webkit-background-clip:text;color:transparent` : `color:${fill}`,
    stroke > 0 ? `-webkit-text-stroke:${stroke}px ${str(el.stroke, 'black')};paint-order:stroke fill` : '',
  ].filter(Boolean);
  // Konva drops the spaces where it wraps a line but aligns a paragraph's last line with the spaces
  // it ends in; pre-wrap hangs both, so those at a paragraph's end become no-break spaces, which do not hang.
  const content = isRichText(raw) ? raw.replace(/<p\b/gi, '<p style="margin:0"') : html(raw.replace(/ +(?=\n|$)/g, (m) => '\u00a0'.repeat(m.length)));
  let background = '';
  if (el.backgroundEnabled === true) {
    const line = size * num(Number(el.lineHeight), 1.2);
    const pad = num(el.backgroundPadding, 0.5) * line * 0.5;
    const c = colourWithOpacity(str(el.backgroundColor, '#7ED321'), num(el.backgroundOpacity, 1));
    // The highlight is an inline box per line, so the copy under the text has its paragraphs as line breaks.
    const inline = content.replace(/<\/p>\s*<p\b[^>]*>/gi, '<br>').replace(/<\/?p\b[^>]*>/gi, '');
    background = `<div style="${css.join(';')};position:absolute;left:0;right:0;top:0;color:transparent;-webkit-text-stroke:0"><span style="background:${c};box-shadow:0 0 0 ${pad / size}em ${c};border-radius:${(num(el.backgroundCornerRadius, 0.5) * line * 0.5) / size}em;-webkit-box-decoration-break:clone">${inline}</span></div>`;
  }
  const justify = { middle: 'center', bottom: 'flex-end' }[str(el.verticalAlign, 'top')] ?? 'flex-start';
  // polotno-node renders with textOverflow "change-font-size": a text with a saved height that its text
  // overflows (or whose longest word no longer fits the width) steps down 0.5 px at a time from its size
  // (fitPolotnoTexts in the page); "resize" grows the box instead.
  const fitHeight = str(el.textOverflow, 'change-font-size') !== 'resize' && num(el.height, 0) > 0 ? num(el.height, 0) : 0;
  const fitAttrs = fitHeight > 0 ? ` data-fit-height="${fitHeight}" data-fit-min="${Math.min(num(el.minFontSize, 1), size)}"` : '';
  const inner = `<div style="position:absolute;inset:0;display:flex;flex-direction:column;justify-content:${justify}"><div style="position:relative;font-size:${size}px" data-font-size="${size}"${fitAttrs}>${background}<div style="${css.join(';')};position:relative" data-text>${content}</div></div></div>`;
  return place(el, opacity, inner, { filters: [blurFilter(el)] });
}

function svgMarkup(src, replace) {
  let markup = src.startsWith('data:') ? decodeDataUrl(src).toString('utf8') : readFileSync(src, 'utf8');
  for (const [from, to] of Object.entries(replace ?? {})) {
    markup = markup.split(from).join(to);
    // Shapes without a fill are black: Polotno lists that black among the svg's colours and replaces it
    // too (its thumbnails show it), so the replacement becomes the inherited default fill.
    if (/^(black|#000|#000000|rgba?\(0,\s*0,\s*0(,\s*1)?\))$/i.test(from.trim())) markup = markup.replace(/<svg\b/, `<svg fill="${attr(to)}"`);
  }
  if (!/preserveAspectRatio=/.test(markup.slice(0, markup.indexOf('>')))) markup = markup.replace(/<svg\b/, '<svg preserveAspectRatio="none"');
  return `data:image/svg+xml;base64,${Buffer.from(markup).toString('base64')}`;
}

function decodeDataUrl(src) {
  const comma = src.indexOf(',');
  const meta = src.slice(5, comma);
  const body = src.slice(comma + 1);
  return meta.endsWith(';base64') ? Buffer.from(body, 'base64') : Buffer.from(decodeURIComponent(body), 'utf8');
}

function image(el, opacity, ctx) {
  const w = num(el.width, 100);
  const h = num(el.height, 100);
  const src = str(el.src, '');
  const file = ctx.image(src);
  if (!file) {
    ctx.notes.add(`image not available to the reference: ${src.slice(0, 60)}`);
    return '';
  }
  const nat = file.size;
  let cw = num(el.cropWidth, 1) * nat.width;
  let ch = num(el.cropHeight, 1) * nat.height;
  const cx = num(el.cropX, 0) * nat.width;
  const cy = num(el.cropY, 0) * nat.height;
  if (el.type === 'image' && el.stretchEnabled !== true && cw > 0 && ch > 0) {
    // The crop is trimmed to the box's aspect ratio (from its top-left) instead of being distorted.
    if (cw / ch > w / h) cw = (ch * w) / h;
    else ch = (cw * h) / w;
  }
  const sx = w / cw;
  const sy = h / ch;
  let url = file.url;
  if (el.type === 'svg') {
    url = svgMarkup(file.path ?? src, el.colorsReplace);
    ctx.notes.add('svg');
  }
  const radius = Math.max(0, Math.min(num(el.cornerRadius, 0), w / 2, h / 2));
  const flips = [el.flipX === true ? 'scaleX(-1)' : '', el.flipY === true ? 'scaleY(-1)' : ''].filter(Boolean).join(' ');
  const img = `<img src="${attr(url)}" style="position:absolute;left:${-cx * sx}px;top:${-cy * sy}px;width:${nat.width * sx}px;height:${nat.height * sy}px;max-width:none">`;
  let inner = `<div style="position:absolute;inset:0;overflow:hidden;border-radius:${radius}px;${flips ? `transform:${flips};` : ''}">${img}</div>`;
  const border = num(el.borderSize, 0);
  if (border > 0) {
    inner += `<div style="position:absolute;inset:0;border:${border}px solid ${str(el.borderColor, 'black')};border-radius:${radius}px;box-sizing:border-box"></div>`;
  }
  if (str(el.clipSrc, '') || str(el.maskSrc, '')) ctx.notes.add('image mask (clipSrc/maskSrc) not drawn by the reference');
  const blurScale = el.type === 'image' ? Math.min(nat.width, nat.height) / 1000 : 1;
  return place(el, opacity, inner, { filters: [blurFilter(el, blurScale), ...imageFilters(el)] });
}

/** SVG path of a figure subtype in a w×h box, or null for the shapes this reference does not know. */
function figurePath(type, w, h, r) {
  const poly = (pts) => `M${pts.map(([x, y]) => `${x * w},${y * h}`).join('L')}Z`;
  const regular = (n, inner) => {
    const pts = [];
    const k = inner ? 2 * n : n;
    for (let i = 0; i < k; i++) {
      const a = (i * Math.PI * 2) / k;
      const rr = inner && i % 2 ? inner : 1;
      pts.push([0.5 + 0.5 * rr * Math.sin(a), 0.5 - 0.5 * rr * Math.cos(a)]);
    }
    return poly(pts);
  };
  switch (type) {
    case 'rect': {
      const c = Math.max(0, Math.min(r, w / 2, h / 2));
      return `M${c},0H${w - c}A${c},${c} 0 0 1 ${w},${c}V${h - c}A${c},${c} 0 0 1 ${w - c},${h}H${c}A${c},${c} 0 0 1 0,${h - c}V${c}A${c},${c} 0 0 1 ${c},0Z`;
    }
    case 'circle':
    case 'ellipse':
      return `M0,${h / 2}A${w / 2},${h / 2} 0 1 1 ${w},${h / 2}A${w / 2},${h / 2} 0 1 1 0,${h / 2}Z`;
    case 'triangle':
      return poly([
        [0.5, 0],
        [1, 1],
        [0, 1],
      ]);
    case 'rightTriangle':
      return poly([
        [0, 0],
        [1, 1],
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
      return regular(5);
    case 'hexagon':
      return regular(6);
    case 'octagon':
      return regular(8);
    case 'star':
      return regular(5, 0.5);
    default:
      return null;
  }
}

let ids = 0;

function figure(el, opacity, ctx) {
  const w = num(el.width, 100);
  const h = num(el.height, 100);
  const type = str(el.subType, 'rect');
  const d = figurePath(type, w, h, num(el.cornerRadius, 0));
  if (!d) {
    ctx.notes.add(`figure subType ${type} not drawn by the reference`);
    return '';
  }
  const sw = num(el.strokeWidth, 0);
  const id = `c${ids++}`;
  const dash = Array.isArray(el.dash) && el.dash.length ? ` stroke-dasharray="${el.dash.map((v) => v * sw).join(' ')}"` : '';
  const strokePart =
    sw > 0
      ? `<clipPath id="${id}"><path d="${d}"/></clipPath><path d="${d}" fill="none" stroke="${attr(str(el.stroke, 'black'))}" stroke-width="${2 * sw}" clip-path="url(#${id})"${dash}/>`
      : '';
  const svg = `<svg width="${w}" height="${h}" style="position:absolute;left:0;top:0;overflow:visible"><path d="${d}" fill="${attr(str(el.fill, 'black'))}"/>${strokePart}</svg>`;
  return place(el, opacity, svg, { filters: [blurFilter(el)] });
}

function line(el, opacity) {
  const w = num(el.width, 100);
  const h = num(el.height, 1);
  const c = attr(str(el.color, 'black'));
  const dash = Array.isArray(el.dash) && el.dash.length ? ` stroke-dasharray="${el.dash.map((v) => v * h).join(' ')}"` : '';
  const head = (kind, at, dir) => {
    if (!kind) return '';
    const s = 3 * h;
    const tip = `${at},${h / 2}`;
    const back = at + dir * s;
    if (kind === 'arrow') return `<polyline points="${back},${h / 2 - s} ${tip} ${back},${h / 2 + s}" fill="none" stroke="${c}" stroke-width="${h}"/>`;
    if (kind === 'triangle') return `<polygon points="${back},${h / 2 - s} ${tip} ${back},${h / 2 + s}" fill="${c}"/>`;
    if (kind === 'circle') return `<circle cx="${at + (dir * s) / 2}" cy="${h / 2}" r="${s / 2}" fill="${c}"/>`;
    if (kind === 'square') return `<rect x="${Math.min(at, back)}" y="${h / 2 - s / 2}" width="${s}" height="${s}" fill="${c}"/>`;
    if (kind === 'bar') return `<line x1="${at}" y1="${h / 2 - s}" x2="${at}" y2="${h / 2 + s}" stroke="${c}" stroke-width="${h}"/>`;
    return '';
  };
  const svg =
    `<svg width="${w}" height="${h}" style="position:absolute;left:0;top:0;overflow:visible">` +
    `<line x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}" stroke="${c}" stroke-width="${h}"${dash}/>` +
    `${head(str(el.startHead, ''), 0, 1)}${head(str(el.endHead, ''), w, -1)}</svg>`;
  return place(el, opacity, svg);
}

function element(el, parentOpacity, ctx) {
  if (el.visible === false || el.showInExport === false) return '';
  const opacity = parentOpacity * num(el.opacity, 1);
  switch (el.type) {
    case 'group':
      return (el.children ?? []).map((c) => element(c, opacity, ctx)).join('');
    case 'text':
      return text(el, opacity);
    case 'image':
    case 'svg':
      return image(el, opacity, ctx);
    case 'figure':
      return figure(el, opacity, ctx);
    case 'line':
      return line(el, opacity);
    default:
      ctx.notes.add(`element type ${el.type} not drawn by the reference`);
      return '';
  }
}

function background(bg, ctx) {
  if (/^\s*(#|rgba?\(|hsla?\(|[a-z]+\s*$|linear-gradient\(|radial-gradient\()/i.test(bg)) return `background:${bg};`;
  const file = ctx.image(bg);
  if (!file) {
    ctx.notes.add(`background image not available to the reference: ${bg.slice(0, 60)}`);
    return 'background:white;';
  }
  return `background:url("${attr(file.url)}") center / cover no-repeat;`;
}

/**
 * Polotno's change-font-size loop, run in the page once its fonts are loaded: from the element's size,
 * while the text is taller than the saved height or a word sticks out of the width, 0.5 px less, at most
 * round(2 × size) − 2 times and never below the element's minFontSize.
 */
const FIT_SCRIPT = `globalThis.fitPolotnoTexts = () => {
  for (const box of document.querySelectorAll('[data-fit-height]')) {
    const text = box.querySelector('[data-text]');
    const height = Number(box.dataset.fitHeight);
    const min = Number(box.dataset.fitMin);
    let size = Number(box.dataset.fontSize);
    const overflows = () => text.offsetHeight > height + 0.5 || text.scrollWidth > text.clientWidth + 0.5;
    for (let i = 0; i < Math.round(2 * size) - 2 && size - 0.5 >= min && overflows(); i++) {
      size -= 0.5;
      box.style.fontSize = size + 'px';
    }
  }
};`;

/**
 * Page `pageIndex` as a standalone HTML document.
 * - `faces`: [{ family, weight, style, path }] font files declared with @font-face;
 * - `image(src)`: { url, size: {width, height}, path? } for an image reference, or null when unavailable.
 * Returns { html, width, height, notes } where notes lists what the reference could not draw.
 */
export function polotnoPageHtml(doc, pageIndex, { faces, image }) {
  const page = doc.pages[pageIndex];
  const { width, height } = pageSize(doc, page);
  const ctx = { image, notes: new Set() };
  const fontCss = faces
    .map((f) => `@font-face{font-family:"${f.family}";font-weight:${f.weight};font-style:${f.style};src:url("file://${f.path}")}`)
    .join('\n');
  const body = (page.children ?? [])
    .filter((el) => el.alwaysOnTop !== true)
    .concat((page.children ?? []).filter((el) => el.alwaysOnTop === true))
    .map((el) => element(el, 1, ctx))
    .join('\n');
  const doc_ = `<!doctype html><html><head><meta charset="utf-8"><style>${fontCss}
html,body{margin:0;padding:0;overflow:hidden}
#page{position:relative;overflow:hidden;width:${width}px;height:${height}px;${background(str(page.background, 'white'), ctx)}}
p{margin:0}
</style><script>${FIT_SCRIPT}</script></head><body><div id="page">${body}</div></body></html>`;
  ctx.notes.delete('svg');
  return { html: doc_, width, height, notes: [...ctx.notes] };
}

/** Draws the HTML in a Playwright Chromium browser at its pixel size and returns the PNG bytes. */
export async function screenshotHtml(browser, htmlText, width, height, workDir, name) {
  const file = join(workDir, `${name}.html`);
  writeFileSync(file, htmlText);
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  try {
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    // The function runs in the page, where `document` is the page's.
    await page.evaluate(async () => {
      const { document: d } = globalThis;
      await d.fonts.ready;
      globalThis.fitPolotnoTexts?.();
      await Promise.all([...d.images].map((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })))));
    });
    return await page.screenshot({ clip: { x: 0, y: 0, width, height }, omitBackground: false });
  } finally {
    await page.close();
  }
}
