// Webhooks against a real HTTP receiver on 127.0.0.1: signed delivery, failures that never throw, no
// redirects, the timeout, and the refusal of private/loopback/link-local targets (SSRF).
import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isImprintError } from '../src/errors.js';
import { isPublicAddress } from '../src/service/outbound.js';
import { checkWebhookUrl, sendWebhook, signWebhook, verifyWebhookSignature } from '../src/service/webhooks.js';
import { waitUntil } from './support/wait.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const SECRET = 'whsec_test_secret';
const received: Received[] = [];
let server: http.Server;
let port: number;
let base: string;
let streamClosed = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/ok') res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      else if (req.url === '/fail') res.writeHead(500).end('boom');
      else if (req.url === '/redirect') res.writeHead(302, { location: `${base}/redirected` }).end();
      else if (req.url === '/redirected') res.writeHead(200).end('followed');
      else if (req.url === '/big')
        res.writeHead(200).end(Buffer.alloc(1024 * 1024, 120)); // 1 MB, beyond the 64 KB cap
      else if (req.url === '/hang')
        return; // never answers
      else if (req.url === '/stream') {
        // Answers 200 at once, then sends body chunks forever, until the client hangs up.
        res.writeHead(200);
        const tick = setInterval(() => res.write(Buffer.alloc(8192, 120)), 5);
        res.on('close', () => {
          clearInterval(tick);
          streamClosed = true;
        });
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections(); // the /hang requests are still open
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const task = { id: 'tsk_42', state: 'done', design_id: 'dsg_7', result_url: 'https://cdn.example.com/r/abc.png', note: 'naïve ✓' };

describe('sendWebhook delivery (allowPrivate=true)', () => {
  it('POSTs the exact JSON body with the documented headers and a verifiable signature', async () => {
    const nowMs = 1_700_000_000_123;
    const r = await sendWebhook({ url: `${base}/ok`, body: task, secret: SECRET, allowPrivate: true, now: () => nowMs });
    expect(r).toMatchObject({ delivered: true, status: 200 });
    expect(r.error).toBeUndefined();
    expect(r.ms).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/ok');
    expect(got.body).toBe(JSON.stringify(task));
    expect(JSON.parse(got.body)).toEqual(task);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(got.body)));
    expect(got.headers['user-agent']).toBe('Imprint-Webhook/1');
    expect(got.headers['x-imprint-event']).toBe('task.finished');

    const sig = got.headers['x-imprint-signature'];
    expect(typeof sig).toBe('string');
    // Hand computation of the documented scheme: t=<unix s>,v1=hex(HMAC-SHA256(secret, "<t>.<body>")).
    const t = Math.floor(nowMs / 1000);
    const mac = createHmac('sha256', SECRET).update(`${t}.${got.body}`, 'utf8').digest('hex');
    expect(sig).toBe(`t=${t},v1=${mac}`);
    expect(signWebhook(SECRET, t, got.body)).toBe(sig);

    expect(verifyWebhookSignature(SECRET, sig, got.body, { now: () => nowMs })).toBe(true);
    expect(verifyWebhookSignature(SECRET, sig, Buffer.from(got.body, 'utf8'), { now: () => nowMs })).toBe(true);
  });

  it('signs with the real clock when no clock is given', async () => {
    const r = await sendWebhook({ url: `${base}/ok`, body: task, secret: SECRET, allowPrivate: true });
    expect(r.delivered).toBe(true);
    const got = received[0]!;
    expect(verifyWebhookSignature(SECRET, got.headers['x-imprint-signature'], got.body)).toBe(true);
  });

  it('reports a 500 answer as not delivered, with the status', async () => {
    const r = await sendWebhook({ url: `${base}/fail`, body: task, secret: SECRET, allowPrivate: true });
    expect(r.delivered).toBe(false);
    expect(r.status).toBe(500);
    expect(r.error).toMatch(/500/);
    expect(received).toHaveLength(1);
  });

  it('does not follow a redirect', async () => {
    const requests = vi.spyOn(http, 'request');
    const r = await sendWebhook({ url: `${base}/redirect`, body: task, secret: SECRET, allowPrivate: true });
    expect(r.delivered).toBe(false);
    expect(r.status).toBe(302);
    expect(r.error).toMatch(/redirect/i);
    // No waiting for a follow-up that should not come: the client made one request (a follow, awaited
    // or not, would be a second call by the time the answer was handled), and the server records a
    // request before it answers, so any request the client awaited is already in `received`.
    expect(requests).toHaveBeenCalledTimes(1);
    expect(received.map((x) => x.url)).toEqual(['/redirect']);
  });

  // The clock is vitest's (setTimeout and performance.now faked): the timeout is checked to the
  // millisecond, and a busy machine cannot make the test late.
  it('gives up at the timeout, not before, when the receiver never answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      let settled = false;
      const sending = sendWebhook({ url: `${base}/hang`, body: task, secret: SECRET, allowPrivate: true, timeoutMs: 300 }).finally(() => {
        settled = true;
      });
      // Until the receiver has the request (setImmediate is not faked; vi.waitFor would move the fake clock).
      while (received.length === 0) await new Promise((r) => setImmediate(r));
      expect(received.map((x) => x.url)).toEqual(['/hang']);
      await vi.advanceTimersByTimeAsync(299);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const r = await sending;
      expect(r).toEqual({ delivered: false, error: 'timed out after 300 ms', ms: 300 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops reading a large answer and still counts the 2xx', async () => {
    const r = await sendWebhook({ url: `${base}/big`, body: task, secret: SECRET, allowPrivate: true });
    expect(r).toMatchObject({ delivered: true, status: 200 });
  });

  it('stops reading an endless answer at the cap instead of waiting for the timeout', async () => {
    streamClosed = false;
    // With setTimeout faked the timeout never fires (the receiver's setInterval is real): the answer
    // can only end at the cap.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let r: Awaited<ReturnType<typeof sendWebhook>>;
    try {
      r = await sendWebhook({ url: `${base}/stream`, body: task, secret: SECRET, allowPrivate: true, timeoutMs: 5000 });
    } finally {
      vi.useRealTimers();
    }
    expect(r).toMatchObject({ delivered: true, status: 200 });
    expect(r.error).toBeUndefined();
    // The client hung up: the server sees the close (an endless stream never ends by itself).
    await waitUntil('the receiver to see the client hang up', () => streamClosed, 5000);
  });

  it('reports a dead port as not delivered without throwing', async () => {
    const dead = http.createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadPort = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const r = await sendWebhook({ url: `http://127.0.0.1:${deadPort}/ok`, body: task, secret: SECRET, allowPrivate: true, timeoutMs: 2000 });
    expect(r.delivered).toBe(false);
    expect(r.status).toBeUndefined();
    expect(r.error).toMatch(/ECONNREFUSED/);
  });

  it('never throws, whatever it is given', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const cases = [
      { url: 'not a url', body: task },
      { url: 'ftp://example.com/x', body: task },
      { url: `${base}/ok`, body: cyclic },
      { url: `${base}/ok`, body: undefined },
      { url: `${base}/ok`, body: 10n },
    ];
    for (const c of cases) {
      const r = await sendWebhook({ ...c, secret: SECRET, allowPrivate: true });
      expect(r.delivered, c.url).toBe(false);
      expect(typeof r.error).toBe('string');
    }
    const r = await sendWebhook({ url: `${base}/ok`, body: task, secret: SECRET, allowPrivate: true, timeoutMs: -1 });
    expect(r.delivered).toBe(false);
    expect(received).toHaveLength(0);
  });

  it('connects to the address it resolved and checked (pinned), not to a second lookup', async () => {
    const lookup = vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    // .test never resolves in real DNS, so reaching the receiver proves the pinned address was used.
    const r = await sendWebhook({ url: `http://hooks.imprint.test:${port}/ok`, body: task, secret: SECRET, allowPrivate: true });
    expect(r).toMatchObject({ delivered: true, status: 200 });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(received[0]?.headers.host).toBe(`hooks.imprint.test:${port}`);
  });

  it('reports a name that does not resolve', async () => {
    vi.spyOn(dns.promises, 'lookup').mockRejectedValue(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    const r = await sendWebhook({ url: 'https://nowhere.imprint.test/hook', body: task, secret: SECRET, allowPrivate: true });
    expect(r.delivered).toBe(false);
    expect(r.error).toMatch(/could not resolve nowhere\.imprint\.test.*ENOTFOUND/);
  });
});

