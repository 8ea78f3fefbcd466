// The Google Fonts catalogue: fonts/catalogue.json (scripts/make-font-catalogue.mjs), the whole collection's
// families with their weights, styles, subsets, variable axes and licence, for looking a family up by name.
// It describes families; it installs and renders none of them. The file (~0.5 MB) is read on the first
// lookup, not at import, so nothing that never asks pays for it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A variable font's axis, as Google Fonts serves it (`wght`, `wdth`, `opsz`, or a custom uppercase tag). */
export interface CatalogueAxis {
  tag: string;
  min: number;
  max: number;
  default: number;
}

/** One family of the collection. */
export interface CatalogueFamily {
  family: string;
  /** The family's name in lowercase with spaces as hyphens: its @expo-google-fonts and @fontsource package and google-font-metadata id. */
  slug: string;
  category: string;
  weights: number[];
  styles: ('normal' | 'italic')[];
  /** Google Fonts' subsets (`latin`, `cyrillic`, `japanese`, …): the scripts the family covers. */
  subsets: string[];
  /** Present only for variable families. */
  axes?: CatalogueAxis[];
  /** Null where the metadata has no licence record (it lacks one for some families; Google Fonts serves only open licences). */
  licence: { type: string; url: string } | null;
  /** Google Fonts' version of the family, such as "v50". */
  version: string;
}

interface CatalogueFile {
  source: string;
  families: CatalogueFamily[];
}

// The same folder src/text/fonts.ts finds the bundled fonts in: two levels up from this module is the
// package root from src/text/, dist/text/ and the bundle in dist/pkg/ alike.
const CATALOGUE_FILE = fileURLToPath(new URL('../../fonts/catalogue.json', import.meta.url));

/** The longest name looked up: the collection's longest family is well under it, and it bounds the work. */
const MAX_NAME = 100;
/** Every family name in the collection is letters, digits and spaces, so anything else cannot match. */
const NAME = /^[A-Za-z0-9 ]+$/;

interface Loaded {
  file: CatalogueFile;
  byName: Map<string, CatalogueFamily>;
}
let loaded: Loaded | undefined;

function catalogue(): Loaded {
  if (!loaded) {
    const file = JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8')) as CatalogueFile;
    if (typeof file.source !== 'string' || !Array.isArray(file.families)) throw new Error(`${CATALOGUE_FILE} is not a font catalogue`);
    loaded = { file, byName: new Map(file.families.map((f) => [f.family.toLowerCase(), f])) };
  }
  return loaded;
}

/** A name worth looking up: a string of 1–100 letters, digits and spaces (callers may pass anything from a request). */
function validName(name: unknown): name is string {
  return typeof name === 'string' && name.length >= 1 && name.length <= MAX_NAME && NAME.test(name);
}

/** The family named `name` (case-insensitive, exact), or undefined; a name that cannot be a family is undefined too, never an error. */
export function catalogueFamily(name: string): CatalogueFamily | undefined {
  if (!validName(name)) return undefined;
  return catalogue().byName.get(name.toLowerCase());
}

/**
 * Families whose name contains `query` (case-insensitive): the exact match first, then names that start
 * with it, then the rest, each group in the catalogue's alphabetical order; at most `limit` of them.
 */
export function searchCatalogue(query: string, limit = 20): CatalogueFamily[] {
  if (!validName(query)) return [];
  const max = Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
  const q = query.toLowerCase();
  const exact: CatalogueFamily[] = [];
  const prefix: CatalogueFamily[] = [];
  const inside: CatalogueFamily[] = [];
  for (const f of catalogue().file.families) {
    const name = f.family.toLowerCase();
    if (name === q) exact.push(f);
    else if (name.startsWith(q)) prefix.push(f);
    else if (name.includes(q)) inside.push(f);
  }
  return [...exact, ...prefix, ...inside].slice(0, max);
}

/** The npm package whose TTFs are the family's files (one per weight and style). */
export function cataloguePackage(f: CatalogueFamily): string {
  return `@expo-google-fonts/${f.slug}`;
}

/**
 * The family's Fontsource package: its files split per Unicode subset (WOFF2), as Google Fonts serves
 * browsers. Installed when the family has no @expo-google-fonts package (about a third of the collection).
 */
export function fontsourcePackage(f: CatalogueFamily): string {
  return `@fontsource/${f.slug}`;
}

/** The packages a family installs from, in the order tried: the full fonts first, then the subset files. */
export function familyPackages(f: CatalogueFamily): [expo: string, fontsource: string] {
  return [cataloguePackage(f), fontsourcePackage(f)];
}

/** The versioned metadata package the catalogue was generated from, such as "google-font-metadata@6.0.8". */
export function catalogueSource(): string {
  return catalogue().file.source;
}

/** How many families the catalogue has. */
export function catalogueSize(): number {
  return catalogue().file.families.length;
}
