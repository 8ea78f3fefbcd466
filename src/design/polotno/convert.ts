// Polotno store JSON → an Imprint design (template format v1) plus the files its data: URLs embed.
// Pure: no I/O (remote files are fetched by the import, src/service/remote-files.ts, and handed in). Each element becomes the object that draws it exactly; a field Imprint cannot draw
// exactly is refused at its Polotno JSON path, never approximated. Errors found later in the converted
// design are traced back to the element they came from (polotnoPath).
import { validationError } from '../../errors.js';
import { issueToError } from '../../format/zod-error.js';
import { jsonPath, type PathSegment } from '../../format/json-path.js';
import { AnimationError, convertAnimations } from './animations.js';
import { Converter, type PolotnoOptions, type RemoteRef } from './context.js';
import { CSS_COLOR_HINT, cssColorToHex } from './css-color.js';
import { isCssGradient } from './css-gradient.js';
import { POLOTNO_DRAWN_FIGURES } from './figures.js';
import { looksLikeRichText, parseRichText, RichTextError, type Run, type RunStyle } from './rich-text.js';
import {
  PolotnoDesign,
  REFUSED_TYPES,
  type PolotnoAnimation,
  type PolotnoElement,
  type PolotnoFigure,
  type PolotnoGroupInput,
  type PolotnoImage,
  type PolotnoLine,
  type PolotnoPage,
  type PolotnoSvg,
  type PolotnoText,
  type PolotnoVideo,
} from './schema.js';
import { color, colorWithAlpha, fontWeightOf, linearGradient, paint, refuse, round } from './shared.js';

export type { FetchedFile, PolotnoOptions, RemoteKind, RemoteRef } from './context.js';

type Json = Record<string, unknown>;

export interface PolotnoConversion {
  /** The Imprint design (template format v1), to be validated by parseDesign like any other. */
  design: Json;
  /** Files embedded as data: URLs, by the relative path the design refers to them with. */
  files: Map<string, Uint8Array>;
  /** Imprint JSON path → the Polotno path it came from, most specific first (see polotnoPath). */
  origins: [imprint: string, polotno: string][];
  /** The http(s) URLs the document refers to, in document order (with `remote: 'list'`: every one). */
  remote: RemoteRef[];
}

/** A Polotno document: pages whose entries hold children, and no Imprint objects or slides. */
export function isPolotnoDocument(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Json;
  return Array.isArray(v.pages) && !('objects' in v) && !('slides' in v) && v.pages.every((p) => p !== null && typeof p === 'object');
}

/**
 * The Polotno path an error at `imprintPath` (rooted at "$") of the converted design belongs to, or
 * undefined when it is not a path of the design (an override's, say).
 */
export function polotnoPath(conversion: PolotnoConversion, imprintPath: string): string | undefined {
  for (const [from, to] of conversion.origins) {
    if (imprintPath === from || imprintPath.startsWith(`${from}.`) || imprintPath.startsWith(`${from}[`)) return to;
  }
  return undefined;
}

const DEFAULT_PAGE_MS = 5000;
const TEXT_DEFAULTS = { fontSize: 14, fontFamily: 'Roboto', fill: 'black', align: 'center', lineHeight: 1.2 } as const;

/**
 * Placement of an element: Polotno rotates around the top-left corner (x, y), Imprint around the box
 * centre, so the box moves to where Polotno's rotated centre lands.
 */
function placement(x: number, y: number, width: number, height: number, rotation: number): Json {
  if (rotation === 0) return { x: round(x), y: round(y), width: round(width), height: round(height) };
  const r = (rotation * Math.PI) / 180;
  const cx = x + (width / 2) * Math.cos(r) - (height / 2) * Math.sin(r);
  const cy = y + (width / 2) * Math.sin(r) + (height / 2) * Math.cos(r);
  return { x: round(cx - width / 2), y: round(cy - height / 2), width: round(width), height: round(height), rotation: round(rotation) };
}

type Shaped = Exclude<PolotnoElement, PolotnoGroupInput>;

/** Polotno allows one name on several elements (a role such as "primary_colour"): an override of it applies to all. */
function named(e: { name?: string | undefined }, out: Json): void {
  const name = e.name?.trim();
  if (name) out.name = name;
}

/**
 * The Imprint object of an element, begun: its type, name and box. `defaultWidth` is Polotno's width
 * for the type when the element has none; `height` the height the converter settled on.
 */
function begin(e: Shaped, type: string, size: { defaultWidth: number; height: number }): { out: Json; width: number; height: number } {
  const width = e.width ?? size.defaultWidth;
  const height = size.height;
  const out: Json = { type };
  named(e, out);
  Object.assign(out, placement(e.x ?? 0, e.y ?? 0, width, height, e.rotation ?? 0));
  return { out, width, height };
}

