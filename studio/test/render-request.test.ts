// The render requests the panel shows: interface A and B bodies built from the overrides, and the
// curl command, run for real by bash and curl against a local server to check that it sends exactly
// that request with the key from $IMPRINT_API_KEY (and never contains the key itself).
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand, demoParameters, renderRequestA, renderRequestB, requestJson, shellQuote } from '../src/lib/render-request.js';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  type: string | undefined;
  body: string;
}

let server: Server;
let origin: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, type: req.headers['content-type'], body });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"task_id":1}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function runInBash(command: string, key: string, extra = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', `${command}${extra}`], { env: { PATH: process.env.PATH, IMPRINT_API_KEY: key } }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe('render requests', () => {
  const overrides = { headline: { text: `It's <substyle bold="700">"here"</substyle> $HOME \\ \`date\`` }, photo: { x: 10 } };

  it('builds interface A with only the fields set, and B with its parameters and overrides list', () => {
    expect(renderRequestA('https://h', 7, 'png', {})).toEqual({
      interface: 'A',
      method: 'POST',
      url: 'https://h/public/v2/render',
      body: { design_id: 7, format: 'png' },
    });
    expect(renderRequestA('https://h', 7, 'jpg', overrides).body).toEqual({ design_id: 7, format: 'jpg', objects_overrides: overrides });
    const b = renderRequestB(
      'https://h',
      9,
      { fps: 60, sizeType: 'hd', demo: false },
      { title: { text: 'Hi' } },
      { intro: { path: 'https://h/public/v2/uploads/a.jpg' } },
    );
    expect(b.url).toBe('https://h/api/videos/9/render?v=1.0');
    expect(b.body).toEqual({
      parameters: { fps: 60, size_type: 'hd', demo: false },
      overrides: [
        { name: 'title', object: { text: 'Hi' } },
        { name: 'intro', slide: { path: 'https://h/public/v2/uploads/a.jpg' } },
      ],
    });
    expect(JSON.parse(requestJson(b))).toEqual(b.body);
  });

  it('sends demo renders as sd at 30 fps, the only mode the free tier has', () => {
    expect(demoParameters({ fps: 60, sizeType: 'hd', demo: true })).toEqual({ fps: 30, sizeType: 'sd', demo: true });
    expect(demoParameters({ fps: 60, sizeType: 'hd', demo: false })).toEqual({ fps: 60, sizeType: 'hd', demo: false });
  });

  it('quotes any text as one shell word', async () => {
    const hostile = `a'b"c $X \`y\` \\ \n end`;
    expect(await runInBash(`printf %s ${shellQuote(hostile)}`, '')).toBe(hostile);
  });

  it('gives a curl command that sends exactly the request, with the key from $IMPRINT_API_KEY', async () => {
    const key = 'imp_test_secret_123';
    for (const req of [
      renderRequestA(origin, 3, 'png', overrides),
      renderRequestB(origin, 4, { fps: 30, sizeType: 'sd', demo: true }, overrides, { intro: { path: `${origin}/public/v2/uploads/x'y.png` } }),
    ]) {
      const command = curlCommand(req);
      expect(command).not.toContain(key);
      expect(command).toContain('$IMPRINT_API_KEY');
      seen.length = 0;
      await runInBash(command, key, ' --silent --show-error');
      expect(seen).toHaveLength(1);
      const got = seen[0]!;
      expect(got.method).toBe('POST');
      expect(origin + got.url).toBe(req.url);
      expect(got.auth).toBe(`Bearer ${key}`);
      expect(got.type).toBe('application/json');
      expect(JSON.parse(got.body)).toEqual(req.body);
    }
  });
});
