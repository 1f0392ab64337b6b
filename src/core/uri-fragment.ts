// A JSON pointer written as a URI fragment (RFC 6901 §6): what a bundled `$ref` names, so that every tool reads it.
import { pathToPointer, type JsonPath } from './source-locator.js';

/**
 * A JSON pointer as a URI fragment: each segment escaped per RFC 6901 §3 (`~` → `~0`, `/` → `~1`), then every
 * character a fragment may not hold percent-encoded (RFC 3986 §3.5): `/paths/~1droplets~1%7Bid%7D`.
 */
export function uriFragment(path: JsonPath): string {
  return pathToPointer(path).replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]/gu, percentEncoded);
}

// A lone surrogate has no UTF-8 form to encode: it is kept as it is (pointerToPath reads it back).
function percentEncoded(char: string): string {
  try {
    return encodeURIComponent(char);
  } catch {
    return char;
  }
}
