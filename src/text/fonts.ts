// The bundled font set: families and faces from fonts/manifest.json. Constructing it reads only the
// manifest; each face's file is read and parsed by fontkit on its first use, once, and kept.
// Nothing here reads system fonts, so every machine measures and paints the same glyphs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as fontkit from 'fontkit';
import { lazyRequire } from '../lazy-require.js';

const fontkitModule = lazyRequire<typeof fontkit>('fontkit');

// The public face type names only the few font operations Imprint uses, not fontkit's own types:
// a consumer type-checking against the published .d.ts then needs no @types/fontkit, and the
// shaping library can change without changing the API. fontkit's Font satisfies both structurally.
/** Shaping: glyph ids with the code points each consumed, and their positions in font units. */
export interface ShapingFont {
  layout(text: string): {
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
  readonly file: string;
  /** For shaping only: every glyph it returns carries the code points of this use (see `ownCodePoints`),
   *  so outline lookups, which share its glyph cache, can never change the character mapping of a layout. */
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
}

interface Manifest {
  families: { family: string; faces: { weight: number; file: string }[]; license: string }[];
}

type GetGlyph = (id: number, codePoints?: number[]) => fontkit.Glyph;

/**
 * fontkit keeps one Glyph object per glyph id, carrying the code points of its first use: the first
 * shaping of a character, or none when a composite's outline created it as a component. One glyph can
 * also stand for different text ("->" as a ligature and "→" share Inter's arrow). So the shaper's
 * glyphs get their own code points per use, and what was shaped or painted first cannot change how
 * later texts map glyphs to characters. Returns the font's own lookup, which outlines use directly.
 */
function ownCodePoints(font: fontkit.Font): GetGlyph {
  const shared: GetGlyph = font.getGlyph.bind(font);
  (font as { getGlyph: GetGlyph }).getGlyph = (id, codePoints = []) =>
    Object.create(shared(id, codePoints), { codePoints: { value: codePoints, enumerable: true } }) as fontkit.Glyph;
  return shared;
}

interface Parsed {
  shaper: ShapingFont;
  outlines: OutlineFont;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  underlinePosition: number;
  underlineThickness: number;
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
  ) {
    this.key = `${family}-${weight}`;
  }

  get bytes(): Buffer {
    this.#bytes ??= readFileSync(`${this.dir}/${this.file}`);
    return this.#bytes;
  }

  /** One fontkit instance serves shaping and outlines: the shaper's own code points (above) give the
   *  isolation a second instance gave, without parsing the file and decoding its tables twice. */
  #parse(): Parsed {
    if (this.#parsed) return this.#parsed;
    const font = fontkitModule().create(this.bytes) as fontkit.Font;
    const glyph = ownCodePoints(font);
    const upem = font.unitsPerEm;
    this.#parsed = {
      shaper: font,
      // The unwrapped lookup returns fontkit's cached glyph, so its path and metrics are decoded once.
      outlines: { getGlyph: (id) => glyph(id) },
      unitsPerEm: upem,
      ascent: font.ascent / upem,
      descent: -font.descent / upem,
      underlinePosition: -font.underlinePosition / upem,
      underlineThickness: font.underlineThickness / upem,
    };
    return this.#parsed;
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

  constructor(dir: string = FONTS_DIR) {
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

let shared: FontSet | undefined;
/** The bundled fonts, shared by every render in the process; faces are parsed as renders first use them. */
export function bundledFonts(): FontSet {
  shared ??= new FontSet();
  return shared;
}
