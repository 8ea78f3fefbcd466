// Font sets: the bundled families of fonts/manifest.json (files of npm packages), optionally with a
// design's own faces in front, and CSS weight/style matching over them. Constructing a set reads only
// the manifest; each face's file is read and opened by HarfBuzz on its first use, once, and kept.
// Nothing here reads system fonts, so every machine measures and paints the same glyphs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as HarfBuzz from 'harfbuzzjs';
import { fallbackFile, IGNORABLE, parseFallbackKey } from './fallback.js';
import type { ColorGlyph } from './colr.js';
import { colorGlyphs } from './colr-record.js';
import { withoutUnusedColourTables } from './font-tables.js';
import { scriptRuns } from './script-runs.js';
import { defaultFontsDir, InstalledFonts, type InstalledFace, type InstalledFamily } from './installed.js';
import { inUnicodeRange, parseUnicodeRange, type UnicodeRanges } from './unicode-range.js';

let harfbuzz: typeof HarfBuzz | undefined;
let loadingShaper: Promise<void> | undefined;

/**
 * Loads the shaper, HarfBuzz compiled to WebAssembly (harfbuzzjs), once per process. It instantiates
 * asynchronously, so layout cannot load it on first use: the engine awaits this before it lays out,
 * and a host calling `layout` or `shapeText` itself awaits it once first.
 */
export function loadShaper(): Promise<void> {
  loadingShaper ??= import('harfbuzzjs').then((m) => {
    harfbuzz = m;
  });
  return loadingShaper;
}

function hb(): typeof HarfBuzz {
  if (!harfbuzz) throw new Error('the text shaper is not loaded: await loadShaper() once before calling layout or shapeText');
  return harfbuzz;
}

// The public face type names only the few font operations Imprint uses, not the shaping library's
// own types, so that library can change without changing the API.
/** How one run is shaped: its direction (default left to right) and language. */
export interface ShapeRunOptions {
  direction?: 'ltr' | 'rtl';
  /** BCP 47 tag: the font's forms for that language apply (OpenType language system, locl). Default: none (the font's default forms). */
  language?: string;
}
/** Shaping: glyph ids with the code points each consumed, and their positions in font units. */
export interface ShapingFont {
  layout(
    text: string,
    options?: ShapeRunOptions,
  ): {
    glyphs: readonly { id: number; codePoints: readonly number[] }[];
    positions: readonly { xAdvance: number; xOffset: number; yOffset: number }[];
  };
}
/** Per-glyph lookups: the advance in font units and the outline as SVG path data. */
export interface OutlineFont {
  getGlyph(id: number): { advanceWidth: number; path: { toSVG(): string } };
}

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

/** fonts/manifest.json: each family's faces, as files of an npm package (or beside the manifest). */
interface Manifest {
  /** `license`: the licence file, beside the faces (documentation; docs/template-format.md names them). */
  /** `alternate: false`: not a per-character fallback for other families (families added later, so older designs draw as before). */
  families: { family: string; package?: string; license: string; alternate?: boolean; faces: { weight: number; style?: FontStyle; file: string }[] }[];
}

/** A big-endian int16 of a font table (hhea and post metrics). */
function int16(table: Uint8Array | undefined, offset: number): number {
  if (!table || table.length < offset + 2) return 0;
  return new DataView(table.buffer, table.byteOffset, table.byteLength).getInt16(offset);
}

/** A big-endian uint16 of a font table. */
function uint16(table: Uint8Array | undefined, offset: number): number {
  if (!table || table.length < offset + 2) return 0;
  return new DataView(table.buffer, table.byteOffset, table.byteLength).getUint16(offset);
}

/**
 * Ascent and descent in font units (descent negative, as stored), chosen as Chromium's text stack
 * (Skia over FreeType) chooses them, so that a line's baseline sits where a browser puts it: OS/2's
 * typo metrics when the font sets USE_TYPO_METRICS (fsSelection bit 7); otherwise hhea's, unless both
 * are 0, then typo's, unless those are 0 too, then usWin's (FreeType's fallbacks).
 */
