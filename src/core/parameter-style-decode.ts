// A parameter's value as a server reads it off the wire, by its style and explode (OpenAPI 3.1.0 section 4.8.12.4)
// and its schema: an array splits, an object pairs, a primitive is one text, each typed as the schema says (a
// numeral for integer or number, true/false for boolean, null for null). Everything is one pass over the input.
//
// An empty value (`;color`, `.`, `color=`, an empty header) decodes to "" for a primitive, [] for an array and {}
// for an object: RFC 6570 section 2.3 expands an empty list or map as it does an empty string.
import { setOwn } from './own-key.js';
import {
  serialization,
  shapeOf,
  typesOf,
  type DecodableParameter,
  type SchemaResolver,
  type Serialization,
  type WireInput,
  type WirePairs,
  type ParameterLocation,
} from './parameter-style.js';

/** A value not written in its parameter's style (`blue` for a matrix path parameter, an object missing a value). */
export class MalformedParameter {
  constructor(
    readonly style: string,
    readonly text: string,
  ) {}
}

/** A JSON number as text: what a server reads as a number off the wire. */
const numeral = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** One text typed by the schema of the value it is: a server's reading of `5`, `true` or `null`. */
export function typedText(schema: Record<string, unknown>, text: string): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && numeral.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === 'null') return null;
  return text;
}

interface Decoding {
  wire: Serialization;
  schema: Record<string, unknown>;
  resolve: SchemaResolver;
  /** A piece of the text as sent → its text: percent-decoded (`+` a space too in a query); a header's is trimmed
   * (RFC 9110 section 5.6.1: OWS around list commas) and not percent-decoded. */
  unescape: (piece: string) => string;
}

/** One piece of a parameter's text as sent, as its location reads it: percent-decoded (`+` a space in a query);
 * a header's trimmed. */
export function unescapeIn(location: ParameterLocation, piece: string): string {
  return unescapers[location](piece);
}

const unescapers: Record<ParameterLocation, (piece: string) => string> = {
  path: percentDecoded,
  query: (piece) => percentDecoded(piece.replace(/\+/g, ' ')),
  header: (piece) => piece.trim(),
  cookie: percentDecoded,
};

/**
 * The parameter's value as the server decodes it; undefined when it is not sent; a MalformedParameter when its
 * text does not have the style's form. `otherNames`: the query's names other parameters take, which an exploded
 * form object with additionalProperties leaves to them.
 */
export function decodeParameter(
  param: DecodableParameter,
  input: WireInput,
  otherNames?: ReadonlySet<string>,
): unknown {
  const resolve = param.resolve ?? ((schema: unknown) => schema);
  const decoding: Decoding = {
    wire: serialization(param),
    schema: resolved(param.schema, resolve),
    resolve,
    unescape: unescapers[param.in],
  };
  if (typeof input === 'string') return decodeText(decoding, param.in === 'header' ? input.trim() : input);
  return decodePairs(decoding, input, otherNames);
}

function decodeText(decoding: Decoding, text: string): unknown {
  const { wire } = decoding;
  if (wire.style === 'matrix') return decodeMatrix(decoding, text);
  if (wire.style === 'label') {
    if (!text.startsWith('.')) return new MalformedParameter(wire.style, text);
    const body = text.slice(1);
    // The 3.1.0 table's `.blue.black.brown` and RFC 6570's (and 3.1.1's) `.blue,black,brown` alike.
    return shaped(decoding, body, wire.explode ? /\./ : /[.,]/, wire.explode ? '=' : undefined);
  }
  return shaped(decoding, text, /,/, wire.explode ? '=' : undefined);
}

function decodeMatrix(decoding: Decoding, text: string): unknown {
  const { wire } = decoding;
  const shape = shapeOf(decoding.schema, decoding.resolve);
  if (!text.startsWith(';')) return new MalformedParameter(wire.style, text);
  if (wire.explode && shape === 'object') return shaped(decoding, text.slice(1), /;/, '=');
  if (wire.explode && shape === 'array') {
    const items: string[] = [];
    for (const part of text.slice(1).split(';')) {
      const value = valueAfterName(decoding, part);
      if (value === undefined) return new MalformedParameter(wire.style, text);
      items.push(decoding.unescape(value));
    }
    return items.length === 1 && items[0] === '' ? [] : items.map((item) => typedText(itemSchema(decoding), item));
  }
  const value = valueAfterName(decoding, text.slice(1));
  if (value === undefined) return new MalformedParameter(wire.style, text);
  return shaped(decoding, value, /,/, undefined);
}

