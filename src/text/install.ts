// Installs catalogue families into a font folder (installed.ts reads it): the family's
// @expo-google-fonts package (full TTFs), or its @fontsource package (WOFF2 files split per Unicode
// subset) when there is no expo one, from the npm registry through `npm pack` (npm checks the tarball
// against the registry's integrity), or from a folder of such tarballs with no network. Each package
// version is unpacked into a hidden staging folder and renamed into place in one step, so a reader
// never sees half a family and two processes installing the same family at once both end with one good copy.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ImprintError, validationError } from '../errors.js';
import { catalogueFamily, familyPackages, searchCatalogue, type CatalogueFamily } from './catalogue.js';
import { FontFileError, readFontFile } from './font-file.js';
import type { FontSet } from './fonts.js';
import { compareVersions, defaultFontsDir, INSTALLED_RECORD, InstalledFonts, packageFolder, type InstalledFace, type InstalledFamily } from './installed.js';
import { readTarball, TarballError, type TarFile } from './tarball.js';
import { parseUnicodeRange, UnicodeRangeError } from './unicode-range.js';

/** What to install: a family of the catalogue, optionally pinned to a package version and its integrity. */
export interface FontRequest {
  family: string;
  /** The package version ("0.4.3"); default: the newest (the registry's `latest`, or the newest tarball of the folder). */
  version?: string;
  /** The tarball's sha512 integrity a pinned design recorded; a package that differs is refused. */
  integrity?: string;
  /**
   * The package a pinned design recorded (the family's @expo-google-fonts or @fontsource package): only
   * that one is installed. Default: the @expo-google-fonts package, else, when the registry (or the
   * tarball folder) has none, the @fontsource one.
   */
  package?: string;
}

export interface InstallOptions {
  /** The font folder. @default defaultFontsDir(): IMPRINT_FONTS_DIR, else ./data/fonts */
  dir?: string;
  /** A folder of package tarballs (`npm pack` names: expo-google-fonts-<slug>-<version>.tgz, or fontsource-<slug>-<version>.tgz) to install from instead of the registry. @default none: the npm registry */
  from?: string;
  /** The npm command. @default "npm" */
  npm?: string;
  /** How long one download may take, in ms. @default 120000 */
  timeoutMs?: number;
  /** Where the request named the family, for error paths. @default "$.family" */
  at?: string;
  /** Stops a download that is waiting or running (npm is killed); the install then fails with render_cancelled and leaves the folder unchanged. @default none */
  signal?: AbortSignal;
}

/** One installed (or already present) family. */
export interface InstallResult extends InstalledFamily {
  /** "registry" or "folder": installed now; "present": it was installed already. */
  source: 'registry' | 'folder' | 'present';
}

/** The largest package accepted, unpacked (the biggest CJK families are ~100 MB). */
const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const INTEGRITY = /^sha512-[A-Za-z0-9+/]{86}==$/;
/** A face file of an @expo-google-fonts package: "<weight><Name>[_Italic]/<File>.ttf". */
const FACE_FILE = /^package\/((\d)00[A-Za-z]+(_Italic)?\/[A-Za-z0-9_-]+\.(?:ttf|otf))$/;
/** The older layout a few packages still have (their last release predates the folders): "<Family>_<weight><Name>[_Italic].ttf" at the root. */
const ROOT_FACE_FILE = /^package\/([A-Za-z0-9]+_(\d)00[A-Za-z]+(_Italic)?\.(?:ttf|otf))$/;
const faceFile = (name: string): RegExpExecArray | null => FACE_FILE.exec(name) ?? ROOT_FACE_FILE.exec(name);
const LICENCE_FILE = /^package\/(LICEN[CS]E(?:_FONT)?(?:\.txt|\.md)?|OFL\.txt)$/i;
/** A subset file of an @fontsource package: "files/<slug>-<subset>-<weight>-<style>.woff2" (the WOFF of each is the same font). */
const SUBSET_FILE = /^package\/files\/([a-z0-9-]+)-(\d)00-(normal|italic)\.woff2$/;
/** The Unicode ranges of an @fontsource package's subsets, in the order its CSS declares them. */
const UNICODE_FILE = 'package/unicode.json';
const isFontsource = (pkg: string): boolean => pkg.startsWith('@fontsource/');

