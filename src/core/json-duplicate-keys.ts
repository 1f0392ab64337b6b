// Finds an object key that appears twice in JSON text (RFC 8259 section 4: names SHOULD be unique; JSON.parse
// silently keeps the last, so a duplicate hides data). An exact counting test comes first; the text is walked
// key by key, to say where, only when it finds a difference.
import { pathToPointer } from './source-locator.js';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-chars.js';

export interface DuplicateKey {
  /** JSON pointer of the object that holds the key twice. */
  path: string;
  key: string;
}

/**
 * The first duplicate key in `text` (valid JSON), or undefined. `parsed` is JSON.parse(text): when given, a cheap
 * exact test comes first. Every key's colon follows its closing quote (after optional white space), so the
 * colons that do are at least the keys written; only a string value holding `":` or starting with `:` adds to
 * them. A duplicate makes the text hold more keys than the parsed value. So when that count equals the parsed
 * value's key count, no key is duplicated; otherwise the text is walked key by key to find one.
 */
export function findDuplicateKey(text: string, parsed?: unknown): DuplicateKey | undefined {
  if (parsed !== undefined && colonsAfterQuotes(text) === keysInValue(parsed)) return undefined;
  return locateDuplicateKey(text);
}

/** Colons that follow a closing quote: at least the keys written (exported for the invariant's property test). */
export function colonsAfterQuotes(text: string): number {
  // A one-character search is much faster than scanning in JS; white space before a colon is rare.
  let count = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    let j = i - 1;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(--j);
    if (c === QUOTE) count++;
  }
  return count;
}

/** How many keys the parsed value holds, over all its objects (iterative: bodies can nest deep). */
export function keysInValue(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const item: unknown = node[index];
        if (item !== null && typeof item === 'object') stack.push(item);
      }
      continue;
    }
    for (const key in node) {
      count++;
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return count;
}

/** The slower pass that also tracks where it is, run only when a duplicate exists. */
function locateDuplicateKey(text: string): DuplicateKey | undefined {
  const seen: (Set<string> | null)[] = [];
  const position: string[] = [];
  const nextIndex: number[] = [];
  let pendingKey: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = seen.length - 1;
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const keys = seen[top];
      if (keys && nextNonSpace(text, end + 1) === COLON) {
        const key = decodeKey(text, i, end);
        if (keys.has(key)) return { path: pathToPointer(position), key };
        keys.add(key);
        pendingKey = key;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (top >= 0) position.push(seen[top] ? (pendingKey ?? '') : String(nextIndex[top]!));
      seen.push(c === OPEN_OBJECT ? new Set() : null);
      nextIndex.push(0);
      pendingKey = undefined;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      seen.pop();
      nextIndex.pop();
      position.pop();
    } else if (c === COMMA && top >= 0 && !seen[top]) {
      nextIndex[top]!++;
    }
  }
  return undefined;
}

/**
 * The key as JSON.parse reads it: `"n\u0061me"` and `"name"` are the same key (RFC 8259 section 7), and a key is
 * printed as what it means, never as escapes a target chose (which would also slip past redaction).
 */
function decodeKey(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return raw;
  }
}

function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
    let backslashes = 1;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  return end < 0 ? text.length : end;
}

function nextNonSpace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return c;
  }
  return -1;
}