/** `name=value` or `name` (an empty value) → the value as sent; undefined when the name is another. */
function valueAfterName(decoding: Decoding, part: string): string | undefined {
  const at = part.indexOf('=');
  if (decoding.unescape(at < 0 ? part : part.slice(0, at)) !== decoding.wire.name) return undefined;
  return at < 0 ? '' : part.slice(at + 1);
}

/** `text` (as sent) read by the schema's shape: split by `delimiter`, then each piece unescaped; objects as
 * `key=value` items (`pair`) or alternating keys and values. */
function shaped(decoding: Decoding, text: string, delimiter: RegExp, pair: string | undefined): unknown {
  const shape = shapeOf(decoding.schema, decoding.resolve);
  const { unescape } = decoding;
  if (shape === 'primitive') return typedText(decoding.schema, unescape(text));
  if (text === '') return shape === 'array' ? [] : {};
  if (shape === 'array') return text.split(delimiter).map((part) => typedText(itemSchema(decoding), unescape(part)));
  const object: Record<string, unknown> = {};
  if (pair !== undefined) {
    for (const part of text.split(delimiter)) {
      const at = part.indexOf(pair);
      const key = unescape(at < 0 ? part : part.slice(0, at));
      setOwn(object, key, typedText(propertySchema(decoding, key), at < 0 ? '' : unescape(part.slice(at + 1))));
    }
    return object;
  }
  const parts = text.split(delimiter).map(unescape);
  if (parts.length % 2 !== 0) return new MalformedParameter(decoding.wire.style, text);
  for (let index = 0; index < parts.length; index += 2)
    setOwn(object, parts[index]!, typedText(propertySchema(decoding, parts[index]!), parts[index + 1]!));
  return object;
}

function decodePairs(decoding: Decoding, pairs: WirePairs, otherNames: ReadonlySet<string> | undefined): unknown {
  const { wire } = decoding;
  const shape = shapeOf(decoding.schema, decoding.resolve);
  if (wire.style === 'deepObject' || (shape === 'object' && wire.explode)) {
    return wire.style === 'deepObject' ? deepObject(decoding, pairs) : explodedObject(decoding, pairs, otherNames);
  }
  const values = pairs.getAll(wire.name);
  if (values.length === 0) return undefined;
  const { unescape } = decoding;
  if (shape === 'primitive') return typedText(decoding.schema, unescape(values[0]!));
  if (shape === 'array' && wire.explode)
    return values.length === 1 && values[0] === ''
      ? []
      : values.map((value) => typedText(itemSchema(decoding), unescape(value)));
  const delimiter = wire.style === 'spaceDelimited' ? /%20|\+| / : wire.style === 'pipeDelimited' ? /%7C|\|/i : /,/;
  // Repeated (`?ids=a,b&ids=c`): the items of each, in order; an object reads its first.
  if (shape === 'object') return shaped(decoding, values[0]!, delimiter, undefined);
  const items: unknown[] = [];
  for (const value of values)
    for (const item of shaped(decoding, value, delimiter, undefined) as unknown[]) items.push(item);
  return items;
}

/** `color[R]=100&color[G]=200`; a nested `color[a][b]` builds nested objects. Undefined when no key is sent. */
function deepObject(decoding: Decoding, pairs: WirePairs): unknown {
  const prefix = `${decoding.wire.name}[`;
  const object: Record<string, unknown> = {};
  let found = false;
  for (const name of pairs.keys()) {
    if (!name.startsWith(prefix) || !name.endsWith(']')) continue;
    found = true;
    const keys = name.slice(prefix.length, -1).split('][');
    let node = object;
    let schema = decoding.schema;
    for (const key of keys.slice(0, -1)) {
      schema = propertySchema({ ...decoding, schema }, key);
      const next = Object.hasOwn(node, key) ? node[key] : undefined;
      const child = next !== null && typeof next === 'object' ? (next as Record<string, unknown>) : {};
      setOwn(node, key, child);
      node = child;
    }
    const last = keys[keys.length - 1]!;
    setOwn(
      node,
      last,
      leaf({ ...decoding, schema: propertySchema({ ...decoding, schema }, last) }, pairs.getAll(name)),
    );
  }
  return found ? object : undefined;
}

/** `R=100&G=200&B=150`: the pairs named by the schema's properties, and, when it allows others by a schema, every
 * pair no other parameter takes. Undefined when none is sent. */
