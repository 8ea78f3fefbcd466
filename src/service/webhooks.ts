// Interface A webhooks: checks a webhook_url when a render is requested, signs and sends the one POST
// made when a task ends, and refuses to call private/loopback/link-local targets (SSRF) unless configured.
import { createHmac, timingSafeEqual } from 'node:crypto';
import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { validationError } from '../errors.js';

const URL_PATH = '$.webhook_url';
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;
/** Response bodies are never used; reading stops here so a chatty receiver cannot hold the worker. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const PRIVATE_REFUSAL = 'private, loopback and link-local addresses are not allowed';

// ---------------------------------------------------------------------------------------------------
// Address classification

/** IPv4 ranges that are not globally reachable (RFC 6890 / IANA special-purpose registry), as [base, prefix]. */
const V4_NON_PUBLIC: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", incl. 0.0.0.0 which Linux connects to loopback
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT shared space: internal to the carrier, often to the cloud provider
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
];

function v4ToInt(ip: string): number {
  const parts = ip.split('.').map(Number);
  return (((parts[0] ?? 0) << 24) | ((parts[1] ?? 0) << 16) | ((parts[2] ?? 0) << 8) | (parts[3] ?? 0)) >>> 0;
}

const V4_RANGES = V4_NON_PUBLIC.map(([base, bits]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { net: (v4ToInt(base) & mask) >>> 0, mask };
});

function isPublicV4Int(n: number): boolean {
  return !V4_RANGES.some((r) => (n & r.mask) >>> 0 === r.net);
}

/** The eight 16-bit groups of a valid IPv6 address (already checked by net.isIP), dotted-quad tail included. */
function v6Groups(ip: string): number[] {
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const n = v4ToInt(tail);
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = parse(halves[0] ?? '');
  const right = halves.length > 1 ? parse(halves[1] ?? '') : [];
  return [...left, ...new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0), ...right];
}

/**
 * True when `ip` is a globally reachable unicast address a webhook may be sent to. False for private,
 * loopback, link-local, unspecified, CGNAT, multicast, reserved and documentation ranges, ULA
 * (fc00::/7), and IPv6 forms that embed such an IPv4 address (::ffff:127.0.0.1, NAT64, 6to4).
 * Anything that is not an IP address (a hostname, "[::1]", an address with a zone id) is false too.
 */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return isPublicV4Int(v4ToInt(ip));
  if (family !== 6 || ip.includes('%')) return false; // a zone id means a link-scoped address
  const g = v6Groups(ip);
  const at = (i: number): number => g[i] ?? 0;
  const embeddedV4 = ((at(6) << 16) | at(7)) >>> 0;
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  // IPv4-mapped ::ffff:a.b.c.d reaches the IPv4 host; judge it as that host.
  if (zeros(0, 5) && at(5) === 0xffff) return isPublicV4Int(embeddedV4);
  // ::/96 (unspecified, loopback, deprecated IPv4-compatible) and ::ffff:0:0:0/96 (SIIT) are never public.
  if (zeros(0, 6) || (zeros(0, 4) && at(4) === 0xffff && at(5) === 0)) return false;
  // NAT64 well-known prefix 64:ff9b::/96 reaches the embedded IPv4 host.
  if (at(0) === 0x64 && at(1) === 0xff9b && zeros(2, 6)) return isPublicV4Int(embeddedV4);
  // 6to4 2002::/16 embeds an IPv4 address in groups 1–2.
  if (at(0) === 0x2002) return isPublicV4Int(((at(1) << 16) | at(2)) >>> 0);
  // Only 2000::/3 is allocated global unicast; this excludes fc00::/7, fe80::/10, fec0::/10, ff00::/8,
  // 64:ff9b:1::/48, 100::/64 and every other reserved block in one rule.
  if ((at(0) & 0xe000) !== 0x2000) return false;
  if (at(0) === 0x2001 && at(1) < 0x0200) return false; // 2001::/23 IETF assignments, incl. Teredo
  if (at(0) === 0x2001 && at(1) === 0x0db8) return false; // documentation
  if (at(0) === 0x3fff && at(1) < 0x1000) return false; // documentation 3fff::/20
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Request-time check

function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/** Host of a parsed URL without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks a webhook_url given in a render request and returns it normalised (WHATWG serialisation, no
 * fragment). Throws a validation_error at `$.webhook_url` otherwise. Hostnames are only checked by name
 * here; what they resolve to is checked again when the webhook is sent, because DNS can change.
 */
