// The Google Fonts catalogue (fonts/catalogue.json, src/text/catalogue.ts): the whole collection is there
// with the facts a choice needs, lookups reject names that cannot be families, and the committed file is
// what the generator makes from its pinned source.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueFamily, cataloguePackage, catalogueSource, searchCatalogue, type CatalogueFamily } from '../src/text/catalogue.js';

const ROOT = join(import.meta.dirname, '..');
const { families } = JSON.parse(readFileSync(join(ROOT, 'fonts', 'catalogue.json'), 'utf8')) as { families: CatalogueFamily[] };
/** The licences Google Fonts publishes under (OFL, Apache 2.0, the Ubuntu Font Licence). */
const LICENCES = ['SIL Open Font License, 1.1', 'Apache License, Version 2.0', 'Ubuntu Font License, 1.0'];

describe('font catalogue', () => {
  it('lists the whole collection, from a pinned metadata version', () => {
    expect(families.length).toBeGreaterThanOrEqual(1800);
    expect(catalogueSource()).toMatch(/^google-font-metadata@\d+\.\d+\.\d+$/);
    expect(families.map((f) => f.family)).toEqual(families.map((f) => f.family).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('has the families designs ask for, with their weights, styles, subsets and axes', () => {
    const roboto = catalogueFamily('Roboto');
    expect(roboto?.weights).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(roboto?.styles).toEqual(['normal', 'italic']);
    expect(roboto && cataloguePackage(roboto)).toBe('@expo-google-fonts/roboto');
    expect(catalogueFamily('Montserrat')?.category).toBe('sans-serif');
    expect(catalogueFamily('Playfair Display')?.slug).toBe('playfair-display');
    expect(catalogueFamily('Noto Sans JP')?.subsets).toContain('japanese');
    const flex = catalogueFamily('Roboto Flex');
    expect(flex?.axes?.find((a) => a.tag === 'wght')).toEqual({ tag: 'wght', min: 100, max: 1000, default: 400 });
    expect(flex?.axes?.map((a) => a.tag)).toContain('opsz');
    expect(roboto?.axes?.map((a) => a.tag)).toContain('wdth');
    expect(catalogueFamily('Abel')?.axes).toBeUndefined();
  });

  it('gives every family a unique slug that names its package, and a known licence or none', () => {
    for (const f of families) {
      expect(f.family).toMatch(/^[A-Za-z0-9 ]+$/);
      expect(f.slug).toBe(f.family.toLowerCase().replace(/ /g, '-'));
      if (f.licence !== null) expect(LICENCES).toContain(f.licence.type);
    }
    expect(new Set(families.map((f) => f.slug)).size).toBe(families.length);
  });

  it('looks names up exactly and case-insensitively', () => {
    expect(catalogueFamily('playfair DISPLAY')?.family).toBe('Playfair Display');
    expect(catalogueFamily('Playfair Disp')).toBeUndefined();
    expect(catalogueFamily('No Such Family')).toBeUndefined();
  });

  it('answers names that cannot be families with undefined, never an error', () => {
    const bad: unknown[] = [
      '../etc',
      '../../fonts/catalogue',
      'Roboto\0',
      '\0',
      'R'.repeat(10 * 1024),
      '',
      ' Roboto/',
      'Roboto\n',
      42,
      null,
      undefined,
      {},
      ['Roboto'],
    ];
    for (const name of bad) {
      expect(catalogueFamily(name as string)).toBeUndefined();
      expect(searchCatalogue(name as string)).toEqual([]);
    }
  });

  it('searches by substring: the exact match first, then prefixes, then the rest', () => {
    const names = searchCatalogue('roboto', 50).map((f) => f.family);
    expect(names[0]).toBe('Roboto');
    const firstInside = names.findIndex((n) => !n.toLowerCase().startsWith('roboto'));
    expect(names.slice(1, firstInside).length).toBeGreaterThan(2);
    expect(names.slice(1, firstInside).every((n) => n.startsWith('Roboto '))).toBe(true);
    if (firstInside >= 0) expect(names.slice(firstInside).every((n) => n.toLowerCase().includes('roboto'))).toBe(true);
    expect(searchCatalogue('sans', 500).every((f) => f.family.toLowerCase().includes('sans'))).toBe(true);
    expect(searchCatalogue('sans', 5)).toHaveLength(5);
    expect(searchCatalogue('Roboto', 0)).toEqual([]);
    expect(searchCatalogue('zzzzqqq')).toEqual([]);
  });

  // The generator fetches its pinned source with `npm pack` (about 1 s with a warm npm cache), so this
  // needs the registry or the cache. Without them: IMPRINT_SKIP_CATALOGUE_CHECK=1 skips it, and
  // `node scripts/make-font-catalogue.mjs --check` runs the same check by hand.
  it.skipIf(process.env.IMPRINT_SKIP_CATALOGUE_CHECK === '1')(
    'is what the generator makes from its pinned source (deterministic, no run dates)',
    () => {
      const out = execFileSync(process.execPath, [join(ROOT, 'scripts', 'make-font-catalogue.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
      expect(out).toMatch(/matches google-font-metadata@/);
    },
    60_000,
  );
});