/** Effects every element type has; those without an exact Imprint equivalent are refused. */
function commonEffects(e: Shaped, at: string, out: Json): void {
  if (e.shadowEnabled) {
    // Konva draws shadows with the canvas shadowOffset, which the element's rotation does not turn:
    // page pixels, as Imprint's offsets are.
    out.shadow = {
      color: colorWithAlpha(e.shadowColor ?? 'black', e.shadowOpacity ?? 1, `${at}.shadowColor`),
      // Konva's shadowBlur is the canvas shadowBlur (σ = blur / 2), as Imprint's shadow.blur.
      blur: round(e.shadowBlur ?? 5),
      offset_x: round(e.shadowOffsetX ?? 0),
      offset_y: round(e.shadowOffsetY ?? 0),
    };
  }
  if (e.blurEnabled) {
    const radius = e.blurRadius ?? 10;
    if (e.type === 'image' || e.type === 'svg' || e.type === 'video') {
      // Polotno scales an image's blur with the source's size, which only the renderer knows.
      refuse(at, 'blurRadius', `blur on ${e.type} elements depends on the source file's pixel size in Polotno and is not supported: remove blurEnabled`);
    }
    // Konva's blur radius R draws as CSS blur(R / 2 px), which is Imprint's blur.
    if (radius > 0) out.blur = round(radius / 2);
  }
  if (e.brightnessEnabled && (e.brightness ?? 0) !== 0) {
    if (e.type !== 'image')
      refuse(at, 'brightnessEnabled', `brightness is supported on image elements only, not on ${e.type} elements: remove brightnessEnabled`);
    out.filters = { ...(out.filters as Json | undefined), brightness: round(1 + (e.brightness ?? 0)) };
  }
  if (e.sepiaEnabled) {
    if (e.type !== 'image') refuse(at, 'sepiaEnabled', `sepia is supported on image elements only, not on ${e.type} elements: remove sepiaEnabled`);
    out.filters = { ...(out.filters as Json | undefined), sepia: 1 };
  }
  if (e.grayscaleEnabled) {
    if (e.type !== 'image') refuse(at, 'grayscaleEnabled', `grayscale is supported on image elements only, not on ${e.type} elements: remove grayscaleEnabled`);
    out.filters = { ...(out.filters as Json | undefined), grayscale: 1 };
  }
  const named = e.filters && !Array.isArray(e.filters) ? Object.keys(e.filters) : [];
  if (named.length > 0) {
    refuse(
      at,
      `filters.${named[0]}`,
      `the "${named[0]}" filter has no exact equivalent in Imprint: remove it (grayscaleEnabled, sepiaEnabled and brightnessEnabled are supported on images)`,
    );
  }
  if (e.opacity !== undefined && e.opacity !== 1) out.opacity = e.opacity;
  if (e.visible === false) out.hidden = true;
}

function animationsOf(list: readonly PolotnoAnimation[] | undefined, out: Json, at: string, pageSeconds: number): void {
  if (!list?.length) return;
  try {
    const anims = convertAnimations(list, {
      x: out.x as number,
      y: out.y as number,
      rotation: (out.rotation as number | undefined) ?? 0,
      opacity: (out.opacity as number | undefined) ?? 1,
      pageDuration: pageSeconds,
    });
    if (anims.length) out.animations = anims;
  } catch (e) {
    if (e instanceof AnimationError) throw validationError(`${at}.animations${e.field}`, e.message);
    throw e;
  }
}

function lineHeightOf(v: number | string | undefined, at: string): number {
  if (v === undefined) return TEXT_DEFAULTS.lineHeight;
  if (typeof v === 'number') return v;
  const s = v.trim();
  const n = s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s);
  if (s === 'auto' || !Number.isFinite(n)) {
    throw validationError(
      at,
      `expected a line height multiplier such as 1.2 (or "150%") but received ${JSON.stringify(v)} ("auto" depends on the browser's font metrics)`,
    );
  }
  return n;
}

function convertText(c: Converter, e: PolotnoText, at: string, pageSeconds: number): Json {
  const fontSize = e.fontSize ?? TEXT_DEFAULTS.fontSize;
  const lineHeight = lineHeightOf(e.lineHeight, `${at}.lineHeight`);
  const width = e.width ?? 100;
  // 0 means "not measured yet": the editor sizes the box to the text.
  const savedHeight = e.height ?? 0;
  const height = savedHeight > 0 ? savedHeight : fontSize * lineHeight;
  if ((e.rotation ?? 0) !== 0 && savedHeight <= 0) {
    // Polotno turns the text about its top-left corner whatever its height; Imprint about the box
    // centre, which is only the same point when the height the editor measured is known.
    refuse(at, 'height', 'a rotated text needs the height the editor measured (it saves it): give height, the height of the text in pixels');
  }
  const { out } = begin(e, 'text', { defaultWidth: width, height });
  const family = e.fontFamily ?? TEXT_DEFAULTS.fontFamily;
  c.family(family, `${at}.fontFamily`);
  out.font_family = family;
  out.font_size = fontSize;
  const weight = fontWeightOf(e.fontWeight, `${at}.fontWeight`);
  if (weight !== 400) out.font_weight = weight;
  if (e.fontStyle === 'italic') out.font_style = 'italic';
  out.text_align = e.align ?? TEXT_DEFAULTS.align;
  out.line_height = lineHeight;
  if (e.letterSpacing) {
    // Before schema version 1 the spacing was stored in rem (16 px).
    out.letter_spacing = round(c.schemaVersion < 1 ? (e.letterSpacing * 16) / fontSize : e.letterSpacing);
  }
  if (e.textTransform && e.textTransform !== 'none') out.text_transform = e.textTransform;
  // Konva counts the spaces ending a paragraph when it centres or right-aligns the line (CSS hangs them).
  out.keep_trailing_spaces = true;

  const fill = paint(e.fill ?? TEXT_DEFAULTS.fill, width, height, `${at}.fill`);
  const baseColor = 'color' in fill ? fill.color : fill.stops[0]!.color;
  if ('color' in fill) out.color = fill.color;
  else out.fill = fill;

  if ((e.strokeWidth ?? 0) > 0) {
    if ((e.strokeLineJoin ?? 'round') !== 'round') {
      refuse(at, 'strokeLineJoin', `only round stroke joins are supported on text (received "${e.strokeLineJoin}"): set strokeLineJoin to "round"`);
    }
    out.stroke = { color: color(e.stroke ?? 'black', `${at}.stroke`), width: e.strokeWidth };
  }
  if (e.backgroundEnabled) {
    const unit = fontSize * lineHeight * 0.5;
    out.background = {
      color: colorWithAlpha(e.backgroundColor ?? '#7ED321', e.backgroundOpacity ?? 1, `${at}.backgroundColor`),
      padding: round((e.backgroundPadding ?? 0.5) * unit),
      corner_radius: round((e.backgroundCornerRadius ?? 0.5) * unit),
      // Polotno's loadJSON marks every text background of a document before schema version 3 (no
      // schemaVersion counts as 0) legacyBackground, drawn as one rectangle over the whole element.
      mode: e.legacyBackground === true || c.schemaVersion < 3 ? 'full_width' : 'lines',
    };
  }
  if (e.curveEnabled) refuse(at, 'curveEnabled', 'curved text is not supported: set curveEnabled to false');
  if (e.maxLines) refuse(at, 'maxLines', 'maxLines is not supported: remove it (fit shrinks text into its box instead)');

  // Sizing. Polotno's server render (polotno-node) sets textOverflow "change-font-size" for every text:
  // a text taller than its saved height shrinks by 0.5 px steps from its size until it fits, and (unless
  // textSplitAllowed) until no word is split across lines. An element's own textOverflow wins:
  // "resize" grows the box with the text, and Konva then splits a word too long for a line.
  const valign = e.verticalAlign ?? 'top';
  const overflow = e.textOverflow ?? 'change-font-size';
  if (overflow === 'ellipsis') refuse(at, 'textOverflow', 'textOverflow "ellipsis" is not supported: use "change-font-size" (shrink to fit) or "resize"');
  // Without a saved height (the editor always saves one) the default grows the box; a middle- or
  // bottom-aligned text with one is placed in it, and shrinks as a change-font-size one.
  const fit = (overflow !== 'resize' && (e.textOverflow !== undefined || savedHeight > 0)) || (valign !== 'top' && savedHeight > 0);
  const imprintValign = valign === 'middle' ? 'center' : valign;
  const split = overflow === 'resize' || c.textSplitAllowed;
  out.overflow_wrap = split ? 'break-word' : 'normal';
  out.config = fit
    ? {
        text_replacement_strategy: 'fit',
        text_replacement_strategy_fit_valign: imprintValign,
        text_replacement_strategy_fit_step: 0.5,
        // Polotno then sets the element's height to its text's; a middle or bottom one keeps its box.
        ...(valign === 'top' ? { text_replacement_strategy_fit_height: 'text' } : {}),
        ...(split ? { text_replacement_strategy_fit_split_words: true } : {}),
      }
    : { text_replacement_strategy: 'fixed-width' };
  // Polotno's fit shrinks down to minFontSize (default 1 px) and draws at most maxFontSize.
  if (fit) out.min_font_size = Math.min(e.minFontSize ?? 1, fontSize);
  if (fit && e.maxFontSize !== undefined && e.maxFontSize < fontSize) out.font_size = e.maxFontSize;

  out.text = textMarkup(c, e, at, { weight, italic: e.fontStyle === 'italic', color: baseColor, family }, out);
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}

