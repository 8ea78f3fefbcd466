// The faces of installed catalogue families: one file per face, or, for an @fontsource family, a face
// segmented into unicode-range subset files that Imprint chooses among per grapheme as Chromium does.
import { resolve } from 'node:path';
import { IGNORABLE } from './fallback.js';
import { ForwardingFace, LazyFace, type FontFace, type FontStyle } from './faces.js';
import type { InstalledFace, InstalledFamily } from './installed.js';
import { inUnicodeRange, parseUnicodeRange } from './unicode-range.js';

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
export class SegmentedFace extends ForwardingFace implements FontFace {
  /** The first subset whose range holds the space: the face's metrics, shaping and file are its. */
  protected readonly inner: FontFace;
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
    super();
    this.inner = subsets.find((f) => f.unicodeRange && inUnicodeRange(f.unicodeRange, 0x20)) ?? subsets[0]!;
  }
  subsetFor(grapheme: string): FontFace | undefined {
    let face = this.#chosen.get(grapheme);
    if (face === undefined) {
      // HarfBuzz composes a base and its marks when the font has the composed character (a + ̃ → ã).
      const composed = grapheme.normalize('NFC');
      face = [...grapheme].every((ch) => IGNORABLE.test(ch))
        ? // Nothing to draw (a lone joiner): the subset whose range has it, else the primary one.
          (this.subsets.find((f) => f.hasCodePoint(grapheme.codePointAt(0)!)) ?? this.inner)
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
}
