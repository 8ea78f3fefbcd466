// First contact with the CLI, as a user runs it (built dist/) from a folder of their own: every
// command answers --help and -h with its options and an example and does nothing else (no data
// folder, no server, no store); --version prints the package's version; `imprint admin` refuses to
// make up an empty store where there is none.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let cwd: string;
// The user's environment has no IMPRINT_* variables: the defaults (./data) are what is tested.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IMPRINT_')));

beforeEach(() => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), 'imprint-first-contact-')));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

/** Runs the CLI in the temp folder; a command that does not return (a server) is killed by the timeout and fails the test. */
const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd, env: { ...baseEnv, ...env }, timeout: 20_000 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number | null; signal?: string; stdout: string; stderr: string }) => ({ code: e.code ?? e.signal, stdout: e.stdout, stderr: e.stderr }),
  );

const ADMIN_COMMANDS = [
  'init',
  'create-account',
  'create-key',
  'import-design',
  'list-designs',
  'delete-design',
  'add-font',
  'list-fonts',
  'delete-font',
  'get-account',
  'set-balance',
  'add-balance',
  'set-plan',
  'list-webhooks',
  'sweep',
];

describe('--help and -h', () => {
  it('lists every admin command in `imprint admin --help`', async () => {
    const r = await run(['admin', '--help']);
    const listed = [...r.stdout.matchAll(/^ {2}([a-z][a-z-]+)\b/gm)].map((m) => m[1]).filter((c) => c !== 'imprint');
    expect(listed).toEqual(ADMIN_COMMANDS);
  });

  const commands = [[], ['render'], ['serve'], ['worker'], ['import'], ['admin'], ...ADMIN_COMMANDS.map((c) => ['admin', c])];
  it.each(
    commands.flatMap((c) => [
      [...c, '--help'],
      [...c, '-h'],
    ]),
  )('imprint %s: usage with an example, exit 0, no side effects', async (...args) => {
    const r = await run(args);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const name = args.slice(0, -1).join(' ');
    expect(r.stdout).toMatch(new RegExp(`^Usage: imprint ${name === '' ? '<command>' : name}(\\s|$)`));
    const example = r.stdout.search(/\nExamples?:\n/);
    expect(example).toBeGreaterThan(0);
    expect(r.stdout.slice(example)).toContain(`imprint ${name}`);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('documents every option of a command in its help', async () => {
    const render = (await run(['render', '--help'])).stdout;
    const flags = ['--out', '--format', '--overrides', '--quality', '--lossless', '--compression', '--time', '--fps', '--size', '--max-duration', '--asset'];
    flags.push('--report');
    for (const flag of flags) expect(render).toContain(` ${flag} `);
    const setPlan = (await run(['admin', 'set-plan', '--help'])).stdout;
    for (const flag of ['--account', '--plan', '--concurrency', '--queue-size', '--rate-hd-60']) expect(setPlan).toContain(`  ${flag} `);
  });

  it("the README's CLI table lists exactly the options of `imprint render --help`, with the same values", async () => {
    // flag → its value (or '' for a switch) and short alias, from "  -o, --out <file>   …" lines.
    const options = (lines: string[], parse: (l: string) => RegExpExecArray | null) =>
      new Map(
        lines
          .map((l) => parse(l))
          .flatMap((m) => (m ? [[m.groups!.flag!, `${(m.groups!.value ?? '').replace(/[<>]/g, '')} ${m.groups!.short ?? ''}`.trim()]] : [])),
      );
    const help = (await run(['render', '--help'])).stdout;
    const section = help.slice(help.indexOf('\nOptions:\n'), help.indexOf('\n\n', help.indexOf('\nOptions:\n') + 1)).split('\n');
    const fromHelp = options(section, (l) => /^ {2}(?:(?<short>-\w), )?(?<flag>--[\w-]+)(?: (?<value><[^>]+>))?/.exec(l));
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| option | meaning |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const fromReadme = options(
      rows.map((r) => r.replace(/\\\|/g, '|')),
      (l) => /^\| `(?<flag>--[\w-]+)(?: (?<value>[^`]+))?`(?:, `(?<short>-\w)`)? \|/.exec(l),
    );
    expect(fromHelp.size).toBeGreaterThan(10);
    expect(Object.fromEntries(fromReadme)).toEqual(Object.fromEntries(fromHelp));
  });

  it('answers help before anything else on the command line, and `imprint help <command>` alike', async () => {
    const late = await run(['render', 'missing.json', '--out', 'x.gif', '--help']);
    expect(late.code).toBe(0);
    expect(late.stdout).toMatch(/^Usage: imprint render/);
    expect((await run(['help', 'serve'])).stdout).toMatch(/^Usage: imprint serve\n/);
    expect((await run(['admin', 'help', 'sweep'])).stdout).toMatch(/^Usage: imprint admin sweep\n/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('serve and worker take no arguments: anything else is refused before a server starts', async () => {
    for (const role of ['serve', 'worker']) {
      const r = await run([role, '--port', '8080']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`usage_error: Unknown option '--port' (imprint ${role} --help lists the options)\n`);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('prints usage on stderr with exit 2 when no command is given', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: imprint <command>/);
  });
});

describe('--version', () => {
  it.each([['--version'], ['-v'], ['version']])('imprint %s prints the version of package.json', async (flag) => {
    const r = await run([flag]);
    expect(r).toEqual({ code: 0, stdout: `imprint ${VERSION}\n`, stderr: '' });
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('imprint admin without a data store', () => {
  it('exits 2 naming the folder it looked in and how to point it elsewhere, and creates nothing', async () => {
    const r = await run(['admin', 'get-account', '--account', '1']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const db = join(cwd, 'data', 'imprint.db');
    const where = `no Imprint data in ${join(cwd, 'data')} (IMPRINT_DATA_DIR is not set, so ./data of the current folder; looked for ${db})`;
    expect(r.stderr.startsWith(`config_error: ${where}: `)).toBe(true);
    expect(r.stderr).toContain('set IMPRINT_DATA_DIR=<that folder>');
    expect(r.stderr).toContain('imprint serve');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('names IMPRINT_DATA_DIR when it points at a folder without a store, for every command', async () => {
    const missing = join(cwd, 'elsewhere');
    for (const args of [['create-account', '--name', 'x'], ['list-designs', '--account', '1'], ['sweep']]) {
      const r = await run(['admin', ...args], { IMPRINT_DATA_DIR: missing });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^config_error: no Imprint data in ${missing} \\(IMPRINT_DATA_DIR; looked for ${join(missing, 'imprint.db')}\\)`));
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('creates a store only when asked with `imprint admin init`', async () => {
    const init = await run(['admin', 'init']);
    expect(init).toEqual({ code: 0, stdout: `{"database":"${join(cwd, 'data', 'imprint.db')}","created":true}\n`, stderr: '' });
    expect((await run(['admin', 'init'])).stdout).toBe(`{"database":"${join(cwd, 'data', 'imprint.db')}","created":false}\n`);
    const r = await run(['admin', 'get-account', '--account', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^account_not_found at \$\.account_id: no account with id 1/);
    expect(JSON.parse((await run(['admin', 'create-account', '--name', 'Acme'])).stdout)).toMatchObject({ account_id: 1 });
  });
});
