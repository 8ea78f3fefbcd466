// Help texts of the top-level commands. Each answers `--help`/`-h` before doing anything else, so
// asking for help never starts a server, opens a store or creates a data folder.
import { readFileSync } from 'node:fs';

/** A mistake in the command line itself (not in a file it names): `usage_error: …`, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** True when the arguments ask for help (anywhere before a `--` that ends the options). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

/** The package's version: from package.json beside dist/ (and src/), so it cannot drift from the release. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

export const USAGE = `Usage: imprint <command> [options]

Commands:
  render <design.json>...  render a design with overrides to png, jpg, webp, avif, pdf or mp4
  serve                    the render service (interfaces A and B over HTTP) with its worker
  worker                   a render worker only, sharing the stores of a running service (scale-out)
  admin <command>          accounts, API keys, plans, balances and designs of the service
  import polotno <file>    convert a Polotno store JSON into an Imprint design folder (--out <folder>)
  fonts install|list       install Google Fonts families by name into the font folder, list them

  imprint <command> --help   the options of a command, with an example
  imprint --version          the version

Examples:
  imprint render examples/card-1080/design.json --overrides examples/card-1080/overrides.json --out out/card.png
  imprint serve
  imprint admin create-account --name "Acme Studio" --plan basic
`;

export const RENDER_USAGE = `Usage: imprint render <design.json> [options] --out <file>
       imprint render <a.json> <b.json>... [--overrides <a-overrides.json> --overrides <b-overrides.json>...]
                      --format pdf --out <file.pdf>        (one pdf, one page per design)

Renders a design with its overrides to png, jpg, webp, avif, pdf or mp4.

Options:
  -o, --out <file>       where to write; "-" writes the bytes to stdout (then give --format; the report and
                         every message go to stderr)
  --format <format>      png, jpg, webp, avif, pdf or mp4 (default: the --out extension, else the "format"
                         of the overrides file)
  --overrides <file>     a render request body, either interface A's
                           {"objects_overrides": {"<object name>": {...}}, "format": "png"}
                         ("format" is the default output format; "design_id" and "webhook_url" are allowed
                         and ignored) or interface B's
                           {"parameters": {"fps": 60, "size_type": "hd"}, "overrides": [{"name": …, "object": {...}}]}
                         (fps and size_type are the defaults of --fps and --size; "demo" is ignored; mp4 is
                         the default format). With several designs, once per design, in the same order.
  --quality <1-100>      jpg (default 90), webp (default 80) or avif (default 50) quality
  --lossless             webp: lossless
  --compression <0-9>    png zlib level (default 3; lossless either way)
  --time <s>             an image or pdf of an animated design: the second to show, at most its duration
                         (default: its poster_time, else when its opening animations have ended)
  --scale <n>            png, jpg, webp, avif: the image at the design's size × n (more than 0, at most 4;
                         0.5 is half size), painted at that size (default 1)
  --fps <30|60>          mp4 frame rate (default 30)
  --size <sd|hd|design>  mp4 size: short side 720 (sd) or 1080 (hd), aspect kept (default: the design's)
  --max-duration <s>     mp4: the longest video allowed (default 15 s; 300 s for slide videos)
  --asset <name=file>    an image for "asset:<name>" references (repeatable)
  --font <file>          a font file (TTF, OTF, WOFF, WOFF2; ≤ 20 MB) whose family the design lists in
                         "fonts" by the name inside the file (repeatable)
  --no-install-fonts     refuse a Google Fonts family the font folder lacks instead of installing it
                         (by default it is installed on first use, with a line on stderr: imprint fonts)
  --missing-fonts <error|fallback>
                         error (default) or fallback: draw a family that is not available with Inter,
                         with a warning naming each text (Polotno's skipFontError)
  --input-format <f>     auto (default), imprint or polotno: a Polotno store JSON (pages with children) is
                         converted on the fly (docs/polotno.md); auto tells them apart by shape
  --text-split-allowed   Polotno documents: a text shrinking to fit its box may split a word too long
                         for a line instead of shrinking until it fits whole, as Polotno's render
                         option textSplitAllowed (default: off, as Polotno's)
  --report               print the fit report (font sizes, line counts, shrunk, clipped, missing
                         characters) as JSON on stdout
  -h, --help             this help

Image paths in the design and the overrides are relative to the design file's folder. On stderr: mp4
progress with an ETA, a warning per text object with characters the fonts cannot draw, and one line
with the file written, its size and the time taken. Exit status: 0 done; 2 bad input, with one line
such as "validation_error at $.objects_overrides.headline.text: …"; 1 rendering failed.

Examples:
  imprint render examples/card-1080/design.json --overrides examples/card-1080/overrides.json --out out/card.png --report
  imprint render examples/promo-15s/design.json --out out/promo.mp4 --size sd
  imprint render examples/card-1080/design.json --format webp --quality 90 --out - > out/card.webp
`;

const STORES = `Environment (docs/operations.md):
  IMPRINT_DATA_DIR            folder of the embedded stores: SQLite file and blobs (default ./data)
  IMPRINT_DATABASE_URL        postgres://… instead of the SQLite file
  IMPRINT_BLOBS_URL           s3://bucket?endpoint=… or a folder, instead of <data dir>/blobs
  IMPRINT_QUEUE_URL           redis://… for BullMQ (several worker processes); default in-process
  IMPRINT_WORKER_CONCURRENCY  render slots of this process (default: the number of cores)
  IMPRINT_LOG_LEVEL           fatal, error, warn, info (default), debug, trace or silent`;

export const SERVE_USAGE = `Usage: imprint serve

Runs the render service in one process: interface A at /public/v2 and interface B at /api over HTTP,
a render worker and the retention sweeper. It takes no options; it is configured by environment
variables. The embedded stores are created on the first start (the data folder included), and an
empty embedded store gets a demo account with the example designs, whose admin API key is printed
once. Stop with Ctrl-C or SIGTERM: running renders finish or go back to the queue.

${STORES}
  IMPRINT_PORT                HTTP port (default 3000; 0 picks a free one)
  IMPRINT_BASE_URL            public address behind a proxy (default http://localhost:<port>)
  IMPRINT_SEED                1 seeds the demo account on any store, 0 never (default: embedded only)
  IMPRINT_PREVIEW_THREADS     render threads for POST /public/v2/preview, started on the first (default 1)

Example:
  IMPRINT_DATA_DIR=$HOME/imprint-data IMPRINT_PORT=8080 imprint serve
`;

export const WORKER_USAGE = `Usage: imprint worker

Runs a render worker only (no HTTP): it takes queued tasks from the stores that a running
\`imprint serve\` uses, so set the same variables as the server. It takes no options. Stop with
Ctrl-C or SIGTERM: running renders finish or go back to the queue.

${STORES}

Example:
  IMPRINT_DATABASE_URL=postgres://imprint@db/imprint IMPRINT_QUEUE_URL=redis://cache:6379 \\
    IMPRINT_BLOBS_URL='s3://renders?endpoint=http://minio:9000' imprint worker
`;

export const FONTS_USAGE = `Usage: imprint fonts install <family>[@<version>]... [--from <folder>]
       imprint fonts list [--search <text>]

Installs Google Fonts families by name (the font catalogue: fonts/catalogue.json, the whole collection)
into the font folder, where renders find them; a render itself never touches the network. Each family
comes from its @expo-google-fonts npm package (the full fonts), or from its @fontsource package (files
split per Unicode subset, drawn as browsers draw them) when it has no expo package, downloaded by npm
from the registry (integrity checked) or taken from a folder of npm pack tarballs on a machine without
network. A version picks the package that has it (expo's are 0.x, Fontsource's 5.x). \`imprint render\` installs a
family it needs on first use (--no-install-fonts refuses instead); the service installs them when a
design is imported.

The font folder: IMPRINT_FONTS_DIR, else fonts/ in IMPRINT_DATA_DIR (default ./data/fonts).

Options:
  --from <folder>        install from this folder of tarballs (expo-google-fonts-<family>-<version>.tgz,
                         as npm pack @expo-google-fonts/<family> names them, else
                         fontsource-<family>-<version>.tgz) instead of the registry
  --search <text>        list: the catalogue's families whose name contains the text, marked installed
                         or bundled, instead of the installed families
  -h, --help             this help

Prints one JSON line per family.

Example:
  imprint fonts install Pacifico
  # {"family":"Pacifico","package":"@expo-google-fonts/pacifico","version":"0.4.1","faces":1,"source":"registry"}
  imprint fonts list
  # {"family":"Pacifico","package":"@expo-google-fonts/pacifico","version":"0.4.1","faces":1,"dir":"…"}
  imprint fonts list --search "open sans"
`;

export const IMPORT_USAGE = `Usage: imprint import polotno <polotno.json> --out <folder>

Converts a Polotno store JSON (what the editor's store.toJSON() saves) into an Imprint design folder:
<folder>/design.json plus the files it uses, copied from beside the JSON file (images, clips, fonts,
svg), written out from data: URLs (embedded/…), and downloaded once from http(s) URLs (embedded/…,
each URL recorded in design.json's "sources"). The folder renders to the same pixels as the JSON
itself, and imports like any design (imprint admin import-design <folder>/design.json); renders never
fetch. Downloads never reach private, loopback or link-local addresses, follow at most 5 redirects
and stop at a size and time limit (docs/polotno.md#remote-files). A Google Fonts family the document
names is installed into the font folder (imprint fonts --help) and pinned in design.json to the package
version installed, not downloaded from its URL.

Environment:
  IMPRINT_IMPORT_ALLOW_PRIVATE    1, or addresses and CIDR ranges (127.0.0.1,10.0.0.0/8) that downloads
                                  may reach although they are not public (default: none)
  IMPRINT_IMPORT_FETCH_TIMEOUT_S  time limit of one download, redirects included (default 15)
  IMPRINT_IMPORT_FETCH_MAX_MB     size limit of every download (default: 10 images and SVG, 20 fonts,
                                  100 video and audio)

Options:
  -o, --out <folder>     the design folder to write (created; must be empty if it exists)
  --no-install-fonts     refuse a Google Fonts family the font folder lacks instead of installing it
  --text-split-allowed   a text shrinking to fit its box may split a word too long for a line instead
                         of shrinking until it fits whole, as Polotno's render option textSplitAllowed
                         (default: off, as Polotno's)
  -h, --help             this help

Example:
  imprint import polotno examples/polotno-card/polotno.json --out out/polotno-design
  imprint render out/polotno-design/design.json --out out/polotno-design.png
`;