export function checkWebhookUrl(url: unknown, allowPrivate: boolean): string {
  if (typeof url !== 'string') {
    throw validationError(
      URL_PATH,
      `Expected webhook_url to be a string with an absolute http(s) URL such as "https://example.com/hooks/imprint" but received ${url === null ? 'null' : typeof url}`,
    );
  }
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    throw validationError(URL_PATH, `webhook_url is ${url.length} characters long; use a URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationError(URL_PATH, `webhook_url is not a valid absolute URL; give one such as "https://example.com/hooks/imprint"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw validationError(
      URL_PATH,
      `webhook_url must use http or https, not "${parsed.protocol.replace(/:$/, '')}"; give a URL such as "https://example.com/hooks/imprint"`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw validationError(
      URL_PATH,
      'webhook_url must not contain credentials (user:password@); remove them and verify requests with the X-Imprint-Signature header instead',
    );
  }
  if (!allowPrivate) {
    // The URL parser has already turned decimal, hex and short IPv4 forms (http://2130706433/) into
    // dotted quads, so obfuscated literals are caught here too.
    const host = bareHost(parsed);
    if (isIP(host) !== 0 && !isPublicAddress(host)) {
      throw validationError(URL_PATH, `webhook_url points at ${host}: ${PRIVATE_REFUSAL}; use a publicly reachable address`);
    }
    if (isLocalhostName(host)) {
      throw validationError(URL_PATH, `webhook_url points at "${host}": ${PRIVATE_REFUSAL}; use a publicly reachable host name`);
    }
  }
  parsed.hash = ''; // never sent over HTTP; dropping it keeps the stored URL canonical
  return parsed.href;
}

// ---------------------------------------------------------------------------------------------------
// Signature

/**
 * The value of the `X-Imprint-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256>` where the MAC
 * is computed with the account's webhook secret over `<unix seconds>.<raw request body>`. Binding the
 * timestamp into the MAC lets receivers reject replays of old deliveries.
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`Expected the webhook timestamp in whole unix seconds but received ${timestamp}`);
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

function hmacHex(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export interface VerifyWebhookOptions {
  /** How far the signed timestamp may be from now, in either direction. Default 300 seconds. */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch; default Date.now. */
  now?: () => number;
}

/**
 * For receivers: true when `header` (the `X-Imprint-Signature` value) was made with `secret` over this
 * exact raw `body` and its timestamp is within the tolerance. Verify the raw bytes as received, before
 * any JSON parsing. Several `v1=` entries are accepted (any may match), so secrets can be rotated.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | string[] | undefined,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): boolean {
  const { toleranceSeconds = 300, now = Date.now } = options;
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  if (typeof value !== 'string' || value.length > 1024) return false;
  let timestamp: number | undefined;
  const macs: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return false;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(val)) return false;
      timestamp = Number(val);
    } else if (key === 'v1') {
      if (/^[0-9a-f]{64}$/i.test(val)) macs.push(val.toLowerCase());
    }
    // Unknown keys are ignored so a later scheme (v2=…) can be added beside v1.
  }
  if (timestamp === undefined || macs.length === 0) return false;
  if (!(Math.abs(now() / 1000 - timestamp) <= toleranceSeconds)) return false;
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  let ok = false;
  for (const mac of macs) ok = timingSafeEqual(expected, Buffer.from(mac, 'hex')) || ok; // check all; no early exit
  return ok;
}

// ---------------------------------------------------------------------------------------------------
// Delivery

export interface SendWebhookOptions {
  url: string;
  /** Serialised with JSON.stringify; this exact text is signed and sent. */
  body: unknown;
  /** The account's webhook secret. */
  secret: string;
  /** Whole request: DNS, connect, TLS, response. Default 5000. */
  timeoutMs?: number;
  /** IMPRINT_WEBHOOK_ALLOW_PRIVATE: let webhooks reach private, loopback and link-local addresses. */
  allowPrivate: boolean;
  /** Milliseconds since the epoch for the signature timestamp; default Date.now. */
  now?: () => number;
}

export interface WebhookDelivery {
  /** The receiver answered 2xx. */
  delivered: boolean;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** Why it was not delivered, readable in a log line. */
  error?: string;
  /** Wall time spent. */
  ms: number;
}

class WebhookTimeout extends Error {}

