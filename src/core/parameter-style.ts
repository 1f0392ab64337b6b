// How a parameter's value crosses the wire: OpenAPI 3.1.0 section 4.8.12.4, Parameter Object `style`, `explode` and
// `allowReserved`, after RFC 6570's form, simple, label and path-style (matrix) expansions, plus the three styles
// OpenAPI adds (spaceDelimited, pipeDelimited, deepObject). The oracle is the specification's "Style Examples" table;
// tests/core/parameter-style.test.ts holds both directions to every cell of it.
//
// Decoding splits the text as sent on the style's delimiters, then percent-decodes each piece (RFC 6570 section
// 3.2.1: a value's own `,` is sent as `%2C`, the list's is not), so `?ids=a%2Cb` is the one item `a,b` and
// `?f=x%3AIN%3A%5B1%2C2%5D,y` two. The delimited styles take their delimiter encoded too (`%7C`, `+`), since a raw
// `|` or space is not legal in a query (RFC 3986 section 3.4) and clients encode it.
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';
export type ParameterStyle = 'matrix' | 'label' | 'form' | 'simple' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

/** The fields of a Parameter Object (or an Encoding Object, `in: 'query'`) that say how its value is serialized. */
export interface StyledParameter {
  name: string;
  in: ParameterLocation;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
}

/** The same, its defaults applied (OpenAPI 3.1.0 section 4.8.12.2, `style` and `explode`). */
export interface Serialization {
  name: string;
  in: ParameterLocation;
  style: ParameterStyle;
  explode: boolean;
  allowReserved: boolean;
}

/** Follows a `$ref` of a subschema (items, properties); the identity when the schema has none. */
export type SchemaResolver = (schema: unknown) => unknown;

/** A parameter and the schema its decoded value is validated against. */
export interface DecodableParameter extends StyledParameter {
  schema: Record<string, unknown>;
  resolve?: SchemaResolver;
}

/** Name/value pairs of a query string or a Cookie header: names percent-decoded, values as sent. */
export interface WirePairs {
  /** The values sent under `name`, still percent-encoded, in order. */
  getAll(name: string): string[];
  /** The names sent, decoded, each once. */
  keys(): Iterable<string>;
}

/**
 * What a server sees of a parameter, as sent: path, the matched segment; header, the field value; query, the
 * query string's pairs (queryPairs); cookie, the Cookie header's pairs (cookiePairs).
 */
export type WireInput = string | WirePairs;

/** The wire form of a parameter: path and header, text; query and cookie, pairs (percent-encoded). */
export type WireForm = string | [string, string][];

const styles = new Set<string>(['matrix', 'label', 'form', 'simple', 'spaceDelimited', 'pipeDelimited', 'deepObject']);

/** OpenAPI 3.1.0 section 4.8.12.2: style `form` for query and cookie, `simple` for path and header; explode true for
 * `form` only. An unknown style is read as the location's default (lint reports it). */
export function serialization(param: StyledParameter): Serialization {
  const fallback: ParameterStyle = param.in === 'query' || param.in === 'cookie' ? 'form' : 'simple';
  const style = typeof param.style === 'string' && styles.has(param.style) ? (param.style as ParameterStyle) : fallback;
  return {
    name: param.name,
    in: param.in,
    style,
    explode: typeof param.explode === 'boolean' ? param.explode : style === 'form',
    // section 4.8.12.2: allowReserved applies to query parameters only.
    allowReserved: param.in === 'query' && param.allowReserved === true,
  };
}

/** Whether the parameter is sent as today's scalars were: its location's default style and a primitive schema. */
export function isPlainParameter(param: StyledParameter, schema: Record<string, unknown>, resolve?: SchemaResolver) {
  const { style } = serialization(param);
  const plainStyle = style === (param.in === 'query' || param.in === 'cookie' ? 'form' : 'simple');
  return plainStyle && shapeOf(schema, resolve) === 'primitive';
}

type Shape = 'array' | 'object' | 'primitive';

/** Arrays split, objects pair, the rest is one text: by the schema's `type`, else by `items` / `properties`. */
export function shapeOf(schema: Record<string, unknown>, resolve: SchemaResolver = identity): Shape {
  const types = typesOf(schema);
  if (types.includes('array')) return 'array';
  if (types.includes('object')) return 'object';
  if (types.length > 0) return 'primitive';
  const resolved = resolve(schema) as Record<string, unknown>;
  if (resolved !== schema && resolved && typeof resolved === 'object') return shapeOf(resolved, resolve);
  if ('items' in schema || 'prefixItems' in schema) return 'array';
  if ('properties' in schema || 'additionalProperties' in schema) return 'object';
  return 'primitive';
}

// ---------------------------------------------------------------------------------------------------------------
// Encoding

