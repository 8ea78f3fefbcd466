// API keys and webhook secrets: random, shown once; only a sha256 of a key is stored. Keys carry
// 192 random bits, so a plain hash is enough (no password stretching needed) and lookups stay O(1).
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'imp_';

export function newApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What is stored to tell keys apart: the prefix and the first 6 characters after it. */
export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

export function newWebhookSecret(): string {
  return 'whsec_' + randomBytes(24).toString('base64url');
}

/** Unguessable ids in upload and result URLs. */
export function newToken(): string {
  return randomBytes(16).toString('hex');
}
