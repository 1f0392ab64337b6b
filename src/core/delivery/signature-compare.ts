// The one place a received signature meets the expected one: HMACs computed here are compared in constant time
// (timingSafeEqual) and never leave this file, so no message, finding or report can carry them.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type HmacAlgorithm = 'sha1' | 'sha256' | 'sha512';

/** Whether `received` is the HMAC of `parts` (joined) with `key`, written as `encoding` after `prefix`. */
export function hmacMatches(
  received: string,
  key: string | Buffer,
  algorithm: HmacAlgorithm,
  parts: readonly (string | Uint8Array)[],
  encoding: 'hex' | 'base64',
  prefix = '',
): boolean {
  const hmac = createHmac(algorithm, key);
  for (const part of parts) hmac.update(part);
  const expected = Buffer.from(`${prefix}${hmac.digest(encoding)}`);
  const actual = Buffer.from(received);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