interface BaseStyle {
  underline?: boolean;
  strikethrough?: boolean;
  weight: number;
  italic: boolean;
  color: string;
  family: string;
}

/** The element's text as Imprint markup: rich-text runs and the element's decoration as substyles. */
function textMarkup(c: Converter, e: PolotnoText, at: string, base: BaseStyle, out: Json): string {
  const text = e.text ?? '';
  let runs: Run[];
  try {
    runs = looksLikeRichText(text) ? parseRichText(text) : [{ text, style: {} }];
  } catch (err) {
    if (err instanceof RichTextError) throw validationError(`${at}.text`, err.message);
    throw err;
  }
  const decoration = (e.textDecoration ?? '').toLowerCase();
  for (const word of decoration.split(/\s+/).filter(Boolean)) {
    if (word !== 'underline' && word !== 'line-through') {
      refuse(at, 'textDecoration', `expected "underline", "line-through" or both but received ${JSON.stringify(e.textDecoration)}`);
    }
  }
  // The element's decoration is the text object's own, so it stays when an override replaces the text.
  if (decoration.includes('underline')) out.underline = base.underline = true;
  if (decoration.includes('line-through')) out.strikethrough = base.strikethrough = true;
  return runs.map((r) => substyle(c, r.text, definedOnly(r.style), base, at)).join('');
}

function definedOnly(s: RunStyle): RunStyle {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));
}

function substyle(c: Converter, text: string, s: RunStyle, base: BaseStyle, at: string): string {
  if (text.includes('<substyle') || text.includes('</substyle')) {
    throw validationError(`${at}.text`, 'the text contains "<substyle", which Imprint reads as markup: remove it');
  }
  const attrs: string[] = [];
  if (s.weight !== undefined && s.weight !== base.weight) attrs.push(`bold="${s.weight}"`);
  if (s.italic === true && !base.italic) attrs.push('italic');
  if (s.italic === false && base.italic) {
    throw validationError(
      `${at}.text`,
      'an upright span inside italic text cannot be expressed: make the element upright (fontStyle normal) and make the other parts italic with <em>',
    );
  }
  if (s.family !== undefined && s.family !== base.family) {
    if (s.family.includes('"')) throw validationError(`${at}.text`, `the font family ${JSON.stringify(s.family)} contains a double quote: rename it`);
    c.family(s.family, `${at}.text`);
    attrs.push(`font_family="${s.family}"`);
  }
  if (s.color !== undefined) {
    const hex = color(s.color, `${at}.text`);
    if (hex !== base.color) attrs.push(`color="${hex}"`);
  }
  if (s.underline && !base.underline) attrs.push('underline');
  if (s.strikethrough && !base.strikethrough) attrs.push('strikethrough');
  return attrs.length === 0 ? text : `<substyle ${attrs.join(' ')}>${text}</substyle>`;
}