function explodedObject(decoding: Decoding, pairs: WirePairs, otherNames: ReadonlySet<string> | undefined): unknown {
  const properties = resolved(decoding.schema.properties, decoding.resolve);
  const additional = decoding.schema.additionalProperties;
  const takesOthers = additional !== undefined && additional !== false;
  const object: Record<string, unknown> = {};
  let found = false;
  for (const name of pairs.keys()) {
    const known = Object.hasOwn(properties, name);
    if (!known && (!takesOthers || otherNames?.has(name))) continue;
    found = true;
    setOwn(object, name, leaf({ ...decoding, schema: propertySchema(decoding, name) }, pairs.getAll(name)));
  }
  return found ? object : undefined;
}

/** A property's values: all of them for an array property, else its first. */
function leaf(decoding: Decoding, values: string[]): unknown {
  if (shapeOf(decoding.schema, decoding.resolve) === 'array')
    return values.map((value) => typedText(itemSchema(decoding), decoding.unescape(value)));
  return typedText(decoding.schema, decoding.unescape(values[0] ?? ''));
}

function itemSchema(decoding: Decoding): Record<string, unknown> {
  return resolved(decoding.schema.items, decoding.resolve);
}

function propertySchema(decoding: Decoding, key: string): Record<string, unknown> {
  const properties = resolved(decoding.schema.properties, decoding.resolve);
  if (Object.hasOwn(properties, key)) return resolved(properties[key], decoding.resolve);
  return resolved(decoding.schema.additionalProperties, decoding.resolve);
}

function resolved(schema: unknown, resolve: SchemaResolver): Record<string, unknown> {
  const node = resolve(schema);
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>) : {};
}

/** Pairs by decoded name, values as sent; built in one pass. */
class Pairs implements WirePairs {
  private readonly byName = new Map<string, string[]>();
  add(name: string, value: string): void {
    const values = this.byName.get(name);
    if (values) values.push(value);
    else this.byName.set(name, [value]);
  }
  getAll(name: string): string[] {
    return this.byName.get(name) ?? [];
  }
  keys(): Iterable<string> {
    return this.byName.keys();
  }
}

/** A Cookie header's pairs (RFC 6265 section 4.2.1: `name=value` separated by `;`). */
export function cookiePairs(header: string | undefined): WirePairs {
  const pairs = new Pairs();
  if (!header) return pairs;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    pairs.add(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return pairs;
}

/** A raw query string's pairs (without the `?`): names decoded as a form-urlencoded query's, values as sent. */
export function queryPairs(query: string): WirePairs {
  const pairs = new Pairs();
  for (const [name, value] of rawQueryPairs(query)) pairs.add(name, value);
  return pairs;
}

/** Percent-decoded; an escape that does not decode (`%zz`, half a UTF-8 character) is kept as sent. */
function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** RFC 3986 section 2.2's reserved characters as they may appear raw in a query value; `&` and `#` cannot (they end
 * it) and `+` is a space in a form-urlencoded query. */
const reservedInValue = /[:/?[\]@!$'()*,;=]/;

/**
 * The first reserved character a query parameter carries raw where `allowReserved: false` (OpenAPI 3.1.0 section
 * 4.8.12.2) wants it percent-encoded: in its values, not in the style's own `,` delimiter. `rawPairs`: the query's
 * pairs, names decoded, values as sent.
 */
export function reservedInQuery(
  param: DecodableParameter,
  rawPairs: readonly (readonly [string, string])[],
  otherNames?: ReadonlySet<string>,
): string | undefined {
  const wire = serialization(param);
  if (wire.allowReserved || wire.in !== 'query') return undefined;
  const schema = resolved(param.schema, param.resolve ?? ((node: unknown) => node));
  const shape = shapeOf(schema, param.resolve);
  const properties = resolved(schema.properties, param.resolve ?? ((node: unknown) => node));
  const takesOthers = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  const listed = wire.style === 'form' && !wire.explode && shape !== 'primitive';
  for (const [name, value] of rawPairs) {
    const mine =
      wire.style === 'deepObject'
        ? name.startsWith(`${wire.name}[`)
        : shape === 'object' && wire.explode
          ? Object.hasOwn(properties, name) || (takesOthers && !otherNames?.has(name))
          : name === wire.name;
    if (!mine) continue;
    const found = reservedInValue.exec(listed ? value.replace(/,/g, '') : value);
    if (found) return found[0];
  }
  return undefined;
}

/** A raw query string's pairs: names percent-decoded (`+` a space), values as sent. One pass. */
export function rawQueryPairs(query: string): [string, string][] {
  const pairs: [string, string][] = [];
  if (query === '') return pairs;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const name = at < 0 ? part : part.slice(0, at);
    pairs.push([percentDecoded(name.replace(/\+/g, ' ')), at < 0 ? '' : part.slice(at + 1)]);
  }
  return pairs;
}