describe('verifyWebhookSignature', () => {
  const body = JSON.stringify(task);
  const t = 1_700_000_000;
  const header = signWebhook(SECRET, t, body);
  const at = (seconds: number) => ({ now: () => seconds * 1000 });

  it('accepts the signature within the tolerance, either side', () => {
    expect(verifyWebhookSignature(SECRET, header, body, at(t))).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, body, at(t + 299))).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, body, at(t - 299))).toBe(true);
    expect(verifyWebhookSignature(SECRET, [header], body, at(t))).toBe(true);
  });

  it('rejects a tampered body, a wrong secret and a stale or future timestamp', () => {
    expect(verifyWebhookSignature(SECRET, header, body.replace('done', 'error'), at(t))).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, body + ' ', at(t))).toBe(false);
    expect(verifyWebhookSignature('whsec_other', header, body, at(t))).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, body, at(t + 301))).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, body, at(t - 301))).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, body, { ...at(t + 3600), toleranceSeconds: 3600 })).toBe(true);
    // An old signature with its timestamp rewritten to now does not verify: the timestamp is signed.
    const mac = header.split('v1=')[1];
    expect(verifyWebhookSignature(SECRET, `t=${t + 1000},v1=${mac}`, body, at(t + 1000))).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no mac', `t=${t}`],
    ['short mac', `t=${t},v1=abc`],
    ['non-numeric timestamp', `t=abc,v1=${'a'.repeat(64)}`],
    ['two headers', ['t=1,v1=x', 't=2,v1=y']],
  ])('rejects a malformed header (%s)', (_name, h) => {
    expect(verifyWebhookSignature(SECRET, h, body, at(t))).toBe(false);
  });

  it('accepts any matching v1 entry (secret rotation) and ignores unknown schemes', () => {
    const mac = header.split('v1=')[1];
    expect(verifyWebhookSignature(SECRET, `t=${t},v1=${'0'.repeat(64)},v1=${mac},v9=zzz`, body, at(t))).toBe(true);
  });

  it('refuses a timestamp that is not whole unix seconds when signing', () => {
    expect(() => signWebhook(SECRET, 1.5, body)).toThrow(RangeError);
  });
});

