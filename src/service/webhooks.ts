// Interface A webhooks: checks a webhook_url when a render is requested, signs and sends the one POST
// made when a task ends, and refuses to call private/loopback/link-local targets (SSRF) unless configured.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { validationError } from '../errors.js';
import { bareHost, PRIVATE_REFUSAL, pinnedLookup, PrivateAddressError, refusedHost, resolveChecked, untilAborted } from './outbound.js';

const URL_PATH = '$.webhook_url';
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;
/** Response bodies are never used; reading stops here so a chatty receiver cannot hold the worker. */
const MAX_RESPONSE_BYTES = 64 * 1024;

// ---------------------------------------------------------------------------------------------------
// Request-time check

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
  const refused = refusedHost(parsed, allowPrivate);
  if (refused) {
    const shown = refused.literal ? refused.host : `"${refused.host}"`;
    throw validationError(
      URL_PATH,
      `webhook_url points at ${shown}: ${PRIVATE_REFUSAL}; use a publicly reachable ${refused.literal ? 'address' : 'host name'}`,
    );
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
    let addresses: LookupAddress[];
    try {
      addresses = await untilAborted(resolveChecked(host, opts.allowPrivate), controller.signal);
    } catch (e) {
      if (e instanceof PrivateAddressError)
        return { delivered: false, error: `refused to call ${host}: it resolves to ${e.address}; ${PRIVATE_REFUSAL}`, ms: elapsed() };
      throw e;
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