/** A family request as a person types it: "Open Sans" or "Open Sans@0.4.2". */
export function parseFontRequest(text: string): FontRequest {
  const at = text.lastIndexOf('@');
  return at > 0 ? { family: text.slice(0, at), version: text.slice(at + 1) } : { family: text };
}

/** A value shown in a message: short, printable, quoted. */
function shown(v: unknown): string {
  const s = typeof v === 'string' ? v : String(v);
  const clipped = s.length > 60 ? `${s.slice(0, 60)}… (${s.length} characters)` : s;
  return JSON.stringify(clipped);
}

/** The catalogue family a request names, or a validation error that says what to do. */
export function requestedFamily(req: FontRequest, at = '$.family'): CatalogueFamily {
  const name = req.family;
  if (typeof name !== 'string' || !/^[A-Za-z0-9 ]{1,100}$/.test(name)) {
    throw validationError(
      at,
      `expected a Google Fonts family name (letters, digits and spaces, at most 100 characters) but received ${shown(name)}: give the family as Google Fonts names it, e.g. "Open Sans"`,
    );
  }
  const family = catalogueFamily(name);
  if (!family) {
    // Near names: those sharing the first word, else the first four letters (a typo further on).
    const first = name.trim().split(' ')[0] ?? '';
    const found = searchCatalogue(first, 5);
    const near = (found.length ? found : searchCatalogue(first.slice(0, 4), 5)).map((f) => JSON.stringify(f.family));
    throw validationError(
      at,
      `no family ${shown(name)} in the font catalogue (the Google Fonts collection)${near.length ? `: did you mean ${near.join(', ')}?` : '.'} A font of your own is added as a file instead (the design's fonts, or imprint admin add-font)`,
    );
  }
  if (req.version !== undefined && (typeof req.version !== 'string' || !VERSION.test(req.version))) {
    throw validationError(at, `expected a package version like "0.4.3" after @ but received ${shown(req.version)}`);
  }
  if (req.integrity !== undefined && (typeof req.integrity !== 'string' || !INTEGRITY.test(req.integrity))) {
    throw validationError(at, `expected a sha512 integrity ("sha512-…", as npm records it) but received ${shown(req.integrity)}`);
  }
  return family;
}

/** The error of an install stopped by its caller's signal (a worker shutting down, a task's time limit). */
function cancelled(signal: AbortSignal, at: string): ImprintError {
  const reason: unknown = signal.reason;
  const why = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
  return new ImprintError('render_cancelled', at, `the font install was stopped before it finished${why}; nothing was installed`);
}

/** The integrity npm records for a tarball. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

function run(cmd: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
  return new Promise((res, rej) => {
    execFile(
      cmd,
      args,
      {
        timeout: timeoutMs,
        maxBuffer: 4 * 1024 * 1024,
        env: { ...process.env, npm_config_update_notifier: 'false' },
        ...(signal ? { signal } : {}),
      },
      (err, stdout, stderr) => {
        if (err) {
          const last = String(stderr || err.message)
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean)
            .slice(-2)
            .join(' ');
          rej(Object.assign(new Error(last || err.message), { code: (err as { code?: unknown }).code, killed: err.killed, stderr: String(stderr) }));
        } else res(stdout);
      },
    );
  });
}

/** The package is not on the registry (npm's E404), or the tarball folder has none of it: the next package is tried. */
class NotThere extends Error {
  constructor(readonly pkg: string) {
    super(`${pkg} is not there`);
  }
}

