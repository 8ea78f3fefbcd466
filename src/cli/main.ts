// The `imprint` command line: `imprint render <design.json> [--overrides f] --format png|jpg|pdf --out f`.
// Exit 0 on success, 2 on bad input (one line on stderr: `validation_error at $.path: …`), 1 otherwise.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileAssetResolver } from '../assets/resolver.js';
import { parseJson } from '../design/parse.js';
import type { VideoProgress } from '../encode/video.js';
import { Engine, type OutputFormat } from '../engine.js';
import { ImprintError, validationError } from '../errors.js';
import { ConfigError } from '../service/config.js';

export interface CliIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

const USAGE = `Usage:
  imprint serve      the render service with its worker (embedded default: ./data); see docs/operations.md
  imprint worker     a worker only, sharing the stores of a running service (scale-out)
  imprint admin ...  accounts, keys, plans, designs: imprint admin --help
  imprint render <design.json> [--overrides <file.json>] [--format png|jpg|pdf|mp4] --out <file>
                 [--quality 1-100] [--compression 0-9] [--fps 30|60] [--size sd|hd] [--time s]
                 [--asset name=file]... [--report]
  imprint render <a.json> <b.json>... [--overrides <a-overrides.json> --overrides <b-overrides.json>...]
                 --format pdf --out <file.pdf>        (one pdf, one page per design)

  --overrides    JSON file {"objects_overrides": {"<object name>": {...}}}; with several designs,
                 once per design in the same order
  --format       png, jpg, pdf or mp4 (default: from the --out extension)
  --fps          mp4: 30 (default) or 60
  --size         mp4: design (default), sd (short side 720) or hd (short side 1080)
  --time         png/jpg/pdf of an animated design: the second to show (default 0)
  --quality      jpg quality (default 90)
  --compression  png zlib level (default 6)
  --asset        register an image for "asset:<name>" references (repeatable)
  --report       print the fit report (font sizes, line counts, shrunk/clipped) as JSON on stdout

Image paths in the design and overrides are relative to the design file's folder.
`;

async function readJson(file: string, root: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw validationError(root, `cannot read ${what} "${file}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path`);
  }
  return parseJson(text, root, `the ${what} "${file}"`);
}

const FORMATS: readonly OutputFormat[] = ['png', 'jpg', 'pdf', 'mp4'];

