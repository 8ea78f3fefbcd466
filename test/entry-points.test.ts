// `imprint` is the engine only: a host that imports it to render loads no database driver, queue
// client, object-store SDK or HTTP server; those come with `imprint/service` and `imprint/http`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const HOOK = join(ROOT, 'test', 'support', 'record-imports.mjs');
const SERVICE_STACK = ['fastify', 'pg', 'kysely', 'better-sqlite3', 'ioredis', 'bullmq', '@aws-sdk', 'pino'];
const dir = mkdtempSync(join(tmpdir(), 'imprint-entry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
/** Every module URL that importing `specifier` (through the package's exports) and running `run` loads. */
function urlsLoadedBy(specifier: string, run = ''): string[] {
  const file = join(dir, `${runs++}.txt`);
  const code = `const m = await import(${JSON.stringify(specifier)}); ${run}`;
  execFileSync(process.execPath, ['--import', HOOK, '--input-type=module', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, IMPRINT_RECORD_IMPORTS: file },
  });
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** The packages under node_modules that importing `specifier` (through the package's exports) loads. */
function packagesLoadedBy(specifier: string, run = ''): Set<string> {
  const packages = new Set<string>();
  for (const url of urlsLoadedBy(specifier, run)) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) packages.add(m[1]!);
  }
  return packages;
}

/** Whether any of `names` (a package, or a scope like @aws-sdk) is among the loaded packages. */
const among = (loaded: Set<string>, names: readonly string[]): string[] => names.filter((p) => [...loaded].some((l) => l === p || l.startsWith(`${p}/`)));

/** The packages that only a render of some kind needs: loaded on first use (src/lazy-require.ts). */
const RENDER_PACKAGES = ['@napi-rs/canvas', 'sharp', 'harfbuzzjs', 'fontkit', 'pdfkit', 'execa', 'linebreak'];

describe('entry points', () => {
  it('the package runs its bundle (dist/pkg/, scripts/bundle.mjs), with zod inlined', () => {
    const ours = (urls: string[]) => urls.filter((u) => u.startsWith('file:') && !u.includes('/node_modules/') && u.includes('/dist/'));
    for (const specifier of ['imprint', 'imprint/service', 'imprint/http']) {
      const urls = urlsLoadedBy(specifier);
      expect(ours(urls).length).toBeGreaterThan(0);
      expect(ours(urls).filter((u) => !u.includes('/dist/pkg/'))).toEqual([]);
      expect(urls.filter((u) => u.includes('/node_modules/zod/'))).toEqual([]);
    }
  });

  it('imprint loads none of the service stack, even when it renders', () => {
    // The package resolves itself by name from its own folder (exports), as a host's import would.
    // On the caller's thread (threads: 0), where this process's require cache sees what the render loads.
    const render = `const r = await new m.Engine({ threads: 0 }).render({ design: { width: 20, height: 20, objects: [] }, format: 'png' }); if (r.width !== 20) process.exit(3);`;
    const loaded = packagesLoadedBy('imprint', render);
    expect(loaded.has('sharp')).toBe(true);
    expect(among(loaded, SERVICE_STACK)).toEqual([]);
  });

  it('importing imprint loads no renderer package; a png render loads neither pdfkit nor ffmpeg code', () => {
    const imported = packagesLoadedBy('imprint', `if (typeof m.render !== 'function') process.exit(3);`);
    expect(among(imported, RENDER_PACKAGES)).toEqual([]);
    const design = { width: 40, height: 20, objects: [{ type: 'text', name: 't', x: 0, y: 0, width: 40, height: 20, text: 'Hi' }] };
    const png = packagesLoadedBy(
      'imprint',
      `const r = await new m.Engine({ threads: 0 }).render({ design: ${JSON.stringify(design)}, format: 'png' }); if (r.width !== 40) process.exit(3);`,
    );
    expect(among(png, RENDER_PACKAGES)).toEqual(['@napi-rs/canvas', 'sharp', 'harfbuzzjs', 'linebreak']);
    const pdf = packagesLoadedBy(
      'imprint',
      `const r = await new m.Engine({ threads: 0 }).render({ design: ${JSON.stringify(design)}, format: 'pdf' }); if (r.width !== 40) process.exit(3);`,
    );
    expect(among(pdf, ['pdfkit', 'execa'])).toEqual(['pdfkit']);
  });

  it('a render loads Skia without its scan of the machine’s fonts, and leaves the environment and the host’s canvas as they were', () => {
    // Imprint draws glyphs from font files and never uses the canvas's fonts, so loading them (a scan
    // of every system font, ~140 ms of a cold CLI render) is skipped; the variable that skips it is
    // set only around the require. A host that loads the canvas first keeps its fonts.
    const design = { width: 40, height: 20, objects: [{ type: 'text', name: 't', x: 0, y: 0, width: 40, height: 20, text: 'Hi' }] };
    const render = `await new m.Engine({ threads: 0 }).render({ design: ${JSON.stringify(design)}, format: 'png' });`;
    const families = `JSON.stringify({ env: process.env.DISABLE_SYSTEM_FONTS_LOAD ?? null, families: (await import('@napi-rs/canvas')).GlobalFonts.families.length })`;
    const run = (code: string) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' })) as unknown;
    expect(run(`const m = await import('imprint'); ${render} console.log(${families});`)).toEqual({ env: null, families: 0 });
    // The same canvas loaded by the host first: .ci/run installs system fonts (DejaVu, Liberation), and the host sees them.
    const host = run(`await import('@napi-rs/canvas'); const m = await import('imprint'); ${render} console.log(${families});`) as { families: number };
    expect(host.families).toBeGreaterThan(0);
  });

  it('imprint/service and imprint/http bring the service stack', () => {
    const service = packagesLoadedBy('imprint/service', `if (typeof m.Service !== 'function') process.exit(3);`);
    expect([...service]).toEqual(expect.arrayContaining(['kysely', 'better-sqlite3', 'pino']));
    const http = packagesLoadedBy('imprint/http', `if (typeof m.buildServer !== 'function') process.exit(3);`);
    expect(http.has('fastify')).toBe(true);
  });
});
