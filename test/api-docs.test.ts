// The README's curl walk-through of interface A, run as a user would against `imprint serve`, and the
// webhook verification snippet of docs/api.md run against real signatures.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, expect, it } from 'vitest';
import { signWebhook } from '../src/service/webhooks.js';
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