function crop(
  e: { cropX?: number | undefined; cropY?: number | undefined; cropWidth?: number | undefined; cropHeight?: number | undefined },
  at: string,
): Json | undefined {
  const x = e.cropX ?? 0;
  const y = e.cropY ?? 0;
  const width = e.cropWidth ?? 1;
  const height = e.cropHeight ?? 1;
  if (x === 0 && y === 0 && width === 1 && height === 1) return undefined;
  if (x + width > 1 + 1e-6)
    throw validationError(
      `${at}.cropWidth`,
      `expected cropX + cropWidth to be at most 1 (the crop must lie inside the image): lower cropWidth to ${round(1 - x)} or less`,
    );
  if (y + height > 1 + 1e-6)
    throw validationError(`${at}.cropHeight`, `expected cropY + cropHeight to be at most 1: lower cropHeight to ${round(1 - y)} or less`);
  return { x: round(x), y: round(y), width: round(Math.min(width, 1 - x)), height: round(Math.min(height, 1 - y)) };
}

function pictureFields(c: Converter, e: PolotnoImage | PolotnoVideo, at: string, out: Json, width: number, height: number): void {
  // Polotno trims the crop to the box's aspect from the crop's top-left corner: cover with the focal
  // point there does the same. stretchEnabled stretches the crop instead.
  const cr = crop(e, at);
  if (cr) out.crop = cr;
  out.config = e.stretchEnabled
    ? { media_replacement_strategy: 'fill' }
    : { media_replacement_strategy: 'cover', focal_point: { x: round(e.cropX ?? 0), y: round(e.cropY ?? 0) } };
  const radius = Math.min(e.cornerRadius ?? 0, width / 2, height / 2);
  if (radius > 0) out.corner_radius = round(radius);
  if (e.flipX) out.flip_x = true;
  if (e.flipY) out.flip_y = true;
  if ((e.borderSize ?? 0) > 0) out.border = { width: e.borderSize, color: color(e.borderColor ?? 'black', `${at}.borderColor`) };
  if (e.clipSrc) out.clip_svg = c.source(e.clipSrc, `${at}.clipSrc`, 'clip mask', 'svg');
}

function convertImage(c: Converter, e: PolotnoImage, at: string, pageSeconds: number): Json {
  const { out, width, height } = begin(e, 'image', { defaultWidth: 100, height: e.height ?? 100 });
  out.path = c.source(e.src, `${at}.src`, 'image', 'image');
  // maskSrc is not a field of Polotno's image elements: its renderer ignores it there and draws the
  // image whole, so it is ignored here too (a frame is an svg element with maskSrc: convertSvg).
  pictureFields(c, e, at, out, width, height);
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}

function convertVideo(c: Converter, e: PolotnoVideo, at: string, pageSeconds: number): Json {
  const { out } = begin(e, 'video', { defaultWidth: 100, height: e.height ?? 100 });
  out.path = c.source(e.src, `${at}.src`, 'video', 'video');
  for (const f of ['cropX', 'cropY', 'cropWidth', 'cropHeight', 'cornerRadius', 'clipSrc', 'borderSize', 'flipX', 'flipY'] as const) {
    const v = e[f];
    const neutral = f === 'cropWidth' || f === 'cropHeight' ? 1 : f === 'clipSrc' ? '' : f === 'flipX' || f === 'flipY' ? false : 0;
    if (v !== undefined && v !== neutral) refuse(at, f, `${f} is not supported on video elements: remove it (crop the clip itself)`);
  }
  const seconds = (e.duration ?? 0) / 1000;
  const start = e.startTime ?? 0;
  const end = e.endTime ?? 1;
  if ((start > 0 || end < 1) && seconds <= 0) refuse(at, 'duration', 'startTime and endTime are fractions of the clip duration: give duration (ms) too');
  if (start > 0) out.trim_start = round(start * seconds);
  if (end < 1) out.trim_end = round(end * seconds);
  if ((e.speed ?? 1) !== 1) refuse(at, 'speed', 'playback speed other than 1 is not supported: render the clip at the speed you want');
  const volume = e.volume ?? 1;
  if (volume === 0) out.muted = true;
  else if (volume !== 1) refuse(at, 'volume', 'only volume 0 (muted) or 1 is supported on video elements');
  out.config = { media_replacement_strategy: e.stretchEnabled ? 'fill' : 'cover' };
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}

function convertFigure(e: PolotnoFigure, at: string, pageSeconds: number): Json {
  const { out, width, height } = begin(e, 'shape', { defaultWidth: 100, height: e.height ?? 100 });
  const sub = e.subType ?? 'rect';
  const radius = e.cornerRadius ?? 0;
  if (sub === 'rect') {
    out.shape = radius > 0 ? 'rounded_rect' : 'rect';
    if (radius > 0) out.corner_radius = round(Math.min(radius, width / 2, height / 2));
  } else if (sub === 'circle') out.shape = 'ellipse';
  else if (sub === 'speechBubble') {
    // Drawn in the element's own pixels (its corners and tail follow the box, not a fixed drawing).
    out.shape = 'path';
    out.path_data = speechBubblePath(width, height);
    out.view_box = [0, 0, round(width), round(height)];
  } else if (POLOTNO_DRAWN_FIGURES.includes(sub)) {
    refuse(
      at,
      'subType',
      `the figure "${sub}" is one of Polotno's fixed drawings, whose outlines belong to Polotno's commercially licensed SDK and are not shipped with Imprint: replace it with an svg element of the same shape (Polotno can export it as SVG), or a rect, circle or polygon figure`,
    );
  } else {
    const corners = FIGURES[sub];
    if (!corners) refuse(at, 'subType', `the figure "${sub}" is not one of Polotno's figures: use one of ${POLOTNO_FIGURES.join(', ')}`);
    out.shape = 'polygon';
    out.vertices = corners.map(([x, y]) => [round(x), round(y)]);
  }
  const fill = paint(e.fill ?? 'rgb(0, 161, 255)', width, height, `${at}.fill`);
  out.background = 'color' in fill ? { type: 'color', color: fill.color } : fill;
  const strokeWidth = e.strokeWidth ?? 0;
  if (strokeWidth > 0) {
    out.border = { width: strokeWidth, color: color(e.stroke ?? 'rgba(98, 197, 255, 1)', `${at}.stroke`), ...dashOf(e.dash) };
  }
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}

