// `imprint render`: a design (or several, as the pages of one pdf) with its overrides to a file or to
// stdout. Everything the user typed is checked before the first pixel is painted, so a mistake costs
// no render time; progress, warnings and the summary go to stderr, so stdout stays for the report (or
// the bytes, with `--out -`).
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileAssetResolver } from '../assets/resolver.js';
import type { VideoProgress } from '../encode/video.js';
import { Engine, type DesignInput, type RenderOptions, type RenderResult } from '../engine.js';
import { MAX_SCALE } from '../render/options.js';
import { ImprintError, validationError } from '../errors.js';
import type { FitReport } from '../layout/layout.js';
import { renderWarnings } from '../render/warnings.js';
import type { Overrides } from '../resolve/types.js';
import { DEFAULT_FPS, formatList, isVideoSize, OUTPUT_FORMATS, VIDEO_FPS, type OutputFormat } from '../output-formats.js';
import { QUALITY_FORMATS } from '../encode/image.js';
import { convertInput, type InputFormat } from '../design/import.js';
import { catalogueFamily } from '../text/catalogue.js';
import { MAX_FONT_FILE_BYTES, readFontFile } from '../text/font-file.js';
import { bundledFonts } from '../text/fonts.js';
import { defaultFontsDir } from '../text/installed.js';
import { fontRequestsFor, installFont, overrideFontRequests } from '../text/install.js';
import type { CliIO } from './io.js';
import { readJson, readRequestBody, type RequestBody } from './request-body.js';

const FORMAT_LIST = formatList(OUTPUT_FORMATS);
const NO_QUALITY_BECAUSE: Partial<Record<OutputFormat, string>> = {
  png: ' (png is lossless; --compression 0-9 sets its zlib level)',
  pdf: ' (photos are embedded in a pdf as they are)',
};

function isFormat(s: string): s is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(s);
}

/** "jpeg" and upper case are how people write it; the engine's names are lower-case "jpg". */
function normalizeFormat(s: string): string {
  const f = s.toLowerCase();
  return f === 'jpeg' ? 'jpg' : f;
}

function intOption(value: string | undefined, path: string, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || n < min || n > max) {
    throw validationError(path, `expected an integer from ${min} to ${max} for ${flag} but received ${JSON.stringify(value)}`);
  }
  return n;
}

