// Outbound HTTP that user input can aim (webhooks, the remote files of an imported design): which
// addresses may be reached (SSRF), host resolution pinned to the checked addresses, and a bounded GET.
import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

export const PRIVATE_REFUSAL = 'private, loopback and link-local addresses are not allowed';

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
 * True when `ip` is a globally reachable unicast address an outbound request may reach. False for private,
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
// What may be reached

/** A range of addresses given in the configuration: `127.0.0.1`, `10.0.0.0/8`, `fd00::/8`. */
export interface AddressRange {
  family: 4 | 6;
  /** The address as a 32- or 128-bit number. */
  net: bigint;
  /** Prefix length. */
  bits: number;
}

/**
 * Which addresses that are not public a request may reach: none (false, the default), any (true), or
 * those in the ranges given (tests allow 127.0.0.1 only, a closed network its own range).
 */
export type PrivateAllowance = boolean | readonly AddressRange[];

/** An address as a number of its family; an IPv4-mapped IPv6 address counts as the IPv4 host it reaches. */
function addressValue(ip: string): { family: 4 | 6; value: bigint } | undefined {
  const family = isIP(ip);
  if (family === 4) return { family: 4, value: BigInt(v4ToInt(ip)) };
  if (family !== 6 || ip.includes('%')) return undefined;
  const g = v6Groups(ip);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return { family: 4, value: BigInt((((g[6] ?? 0) << 16) | (g[7] ?? 0)) >>> 0) };
  return { family: 6, value: g.reduce((n, x) => (n << 16n) | BigInt(x), 0n) };
}

/**
 * Ranges from a comma-separated list of addresses and CIDR ranges (`127.0.0.1, 10.0.0.0/8, ::1`).
 * Throws a RangeError that names the entry that is not one.
 */
export function parseAddressRanges(text: string): AddressRange[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const [ip = '', prefix] = entry.split('/');
      const a = addressValue(ip);
      const width = a?.family === 4 ? 32 : 128;
      const bits = prefix === undefined ? width : Number(prefix);
      if (!a || !/^\d*$/.test(prefix ?? '') || !Number.isInteger(bits) || bits < 0 || bits > width) {
        throw new RangeError(`"${entry}" is not an IP address or a CIDR range such as 127.0.0.1 or 10.0.0.0/8`);
      }
      // A mapped IPv6 range (::ffff:127.0.0.0/104) is kept as the IPv4 range it covers.
      const v4bits = a.family === 4 && isIP(ip) === 6 ? bits - 96 : bits;
      if (v4bits < 0) throw new RangeError(`"${entry}" is wider than the IPv4-mapped range ::ffff:0:0/96`);
      return { family: a.family, net: a.value, bits: v4bits };
    });
}

/** True when `ip` is public, or private but allowed by `allowance`. */
export function isAllowedAddress(ip: string, allowance: PrivateAllowance): boolean {
  if (allowance === true || isPublicAddress(ip)) return true;
  if (allowance === false) return false;
  const a = addressValue(ip);
  if (!a) return false;
  const width = a.family === 4 ? 32n : 128n;
  return allowance.some((r) => r.family === a.family && a.value >> (width - BigInt(r.bits)) === r.net >> (width - BigInt(r.bits)));
}

function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/** Host of a parsed URL without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The host of `url` when the URL alone shows it may not be reached: an address literal that is not
 * allowed (the URL parser has already turned decimal, hex and short IPv4 forms such as
 * http://2130706433/ into dotted quads), or a localhost name. Other names are judged by what they
 * resolve to, when the request is made (resolveChecked).
 */
export function refusedHost(url: URL, allowance: PrivateAllowance): { host: string; literal: boolean } | undefined {
  if (allowance === true) return undefined;
  const host = bareHost(url);
  if (isIP(host) !== 0) return isAllowedAddress(host, allowance) ? undefined : { host, literal: true };
  // With a list of allowed ranges, localhost is judged by its addresses like any name.
  if (allowance === false && isLocalhostName(host)) return { host, literal: false };
  return undefined;
}