/** Corners of a regular figure inscribed in the box's ellipse, the first at the top (Polotno's pentagon, hexagon, star). */
function inscribed(n: number, radius: (i: number) => number): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return [0.5 + radius(i) * Math.sin(a), 0.5 - radius(i) * Math.cos(a)];
  });
}

/**
 * Polotno figures with straight sides, as the corners of an Imprint polygon in fractions of the box:
 * the outlines Polotno's renderer draws (regular figures inscribed in the box's ellipse, a star with
 * inner corners at half its radius, arrows with a 60 % shaft, a cross with arms 30 % thick). Curved
 * figures (heart, cloud, blobs…) are refused.
 */
const FIGURES: Record<string, [number, number][]> = {
  triangle: [
    [0.5, 0],
    [1, 1],
    [0, 1],
  ],
  rightTriangle: [
    [0, 0],
    [1, 0],
    [0, 1],
  ],
  diamond: [
    [0.5, 0],
    [1, 0.5],
    [0.5, 1],
    [0, 0.5],
  ],
  pentagon: inscribed(5, () => 0.5),
  hexagon: inscribed(6, () => 0.5),
  star: inscribed(10, (i) => (i % 2 === 0 ? 0.5 : 0.25)),
  cross: [
    [0.35, 0],
    [0.65, 0],
    [0.65, 0.35],
    [1, 0.35],
    [1, 0.65],
    [0.65, 0.65],
    [0.65, 1],
    [0.35, 1],
    [0.35, 0.65],
    [0, 0.65],
    [0, 0.35],
    [0.35, 0.35],
  ],
  rightArrow: [
    [0, 0.25],
    [0.6, 0.25],
    [0.6, 0],
    [1, 0.5],
    [0.6, 1],
    [0.6, 0.75],
    [0, 0.75],
  ],
  leftArrow: [
    [1, 0.25],
    [0.4, 0.25],
    [0.4, 0],
    [0, 0.5],
    [0.4, 1],
    [0.4, 0.75],
    [1, 0.75],
  ],
  upArrow: [
    [0.25, 1],
    [0.25, 0.4],
    [0, 0.4],
    [0.5, 0],
    [1, 0.4],
    [0.75, 0.4],
    [0.75, 1],
  ],
  downArrow: [
    [0.25, 0],
    [0.25, 0.6],
    [0, 0.6],
    [0.5, 1],
    [1, 0.6],
    [0.75, 0.6],
    [0.75, 0],
  ],
};

/** Every figure subType Polotno draws (@polotno/core TYPES), each drawn here with Polotno's outline. */
export const POLOTNO_FIGURES: readonly string[] = ['rect', 'circle', 'speechBubble', ...Object.keys(FIGURES)];

/** Polotno's speech bubble in the element's pixels: corners of 10 % of the shorter side, a tail 20 % wide and high at the middle. */
function speechBubblePath(width: number, height: number): string {
  const r = round(Math.min(width, height) * 0.1);
  const [w, h] = [round(width), round(height)];
  const tw = width * 0.2;
  const th = round(height * 0.2);
  const mid = width * 0.5;
  return [
    `M ${r},0 H ${round(w - r)} A ${r},${r} 0 0 1 ${w},${r} V ${round(h - r - th)}`,
    `A ${r},${r} 0 0 1 ${round(w - r)},${round(h - th)} H ${round(mid + tw / 2)} L ${round(mid)},${h} L ${round(mid - tw / 2)},${round(h - th)}`,
    `H ${r} A ${r},${r} 0 0 1 0,${round(h - r - th)} V ${r} A ${r},${r} 0 0 1 ${r},0 Z`,
  ].join(' ');
}

const HEADS = new Set(['arrow', 'triangle', 'circle', 'square', 'bar']);

function convertLine(e: PolotnoLine, at: string, pageSeconds: number): Json {
  // A line's height is its stroke width: the Imprint line takes it from its box the same way.
  const { out } = begin(e, 'line', { defaultWidth: 400, height: e.height ?? 10 });
  out.color = color(e.color ?? 'black', `${at}.color`);
  if (e.dash?.length) out.dash = e.dash;
  for (const [field, key] of [
    ['startHead', 'start_head'],
    ['endHead', 'end_head'],
  ] as const) {
    const head = e[field] ?? '';
    // Polotno draws nothing for a head it does not know; Imprint's "none" is the same.
    if (head !== '') out[key] = HEADS.has(head) ? head : 'none';
  }
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}

