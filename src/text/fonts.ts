// The bundled font set: families and faces from fonts/manifest.json, opened once with fontkit.
// Nothing here reads system fonts, so every machine measures and paints the same glyphs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';

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

export interface FontFace {
  /** Stable key used in display lists, e.g. "Inter-700". */
  key: string;
  family: string;
  weight: number;
  file: string;
  /** For shaping only. fontkit caches glyph objects with the code points of their first use, and
   *  fetching a composite's outline creates its component glyphs with none; kept apart from
   *  `outlines`, that can never corrupt the character mapping of a later layout. */
  shaper: ShapingFont;
  /** For outlines and per-glyph lookups (paths, advances). */
  outlines: OutlineFont;
  /** The font file, for embedding in vector output. */
  bytes: Buffer;
  unitsPerEm: number;
  /** Typographic ascent/descent in em (descent positive, below the baseline). */
  ascent: number;
  descent: number;
  underlinePosition: number;
  underlineThickness: number;
}

interface Manifest {
  families: { family: string; faces: { weight: number; file: string }[]; license: string }[];
}

/**
 * fontkit keeps one Glyph object per glyph id, carrying the code points of its first use. One glyph
 * can stand for different text ("->" as a ligature and "→" share Inter's arrow), so the shaper's
 * glyphs get their own code points per use; otherwise what one text was shaped first would change
 * how later texts map glyphs to characters.
 */
function ownCodePoints(font: fontkit.Font): fontkit.Font {
  const shared = font.getGlyph.bind(font) as (id: number, codePoints?: number[]) => fontkit.Glyph;
  (font as { getGlyph: (id: number, codePoints?: number[]) => fontkit.Glyph }).getGlyph = (id, codePoints = []) =>
    Object.create(shared(id, codePoints), { codePoints: { value: codePoints, enumerable: true } }) as fontkit.Glyph;
  return font;
}

export const FONTS_DIR = fileURLToPath(new URL('../../fonts/', import.meta.url));

export class FontSet {
  private readonly families = new Map<string, FontFace[]>();
  private readonly byKey = new Map<string, FontFace>();

  constructor(dir: string = FONTS_DIR) {
    const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as Manifest;
    for (const fam of manifest.families) {
      const faces = fam.faces
        .map(({ weight, file }): FontFace => {
          const bytes = readFileSync(`${dir}/${file}`);
          const font = ownCodePoints(fontkit.create(bytes) as fontkit.Font);
          const upem = font.unitsPerEm;
          return {
            key: `${fam.family}-${weight}`,
            family: fam.family,
            weight,
            file,
            shaper: font,
            outlines: fontkit.create(bytes) as fontkit.Font,
            bytes,
            unitsPerEm: upem,
            ascent: font.ascent / upem,
            descent: -font.descent / upem,
            underlinePosition: -font.underlinePosition / upem,
            underlineThickness: font.underlineThickness / upem,
          };
        })
        .sort((a, b) => a.weight - b.weight);
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
/** The bundled fonts, opened on first use and shared by every render in the process. */
export function bundledFonts(): FontSet {
  shared ??= new FontSet();
  return shared;
}
