// Google Fonts families installed by name (src/text/install.ts) and used by every way in: the library's
// installFont from the npm registry and from a folder of tarballs, races between installers, corrupt
// and hostile packages and names, renders with installed, pinned and missing families, the CLI's
// `fonts` and `render` commands, and the service's import, listing and render. One download of
// Pacifico (one face, ~300 KB) serves the whole file: the tarball folder installs without network.
// The CLI cases run bin/imprint.js: `npm run build` first.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import sharp from 'sharp';
import type * as zod from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Design } from '../src/design/schema.js';
import { Engine, type DesignInput } from '../src/engine.js';
import { buildServer, listen } from '../src/http/server.js';
import { renderWarnings } from '../src/render/warnings.js';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { INSTALLED_RECORD, InstalledFonts } from '../src/text/installed.js';
import { installFont, type InstallResult } from '../src/text/install.js';
import { TaskWorker } from '../src/worker/worker.js';
import { packTarball, refusal } from './support/font-packages.js';
import { waitFor } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const TMP = mkdtempSync(join(tmpdir(), 'imprint-font-install-'));
// This process's own font folder (the service below installs into it), set before anything reads it:
// the run's shared folder (vitest.config.ts) must stay empty for the other test files.
const PROCESS_FONTS = join(TMP, 'process-fonts');
const RUN_FONTS = process.env.IMPRINT_FONTS_DIR;
process.env.IMPRINT_FONTS_DIR = PROCESS_FONTS;

const PKG = '@expo-google-fonts/pacifico';
/** The folder of `npm pack` tarballs (filled once in beforeAll): installs from it need no network. */
const TARBALLS = join(TMP, 'tarballs');
/** A font folder with Pacifico installed from TARBALLS, for the renders. */
const INSTALLED = join(TMP, 'installed');
let tarball: { file: string; version: string; integrity: string };
let pacifico: InstallResult;

const exec = promisify(execFile);
type DesignFonts = NonNullable<zod.input<typeof Design>['fonts']>;
let counter = 0;
/** A fresh folder path inside TMP (not created). */
const fresh = (name: string) => join(TMP, `${name}-${++counter}`);
const sha512 = (b: Buffer) => `sha512-${createHash('sha512').update(b).digest('base64')}`;

beforeAll(() => {
  mkdirSync(TARBALLS);
  tarball = packTarball(PKG, TARBALLS);
}, 120_000);

afterAll(() => {
  rmSync(TMP, { recursive: true, force: true });
});

