// The README's curl walk-through of interface A, run as a user would against `imprint serve`; every
// ```sh block of docs/api.md, run in its order in one shell (its variables carry from block to block)
// against a fresh `npm start`, as a reader follows the page, each documented answer (`# 201 {…}`,
// headers, an event stream) checked against the real one (test/support/documented-answer.ts); and the
// webhook verification snippet of docs/api.md run against real signatures.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesignDetail } from '../src/http/schemas.js';
import { signWebhook } from '../src/service/webhooks.js';
import { checkAnswers } from './support/documented-answer.js';
import { DocsSession, outputOnly, shellBlocks, steps, type BlockResult, type ShellBlock } from './support/docs-shell.js';
import { builtBin } from './support/stale-build.js';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'imprint-walkthrough-'));
let server: ChildProcess | undefined;
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/** The status-poll rule of the walk-through's server, in seconds (the default is 5). */
const POLL_S = 1;

it('the README walk-through uploads, renders the card as png, polls and downloads it', async () => {
  const block = /```sh walkthrough\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1];
  expect(block).toBeDefined();
  const port = await freePort();
  server = spawn(process.execPath, [builtBin(), 'serve'], {
    cwd: dir,
    env: {
      ...process.env,
      IMPRINT_PORT: String(port),
      IMPRINT_DATA_DIR: join(dir, 'data'),
      IMPRINT_LOG_LEVEL: 'warn',
      IMPRINT_WORKER_CONCURRENCY: '1',
      IMPRINT_POLL_INTERVAL_S: String(POLL_S),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    server!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Stop with Ctrl-C')) resolve();
    });
    server!.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  const key = /\n {4}(imp_[A-Za-z0-9_-]+)\n/.exec(out)![1]!;
  expect(out).toMatch(/\n {4}2 +design +card-1080\n/);
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'));
  mkdirSync(join(dir, 'out')); // as in a clone (out/.gitkeep)
  // The walk-through polls every 5 s, the default rule; this server's rule is POLL_S and the loop
  // sleeps that instead, so the loop is still held to the rule (a faster poll would end it with a
  // 429 body) without the test waiting 5 s per poll.
  expect(block).toContain('sleep 5\n');
  const script = block!
    .replace('imp_your_demo_key', key)
    .replaceAll('http://localhost:3000', `http://127.0.0.1:${port}`)
    .replaceAll('sleep 5\n', `sleep ${POLL_S}\n`);
  writeFileSync(join(dir, 'walkthrough.sh'), `set -euo pipefail\n${script}`);
  if (process.env.DEBUG_WALKTHROUGH) console.log(script);
  const run = spawnSync('bash', ['walkthrough.sh'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  expect({ status: run.status, stderr: run.stderr, stdout: run.stdout.slice(0, 500) }).toEqual({ status: 0, stdout: expect.any(String), stderr: '' });
  expect(run.stdout).toMatch(/^\{"id":1,"state":"done","design_id":2,"result_url":"http:\/\/localhost:\d+\/public\/v2\/results\/[0-9a-f]{32}\.png"\}$/m);
  const meta = await sharp(join(dir, 'out', 'card.png')).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1080]);
}, 90_000);

