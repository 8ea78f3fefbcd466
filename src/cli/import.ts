// `imprint import polotno <file.json> --out <folder>`: a Polotno store JSON → an Imprint design folder
// (design.json and every file it uses, remote files fetched once), checked like a render would check it
// before anything is written.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDesign } from '../design/parse.js';
import { traceError } from '../design/import.js';
import { validationError } from '../errors.js';
import { importFetchFromEnv } from '../service/config.js';
import { designAssetRefs } from '../service/design-assets.js';
import { importInput } from '../service/remote-files.js';
import { fileAssetResolver, AssetNotFoundError } from '../assets/resolver.js';
import { designFontSet } from '../assets/design-fonts.js';
import { bundledFonts } from '../text/fonts.js';
import { catalogueFamily } from '../text/catalogue.js';
import { defaultFontsDir } from '../text/installed.js';
import { fontRequestsFor, installFont, pinFonts } from '../text/install.js';
import type { CliIO } from './io.js';
import { IMPORT_USAGE, UsageError, wantsHelp } from './help.js';
import { readJson } from './request-body.js';

export async function importCommand(args: string[], io: CliIO): Promise<number> {
  const [format, ...rest] = args;
  if (format === undefined || wantsHelp(args)) {
    io.stdout.write(IMPORT_USAGE);
    return format === undefined ? 2 : 0;
  }
  if (format !== 'polotno') throw new UsageError(`unknown import format "${format}": imprint import polotno <file.json> --out <folder>`);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { out: { type: 'string', short: 'o' }, 'no-install-fonts': { type: 'boolean' }, 'text-split-allowed': { type: 'boolean' } },
  });
  const file = positionals[0];
  if (file === undefined) throw validationError('$.file', 'give the Polotno file: imprint import polotno <file.json> --out <folder>');
  if (values.out === undefined) throw validationError('$.out', 'give the design folder to write with --out <folder>');
  const source = resolve(file);
  const out = resolve(values.out);
  const existing = await readdir(out).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? [] : Promise.reject(e)));
  if (existing.length > 0) throw validationError('$.out', `the folder ${values.out} is not empty: give a new or empty folder`);

  const input = await readJson(source, '$', 'Polotno file', { shown: file, fileAt: '$.file' });
  // Remote files are fetched under the service's import settings (IMPRINT_IMPORT_ALLOW_PRIVATE, …).
  // A Google Fonts family is installed from the font catalogue (pinned), not downloaded from its URL.
  const installed = bundledFonts();
  const imported = await importInput(input, {
    format: 'polotno',
    hasFamily: (f) => installed.has(f) || catalogueFamily(f) !== undefined,
    fetch: importFetchFromEnv(),
    ...(values['text-split-allowed'] === true ? { textSplitAllowed: true } : {}),
  });
  const baseDir = dirname(source);
  const local = fileAssetResolver({ baseDir });
  try {
    // The Google Fonts families it names are installed (--no-install-fonts: refused instead) and pinned
    // in design.json to the package versions installed, so the folder renders the same bytes later.
    if (values['no-install-fonts'] !== true) {
      const entries = ((imported.design as { fonts?: unknown }).fonts ?? []) as unknown[];
      for (const request of fontRequestsFor(imported.design, installed)) {
        io.stderr.write(`installing font family "${request.family}" into ${installed.installed?.dir ?? defaultFontsDir()}\n`);
        const i = entries.findIndex((e) => typeof e === 'string' && e.toLowerCase() === request.family.toLowerCase());
        await installFont(request, { ...(installed.installed ? { dir: installed.installed.dir } : {}), at: i >= 0 ? `$.fonts[${i}]` : '$.fonts' });
      }
    }
    imported.design = pinFonts(imported.design, installed);
    // Everything a render would check about the design, before a byte is written.
    const fonts = await designFontSet(
      (imported.design as { fonts?: unknown }).fonts,
      undefined,
      bundledFonts(),
      async (ref) => (ref.kind === 'path' && imported.files.get(ref.path)) || local(ref),
      '$',
    );
    parseDesign(imported.design, fonts);
    // Every file is read before the folder is made: a missing one leaves nothing half-written.
    const files: { path: string; bytes: Uint8Array }[] = [];
    for (const ref of designAssetRefs(imported.design)) {
      const bytes =
        imported.files.get(ref.path) ??
        (await local({ kind: 'path', path: ref.path }).catch((e: unknown) => {
          throw e instanceof AssetNotFoundError ? validationError(ref.at, e.message) : e;
        }));
      files.push({ path: ref.path, bytes });
    }
    await mkdir(out, { recursive: true });
    for (const f of files) {
      await mkdir(dirname(join(out, f.path)), { recursive: true });
      await writeFile(join(out, f.path), f.bytes);
    }
    await writeFile(join(out, 'design.json'), `${JSON.stringify(imported.design, null, 2)}\n`);
    io.stdout.write(`${JSON.stringify({ design: join(values.out, 'design.json'), files: files.length })}\n`);
    return 0;
  } catch (e) {
    throw traceError(imported, e);
  }
}
