// What the resource model reads of a schema: its component name, its top-level properties and where a list keeps
// its items. Shallow on purpose: a few $ref hops and one allOf level per schema, so a 13 MB spec costs time linear
// in its operations, whatever its schemas nest (a schema's depth says nothing of where ids are).
import { resolvePointer } from '../source-locator.js';

type Schema = Record<string, unknown>;

const maxHops = 8;

/** The schema a value is, after following local `$ref`s, and the component name of the last one followed. */
export function followSchema(
  document: unknown,
  value: unknown,
): { schema: Schema | undefined; name: string | undefined } {
  let current = value;
  let name: string | undefined;
  for (let hops = 0; hops < maxHops && isObject(current); hops++) {
    const ref = current.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) break;
    const component = /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
    if (component !== undefined) name = decodeURIComponent(component).replace(/~1/g, '/').replace(/~0/g, '~');
    current = resolvePointer(document, ref);
  }
  return { schema: isObject(current) ? current : undefined, name };
}

/** The property names of an object schema, with those of its allOf members (one level), in document order. */
export function propertiesOf(document: unknown, value: unknown): Map<string, unknown> {
  const properties = new Map<string, unknown>();
  const { schema } = followSchema(document, value);
  if (!schema) return properties;
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])];
  for (const part of parts) {
    const resolved = part === schema ? schema : followSchema(document, part).schema;
    const own = resolved?.properties;
    if (!isObject(own)) continue;
    for (const [key, property] of Object.entries(own)) if (!properties.has(key)) properties.set(key, property);
  }
  return properties;
}

/** The component name of a schema, or of its single allOf member (`allOf: [$ref]` wraps a name with a description). */
export function schemaName(document: unknown, value: unknown): string | undefined {
  const { schema, name } = followSchema(document, value);
  if (name !== undefined) return name;
  if (schema && Array.isArray(schema.allOf) && schema.allOf.length === 1)
    return followSchema(document, schema.allOf[0]).name;
  return undefined;
}

const itemKeys = ['items', 'data', 'results', 'records', 'entries', 'values', 'content', 'list', 'elements', 'nodes'];

/**
 * Where a list answer keeps its items: the body itself when it is an array, else its array property named after the
 * collection or a usual name (items, data, results…), else (unless `strict`) its one array property.
 */
export function listItems(
  document: unknown,
  value: unknown,
  collectionWord: string | undefined,
  strict = false,
): { pointer: string; items: unknown } | undefined {
  const { schema } = followSchema(document, value);
  if (!schema) return undefined;
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array')))
    return { pointer: '', items: schema.items };
  const arrays: [string, unknown][] = [];
  for (const [key, property] of propertiesOf(document, schema)) {
    const resolved = followSchema(document, property).schema;
    if (resolved?.type === 'array' || (Array.isArray(resolved?.type) && resolved.type.includes('array')))
      arrays.push([key, resolved.items]);
  }
  const preferred =
    arrays.find(([key]) => key === collectionWord) ??
    arrays.find(([key]) => itemKeys.includes(key.toLowerCase())) ??
    (arrays.length === 1 && !strict ? arrays[0] : undefined);
  return preferred ? { pointer: `/${escapePointer(preferred[0])}`, items: preferred[1] } : undefined;
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
