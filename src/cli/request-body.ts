// The files `imprint render` reads: a design, and an overrides file that may be a whole render request
// body of either HTTP interface, so a body that works with the service can be tried locally unchanged.
//   interface A: {"objects_overrides": {...}, "format": "png", "design_id": 1, "webhook_url": "…"}
//   interface B: {"parameters": {"fps": 60, "size_type": "hd", "demo": true}, "overrides": [...]}
// design_id and webhook_url name things of the service (a stored design, a callback) that have no
// meaning for a local file, so they are allowed and ignored; any other unknown field is refused, as
// the service refuses it, because it is most likely a typo that would otherwise be dropped silently.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseJson } from '../design/parse.js';
import { validationError } from '../errors.js';
import { formatList, isFps, isVideoSize, OUTPUT_FORMATS, VIDEO_FPS, VIDEO_SIZES, type Fps, type OutputFormat, type VideoSize } from '../output-formats.js';

export interface ReadJsonOptions {
  /** The file as the user typed it, for messages (default: `file`). */
  shown?: string;
  /** JSON path of the file itself (the flag or argument naming it), for a file that cannot be read. Default `root`. */
  fileAt?: string;
}

/**
 * A JSON file the CLI was given. A missing one is said to be missing, with the absolute path looked
 * for (a relative path is from the folder imprint runs in), not as a bare ENOENT; its errors are at
 * `fileAt`, the argument that named it; a file that is not JSON is an error of its content, at `root`.
 */
export async function readJson(file: string, root: string, what: string, opts: ReadJsonOptions = {}): Promise<unknown> {
  const shown = opts.shown ?? file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const at = opts.fileAt ?? root;
    if (code === 'ENOENT') throw validationError(at, `the ${what} "${shown}" was not found (looked for ${resolve(file)}): check the name and the folder`);
    if (code === 'EISDIR') throw validationError(at, `the ${what} "${shown}" is a folder: give the .json file in it`);
    throw validationError(at, `cannot read the ${what} "${shown}" (${code ?? (e as Error).message}): check the path and its permissions`);
  }
  return parseJson(text, root, `the ${what} "${shown}"`);
}

export interface RequestBody {
  /** The file as the user typed it, for messages. */
  file: string;
  /** Interface A's objects_overrides map or interface B's overrides list (the engine validates either). */
  overrides: unknown;
  /** The body's output format: interface A's "format", or mp4 for an interface B body (B renders videos only). */
  format?: OutputFormat;
  /** The body named its format (interface A) rather than implying it (interface B). */
  explicitFormat: boolean;
  /** Interface B's parameters: defaults of --fps and --size. */
  fps?: Fps;
  size?: VideoSize;
}

const A_FIELDS = ['objects_overrides', 'format', 'design_id', 'webhook_url'] as const;
const B_FIELDS = ['parameters', 'overrides'] as const;
const B_PARAMETERS = ['fps', 'size_type', 'demo'] as const;

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/** ` (did you mean "objects_overrides"?)` for a near miss, else nothing. */
function didYouMean(key: string, known: readonly string[]): string {
  const near = known.find((k) => editDistance(key.toLowerCase(), k) <= Math.max(1, Math.floor(k.length / 4)));
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Reads an overrides file; `root` is the JSON path its errors start with. */
export async function readRequestBody(path: string, file: string, root: string): Promise<RequestBody> {
  const doc = await readJson(path, root, 'overrides file', { shown: file, fileAt: '$.overrides' });
  if (!isObject(doc)) {
    throw validationError(root, 'expected the overrides file to be a JSON object: {"objects_overrides": {...}} (interface A) or {"overrides": [...]} (B)');
  }
  const known: readonly string[] = [...A_FIELDS, ...B_FIELDS];
  for (const key of Object.keys(doc)) {
    if (!known.includes(key)) {
      throw validationError(
        `${root}.${key}`,
        `unknown field "${key}" in the overrides file${didYouMean(key, known)}: ` +
          `it holds interface A's render request (${quoted(A_FIELDS)}) or interface B's (${quoted(B_FIELDS)})`,
      );
    }
  }
  const a = A_FIELDS.find((k) => k in doc);
  const b = B_FIELDS.find((k) => k in doc);
  if (a !== undefined && b !== undefined) {
    const fix = 'give {"objects_overrides": {...}} or {"overrides": [...]}, not both';
    throw validationError(`${root}.${b}`, `the overrides file mixes interface A's "${a}" with interface B's "${b}": ${fix}`);
  }
  if (b !== undefined) {
    return { file, overrides: doc.overrides ?? {}, format: 'mp4', explicitFormat: false, ...parameters(doc.parameters, `${root}.parameters`) };
  }

  let format: OutputFormat | undefined;
  if (doc.format !== undefined) {
    const f = typeof doc.format === 'string' ? doc.format.toLowerCase().replace(/^jpeg$/, 'jpg') : undefined;
    if (f === undefined || !(OUTPUT_FORMATS as readonly string[]).includes(f)) {
      const expected = `expected "format" ${formatList(OUTPUT_FORMATS)} in the overrides file ${file}`;
      throw validationError(`${root}.format`, `${expected} but received ${JSON.stringify(doc.format)}`);
    }
    format = f as OutputFormat;
  }
  return { file, overrides: doc.objects_overrides ?? {}, explicitFormat: format !== undefined, ...(format === undefined ? {} : { format }) };
}

/** Interface B's parameters, checked as the service checks them; `demo` (a watermark and billing mode) has no meaning locally. */
function parameters(value: unknown, path: string): Pick<RequestBody, 'fps' | 'size'> {
  if (value === undefined) return {};
  if (!isObject(value)) throw validationError(path, 'expected "parameters" to be an object such as {"fps": 30, "size_type": "sd"}');
  for (const key of Object.keys(value)) {
    if (!(B_PARAMETERS as readonly string[]).includes(key)) {
      const hint = didYouMean(key, B_PARAMETERS);
      throw validationError(`${path}.${key}`, `unknown parameter "${key}"${hint}: interface B's parameters are ${quoted(B_PARAMETERS)}`);
    }
  }
  const { fps, size_type: size, demo } = value;
  if (fps !== undefined && !isFps(fps)) throw validationError(`${path}.fps`, `expected fps ${formatList(VIDEO_FPS)} but received ${JSON.stringify(fps)}`);
  if (size !== undefined && !isVideoSize(size)) {
    throw validationError(`${path}.size_type`, `expected size_type ${formatList(VIDEO_SIZES.map((s) => `"${s}"`))} but received ${JSON.stringify(size)}`);
  }
  if (demo !== undefined && typeof demo !== 'boolean') {
    throw validationError(`${path}.demo`, `expected demo true or false but received ${JSON.stringify(demo)}`);
  }
  return { ...(fps === undefined ? {} : { fps }), ...(size === undefined ? {} : { size }) };
}