it('the verification snippet of docs/api.md accepts real signatures and refuses forged ones', async () => {
  const code = /```js\n(import \{ createHmac[\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8'))?.[1];
  expect(code).toBeDefined();
  const file = join(dir, 'verify.mjs');
  writeFileSync(file, `${code}\nexport { verify };\n`);
  const { verify } = (await import(pathToFileURL(file).href)) as { verify: (s: string, h: string, b: string) => boolean };
  const body = JSON.stringify({ id: 7, state: 'done', design_id: 2, result_url: 'https://x/r.png' });
  const t = Math.floor(Date.now() / 1000);
  expect(verify('whsec_test', signWebhook('whsec_test', t, body), body)).toBe(true);
  expect(verify('whsec_other', signWebhook('whsec_test', t, body), body)).toBe(false);
  expect(verify('whsec_test', signWebhook('whsec_test', t, body), body.replace('done', 'error'))).toBe(false);
  expect(verify('whsec_test', signWebhook('whsec_test', t - 3600, body), body)).toBe(false);
});

describe('the examples of docs/api.md', () => {
  const blocks = shellBlocks('docs/api.md');
  let session: DocsSession;
  let key: string;
  /** The answer of the block before, for a block that only shows it. */
  let previous: BlockResult | undefined;

  beforeAll(async () => {
    // As the page says: `npm start` in the repository's folder, fresh, printing the demo key.
    session = await DocsSession.open();
    const r = await session.run('npm start');
    expect(r.code, r.stderr).toBe(0);
    key = /\n {4}(imp_[\w-]+)\n/.exec(r.stdout)![1]!;
  }, 120_000);
  afterAll(() => session?.close());

  it('address the service and the key through $IMPRINT_URL and $IMPRINT_API_KEY, set once at the top', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(12);
    const [setup, ...rest] = blocks;
    expect(setup!.body).toMatch(/^export IMPRINT_URL=http:\/\/localhost:3000\b.*\nexport IMPRINT_API_KEY=imp_your_demo_key\b/);
    for (const b of rest) {
      for (const { command } of steps(b.body)) {
        const where = `docs/api.md:${b.line}: ${command}`;
        expect(command, where).not.toMatch(/https?:\/\/|imp_\w|\$KEY\b/);
        if (/\bcurl\b/.test(command)) expect(command, where).toMatch(/"\$IMPRINT_URL\/(public\/v2|api)\/|"\$RESULT_URL\?/);
      }
    }
  });

  it.each(blocks.map((b) => [`docs/api.md:${b.line}`, b] as const))(
    '%s runs and answers as documented',
    async (_, block: ShellBlock) => {
      if (outputOnly(block.body)) {
        // Shown apart from its command: the answer of the last command of the block before.
        const last = previous!.steps.at(-1)!;
        const documented = block.body
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => l.trim().replace(/^#\s?/, ''));
        expect(checkAnswers([{ ...last, step: { ...last.step, documented } }], session.port)).toBe(1);
        return;
      }
      const r = await session.run(block.body, (t) => t.replaceAll('imp_your_demo_key', key), { page: 'docs/api.md' });
      const failed = r.steps.filter((s) => s.stdout !== '' || s.stderr !== '').at(-1);
      expect(r.code, `exit ${r.code} in:\n${failed?.step.command}\n${r.stderr.slice(-3000)}`).toBe(0);
      previous = r;
      const checked = checkAnswers(r.steps, session.port);
      // Every request succeeded, also those whose answer is not shown (an id taken into a variable, a
      // wait for the end of a task); each block of requests shows an answer (or the block after it
      // does), but the download, whose file is checked below.
      const statuses = r.steps.flatMap((s) => s.statuses);
      expect(statuses.filter((st) => st < 200 || st >= 300)).toEqual([]);
      const shownApart = outputOnly(blocks[blocks.indexOf(block) + 1]?.body ?? '');
      if (statuses.length > 0 && !block.body.includes('?download=') && !shownApart) expect(checked, 'documented answers').toBeGreaterThan(0);
      if (block.body.includes('?download=summer-card.png')) {
        const meta = await sharp(join(session.work, 'out', 'summer-card.png')).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1080]);
      }
      if (block.body.includes('-o out/preview.png')) {
        const meta = await sharp(join(session.work, 'out', 'preview.png')).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['png', 540, 540]);
      }
      if (block.info === 'example=design-zip') {
        // The answer is a whole design detail, as GET /designs/{id} gives it.
        const created = DesignDetail.parse(JSON.parse(r.steps.find((s) => s.step.command === 'echo "$DESIGN"')!.stdout));
        expect(created).toMatchObject({ name: 'Summer card', kind: 'design', width: 1080, height: 1080 });
      }
    },
    300_000,
  );

  it('left nothing git would show as untracked', () => {
    expect(session.untracked()).toEqual([]);
  });
});
