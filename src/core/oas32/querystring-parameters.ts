// OpenAPI 3.2 section 4.12.2 (Parameter Locations): `in: querystring` is "the entire URL query string" as one
// value, described by `content` (section 4.12.3: exactly one media type). When that media type is
// application/x-www-form-urlencoded and its schema an object with `properties`, the query string is those
// properties as form fields (section 4.14.5 / RFC 1866 encoding, the same name=value&... that `in: query`
// parameters of style form make): each property is read as a query parameter of that name, required when the
// querystring parameter is required and the schema's `required` names it. So the request checks judge each field,
// and fuzz sends them. What this does not judge: a field the schema does not name (additionalProperties: false),
// and a querystring described by any other media type (JSON in the query string, say): neither is sent or judged.
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
