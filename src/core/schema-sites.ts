// Finds every Schema Object in an OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0#schema-object),
// nested subschemas included, by the document path a validator can be compiled at.
import { isLiteral, isNameMap } from './literal-values.js';
import type { JsonPath } from './source-locator.js';

export interface SchemaSite {
  path: JsonPath;
  schema: Record<string, unknown> | boolean;
}

const schemaMapKeywords = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
/** The 2020-12 keywords whose value is one schema, apart from `items` and `additionalProperties`. */
export const applicatorKeywords = [
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
] as const;
const schemaKeywords = ['items', 'additionalProperties', ...applicatorKeywords];
const schemaArrayKeywords = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** Top-level schemas: components.schemas entries and every `schema` field of a parameter, header or media type. */
export function rootSchemaSites(document: unknown): SchemaSite[] {
  const sites: SchemaSite[] = [];
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      const childPath = [...path, key];
      const inComponentSchemas = path.length === 2 && path[0] === 'components' && path[1] === 'schemas';
      // In a map of names, `schema` is a name (a parameter called so) and `default` a response: literal-values.ts.
      const schemaField = key === 'schema' && !isNameMap(path);
      if ((schemaField || inComponentSchemas) && isSchema(child)) sites.push({ path: childPath, schema: child });
      else if (!isLiteral(key, child, path) && !key.startsWith('x-')) walk(child, childPath);
    }
  };
  walk(document, []);
  return sites;
}

/** A schema and all its subschemas, parents first. */
export function subschemaSites(root: SchemaSite): SchemaSite[] {
  const sites: SchemaSite[] = [];
  const visit = (schema: unknown, path: JsonPath): void => {
    if (!isSchema(schema)) return;
    sites.push({ path, schema });
    if (typeof schema === 'boolean') return;
    for (const keyword of schemaMapKeywords) {
      const map = schema[keyword];
      if (map !== null && typeof map === 'object' && !Array.isArray(map)) {
        for (const [name, child] of Object.entries(map)) visit(child, [...path, keyword, name]);
      }
    }
    for (const keyword of schemaKeywords) if (keyword in schema) visit(schema[keyword], [...path, keyword]);
    for (const keyword of schemaArrayKeywords) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((child, index) => visit(child, [...path, keyword, index]));
    }
  };
  visit(root.schema, root.path);
  return sites;
}

function isSchema(value: unknown): value is Record<string, unknown> | boolean {
  return typeof value === 'boolean' || (value !== null && typeof value === 'object' && !Array.isArray(value));
}