function convertSvg(c: Converter, e: PolotnoSvg, at: string, pageSeconds: number): Json {
  const { out } = begin(e, 'svg', { defaultWidth: 100, height: e.height ?? 100 });
  const legacy = (e.src === undefined || e.src === '') && e.svgSource !== undefined;
  out.path = c.source(legacy ? e.svgSource : e.src, `${at}.${legacy ? 'svgSource' : 'src'}`, 'svg', 'svg');
  for (const f of ['cropX', 'cropY', 'cropWidth', 'cropHeight', 'flipX', 'flipY', 'clipSrc'] as const) {
    const v = e[f];
    const neutral = f === 'cropWidth' || f === 'cropHeight' ? 1 : f === 'clipSrc' ? '' : f === 'flipX' || f === 'flipY' ? false : 0;
    if (v !== undefined && v !== neutral) refuse(at, f, `${f} is not supported on svg elements: remove it (edit the SVG file instead)`);
  }
  // Polotno stretches an svg to its box unless stretchEnabled is off (then it keeps its aspect, as an <img>).
  out.config = { media_replacement_strategy: e.stretchEnabled === false ? 'contain' : 'fill' };
  if (e.maskSrc) {
    // A frame: Polotno draws the drawing, then the picture over it with "source-in" (the picture
    // where the drawing is), the picture cut to the box's aspect around its centre.
    if (e.stretchEnabled === false) {
      refuse(
        at,
        'stretchEnabled',
        'a frame (an svg with maskSrc) with stretchEnabled false is cut by Polotno from the top-left corner of the drawing stretched to the picture, which Imprint cannot draw: set stretchEnabled to true (the default)',
      );
    }
    out.fill_image = c.source(e.maskSrc, `${at}.maskSrc`, 'picture of the frame (maskSrc)', 'image');
  }
  // Polotno rounds the clip of the drawing, and draws the border as a node of its own (its opacity,
  // no shadow) on top; the svg object draws both the same way.
  if ((e.cornerRadius ?? 0) > 0) out.corner_radius = round(e.cornerRadius!);
  if ((e.borderSize ?? 0) > 0) out.border = { width: e.borderSize, color: color(e.borderColor ?? 'black', `${at}.borderColor`) };
  const replace = e.colorsReplace && !Array.isArray(e.colorsReplace) ? Object.entries(e.colorsReplace) : [];
  if (replace.length) {
    out.colors = Object.fromEntries(
      replace.map(([from, to]) => {
        if (cssColorToHex(from) === undefined)
          refuse(at, `colorsReplace.${from}`, `${CSS_COLOR_HINT} as the colour to replace but received ${JSON.stringify(from)}`);
        return [from, color(to, `${at}.colorsReplace.${from}`)];
      }),
    );
  }
  commonEffects(e, at, out);
  animationsOf(e.animations, out, at, pageSeconds);
  return out;
}

/** Polotno dashes are multiples of the stroke width, as the border's dash. */
function dashOf(dash: number[] | undefined): Json {
  return dash && dash.length > 0 ? { dash } : {};
}

class Page {
  readonly objects: Json[] = [];
  constructor(
    readonly c: Converter,
    readonly seconds: number,
    readonly objectsAt: string,
  ) {}

  add(e: PolotnoElement, at: string, inherited: { opacity: number; hidden: boolean; animations: PolotnoAnimation[] }): void {
    if (e.showInExport === false) return;
    if (e.type === 'group') {
      this.group(e, at, inherited);
      return;
    }
    const c = this.c;
    const withGroup = { ...e, animations: [...(e.animations ?? []), ...inherited.animations] } as Shaped;
    let out: Json;
    switch (withGroup.type) {
      case 'text':
        out = convertText(c, withGroup, at, this.seconds);
        break;
      case 'image':
        out = convertImage(c, withGroup, at, this.seconds);
        break;
      case 'video':
        out = convertVideo(c, withGroup, at, this.seconds);
        break;
      case 'figure':
        out = convertFigure(withGroup, at, this.seconds);
        break;
      case 'line':
        out = convertLine(withGroup, at, this.seconds);
        break;
      case 'svg':
        out = convertSvg(c, withGroup, at, this.seconds);
        break;
    }
    if (inherited.opacity !== 1) {
      out.opacity = round(((out.opacity as number | undefined) ?? 1) * inherited.opacity);
      // Opacity keyframes (a blink) are absolute: the group's opacity scales them too.
      for (const a of (out.animations as Json[] | undefined) ?? []) {
        if (a.type === 'keyframes' && a.property === 'opacity') {
          a.keyframes = (a.keyframes as { time: number; value: number }[]).map((k) => ({ time: k.time, value: round(k.value * inherited.opacity) }));
        }
      }
    }
    if (inherited.hidden) out.hidden = true;
    const path = `${this.objectsAt}[${this.objects.length}]`;
    // Field-level origins first (they are more specific), then the element as a whole.
    for (const [imprintField, polotnoField] of FIELD_ORIGINS) c.origin(`${path}.${imprintField}`, `${at}.${polotnoField}`);
    c.origin(path, at);
    this.objects.push(out);
  }

  private group(g: PolotnoGroupInput, at: string, inherited: { opacity: number; hidden: boolean; animations: PolotnoAnimation[] }): void {
    const children = (g.children ?? []).filter((ch) => ch.showInExport !== false);
    const opacity = g.opacity ?? 1;
    const leaves = countLeaves(children);
    // Konva multiplies a group's opacity into each child's (overlapping children show through each
    // other), which is what multiplying it into every element does; fades and blinks likewise. A zoom
    // or a turn of the group moves its elements around the group's centre, not their own.
    const animations = (g.animations ?? []).filter((a) => a.enabled !== false && (a.name ?? 'none') !== 'none');
    if (animations.some((a) => a.name === 'zoom' || a.name === 'rotate') && leaves > 1) {
      refuse(
        at,
        'animations',
        'zoom and rotate animations of a group of several elements turn them around the group centre, which Imprint cannot: remove it and animate the elements',
      );
    }
    const next = {
      opacity: inherited.opacity * opacity,
      hidden: inherited.hidden || g.visible === false,
      animations: [...inherited.animations, ...animations],
    };
    ordered(children).forEach(({ e, i }) => this.add(e, `${at}.children[${i}]`, next));
  }
}

/** Where Imprint fields came from, for errors found once the design is validated. */
const FIELD_ORIGINS: [string, string][] = [
  ['font_family', 'fontFamily'],
  ['font_size', 'fontSize'],
  ['font_weight', 'fontWeight'],
  ['line_height', 'lineHeight'],
  ['letter_spacing', 'letterSpacing'],
  ['text', 'text'],
  ['corner_radius', 'cornerRadius'],
  ['path', 'src'],
  ['fill_image', 'maskSrc'],
  ['animations', 'animations'],
  ['x', 'x'],
  ['y', 'y'],
  ['width', 'width'],
  ['height', 'height'],
];

