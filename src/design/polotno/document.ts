// The fields of the converted design as a whole: its size, print fields (dpi, bleed), page backgrounds,
// font files and soundtrack, each refused at its Polotno path when Imprint cannot give it exactly.
import { validationError } from '../../errors.js';
import type { Converter, PolotnoOptions } from './context.js';
import { cssColorToHex } from './css-color.js';
import { isCssGradient } from './css-gradient.js';
import type { ImprintAudio, ImprintBackground, ImprintDesign, ImprintFontFile } from './imprint-types.js';
import type { PolotnoDesign, PolotnoPage } from './schema.js';
import { fontWeightOf, linearGradient, refuse, round } from './shared.js';

/** The design's size: the pages', which must all have the first's. */
export function designSize(c: Converter, doc: PolotnoDesign): { width: number; height: number } {
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
  return first;
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
export function printFields(c: Converter, doc: PolotnoDesign): Pick<ImprintDesign, 'dpi' | 'bleed'> {
  const out: Pick<ImprintDesign, 'dpi' | 'bleed'> = { dpi: doc.unit === 'pt' ? 72 : (doc.dpi ?? 72) };
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

/** The document's audio track as the design's soundtrack, if it has one. */
export function audioOf(c: Converter, doc: PolotnoDesign): ImprintAudio | undefined {
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
  const out: ImprintAudio = { path: c.source(a.src, `${at}.src`, 'audio track', 'audio'), fade_out: 0 };
  const startTime = a.startTime ?? 0;
  if (startTime > 0) {
    if (!a.duration) refuse(at, 'duration', 'startTime is a fraction of the track duration: give duration (ms) too');
    out.start = round((startTime * a.duration) / 1000);
  }
  c.origin('$.audio', at);
  return out;
}

/** A page's background: a colour, a linear-gradient() or an image file. */
export function pageBackground(c: Converter, value: string | undefined, width: number, height: number, at: string): ImprintBackground {
  const v = value ?? 'white';
  if (isCssGradient(v)) return linearGradient(v, width, height, at);
  const hex = cssColorToHex(v);
  if (hex !== undefined) return { type: 'color', color: hex };
  return { type: 'image', path: c.source(v, at, 'page background image', 'image') };
}

/** The document's fonts[] as font files of the design (a family available without its file keeps none: PolotnoOptions.hasFamily). */
export function fontEntries(c: Converter, doc: PolotnoDesign, options: PolotnoOptions): ImprintFontFile[] {
  const out: ImprintFontFile[] = [];
  (doc.fonts ?? []).forEach((f, i) => {
    const at = c.at(['fonts', i]);
    const variants = f.styles?.length
      ? f.styles.map((s, j) => ({ src: unwrapCssUrl(s.src), weight: s.fontWeight, style: s.fontStyle, at: `${at}.styles[${j}].src` }))
      : f.url
        ? [{ src: f.url, weight: undefined, style: undefined, at: `${at}.url` }]
        : [];
    for (const v of variants) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v.src) && options.hasFamily?.(f.fontFamily)) continue;
      const entry: ImprintFontFile = { family: f.fontFamily, path: c.source(v.src, v.at, 'font file', 'font') };
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