describe('installing a family', () => {
  it('installs Pacifico from the npm registry: the package, its integrity, its faces and licence in a folder of its own', async () => {
    const dir = fresh('registry');
    const r = await installFont('Pacifico', { dir });
    expect(r).toMatchObject({ family: 'Pacifico', package: PKG, source: 'registry', licence: 'LICENSE_FONT' });
    expect(r.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(r.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    // The registry's own record of that version's tarball (npm pack printed it in beforeAll).
    if (r.version === tarball.version) expect(r.integrity).toBe(tarball.integrity);
    expect(r.faces).toEqual([{ weight: 400, style: 'normal', file: '400Regular/Pacifico_400Regular.ttf' }]);
    expect(r.dir).toBe(join(dir, `pacifico@${r.version}`));
    // One folder per package version; nothing else (no staging folder, no tarball) is left.
    expect(readdirSync(dir)).toEqual([`pacifico@${r.version}`]);
    expect(readdirSync(r.dir).sort()).toEqual(['400Regular', 'LICENSE_FONT', INSTALLED_RECORD]);
    expect(readFileSync(join(r.dir, '400Regular/Pacifico_400Regular.ttf')).subarray(0, 4).toString('hex')).toBe('00010000');
    // The font's licence (SIL OFL), not the MIT licence of the package's JavaScript.
    expect(readFileSync(join(r.dir, 'LICENSE_FONT'), 'utf8')).toContain('SIL Open Font License');
    const record = JSON.parse(readFileSync(join(r.dir, INSTALLED_RECORD), 'utf8')) as Record<string, unknown>;
    expect(record).toEqual({ family: 'Pacifico', package: PKG, version: r.version, integrity: r.integrity, licence: 'LICENSE_FONT', faces: r.faces });

    // Again: already there, so nothing is downloaded (an npm that does not exist is never called).
    const again = await installFont('Pacifico', { dir, npm: '/nonexistent/npm' });
    expect(again).toMatchObject({ source: 'present', version: r.version, integrity: r.integrity, dir: r.dir });
    expect(readdirSync(dir)).toEqual([`pacifico@${r.version}`]);
  }, 120_000);

  it('installs from a folder of tarballs without npm or the network, at the version of the tarball', async () => {
    pacifico = await installFont('Pacifico', { dir: INSTALLED, from: TARBALLS, npm: '/nonexistent/npm' });
    expect(pacifico).toMatchObject({ family: 'Pacifico', package: PKG, version: tarball.version, source: 'folder' });
    expect(pacifico.integrity).toBe(sha512(readFileSync(tarball.file)));
    expect(readdirSync(INSTALLED)).toEqual([`pacifico@${tarball.version}`]);
    expect(new InstalledFonts(INSTALLED).find('pacifico')).toMatchObject({ family: 'Pacifico', version: tarball.version, integrity: pacifico.integrity });
  });

  it('names the tarball it looked for when the folder lacks it', async () => {
    const dir = fresh('no-tarball');
    const lobster = await refusal(() => installFont('Lobster', { dir, from: TARBALLS, npm: '/nonexistent/npm' }));
    expect(lobster).toMatchObject({ code: 'validation_error', path: '$.family' });
    expect(lobster.message).toContain('expo-google-fonts-lobster-<version>.tgz');
    expect(lobster.message).toContain('npm pack @expo-google-fonts/lobster');
    const version = await refusal(() => installFont('Pacifico@9.9.9', { dir, from: TARBALLS }));
    expect(version.message).toContain('expo-google-fonts-pacifico-9.9.9.tgz');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('ends with one good copy when installs of the same family race in one process', async () => {
    const dir = fresh('race-in-process');
    const results = await Promise.all([1, 2, 3, 4].map(() => installFont('Pacifico', { dir, from: TARBALLS })));
    expect(results.filter((r) => r.source === 'folder')).toHaveLength(1);
    expect(results.every((r) => r.dir === join(dir, `pacifico@${tarball.version}`) && r.integrity === pacifico.integrity)).toBe(true);
    expect(readdirSync(dir)).toEqual([`pacifico@${tarball.version}`]);
    expect(new InstalledFonts(dir).find('Pacifico')?.faces).toHaveLength(1);
  });

  it('ends with one good copy when two processes install the same family at once', async () => {
    const dir = fresh('race-processes');
    const run = () =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, [builtBin(), 'fonts', 'install', 'Pacifico', '--from', TARBALLS], {
          cwd: ROOT,
          env: { ...process.env, IMPRINT_FONTS_DIR: dir },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => done({ code, stdout, stderr }));
      });
    const both = await Promise.all([run(), run()]);
    for (const r of both) expect(r.code, r.stderr).toBe(0);
    const lines = both.map((r) => JSON.parse(r.stdout.trim()) as { family: string; version: string; source: string });
    expect(lines.map((l) => l.source).sort()).toEqual(['folder', 'present']);
    expect(lines.every((l) => l.family === 'Pacifico' && l.version === tarball.version)).toBe(true);
    expect(readdirSync(dir)).toEqual([`pacifico@${tarball.version}`]);
    expect(new InstalledFonts(dir).find('Pacifico')).toMatchObject({ integrity: pacifico.integrity, faces: pacifico.faces });
  }, 60_000);
});

/**
 * Runs `fn` with npm pointed at `registry` (no retries), as a registry outage looks to npm: the real npm
 * and the real network failure, not a stand-in.
 */
async function withRegistry<T>(registry: string, fn: () => Promise<T>): Promise<T> {
  const saved = { registry: process.env.npm_config_registry, retries: process.env.npm_config_fetch_retries };
  process.env.npm_config_registry = registry;
  process.env.npm_config_fetch_retries = '0';
  try {
    return await fn();
  } finally {
    for (const [k, v] of [
      ['npm_config_registry', saved.registry],
      ['npm_config_fetch_retries', saved.retries],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A registry address nothing listens on (connections are refused at once). */
async function deadRegistry(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}/`;
}

describe('a registry that cannot be reached', () => {
  it("is font_install_failed, a code to retry (not the input's fault), naming the offline way, and installs nothing", async () => {
    const dir = fresh('registry-down');
    const e = await withRegistry(await deadRegistry(), () => refusal(() => installFont('Lobster', { dir, at: '$.fonts[0]' })));
    expect(e).toMatchObject({ code: 'font_install_failed', path: '$.fonts[0]', status: 503 });
    expect(e.message).toContain('could not download @expo-google-fonts/lobster@latest from the npm registry');
    expect(e.message).toContain('Retry later');
    expect(e.message).toContain('imprint fonts install --from <folder>');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  }, 60_000);

  it('stops a download its caller gives up on (render_cancelled, npm killed, nothing installed), and one still waiting its turn', async () => {
    const dir = fresh('registry-hangs');
    // A registry that takes the request and never answers, as a stalled mirror does.
    const server = createServer(() => undefined);
    const asked = new Promise<void>((r) => server.once('request', () => r()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const running = new AbortController();
      const waiting = new AbortController();
      const [first, second] = await withRegistry(`http://127.0.0.1:${port}/`, async () => {
        const a = refusal(() => installFont('Lobster', { dir, signal: running.signal, timeoutMs: 60_000 }));
        // Queued behind the first (one install at a time per process), and abandoned before its turn.
        const b = refusal(() => installFont('Bangers', { dir, signal: waiting.signal, timeoutMs: 60_000 }));
        waiting.abort();
        await asked;
        running.abort();
        return Promise.all([a, b]);
      });
      for (const e of [first, second]) {
        expect(e).toMatchObject({ code: 'render_cancelled', path: '$.family' });
        expect(e.message).toContain('the font install was stopped before it finished');
      }
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 60_000);
});

describe('refusing a corrupt package', () => {
  /** A tarball folder holding one file named as Pacifico's tarball. */
  function folderWith(bytes: Buffer): string {
    const from = fresh('bad-tarballs');
    mkdirSync(from);
    writeFileSync(join(from, `expo-google-fonts-pacifico-${tarball.version}.tgz`), bytes);
    return from;
  }
  /** A real .tgz made by tar(1): a package folder with this package.json and font file. */
  function packed(pkg: { name: string; version: string }, ttf: Buffer): Buffer {
    const src = fresh('package-src');
    mkdirSync(join(src, 'package', '400Regular'), { recursive: true });
    writeFileSync(join(src, 'package', 'package.json'), JSON.stringify(pkg));
    writeFileSync(join(src, 'package', 'LICENSE_FONT'), 'SIL OPEN FONT LICENSE Version 1.1\n');
    writeFileSync(join(src, 'package', '400Regular', 'Pacifico_400Regular.ttf'), ttf);
    const out = join(src, 'package.tgz');
    execFileSync('tar', ['czf', out, '-C', src, 'package']);
    return readFileSync(out);
  }
  const realTtf = () => readFileSync(join(pacifico.dir, pacifico.faces[0]!.file));

  it.each([
    [
      'garbage bytes',
      () => Buffer.from('this is not a gzip file at all'.repeat(20)),
      /^the package @expo-google-fonts\/pacifico@[\d.]+ is corrupt \(the package is not a gzip archive/,
    ],
    [
      'a tarball whose font file is garbage',
      () => packed({ name: PKG, version: tarball.version }, Buffer.from('not a font '.repeat(100))),
      /has a font file Imprint cannot read \(400Regular\/Pacifico_400Regular\.ttf: .*\): it is corrupt/,
    ],
    [
      'the tarball of another package',
      () => packed({ name: '@expo-google-fonts/lobster', version: tarball.version }, realTtf()),
      /^the tarball is not @expo-google-fonts\/pacifico@[\d.]+ \(its package.json names "@expo-google-fonts\/lobster"/,
    ],
  ])('refuses %s and leaves the font folder as it was', async (_what, bytes, message) => {
    const dir = fresh('corrupt');
    mkdirSync(dir);
    const e = await refusal(() => installFont('Pacifico', { dir, from: folderWith(bytes()) }));
    expect(e).toMatchObject({ code: 'validation_error', path: '$.family' });
    expect(e.message).toMatch(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a package whose integrity is not the one asked for (EINTEGRITY), installing nothing', async () => {
    const dir = fresh('integrity');
    const wrong = `sha512-${'A'.repeat(86)}==`;
    const e = await refusal(() => installFont({ family: 'Pacifico', integrity: wrong }, { dir, from: TARBALLS }));
    expect(e).toMatchObject({ code: 'validation_error', path: '$.family' });
    expect(e.message).toMatch(/does not match the integrity the design recorded \(EINTEGRITY/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('family names', () => {
  it.each([
    ['a parent folder', '../etc'],
    ['a path inside a name', 'Pacifico/../../x'],
    ['a NUL character', 'Pacifico\0'],
    ['a 10 KB name', 'P'.repeat(10 * 1024)],
  ])('refuses %s at the path given, in a short message, writing nothing', async (_what, family) => {
    const parent = fresh('names');
    mkdirSync(parent);
    const e = await refusal(() => installFont({ family }, { dir: join(parent, 'fonts'), from: TARBALLS, at: '$.families[0]' }));
    expect(e).toMatchObject({ code: 'validation_error', path: '$.families[0]' });
    expect(e.message).toMatch(/^expected a Google Fonts family name/);
    expect(e.message.length).toBeLessThan(400);
    if (family.length > 1000) expect(e.message).toContain('(10240 characters)');
    expect(readdirSync(parent)).toEqual([]);
    expect(existsSync(join(TMP, 'etc')) || existsSync(join(TMP, 'x'))).toBe(false);
  });

  it('answers an unknown family with the families it may have meant', async () => {
    const e = await refusal(() => installFont('Robotto', { dir: fresh('unknown'), from: TARBALLS }));
    expect(e.code).toBe('validation_error');
    expect(e.message).toMatch(/^no family "Robotto" in the font catalogue .*did you mean .*"Roboto"/);
  });
});

describe('rendering installed families', () => {
  let engine: Engine;
  let empty: Engine;
  beforeAll(() => {
    engine = new Engine({ fontsDir: INSTALLED, threads: 0 });
    empty = new Engine({ fontsDir: fresh('empty-fonts'), threads: 0 });
  });
  afterAll(async () => {
    await engine.close();
    await empty.close();
  });

  const design = (fonts: DesignFonts, family: string, weight = 400): DesignInput => ({
    width: 480,
    height: 120,
    background: { type: 'color', color: '#ffffff' },
    fonts,
    objects: [
      { type: 'text', name: 'title', x: 10, y: 10, width: 460, height: 100, text: 'Hamburgefonstiv', font_family: family, font_size: 56, font_weight: weight },
    ],
  });
  const png = async (e: Engine, d: DesignInput, missingFonts?: 'error' | 'fallback') =>
    (await e.render({ design: d, format: 'png', ...(missingFonts ? { missingFonts } : {}) })).bytes;
  /** The share of pixels that differ between two pngs of the same size. */
  async function differing(a: Buffer, b: Buffer): Promise<number> {
    const [x, y] = await Promise.all([a, b].map((p) => sharp(p).raw().toBuffer({ resolveWithObject: true })));
    let n = 0;
    for (let i = 0; i < x!.data.length; i += x!.info.channels)
      if (x!.data[i] !== y!.data[i] || x!.data[i + 1] !== y!.data[i + 1] || x!.data[i + 2] !== y!.data[i + 2]) n++;
    return n / (x!.info.width * x!.info.height);
  }
  const pin = () => ({ family: 'Pacifico', package: pacifico.package, version: pacifico.version, integrity: pacifico.integrity });

  it('draws the installed family: its own glyphs, the same as the design pinned to that package', async () => {
    const byName = await png(engine, design(['Pacifico'], 'Pacifico'));
    const inter = await png(engine, design(['Inter'], 'Inter'));
    expect(await differing(byName, inter)).toBeGreaterThan(0.05);
    expect((await png(engine, design([pin()], 'Pacifico'))).equals(byName)).toBe(true);
  });

  it('takes a family spelt in other case as the catalogue spells it, with the same faces, named or pinned', async () => {
    const byName = await png(engine, design(['Pacifico'], 'Pacifico'));
    expect((await png(engine, design(['pacifico'], 'pacifico'))).equals(byName)).toBe(true);
    expect((await png(engine, design([{ ...pin(), family: 'PACIFICO' }], 'PACIFICO'))).equals(byName)).toBe(true);
    const { report } = await engine.render({ design: design(['pacifico'], 'pacifico'), format: 'png' });
    expect(report[0]).not.toHaveProperty('font_substitutions');
  });

  it("refuses a template that uses an installed family it does not list, and a pin whose package is another family's", async () => {
    await expect(png(engine, design(['Inter'], 'Pacifico'))).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects[0].font_family',
      message: expect.stringMatching(/is not listed in \$\.fonts/) as unknown,
    });
    await expect(png(engine, design([{ ...pin(), package: '@expo-google-fonts/roboto' }], 'Pacifico'))).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.fonts[0]',
      message: expect.stringMatching(/is not the package of font family "Pacifico"/) as unknown,
    });
  });

  it('uses the nearest face, synthetic bold, for a weight the family lacks, and says so', async () => {
    const r = await engine.render({ design: design(['Pacifico'], 'Pacifico', 700), format: 'png' });
    const [entry] = r.report;
    expect(entry?.font_substitutions).toEqual([
      { family: 'Pacifico', weight: 700, style: 'normal', used_family: 'Pacifico', used_weight: 400, used_style: 'normal' },
    ]);
    expect(entry?.synthetic_bold).toBe(true);
    const warnings = renderWarnings(r.report);
    expect(warnings.map((w) => w.code)).toContain('font_substituted');
    expect(warnings.find((w) => w.code === 'font_substituted')?.description).toBe(
      'text object "title": Pacifico 700 was asked for but the family has no such face, so the nearest, Pacifico 400, was used',
    );
  });

  it('refuses a pinned version that is not installed, naming the install command, and a package with another integrity', async () => {
    const notThere = await refusal(() => png(engine, design([{ ...pin(), version: '9.9.9' }], 'Pacifico')));
    expect(notThere).toMatchObject({ code: 'validation_error', path: '$.fonts[0]' });
    expect(notThere.message).toContain('install it with npx imprint fonts install "Pacifico@9.9.9"');
    const changed = await refusal(() => png(engine, design([{ ...pin(), integrity: `sha512-${'B'.repeat(86)}==` }], 'Pacifico')));
    expect(changed).toMatchObject({ code: 'validation_error', path: '$.fonts[0]' });
    expect(changed.message).toMatch(/is not the package this design was made with \(its integrity differs\)/);
  });

  it('refuses a family that is not available, or draws it with Inter and names it with missingFonts "fallback"', async () => {
    const lobster = await refusal(() => png(empty, design(['Lobster'], 'Lobster')));
    expect(lobster).toMatchObject({ code: 'validation_error', path: '$.fonts[0]' });
    expect(lobster.message).toMatch(
      /^font family "Lobster" is a Google Fonts family that is not installed: install it with npx imprint fonts install "Lobster"/,
    );
    const madeUp = await refusal(() => png(empty, design(['Made Up Sans'], 'Made Up Sans')));
    expect(madeUp).toMatchObject({ code: 'validation_error', path: '$.fonts[0]' });
    expect(madeUp.message).toMatch(/^font family "Made Up Sans" is not available/);

    const inter = await png(empty, design(['Inter'], 'Inter'));
    for (const family of ['Lobster', 'Made Up Sans']) {
      const r = await empty.render({ design: design([family], family), format: 'png', missingFonts: 'fallback' });
      expect(r.bytes.equals(inter)).toBe(true);
      expect(r.report[0]?.font_substitutions).toEqual([{ family, weight: 400, style: 'normal', used_family: 'Inter', used_weight: 400, used_style: 'normal' }]);
      const [warning] = renderWarnings(r.report);
      expect(warning).toMatchObject({ code: 'font_substituted', object: 'title' });
      expect(warning?.description).toContain(`font family "${family}" is not available, so it was drawn with Inter`);
    }
    const bad = await refusal(() => empty.render({ design: design(['Inter'], 'Inter'), format: 'png', missingFonts: 'maybe' as 'error' }));
    expect(bad).toMatchObject({ code: 'validation_error', path: '$.missingFonts' });
  });
});

describe('the CLI', () => {
  const cli = (args: string[], fontsDir: string) =>
    exec(process.execPath, [builtBin(), ...args], { cwd: ROOT, env: { ...process.env, IMPRINT_FONTS_DIR: fontsDir } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  /** A Polotno document (what the editor's store.toJSON() saves) with one text in Pacifico. */
  const polotno = {
    width: 400,
    height: 120,
    fonts: [],
    pages: [
      {
        id: 'p1',
        background: 'white',
        children: [
          { type: 'text', id: 't1', x: 10, y: 10, width: 380, height: 100, text: 'Hamburgefonstiv', fontFamily: 'Pacifico', fontSize: 48, fill: 'black' },
        ],
      },
    ],
  };
  let work: string;
  beforeAll(() => {
    work = fresh('cli');
    mkdirSync(work);
    writeFileSync(join(work, 'polotno.json'), JSON.stringify(polotno));
  });

  it('installs a family a render needs on first use, once, and refuses or falls back with --no-install-fonts', async () => {
    const fonts = fresh('cli-fonts');
    const first = await cli(['render', join(work, 'polotno.json'), '--out', join(work, 'a.png')], fonts);
    expect(first.code, first.stderr).toBe(0);
    const installing = first.stderr.split('\n').filter((l) => l.startsWith('installing font family'));
    expect(installing).toEqual([`installing font family "Pacifico" into ${fonts} (first use; --no-install-fonts refuses instead)`]);
    expect(readFileSync(join(work, 'a.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(readdirSync(fonts)).toEqual([expect.stringMatching(/^pacifico@\d+\.\d+\.\d+$/)]);

    const second = await cli(['render', join(work, 'polotno.json'), '--out', join(work, 'b.png')], fonts);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('installing');
    expect(readFileSync(join(work, 'b.png')).equals(readFileSync(join(work, 'a.png')))).toBe(true);

    const none = fresh('cli-no-fonts');
    const refused = await cli(['render', join(work, 'polotno.json'), '--out', join(work, 'c.png'), '--no-install-fonts'], none);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('npx imprint fonts install "Pacifico"');
    expect(existsSync(join(work, 'c.png'))).toBe(false);

    const fallback = await cli(['render', join(work, 'polotno.json'), '--out', join(work, 'd.png'), '--missing-fonts', 'fallback', '--no-install-fonts'], none);
    expect(fallback.code, fallback.stderr).toBe(0);
    expect(fallback.stderr).toMatch(/^warning: .*font family "Pacifico" is not available, so it was drawn with Inter/m);
    expect(existsSync(none)).toBe(false);
  }, 120_000);

  it('lists installed families, searches the catalogue, and wants a family to install', async () => {
    const list = await cli(['fonts', 'list'], INSTALLED);
    expect(list.code).toBe(0);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ family: 'Pacifico', package: PKG, version: tarball.version, faces: 1, dir: pacifico.dir }]);
    const search = await cli(['fonts', 'list', '--search', 'pacif'], INSTALLED);
    expect(search.code).toBe(0);
    expect(
      search.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toContainEqual(expect.objectContaining({ family: 'Pacifico', installed: tarball.version, bundled: false }));
    const nothing = await cli(['fonts', 'install'], fresh('cli-nothing'));
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/^usage_error: name the families to install/);
  }, 60_000);
});

describe('the service', () => {
  let dir: string;
  let service: Service;
  let app: FastifyInstance;
  let worker: TaskWorker;
  let base: string;
  let key: string;
  let account: number;

  beforeAll(async () => {
    dir = fresh('service');
    // Installs come from the tarball folder: no network. The font folder is PROCESS_FONTS.
    const config = configFromEnv({
      IMPRINT_DATA_DIR: dir,
      IMPRINT_PORT: '0',
      IMPRINT_HOST: '127.0.0.1',
      IMPRINT_POLL_INTERVAL_S: '0',
      IMPRINT_FONTS_INSTALL: TARBALLS,
    });
    // Any download at import fails at once: an import that succeeds fetched nothing.
    config.importFetch = { ...config.importFetch, timeoutMs: 1 };
    service = await Service.open(config, { log: pino({ level: 'silent' }), queuePollMs: 50 });
    worker = new TaskWorker(service.ctx, { slots: 1 });
    worker.start();
    app = await buildServer(service);
    base = (await listen(app, service)) + '/public/v2';
    const a = await service.createAccount({ name: 'Fonts' });
    key = a.apiKey;
    account = a.account.id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await worker?.stop(0);
    await service?.close();
  }, 60_000);

  const auth = () => ({ authorization: `Bearer ${key}` });
  const text = (family: string): DesignInput => ({
    width: 480,
    height: 120,
    background: { type: 'color', color: '#ffffff' },
    fonts: [family],
    objects: [{ type: 'text', name: 'title', x: 10, y: 10, width: 460, height: 100, text: 'Hamburgefonstiv', font_family: family, font_size: 56 }],
  });
  const pinned = () => ({ family: 'Pacifico', package: PKG, version: tarball.version, integrity: pacifico.integrity });
  const post = (body: Record<string, unknown>) =>
    fetch(`${base}/render`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ format: 'png', ...body }) });
  /** The png an accepted interface A render request ends with. */
  async function served(r: Response): Promise<Buffer> {
    expect(r.status).toBe(202);
    const { task_id } = (await r.json()) as { task_id: number };
    const done = await waitFor(`task ${task_id}`, async () => {
      const t = (await (await fetch(`${base}/tasks/${task_id}`, { headers: auth() })).json()) as { state: string; result_url?: string };
      return t.state === 'done' || t.state === 'error' ? t : undefined;
    });
    expect(done.state).toBe('done');
    return Buffer.from(await (await fetch(done.result_url!)).arrayBuffer());
  }
  /** The same designs rendered here, with the font folder the service installed into. */
  async function local(...designs: DesignInput[]): Promise<Buffer[]> {
    const engine = new Engine({ fontsDir: INSTALLED, threads: 0 });
    try {
      return await Promise.all(designs.map(async (design) => (await engine.render({ design, format: 'png' })).bytes));
    } finally {
      await engine.close();
    }
  }

  it('installs a family a design names when it is imported, pins it, and renders it', async () => {
    expect(existsSync(PROCESS_FONTS)).toBe(false);
    const d = await service.importDesign(account, text('Pacifico'));
    const stored = (await service.getDesign(account, d.id)).template as { fonts: unknown[] };
    expect(stored.fonts).toEqual([pinned()]);
    expect(readdirSync(PROCESS_FONTS)).toEqual([`pacifico@${tarball.version}`]);

    const png = await served(await post({ design_id: d.id }));
    const [pacificoPng, interPng] = await local(text('Pacifico'), text('Inter'));
    expect(png.equals(pacificoPng!)).toBe(true);
    expect(png.equals(interPng!)).toBe(false);
  }, 60_000);

  it('lets an override pick a Google Fonts family the design does not list (font_family), and refuses one no font has', async () => {
    const d = await service.importDesign(account, text('Inter'));
    const png = await served(await post({ design_id: d.id, objects_overrides: { title: { font_family: 'Pacifico' } } }));
    expect(png.equals((await local(text('Pacifico')))[0]!)).toBe(true);
    const bad = await post({ design_id: d.id, objects_overrides: { title: { font_family: 'Brand Sans' } } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: 'validation_error',
      description: expect.stringMatching(/^\$\.objects_overrides\.title\.font_family: font family "Brand Sans" is not available/),
    });
  }, 60_000);

  it('answers 503 font_install_failed, queueing nothing, when a family an override names cannot be downloaded', async () => {
    const d = await service.importDesign(account, text('Inter'));
    const before = (await service.ctx.meta.listTasks(account)).length;
    const config = service.ctx.config as { fontInstall?: unknown };
    const mode = config.fontInstall;
    config.fontInstall = 'registry';
    try {
      const r = await withRegistry(await deadRegistry(), () => post({ design_id: d.id, objects_overrides: { title: { font_family: 'Lobster' } } }));
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({
        error: 'font_install_failed',
        description: expect.stringContaining('could not download @expo-google-fonts/lobster@latest from the npm registry'),
      });
    } finally {
      config.fontInstall = mode;
    }
    expect((await service.ctx.meta.listTasks(account)).length).toBe(before);
  }, 60_000);

  it('refuses a design naming more new families than one request installs, and a design that is not an object, downloading nothing', async () => {
    const many = ['Lobster', 'Bangers', 'Caveat', 'Kalam', 'Satisfy', 'Sacramento', 'Cookie', 'Courgette', 'Damion'];
    await expect(service.importDesign(account, { ...(text('Inter') as object), fonts: ['Inter', ...many] })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.fonts',
      message: expect.stringMatching(/names 9 Google Fonts families that are not installed; at most 8/) as unknown,
    });
    await expect(service.importDesign(account, null)).rejects.toMatchObject({ code: 'validation_error' });
    expect(readdirSync(PROCESS_FONTS).filter((f) => !f.startsWith('pacifico@'))).toEqual([]);
  });

  it('lists installed families, and catalogue families with a search; refuses a bad limit or search', async () => {
    const get = async (query: string) => {
      const r = await fetch(`${base}/fonts${query}`, { headers: auth() });
      return {
        status: r.status,
        body: (await r.json()) as { families: { family: string; source: string; version?: string }[]; catalogue_families: number; error?: string },
      };
    };
    const all = await get('');
    expect(all.status).toBe(200);
    expect(all.body.families).toContainEqual(expect.objectContaining({ family: 'Pacifico', source: 'installed', version: tarball.version, weights: [400] }));
    expect(all.body.families).toContainEqual(expect.objectContaining({ family: 'Inter', source: 'bundled' }));
    expect(all.body.catalogue_families).toBeGreaterThan(1800);
    const lob = await get('?search=lob');
    expect(lob.body.families).toContainEqual(expect.objectContaining({ family: 'Lobster', source: 'catalogue' }));
    expect(lob.body.families.every((f) => f.family.toLowerCase().includes('lob'))).toBe(true);
    for (const query of ['?limit=0', `?search=${encodeURIComponent('../x')}`]) {
      const bad = await get(query);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error).toBe('validation_error');
    }
  });

  it('takes a Google Fonts family of a Polotno document from the catalogue, not from its URL', async () => {
    const doc = {
      width: 400,
      height: 120,
      fonts: [{ fontFamily: 'Pacifico', url: 'https://fonts.gstatic.com/s/pacifico/v22/FwZY7-Qmy14u9lezJ-6H6Mk.ttf' }],
      pages: [
        {
          id: 'p1',
          background: 'white',
          children: [
            { type: 'text', id: 't1', x: 10, y: 10, width: 380, height: 100, text: 'Hamburgefonstiv', fontFamily: 'Pacifico', fontSize: 48, fill: 'black' },
          ],
        },
      ],
    };
    const d = await service.importDesign(account, doc);
    const stored = (await service.getDesign(account, d.id)).template as { fonts: unknown[]; sources?: unknown };
    expect(stored.fonts).toEqual([pinned()]);
    expect(stored.sources).toBeUndefined();
    // The same URL for a family outside the catalogue is fetched, and fails here (1 ms to fetch it).
    const own = JSON.parse(JSON.stringify(doc).replaceAll('Pacifico', 'Brand Script')) as typeof doc;
    const fetched = await refusal(() => service.importDesign(account, own));
    expect(fetched).toMatchObject({ code: 'validation_error', path: '$.fonts[0].url' });
  });

  it('refuses a family that is not installed when installing is off, naming the command', async () => {
    const off = await Service.open(
      configFromEnv({ IMPRINT_DATA_DIR: fresh('service-off'), IMPRINT_PORT: '0', IMPRINT_HOST: '127.0.0.1', IMPRINT_FONTS_INSTALL: 'off' }),
      { log: pino({ level: 'silent' }) },
    );
    try {
      const a = await off.createAccount({ name: 'Off' });
      const e = await refusal(() => off.importDesign(a.account.id, text('Lobster')));
      expect(e).toMatchObject({ code: 'validation_error', path: '$.fonts[0]' });
      expect(e.message).toContain('install it with npx imprint fonts install "Lobster"');
      expect(readdirSync(PROCESS_FONTS)).toEqual([`pacifico@${tarball.version}`]);
    } finally {
      await off.close();
    }
  });
});

describe('the run', () => {
  it('leaves the shared font folder of the test run (vitest.config.ts) as empty as it found it', () => {
    expect(RUN_FONTS && existsSync(RUN_FONTS) ? readdirSync(RUN_FONTS) : []).toEqual([]);
  });
});