/** Raised when a host resolves to an address that may not be reached. */
export class PrivateAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}; ${PRIVATE_REFUSAL}`);
    this.name = 'PrivateAddressError';
  }
}

/** The host's addresses (an address literal is its own), resolved once. */
export async function resolveHost(host: string): Promise<LookupAddress[]> {
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

/**
 * The host's addresses, every one of them allowed, or a PrivateAddressError. ANY refused address
 * refuses: picking only the good ones would still let an attacker steer which address a retrying
 * client or a later resolution uses.
 */
export async function resolveChecked(host: string, allowance: PrivateAllowance): Promise<LookupAddress[]> {
  const addresses = await resolveHost(host);
  const bad = allowance === true ? undefined : addresses.find((a) => !isAllowedAddress(a.address, allowance));
  if (bad) throw new PrivateAddressError(host, bad.address);
  return addresses;
}

/** A `lookup` for net/tls that only ever answers with the addresses already checked (no DNS rebinding). */
export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
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

export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // The reason is the abort's Error (a timeout's DOMException, or the caller's); anything else is wrapped.
    const reason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    if (signal.aborted) return reject(reason());
    const onAbort = (): void => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// ---------------------------------------------------------------------------------------------------
// A bounded GET

export type GetFailure = 'url' | 'private' | 'network' | 'status' | 'redirects' | 'timeout' | 'too_large' | 'type';

/** Why a GET gave no file; `message` reads after "could not fetch <url>: ". */
export class OutboundError extends Error {
  constructor(
    readonly reason: GetFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface GetOptions {
  allowance: PrivateAllowance;
  /** The whole fetch: every DNS lookup, connection, redirect and the body. */
  timeoutMs: number;
  /** Largest body; reading stops there. */
  maxBytes: number;
  /** Redirects followed, each through the same checks. */
  maxRedirects: number;
  headers?: Record<string, string>;
  /** Stops the fetch (another file of the same import failed, say); it then fails with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Judges the answer's media type (lower case, no parameters; undefined when the server sent none)
   * before its body is read: a reason to refuse it, or undefined.
   */
  checkType?: (type: string | undefined) => string | undefined;
}

export interface GetResult {
  bytes: Uint8Array;
  /** The answer's media type, as checkType saw it. */
  type: string | undefined;
  /** The URL the file came from, after redirects. */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A size for people: 10 MB, 300 KB, 100 bytes. */
export function byteSize(n: number): string {
  if (n >= 1048576) return `${Math.round((n / 1048576) * 100) / 100} MB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KB`;
  return `${n} bytes`;
}

/** Checks a URL (the one given, or a redirect's target) before anything is sent to it. */
function checkTarget(url: URL, allowance: PrivateAllowance, via: string): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('url', `${via}uses ${url.protocol.replace(/:$/, '')}; only http and https URLs are fetched`);
  }
  if (url.username !== '' || url.password !== '') throw new OutboundError('url', `${via}holds credentials (user:password@), which are never sent`);
  const refused = refusedHost(url, allowance);
  if (refused) throw new OutboundError('private', `${via}points at ${refused.literal ? refused.host : `"${refused.host}"`}: ${PRIVATE_REFUSAL}`);
}

/**
 * GETs `url` and returns its body. The host of the URL and of every redirect is checked by name,
 * resolved once, every address checked, and the connection pinned to those addresses. Throws an
 * OutboundError that says why it failed.
 */
export async function guardedGet(url: string, opts: GetOptions): Promise<GetResult> {
  const controller = new AbortController();
  const timeout = new OutboundError('timeout', `no complete answer within ${opts.timeoutMs} ms (the time limit)`);
  const timer = setTimeout(() => controller.abort(timeout), opts.timeoutMs);
  const signal = controller.signal;
  const stop = (): void => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) stop();
  opts.signal?.addEventListener('abort', stop, { once: true });
  try {
    let current: URL;
    try {
      current = new URL(url);
    } catch {
      throw new OutboundError('url', 'it is not a valid absolute URL');
    }
    for (let hop = 0; ; hop++) {
      const via = hop === 0 ? 'it ' : `it redirects to ${current.href.slice(0, 200)}, which `;
      checkTarget(current, opts.allowance, via);
      let addresses: LookupAddress[];
      try {
        addresses = await untilAborted(resolveChecked(bareHost(current), opts.allowance), signal);
      } catch (e) {
        if (e instanceof PrivateAddressError)
          throw new OutboundError('private', `${via}points at ${e.host}, which resolves to ${e.address}: ${PRIVATE_REFUSAL}`);
        if (e instanceof OutboundError) throw e;
        throw new OutboundError('network', (e as Error).message);
      }
      const answer = await getOnce(current, addresses, opts, signal);
      if ('bytes' in answer) return { ...answer, url: current.href };
      if (hop >= opts.maxRedirects) throw new OutboundError('redirects', `it redirects more than ${opts.maxRedirects} times`);
      try {
        current = new URL(answer.location, current);
      } catch {
        throw new OutboundError('url', `it redirects to "${answer.location.slice(0, 200)}", which is not a valid URL`);
      }
    }
  } catch (e) {
    // Whatever was under way when the time ran out or the caller stopped (a lookup, a read) fails for that reason.
    if (signal.aborted) throw signal.reason;
    throw e;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', stop);
  }
}

function getOnce(
  url: URL,
  addresses: LookupAddress[],
  opts: GetOptions,
  signal: AbortSignal,
): Promise<{ bytes: Uint8Array; type: string | undefined } | { location: string }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, value?: { bytes: Uint8Array; type: string | undefined } | { location: string }): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      req.destroy(); // one-shot connection: nothing more is read
      if (error) reject(error);
      else resolve(value!);
    };
    const get = url.protocol === 'https:' ? https.get : http.get;
    // agent: false — a fresh connection per request, so a pooled socket can never bypass the pinned lookup.
    const req = get(url, { headers: opts.headers ?? {}, agent: false, lookup: pinnedLookup(addresses) }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) return finish(undefined, { location });
      if (status < 200 || status >= 300) {
        return finish(new OutboundError('status', `the server answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`, status));
      }
      const type = res.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
      const wrong = opts.checkType?.(type);
      if (wrong) return finish(new OutboundError('type', wrong));
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        return finish(new OutboundError('too_large', `it is ${byteSize(declared)}, more than the limit of ${byteSize(opts.maxBytes)}`));
      }
      const chunks: Buffer[] = [];
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > opts.maxBytes) finish(new OutboundError('too_large', `it is larger than the limit of ${byteSize(opts.maxBytes)} (reading stopped there)`));
        else chunks.push(chunk);
      });
      res.on('end', () => finish(undefined, { bytes: new Uint8Array(Buffer.concat(chunks)), type }));
      res.on('error', (e) => finish(new OutboundError('network', `the answer broke off (${describe(e)})`)));
      res.on('close', () => finish(new OutboundError('network', 'the connection closed before the whole file arrived')));
    });
    const onAbort = (): void => finish(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => finish(new OutboundError('network', describe(e))));
  });
}

function describe(e: Error): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'the connection was refused (ECONNREFUSED)';
  if (code === 'ECONNRESET') return 'the connection was reset (ECONNRESET)';
  return e.message || code || e.name;
}
