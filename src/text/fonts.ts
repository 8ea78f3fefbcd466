// Font sets: the bundled families of fonts/manifest.json (files of npm packages), optionally with a
// design's own faces in front and installed families behind, and CSS Fonts 4 weight/style matching
// over them. Constructing a set reads only the manifest; faces (faces.ts) open their files on first use.
// Nothing here reads system fonts, so every machine measures and paints the same glyphs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fallbackFace, LazyFace, SyntheticFace, type FontFace, type FontStyle } from './faces.js';
import { parseFallbackKey } from './fallback.js';
import { defaultFontsDir, InstalledFonts, type InstalledFamily } from './installed.js';
import { installedFamilyFaces, SegmentedFace } from './subset-faces.js';

/** fonts/manifest.json: each family's faces, as files of an npm package (or beside the manifest). */
interface Manifest {
  /** `license`: the licence file, beside the faces (documentation; docs/template-format.md names them). */
  /** `alternate: false`: not a per-character fallback for other families (families added later, so older designs draw as before). */
  families: { family: string; package?: string; license: string; alternate?: boolean; faces: { weight: number; style?: FontStyle; file: string }[] }[];
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
