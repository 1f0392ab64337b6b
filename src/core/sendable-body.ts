// Which documented media type of a Request Body Object (OpenAPI 3.1 section 4.8.13) a generated body goes out in,
// and how it is put on the wire: JSON, a form (section 4.8.14.4), or text, a string's UTF-8 bytes (binary types,
// text/*, XML given by a string schema). Before, only JSON and form types were sent, and a required body of any
// other type (Kubernetes' `*/*`, an `image/jpeg` upload) went out empty: the mock's right 422 was reported as the
// API's failure (108 on Kubernetes). A required body none of whose media types can be made is said so, and the
// operation's positive cases are then never sent (request-model.ts's violations()).
import { parseMediaType, type MediaRange } from './media-type.js';
import type { JsonPath } from './source-locator.js';

export type BodyWire = 'json' | 'form' | 'text';

export interface BodyChoice {
  /** The documented key. */
  mediaType: string;
  /** The Content-Type sent: the key, or for a range a type it covers (`*\/*` with a schema: application/json). */
  contentType: string;
  /** What generation draws from: the media type's schema, or a string schema for text (never empty: RFC 9110
   * section 8.6, an empty body is no body, and a required one would be missing). */
  schema: Record<string, unknown>;
  /** Where the documented schema is, to judge a body by; undefined when the media type has none (any body). */
  schemaPath: JsonPath | undefined;
}

interface Documented {
  key: string;
  range: MediaRange | undefined;
  schema: Record<string, unknown> | undefined;
  path: JsonPath;
}

/** How a body of this Content-Type goes on the wire. */
export function bodyWire(contentType: string): BodyWire {
  const range = parseMediaType(contentType);
  if (range?.json) return 'json';
  if (range?.essence === 'application/x-www-form-urlencoded' || range?.essence === 'multipart/form-data') return 'form';
  return 'text';
}

/** A text body as it goes on the wire: the value if it is a string (lone surrogates made U+FFFD, as UTF-8 sends
 * them), else its JSON (a negative case's number). */
export function textOnWire(value: unknown): string {
  return typeof value === 'string' ? Buffer.from(value, 'utf8').toString('utf8') : JSON.stringify(value);
}

/**
 * The media type to send, in this order: JSON (with a schema), a +json type, a form, multipart; then JSON without a
 * schema, `*\/*` or `application/*` with a schema (as application/json), and the first other type a string can be
 * (no schema, or one that takes a string). Otherwise why none can be sent, for each documented type.
 */
export function chooseBody(
  content: Record<string, { schema?: unknown }>,
  at: JsonPath,
  resolve: (schema: unknown) => unknown,
): BodyChoice | { unsendable: string } {
  const documented: Documented[] = Object.keys(content).map((key) => {
    const schema = content[key]?.schema;
    const resolved = schema === undefined ? undefined : resolve(schema);
    return {
      key,
      range: parseMediaType(key),
      schema: isObject(resolved) ? resolved : undefined,
      path: [...at, key, 'schema'],
    };
  });
  type Parsed = Documented & { range: MediaRange };
  const first = (fits: (entry: Parsed) => boolean) =>
    documented.find((entry): entry is Parsed => entry.range !== undefined && fits(entry as Parsed));
  const schematic = (entry: Documented | undefined, contentType?: string): BodyChoice | undefined =>
    entry?.schema && {
      mediaType: entry.key,
      contentType: contentType ?? entry.key,
      schema: entry.schema,
      schemaPath: entry.path,
    };
  const chosen =
    schematic(first(({ range, schema }) => range.essence === 'application/json' && schema !== undefined)) ??
    schematic(first(({ range, schema }) => range.type === 'application' && range.json && schema !== undefined)) ??
    schematic(first(({ range, schema }) => range.essence === 'application/x-www-form-urlencoded' && !!schema)) ??
    schematic(first(({ range, schema }) => range.essence === 'multipart/form-data' && schema !== undefined));
  if (chosen) return chosen;
  const json = first(({ range }) => range.json);
  // Any JSON is valid without a schema: an object, which no server reads as no body (a `null` or `0` it may).
  if (json) return { mediaType: json.key, contentType: json.key, schema: { type: 'object' }, schemaPath: undefined };
  const wildcard = schematic(first(isJsonRange), 'application/json');
  if (wildcard) return wildcard;
  const reasons: string[] = [];
  for (const entry of documented) {
    const problem = textProblem(entry);
    if (problem !== undefined) {
      reasons.push(`${entry.key}: ${problem}`);
      continue;
    }
    const schema = entry.schema ?? {};
    return {
      mediaType: entry.key,
      contentType: entry.range!.subtype === '*' ? rangeContentType(entry.range!) : entry.key,
      schema: { ...schema, type: 'string', minLength: Math.max(1, Number(schema.minLength) || 0) },
      schemaPath: entry.schema ? entry.path : undefined,
    };
  }
  return { unsendable: reasons.length > 0 ? reasons.join('; ') : 'no media type is documented' };
}

/** `*\/*` and `application/*`: ranges that cover application/json, which carries any schema's value. */
function isJsonRange({ range, schema }: Documented): boolean {
  return schema !== undefined && (range?.essence === '*/*' || range?.essence === 'application/*');
}

/** Why a body of this media type cannot be a generated string; undefined when it can. */
function textProblem({ range, schema }: Documented): string | undefined {
  if (range === undefined) return 'not a media type';
  if (range.essence === 'application/x-www-form-urlencoded' || range.essence === 'multipart/form-data')
    return 'a form without a schema';
  if (range.subtype === '*' && !['*', 'application', 'text'].includes(range.type))
    return 'a range that names no media type to send';
  if (schema === undefined) return undefined;
  const type = schema.type;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type.map(String) : [];
  if (types.length === 0 || types.includes('string')) return undefined;
  return `its schema takes ${types.join(' or ')}, and only a string is sent as ${range.essence}`;
}

/** The type sent for a text body under a range key: one the range covers. */
function rangeContentType(range: MediaRange): string {
  return range.type === 'text' ? 'text/plain' : 'application/octet-stream';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
