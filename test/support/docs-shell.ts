// Runs documented shell commands (the README's and docs' ```sh blocks, the examples of the CLI's help
// texts) the way a reader runs them: in bash, in a folder that looks like the repository, one command
// after another, with `npm start` and `imprint serve` left running in the background as they would be
// in another terminal. The folder is a temporary one: its tracked files are links to this checkout
// (so the build is shared), the commands' own files stay in it, and afterwards the test can ask
// which of them git would show as untracked in a real checkout. A page of examples followed in one
// terminal (docs/api.md's curl blocks) keeps its shell variables from block to block.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { builtBin } from './stale-build.js';

export const ROOT = join(import.meta.dirname, '..', '..');

/** A fenced ```sh block of a markdown file: `info` is what follows `sh` on the fence line. */
export interface ShellBlock {
  file: string;
  line: number;
  info: string;
  body: string;
}

export function shellBlocks(file: string): ShellBlock[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const blocks: ShellBlock[] = [];
  for (const m of text.matchAll(/^```sh([^\n]*)\n([\s\S]*?)^```$/gm)) {
    blocks.push({ file, line: text.slice(0, m.index).split('\n').length, info: m[1]!.trim(), body: m[2]! });
  }
  return blocks;
}

/** The commands of a help text: the lines under its "Example:" or "Examples:" heading, unindented. */
export function helpExamples(help: string): string {
  const at = help.search(/^Examples?:\n/m);
  if (at < 0) return '';
  return help
    .slice(at)
    .split('\n')
    .slice(1)
    .filter((l) => l.startsWith('  '))
    .map((l) => l.slice(2))
    .join('\n');
}

/** One command of a block (with its continuation lines) and the output documented under it (`# …` lines right after it). */
export interface Step {
  command: string;
  documented: string[];
}

export function steps(body: string): Step[] {
  const out: Step[] = [];
  let continued = false;
  let previousBlank = true;
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') {
      previousBlank = true;
      continue;
    }
    const last = out.at(-1);
    if (continued && last) last.command += `\n${line}`;
    else if (trimmed.startsWith('#')) {
      if (last && !previousBlank) last.documented.push(trimmed.replace(/^#\s?/, ''));
    } else out.push({ command: line, documented: [] });
    continued = !trimmed.startsWith('#') && trimmed.endsWith('\\');
    previousBlank = false;
  }
  return out;
}

/** A block with no command, only `# …` lines: the answer of the block before it, shown apart. */
export const outputOnly = (body: string): boolean => steps(body).length === 0 && /^\s*#/m.test(body);

/**
 * The top-level keys of a documented JSON answer such as `{"database":…,"created":true}`, and whether
 * it leaves some out (an "…" where a key would be; an "…" after a colon only stands for a value).
 */
export function documentedKeys(doc: string): { keys: string[]; elided: boolean } {
  const keys: string[] = [];
  let depth = 0;
  let elided = false;
  let keyNext = false;
  for (let i = 0; i < doc.length; i++) {
    const c = doc[i]!;
    if (c === '"') {
      let end = i + 1;
      while (end < doc.length && doc[end] !== '"') end += doc[end] === '\\' ? 2 : 1;
      if (depth === 1 && keyNext) keys.push(doc.slice(i + 1, end));
      keyNext = false;
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      keyNext = depth === 1;
    } else if (c === '}' || c === ']') depth--;
    else if (depth === 1 && c === ',') keyNext = true;
    else if (depth === 1 && c === '…' && keyNext) elided = true;
    else if (c !== ' ') keyNext = false;
  }
  return { keys, elided };
}