function countLeaves(list: readonly PolotnoElement[]): number {
  return list.reduce((n, e) => n + (e.type === 'group' ? countLeaves(e.children ?? []) : 1), 0);
}

/** Children in paint order: alwaysOnTop ones after the others, each keeping its index for paths. */
function ordered(children: readonly PolotnoElement[]): { e: PolotnoElement; i: number }[] {
  const all = children.map((e, i) => ({ e, i }));
  return [...all.filter((x) => !x.e.alwaysOnTop), ...all.filter((x) => x.e.alwaysOnTop)];
}

function background(c: Converter, value: string | undefined, width: number, height: number, at: string): Json {
  const v = value ?? 'white';
  if (isCssGradient(v)) return { ...linearGradient(v, width, height, at) };
  const hex = cssColorToHex(v);
  if (hex !== undefined) return { type: 'color', color: hex };
  return { type: 'image', path: c.source(v, at, 'page background image', 'image') };
}

function fontEntries(c: Converter, doc: PolotnoDesign, options: PolotnoOptions): Json[] {
  const out: Json[] = [];
  (doc.fonts ?? []).forEach((f, i) => {
    const at = c.at(['fonts', i]);
    const variants = f.styles?.length
      ? f.styles.map((s, j) => ({ src: unwrapCssUrl(s.src), weight: s.fontWeight, style: s.fontStyle, at: `${at}.styles[${j}].src` }))
      : f.url
        ? [{ src: f.url, weight: undefined, style: undefined, at: `${at}.url` }]
        : [];
    for (const v of variants) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v.src) && options.hasFamily?.(f.fontFamily)) continue;
      const entry: Json = { family: f.fontFamily, path: c.source(v.src, v.at, 'font file', 'font') };
      if (v.weight !== undefined) entry.weight = fontWeightOf(v.weight, v.at.replace(/\.src$/, '.fontWeight'));
      if (v.style === 'italic' || v.style === 'normal') entry.style = v.style;
      c.origin(`$.fonts[${out.length}]`, v.at);
      out.push(entry);
    }
  });
  return out;
}

function unwrapCssUrl(src: string): string {
  const m = /^\s*url\(\s*(['"]?)(.*?)\1\s*\)\s*$/.exec(src);
  return m ? m[2]! : src;
}

/** A page's size in pixels; fractional for a print size at a dpi (A4 at 300 dpi is 2480.315 × 3507.874). */
function pageSize(doc: PolotnoDesign, page: PolotnoPage): { width: number; height: number } {
  const width = page.width === undefined || page.width === 'auto' ? (doc.width ?? 1080) : page.width;
  const height = page.height === undefined || page.height === 'auto' ? (doc.height ?? 1080) : page.height;
  return { width, height };
}

/** A page's bleed as Polotno's resolveBleed reads it: `bleed` for every side, bleedTop… for one. */
function pageBleed(page: PolotnoPage): { top: number; right: number; bottom: number; left: number } {
  const base = page.bleed ?? 0;
  return { top: page.bleedTop ?? base, right: page.bleedRight ?? base, bottom: page.bleedBottom ?? base, left: page.bleedLeft ?? base };
}

/**
 * The design's `dpi` and `bleed`. Polotno's pdf is width × 72 / dpi points (its unit "pt" takes a pixel
 * for a point whatever the dpi: pxToUnit), and a page grows by its bleed (toPDF with includeBleed).
 */
function printFields(c: Converter, doc: PolotnoDesign): Json {
  const out: Json = { dpi: doc.unit === 'pt' ? 72 : (doc.dpi ?? 72) };
  const bleeds = doc.pages.map(pageBleed);
  const first = bleeds[0]!;
  bleeds.forEach((b, i) => {
    if (b.top !== first.top || b.right !== first.right || b.bottom !== first.bottom || b.left !== first.left) {
      throw validationError(
        c.at(['pages', i, 'bleed']),
        `every page must have the bleed of the first (${JSON.stringify(first)} px): Imprint gives all pages of a design one bleed; give this page the same bleed or split the design`,
      );
    }
  });
  if (first.top || first.right || first.bottom || first.left) {
    out.bleed = first.top === first.right && first.top === first.bottom && first.top === first.left ? first.top : first;
  }
  return out;
}

function audioOf(c: Converter, doc: PolotnoDesign): Json | undefined {
  const audios = doc.audios ?? [];
  if (audios.length === 0) return undefined;
  if (audios.length > 1) throw validationError(c.at(['audios', 1]), 'only one audio track is supported: mix the tracks into one file');
  const a = audios[0]!;
  const at = c.at(['audios', 0]);
  for (const [field, neutral] of [
    ['delay', 0],
    ['speed', 1],
    ['volume', 1],
  ] as const) {
    if ((a[field] ?? neutral) !== neutral) refuse(at, field, `audio ${field} other than ${neutral} is not supported: edit the sound file instead`);
  }
  if ((a.endTime ?? 1) < 1)
    refuse(at, 'endTime', 'an audio endTime before the end of the track is not supported: trim the sound file (the video ends the track)');
  // Polotno does not fade the track out; Imprint's default is a 1 s fade.
  const out: Json = { path: c.source(a.src, `${at}.src`, 'audio track', 'audio'), fade_out: 0 };
  if ((a.startTime ?? 0) > 0) {
    if (!a.duration) refuse(at, 'duration', 'startTime is a fraction of the track duration: give duration (ms) too');
    out.start = round((a.startTime! * a.duration) / 1000);
  }
  c.origin('$.audio', at);
  return out;
}

/** Strips nulls (Polotno reads null as "absent") and runtime keys (starting with "_") before validation. */
function normalise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalise);
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, val] of Object.entries(v)) {
    if (val === null || val === undefined || k.startsWith('_')) continue;
    out[k] = normalise(val);
  }
  return out;
}