/** The tarball from the registry, downloaded by npm into `staging` (npm verifies it against the registry's integrity). */
async function fromRegistry(
  pkg: string,
  version: string | undefined,
  staging: string,
  options: InstallOptions,
  at: string,
): Promise<{ bytes: Buffer; version: string }> {
  const spec = `${pkg}@${version ?? 'latest'}`;
  let out: string;
  try {
    out = await run(
      options.npm ?? 'npm',
      ['pack', spec, '--json', '--pack-destination', staging, '--loglevel', 'error'],
      options.timeoutMs ?? 120_000,
      options.signal,
    );
  } catch (e) {
    const err = e as Error & { code?: unknown; killed?: boolean; stderr?: string };
    const why =
      err.code === 'ENOENT'
        ? `npm was not found (${options.npm ?? 'npm'}): install Node.js with npm, or install from a folder of tarballs (--from <folder>)`
        : err.killed
          ? `npm took longer than ${Math.round((options.timeoutMs ?? 120_000) / 1000)} s`
          : err.message;
    const said = `${err.stderr ?? ''} ${err.message}`;
    if (/\bE404\b|404 Not Found|npm error 404/.test(said)) throw new NotThere(pkg);
    // A version one package lacks may be the other's (expo's are 0.x, Fontsource's 4.x and 5.x).
    if (version !== undefined && /\bETARGET\b|No matching version/.test(said)) throw new NotThere(pkg);
    if (options.signal?.aborted) throw cancelled(options.signal, at);
    // Not the input's fault: the same request can succeed later, so it gets a code callers may retry.
    throw new ImprintError(
      'font_install_failed',
      at,
      `could not download ${spec} from the npm registry: ${why}. Retry later; on a machine without network, install from a folder of tarballs (imprint fonts install --from <folder>)`,
    );
  }
  let packed: { filename: string; version: string; integrity: string } | undefined;
  try {
    packed = (JSON.parse(out) as { filename: string; version: string; integrity: string }[])[0];
  } catch {
    throw new ImprintError(
      'validation_error',
      at,
      `npm pack ${spec} printed something that is not its JSON report: check the npm installation (npm --version)`,
    );
  }
  if (!packed) throw new ImprintError('validation_error', at, `npm pack ${spec} printed no package`);
  const bytes = await readFile(join(staging, packed.filename.replace(/^@/, '').replace(/\//g, '-')));
  if (integrityOf(bytes) !== packed.integrity) {
    throw new ImprintError('validation_error', at, `the download of ${spec} does not match the registry's integrity (EINTEGRITY): install it again`);
  }
  return { bytes, version: packed.version };
}

/** The tarball from a folder of `npm pack` files: that version, or the newest there. */
async function fromFolder(pkg: string, version: string | undefined, folder: string, at: string): Promise<{ bytes: Buffer; version: string }> {
  const prefix = `${pkg.replace(/^@/, '').replace(/\//g, '-')}-`;
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    throw validationError(at, `the tarball folder ${folder} cannot be read: give a folder of npm pack files (--from <folder>)`);
  }
  const versions = names
    .filter((n) => n.startsWith(prefix) && n.endsWith('.tgz'))
    .map((n) => n.slice(prefix.length, -4))
    .filter((v) => VERSION.test(v))
    .sort((a, b) => compareVersions(b, a));
  const chosen = version === undefined ? versions[0] : versions.find((v) => v === version);
  if (!chosen) throw new NotThere(pkg);
  return { bytes: await readFile(join(folder, `${prefix}${chosen}.tgz`)), version: chosen };
}

/** A face file to write into the package's folder. */
type FaceFile = { file: string; bytes: Buffer };

/** The faces, licence and record of a package tarball, checked: every face file must open as a font. */
async function unpack(bytes: Buffer, pkg: string, version: string, family: CatalogueFamily, at: string) {
  const fontsource = isFontsource(pkg);
  let files;
  try {
    files = await readTarball(
      bytes,
      (n) => n === 'package/package.json' || LICENCE_FILE.test(n) || (fontsource ? n === UNICODE_FILE || SUBSET_FILE.test(n) : faceFile(n) !== null),
      MAX_UNPACKED_BYTES,
    );
  } catch (e) {
    if (e instanceof TarballError)
      throw validationError(at, `the package ${pkg}@${version} is corrupt (${e.message}): install it again, or replace its tarball`);
    throw e;
  }
  const manifest = files.find((f) => f.name === 'package/package.json');
  let meta: { name?: unknown; version?: unknown } = {};
  try {
    meta = manifest ? (JSON.parse(manifest.bytes.toString('utf8')) as typeof meta) : {};
  } catch {
    // Reported below as a package that is not the one asked for.
  }
  if (meta.name !== pkg || meta.version !== version) {
    throw validationError(
      at,
      `the tarball is not ${pkg}@${version} (its package.json names ${shown(meta.name)}@${shown(meta.version)}): replace it with the right npm pack file`,
    );
  }
  /** The file decoded as a font, or the refusal that names it. */
  const opened = async (f: TarFile, name: string) => {
    try {
      return await readFontFile(f.bytes);
    } catch (e) {
      if (e instanceof FontFileError)
        throw validationError(at, `the package ${pkg}@${version} has a font file Imprint cannot read (${name}: ${e.message}): it is corrupt; install it again`);
      throw e;
    }
  };
  const { faces, write } = fontsource ? await subsetFaces(files, pkg, version, at, opened) : await wholeFaces(files, opened);
  if (faces.length === 0)
    throw validationError(at, `the package ${pkg}@${version} has no font files for ${family.family}: it is not a font package of the catalogue`);
  // The font's own licence (OFL, Apache) before the package's LICENSE, which covers its JavaScript (MIT);
  // a Fontsource package's LICENSE is the font's.
  const licences = files.filter((f) => LICENCE_FILE.test(f.name));
  const licence = licences.find((f) => /_FONT|OFL/i.test(f.name)) ?? licences[0];
  return { faces: faces.sort((a, b) => a.weight - b.weight || a.style.localeCompare(b.style)), write, licence };
}

/** An @expo-google-fonts package's faces: one TTF per weight and style, kept as it is. */
async function wholeFaces(files: TarFile[], opened: (f: TarFile, name: string) => Promise<unknown>): Promise<{ faces: InstalledFace[]; write: FaceFile[] }> {
  const faces: InstalledFace[] = [];
  const write: FaceFile[] = [];
  for (const f of files) {
    const m = faceFile(f.name);
    if (!m) continue;
    await opened(f, m[1]!);
    faces.push({ weight: Number(m[2]) * 100, style: m[3] ? 'italic' : 'normal', file: m[1]! });
    write.push({ file: m[1]!, bytes: f.bytes });
  }
  return { faces, write };
}

/**
 * An @fontsource package's faces: per weight and style, the WOFF2 files of its subsets with each one's
 * unicode-range from unicode.json, in the order a browser tries them (the reverse of the CSS's). Each
 * file is decoded once here, as a browser decodes it on loading, and kept as sfnt for the renders.
 */
async function subsetFaces(
  files: TarFile[],
  pkg: string,
  version: string,
  at: string,
  opened: (f: TarFile, name: string) => Promise<{ sfnt: Buffer; format: string }>,
): Promise<{ faces: InstalledFace[]; write: FaceFile[] }> {
  const unicode = files.find((f) => f.name === UNICODE_FILE);
  const refuse = (why: string) =>
    validationError(at, `the package ${pkg}@${version} ${why}: it is corrupt or not a Fontsource font package; install it again, or replace its tarball`);
  if (!unicode) throw refuse('has no unicode.json (the Unicode range of each of its subset files)');
  let ranges: [string, string][];
  try {
    const parsed = JSON.parse(unicode.bytes.toString('utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UnicodeRangeError('it is not an object of subset names and ranges');
    ranges = Object.entries(parsed as Record<string, unknown>).map(([name, range]) => {
      if (typeof range !== 'string') throw new UnicodeRangeError(`the range of ${JSON.stringify(name)} is not a string`);
      parseUnicodeRange(range);
      return [name, range];
    });
  } catch (e) {
    if (e instanceof UnicodeRangeError || e instanceof SyntaxError) throw refuse(`has a unicode.json Imprint cannot read (${e.message.slice(0, 200)})`);
    throw e;
  }
  const slug = pkg.slice('@fontsource/'.length);
  // File names use the subset's name without brackets ("[12]" → "12").
  const byFileName = new Map(ranges.map(([name, range], order) => [`${slug}-${name.replace(/^\[(\d+)\]$/, '$1')}`, { name, range, order }]));
  const groups = new Map<
    string,
    { weight: number; style: 'normal' | 'italic'; parts: { order: number; name: string; range: string; file: string; tar: TarFile }[] }
  >();
  for (const f of files) {
    const m = SUBSET_FILE.exec(f.name);
    const subset = m ? byFileName.get(m[1]!) : undefined;
    // A file of a subset unicode.json does not list has no range to draw: a browser never loads it either.
    if (!m || !subset) continue;
    const weight = Number(m[2]) * 100;
    const style = m[3] as 'normal' | 'italic';
    const key = `${weight}-${style}`;
    const group = groups.get(key) ?? { weight, style, parts: [] };
    group.parts.push({ order: subset.order, name: subset.name, range: subset.range, file: f.name.slice('package/'.length), tar: f });
    groups.set(key, group);
  }
  const faces: InstalledFace[] = [];
  const write: FaceFile[] = [];
  for (const g of groups.values()) {
    // Later @font-face rules take precedence (CSS Fonts 4 §4.9): the last subset declared is tried first.
    const parts = g.parts.sort((a, b) => b.order - a.order);
    const subsets = [];
    for (const p of parts) {
      const { sfnt } = await opened(p.tar, p.file);
      const file = p.file.replace(/\.woff2$/, sfnt.subarray(0, 4).toString('latin1') === 'OTTO' ? '.otf' : '.ttf');
      write.push({ file, bytes: sfnt });
      subsets.push({ name: p.name, file, unicodeRange: p.range });
    }
    faces.push({ weight: g.weight, style: g.style, file: subsets[0]!.file, subsets });
  }
  return { faces, write };
}

// One install at a time per process: a burst of requests naming new families queues here instead of
// starting as many npm processes and unpacking as many packages at once.
let installing: Promise<unknown> = Promise.resolve();

/**
 * Installs one family (already there: returned as "present", nothing downloaded). Errors are at
 * `options.at` and say what to do: validation_error for a wrong or unknown request or a bad package,
 * font_install_failed when the registry cannot be reached (retry), render_cancelled when `signal`
 * stopped it. The folder is unchanged by a failure.
 */
export function installFont(request: FontRequest | string, options: InstallOptions = {}): Promise<InstallResult> {
  const at = options.at ?? '$.family';
  const run = installing.then(() => {
    // A caller that gave up while an earlier install held the queue starts nothing.
    if (options.signal?.aborted) throw cancelled(options.signal, at);
    return installOne(request, options);
  });
  installing = run.catch(() => undefined);
  return run;
}

async function installOne(request: FontRequest | string, options: InstallOptions): Promise<InstallResult> {
  const req = typeof request === 'string' ? parseFontRequest(request) : request;
  const at = options.at ?? '$.family';
  const family = requestedFamily(req, at);
  const candidates = packagesFor(family, req.package, at);
  // A pin names its package; a family asked for by name is present in either.
  const pinnedPkg = req.package === undefined ? undefined : candidates[0];
  const dir = resolve(options.dir ?? defaultFontsDir());
  const installed = new InstalledFonts(dir);
  const present = installed.find(family.family, req.version, pinnedPkg);
  if (present && (req.integrity === undefined || present.integrity === req.integrity)) return { ...present, source: 'present' };

  await mkdir(dir, { recursive: true });
  const staging = join(dir, `.staging-${process.pid}-${randomBytes(6).toString('hex')}`);
  await mkdir(staging);
  try {
    const got = await download(candidates, family, req.version, staging, options, at);
    const pkg = got.pkg;
    const integrity = integrityOf(got.bytes);
    if (req.integrity !== undefined && integrity !== req.integrity) {
      throw validationError(
        at,
        `${pkg}@${got.version} does not match the integrity the design recorded (EINTEGRITY: ${req.integrity.slice(0, 20)}…, got ${integrity.slice(0, 20)}…): the tarball was changed; use the original`,
      );
    }
    const again = installed.find(family.family, got.version, pkg);
    if (again && again.integrity === integrity) return { ...again, source: 'present' };
    const { faces, write, licence } = await unpack(got.bytes, pkg, got.version, family, at);
    const target = join(staging, 'package');
    for (const f of write) {
      await mkdir(join(target, f.file, '..'), { recursive: true });
      await writeFile(join(target, f.file), f.bytes);
    }
    const licenceName = licence ? licence.name.slice('package/'.length) : 'LICENSE_FONT';
    if (licence) await writeFile(join(target, licenceName), licence.bytes);
    const record: Omit<InstalledFamily, 'dir'> = {
      family: family.family,
      package: pkg,
      version: got.version,
      integrity,
      licence: licenceName,
      faces,
    };
    // The record is written last: a folder without it is never taken for an installed family.
    await writeFile(join(target, INSTALLED_RECORD), `${JSON.stringify(record, null, 2)}\n`);
    const final = join(dir, packageFolder(family.slug, got.version, pkg));
    try {
      await rename(target, final);
    } catch (e) {
      const code = (e as { code?: string }).code;
      // Another process installed the same version first: its copy is as good as ours.
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') throw e;
      const theirs = new InstalledFonts(dir).find(family.family, got.version, pkg);
      if (!theirs) throw e;
      if (theirs.integrity !== integrity) {
        throw validationError(
          at,
          `another copy of ${pkg}@${got.version} with a different integrity is installed in ${theirs.dir}: remove it and install again`,
        );
      }
      return { ...theirs, source: 'present' };
    }
    return { ...record, dir: final, source: options.from ? 'folder' : 'registry' };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The packages to try for a family: the pinned one (which must be the family's), else expo then fontsource. */
function packagesFor(family: CatalogueFamily, pinned: string | undefined, at: string): string[] {
  const own = familyPackages(family);
  if (pinned === undefined) return own;
  if (!own.includes(pinned)) {
    throw validationError(
      at,
      `${shown(pinned)} is not a package of font family "${family.family}" (${own.join(' or ')} is): fix the design's entry, or name the family alone ("${family.family}")`,
    );
  }
  return [pinned];
}

/** The first of `candidates` the registry (or the tarball folder) has; none there is a validation error naming them all. */
async function download(
  candidates: readonly string[],
  family: CatalogueFamily,
  version: string | undefined,
  staging: string,
  options: InstallOptions,
  at: string,
): Promise<{ bytes: Buffer; version: string; pkg: string }> {
  for (const pkg of candidates) {
    try {
      const got = options.from ? await fromFolder(pkg, version, resolve(options.from), at) : await fromRegistry(pkg, version, staging, options, at);
      return { ...got, pkg };
    } catch (e) {
      if (!(e instanceof NotThere)) throw e;
    }
  }
  const names = candidates.map((c) => `${c}${version ? `@${version}` : ''}`).join(' nor ');
  const either = candidates.length > 1 ? `neither ${names} is` : `${names} is not`;
  if (options.from) {
    const tarballs = candidates.map((c) => `${c.slice(1).replace(/\//g, '-')}-${version ?? '<version>'}.tgz`);
    const packs = candidates.map((c) => `npm pack ${c}${version ? `@${version}` : ''}`);
    throw validationError(
      at,
      `no tarball of ${candidates.join(' or ')}${version ? ` at ${version}` : ''} in ${resolve(options.from)} (looked for ${tarballs.join(' and ')}): add it with ${packs.join(' (or, for a family without the first, ')}${packs.length > 1 ? ')' : ''} on a machine with network`,
    );
  }
  throw validationError(
    at,
    `${either} on the npm registry, so the Google Fonts family "${family.family}" cannot be installed by name: ship its file with the design ({"family": …, "path": "fonts/….ttf"}) or add it to the account's font library`,
  );
}

/** Installs families one after another (npm runs one download at a time well); stops at the first error. */
export async function installFonts(requests: readonly (FontRequest | string)[], options: InstallOptions = {}): Promise<InstallResult[]> {
  const out: InstallResult[] = [];
  for (const [i, r] of requests.entries()) out.push(await installFont(r, { ...options, at: options.at ?? `$.families[${i}]` }));
  return out;
}

/**
 * What a design (Imprint form: a Polotno document converted first) needs installed before it renders:
 * its pinned families not in the font folder, and the families it names that `fonts` lacks but the
 * catalogue has. Names neither available nor in the catalogue are left for the render to report.
 */
export function fontRequestsFor(design: unknown, fonts: FontSet): FontRequest[] {
  const entries = design !== null && typeof design === 'object' ? (design as { fonts?: unknown }).fonts : undefined;
  if (!Array.isArray(entries)) return [];
  const out: FontRequest[] = [];
  for (const e of entries as unknown[]) {
    if (typeof e === 'string') {
      if (!fonts.has(e) && catalogueFamily(e)) out.push({ family: catalogueFamily(e)!.family });
      continue;
    }
    const pin = e as { family?: unknown; version?: unknown; integrity?: unknown; package?: unknown };
    if (typeof pin?.family !== 'string' || typeof pin.version !== 'string' || typeof pin.integrity !== 'string' || typeof pin.package !== 'string') continue;
    const family = catalogueFamily(pin.family);
    // The pin's package is installed, not another of the family (a pin of another family's package is refused by the render).
    const pkg = family && familyPackages(family).includes(pin.package) ? pin.package : undefined;
    if (!fonts.installed?.find(pin.family, pin.version, pkg))
      out.push({ family: pin.family, version: pin.version, integrity: pin.integrity, ...(pkg === undefined ? {} : { package: pkg }) });
  }
  return out;
}

/**
 * The design with each catalogue family it names by name pinned to the package installed for it
 * ({family, package, version, integrity}), so a later render uses exactly those files. Families of the
 * bundled set, the design's files or the account's library stay names.
 */
export function pinFonts<D>(design: D, fonts: FontSet): D {
  const entries = design !== null && typeof design === 'object' ? (design as { fonts?: unknown }).fonts : undefined;
  if (!Array.isArray(entries)) return design;
  let pinned = false;
  const out = (entries as unknown[]).map((e) => {
    const source = typeof e === 'string' ? fonts.source(e) : undefined;
    if (source?.kind !== 'installed') return e;
    pinned = true;
    const f = source.family;
    return { family: e as string, package: f.package, version: f.version, integrity: f.integrity };
  });
  return pinned ? { ...design, fonts: out } : design;
}

/**
 * The Google Fonts families overrides name (every `font_family` value and substyle font_family of a
 * text, through interface A's objects_overrides and B's overrides[].object alike) that `fonts` lacks: installed before the render
 * is queued, so an override can pick any family of the catalogue.
 */
export function overrideFontRequests(overrides: unknown, fonts: FontSet): FontRequest[] {
  const names = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8 || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'font_family' && typeof x === 'string') names.add(x);
      else if (typeof x === 'string') for (const m of x.matchAll(/font_family="([^"]{1,100})"/g)) names.add(m[1]!);
      else walk(x, depth + 1);
    }
  };
  walk(overrides, 0);
  return [...names].flatMap((n) => {
    const family = fonts.has(n) ? undefined : catalogueFamily(n);
    return family ? [{ family: family.family }] : [];
  });
}