/** A query value's text: form-urlencoded as URLSearchParams writes it (space as `+`), and `*`, which it leaves, too
 * (RFC 3986 reserves it). With allowReserved, the reserved characters but `&#+%` (which would change the pairs) stay. */
function encodeQueryText(text: string, allowReserved: boolean): string {
  const encoded = new URLSearchParams([['', text]]).toString().slice(1).replace(/\*/g, '%2A');
  if (!allowReserved) return encoded;
  return encoded.replace(/%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2C|3B|3D)/g, (_all, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Text of a primitive item, as JSON would print it (`true`, `100`); null is empty (RFC 6570 section 2.3). */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function entriesOf(value: unknown): [string, unknown][] {
  return Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
}

/** The value's wire form; undefined when nothing is sent (an empty array or object exploded into a query). */
export function encodeParameter(param: StyledParameter, value: unknown): WireForm | undefined {
  const wire = serialization(param);
  if (wire.in === 'query' || wire.in === 'cookie') return encodePairs(wire, value);
  const enc = wire.in === 'path' ? (text: string) => encodeURIComponent(text) : (text: string) => text;
  const name = enc(wire.name);
  const kind = Array.isArray(value) ? 'array' : value !== null && typeof value === 'object' ? 'object' : 'primitive';
  const items = kind === 'array' ? (value as unknown[]).map((item) => enc(textOf(item))) : [];
  const pairs =
    kind === 'object' ? entriesOf(value).map(([key, item]): [string, string] => [enc(key), enc(textOf(item))]) : [];
  const flat = pairs.flat();
  if (wire.style === 'matrix') {
    if (kind === 'primitive') return textOf(value) === '' ? `;${name}` : `;${name}=${enc(textOf(value))}`;
    if (wire.explode)
      return kind === 'array'
        ? items.map((item) => `;${name}=${item}`).join('')
        : pairs.map(([key, item]) => `;${key}=${item}`).join('');
    const list = (kind === 'array' ? items : flat).join(',');
    return list === '' ? `;${name}` : `;${name}=${list}`;
  }
  if (wire.style === 'label') {
    // The 3.1.0 table separates label values with `.` whether exploded or not (3.1.1 follows RFC 6570: `,`).
    const dot = (text: string) => text.replace(/\./g, '%2E');
    if (kind === 'primitive') return `.${enc(textOf(value))}`;
    if (kind === 'array') return `.${items.map(dot).join('.')}`;
    return `.${(wire.explode ? pairs.map(([key, item]) => `${dot(key)}=${dot(item)}`) : flat.map(dot)).join('.')}`;
  }
  // simple, and any query-only style given to a path or header, which OpenAPI does not define.
  if (kind === 'primitive') return enc(textOf(value));
  if (kind === 'array') return items.join(',');
  return (wire.explode ? pairs.map(([key, item]) => `${key}=${item}`) : flat).join(',');
}

function encodePairs(wire: Serialization, value: unknown): [string, string][] | undefined {
  // A cookie value is percent-encoded as servers' cookie parsers decode it (decodeURIComponent: no `+` for a space).
  const enc =
    wire.in === 'cookie'
      ? (text: string) => encodeURIComponent(text)
      : (text: string) => encodeQueryText(text, wire.allowReserved);
  const name = enc(wire.name);
  if (Array.isArray(value)) {
    const items = value.map((item) => enc(textOf(item)));
    if (wire.explode && wire.style !== 'deepObject')
      return items.length === 0 ? undefined : items.map((item) => [name, item]);
    return [[name, items.join(delimiterOf(wire.style))]];
  }
  if (value !== null && typeof value === 'object') {
    const pairs = entriesOf(value).map(([key, item]): [string, string] => [enc(key), enc(textOf(item))]);
    if (wire.style === 'deepObject')
      return pairs.length === 0 ? undefined : pairs.map(([key, item]) => [`${name}[${key}]`, item]);
    if (wire.explode) return pairs.length === 0 ? undefined : pairs;
    return [[name, pairs.flat().join(delimiterOf(wire.style))]];
  }
  return [[name, enc(textOf(value))]];
}

function delimiterOf(style: ParameterStyle): string {
  if (style === 'spaceDelimited') return '%20';
  if (style === 'pipeDelimited') return '|';
  return ',';
}

/** A query string of encoded pairs, as they go after the `?`. */
export function queryText(pairs: [string, string][]): string {
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

/** A Cookie header's value of encoded pairs (RFC 6265 section 4.2.1: `; ` between them). */
export function cookieText(pairs: [string, string][]): string {
  return pairs.map(([name, value]) => `${name}=${value}`).join('; ');
}

function identity(schema: unknown): unknown {
  return schema;
}

export function typesOf(schema: Record<string, unknown>): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.map(String);
  return [];
}
