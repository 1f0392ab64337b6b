// OpenAPI 3.2 section 4.12.2 (Parameter Locations): `in: querystring` is "the entire URL query string" as one
// value, described by `content` (section 4.12.3: exactly one media type). When that media type is
// application/x-www-form-urlencoded and its schema an object with `properties`, the query string is those
// properties as form fields (section 4.14.5 / RFC 1866 encoding, the same name=value&... that `in: query`
// parameters of style form make): each property is read as a query parameter of that name, required when the
// querystring parameter is required and the schema's `required` names it. So the request checks judge each field,
// and fuzz sends them. A field the schema does not name is refused when the schema says `additionalProperties:
// false` (JSON Schema 2020-12 section 10.3.2.3) and has no patternProperties: the request checks say so, and fuzz
// counts such a field as a violation, so never sends one in a request it calls valid. What this does not judge: a
// querystring described by any other media type (JSON in the query string, say): it is neither sent nor judged.
import { renderValue } from '../render-value.js';
import { pointerToPath, resolvePointer, type JsonPath } from '../source-locator.js';

export interface QuerystringField {
  name: string;
  required: boolean;
  schema: Record<string, unknown>;
  schemaPath: JsonPath;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Follows `$ref`s from a value at `at`, to the value and its document path (a few hops at most). */
function follow(document: unknown, value: unknown, at: JsonPath): { value: unknown; path: JsonPath } {
  let current = { value, path: at };
  for (let hops = 0; hops < 10 && isObject(current.value) && typeof current.value.$ref === 'string'; hops++) {
    const ref = current.value.$ref as string;
    if (!ref.startsWith('#')) break;
    current = { value: resolvePointer(document, ref), path: pointerToPath(ref) };
  }
  return current;
}

/**
 * The form fields of a querystring parameter (`parameter` at `path`, $refs followed), or undefined when its content
 * is not a form whose schema names its fields.
 */
export function querystringFields(
  document: unknown,
  parameter: { required?: unknown; content?: unknown },
  path: JsonPath,
): QuerystringField[] | undefined {
  if (!isObject(parameter.content)) return undefined;
  const entries = Object.entries(parameter.content);
  if (entries.length !== 1) return undefined;
  const [mediaType, media] = entries[0]!;
  if (mediaType.split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded' || !isObject(media))
    return undefined;
  const schema = follow(document, media.schema, [...path, 'content', mediaType, 'schema']);
  if (!isObject(schema.value) || !isObject(schema.value.properties)) return undefined;
  const required = Array.isArray(schema.value.required) ? schema.value.required : [];
  return Object.keys(schema.value.properties).flatMap((name) => {
    const field = follow(document, (schema.value as { properties: Record<string, unknown> }).properties[name], [
      ...schema.path,
      'properties',
      name,
    ]);
    if (!isObject(field.value) && typeof field.value !== 'boolean') return [];
    return [
      {
        name,
        required: parameter.required === true && required.includes(name),
        schema: isObject(field.value) ? field.value : {},
        // The path of the property as written (a $ref there is followed by whoever compiles it).
        schemaPath: [...schema.path, 'properties', name],
      },
    ];
  });
}

/**
 * Why no request can be made for an operation whose required querystring parameter is not a form we read (its
 * fields unknown, no query string we send could be said to carry it); undefined when there is none. Fuzz then does
 * not exercise it, rather than send what the server rightly refuses.
 */
export function unsendableQuerystring(document: unknown, lists: unknown[]): string | undefined {
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const [index, entry] of list.entries()) {
      const { value } = follow(document, entry, [index]);
      if (!isObject(value) || value.in !== 'querystring' || value.required !== true) continue;
      if (querystringFields(document, value, []) === undefined)
        return `the required querystring parameter ${JSON.stringify(String(value.name))} is not a form whose schema names its fields: no query string can be generated for it`;
    }
  }
  return undefined;
}

/** A querystring parameter whose form admits no field it does not name. */
export interface ClosedQuerystring {
  parameter: string;
  names: ReadonlySet<string>;
}

/**
 * The querystring parameter of a Path Item's and an Operation's lists (the operation's wins) whose form schema has
 * `additionalProperties: false` and no patternProperties; undefined when there is none.
 */
export function closedQuerystring(document: unknown, lists: unknown[]): ClosedQuerystring | undefined {
  let found: ClosedQuerystring | undefined;
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const [index, entry] of list.entries()) {
      const { value } = follow(document, entry, [index]);
      if (!isObject(value) || value.in !== 'querystring' || !isObject(value.content)) continue;
      const media = Object.values(value.content)[0];
      const schema = isObject(media) ? follow(document, media.schema, []).value : undefined;
      const fields = querystringFields(document, value, []);
      if (fields === undefined || !isObject(schema)) continue;
      const patterns = isObject(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0;
      found =
        schema.additionalProperties === false && !patterns
          ? { parameter: String(value.name), names: new Set(fields.map((field) => field.name)) }
          : undefined;
    }
  }
  return found;
}

/** The distinct field names of a query that a closed querystring does not name (credentials' names excepted). */
export function unnamedFields(
  closed: ClosedQuerystring,
  names: Iterable<string>,
  credentials: ReadonlySet<string> = new Set(),
): string[] {
  const unnamed = new Set<string>();
  for (const name of names) if (!closed.names.has(name) && !credentials.has(name)) unnamed.add(name);
  return [...unnamed];
}

/** What is said of one such field. */
export const unnamedFieldMessage = (closed: ClosedQuerystring, name: string) =>
  `query string field ${renderValue(name, 80)} is not one the querystring parameter ${renderValue(closed.parameter, 80)} names (its schema has additionalProperties: false)`;