describe('refusing private targets (allowPrivate=false)', () => {
  const refused = () => [
    `http://127.0.0.1:${port}/ok`,
    `http://localhost:${port}/ok`,
    `http://LOCALHOST.:${port}/ok`,
    `http://hooks.localhost:${port}/ok`,
    'http://169.254.169.254/latest/meta-data/',
    `http://[::1]:${port}/ok`,
    'http://10.1.2.3/hook',
    'http://192.168.1.10/hook',
    'http://100.64.0.1/hook',
    `http://[::ffff:127.0.0.1]:${port}/ok`,
    `http://2130706433:${port}/ok`, // 127.0.0.1 in decimal
    `http://0x7f.1:${port}/ok`, // 127.0.0.1 in short hex
    'http://0.0.0.0/hook',
    'http://[::]/hook',
    'http://[fd00:ec2::254]/latest', // AWS metadata over IPv6 (ULA)
    'http://[fe80::1]/hook',
  ];

  it('checkWebhookUrl throws validation_error at $.webhook_url', () => {
    for (const url of refused()) {
      let thrown: unknown;
      try {
        checkWebhookUrl(url, false);
      } catch (e) {
        thrown = e;
      }
      expect(isImprintError(thrown), url).toBe(true);
      if (!isImprintError(thrown)) continue;
      expect(thrown.code).toBe('validation_error');
      expect(thrown.status).toBe(400);
      expect(thrown.path).toBe('$.webhook_url');
      expect(thrown.message).toMatch(/private, loopback and link-local addresses are not allowed/);
    }
  });

  it('sendWebhook refuses them and never connects', async () => {
    for (const url of refused()) {
      const r = await sendWebhook({ url, body: task, secret: SECRET, allowPrivate: false, timeoutMs: 2000 });
      expect(r.delivered, url).toBe(false);
      expect(r.status).toBeUndefined();
      expect(r.error, url).toMatch(/private, loopback and link-local addresses are not allowed/);
    }
    expect(received).toHaveLength(0);
  });

  it('sendWebhook refuses a public-looking name that resolves to a private address (checked at send time)', async () => {
    const lookup = vi.spyOn(dns.promises, 'lookup');
    lookup.mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    expect(checkWebhookUrl(`http://hooks.imprint.test:${port}/ok`, false)).toBe(`http://hooks.imprint.test:${port}/ok`);
    let r = await sendWebhook({ url: `http://hooks.imprint.test:${port}/ok`, body: task, secret: SECRET, allowPrivate: false });
    expect(r.delivered).toBe(false);
    expect(r.error).toMatch(/resolves to 127\.0\.0\.1.*private, loopback and link-local/);
    // One good address does not launder a bad one.
    lookup.mockResolvedValue([
      { address: '8.8.8.8', family: 4 },
      { address: '::ffff:127.0.0.1', family: 6 },
    ] as never);
    r = await sendWebhook({ url: `http://hooks.imprint.test:${port}/ok`, body: task, secret: SECRET, allowPrivate: false });
    expect(r.delivered).toBe(false);
    expect(r.error).toMatch(/resolves to ::ffff:127\.0\.0\.1/);
    expect(received).toHaveLength(0);
  });

  it('the same URLs are accepted when private targets are allowed', () => {
    for (const url of refused()) expect(() => checkWebhookUrl(url, true), url).not.toThrow();
  });
});