export function verticalMetrics(hhea: Uint8Array | undefined, os2: Uint8Array | undefined): { ascender: number; descender: number } {
  // sTypoAscender/Descender sit at 68/70 and usWinAscent/Descent at 74/76 in every OS/2 version.
  const hasTypo = os2 !== undefined && os2.length >= 78;
  const typo = { ascender: int16(os2, 68), descender: int16(os2, 70) };
  if (hasTypo && (uint16(os2, 62) & 0x80) !== 0) return typo;
  const ascender = int16(hhea, 4);
  const descender = int16(hhea, 6);
  if (ascender !== 0 || descender !== 0 || !hasTypo) return { ascender, descender };
  if (typo.ascender !== 0 || typo.descender !== 0) return typo;
  return { ascender: uint16(os2, 74), descender: -uint16(os2, 76) };
}

/** What the shaper returns, with arrays the run-by-run shaping appends to. */
interface ShapedRun {
  glyphs: { id: number; codePoints: number[] }[];
  positions: { xAdvance: number; xOffset: number; yOffset: number }[];
}

/**
 * Shapes `text` in `options.direction`, one script run at a time as browsers do (script-runs.ts), and
 * gives each glyph the code points it consumed: the first glyph of a HarfBuzz cluster takes the
 * cluster's characters (a ligature several), the others none (marks, decompositions), as the shaper's
 * callers expect. Clusters come back in logical order (ascending text offsets) whatever the direction;
 * the glyphs inside a right-to-left cluster stay in HarfBuzz's visual order, so drawing the clusters
 * from last to first with the pen advancing left to right reproduces HarfBuzz's positions.
 */
function shapeText(font: HarfBuzz.Font, text: string, options: ShapeRunOptions = {}): ShapedRun {
  const glyphs: ShapedRun['glyphs'] = [];
  const positions: ShapedRun['positions'] = [];
  for (const run of scriptRuns(text)) {
    const shaped = shapeRun(font, run, options.direction ?? 'ltr', options.language);
    glyphs.push(...shaped.glyphs);
    positions.push(...shaped.positions);
  }
  return { glyphs, positions };
}

/**
 * The part of a BCP 47 tag that picks a font's OpenType language system: the language alone, and for
 * Chinese whether it is Hong Kong (ZHH), Traditional (ZHT) or Simplified (ZHS). HarfBuzz keeps every
 * language string it is given for the life of the process, so extensions, private use and regions
 * that select nothing are not passed on (a request could otherwise grow that list without bound).
 */
export function openTypeLanguage(tag: string): string {
  const { language, script, region } = new Intl.Locale(tag);
  if (language !== 'zh' || script === 'Hans') return language;
  if (region === 'HK' || region === 'MO') return 'zh-HK';
  return script === 'Hant' || region === 'TW' ? 'zh-TW' : 'zh';
}

function shapeRun(font: HarfBuzz.Font, text: string, direction: 'ltr' | 'rtl', language: string | undefined): ShapedRun {
  const lib = hb();
  const buffer = new lib.Buffer();
  buffer.addText(text);
  // Before guessing: the guess fills in only what is unset, and would take the process locale's language.
  if (language !== undefined) buffer.setLanguage(openTypeLanguage(language));
  buffer.guessSegmentProperties();
  buffer.setDirection(direction === 'rtl' ? lib.Direction.RTL : lib.Direction.LTR);
  lib.shape(font, buffer);
  const infos = buffer.getGlyphInfos();
  const pos = buffer.getGlyphPositions();
  // Group the glyphs by cluster (a cluster's glyphs are adjacent in either direction), then put the
  // groups in ascending text order: a right-to-left run comes out with descending clusters.
  const groups: { cluster: number; from: number; to: number }[] = [];
  infos.forEach((info, i) => {
    const last = groups[groups.length - 1];
    if (last && last.cluster === info.cluster) last.to = i + 1;
    else groups.push({ cluster: info.cluster, from: i, to: i + 1 });
  });
  if (direction === 'rtl') groups.reverse();
  const glyphs: ShapedRun['glyphs'] = [];
  const positions: ShapedRun['positions'] = [];
  groups.forEach((g, gi) => {
    const end = gi + 1 < groups.length ? groups[gi + 1]!.cluster : text.length;
    const codePoints = [...text.slice(g.cluster, end)].map((c) => c.codePointAt(0)!);
    for (let i = g.from; i < g.to; i++) {
      glyphs.push({ id: infos[i]!.codepoint, codePoints: i === g.from ? codePoints : [] });
      positions.push({ xAdvance: pos[i]!.xAdvance, xOffset: pos[i]!.xOffset, yOffset: pos[i]!.yOffset });
    }
  });
  return { glyphs, positions };
}

