// The font folder: catalogue families installed ahead of renders (`imprint fonts install`, the service's
// imports), one read-only folder per package version. This module only reads it — installing is
// src/fonts/install.ts — so the engine finds installed families without loading npm or the network.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
/** normal or italic (faces.ts's FontStyle, repeated so this module imports nothing of the faces or the set). */
type FontStyle = 'normal' | 'italic';

/** The file in each installed package's folder that says what it is (written last, so a folder without it is not installed). */
export const INSTALLED_RECORD = 'imprint-font.json';

/**
 * One unicode-range part of a face split per subset (an @fontsource package): the file and the
 * characters it draws, as the package's CSS gives them to a browser.
 */
export interface InstalledSubset {
  /** The subset's name in the package ("latin", "thai", "[12]" for a numbered CJK slice). */
  name: string;
  /** Path inside the package's folder (the subset's WOFF2, decoded to sfnt at install). */
  file: string;
  /** Its CSS unicode-range ("U+0000-00FF,U+0131,…"). */
  unicodeRange: string;
}

/** One face of an installed family. */
export interface InstalledFace {
  weight: number;
  style: FontStyle;
  /** Path inside the package's folder (for a face split per subset: the file of its first subset). */
  file: string;
  /**
   * Present for a face split per subset: its parts in the order a browser tries them (the package's
   * CSS declares them in the opposite order, and a later @font-face rule takes precedence).
   */
  subsets?: InstalledSubset[];
}

/** One installed family: a package version in its own folder. */
export interface InstalledFamily {
  family: string;
  /** The npm package the files came from, e.g. "@expo-google-fonts/roboto", or "@fontsource/krub" for a family without an expo package. */
  package: string;
  version: string;
  /** The package tarball's Subresource Integrity (sha512-…), as npm's lockfiles record it. */
  integrity: string;
  /** Absolute path of the package's folder. */
  dir: string;
  /** The licence file inside `dir`. */
  licence: string;
  faces: InstalledFace[];
}

/**
 * The font folder a process uses when nothing names one: IMPRINT_FONTS_DIR, else `fonts` in the
 * service's data folder (IMPRINT_DATA_DIR, default ./data), so the CLI, the library and `imprint serve`
 * started in the same folder find the same installs.
 */
export function defaultFontsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.IMPRINT_FONTS_DIR) return resolve(env.IMPRINT_FONTS_DIR);
  return resolve(env.IMPRINT_DATA_DIR || './data', 'fonts');
}

/**
 * A package folder's name: the family's slug and the version, so versions sit side by side; a package
 * other than the family's @expo-google-fonts one is prefixed with its scope ("fontsource-krub@5.2.7").
 */
export function packageFolder(slug: string, version: string, pkg?: string): string {
  const scope = pkg === undefined || pkg.startsWith('@expo-google-fonts/') ? '' : `${pkg.slice(1, pkg.indexOf('/'))}-`;
  return `${scope}${slug}@${version}`;
}

/** Families with both packages installed draw with the @expo-google-fonts one: its files cover the whole font. */
const packageRank = (pkg: string): number => (pkg.startsWith('@expo-google-fonts/') ? 0 : 1);

/** Numeric comparison of dotted versions ("0.4.10" after "0.4.9"); pre-release tags sort by text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    const d = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x.localeCompare(y);
    if (d !== 0) return d;
  }
  return 0;
}

function readRecord(dir: string): InstalledFamily | undefined {
  try {
    const r = JSON.parse(readFileSync(join(dir, INSTALLED_RECORD), 'utf8')) as Omit<InstalledFamily, 'dir'>;
    if (typeof r.family !== 'string' || typeof r.version !== 'string' || !Array.isArray(r.faces) || r.faces.length === 0) return undefined;
    // A face split per subset needs each part's file and range (a record edited by hand is not taken).
    const whole = (f: InstalledFace): boolean =>
      f.subsets === undefined ||
      (Array.isArray(f.subsets) &&
        f.subsets.length > 0 &&
        f.subsets.every((p) => typeof p?.name === 'string' && typeof p.file === 'string' && typeof p.unicodeRange === 'string'));
    if (!r.faces.every(whole)) return undefined;
    return { ...r, dir };
  } catch {
    return undefined;
  }
}

/**
 * The families installed in a font folder. The folder is listed again only when it changed (its
 * mtime), so looking up a family that is not there costs a stat, and an install made by another
 * process (the CLI beside a running server) is seen by the next lookup.
 */
export class InstalledFonts {
  readonly dir: string;
  #mtime = -1;
  #byName = new Map<string, InstalledFamily[]>();

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  #refresh(): void {
    let mtime: number;
    try {
      mtime = statSync(this.dir).mtimeMs;
    } catch {
      this.#mtime = -1;
      this.#byName = new Map();
      return;
    }
    // A rename by another process within the same timestamp tick leaves the mtime as it was: while the
    // folder changed in the last two seconds, it is listed again.
    if (mtime === this.#mtime && Date.now() - mtime > 2000) return;
    const byName = new Map<string, InstalledFamily[]>();
    for (const entry of readdirSync(this.dir, { withFileTypes: true })) {
      // Staging folders start with a dot; only complete folders (with their record) count.
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const record = readRecord(join(this.dir, entry.name));
      if (!record) continue;
      const key = record.family.toLowerCase();
      byName.set(
        key,
        [...(byName.get(key) ?? []), record].sort((a, b) => packageRank(a.package) - packageRank(b.package) || compareVersions(b.version, a.version)),
      );
    }
    this.#byName = byName;
    this.#mtime = mtime;
  }

  /** Every installed family, each version (newest first within a family and package), by family name. */
  list(): InstalledFamily[] {
    this.#refresh();
    return [...this.#byName.values()]
      .flat()
      .sort((a, b) => a.family.localeCompare(b.family) || packageRank(a.package) - packageRank(b.package) || compareVersions(b.version, a.version));
  }

  /**
   * The family (case-insensitive, as CSS matches family names): that version, or the newest installed,
   * of that package when `pkg` is given; without it an @expo-google-fonts package before an @fontsource one.
   */
  find(family: string, version?: string, pkg?: string): InstalledFamily | undefined {
    this.#refresh();
    const versions = this.#byName.get(family.toLowerCase());
    if (!versions) return undefined;
    return versions.find((v) => (version === undefined || v.version === version) && (pkg === undefined || v.package === pkg));
  }

  /** Whether the folder exists (a process that never installed anything has none). */
  exists(): boolean {
    return existsSync(this.dir);
  }
}
