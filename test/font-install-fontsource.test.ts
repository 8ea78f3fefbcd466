// Google Fonts families without an @expo-google-fonts package, installed from their @fontsource package
// (src/text/install.ts) and drawn subset by subset (src/text/subset-faces.ts SegmentedFace): Alike from the
// npm registry, Krub (latin, latin-ext, vietnamese, thai; 12 faces) from a folder of tarballs; text
// mixing those subsets against Chromium loading the same WOFF2 files through the package's own CSS;
// pinned designs; corrupt packages. One download of each package (~1.1 MB) serves the whole file.
// The CLI cases run bin/imprint.js: `npm run build` first.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type * as zod from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Design } from '../src/design/schema.js';
import { Engine, type DesignInput } from '../src/engine.js';
import { FONTS_DIR, FontSet } from '../src/text/fonts.js';
import { loadShaper } from '../src/text/harfbuzz.js';
import { INSTALLED_RECORD, InstalledFonts } from '../src/text/installed.js';
import { fontRequestsFor, installFont, pinFonts, type InstallResult } from '../src/text/install.js';
import { shapeParagraphs } from '../src/text/shape.js';
import type { SceneSpan } from '../src/scene/scene.js';
import { inUnicodeRange, parseUnicodeRange, UnicodeRangeError } from '../src/text/unicode-range.js';
import { chromiumJson } from './support/chromium.js';
import { packTarball, refusal } from './support/font-packages.js';
import { run, toolsAvailable } from './support/tools.js';

const ROOT = join(import.meta.dirname, '..');
const TMP = mkdtempSync(join(tmpdir(), 'imprint-fontsource-'));
// This process's own font folder, set before anything reads it: the run's shared one stays empty.
process.env.IMPRINT_FONTS_DIR = join(TMP, 'process-fonts');

const KRUB = '@fontsource/krub';
/** The folder of `npm pack` tarballs (filled once in beforeAll): installs from it need no network. */
const TARBALLS = join(TMP, 'tarballs');
/** Krub's tarball unpacked: its CSS and WOFF2 files, for Chromium. */
const UNPACKED = join(TMP, 'krub-unpacked');
/** A font folder with Krub installed from TARBALLS, for the renders. */
const INSTALLED = join(TMP, 'installed');
let tarball: { file: string; version: string; integrity: string };
let krub: InstallResult;
/** A font folder with Alike (one weight) installed from the registry. */
let alikeDir: string;

const exec = promisify(execFile);
type DesignFonts = NonNullable<zod.input<typeof Design>['fonts']>;
let counter = 0;
const fresh = (name: string) => join(TMP, `${name}-${++counter}`);
/** A plain black span of the text at that weight and style. */
const span = (text: string, weight = 400, style: 'normal' | 'italic' = 'normal'): SceneSpan => ({ text, weight, style, color: [0, 0, 0, 1], underline: false });
const sha512 = (b: Buffer) => `sha512-${createHash('sha512').update(b).digest('base64')}`;
/** Krub's subsets as its unicode.json gives them (in the order its CSS declares them). */
const unicodeJson = () => JSON.parse(readFileSync(join(UNPACKED, 'package/unicode.json'), 'utf8')) as Record<string, string>;

beforeAll(() => {
  mkdirSync(TARBALLS);
  tarball = packTarball(KRUB, TARBALLS);
  mkdirSync(UNPACKED);
  execFileSync('tar', ['xzf', tarball.file, '-C', UNPACKED]);
}, 120_000);

afterAll(() => {
  rmSync(TMP, { recursive: true, force: true });
});

