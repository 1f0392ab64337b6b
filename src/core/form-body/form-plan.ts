// How the fields of a form body are read, decided once per media type at load time from its schema and its Encoding
// Objects (OpenAPI 3.1 section 4.8.15, "Encoding Object"; sections 4.8.14.4 and 4.8.14.5, "Support for
// x-www-form-urlencoded Request Bodies" and "Special Considerations for multipart Content"): a field's text is typed
// by its property's schema, so checking a form does no schema walking.
import { resolvePointer } from '../source-locator.js';
import { pointerToPath, type JsonPath } from '../source-locator.js';

/** A parameter style a form field may be serialized in (section 4.8.12.4), urlencoded bodies only. */
export interface FieldStyle {
  style: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  explode: boolean;
}

export interface EncodingHeader {
  /** As the spec spells it. */
  name: string;
  /** In lower case, as the part's headers are kept. */
  key: string;
  required: boolean;
  /** The Header Object's schema, where it has one; its types read the header's text. */
  schemaPath: JsonPath | undefined;
  types: string[];
}

export interface FormField {
  /** The property's Schema Object ($refs followed at its top); {} when the schema does not list the field. */
  schema: Record<string, unknown>;
  /** The types the field's schema allows (through $ref, allOf, anyOf, oneOf); empty when it does not say. */
  types: string[];
  /** For an array field, the types of its items. */
  itemTypes: string[];
  /** The Encoding Object's contentType, split at commas (`image/png, image/*`), when it sets one. */
  contentTypes: string[] | undefined;
  /** Set when the Encoding Object sets style, explode or allowReserved: then contentType is ignored (4.8.15.1). In
   * multipart, where OpenAPI 3.1.0 does not say how a style splits a part, such a field is present and not judged. */
  style: FieldStyle | undefined;
  /** The Encoding Object's headers (multipart only; Content-Type is described by contentType, and ignored here). */
  headers: EncodingHeader[];
  /** A file (isBinary): its content is present, not judged. */
  binary: boolean;
  /** The same for an array field's items (several files under one name). */
  itemBinary: boolean;
}

export interface FormPlan {
  multipart: boolean;
  fields: Map<string, FormField>;
  /** How a field the schema does not list is read (from additionalProperties when it is a schema). */
  others: FormField;
  /** Follows a subschema's $ref, for the parameter style codec reading a styled field's items and properties. */
  resolve: (schema: unknown) => unknown;
}

