// The kind of value that made a case what it is ("string with NUL", "int64 edge", "missing required field"): what
// groups a run's failures by cause (failure-book.ts). A kind never names a field nor quotes a server's message, so one
// bug met through many fields (a NUL reaching a database from any string) is one finding, counted.
import type { FuzzCase } from './fuzz-case.js';
import type { RequestData } from './request-model.js';

/** The notable kinds, the most telling first: a request holding several is grouped under the first it holds. */
const notable = [
  'string with NUL',
  'string with control characters',
  'non-ASCII string',
  'long string',
  'int64 edge',
  'int32 edge',
  'huge number',
  'fractional number',
  'empty string',
  'empty array',
  'empty object',
] as const;
const rank = new Map<string, number>(notable.map((kind, index) => [kind, index]));
/** What valueKind says of a value with nothing notable: its type, no reason to group apart. */
const plainKinds = new Set(['absent', 'null', 'string', 'integer', 'boolean', 'array', 'object']);

/** Strings at least this long are "long" (the edges are 1024 and 4096 characters; a name is rarely over 255). */
const longString = 1000;
const int32Edge = 2 ** 31 - 1;

/** One value's kind: a notable kind, or its plain type ("string", "integer", "array"…). */
export function valueKind(value: unknown, depth = 0): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (typeof value === 'string') return stringKind(value);
  if (typeof value === 'number') return numberKind(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'empty array';
    return mostNotable(value, depth) ?? 'array';
  }
  if (typeof value === 'object') {
    const values = Object.values(value as Record<string, unknown>);
    if (values.length === 0) return 'empty object';
    return mostNotable(values, depth) ?? 'object';
  }
  return typeof value;
}

function stringKind(text: string): string {
  if (text.includes('\u0000')) return 'string with NUL';
  if (/[\u0001-\u001f\u007f-\u009f]/.test(text)) return 'string with control characters';
  if (/[^\u0000-\u007f]/.test(text)) return 'non-ASCII string';
  if (text === '') return 'empty string';
  return text.length >= longString ? 'long string' : 'string';
}

function numberKind(number: number): string {
  if (!Number.isFinite(number) || Math.abs(number) > 1e300) return 'huge number';
  if (!Number.isInteger(number)) return 'fractional number';
  const size = Math.abs(number);
  if (size > 2 ** 32) return 'int64 edge';
  return size >= int32Edge ? 'int32 edge' : 'integer';
}

/** The most notable kind among values, nested ones included (bounded: a deep body costs no more than its size). */
function mostNotable(values: readonly unknown[], depth: number): string | undefined {
  let best: string | undefined;
  for (const value of values) {
    if (depth > 8) break;
    const kind = valueKind(value, depth + 1);
    if (rank.has(kind) && (best === undefined || rank.get(kind)! < rank.get(best)!)) best = kind;
    if (best === notable[0]) break;
  }
  return best;
}

/**
 * What a negative case broke, from its generator's note (values.ts's breakingValues), without what varies per field:
 * numbers and a pattern's text ("longer than maxLength 10" is "longer than maxLength N").
 */
export function breakKind(note: string): string {
  const kind = note
    .replace(/(the pattern).*$/s, '$1')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi, 'N');
  return `invalid: ${kind}`;
}

/** The kind of a case whose values hold nothing notable: a failure that needs no particular value. */
export const ordinaryValues = 'ordinary values';

/** Kinds of text that break servers whatever else a request does (a NUL reaching a database, an encoding). */
const characterKinds = new Set(notable.slice(0, 3));

type CaseFacts = Pick<FuzzCase, 'phase' | 'kind' | 'anonymous'> & { request?: RequestData | undefined };

/**
 * A failure's kind. A request holding text with a NUL, control characters or outside ASCII is of that kind, whatever
 * else its case changed (a random negative case broke one field of a random request with a NUL in another: the server
 * that fails on a NUL fails on it, and it is one cause), except where the finding is about what the case broke
 * (negative_data_rejection). Otherwise what its generator recorded (FuzzCase.kind) unless it is a plain type, else no
 * credentials for a keyless case, else the most notable value it sent (a random case, shrunk by fast-check to what
 * still fails), else ordinary values.
 */
export function caseKind(fuzzCase: CaseFacts, check?: string): string {
  const sent = fuzzCase.phase === 'stateful' ? undefined : notableIn(fuzzCase);
  if (sent !== undefined && characterKinds.has(sent as never) && check !== 'negative_data_rejection') return sent;
  if (fuzzCase.kind !== undefined && (rank.has(fuzzCase.kind) || !plainKinds.has(fuzzCase.kind))) return fuzzCase.kind;
  if (fuzzCase.anonymous) return 'no credentials';
  // An edge value the validators found invalid (a boundary's maxLength + 1): what it broke, not an ordinary value.
  if (check === 'negative_data_rejection') return 'invalid: a value at or past an edge of its schema';
  return sent ?? ordinaryValues;
}

function notableIn({ request }: CaseFacts): string | undefined {
  if (!request) return undefined;
  const { path, query, headers, body } = request;
  const values = [...Object.values(path), ...Object.values(query), ...Object.values(headers)];
  return mostNotable(body === undefined ? values : [...values, body], 0);
}