/**
 * Sends one signed POST and reports what happened. Never throws and never retries (spec: sent once).
 * The hostname is resolved here, every address is checked, and the connection is pinned to the checked
 * addresses so a DNS answer that changes between check and connect (rebinding) cannot redirect it.
 */
export async function sendWebhook(opts: SendWebhookOptions): Promise<WebhookDelivery> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0))
    return { delivered: false, error: `timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`, ms: 0 };
  const controller = new AbortController();
  // One deadline for everything (DNS, connect, TLS, answer): a slow receiver must not hold a worker.
  const timer = setTimeout(() => controller.abort(new WebhookTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
  try {
    const url = new URL(checkWebhookUrl(opts.url, opts.allowPrivate));
    const payload = JSON.stringify(opts.body) as string | undefined;
    if (payload === undefined) return { delivered: false, error: 'webhook body cannot be serialised to JSON', ms: elapsed() };
    const host = bareHost(url);
    const addresses = await untilAborted(resolveHost(host), controller.signal);
    if (!opts.allowPrivate) {
      const bad = addresses.find((a) => !isPublicAddress(a.address));
      // ANY bad address refuses: picking only the good ones would still let an attacker steer which
      // address a retrying client or a later resolution uses.
      if (bad) return { delivered: false, error: `refused to call ${host}: it resolves to ${bad.address}; ${PRIVATE_REFUSAL}`, ms: elapsed() };
    }
    const timestamp = Math.floor((opts.now ?? Date.now)() / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(payload)),
      'User-Agent': 'Imprint-Webhook/1',
      'X-Imprint-Event': 'task.finished',
      'X-Imprint-Signature': signWebhook(opts.secret, timestamp, payload),
    };
    const answer = await post(url, addresses, headers, payload, controller.signal);
    return { ...answer, ms: elapsed() };
  } catch (e) {
    return { delivered: false, error: describeError(e, controller.signal), ms: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

async function resolveHost(host: string): Promise<LookupAddress[]> {
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family }];
  let found: LookupAddress[];
  try {
    found = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`could not resolve ${host}${code ? ` (${code})` : ''}`, { cause: e });
  }
  if (found.length === 0) throw new Error(`could not resolve ${host} (no addresses)`);
  return found;
}

/** A `lookup` for net/tls that only ever answers with the addresses already checked. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    // With autoSelectFamily (the default since Node 20) net asks for all addresses and races them.
    if (options.all) callback(null, addresses);
    else {
      const first = addresses[0];
      if (first) callback(null, first.address, first.family);
      else callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 0);
    }
  };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // The reason is the abort's Error (a timeout's DOMException, or the caller's); anything else is wrapped.
    const reason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    if (signal.aborted) return reject(reason());
    const onAbort = (): void => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function post(
  url: URL,
  addresses: LookupAddress[],
  headers: Record<string, string>,
  payload: string,
  signal: AbortSignal,
): Promise<Omit<WebhookDelivery, 'ms'>> {
  return new Promise((resolve) => {
    let status: number | undefined;
    let settled = false;
    const outcome = (error?: string): Omit<WebhookDelivery, 'ms'> => {
      if (status === undefined) return { delivered: false, error: error ?? 'no response' };
      if (status >= 200 && status < 300) return { delivered: true, status };
      if (status >= 300 && status < 400)
        return { delivered: false, status, error: `receiver answered ${status}, a redirect; redirects are not followed, so configure the final URL` };
      return { delivered: false, status, error: `receiver answered ${status}` };
    };
    const settle = (error?: string): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      req.destroy(); // one-shot connection: nothing more is read or written
      resolve(outcome(error));
    };
    const send = url.protocol === 'https:' ? https.request : http.request;
    // agent: false — a fresh connection per webhook, so a pooled socket can never bypass the pinned lookup.
    const req = send(url, { method: 'POST', headers, agent: false, lookup: pinnedLookup(addresses) }, (res) => {
      status = res.statusCode;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) settle();
      });
      res.on('end', () => settle());
      res.on('error', () => settle());
      res.on('close', () => settle());
    });
    const onAbort = (): void => settle(describeError(signal.reason, signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => settle(describeError(e, signal)));
    req.end(payload);
  });
}

function describeError(e: unknown, signal: AbortSignal): string {
  if (signal.aborted && signal.reason instanceof WebhookTimeout) return signal.reason.message;
  if (e instanceof Error) return e.message || String((e as NodeJS.ErrnoException).code ?? e.name);
  return String(e);
}
