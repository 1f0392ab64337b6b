// Media types and ranges (RFC 9110 section 8.3.1), and which documented content key a Content-Type selects (OpenAPI
// 3.1 section 4.8.14: "the most specific key is applicable", `text/plain` over `text/*`). Every comparison of a
// Content-Type with the spec's `content` keys goes through here: responses, request bodies, coverage and fuzz.
import { escapeLine } from './escape-line.js';
import { mediaTypeOf } from './exchange.js';

/** A media type or range, read once: keys at load time, a Content-Type once per message. */
export interface MediaRange {
  /** `type/subtype` in lower case (`*` for a range's wildcard). */
  essence: string;
  type: string;
  subtype: string;
  /** Parameters by lower-cased name; values unquoted, a charset's lower-cased (RFC 9110 section 8.3.2). */
  params: ReadonlyMap<string, string>;
  /** application/json or a `+json` structured syntax suffix (RFC 6838 section 4.2.8): the body is read as JSON. */
  json: boolean;
}

const token = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
const noParams: ReadonlyMap<string, string> = new Map();

/**
 * `type "/" subtype *( OWS ";" OWS parameter )`, parameter `name=value` with the value a token or a quoted-string.
 * Undefined for text that is no media type. Lenient where RFC 9110 is strict and nothing is lost (a parameter
 * without a value, or an empty one, is skipped): this reads what servers send, and judges only the type.
 */
export function parseMediaType(text: string | undefined): MediaRange | undefined {
  if (text === undefined) return undefined;
  // Traffic repeats a few Content-Types: each is parsed once (on the hot path, a parse cost a tenth of a check).
  // Bounded in entries and length, so a hostile stream of distinct headers holds at most 64 short ones.
  const known = parsed.get(text);
  if (known !== undefined || parsed.has(text)) return known;
  const range = parseUncached(text);
  if (text.length <= maxCachedLength) {
    if (parsed.size >= maxCached) parsed.clear();
    parsed.set(text, range);
  }
  return range;
}

const parsed = new Map<string, MediaRange | undefined>();
const maxCached = 64;
const maxCachedLength = 256;

/** Whether a media type (parameters allowed) is application/json or a `+json` type: read and written as JSON. */
export function isJsonType(mediaType: string | undefined): boolean {
  return parseMediaType(mediaType)?.json === true;
}

function parseUncached(text: string): MediaRange | undefined {
  const end = text.indexOf(';');
  const essence = (end < 0 ? text : text.slice(0, end)).trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0) return undefined;
  const type = essence.slice(0, slash);
  const subtype = essence.slice(slash + 1);
  if (!token.test(type) || !token.test(subtype)) return undefined;
  // Frozen: one parsed value is shared by every message that sends the same text.
  return Object.freeze({
    essence,
    type,
    subtype,
    params: end < 0 ? noParams : parseParams(text, end),
    json: essence === 'application/json' || subtype.endsWith('+json'),
  });
}

function parseParams(text: string, from: number): Map<string, string> {
  const params = new Map<string, string>();
  // `at` is always at a ';' (or the end): one pass, each character read once, whatever the header holds.
  let at = from;
  while (at < text.length) {
    let nameEnd = at + 1;
    while (nameEnd < text.length && text[nameEnd] !== '=' && text[nameEnd] !== ';') nameEnd++;
    if (text[nameEnd] !== '=') {
      at = nameEnd;
      continue;
    }
    const name = text
      .slice(at + 1, nameEnd)
      .trim()
      .toLowerCase();
    let start = nameEnd + 1;
    while (text[start] === ' ' || text[start] === '\t') start++;
    const quoted = text[start] === '"' ? quotedString(text, start) : undefined;
    let next = quoted ? quoted.next : start;
    while (next < text.length && text[next] !== ';') next++;
    const value = quoted ? quoted.value : text.slice(start, next).trim();
    if (name !== '' && value !== '' && !params.has(name))
      params.set(name, name === 'charset' ? value.toLowerCase() : value);
    at = next;
  }
  return params;
}

/** RFC 9110 section 5.6.4: `"` *( qdtext / "\" char ) `"`; an unterminated one runs to the end of the text. */
function quotedString(text: string, open: number): { value: string; next: number } {
  let value = '';
  let at = open + 1;
  while (at < text.length && text[at] !== '"') {
    if (text[at] === '\\' && at + 1 < text.length) at++;
    value += text[at];
    at++;
  }
  return { value, next: at + 1 };
}

/**
 * How specific a documented key is: `*\/*` 0, `type/*` 1, `type/subtype` 2, plus one per parameter it names. Among
 * the keys a Content-Type matches, the most specific wins; document order breaks ties.
 */
export function specificity(range: MediaRange): number {
  if (range.type === '*') return 0;
  if (range.subtype === '*') return 1;
  return 2 + range.params.size;
}

/**
 * Whether a Content-Type falls under a documented key: the same type/subtype (or the key is `type/*` or `*\/*`), and
 * every parameter the key names present with the same value (charset in any case, RFC 9110 section 8.3.2; others
 * exactly). Parameters only the Content-Type has do not matter. JSON has one encoding (RFC 8259 section 8.1): a JSON
 * Content-Type without a charset is read as `charset=utf-8`.
 */
export function rangeMatches(key: MediaRange, actual: MediaRange): boolean {
  if (key.type !== '*') {
    if (key.type !== actual.type) return false;
    if (key.subtype !== '*' && key.subtype !== actual.subtype) return false;
  }
  for (const [name, value] of key.params) {
    const given = actual.params.get(name) ?? (name === 'charset' && actual.json ? 'utf-8' : undefined);
    if (given !== value) return false;
  }
  return true;
}

/** The documented key a Content-Type selects: the most specific that matches (see rangeMatches), else undefined. */
export function selectMediaType<T extends { range: MediaRange | undefined }>(
  documented: readonly T[],
  actual: MediaRange | undefined,
): T | undefined {
  if (actual === undefined) return undefined;
  let best: T | undefined;
  let bestSpecificity = -1;
  for (const candidate of documented) {
    const key = candidate.range;
    if (key === undefined || !rangeMatches(key, actual)) continue;
    const rank = specificity(key);
    if (rank > bestSpecificity) {
      best = candidate;
      bestSpecificity = rank;
    }
  }
  return best;
}

/** A media type as text: `type/subtype`, then each parameter (`; name=value`, quoted where it is no token). */
export function formatMediaType(range: MediaRange): string {
  let text = range.essence;
  for (const [name, value] of range.params)
    text += `; ${name}=${token.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`}`;
  return text;
}

/**
 * A Content-Type as a finding shows it: `type/subtype`, with its parameters when a documented key has that
 * type/subtype (they are why it matched none); one line, cut to 200 characters. Undefined when there is none.
 */
export function shownContentType(
  contentType: string | undefined,
  actual: MediaRange | undefined,
  documented: readonly { range: MediaRange | undefined }[],
): string | undefined {
  if (actual === undefined) return mediaTypeOf(contentType);
  if (!documented.some((media) => media.range?.essence === actual.essence)) return actual.essence;
  const text = formatMediaType(actual);
  return escapeLine(text.length <= 200 ? text : `${text.slice(0, 200)}…`);
}