/** A command without its trailing comment (when it has no quotes a `#` could be inside of): what tells two commands apart. */
const sameCommand = (command: string) => (/['"]/.test(command) ? command : command.replace(/\s+#.*$/s, '')).trim();

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export interface StepResult {
  step: Step;
  /** False when the same command already ran earlier in the session and was not run again. */
  ran: boolean;
  stdout: string;
  stderr: string;
  /** The HTTP status of each curl request of the command, in order (none when it ran no curl). */
  statuses: number[];
}

export interface BlockResult {
  code: number;
  stdout: string;
  stderr: string;
  steps: StepResult[];
}

export interface SessionOptions {
  /** Define `imprint` (the installed command, as help texts name it); the docs use `npx imprint`. */
  bareImprint?: boolean;
}

export interface RunOptions {
  /**
   * The page whose blocks are followed in one terminal: the shell variables a block of this page sets
   * (`export IMPRINT_URL=…`, `TASK=$(…)`) are there in its later blocks, and every command runs, even
   * one the session ran before (the same `TASK=$(…)` line gives a new task each time).
   */
  page?: string;
}

/**
 * A reader's session: one folder, one shell environment per block, one server at a time. The only
 * things that differ from a reader's machine are the port (a free one instead of 3000, for every
 * server and URL), HOME and TMPDIR (inside the session's folder), and `npx imprint`, which runs
 * bin/imprint.js directly (what npx resolves it to in the repository, without npx's second of start-up).
 * Servers get one render slot (IMPRINT_WORKER_CONCURRENCY=1), to leave the machine's cores to the
 * other tests. `npm install` and `npm test` are not run: this checkout is installed, and `npm test` is the suite
 * this runs in; they are recorded in `assumed` for the test to list. `curl` is the real one, which
 * also reports each request's HTTP status on stderr (taken out of the step's stderr into `statuses`),
 * so a documented `# 201 {…}` can be checked whatever the command prints.
 */
export class DocsSession {
  readonly dir: string;
  /** The repository-like folder the commands run in. */
  readonly work: string;
  /** Entries of `work` made by the session (links and copies), as opposed to those the commands made. */
  private readonly mirrored = new Set<string>();
  private readonly seen = new Set<string>();
  private blocks = 0;

  private constructor(
    readonly port: number,
    private readonly options: SessionOptions,
  ) {
    builtBin(); // the commands run this checkout's build: refused when dist/ is older than src/
    this.dir = realpathSync(mkdtempSync(join(tmpdir(), 'imprint-docs-')));
    this.work = join(this.dir, 'work');
    mkdirSync(this.work);
    mkdirSync(join(this.dir, 'home'));
    mkdirSync(join(this.dir, 'tmp'));
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    const top = new Set([...tracked.map((f) => f.split('/')[0]!), 'node_modules', 'dist']);
    for (const entry of top) {
      // scripts/ is copied: render-examples.mjs writes to out/ beside its own folder. out/ is the
      // clone's (tracked) empty folder.
      if (entry === 'scripts') cpSync(join(ROOT, entry), join(this.work, entry), { recursive: true });
      else if (entry === 'out') mkdirSync(join(this.work, 'out'));
      else if (entry.startsWith('.')) continue;
      else symlinkSync(join(ROOT, entry), join(this.work, entry));
      this.mirrored.add(entry);
    }
    writeFileSync(join(this.work, 'out', '.gitkeep'), '');
    writeFileSync(join(this.dir, 'prelude.sh'), this.prelude());
  }

  static async open(options: SessionOptions = {}): Promise<DocsSession> {
    return new DocsSession(await freePort(), options);
  }

  private prelude(): string {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const arms = Object.entries(scripts)
      .map(([name, cmd]) => `    ${name}) cmd='${cmd.replace(/'/g, `'\\''`)}';;`)
      .join('\n');
    return `
__DIR=${JSON.stringify(this.dir)}
__PORT=${this.port}
# A server runs in the background until the next one starts or the session ends; ready when it says so.
__start() {
  __stop
  # The log is removed first: the new server's (truncated as it starts) must not be read as the last one's.
  rm -f "$__DIR/server.log"
  IMPRINT_PORT=$__PORT "$@" < /dev/null > "$__DIR/server.log" 2>&1 &
  echo $! > "$__DIR/server.pid"
  local deadline=$((SECONDS + 60))
  until grep -qs 'Stop with Ctrl-C' "$__DIR/server.log"; do
    if ! kill -0 "$(cat "$__DIR/server.pid")" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      cat "$__DIR/server.log" >&2
      return 1
    fi
    sleep 0.05
  done
  cat "$__DIR/server.log"
}
__stop() {
  [ -f "$__DIR/server.pid" ] || return 0
  local pid deadline=$((SECONDS + 60))
  pid=$(cat "$__DIR/server.pid")
  rm -f "$__DIR/server.pid"
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null && [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" != Z ]; do
    [ $SECONDS -lt $deadline ] || { echo "the server $pid did not stop" >&2; return 1; }
    sleep 0.05
  done
}
__imprint() {
  case "\${1-}" in
    serve|worker) __start node bin/imprint.js "$@";;
    *) node bin/imprint.js "$@";;
  esac
}
npx() {
  if [ "\${1-}" = imprint ]; then shift; __imprint "$@"; else echo "docs test: npx $* is not available" >&2; return 127; fi
}
${this.options.bareImprint ? 'imprint() { __imprint "$@"; }' : ''}
npm() {
  local name cmd=
  case "\${1-}" in
    install|ci|test) echo "npm $*" >> "$__DIR/assumed"; echo "(not run by the docs test: npm $*)"; return 0;;
    start) name=start;;
    run) name=\${2-};;
    *) echo "docs test: npm $* is not known" >&2; return 127;;
  esac
  case "$name" in
${arms}
  esac
  [ -n "$cmd" ] || { echo "npm error Missing script: \\"$name\\"" >&2; return 1; }
  case "$cmd" in
    *" serve"|*" worker") __start $cmd;;
    *) PATH="$PWD/node_modules/.bin:$PATH" bash -c "$cmd";;
  esac
}
# A browser opening a page is, here, the page answering.
open() { curl -sSf -o /dev/null "$1" && echo "opened $1"; }
# curl as written, with each request's status on stderr (%{stderr}: curl 7.63): after a -w format the
# command gives, else as the only one (curl takes the last -w).
curl() {
  local args=() mark='%{stderr}\\n@@docs-curl %{http_code}@@\\n' found=
  while [ $# -gt 0 ]; do
    case "$1" in
      -w|--write-out) args+=("$1" "$2$mark"); found=1; shift 2;;
      *) args+=("$1"); shift;;
    esac
  done
  [ -n "$found" ] || args+=(-w "$mark")
  command curl "\${args[@]}"
}
# The variables a block of a page set, for its next block (declare -p of each one the shell did not have).
__keep() {
  local v
  for v in $(compgen -v); do
    case "$v" in __*|BASH*|_|PIPESTATUS|FUNCNAME|OPTARG|OPTIND|REPLY) continue;; esac
    grep -qxF "$v" <<< "$__vars" || declare -p "$v"
  done > "$1"
}
__step() { printf '\\n@@docs-step %s@@\\n' "$1"; printf '\\n@@docs-step %s@@\\n' "$1" >&2; }
`;
  }

  /**
   * Runs a block's commands in order (`set -euo pipefail`: the first failure ends the block), each
   * command that already ran earlier in this session skipped (but a server is restarted), unless the
   * block is one of a `page`. `substitute` adapts the text first (a key printed earlier, say).
   */
  async run(body: string, substitute: (text: string) => string = (t) => t, options: RunOptions = {}): Promise<BlockResult> {
    const all = steps(body);
    const fresh = all.map((s) => options.page !== undefined || !this.seen.has(sameCommand(s.command)));
    const script = all
      .map((s, i) => `__step ${i}\n${fresh[i] ? substitute(s.command).replaceAll('localhost:3000', `127.0.0.1:${this.port}`) : ': already run'}`)
      .join('\n');
    const file = join(this.dir, `block-${++this.blocks}.sh`);
    const prelude = `set -euo pipefail\nsource ${JSON.stringify(join(this.dir, 'prelude.sh'))}\n`;
    if (options.page === undefined) writeFileSync(file, `${prelude}${script}\n`);
    else {
      // The page's variables: sourced at the top level (declare in a function would make them local).
      const vars = join(this.dir, `vars-${options.page.replace(/\W/g, '_')}.sh`);
      if (!existsSync(vars)) writeFileSync(vars, '');
      const q = JSON.stringify(vars);
      writeFileSync(file, `${prelude}__vars=$(compgen -v)\nsource ${q}\n${script}\n__keep ${q}\n`);
    }
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IMPRINT_')));
    Object.assign(env, { HOME: join(this.dir, 'home'), TMPDIR: join(this.dir, 'tmp'), IMPRINT_WORKER_CONCURRENCY: '1' });
    const r = await promisify(execFile)('bash', [file], { cwd: this.work, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }).then(
      (o) => ({ code: 0, stdout: o.stdout, stderr: o.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
    );
    const split = (text: string) => {
      const parts = new Map<number, string>();
      for (const m of text.matchAll(/\n@@docs-step (\d+)@@\n([\s\S]*?)(?=\n@@docs-step \d+@@\n|$)/g)) parts.set(Number(m[1]), m[2]!);
      return parts;
    };
    // The statuses the curl wrapper wrote are taken out of stderr (the blank line before each is curl's
    // own output ending without one).
    const CURL = /\n@@docs-curl (\d{3})@@\n/g;
    const statusesOf = (text: string) => [...text.matchAll(CURL)].map((m) => Number(m[1]));
    const out = split(r.stdout);
    const err = split(r.stderr);
    all.forEach((s, i) => {
      // A server is started again each time (a restart, as a reader following another page would).
      if (fresh[i] && r.code === 0 && !/^npm start\b|\bimprint (serve|worker)\b/.test(s.command.trim())) this.seen.add(sameCommand(s.command));
    });
    return {
      ...r,
      stderr: r.stderr.replace(CURL, ''),
      steps: all.map((step, i) => ({
        step,
        ran: fresh[i]!,
        stdout: out.get(i) ?? '',
        stderr: (err.get(i) ?? '').replace(CURL, ''),
        statuses: statusesOf(err.get(i) ?? ''),
      })),
    };
  }

  /** The npm commands not run (see the class comment). */
  assumed(): string[] {
    try {
      return readFileSync(join(this.dir, 'assumed'), 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  }

  /** Files the commands left in the folder that git would list as untracked in a checkout. */
  untracked(): string[] {
    const made: string[] = [];
    const walk = (rel: string) => {
      const abs = join(this.work, rel);
      if (lstatSync(abs).isDirectory()) for (const e of readdirSync(abs)) walk(join(rel, e));
      else made.push(rel);
    };
    for (const entry of readdirSync(this.work)) if (!this.mirrored.has(entry) || entry === 'out') walk(entry);
    if (made.length === 0) return [];
    const tracked = new Set(execFileSync('git', ['ls-files', '--', ...made], { cwd: ROOT, encoding: 'utf8' }).split('\n'));
    const candidates = made.filter((f) => !tracked.has(f));
    if (candidates.length === 0) return [];
    // check-ignore lists the ignored paths among those given (exit 1 when there are none).
    const ignored = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: ROOT, input: candidates.join('\n'), encoding: 'utf8' }).stdout.split(
      '\n',
    );
    return candidates.filter((f) => !ignored.includes(f));
  }

  /** Stops the server left running, if any, and removes the folder. */
  async close(): Promise<void> {
    await promisify(execFile)('bash', ['-c', `source ${JSON.stringify(join(this.dir, 'prelude.sh'))}; __stop`]).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
