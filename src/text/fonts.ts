// The bundled font set: families and faces from fonts/manifest.json. Constructing it reads only the
// manifest; each face's file is read and opened by HarfBuzz on its first use, once, and kept.
// Nothing here reads system fonts, so every machine measures and paints the same glyphs.
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as HarfBuzz from 'harfbuzzjs';
import type { ColorGlyph } from './colr.js';
import { colorGlyphs } from './colr-record.js';
import { withoutUnusedColourTables } from './font-tables.js';
import { scriptRuns } from './script-runs.js';

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
/** How one run is shaped: its direction (default left to right). */
export interface ShapeRunOptions {
  direction?: 'ltr' | 'rtl';
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
  /** The glyph's colour paint (COLR, e.g. emoji), painted instead of its outline; undefined for a plain glyph. */
  colorGlyph?(id: number): ColorGlyph | undefined;
}

export type FontStyle = 'normal' | 'italic';

interface Manifest {
  families: { family: string; faces: { weight: number; file: string }[]; license: string }[];
}

/** A big-endian int16 of a font table (hhea and post metrics). */
function int16(table: Uint8Array | undefined, offset: number): number {
  if (!table || table.length < offset + 2) return 0;
  return new DataView(table.buffer, table.byteOffset, table.byteLength).getInt16(offset);
}

/** What the shaper returns, with arrays the run-by-run shaping appends to. */
interface ShapedRun {
  glyphs: { id: number; codePoints: number[] }[];
  positions: { xAdvance: number; xOffset: number; yOffset: number }[];
}

/**
 * Shapes `text` left to right (bidirectional text is not reordered yet), one script run at a time as
 * browsers do (script-runs.ts), and gives each glyph the code points it consumed: the first glyph of a
 * HarfBuzz cluster takes the cluster's characters (a ligature several), the others none (marks,
 * decompositions), as the shaper's callers expect. Clusters are UTF-16 offsets into the run.
 */
function shapeText(font: HarfBuzz.Font, text: string, options: ShapeRunOptions = {}): ShapedRun {
  const glyphs: ShapedRun['glyphs'] = [];
  const positions: ShapedRun['positions'] = [];
  if (options.direction === 'rtl') throw new Error('right-to-left shaping is not implemented yet');
  for (const run of scriptRuns(text)) {
    const shaped = shapeRun(font, run);
    glyphs.push(...shaped.glyphs);
    positions.push(...shaped.positions);
  }
  return { glyphs, positions };
}

function shapeRun(font: HarfBuzz.Font, text: string): ShapedRun {
  const lib = hb();
  const buffer = new lib.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  buffer.setDirection(lib.Direction.LTR);
  lib.shape(font, buffer);
  const infos = buffer.getGlyphInfos();
  const glyphs = infos.map((info, i) => {
    if (i > 0 && infos[i - 1]!.cluster === info.cluster) return { id: info.codepoint, codePoints: [] };
    let end = text.length;
    for (let j = i + 1; j < infos.length; j++) {
      if (infos[j]!.cluster > info.cluster) {
        end = infos[j]!.cluster;
        break;
      }
    }
    const codePoints = [...text.slice(info.cluster, end)].map((c) => c.codePointAt(0)!);
    return { id: info.codepoint, codePoints };
  });
  const positions = buffer.getGlyphPositions().map((p) => ({ xAdvance: p.xAdvance, xOffset: p.xOffset, yOffset: p.yOffset }));
  return { glyphs, positions };
}

interface Parsed {
  hasCodePoint(codePoint: number): boolean;
  shaper: ShapingFont;
  outlines: OutlineFont;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  underlinePosition: number;
  underlineThickness: number;
  colorGlyph: ((id: number) => ColorGlyph | undefined) | undefined;
}

class LazyFace implements FontFace {
  readonly key: string;
  #bytes: Buffer | undefined;
  #parsed: Parsed | undefined;

  constructor(
    private readonly dir: string,
    readonly family: string,
    readonly weight: number,
    readonly file: string,
    readonly style: FontStyle = 'normal',
  ) {
    this.key = style === 'normal' ? `${family}-${weight}` : `${family}-${weight}-${style}`;
  }

  get bytes(): Buffer {
    // A colour emoji font is kept without its unused SVG/bitmap tables (Noto Color Emoji: 25 → 5 MB).
    this.#bytes ??= withoutUnusedColourTables(readFileSync(isAbsolute(this.file) ? this.file : `${this.dir}/${this.file}`));
    return this.#bytes;
  }

  hasCodePoint(codePoint: number): boolean {
    return this.#parse().hasCodePoint(codePoint);
  }

  #parse(): Parsed {
    if (this.#parsed) return this.#parsed;
    const lib = hb();
    const face = new lib.Face(new lib.Blob(this.bytes));
    const font = new lib.Font(face);
    const upem = face.upem;
    // Outlines and advances are asked for per glyph while painting: each is read from HarfBuzz once.
    const glyphs = new Map<number, { advanceWidth: number; path: { toSVG(): string } }>();
    const hhea = face.referenceTable('hhea');
    const post = face.referenceTable('post');
    this.#parsed = {
      hasCodePoint: (cp) => font.nominalGlyph(cp) !== undefined,
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
      // hhea's ascender and descender (not OS/2's typo metrics), and post's underline, as before.
      ascent: int16(hhea, 4) / upem,
      descent: -int16(hhea, 6) / upem,
      underlinePosition: -int16(post, 8) / upem,
      underlineThickness: int16(post, 10) / upem,
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
}

export const FONTS_DIR = fileURLToPath(new URL('../../fonts/', import.meta.url));

export class FontSet {
  private readonly families = new Map<string, FontFace[]>();
  private readonly byKey = new Map<string, FontFace>();

  /** The folder of manifest.json and the font files (render threads open the same set from it). */
  readonly dir: string;

  constructor(dir: string = FONTS_DIR) {
    this.dir = dir;
    const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as Manifest;
    for (const fam of manifest.families) {
      const faces = fam.faces.map(({ weight, file }): FontFace => new LazyFace(dir, fam.family, weight, file)).sort((a, b) => a.weight - b.weight);
      this.families.set(fam.family, faces);
      for (const f of faces) this.byKey.set(f.key, f);
    }
  }

  familyNames(): string[] {
    return [...this.families.keys()];
  }

  has(family: string): boolean {
    return this.families.has(family);
  }

  /** The face nearest to the requested weight; ties go to the heavier face (CSS-like for bold). */
  face(family: string, weight: number): FontFace {
    const faces = this.families.get(family);
    if (!faces || faces.length === 0) throw new Error(`font family ${family} is not bundled`);
    let best = faces[0]!;
    for (const f of faces) if (Math.abs(f.weight - weight) <= Math.abs(best.weight - weight)) best = f;
    return best;
  }

  byFaceKey(key: string): FontFace {
    const f = this.byKey.get(key);
    if (!f) throw new Error(`unknown font face ${key}`);
    return f;
  }
}

/**
 * A face from one font file outside any set (fallback fonts, a design's own files): nothing is read
 * until it is first used.
 */
export function openFontFile(file: string, family: string, weight: number, style: FontStyle = 'normal'): FontFace {
  return new LazyFace('', family, weight, file, style);
}

let shared: FontSet | undefined;
/** The bundled fonts, shared by every render in the process; faces are parsed as renders first use them. */
export function bundledFonts(): FontSet {
  shared ??= new FontSet();
  return shared;
}