function secondsOption(value: string | undefined, path: string, flag: string, { positive }: { positive: boolean }): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (positive && n === 0) || n > 3600) {
    throw validationError(path, `expected ${flag} in seconds (${positive ? 'more than 0' : '0 or more'}, at most 3600) but received ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * The output format: --format, else the --out extension, else the request body's. A body that names
 * another format than the one used gets a warning, not an error: the flags are what the user typed now.
 */
function chooseFormat(flag: string | undefined, out: string, bodies: readonly RequestBody[], warn: (s: string) => void): OutputFormat {
  const fromBody = bodies.find((b) => b.format !== undefined);
  let format: OutputFormat | undefined;
  let source = '';
  if (flag !== undefined) {
    const f = normalizeFormat(flag);
    if (!isFormat(f)) throw validationError('$.format', `expected --format ${FORMAT_LIST} but received ${JSON.stringify(flag)}`);
    format = f;
    source = `--format ${f}`;
  } else if (out !== '-') {
    const ext = extname(out);
    const f = normalizeFormat(ext.slice(1));
    if (isFormat(f)) {
      format = f;
      source = `the extension "${ext}" of --out`;
    } else if (fromBody === undefined) {
      const why =
        ext === '' ? `cannot tell the format of --out ${out}, it has no extension` : `cannot tell the format from the extension "${ext}" of --out ${out}`;
      throw validationError('$.format', `${why}: give --format ${FORMAT_LIST}`);
    }
  } else if (fromBody === undefined) {
    throw validationError('$.format', `--out - writes the bytes to stdout, which has no extension: give --format ${FORMAT_LIST}`);
  }
  if (format === undefined) return fromBody!.format!;
  if (fromBody?.explicitFormat && fromBody.format !== format) {
    warn(`warning: the overrides file ${fromBody.file} asks for ${fromBody.format}; rendering ${format} as ${source} says`);
  }
  return format;
}

/** Refuses an encoder flag that the chosen format has no use for, instead of ignoring it silently. */
function checkFlagsFitFormat(
  format: OutputFormat,
  v: { quality?: string; compression?: string; lossless?: boolean; 'max-duration'?: string; scale?: string },
): void {
  if (v.quality !== undefined && !(QUALITY_FORMATS as readonly string[]).includes(format)) {
    const why = NO_QUALITY_BECAUSE[format] ?? '';
    throw validationError('$.quality', `--quality applies to jpg, webp and avif, not to ${format}${why}: leave it out or change --format`);
  }
  if (v.compression !== undefined && format !== 'png') {
    const instead = (QUALITY_FORMATS as readonly string[]).includes(format) ? 'use --quality' : 'leave it out';
    throw validationError('$.compression', `--compression applies to png only (its zlib level), not to ${format}: ${instead}`);
  }
  if (v.lossless && format !== 'webp') {
    throw validationError('$.lossless', `--lossless applies to webp only, not to ${format}${format === 'png' ? ' (png is always lossless)' : ''}`);
  }
  if (v['max-duration'] !== undefined && format !== 'mp4') {
    throw validationError('$.maxDuration', `--max-duration applies to mp4 only, not to ${format}: leave it out`);
  }
  if (v.scale !== undefined && (format === 'pdf' || format === 'mp4')) {
    const instead = format === 'mp4' ? 'give the video size with --size sd|hd' : "a pdf is vector and keeps the design's size: leave it out";
    throw validationError('$.scale', `--scale applies to png, jpg, webp and avif only, not to ${format}: ${instead}`);
  }
}

/** --scale: a number more than 0 and at most MAX_SCALE (the engine's bounds, said in the flag's words). */
function scaleOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > MAX_SCALE) {
    throw validationError('$.scale', `expected --scale a number more than 0 and at most ${MAX_SCALE} (0.5: half size) but received ${JSON.stringify(value)}`);
  }
  return n;
}

function encoderOptions(format: OutputFormat, quality: number | undefined, compressionLevel: number | undefined, lossless: boolean): Partial<RenderOptions> {
  if (format === 'png') return compressionLevel === undefined ? {} : { png: { compressionLevel } };
  const q = quality === undefined ? {} : { quality };
  if (format === 'jpg') return quality === undefined ? {} : { jpg: q };
  if (format === 'webp') return quality === undefined && !lossless ? {} : { webp: { ...q, ...(lossless ? { lossless } : {}) } };
  if (format === 'avif') return quality === undefined ? {} : { avif: q };
  return {};
}

export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

export function formatSeconds(s: number): string {
  if (s < 10) return `${s.toFixed(2)} s`;
  if (s < 60) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** "12 s" or "3 min 05 s": an estimate, so whole seconds, rounded up (never "0 s" while work remains). */
function formatEta(s: number): string {
  const whole = Math.max(1, Math.ceil(s));
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/**
 * A progress bar on a terminal; plain lines (every 10 %) when stderr is a file or a pipe. The speed is
 * frames encoded per second since the render started (setup included, so the ETA errs on the late side).
 */
export function progressReporter(io: CliIO, tty: boolean, startedAt: number, now: () => number = Date.now): (p: VideoProgress) => void {
  let lastDecile = -1;
  return (p) => {
    const pct = Math.floor(p.fraction * 100);
    const elapsed = Math.max(now() - startedAt, 1) / 1000;
    const rate = p.framesEncoded / elapsed;
    const done = p.fraction >= 1;
    const eta = done ? '' : rate > 0 ? `ETA ${formatEta((p.totalFrames - p.framesEncoded) / rate)}` : 'ETA …';
    if (tty) {
      const filled = Math.round(p.fraction * 30);
      const bar = `[${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${String(pct).padStart(3)}%`;
      const parts = [bar, `frame ${p.framesEncoded}/${p.totalFrames}`, `${rate.toFixed(1)} frames/s`, eta];
      // \x1b[K clears what a longer previous line left behind.
      io.stderr.write(`\r${parts.filter(Boolean).join('  ')}\x1b[K${done ? '\n' : ''}`);
    } else if (Math.floor(pct / 10) > lastDecile) {
      lastDecile = Math.floor(pct / 10);
      io.stderr.write(`progress ${pct}% (frame ${p.framesEncoded}/${p.totalFrames}, ${rate.toFixed(1)} frames/s${eta ? `, ${eta}` : ''})\n`);
    }
  };
}

/** One line per text object drawn not as meant (characters no font has, a face substituted): the render succeeded. */
export function renderWarningLines(report: FitReport): string[] {
  return renderWarnings(report).map((w) => `warning: ${w.description}`);
}

/** `a, b and c`. */
const joinAnd = (items: readonly string[]): string => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** How many pages a pdf has and their sizes: one size when they share it, else each page's (the first ten). */
/** A page size in px: a print size at a dpi is fractional, shown to a thousandth of a pixel. */
const size = (p: { width: number; height: number }): string => `${+p.width.toFixed(3)}x${+p.height.toFixed(3)}`;

function pdfPages(pages: readonly { width: number; height: number }[]): string {
  const sizes = pages.map(size);
  if (new Set(sizes).size === 1) return `${sizes[0]}, ${pages.length} pages`;
  const shown = sizes.length > 10 ? [...sizes.slice(0, 10), `${sizes.length - 10} more`] : sizes;
  return `${pages.length} pages, ${joinAnd(shown)}`;
}

/** The summary line: what was written, how big, what it holds and how long it took. */
function summary(target: string, result: RenderResult, fps: number, seconds: number): string {
  const pages = result.pages ?? [];
  let what = pages.length > 1 ? `${result.format} ${pdfPages(pages)}` : `${result.format} ${size(result)}`;
  if (result.format === 'mp4' && result.frames !== undefined) {
    const duration = result.frames / fps;
    what += `, ${Number.isInteger(duration) ? duration : duration.toFixed(2)} s (${result.frames} frames at ${fps} fps)`;
  }
  return `wrote ${target === 'stdout' ? 'to stdout' : target}: ${what}, ${formatBytes(result.bytes.length)}, in ${formatSeconds(seconds)}`;
}

/**
 * Installs the Google Fonts families the designs name that the font folder lacks (first use), with a
 * line each on stderr. A design that does not convert or parse is left to the render to report.
 */
async function installNeededFonts(
  pages: readonly { design: DesignInput; overrides: unknown }[],
  inputFormat: InputFormat | undefined,
  own: ReadonlySet<string>,
  warn: (line: string) => void,
): Promise<void> {
  const fonts = bundledFonts();
  for (const page of pages) {
    let design: unknown;
    try {
      design = convertInput(page.design, { format: inputFormat ?? 'auto', hasFamily: (f) => fonts.has(f) || catalogueFamily(f) !== undefined }).design;
    } catch {
      continue;
    }
    const requests = [...fontRequestsFor(design, fonts), ...overrideFontRequests(page.overrides, fonts)];
    for (const request of requests.filter((r) => !own.has(r.family))) {
      const at = fonts.installed?.dir ?? defaultFontsDir();
      warn(
        `installing font family "${request.family}"${request.version ? `@${request.version}` : ''} into ${at} (first use; --no-install-fonts refuses instead)`,
      );
      await installFont(request, { dir: at });
    }
  }
}

/** A --font file's bytes; the engine reads the family and checks the format (errors at $.fontFiles[i]). */
async function readFontFlag(file: string, i: number): Promise<Uint8Array> {
  const at = `$.fontFiles[${i}]`;
  const s = await stat(file).catch(() => undefined);
  if (!s?.isFile()) throw validationError(at, `--font ${file}: no such file`);
  if (s.size > MAX_FONT_FILE_BYTES) {
    throw validationError(at, `--font ${file}: the font file is ${(s.size / 1048576).toFixed(1)} MB, more than the 20 MB allowed: subset it or give a WOFF2`);
  }
  return readFile(file);
}

/** The folder of --out must exist before rendering: a minute of mp4 should not be lost to a typo. */
async function checkOutFolder(out: string): Promise<void> {
  const folder = dirname(resolve(out));
  const s = await stat(folder).catch(() => null);
  if (!s?.isDirectory()) throw validationError('$.out', `the folder ${JSON.stringify(dirname(out))} of --out ${out} does not exist: create it first`);
}

export async function renderCommand(args: string[], io: CliIO): Promise<number> {
  const startedAt = Date.now();
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      overrides: { type: 'string', multiple: true },
      format: { type: 'string' },
      out: { type: 'string', short: 'o' },
      quality: { type: 'string' },
      compression: { type: 'string' },
      lossless: { type: 'boolean' },
      asset: { type: 'string', multiple: true },
      font: { type: 'string', multiple: true },
      report: { type: 'boolean' },
      fps: { type: 'string' },
      size: { type: 'string' },
      time: { type: 'string' },
      'max-duration': { type: 'string' },
      scale: { type: 'string' },
      'input-format': { type: 'string' },
      'no-install-fonts': { type: 'boolean' },
      'missing-fonts': { type: 'string' },
      'text-split-allowed': { type: 'boolean' },
    },
  });
  if (positionals.length === 0) throw validationError('$.design', 'give a design file: imprint render <design.json> --out <file> (imprint render --help)');
  if (values.out === undefined) throw validationError('$.out', 'give the output file with --out <file>, or --out - for stdout');
  const out = values.out;
  const toStdout = out === '-';
  // With the bytes on stdout, everything else goes to stderr.
  const info = toStdout ? io.stderr : io.stdout;
  const warn = (line: string) => io.stderr.write(`${line}\n`);

  const overrideFiles = values.overrides ?? [];
  if (overrideFiles.length > 0 && overrideFiles.length !== positionals.length) {
    const counts = `${positionals.length} designs, ${overrideFiles.length} overrides files`;
    throw validationError('$.overrides', `give --overrides once per design file, in the same order (${counts})`);
  }
  const many = positionals.length > 1;
  const bodies = await Promise.all(overrideFiles.map((f, i) => readRequestBody(resolve(f), f, many ? `$.pages[${i}].overrides` : '$')));

  const format = chooseFormat(values.format, out, bodies, warn);
  if (many && format !== 'pdf') {
    throw validationError('$.pages', `several design files make the pages of one pdf: use --format pdf, or render each design on its own as ${format}`);
  }
  checkFlagsFitFormat(format, values);
  if (!toStdout) await checkOutFolder(out);

  const assets: Record<string, string> = {};
  for (const a of values.asset ?? []) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw validationError('$.asset', `expected --asset name=file but received ${JSON.stringify(a)}`);
    assets[a.slice(0, eq)] = resolve(a.slice(eq + 1));
  }

  const fontFiles = await Promise.all((values.font ?? []).map((f, i) => readFontFlag(f, i)));

  // The flags win over a request body's interface B parameters, which win over the engine's defaults.
  const fpsText = values.fps ?? (bodies[0]?.fps === undefined ? undefined : String(bodies[0].fps));
  const fps = fpsText === undefined ? undefined : (VIDEO_FPS.find((f) => String(f) === fpsText) ?? null);
  if (fps === null) throw validationError('$.fps', `expected --fps ${formatList(VIDEO_FPS)} but received ${JSON.stringify(values.fps)}`);
  const size = values.size ?? bodies[0]?.size;
  if (size !== undefined && size !== 'design' && !isVideoSize(size)) {
    throw validationError('$.size', `expected --size sd, hd or design but received ${JSON.stringify(values.size)}`);
  }
  const time = secondsOption(values.time, '$.time', '--time', { positive: false });
  const maxDuration = secondsOption(values['max-duration'], '$.maxDuration', '--max-duration', { positive: true });
  const quality = intOption(values.quality, `$.${format}.quality`, '--quality', 1, 100);
  const compressionLevel = intOption(values.compression, '$.png.compressionLevel', '--compression', 0, 9);
  const scale = scaleOption(values.scale);
  const inputFormat = values['input-format'];
  if (inputFormat !== undefined && inputFormat !== 'auto' && inputFormat !== 'imprint' && inputFormat !== 'polotno') {
    throw validationError('$.inputFormat', `expected --input-format auto, imprint or polotno but received ${JSON.stringify(inputFormat)}`);
  }

  const pages = await Promise.all(
    positionals.map(async (file, i) => {
      const designFile = resolve(file);
      return {
        // JSON from files: the engine validates both at run time and answers with the JSON path.
        design: (await readJson(designFile, many ? `$.pages[${i}].design` : '$', 'design file', {
          shown: file,
          fileAt: many ? `$.pages[${i}].design` : '$.design',
        })) as DesignInput,
        overrides: (bodies[i]?.overrides ?? {}) as Overrides,
        assets: fileAssetResolver({ baseDir: dirname(designFile), assets }),
      };
    }),
  );
  const missingFonts = values['missing-fonts'];
  if (missingFonts !== undefined && missingFonts !== 'error' && missingFonts !== 'fallback') {
    throw validationError('$.missingFonts', `expected --missing-fonts error or fallback but received ${JSON.stringify(missingFonts)}`);
  }
  if (values['no-install-fonts'] !== true) {
    // Families of --font files are the design's own: never installed by name over them. A --font file
    // that cannot be read installs nothing: the render reports the file.
    const families = await Promise.all(
      fontFiles.map((bytes) =>
        readFontFile(bytes).then(
          (f) => f.family,
          () => null,
        ),
      ),
    );
    if (!families.includes(null)) await installNeededFonts(pages, inputFormat, new Set(families as string[]), warn);
  }
  const isVideo = format === 'mp4';
  const options: RenderOptions = {
    format,
    ...encoderOptions(format, quality, compressionLevel, values.lossless === true),
    ...(isVideo && fps !== undefined ? { fps } : {}),
    ...(isVideo && size !== undefined ? { size } : {}),
    ...(maxDuration === undefined ? {} : { maxDuration }),
    ...(time === undefined ? {} : { time }),
    ...(scale === undefined ? {} : { scale }),
    ...(fontFiles.length ? { fontFiles } : {}),
    ...(inputFormat === undefined ? {} : { inputFormat }),
    ...(missingFonts === undefined ? {} : { missingFonts }),
    ...(values['text-split-allowed'] === true ? { textSplitAllowed: true } : {}),
    ...(isVideo ? { onProgress: progressReporter(io, io.stderr.isTTY === true, startedAt) } : {}),
  };
  // One render per process: a render thread would only add its start-up time.
  const result = await new Engine({ threads: 0 }).render(many ? { ...options, pages } : { ...options, ...pages[0]! }).catch((e: unknown) => {
    // The engine knows a --font file by its index only: name the file as the flag gave it.
    const flag = e instanceof ImprintError && e.code === 'validation_error' ? /^\$\.fontFiles\[(\d+)\]$/.exec(e.path) : null;
    throw flag && e instanceof ImprintError ? validationError(e.path, `--font ${values.font![Number(flag[1])]}: ${e.message}`) : e;
  });

  if (toStdout) {
    const closed = await new Promise<Error | null | undefined>((done) => io.stdout.write(result.bytes, done));
    if (closed) {
      io.stderr.write(`error: stdout was closed before the ${formatBytes(result.bytes.length)} of ${format} were written (${closed.message})\n`);
      return 1;
    }
  } else {
    await writeFile(out, result.bytes);
  }
  if (values.report) info.write(`${JSON.stringify(result.report, null, 2)}\n`);
  for (const line of renderWarningLines(result.report)) warn(line);
  warn(summary(toStdout ? 'stdout' : out, result, fps ?? DEFAULT_FPS, (Date.now() - startedAt) / 1000));
  return 0;
}
