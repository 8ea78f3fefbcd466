// `imprint admin`, `imprint serve` and `imprint worker` as a user runs them (built dist/): admin
// refusals, a server started with `serve` seeds the examples (and later says how to make a new demo
// key), renders beside admin commands and stops cleanly on SIGTERM. The admin walk-through of
// docs/operations.md runs in test/docs-commands.test.ts, after `npm start` as the README orders it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { zipSync } from 'fflate';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/service/config.js';
import { Service } from '../src/service/service.js';
import { waitUntil } from './support/wait.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const CARD = 'examples/card-1080';

let dir: string;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'imprint-cli-svc-'));
  env = { ...process.env, IMPRINT_DATA_DIR: dir, IMPRINT_LOG_LEVEL: 'warn', IMPRINT_WORKER_CONCURRENCY: '1', IMPRINT_PORT: '0' };
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [builtBin(), ...args], { cwd: ROOT, env }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('imprint admin', () => {
  it.each([
    [['get-account', '--account', '9'], /^account_not_found at \$\.account_id: no account with id 9/],
    [['get-account', '--account', 'abc'], /^validation_error at \$\.account: Expected a positive integer for --account but received "abc"/],
    [['set-balance', '--account', '1', '--amount=-5'], /^validation_error at \$\.amount: a balance cannot be negative/],
    [['set-balance', '--account', '1', '--amount', 'lots'], /^validation_error at \$\.amount: Expected a number for --amount but received "lots"/],
    [['create-key', '--account', '1', '--role', 'root'], /^validation_error at \$\.role: Expected admin or member for role but received "root"/],
    [['create-account', '--name', 'first'], /^conflict at \$\.name: an account named "first" already exists/],
    [['set-plan', '--account', '1', '--concurrency', '0'], /^validation_error at \$\.concurrency: /],
    [['set-plan', '--account', '1'], /^validation_error at \$: give at least one of --plan/],
    [['import-design', 'test/fixtures-missing.json', '--account', '1'], /^validation_error at \$\.file: cannot read the design file/],
    [['import-design', 'package.json', '--account', '1'], /^validation_error at \$\.\w+/],
    [
      ['import-design', 'examples/card-1080/design.json', '--account', '1', '--replace', '9'],
      /^design_not_found at \$\.design_id: no design with id 9 in this account: use the id of one of its designs \(imprint admin list-designs --account <id> lists them\)$/,
    ],
    [['add-font', 'package.json', '--account', '1'], /^validation_error at \$\.file: .*TTF, OTF, WOFF or WOFF2/],
    [['add-font', 'test/no-such-font.ttf', '--account', '1'], /^validation_error at \$\.file: cannot read the font file/],
    [['delete-font', '--account', '1', '--font', '7'], /^font_not_found at \$\.font_id: no font with id 7 in this account/],
    [['frobnicate'], /^usage_error: unknown admin command "frobnicate"/],
  ])(
    'refuses admin %j with one line on stderr, exit 2, and changes nothing',
    async (args, message) => {
      const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir }), { log: pino({ level: 'silent' }) });
      try {
        await service.createAccount({ name: 'first', balance: 3 });
        const r = await run(['admin', ...args]);
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.trim().split('\n')[0]).toMatch(message);
        expect(await service.getAccount(1)).toMatchObject({ balance: 3, plan: { concurrency: 1 } });
        expect(await service.ctx.meta.countAccounts()).toBe(1);
        expect(await service.listDesigns(1)).toEqual([]);
        expect(await service.listFonts(1)).toEqual([]);
      } finally {
        await service.close();
      }
    },
    30_000,
  );

  it('imports and replaces a design from a zip of its folder, and refuses a zip with a ../ path', async () => {
    const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir }), { log: pino({ level: 'silent' }) });
    try {
      await service.createAccount({ name: 'first' });
    } finally {
      await service.close();
    }
    const card = Object.fromEntries(readdirSync(join(ROOT, CARD)).map((f) => [f, new Uint8Array(readFileSync(join(ROOT, CARD, f)))] as const));
    writeFileSync(join(dir, 'summer-card.zip'), zipSync({ 'card-1080': card }));
    const imported = await run(['admin', 'import-design', join(dir, 'summer-card.zip'), '--account', '1']);
    expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(imported.stdout)).toEqual({ design_id: 1, kind: 'design', name: 'summer-card', files: 1 });
    const replaced = await run(['admin', 'import-design', join(dir, 'summer-card.zip'), '--account', '1', '--replace', '1']);
    expect(JSON.parse(replaced.stdout)).toEqual({ design_id: 1, kind: 'design', name: 'summer-card', files: 1 });
    writeFileSync(join(dir, 'evil.zip'), zipSync({ 'design.json': readFileSync(join(ROOT, CARD, 'design.json')), '../x.jpg': new Uint8Array(3) }));
    const evil = await run(['admin', 'import-design', join(dir, 'evil.zip'), '--account', '1']);
    expect(evil.code).toBe(2);
    expect(evil.stderr).toMatch(/^validation_error at \$\.file: the zip entry "\.\.\/x\.jpg" has a "\.\." in its path/);
  }, 60_000);

  it('imports a zip of a Polotno export (polotno.json beside its images), and names the .json files of a zip with several', async () => {
    const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir }), { log: pino({ level: 'silent' }) });
    try {
      await service.createAccount({ name: 'first' });
    } finally {
      await service.close();
    }
    const folder = join(ROOT, 'examples', 'polotno-card');
    const files = Object.fromEntries(readdirSync(folder).map((f) => [f, new Uint8Array(readFileSync(join(folder, f)))] as const));
    writeFileSync(join(dir, 'polotno-card.zip'), zipSync(files));
    const imported = await run(['admin', 'import-design', join(dir, 'polotno-card.zip'), '--account', '1']);
    expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(imported.stdout)).toMatchObject({ design_id: 1, kind: 'design', name: 'polotno-card' });
    writeFileSync(join(dir, 'two.zip'), zipSync({ ...files, 'polotno-copy.json': files['polotno.json']! }));
    const two = await run(['admin', 'import-design', join(dir, 'two.zip'), '--account', '1']);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(
      /^validation_error at \$\.file: the zip has 2 \.json files at its root \("polotno(-copy)?\.json", "polotno(-copy)?\.json"\) and none is named design\.json/,
    );
  }, 60_000);

  it('refuses a bad configuration with the variable name', async () => {
    env.IMPRINT_QUEUE_URL = 'amqp://localhost';
    const r = await run(['admin', 'sweep']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^config_error: Expected a redis:\/\/host:port URL .* for IMPRINT_QUEUE_URL but received "amqp:\/\/localhost"/);
  });
});

