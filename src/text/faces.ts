// Font faces: the FontFace contract the layout and the painters use, a face opened from its file on
// first use (with its variable instances), synthetic bold/italic faces, and the bundled fallback faces.
import { readFileSync } from 'node:fs';
import type { ColorGlyph } from './colr.js';
import { fallbackFile } from './fallback.js';
import { withoutUnusedColourTables } from './font-tables.js';
import { openHarfBuzzFont, type OpenedFont, type OutlineFont, type ShapingFont } from './harfbuzz.js';
import { inUnicodeRange, type UnicodeRanges } from './unicode-range.js';

/** A bundled face. Everything but its names is loaded on first access (the font file is parsed once). */
export interface FontFace {
  /** Stable key used in display lists, e.g. "Inter-700". */
  readonly key: string;
  readonly family: string;
  readonly weight: number;
  readonly style: FontStyle;
  /** Path of the font file (absolute, or relative to the set's folder). */
  readonly file: string;
  /** Whether the font maps this code point to a glyph (its cmap; for per-character fallback). */
  hasCodePoint(codePoint: number): boolean;
  /** The glyph its cmap maps this code point to, if any (before shaping substitutes forms). */
  nominalGlyph(codePoint: number): number | undefined;
  /** For shaping: every glyph it returns carries the code points of this use (the first glyph of a
   *  cluster all of them, the others none), whatever text shared the glyph before. */
  readonly shaper: ShapingFont;
  /** For outlines and per-glyph lookups (paths, advances). */
  readonly outlines: OutlineFont;
  /** The font file, for embedding in vector output. */
  readonly bytes: Buffer;
  readonly unitsPerEm: number;
  /** Typographic ascent/descent in em (descent positive, below the baseline). */
  readonly ascent: number;
  readonly descent: number;
  readonly underlinePosition: number;
  readonly underlineThickness: number;
  /** Centre of a line-through above the baseline (positive = up) and its thickness, in em (OS/2 yStrikeout*). */
  readonly strikeoutPosition: number;
  readonly strikeoutThickness: number;
  /** A variable face: every weight from min to max. FontSet.face gives an instance at the exact weight. */
  readonly weightRange?: readonly [min: number, max: number];
  /** The axis coordinates of a variable instance (its shaping, advances and outlines follow them). */
  readonly variations?: Readonly<Record<string, number>>;
  /** Bold or italic drawn by the painters (stroke, skew) because the family has no such face. */
  readonly synthetic?: Readonly<{ bold?: boolean; italic?: boolean }>;
  /** The glyph's colour paint (COLR, e.g. emoji), painted instead of its outline; undefined for a plain glyph. */
  colorGlyph?(id: number): ColorGlyph | undefined;
  /**
   * Only a face made of unicode-range subset files (an @fontsource family's weight and style): the
   * subset face that draws every character of `grapheme`, or undefined when none does. Itemization
   * draws each grapheme with it, as a browser picks among a family's @font-face rules.
   */
  subsetFor?(grapheme: string): FontFace | undefined;
}

export type FontStyle = 'normal' | 'italic';

/** Where a face's bytes come from: a file (read on first use), or sfnt bytes already decoded. */
export type FaceSource = { file: string } | { sfnt: Buffer; file?: string };

interface LazyFaceOptions {
  key?: string;
  weightRange?: readonly [number, number];
  variations?: Readonly<Record<string, number>>;
  /** A subset file's unicode-range: it draws only these characters, whatever else its cmap has. */
  unicodeRange?: UnicodeRanges;
}

/** A face of one font file (or decoded sfnt bytes), read and opened by HarfBuzz on its first use, once. */
export class LazyFace implements FontFace {
  readonly key: string;
  readonly file: string;
  readonly weightRange?: readonly [number, number];
  readonly variations?: Readonly<Record<string, number>>;
  readonly unicodeRange?: UnicodeRanges;
  #bytes: Buffer | undefined;
  #parsed: OpenedFont | undefined;

  constructor(
    private readonly source: FaceSource,
    readonly family: string,
    readonly weight: number,
    readonly style: FontStyle = 'normal',
    options: LazyFaceOptions = {},
  ) {
    this.key = options.key ?? (style === 'normal' ? `${family}-${weight}` : `${family}-${weight}-${style}`);
    this.file = source.file ?? `(${family} font data)`;
    if (options.weightRange) this.weightRange = options.weightRange;
    if (options.variations) this.variations = options.variations;
    if (options.unicodeRange) this.unicodeRange = options.unicodeRange;
    if ('sfnt' in source) this.#bytes = source.sfnt;
  }

  get bytes(): Buffer {
    // A colour emoji font is kept without its unused SVG/bitmap tables (Noto Color Emoji: 25 → 5 MB).
    this.#bytes ??= withoutUnusedColourTables(readFileSync((this.source as { file: string }).file));
    return this.#bytes;
  }

  // Instances are kept with their face, so every set (and render) using the face shares their parse.
  readonly #instances = new Map<string, LazyFace>();

  /** The same file at other axis coordinates (a new HarfBuzz font; the bytes are shared). */
  instance(key: string, weight: number, variations: Record<string, number>): LazyFace {
    let face = this.#instances.get(key);
    if (!face) {
      const source: FaceSource = 'sfnt' in this.source ? this.source : { sfnt: this.bytes, file: this.file };
      face = new LazyFace(source, this.family, weight, this.style, { key, variations });
      this.#instances.set(key, face);
    }
    return face;
  }