interface Parsed {
  nominalGlyph(codePoint: number): number | undefined;
  shaper: ShapingFont;
  outlines: OutlineFont;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  underlinePosition: number;
  underlineThickness: number;
  strikeoutPosition: number;
  strikeoutThickness: number;
  colorGlyph: ((id: number) => ColorGlyph | undefined) | undefined;
}

/** Where a face's bytes come from: a file (read on first use), or sfnt bytes already decoded. */
export type FaceSource = { file: string } | { sfnt: Buffer; file?: string };

interface LazyFaceOptions {
  key?: string;
  weightRange?: readonly [number, number];
  variations?: Readonly<Record<string, number>>;
  /** A subset file's unicode-range: it draws only these characters, whatever else its cmap has. */
  unicodeRange?: UnicodeRanges;
}

class LazyFace implements FontFace {
  readonly key: string;
  readonly file: string;
  readonly weightRange?: readonly [number, number];
  readonly variations?: Readonly<Record<string, number>>;
  readonly unicodeRange?: UnicodeRanges;
  #bytes: Buffer | undefined;
  #parsed: Parsed | undefined;

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

  #parse(): Parsed {
    if (this.#parsed) return this.#parsed;
    const lib = hb();
    const face = new lib.Face(new lib.Blob(this.bytes));
    const font = new lib.Font(face);
    if (this.variations) font.setVariations(Object.entries(this.variations).map(([tag, value]) => new lib.Variation(tag, value)));
    const upem = face.upem;
    // Outlines and advances are asked for per glyph while painting: each is read from HarfBuzz once.
    const glyphs = new Map<number, { advanceWidth: number; path: { toSVG(): string } }>();
    const hhea = face.referenceTable('hhea');
    const post = face.referenceTable('post');
    const os2 = face.referenceTable('OS/2');
    // OS/2 yStrikeoutSize (offset 26) and yStrikeoutPosition (28: per the OpenType spec the top of
    // the stroke above the baseline). A font without them gets the underline's thickness centred a
    // quarter em up, about half the x-height of a Latin font.
    const strikeSize = int16(os2, 26);
    const strikeTop = int16(os2, 28);
    const strikeoutThickness = strikeSize > 0 ? strikeSize / upem : int16(post, 10) / upem;
    const strikeoutPosition = strikeSize > 0 ? strikeTop / upem - strikeoutThickness / 2 : 0.25;
    const vertical = verticalMetrics(hhea, os2);
    this.#parsed = {
      nominalGlyph: (cp) => font.nominalGlyph(cp),
      shaper: { layout: (text, options) => shapeText(font, text, options) },
      outlines: {
        getGlyph: (id) => {
          let glyph = glyphs.get(id);
          if (!glyph) {
            const svg = font.glyphToPath(id);
            glyph = { advanceWidth: font.glyphHAdvance(id), path: { toSVG: () => svg } };
            glyphs.set(id, glyph);
          }
          return glyph;
        },
      },
      unitsPerEm: upem,
      ascent: vertical.ascender / upem,
      descent: -vertical.descender / upem,
      underlinePosition: -int16(post, 8) / upem,
      underlineThickness: int16(post, 10) / upem,
      strikeoutPosition,
      strikeoutThickness,
      colorGlyph: colorGlyphs(lib, face, font),
    };
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

/** A face drawn bolder or slanted by the painters: the same glyphs, metrics and shaping as its base. */
class SyntheticFace implements FontFace {
  readonly key: string;
  constructor(
    private readonly base: FontFace,
    readonly synthetic: Readonly<{ bold?: boolean; italic?: boolean }>,
    readonly weight: number,
    readonly style: FontStyle,
  ) {
    this.key = `${base.key}+synthetic${synthetic.bold ? '-bold' : ''}${synthetic.italic ? '-italic' : ''}`;
  }
  get family(): string {
    return this.base.family;
  }
  get file(): string {
    return this.base.file;
  }
  get variations(): Readonly<Record<string, number>> | undefined {
    return this.base.variations;
  }
  hasCodePoint(codePoint: number): boolean {
    return this.base.hasCodePoint(codePoint);
  }
  nominalGlyph(codePoint: number): number | undefined {
    return this.base.nominalGlyph(codePoint);
  }
  get shaper(): ShapingFont {
    return this.base.shaper;
  }
  get outlines(): OutlineFont {
    return this.base.outlines;
  }
  get bytes(): Buffer {
    return this.base.bytes;
  }
  get unitsPerEm(): number {
    return this.base.unitsPerEm;
  }
  get ascent(): number {
    return this.base.ascent;
  }
  get descent(): number {
    return this.base.descent;
  }
  get underlinePosition(): number {
    return this.base.underlinePosition;
  }
  get underlineThickness(): number {
    return this.base.underlineThickness;
  }
  get strikeoutPosition(): number {
    return this.base.strikeoutPosition;
  }
  get strikeoutThickness(): number {
    return this.base.strikeoutThickness;
  }
  // Each subset of a segmented base drawn the same way (bolder or slanted), made once per subset.
  readonly #subsets = new Map<FontFace, FontFace>();
  get subsetFor(): ((grapheme: string) => FontFace | undefined) | undefined {
    const base = this.base;
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

/** Whether `face` draws every character of the grapheme that needs a glyph (format controls and joiners need none). */
function drawsAll(face: FontFace, grapheme: string): boolean {
  for (const ch of grapheme) if (!IGNORABLE.test(ch) && !face.hasCodePoint(ch.codePointAt(0)!)) return false;
  return true;
}

/**
 * One weight and style of a family whose files are split per Unicode subset, as Google Fonts serves
 * browsers (one @font-face per subset with its unicode-range; an @fontsource package's files).
 * Chromium treats such rules as one segmented face: for each grapheme it takes the first subset, the
 * last declared first, whose range holds every character and whose font has their glyphs, and shapes
 * each run of one subset with that file alone (so kerning across subsets is lost there too).
 * `subsetFor` makes that choice for itemization; line metrics, and everything else asked of the face
 * itself, are those of its primary subset: the first whose range holds the space, as in Chromium.
 */
class SegmentedFace implements FontFace {
  readonly #primary: FontFace;
  // A grapheme's subset, remembered per face: text repeats its characters.
  readonly #chosen = new Map<string, FontFace | null>();
  constructor(
    readonly key: string,
    readonly family: string,
    readonly weight: number,
    readonly style: FontStyle,
    /** The subset faces (each restricted to its unicode-range), in the order they are tried. */
    readonly subsets: readonly LazyFace[],
  ) {
    this.#primary = subsets.find((f) => f.unicodeRange && inUnicodeRange(f.unicodeRange, 0x20)) ?? subsets[0]!;
  }
  subsetFor(grapheme: string): FontFace | undefined {
    let face = this.#chosen.get(grapheme);
    if (face === undefined) {
      // HarfBuzz composes a base and its marks when the font has the composed character (a + ̃ → ã).
      const composed = grapheme.normalize('NFC');
      face = [...grapheme].every((ch) => IGNORABLE.test(ch))
        ? // Nothing to draw (a lone joiner): the subset whose range has it, else the primary one.
          (this.subsets.find((f) => f.hasCodePoint(grapheme.codePointAt(0)!)) ?? this.#primary)
        : (this.subsets.find((f) => drawsAll(f, grapheme)) ?? (composed !== grapheme ? this.subsets.find((f) => drawsAll(f, composed)) : undefined) ?? null);
      if (this.#chosen.size < 4096) this.#chosen.set(grapheme, face);
    }
    return face ?? undefined;
  }
  hasCodePoint(codePoint: number): boolean {
    return this.subsets.some((f) => f.hasCodePoint(codePoint));
  }
  nominalGlyph(codePoint: number): number | undefined {
    // Glyph ids are the subset file's: only meaningful together with subsetFor's face.
    return this.subsets.find((f) => f.hasCodePoint(codePoint))?.nominalGlyph(codePoint);
  }
  get file(): string {
    return this.#primary.file;
  }
  get shaper(): ShapingFont {
    return this.#primary.shaper;
  }
  get outlines(): OutlineFont {
    return this.#primary.outlines;
  }
  get bytes(): Buffer {
    return this.#primary.bytes;
  }
  get unitsPerEm(): number {
    return this.#primary.unitsPerEm;
  }
  get ascent(): number {
    return this.#primary.ascent;
  }
  get descent(): number {
    return this.#primary.descent;
  }
  get underlinePosition(): number {
    return this.#primary.underlinePosition;
  }
  get underlineThickness(): number {
    return this.#primary.underlineThickness;
  }
  get strikeoutPosition(): number {
    return this.#primary.strikeoutPosition;
  }
  get strikeoutThickness(): number {
    return this.#primary.strikeoutThickness;
  }
}

/**
 * CSS Fonts 4 §5.2 weight matching among faces of one style: a face whose range holds the weight;
 * else for 400-500 the faces up to 500 ascending, then lighter descending, then heavier ascending;
 * below 400 lighter descending then heavier; above 500 heavier ascending then lighter descending.
 */
export function matchWeight<F extends { weight: number; weightRange?: readonly [number, number] }>(faces: readonly F[], desired: number): F {
  const range = (f: F): readonly [number, number] => f.weightRange ?? [f.weight, f.weight];
  const inside = faces.find((f) => range(f)[0] <= desired && desired <= range(f)[1]);
  if (inside) return inside;
  const heavier = (limit: number): F | undefined =>
    faces.filter((f) => range(f)[0] > desired && range(f)[0] <= limit).sort((a, b) => range(a)[0] - range(b)[0])[0];
  const lighter = (): F | undefined => faces.filter((f) => range(f)[1] < desired).sort((a, b) => range(b)[1] - range(a)[1])[0];
  const found =
    desired >= 400 && desired <= 500
      ? (heavier(500) ?? lighter() ?? heavier(Infinity))
      : desired < 400
        ? (lighter() ?? heavier(Infinity))
        : (heavier(Infinity) ?? lighter());
  if (!found) throw new Error('matchWeight: no faces');
  return found;
}

/** Chromium's rule for synthetic bold: asked for more than 200 above the weight of the face found. */
const SYNTHETIC_BOLD_GAP = 200;

export const FONTS_DIR = fileURLToPath(new URL('../../fonts/', import.meta.url));

const requireHere = createRequire(import.meta.url);
/** An npm package's folder, found from this module like `import` would (from src/, dist/ and dist/pkg/). */
function packageDir(name: string): string {
  return dirname(requireHere.resolve(`${name}/package.json`));
}

export class FontSet {
  /** Each family's faces (instances and synthetic faces are made on demand and kept in byKey). */
  private readonly families = new Map<string, FontFace[]>();
  /** The families of the manifest (a root set's own; installed families join `families` as they are used). */
  private readonly bundled = new Set<string>();
  /** The root set's families that stand in for a character another family lacks, in manifest order. */
  private readonly alternates: string[] = [];
  private readonly byKey = new Map<string, FontFace>();
  private readonly base: FontSet | undefined;

  /** The folder of manifest.json (render threads open the same bundled set from it). */
  readonly dir: string;
  /** The font folder of installed catalogue families, looked up after the bundled ones (none: bundled only). */
  readonly installed: InstalledFonts | undefined;
  /** Families drawn with another family's faces (a render's missing_fonts "fallback"): name → the family used. */
  private readonly aliases: ReadonlyMap<string, string>;

  /**
   * The bundled set from `dir`'s manifest.json, or, with `faces`, those faces (a design's own fonts)
   * in front of the set `dir`: a family named by them hides the same name beneath. `options.installed`
   * adds the families of a font folder behind the bundled ones (a set made over another keeps its base's).
   */
  constructor(
    dir: string | FontSet = FONTS_DIR,
    faces: readonly FontFace[] = [],
    options: { installed?: InstalledFonts; aliases?: ReadonlyMap<string, string> } = {},
  ) {
    this.aliases = options.aliases ?? new Map();
    if (typeof dir === 'string') {
      this.installed = options.installed;
      this.dir = dir;
      const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as Manifest;
      for (const fam of manifest.families) {
        const root = fam.package ? packageDir(fam.package) : dir;
        this.addFamily(
          fam.family,
          fam.faces.map(({ weight, style, file }) => new LazyFace({ file: resolve(root, file) }, fam.family, weight, style ?? 'normal')),
        );
        this.bundled.add(fam.family);
        if (fam.alternate !== false) this.alternates.push(fam.family);
      }
    } else {
      this.dir = dir.dir;
      this.base = dir;
      this.installed = dir.installed;
    }
    const own = new Map<string, FontFace[]>();
    for (const f of faces) own.set(f.family, [...(own.get(f.family) ?? []), f]);
    for (const [family, list] of own) this.addFamily(family, list);
  }

  private addFamily(family: string, faces: FontFace[]): void {
    this.families.set(
      family,
      faces.sort((a, b) => a.weight - b.weight),
    );
    for (const f of faces) {
      this.byKey.set(f.key, f);
      // Display lists name the subset faces that drew the glyphs: found by key like any face.
      if (f instanceof SegmentedFace) for (const sub of f.subsets) this.byKey.set(sub.key, sub);
    }
  }

  private facesOf(family: string): FontFace[] | undefined {
    const alias = this.aliases.get(family);
    if (alias !== undefined && !this.families.has(family)) return this.facesOf(alias);
    if (this.base) return this.families.get(family) ?? this.base.facesOf(family);
    return this.families.get(family) ?? this.installedFaces(family);
  }

  /** An installed family's faces, made once per set under the name asked for (CSS matches names case-insensitively). */
  private installedFaces(family: string): FontFace[] | undefined {
    const record = this.installed?.find(family);
    if (!record) return undefined;
    // Faces are made under the catalogue's spelling only; another spelling ("open sans") maps to the
    // same list, so odd spellings in requests cannot multiply faces and parses.
    if (!this.families.has(record.family)) this.addFamily(record.family, [...installedFamilyFaces(record, record.family)]);
    const faces = this.families.get(record.family)!;
    if (family !== record.family) this.families.set(family, faces);
    return faces;
  }

  familyNames(): string[] {
    if (this.base) return [...new Set([...this.families.keys(), ...this.base.familyNames()])];
    return [...new Set([...this.families.keys(), ...(this.installed?.list().map((f) => f.family) ?? [])])];
  }

  /**
   * The families that draw a character the asked family lacks, before the fallback chain: a design's
   * own families (files, pinned, the account's library), then the bundled ones marked as alternates.
   * Installed catalogue families never are: what a machine installed must not change other designs.
   */
  alternateFamilies(): string[] {
    if (this.base) return [...new Set([...this.families.keys(), ...this.base.alternateFamilies()])];
    return [...this.alternates];
  }

  /** Where a family comes from: a design's own files, the bundled set, or the font folder (that package version). */
  source(family: string): { kind: 'design' } | { kind: 'bundled' } | { kind: 'installed'; family: InstalledFamily } | undefined {
    if (this.base) return this.families.has(family) ? { kind: 'design' } : this.base.source(family);
    if (!this.facesOf(family)) return undefined;
    const record = this.installed?.find(family);
    return this.bundled.has(family) || !record ? { kind: 'bundled' } : { kind: 'installed', family: record };
  }

  has(family: string): boolean {
    return this.facesOf(family) !== undefined;
  }

  /**
   * The face CSS would use for `font-family: family; font-weight: weight; font-style: style`
   * (CSS Fonts 4 §5.2): faces of the style first (italic falls back to normal, normal to italic),
   * then the weight by matchWeight. A variable face is instanced at the exact weight. Where no face
   * is bold or italic enough, a synthetic face (its `synthetic` says what) is returned, as Chromium does.
   */
  face(family: string, weight: number, style: FontStyle = 'normal'): FontFace {
    const faces = this.facesOf(family);
    if (!faces || faces.length === 0) throw new Error(`font family ${family} is not available: use one of ${this.familyNames().join(', ')}`);
    const styled = faces.filter((f) => f.style === style);
    let face = matchWeight(styled.length > 0 ? styled : faces, weight);
    if (face.weightRange) face = this.instanceOf(face, Math.min(face.weightRange[1], Math.max(face.weightRange[0], weight)));
    const bold = weight > face.weight + SYNTHETIC_BOLD_GAP;
    const italic = style === 'italic' && face.style !== 'italic';
    if (!bold && !italic) return face;
    const synthetic = new SyntheticFace(face, { ...(bold ? { bold } : {}), ...(italic ? { italic } : {}) }, face.weight, style);
    return this.remember(synthetic);
  }

  private instanceOf(face: FontFace, weight: number): FontFace {
    const key = `${face.key}@wght=${weight}`;
    const known = this.find(key);
    if (known) return known;
    if (!(face instanceof LazyFace)) throw new Error(`font face ${face.key} cannot be instanced`);
    return this.remember(face.instance(key, weight, { wght: weight }));
  }

  /** Instances and synthetic faces are kept by the set that owns their base, so keys stay unique. */
  private remember(face: FontFace): FontFace {
    const known = this.find(face.key);
    if (known) return known;
    this.byKey.set(face.key, face);
    return face;
  }

  private find(key: string): FontFace | undefined {
    return this.byKey.get(key) ?? this.base?.find(key);
  }

  private lookup(key: string): FontFace | undefined {
    return this.find(key) ?? this.derive(key);
  }

  /** Instances and synthetic faces from their keys, for a set that has their base face but did not choose them. */
  private derive(key: string): FontFace | undefined {
    const synthetic = /^(.*)\+synthetic(-bold)?(-italic)?$/.exec(key);
    if (synthetic) {
      const base = this.lookup(synthetic[1]!);
      if (!base || !(synthetic[2] || synthetic[3])) return undefined;
      const flags = { ...(synthetic[2] ? { bold: true } : {}), ...(synthetic[3] ? { italic: true } : {}) };
      return this.remember(new SyntheticFace(base, flags, base.weight, synthetic[3] ? 'italic' : base.style));
    }
    const instance = /^(.*)@wght=(\d+(?:\.\d+)?)$/.exec(key);
    const base = instance ? this.lookup(instance[1]!) : undefined;
    return base?.weightRange ? this.instanceOf(base, Number(instance![2])) : undefined;
  }

  /** The faces given to this set (a design's files), not those of the set beneath. */
  ownFaces(): FontFace[] {
    return this.base ? [...this.families.values()].flat() : [];
  }

  /** A face of this set or of the bundled fallback chain, by the key display lists name it with. */
  byFaceKey(key: string): FontFace {
    let f = this.lookup(key);
    if (!f) {
      const fb = parseFallbackKey(key);
      if (fb) f = fallbackFace(fb.family, fb.weight) ?? undefined;
    }
    if (!f) throw new Error(`unknown font face ${key}`);
    return f;
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

// An installed package's faces are the same files for every set, design and render of the process:
// made once per package folder and name, so HarfBuzz parses each file once.
const installedFaceCache = new Map<string, readonly FontFace[]>();

/**
 * The faces of an installed package version under `family` (the name the design uses). Their keys
 * carry the package and version, so two versions of a family never share a cache entry.
 */
export function installedFamilyFaces(record: InstalledFamily, family: string): readonly FontFace[] {
  const cacheKey = `${record.dir}\0${family}`;
  let faces = installedFaceCache.get(cacheKey);
  if (!faces) {
    faces = record.faces.map((f) => {
      const key = `${family}-${f.weight}${f.style === 'normal' ? '' : `-${f.style}`}#${record.package}@${record.version}`;
      return f.subsets ? segmentedFace(record, family, f, key) : new LazyFace({ file: resolve(record.dir, f.file) }, family, f.weight, f.style, { key });
    });
    installedFaceCache.set(cacheKey, faces);
  }
  return faces;
}

/** A face split per subset (its record lists the subsets in the order tried): each subset keyed "<face key>/<subset>". */
function segmentedFace(record: InstalledFamily, family: string, f: InstalledFace, key: string): FontFace {
  const subsets = f.subsets!.map(
    (sub) =>
      new LazyFace({ file: resolve(record.dir, sub.file) }, family, f.weight, f.style, {
        key: `${key}/${sub.name}`,
        unicodeRange: parseUnicodeRange(sub.unicodeRange),
      }),
  );
  return new SegmentedFace(key, family, f.weight, f.style, subsets);
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

let shared: FontSet | undefined;
/**
 * The bundled fonts and, behind them, the families installed in the default font folder
 * (installed.ts: IMPRINT_FONTS_DIR, else ./data/fonts), shared by every render in the process; faces
 * are parsed as renders first use them.
 */
export function bundledFonts(): FontSet {
  shared ??= new FontSet(FONTS_DIR, [], { installed: new InstalledFonts(defaultFontsDir()) });
  return shared;
}
