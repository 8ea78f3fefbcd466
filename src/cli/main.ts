// The `imprint` command line: `imprint render <design.json> [--overrides f] --format png|jpg --out f`.
// Exit 0 on success, 2 on bad input (one line on stderr: `validation_error at $.path: …`), 1 otherwise.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileAssetResolver } from '../assets/resolver.js';
import { parseJson } from '../design/parse.js';
import { Engine } from '../engine.js';
import { ImprintError, validationError } from '../errors.js';

export interface CliIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

const USAGE = `Usage:
  imprint render <design.json> [--overrides <file.json>] [--format png|jpg] --out <file>
                 [--quality 1-100] [--compression 0-9] [--asset name=file]... [--report]

  --overrides    JSON file {"objects_overrides": {"<object name>": {...}}}
  --format       png or jpg (default: from the --out extension)
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
      overrides: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string', short: 'o' },
      quality: { type: 'string' },
      compression: { type: 'string' },
      asset: { type: 'string', multiple: true },
      report: { type: 'boolean' },
    },
  });
  if (positionals.length !== 1) throw validationError('$.design', 'give exactly one design file: imprint render <design.json> --out <file>');
  if (values.out === undefined) throw validationError('$.out', 'give the output file with --out <file>');
  const designFile = resolve(positionals[0]!);
  const fromExt = extname(values.out).slice(1).toLowerCase().replace('jpeg', 'jpg');
  const format = values.format ?? (fromExt === 'png' || fromExt === 'jpg' ? fromExt : undefined);
  if (format !== 'png' && format !== 'jpg') {
    throw validationError('$.format', `expected --format png or jpg but received ${JSON.stringify(format ?? values.format ?? null)}`);
  }

  const design = await readJson(designFile, '$', 'design file');
  let overrides: unknown = {};
  if (values.overrides !== undefined) {
    const file = await readJson(resolve(values.overrides), '$', 'overrides file');
    if (file === null || typeof file !== 'object' || Array.isArray(file)) {
      throw validationError('$', 'expected the overrides file to be a JSON object {"objects_overrides": {...}}');
    }
    const extra = Object.keys(file).find((k) => k !== 'objects_overrides');
    if (extra !== undefined) throw validationError(`$.${extra}`, `unknown field "${extra}" in the overrides file: it holds only "objects_overrides"`);
    overrides = (file as { objects_overrides?: unknown }).objects_overrides ?? {};
  }

  const assets: Record<string, string> = {};
  for (const a of values.asset ?? []) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw validationError('$.asset', `expected --asset name=file but received ${JSON.stringify(a)}`);
    assets[a.slice(0, eq)] = resolve(a.slice(eq + 1));
  }

  const quality = intOption(values.quality, '$.jpg.quality', 1, 100);
  const compressionLevel = intOption(values.compression, '$.png.compressionLevel', 0, 9);
  const result = await new Engine().render({
    design,
    overrides,
    format,
    ...(quality === undefined ? {} : { jpg: { quality } }),
    ...(compressionLevel === undefined ? {} : { png: { compressionLevel } }),
    assets: fileAssetResolver({ baseDir: dirname(designFile), assets }),
  });
  await writeFile(values.out, result.bytes);
  if (values.report) io.stdout.write(`${JSON.stringify(result.report, null, 2)}\n`);
  return 0;
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'render') return await renderCommand(rest, io);
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    }
    io.stderr.write(`usage_error: unknown command "${command}"\n${USAGE}`);
    return 2;
  } catch (e) {
    if (e instanceof ImprintError) {
      io.stderr.write(`${e.toString()}\n`);
      return e.code === 'validation_error' ? 2 : 1;
    }
    if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`usage_error: ${(e as Error).message}\n`);
      return 2;
    }
    io.stderr.write(`render_failed at $: ${(e as Error).message}\n`);
    return 1;
  }
}