  hasCodePoint(codePoint: number): boolean {
    if (this.unicodeRange && !inUnicodeRange(this.unicodeRange, codePoint)) return false;
    return this.#parse().nominalGlyph(codePoint) !== undefined;
  }

  nominalGlyph(codePoint: number): number | undefined {
    return this.#parse().nominalGlyph(codePoint);
  }

  #parse(): OpenedFont {
    this.#parsed ??= openHarfBuzzFont(this.bytes, this.variations);
    return this.#parsed;
  }

  colorGlyph(id: number): ColorGlyph | undefined {
    return this.#parse().colorGlyph?.(id);
  }

  get shaper(): ShapingFont {
    return this.#parse().shaper;
  }
  get outlines(): OutlineFont {
    return this.#parse().outlines;
  }
  get unitsPerEm(): number {
    return this.#parse().unitsPerEm;
  }
  get ascent(): number {
    return this.#parse().ascent;
  }
  get descent(): number {
    return this.#parse().descent;
  }
  get underlinePosition(): number {
    return this.#parse().underlinePosition;
  }
  get underlineThickness(): number {
    return this.#parse().underlineThickness;
  }
  get strikeoutPosition(): number {
    return this.#parse().strikeoutPosition;
  }
  get strikeoutThickness(): number {
    return this.#parse().strikeoutThickness;
  }
}

/**
 * A face whose font data are another face's (a synthetic face's base, a segmented face's primary
 * subset): its file, shaping, outlines and metrics are forwarded; what it adds is the subclass's.
 */
export abstract class ForwardingFace {
  protected abstract readonly inner: FontFace;
  get file(): string {
    return this.inner.file;
  }
  get shaper(): ShapingFont {
    return this.inner.shaper;
  }
  get outlines(): OutlineFont {
    return this.inner.outlines;
  }
  get bytes(): Buffer {
    return this.inner.bytes;
  }
  get unitsPerEm(): number {
    return this.inner.unitsPerEm;
  }
  get ascent(): number {
    return this.inner.ascent;
  }
  get descent(): number {
    return this.inner.descent;
  }
  get underlinePosition(): number {
    return this.inner.underlinePosition;
  }
  get underlineThickness(): number {
    return this.inner.underlineThickness;
  }
  get strikeoutPosition(): number {
    return this.inner.strikeoutPosition;
  }
  get strikeoutThickness(): number {
    return this.inner.strikeoutThickness;
  }
}

/** A face drawn bolder or slanted by the painters: the same glyphs, metrics and shaping as its base. */
export class SyntheticFace extends ForwardingFace implements FontFace {
  readonly key: string;
  constructor(
    protected readonly inner: FontFace,
    readonly synthetic: Readonly<{ bold?: boolean; italic?: boolean }>,
    readonly weight: number,
    readonly style: FontStyle,
  ) {
    super();
    this.key = `${inner.key}+synthetic${synthetic.bold ? '-bold' : ''}${synthetic.italic ? '-italic' : ''}`;
  }
  get family(): string {
    return this.inner.family;
  }
  get variations(): Readonly<Record<string, number>> | undefined {
    return this.inner.variations;
  }
  hasCodePoint(codePoint: number): boolean {
    return this.inner.hasCodePoint(codePoint);
  }
  nominalGlyph(codePoint: number): number | undefined {
    return this.inner.nominalGlyph(codePoint);
  }
  // Each subset of a segmented base drawn the same way (bolder or slanted), made once per subset.
  readonly #subsets = new Map<FontFace, FontFace>();
  get subsetFor(): ((grapheme: string) => FontFace | undefined) | undefined {
    const base = this.inner;
    if (!base.subsetFor) return undefined;
    return (grapheme) => {
      const subset = base.subsetFor!(grapheme);
      if (!subset) return undefined;
      let face = this.#subsets.get(subset);
      if (!face) this.#subsets.set(subset, (face = new SyntheticFace(subset, this.synthetic, this.weight, this.style)));
      return face;
    };
  }
}

/** The key of a face made from a font file given by the user: content-addressed, so caches keyed by it stay right. */
export function fileFaceKey(family: string, weight: number, style: FontStyle, hash: string): string {
  return `${family}-${weight}${style === 'normal' ? '' : `-${style}`}#${hash.slice(0, 12)}`;
}

/**
 * A face from one font file outside any set (fallback fonts, a design's own files): nothing is read
 * until it is first used. `source` is a path or decoded sfnt bytes; `options.weightRange` makes it a
 * variable face (FontSet.face instances it at the weight asked for).
 */
export function openFontFile(
  source: string | FaceSource,
  family: string,
  weight: number,
  style: FontStyle = 'normal',
  options: { key?: string; weightRange?: readonly [number, number] } = {},
): FontFace {
  return new LazyFace(typeof source === 'string' ? { file: source } : source, family, weight, style, options);
}

// Fallback faces are the same files for every set and render: opened once per process, on first need.
const fallbackFaces = new Map<string, FontFace>();

/**
 * The bundled fallback family's face nearest `weight` (fallback.ts), or null when its optional package
 * is not installed. Its key is "<family>-<weight>", which byFaceKey resolves in any set.
 */
export function fallbackFace(family: string, weight: number): FontFace | null {
  const found = fallbackFile(family, weight);
  if (!found) return null;
  let face = fallbackFaces.get(found.file);
  if (!face) {
    face = openFontFile(found.file, family, found.weight);
    fallbackFaces.set(found.file, face);
  }
  return face;
}