function describePolotnoPath(input: unknown) {
  return (path: readonly PathSegment[]): string | undefined => {
    const n = path.length;
    if (n === 0) return 'a Polotno design';
    if (typeof path[n - 1] !== 'number') return undefined;
    const entry = path.reduce<unknown>((v, seg) => (v !== null && typeof v === 'object' ? (v as Record<PathSegment, unknown>)[seg] : undefined), input);
    const type = entry !== null && typeof entry === 'object' ? (entry as Json).type : undefined;
    if (path[n - 2] === 'children') return typeof type === 'string' ? `a ${type} element` : 'an element';
    if (path[n - 2] === 'pages') return 'a page';
    if (path[n - 2] === 'fonts') return 'a font';
    if (path[n - 2] === 'animations') return 'an animation';
    return undefined;
  };
}

/** Refuses element types Imprint does not draw by their name, before the schema reports them as unknown. */
function checkElementTypes(list: unknown, at: string): void {
  if (!Array.isArray(list)) return;
  list.forEach((e, i) => {
    if (e === null || typeof e !== 'object') return;
    const type = (e as Json).type;
    const here = `${at}[${i}]`;
    if (typeof type === 'string' && REFUSED_TYPES[type]) throw validationError(`${here}.type`, REFUSED_TYPES[type]);
    if (typeof type === 'string' && !['text', 'image', 'svg', 'line', 'figure', 'video', 'group'].includes(type)) {
      throw validationError(`${here}.type`, `unknown element type ${JSON.stringify(type)}: use one of text, image, svg, line, figure, video and group`);
    }
    if (type === 'group') checkElementTypes((e as Json).children, `${here}.children`);
  });
}

/** A converted object that changes over time: it has animations, or it is a video clip. */
const moves = (o: Json): boolean => o.type === 'video' || (Array.isArray(o.animations) && o.animations.length > 0);

export function convertPolotno(input: unknown, options: PolotnoOptions = {}): PolotnoConversion {
  const root = options.root ?? '$';
  const value = normalise(input);
  if (value !== null && typeof value === 'object' && Array.isArray((value as Json).pages)) {
    ((value as Json).pages as unknown[]).forEach((p, i) => {
      if (p !== null && typeof p === 'object') checkElementTypes((p as Json).children, jsonPath(['pages', i, 'children'], root));
    });
  }
  const parsed = PolotnoDesign.safeParse(value);
  if (!parsed.success) throw issueToError(parsed.error.issues[0]!, value, { root, schema: PolotnoDesign, describe: describePolotnoPath(value) });
  const doc = parsed.data;
  const c = new Converter(root, doc.schemaVersion ?? 0, options.remote ?? 'refuse', options.textSplitAllowed ?? false);
  const fonts = fontEntries(c, doc, options);

  const sizes = doc.pages.map((p) => pageSize(doc, p));
  const first = sizes[0]!;
  sizes.forEach((s, i) => {
    if (s.width !== first.width || s.height !== first.height) {
      throw validationError(
        c.at(['pages', i, 'width']),
        `every page must have the size of the first (${first.width}×${first.height}): Imprint renders pages of one size; split the design`,
      );
    }
  });

  const design: Json = { width: first.width, height: first.height, ...printFields(c, doc) };
  const pages = doc.pages.map((page, i) => {
    const seconds = (page.duration ?? DEFAULT_PAGE_MS) / 1000;
    if (seconds <= 0) throw validationError(c.at(['pages', i, 'duration']), 'expected a page duration greater than 0 ms');
    const objectsAt = doc.pages.length === 1 ? '$.objects' : `$.slides[${i}].objects`;
    const p = new Page(c, seconds, objectsAt);
    ordered(page.children).forEach(({ e, i: j }) => p.add(e, c.at(['pages', i, 'children', j]), { opacity: 1, hidden: false, animations: [] }));
    return { seconds, background: background(c, page.background, first.width, first.height, c.at(['pages', i, 'background'])), objects: p.objects };
  });

  const audio = audioOf(c, doc);
  if (pages.length === 1) {
    const p = pages[0]!;
    design.background = p.background;
    // Polotno gives every page a duration (5000 ms by default), animated or not: a page becomes an
    // animated design only when something in it moves or plays (or it has a soundtrack), otherwise
    // a one-page card would import as a 5 s video.
    if (audio || p.objects.some(moves)) design.duration = p.seconds;
    design.objects = p.objects;
    c.origin('$.background', c.at(['pages', 0, 'background']));
  } else {
    design.slides = pages.map((p, i) => {
      c.origin(`$.slides[${i}].background`, c.at(['pages', i, 'background']));
      return { duration: p.seconds, background: p.background, objects: p.objects };
    });
  }
  if (audio) design.audio = audio;
  const families = [...c.families.keys()];
  design.fonts = [...fonts, ...families.filter((f) => !fonts.some((x) => x.family === f))];
  families.forEach((f) => {
    const i = (design.fonts as unknown[]).findIndex((x) => x === f);
    if (i >= 0) c.origin(`$.fonts[${i}]`, c.families.get(f)!);
  });
  for (const f of ['width', 'height', 'duration', 'bleed']) c.origin(`$.${f}`, c.at(['pages', 0]));
  c.origin('$.dpi', c.at(['dpi']));
  if (c.sources.size > 0) design.sources = Object.fromEntries(c.sources);
  // Most specific first: field paths before their element, elements before the root.
  const origins = c.origins.sort((a, b) => b[0].length - a[0].length);
  return { design, files: c.files, origins, remote: c.remote };
}