/** A progress bar on a terminal; plain lines (every 10 %) when stderr is a file or a pipe. */
function progressReporter(io: CliIO, tty: boolean): (p: VideoProgress) => void {
  let lastDecile = -1;
  return (p) => {
    const pct = Math.floor(p.fraction * 100);
    if (tty) {
      const filled = Math.round(p.fraction * 30);
      io.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${String(pct).padStart(3)}%  frame ${p.framesEncoded}/${p.totalFrames}${p.fraction >= 1 ? '\n' : ''}`);
    } else if (Math.floor(pct / 10) > lastDecile) {
      lastDecile = Math.floor(pct / 10);
      io.stderr.write(`progress ${pct}% (frame ${p.framesEncoded}/${p.totalFrames})\n`);
    }
  };
}

/** An overrides file holds interface A's objects_overrides map or interface B's overrides list. */
async function readOverrides(file: string, root: string): Promise<unknown> {
  const doc = await readJson(file, root, 'overrides file');
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw validationError(root, 'expected the overrides file to be a JSON object {"objects_overrides": {...}} or {"overrides": [...]}');
  }
  const keys = Object.keys(doc);
  const extra = keys.find((k) => k !== 'objects_overrides' && k !== 'overrides') ?? (keys.length > 1 ? keys[1] : undefined);
  if (extra !== undefined) throw validationError(`${root}.${extra}`, `unknown field "${extra}" in the overrides file: it holds either "objects_overrides" (interface A) or "overrides" (interface B)`);
  const d = doc as { objects_overrides?: unknown; overrides?: unknown };
  return d.objects_overrides ?? d.overrides ?? {};
}

function intOption(value: string | undefined, path: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || n < min || n > max) throw validationError(path, `expected an integer from ${min} to ${max} but received ${JSON.stringify(value)}`);
  return n;
}

async function renderCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      overrides: { type: 'string', multiple: true },
      format: { type: 'string' },
      out: { type: 'string', short: 'o' },
      quality: { type: 'string' },
      compression: { type: 'string' },
      asset: { type: 'string', multiple: true },
      report: { type: 'boolean' },
      fps: { type: 'string' },
      size: { type: 'string' },
      time: { type: 'string' },
    },
  });
  if (positionals.length === 0) throw validationError('$.design', 'give a design file: imprint render <design.json> --out <file>');
  if (values.out === undefined) throw validationError('$.out', 'give the output file with --out <file>');
  const fromExt = extname(values.out).slice(1).toLowerCase().replace('jpeg', 'jpg');
  const format = values.format ?? (FORMATS.includes(fromExt as OutputFormat) ? fromExt : undefined);
  if (!FORMATS.includes(format as OutputFormat)) {
    throw validationError('$.format', `expected --format png, jpg or pdf but received ${JSON.stringify(format ?? values.format ?? null)}`);
  }
  if (positionals.length > 1 && format !== 'pdf') {
    throw validationError('$.pages', `several design files make the pages of one pdf: use --format pdf, or render each design on its own as ${format}`);
  }
  const overrideFiles = values.overrides ?? [];
  if (overrideFiles.length > 0 && overrideFiles.length !== positionals.length) {
    throw validationError('$.overrides', `give --overrides once per design file, in the same order (${positionals.length} designs, ${overrideFiles.length} overrides files)`);
  }

  const assets: Record<string, string> = {};
  for (const a of values.asset ?? []) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw validationError('$.asset', `expected --asset name=file but received ${JSON.stringify(a)}`);
    assets[a.slice(0, eq)] = resolve(a.slice(eq + 1));
  }

  const fps = values.fps === undefined ? undefined : values.fps === '30' || values.fps === '60' ? (Number(values.fps) as 30 | 60) : null;
  if (fps === null) throw validationError('$.fps', `expected --fps 30 or 60 but received ${JSON.stringify(values.fps)}`);
  if (values.size !== undefined && values.size !== 'sd' && values.size !== 'hd' && values.size !== 'design') {
    throw validationError('$.size', `expected --size sd, hd or design but received ${JSON.stringify(values.size)}`);
  }
  const time = values.time === undefined ? undefined : Number(values.time);
  if (time !== undefined && !(Number.isFinite(time) && time >= 0)) throw validationError('$.time', `expected --time in seconds (0 or more) but received ${JSON.stringify(values.time)}`);
  const quality = intOption(values.quality, '$.jpg.quality', 1, 100);
  const compressionLevel = intOption(values.compression, '$.png.compressionLevel', 0, 9);
  const pages = await Promise.all(
    positionals.map(async (file, i) => {
      const designFile = resolve(file);
      const many = positionals.length > 1;
      return {
        design: await readJson(designFile, many ? `$.pages[${i}].design` : '$', 'design file'),
        overrides: overrideFiles[i] === undefined ? {} : await readOverrides(resolve(overrideFiles[i]!), many ? `$.pages[${i}].overrides` : '$'),
        assets: fileAssetResolver({ baseDir: dirname(designFile), assets }),
      };
    }),
  );
  const options = {
    format: format as OutputFormat,
    ...(quality === undefined ? {} : { jpg: { quality } }),
    ...(compressionLevel === undefined ? {} : { png: { compressionLevel } }),
    ...(fps === undefined ? {} : { fps }),
    ...(values.size === undefined ? {} : { size: values.size as 'sd' | 'hd' | 'design' }),
    ...(time === undefined ? {} : { time }),
    ...(format === 'mp4' ? { onProgress: progressReporter(io, io.stderr.isTTY === true) } : {}),
  };
  const result = await new Engine().render(pages.length > 1 ? { ...options, pages } : { ...options, ...pages[0]! });
  await writeFile(values.out, result.bytes);
  if (values.report) io.stdout.write(`${JSON.stringify(result.report, null, 2)}\n`);
  return 0;
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'render') return await renderCommand(rest, io);
    // The service commands load the stores' drivers; `render` does not need them.
    if (command === 'serve' || command === 'worker') return await (await import('./serve.js')).serveCommand(io, command);
    if (command === 'admin') return await (await import('./admin.js')).adminCommand(rest, io);
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    }
    io.stderr.write(`usage_error: unknown command "${command}"\n${USAGE}`);
    return 2;
  } catch (e) {
    if (e instanceof ImprintError) {
      io.stderr.write(`${e.toString()}\n`);
      // Client errors (the input, an unknown id, a duplicate) exit 2; failures and cancellation 1.
      return e.status < 499 ? 2 : 1;
    }
    if (e instanceof ConfigError) {
      io.stderr.write(`config_error: ${e.message}\n`);
      return 2;
    }
    if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`usage_error: ${(e as Error).message}\n`);
      return 2;
    }
    io.stderr.write(`${command === 'render' ? 'render_failed at $' : 'error'}: ${(e as Error).message}\n`);
    return 1;
  }
}