const cli = (args: string[], fontsDir: string) =>
  exec(process.execPath, ['bin/imprint.js', ...args], { cwd: ROOT, env: { ...process.env, IMPRINT_FONTS_DIR: fontsDir } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('unicode-range values', () => {
  it('reads single code points, ranges and wildcards as CSS does, and refuses anything else', () => {
    const r = parseUnicodeRange('U+0E01-0E5B, U+25CC,u+4??,U+0000-00FF,U+00A0-0100');
    expect(r).toEqual([
      [0x0000, 0x0100],
      [0x0400, 0x04ff],
      [0x0e01, 0x0e5b],
      [0x25cc, 0x25cc],
    ]);
    expect([0x41, 0x100, 0x101, 0x4ab, 0xe5b, 0xe5c, 0x25cc].map((cp) => inUnicodeRange(r, cp))).toEqual([true, true, false, true, true, false, true]);
    for (const bad of ['', 'U+', '0041', 'U+0041-', 'U+0042-0041', 'U+110000', 'U+0041;U+0042'])
      expect(() => parseUnicodeRange(bad), bad).toThrow(UnicodeRangeError);
  });
});

describe('installing a family that has no @expo-google-fonts package', () => {
  it('installs Alike from the npm registry: @fontsource/alike, its subsets with their ranges, its licence', async () => {
    const dir = fresh('registry');
    const r = await installFont('Alike', { dir });
    alikeDir = dir;
    expect(r).toMatchObject({ family: 'Alike', package: '@fontsource/alike', source: 'registry', licence: 'LICENSE' });
    expect(r.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    expect(r.dir).toBe(join(dir, `fontsource-alike@${r.version}`));
    expect(readdirSync(dir)).toEqual([`fontsource-alike@${r.version}`]);
    expect(readdirSync(r.dir).sort()).toEqual(['LICENSE', 'files', INSTALLED_RECORD]);
    expect(readFileSync(join(r.dir, 'LICENSE'), 'utf8')).toContain('SIL Open Font License');
    // One face of four subsets, the last the package's CSS declares tried first, as in a browser.
    expect(r.faces).toHaveLength(1);
    const [face] = r.faces;
    expect(face).toMatchObject({ weight: 400, style: 'normal', file: 'files/alike-latin-400-normal.ttf' });
    expect(face!.subsets!.map((s) => [s.name, s.file])).toEqual([
      ['latin', 'files/alike-latin-400-normal.ttf'],
      ['latin-ext', 'files/alike-latin-ext-400-normal.ttf'],
      ['symbols', 'files/alike-symbols-400-normal.ttf'],
      ['math', 'files/alike-math-400-normal.ttf'],
    ]);
    expect(face!.subsets![0]!.unicodeRange).toMatch(/^U\+0000-00FF,/);
    // The WOFF2s were decoded once: sfnt files the renders open as they are.
    for (const s of face!.subsets!) expect(readFileSync(join(r.dir, s.file)).subarray(0, 4).toString('hex')).toBe('00010000');
    const record = JSON.parse(readFileSync(join(r.dir, INSTALLED_RECORD), 'utf8')) as Record<string, unknown>;
    expect(record).toEqual({ family: 'Alike', package: '@fontsource/alike', version: r.version, integrity: r.integrity, licence: 'LICENSE', faces: r.faces });

    const again = await installFont('alike', { dir, npm: '/nonexistent/npm' });
    expect(again).toMatchObject({ source: 'present', package: '@fontsource/alike', dir: r.dir });
  }, 120_000);

  it('installs Krub from a folder of tarballs without npm or the network, and the CLI lists it', async () => {
    krub = await installFont('Krub', { dir: INSTALLED, from: TARBALLS, npm: '/nonexistent/npm' });
    expect(krub).toMatchObject({ family: 'Krub', package: KRUB, version: tarball.version, source: 'folder', licence: 'LICENSE' });
    expect(krub.integrity).toBe(sha512(readFileSync(tarball.file)));
    expect(krub.integrity).toBe(tarball.integrity);
    expect(readdirSync(INSTALLED)).toEqual([`fontsource-krub@${tarball.version}`]);
    // 6 weights × 2 styles, each of Krub's 4 subsets with the ranges of its unicode.json.
    expect(krub.faces.map((f) => `${f.weight}-${f.style}`)).toEqual([200, 300, 400, 500, 600, 700].flatMap((w) => [`${w}-italic`, `${w}-normal`]));
    const ranges = unicodeJson();
    for (const f of krub.faces) {
      expect(f.subsets!.map((s) => s.name)).toEqual(['latin', 'latin-ext', 'vietnamese', 'thai']);
      for (const s of f.subsets!) expect(s.unicodeRange).toBe(ranges[s.name]);
    }

    const list = await cli(['fonts', 'list'], INSTALLED);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout.trim())).toEqual({ family: 'Krub', package: KRUB, version: tarball.version, faces: 12, dir: krub.dir });
    const viaCli = await cli(['fonts', 'install', 'Krub', '--from', TARBALLS], fresh('cli'));
    expect(viaCli.code, viaCli.stderr).toBe(0);
    expect(JSON.parse(viaCli.stdout.trim())).toEqual({ family: 'Krub', package: KRUB, version: tarball.version, faces: 12, source: 'folder' });
  }, 60_000);

  it('takes the @expo-google-fonts tarball first when the folder has both, and the pinned package when a design names it', async () => {
    // An @expo-google-fonts package as its releases lay it out, with one of Krub's fonts.
    const src = fresh('expo-src');
    mkdirSync(join(src, 'package', '400Regular'), { recursive: true });
    writeFileSync(join(src, 'package', 'package.json'), JSON.stringify({ name: '@expo-google-fonts/krub', version: '0.4.0' }));
    writeFileSync(join(src, 'package', 'LICENSE_FONT'), 'SIL OPEN FONT LICENSE Version 1.1\n');
    cpSync(join(krub.dir, 'files/krub-latin-400-normal.ttf'), join(src, 'package', '400Regular', 'Krub_400Regular.ttf'));
    const both = fresh('both-tarballs');
    mkdirSync(both);
    cpSync(tarball.file, join(both, `fontsource-krub-${tarball.version}.tgz`));
    execFileSync('tar', ['czf', join(both, 'expo-google-fonts-krub-0.4.0.tgz'), '-C', src, 'package']);

    const dir = fresh('both');
    const expo = await installFont('Krub', { dir, from: both });
    expect(expo).toMatchObject({ package: '@expo-google-fonts/krub', version: '0.4.0', source: 'folder' });
    expect(expo.faces).toEqual([{ weight: 400, style: 'normal', file: '400Regular/Krub_400Regular.ttf' }]);
    // A design pinned to the Fontsource package gets that one beside it; by name, the expo one is used.
    const pinned = await installFont({ family: 'Krub', package: KRUB, version: tarball.version, integrity: tarball.integrity }, { dir, from: both });
    expect(pinned).toMatchObject({ package: KRUB, source: 'folder' });
    expect(readdirSync(dir).sort()).toEqual([`fontsource-krub@${tarball.version}`, 'krub@0.4.0']);
    expect(new InstalledFonts(dir).find('Krub')?.package).toBe('@expo-google-fonts/krub');
    // A version picks the package that has it.
    expect((await installFont(`Krub@${tarball.version}`, { dir, from: both })).package).toBe(KRUB);

    const other = await refusal(() => installFont({ family: 'Krub', package: '@fontsource/alike' }, { dir, from: both, at: '$.fonts[0]' }));
    expect(other).toMatchObject({ code: 'validation_error', path: '$.fonts[0]' });
    expect(other.message).toMatch(/^"@fontsource\/alike" is not a package of font family "Krub" \(@expo-google-fonts\/krub or @fontsource\/krub is\)/);
  });

  it('names both tarballs it looked for when the folder has neither', async () => {
    const dir = fresh('neither');
    const e = await refusal(() => installFont('Alike', { dir, from: TARBALLS, npm: '/nonexistent/npm' }));
    expect(e).toMatchObject({ code: 'validation_error', path: '$.family' });
    expect(e.message).toContain('looked for expo-google-fonts-alike-<version>.tgz and fontsource-alike-<version>.tgz');
    expect(e.message).toContain('npm pack @fontsource/alike');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('refusing a corrupt Fontsource package', () => {
  /** Krub's real package with `change` applied to its unpacked files, packed again by tar(1) into a folder of its own. */
  function changed(change: (pkg: string) => void): string {
    const src = fresh('krub-src');
    cpSync(UNPACKED, src, { recursive: true });
    change(join(src, 'package'));
    const from = fresh('bad-tarballs');
    mkdirSync(from);
    execFileSync('tar', ['czf', join(from, `fontsource-krub-${tarball.version}.tgz`), '-C', src, 'package']);
    return from;
  }

  it.each([
    [
      'a package without unicode.json',
      (pkg: string) => rmSync(join(pkg, 'unicode.json')),
      /has no unicode\.json \(the Unicode range of each of its subset files\)/,
    ],
    [
      'a unicode.json whose range is not CSS',
      (pkg: string) => writeFileSync(join(pkg, 'unicode.json'), JSON.stringify({ ...unicodeJson(), thai: 'Thai letters' })),
      /has a unicode\.json Imprint cannot read \("Thai letters" is not a unicode-range item/,
    ],
    [
      'a corrupt WOFF2',
      (pkg: string) => writeFileSync(join(pkg, 'files/krub-thai-700-normal.woff2'), Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(400, 7)])),
      /has a font file Imprint cannot read \(files\/krub-thai-700-normal\.woff2: the WOFF2 file is corrupt/,
    ],
    [
      'a WOFF2 that is not a font',
      (pkg: string) => writeFileSync(join(pkg, 'files/krub-latin-400-italic.woff2'), 'not a font '.repeat(50)),
      /krub-latin-400-italic\.woff2: not a font file/,
    ],
  ])('refuses %s and leaves the font folder as it was', async (_what, change, message) => {
    const dir = fresh('corrupt');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'already here');
    const e = await refusal(() => installFont('Krub', { dir, from: changed(change) }));
    expect(e).toMatchObject({ code: 'validation_error', path: '$.family' });
    expect(e.message).toMatch(message);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });
});

describe('drawing a family split per subset', () => {
  let engine: Engine;
  beforeAll(async () => {
    await loadShaper();
    engine = new Engine({ fontsDir: INSTALLED, threads: 0 });
  });
  afterAll(async () => {
    await engine.close();
  });

  /** Latin, Thai, Vietnamese and Latin Extended letters in one text. */
  const MIXED = 'Hello สวัสดีครับ Tiếng Việt Łódź';
  const design = (fonts: DesignFonts, text = MIXED, style: 'normal' | 'italic' = 'normal', family = 'Krub', weight = 400): DesignInput => ({
    width: 900,
    height: 120,
    background: { type: 'color', color: '#ffffff' },
    fonts,
    objects: [
      { type: 'text', name: 'title', x: 10, y: 10, width: 880, height: 100, text, font_family: family, font_size: 48, font_style: style, font_weight: weight },
    ],
  });
  const pin = () => ({ family: 'Krub', package: KRUB, version: krub.version, integrity: krub.integrity });
  const installedSet = () => new FontSet(FONTS_DIR, [], { installed: new InstalledFonts(INSTALLED) });
  /** Each character's subset: the part of the key of the face that drew it after the package ("latin", "thai"…). */
  function subsetsOf(text: string, weight = 400, family = 'Krub'): string[] {
    const [p] = shapeParagraphs([span(text, weight)], family, installedSet(), 0, 'ltr', undefined);
    const out: string[] = [];
    for (const c of p!.clusters) for (const _ of text.slice(c.start, c.end)) out.push(c.face.key.split('/').pop()!);
    return out;
  }

  it('draws each character with the subset whose range holds it: Latin, Thai, Vietnamese and Latin Extended from one family', () => {
    const text = 'Aก ế Ł,';
    expect(subsetsOf(text)).toEqual(['latin', 'thai', 'latin', 'vietnamese', 'latin', 'latin-ext', 'latin']);
    // A combining mark stays with its letter: a + U+0303 is drawn by the subset that has ã (HarfBuzz composes it).
    expect(subsetsOf('a\u0303')).toEqual(['latin', 'latin']);
    // Thai's tone marks and vowels join their consonant's subset; the space between words is Latin's.
    expect(new Set(subsetsOf('สวัสดี ครับ'))).toEqual(new Set(['thai', 'latin']));
    expect(subsetsOf('สวัสดี ครับ')[6]).toBe('latin');
  });

  it.skipIf(!toolsAvailable(['chromium'], 'comparing subset text with Chromium needs it'))(
    "is as wide as Chromium lays it out with the package's own CSS and WOFF2 files (one @font-face per subset, unicode-range)",
    () => {
      const texts = [
        MIXED,
        'ภาษาไทย AVATAR Tày',
        'Người Việt Nam yêu thích tiếng Việt',
        'Zażółć gęślą jaźń',
        'ก่อน 2024 – “quoted” ไทย',
        'Tiếng Việt có dấu: ắ ằ ẳ ẵ ặ',
        'To Ťo Tọ Ţo',
      ];
      const cases = [400, 700].flatMap((weight) => (['normal', 'italic'] as const).flatMap((style) => texts.map((text) => ({ weight, style, text }))));
      const css = ['400', '400-italic', '700', '700-italic'].map((f) => `@import url("file://${join(UNPACKED, 'package', `${f}.css`)}");`).join('\n');
      const spans = cases.map((c) => `<span style="font-family: Krub; font-weight: ${c.weight}; font-style: ${c.style}">${c.text}</span>`).join('<br>');
      const page = join(TMP, 'subsets.html');
      writeFileSync(
        page,
        `<!doctype html><meta charset="utf-8"><style>${css}\nspan { font-size: 1000px; white-space: pre; font-synthesis: none; }</style>${spans}
<pre id="out"></pre><script>document.fonts.ready.then(() => { document.getElementById('out').textContent = JSON.stringify([...document.querySelectorAll('span')].map((s) => s.getBoundingClientRect().width)); });</script>`,
      );
      const widths = chromiumJson<number[]>(page);
      expect(widths).toHaveLength(cases.length);
      const fonts = installedSet();
      const mismatches = cases.flatMap((c, i) => {
        const [p] = shapeParagraphs([span(c.text, c.weight, c.style)], 'Krub', fonts, 0, 'ltr', undefined);
        const ours = p!.clusters.reduce((n, cl) => n + cl.advance, 0) * 1000;
        // Chromium rounds a run to 1/64 px; the Vietnamese and Thai glyphs are 500-700 px wide here, so a
        // face from the wrong subset (or its empty box) is far outside this.
        return Math.abs(ours - widths[i]!) > 0.5
          ? [`${c.weight} ${c.style} ${JSON.stringify(c.text)}: ours ${ours.toFixed(2)}, Chromium ${widths[i]!.toFixed(2)}`]
          : [];
      });
      expect(mismatches).toEqual([]);
    },
    120_000,
  );

  it.skipIf(!toolsAvailable(['pdffonts', 'pdftotext'], 'reading the pdf needs poppler-utils'))(
    'embeds each subset used as a font of its own in a pdf, and the text reads back',
    async () => {
      const r = await engine.render({ design: design(['Krub']), format: 'pdf' });
      const file = join(TMP, 'krub.pdf');
      writeFileSync(file, r.bytes);
      const fonts = run('pdffonts', [file])
        .split('\n')
        .slice(2)
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''));
      expect(fonts).toEqual(['Krub-Regular', 'Krub-Regular', 'Krub-Regular', 'Krub-Regular']);
      expect(run('pdftotext', [file, '-']).trim()).toBe(MIXED);
      expect(r.report[0]).toMatchObject({ missing_characters: [] });
    },
    60_000,
  );

  it('renders a design pinned to the @fontsource package as by name, and refuses a pin of another family’s', async () => {
    const byName = await engine.render({ design: design(['Krub']), format: 'png' });
    expect(byName.report[0]).not.toHaveProperty('font_substitutions');
    const pinned = await engine.render({ design: design([pin()]), format: 'png' });
    expect(pinned.bytes.equals(byName.bytes)).toBe(true);
    // Not Inter: the Thai letters especially come from Krub, not from the bundled Noto Sans Thai.
    const inter = await engine.render({ design: design(['Inter'], MIXED, 'normal', 'Inter'), format: 'png' });
    const [a, b] = await Promise.all([byName.bytes, inter.bytes].map((p) => sharp(p).raw().toBuffer()));
    expect(a!.equals(b!)).toBe(false);

    const alike = await refusal(() => engine.render({ design: design([{ ...pin(), package: '@fontsource/alike' }]), format: 'png' }));
    expect(alike).toMatchObject({ code: 'validation_error', path: '$.fonts[0]' });
    expect(alike.message).toMatch(/^@fontsource\/alike is not the package of font family "Krub" \(@expo-google-fonts\/krub or @fontsource\/krub is\)/);
    const variable = await refusal(() => engine.render({ design: design([{ ...pin(), package: '@fontsource-variable/krub' }]), format: 'png' }));
    expect(variable).toMatchObject({ code: 'validation_error', path: '$.fonts[0].package' });
    expect(variable.message).toMatch(/expected an @expo-google-fonts\/<family> or @fontsource\/<family> package name/);
  });

  it('pins a family drawn from the font folder to its @fontsource package, and asks for that package to reinstall it', () => {
    const fonts = installedSet();
    const pinnedDesign = pinFonts({ fonts: ['Krub'] }, fonts);
    expect(pinnedDesign.fonts).toEqual([pin()]);
    const empty = new FontSet(FONTS_DIR, [], { installed: new InstalledFonts(fresh('nothing')) });
    expect(fontRequestsFor(pinnedDesign, empty)).toEqual([{ family: 'Krub', version: krub.version, integrity: krub.integrity, package: KRUB }]);
    expect(fontRequestsFor(pinnedDesign, fonts)).toEqual([]);
  });

  it('draws italic from the italic subsets, and a weight the family lacks with synthetic bold over each subset', async () => {
    // Krub has italics of its own: every subset drawn with them, no synthetic slant.
    const italic = await engine.render({ design: design(['Krub'], MIXED, 'italic'), format: 'png' });
    expect(italic.report[0]).not.toHaveProperty('synthetic_italic');
    const [p] = shapeParagraphs([span('Aก', 400, 'italic')], 'Krub', installedSet(), 0, 'ltr', undefined);
    expect(p!.clusters.map((c) => c.face.key)).toEqual([`Krub-400-italic#${KRUB}@${krub.version}/latin`, `Krub-400-italic#${KRUB}@${krub.version}/thai`]);
    // Alike has only 400: at 700 each subset face is drawn bolder (painted by its key), and the report says so.
    const alikeEngine = new Engine({ fontsDir: alikeDir, threads: 0 });
    try {
      const bold = await alikeEngine.render({ design: design(['Alike'], 'Łódź Alike', 'normal', 'Alike', 700), format: 'png' });
      expect(bold.report[0]).toMatchObject({ synthetic_bold: true, missing_characters: [] });
      const regular = await alikeEngine.render({ design: design(['Alike'], 'Łódź Alike', 'normal', 'Alike', 400), format: 'png' });
      expect(regular.bytes.equals(bold.bytes)).toBe(false);
    } finally {
      await alikeEngine.close();
    }
    const alikeSet = new FontSet(FONTS_DIR, [], { installed: new InstalledFonts(alikeDir) });
    const [q] = shapeParagraphs([span('AŁ', 700)], 'Alike', alikeSet, 0, 'ltr', undefined);
    expect(q!.clusters.map((c) => c.face.key.replace(/^.*\//, ''))).toEqual(['latin+synthetic-bold', 'latin-ext+synthetic-bold']);
    expect(q!.clusters.every((c) => c.face.synthetic?.bold)).toBe(true);
  });
});