const formTypes = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** Whether a media type (a content key, or a Content-Type's type/subtype) is one whose body is a form. */
export function isFormMediaType(mediaType: string): boolean {
  return formTypes.has(mediaType.split(';')[0]!.trim().toLowerCase());
}

/** The plan of the Media Type Object at `mediaPath`, for a form media type; undefined for any other. */
export function formPlan(document: unknown, mediaType: string, mediaPath: JsonPath): FormPlan | undefined {
  if (!isFormMediaType(mediaType)) return undefined;
  const multipart = mediaType.split(';')[0]!.trim().toLowerCase() === 'multipart/form-data';
  const media = objectAt(document, mediaPath) ?? {};
  const schema = deref(document, media.schema);
  const encoding = deref(document, media.encoding) ?? {};
  const fields = new Map<string, FormField>();
  for (const [name, property] of propertiesOf(document, schema)) {
    const fieldEncoding = Object.hasOwn(encoding, name) ? deref(document, encoding[name]) : undefined;
    const at = [...mediaPath, 'encoding', name];
    fields.set(name, fieldOf(document, property, fieldEncoding, at, multipart));
  }
  const additional = deref(document, schema?.additionalProperties);
  return {
    multipart,
    fields,
    others: fieldOf(document, additional, undefined, [], multipart),
    resolve: (node) => deref(document, node) ?? node,
  };
}

function fieldOf(
  document: unknown,
  schema: Record<string, unknown> | undefined,
  encoding: Record<string, unknown> | undefined,
  at: JsonPath,
  multipart: boolean,
): FormField {
  const types = typesOf(document, schema);
  const items = types.includes('array') ? deref(document, schema?.items) : undefined;
  const contentType = encoding?.contentType;
  return {
    types,
    schema: schema ?? {},
    itemTypes: typesOf(document, items),
    contentTypes:
      typeof contentType === 'string'
        ? contentType.split(',').map((type) => type.split(';')[0]!.trim().toLowerCase())
        : undefined,
    style: styleOf(encoding, types),
    headers: multipart ? headersOf(document, encoding?.headers, [...at, 'headers']) : [],
    binary: isBinary(schema),
    itemBinary: isBinary(items),
  };
}

/**
 * Section 4.8.15.1: when style, explode or allowReserved is set, the field is serialized as a query parameter of
 * that style and contentType is ignored; when none is, it goes by its contentType (an object's default being
 * application/json: the section 4.8.14.4 example "stringifies" its `address`; 3.1.1 says so outright). style's
 * default is form, explode's true for form. allowReserved is not enforced in a body: it says SHOULD, and a raw
 * reserved character reads the same.
 */
function styleOf(encoding: Record<string, unknown> | undefined, types: string[]): FieldStyle | undefined {
  if (!encoding || !['style', 'explode', 'allowReserved'].some((key) => Object.hasOwn(encoding, key))) return undefined;
  const style = ['spaceDelimited', 'pipeDelimited', 'deepObject'].includes(encoding.style as string)
    ? (encoding.style as FieldStyle['style'])
    : 'form';
  const explode = typeof encoding.explode === 'boolean' ? encoding.explode : style === 'form';
  // A primitive reads the same in every style; one style is enough to say it is styled.
  return types.length === 0 || types.some((type) => type === 'array' || type === 'object')
    ? { style, explode }
    : { style: 'form', explode };
}

function headersOf(document: unknown, raw: unknown, at: JsonPath): EncodingHeader[] {
  const headers = deref(document, raw);
  if (!headers) return [];
  return Object.keys(headers)
    .filter((name) => name.toLowerCase() !== 'content-type')
    .map((name) => {
      const { value, path } = follow(document, headers[name], [...at, name]);
      const schema = value?.schema !== undefined ? follow(document, value.schema, [...path, 'schema']) : undefined;
      return {
        name,
        key: name.toLowerCase(),
        required: value?.required === true,
        schemaPath: schema?.path,
        types: typesOf(document, schema?.value),
      };
    });
}

/**
 * A file, whose bytes the body's text may not hold: 3.0's `format: binary` (upgraded to a contentMediaType), a
 * contentMediaType or contentEncoding (section 4.8.14.5: a string with a contentEncoding defaults to
 * application/octet-stream). Its content is not judged: being conservative here can only say less.
 */
function isBinary(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  return (
    schema.format === 'binary' ||
    typeof schema.contentMediaType === 'string' ||
    typeof schema.contentEncoding === 'string'
  );
}

/** A schema's properties, with those of its allOf branches (a form's fields are its top-level properties). */
function propertiesOf(
  document: unknown,
  schema: Record<string, unknown> | undefined,
): Map<string, Record<string, unknown> | undefined> {
  const found = new Map<string, Record<string, unknown> | undefined>();
  const visit = (node: Record<string, unknown> | undefined, depth: number) => {
    if (!node || depth > 8) return;
    const properties = deref(document, node.properties);
    for (const name of Object.keys(properties ?? {}))
      if (!found.has(name)) found.set(name, deref(document, properties![name]));
    if (Array.isArray(node.allOf)) for (const branch of node.allOf) visit(deref(document, branch), depth + 1);
  };
  visit(schema, 0);
  return found;
}

/** The types a schema allows: its `type`, else its branches' (allOf, anyOf, oneOf), else what its keywords imply. */
export function typesOf(document: unknown, schema: Record<string, unknown> | undefined, depth = 0): string[] {
  if (!schema || depth > 8) return [];
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  const branches = ['allOf', 'anyOf', 'oneOf'].flatMap((key) => (Array.isArray(schema[key]) ? schema[key] : []));
  const types = new Set(branches.flatMap((branch) => typesOf(document, deref(document, branch), depth + 1)));
  if (types.size === 0 && schema.properties !== undefined) types.add('object');
  if (types.size === 0 && schema.items !== undefined) types.add('array');
  return [...types];
}

function deref(document: unknown, value: unknown): Record<string, unknown> | undefined {
  return follow(document, value, []).value;
}

function follow(
  document: unknown,
  value: unknown,
  at: JsonPath,
): { value: Record<string, unknown> | undefined; path: JsonPath } {
  let node = value;
  let path = at;
  for (let hops = 0; hops < 20 && isObject(node) && typeof node.$ref === 'string'; hops++) {
    path = pointerToPath(node.$ref);
    node = resolvePointer(document, node.$ref);
  }
  return { value: isObject(node) ? node : undefined, path };
}

function objectAt(document: unknown, path: JsonPath): Record<string, unknown> | undefined {
  let node: unknown = document;
  for (const segment of path) {
    if (!isObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return deref(document, node);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
