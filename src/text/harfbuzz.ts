// HarfBuzz (harfbuzzjs, WebAssembly): loading the module once, opening a font's bytes as a HarfBuzz
// blob, face and font with the metrics Imprint reads from it, and shaping a string with one font.
import type * as HarfBuzz from 'harfbuzzjs';
import type { ColorGlyph } from './colr.js';
import { colorGlyphs } from './colr-record.js';
import { scriptRuns } from './script-runs.js';

let harfbuzz: typeof HarfBuzz | undefined;
let loadingShaper: Promise<void> | undefined;

/**
 * Loads the shaper, HarfBuzz compiled to WebAssembly (harfbuzzjs), once per process. It instantiates
 * asynchronously, so layout cannot load it on first use: the engine awaits this before it lays out,
 * and a host calling `layout` or `shapeParagraphs` itself awaits it once first.
 */
export function loadShaper(): Promise<void> {
  loadingShaper ??= import('harfbuzzjs').then((m) => {
    harfbuzz = m;
  });
  return loadingShaper;
}

function hb(): typeof HarfBuzz {
  if (!harfbuzz) throw new Error('the text shaper is not loaded: await loadShaper() once before calling layout or shapeParagraphs');
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
function shapeScriptRuns(font: HarfBuzz.Font, text: string, options: ShapeRunOptions = {}): ShapedRun {
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

/** A font opened by HarfBuzz: what a face reads from it (metrics in em). */
export interface OpenedFont {
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

/**
 * Opens font bytes in HarfBuzz (a blob, its face, a font at `variations`) and reads what a face
 * exposes: the cmap, shaping, outlines and advances (each glyph's read once, when first asked), and
 * the line metrics in em.
 */
export function openHarfBuzzFont(bytes: Buffer, variations: Readonly<Record<string, number>> | undefined): OpenedFont {
  const lib = hb();
  const face = new lib.Face(new lib.Blob(bytes));
  const font = new lib.Font(face);
  if (variations) font.setVariations(Object.entries(variations).map(([tag, value]) => new lib.Variation(tag, value)));
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
  return {
    nominalGlyph: (cp) => font.nominalGlyph(cp),
    shaper: { layout: (text, options) => shapeScriptRuns(font, text, options) },
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
}