/** Starts a long-running command and resolves once its stdout matches. */
function start(args: string[], ready: RegExp): Promise<{ child: ChildProcess; stdout: () => string }> {
  const child = spawn(process.execPath, [builtBin(), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 30 s: ${out}${err}`)), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, stdout: () => out });
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)));
  });
}

const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

describe('imprint serve', () => {
  it('on a port in use says so and names IMPRINT_PORT, exits 2, and creates no demo account it could not show', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    try {
      env.IMPRINT_PORT = String(port);
      env.IMPRINT_HOST = '127.0.0.1';
      const r = await run(['serve']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim()).toBe(
        `config_error: port ${port} is already in use on 127.0.0.1 (another imprint serve, or another program): stop that, or set IMPRINT_PORT to a free port (IMPRINT_PORT=3001 npm start)`,
      );
    } finally {
      await new Promise((r) => busy.close(r));
    }
    const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir }), { log: pino({ level: 'silent' }) });
    try {
      expect(await service.ctx.meta.countAccounts()).toBe(0);
    } finally {
      await service.close();
    }
  }, 60_000);

  it('logs "worker process started" with the server\'s pid once and the worker\'s as worker_pid', async () => {
    const child = spawn(process.execPath, [builtBin(), 'serve'], { cwd: ROOT, env: { ...env, IMPRINT_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    await waitUntil('the worker process start to be logged', () => /"msg":"worker process started"/.test(err), 30_000, 20);
    const line = err.split('\n').find((l) => l.includes('"msg":"worker process started"'))!;
    expect(line.match(/"pid":/g)).toHaveLength(1);
    expect(JSON.parse(line)).toMatchObject({ pid: child.pid, worker_pid: expect.any(Number) });
    expect((JSON.parse(line) as { worker_pid: number }).worker_pid).not.toBe(child.pid);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  }, 60_000);

  it('seeds the examples and a demo key once, renders beside admin commands, and stops on SIGTERM', async () => {
    const first = await start(['serve'], /Stop with Ctrl-C/);
    const key = /\n {4}(imp_[A-Za-z0-9_-]+)\n/.exec(first.stdout())?.[1];
    expect(key).toBeDefined();
    expect(first.stdout()).toMatch(/card-1080/);
    expect(first.stdout()).toMatch(/video\s+slides-video/);

    const designs = JSON.parse((await run(['admin', 'list-designs', '--account', '1'])).stdout).designs as { design_id: number; name: string }[];
    const card = designs.find((d) => d.name === 'card-1080')!;
    expect(designs.length).toBeGreaterThanOrEqual(7);

    // Another process (this test) queues a task on the same data; the server's worker renders it.
    const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir }), { log: pino({ level: 'silent' }) });
    try {
      const auth = await service.authenticate(key!);
      expect(auth).toMatchObject({ role: 'admin', account: { id: 1, name: 'demo' } });
      const task = await service.createTask(1, { designId: card.design_id, format: 'png', overrides: { headline: { text: 'Beside the server' } } });
      await waitUntil('the server’s worker to end the task', async () => ['done', 'error'].includes((await service.getTask(1, task.id)).state), 30_000, 100);
      expect(await service.getTask(1, task.id)).toMatchObject({ state: 'done', error: null });
      expect((await service.resultBytes(1, task.id))!.subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await service.close();
    }

    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);

    // A later start shows no key, but the command that makes a new one: run as printed (from the
    // repository, without this test's IMPRINT_DATA_DIR), it prints a key the running server accepts.
    // `npx imprint` is this checkout's bin/imprint.js, as npm resolves it; not real npx, whose first
    // run in a checkout installs it into npx's cache (running its prepare) while other tests run.
    const second = await start(['serve'], /Stop with Ctrl-C/);
    expect(second.stdout()).not.toMatch(/imp_/);
    const command = /\n {4}(.*npx imprint admin create-key --account 1 --role admin)\n/.exec(second.stdout())?.[1];
    expect(command, second.stdout()).toBe(`IMPRINT_DATA_DIR=${dir} npx imprint admin create-key --account 1 --role admin`);
    const { IMPRINT_DATA_DIR: _, ...userEnv } = env;
    const npx = `npx() { if [ "$1" = imprint ]; then shift; node ${JSON.stringify(builtBin())} "$@"; else return 127; fi; }`;
    const made = await promisify(execFile)('bash', ['-c', `${npx}\n${command!}`], { cwd: ROOT, env: userEnv });
    const newKey = (JSON.parse(made.stdout) as { api_key: string; role: string }).api_key;
    const base = /listening on (http:\/\/\S+) /.exec(second.stdout())![1]!;
    const account = await fetch(`${base}/public/v2/account`, { headers: { authorization: `Bearer ${newKey}` } });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ account_id: 1, name: 'demo' });
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 90_000);

  it('renders in its worker process while a stream of render requests keeps arriving, and counts those renders at /metrics', async () => {
    const server = await start(['serve'], /Stop with Ctrl-C/);
    expect(server.stdout()).toMatch(/render slot\(s\) in a worker process/);
    const key = /\n {4}(imp_[A-Za-z0-9_-]+)\n/.exec(server.stdout())![1]!;
    const base = /listening on (http:\/\/\S+) /.exec(server.stdout())![1]!;
    // The demo account's plan would refuse a stream after 50 requests a minute; this test is about renders.
    expect((await run(['admin', 'set-plan', '--account', '1', '--requests-per-minute', '1000000', '--queue-size', '1000000'])).code).toBe(0);
    const designs = JSON.parse((await run(['admin', 'list-designs', '--account', '1'])).stdout).designs as { design_id: number; name: string }[];
    const body = JSON.stringify({ design_id: designs.find((d) => d.name === 'card-1080')!.design_id, format: 'png' });
    const service = await Service.open(configFromEnv({ IMPRINT_DATA_DIR: dir }), { log: pino({ level: 'silent' }) });
    try {
      // One request after another, each sent as soon as the last is answered: the server is never
      // without a request to handle, and the stream stops only once a task is done (or it gives up).
      const MAX_REQUESTS = 20_000;
      let sent = 0;
      let first: number | undefined;
      let doneWhileStreaming = false;
      while (sent < MAX_REQUESTS && !doneWhileStreaming) {
        const r = await fetch(`${base}/public/v2/render`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
        });
        expect(r.status).toBe(202);
        const { task_id } = (await r.json()) as { task_id: number };
        first ??= task_id;
        sent++;
        if (sent % 10 === 0) doneWhileStreaming = (await service.getTask(1, first)).state === 'done';
      }
      expect({ doneWhileStreaming, sent }).toMatchObject({ doneWhileStreaming: true });
      // The renders happen in another process; the server's /metrics shows them all the same.
      await waitUntil(
        'the worker process’s renders at /metrics',
        async () => /^imprint_tasks_finished_total\{state="done"\} [1-9]/m.test(await (await fetch(`${base}/metrics`)).text()),
        10_000,
        100,
      );
    } finally {
      await service.close();
    }
    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
  }, 90_000);
});