describe('checkWebhookUrl', () => {
  it('returns the normalised URL', () => {
    expect(checkWebhookUrl('HTTPS://Example.COM/hooks/a?x=1#frag', false)).toBe('https://example.com/hooks/a?x=1');
    expect(checkWebhookUrl('http://8.8.8.8:8080/h', false)).toBe('http://8.8.8.8:8080/h');
    expect(checkWebhookUrl('https://[2606:4700::1111]/h', false)).toBe('https://[2606:4700::1111]/h');
  });

  it.each([
    ['not a string', 42, /must be a string|Expected webhook_url to be a string/],
    ['null', null, /string/],
    ['too long', `https://example.com/${'a'.repeat(2048)}`, /at most 2048/],
    ['not a URL', 'example.com/hook', /not a valid absolute URL/],
    ['ftp', 'ftp://example.com/hook', /must use http or https/],
    ['javascript', 'javascript:alert(1)', /must use http or https/],
    ['file', 'file:///etc/passwd', /must use http or https/],
    ['credentials', 'https://user:pw@example.com/hook', /must not contain credentials/],
    ['user only', 'https://user@example.com/hook', /must not contain credentials/],
  ])('rejects %s with a how-to-fix message', (_name, url, message) => {
    let thrown: unknown;
    try {
      checkWebhookUrl(url, true);
    } catch (e) {
      thrown = e;
    }
    expect(isImprintError(thrown)).toBe(true);
    if (!isImprintError(thrown)) return;
    expect(thrown.code).toBe('validation_error');
    expect(thrown.path).toBe('$.webhook_url');
    expect(thrown.message).toMatch(message);
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['93.184.216.34', true],
    ['11.0.0.1', true],
    ['172.15.255.255', true],
    ['172.32.0.1', true],
    ['100.63.255.255', true],
    ['100.128.0.1', true],
    ['192.169.0.1', true],
    ['223.255.255.254', true],
    ['2606:4700::1111', true],
    ['2001:4860:4860::8888', true],
    ['2a00:1450:4001:80b::200e', true],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::808:808', true],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['10.0.0.1', false],
    ['10.255.255.255', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.0.1', false],
    ['169.254.169.254', false],
    ['169.254.0.1', false],
    ['100.64.0.1', false],
    ['100.127.255.255', false],
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    ['224.0.0.1', false],
    ['239.255.255.250', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    ['192.0.2.1', false],
    ['198.18.0.1', false],
    ['203.0.113.9', false],
    ['::', false],
    ['::1', false],
    ['0:0:0:0:0:0:0:1', false],
    ['fe80::1', false],
    ['FE80::abcd', false],
    ['fe80::1%eth0', false],
    ['fec0::1', false],
    ['fc00::1', false],
    ['fd00:ec2::254', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:0.0.0.0', false],
    ['::127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['2002:7f00:1::1', false],
    ['2002:a00:1::1', false],
    ['2001:db8::1', false],
    ['2001::1', false],
    ['100::1', false],
    ['not-an-ip', false],
    ['', false],
    ['[::1]', false],
    ['127.1', false],
    ['0177.0.0.1', false],
    ['localhost', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});
