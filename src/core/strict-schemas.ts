// The --strict variant of a document: object schemas refuse properties they do not list
// (`unevaluatedProperties: false`, JSON Schema 2020-12 section 11.3), so unknown fields become findings.
import { resolvePointer } from './source-locator.js';
import { rootSchemaSites, subschemaSites } from './schema-sites.js';

const compositionKeywords = ['allOf', 'anyOf', 'oneOf'];

/**
 * A copy of the document where every object schema that declares properties refuses undeclared ones, except
 * composition members (allOf/anyOf/oneOf branches, inline or by $ref) and what they contain: a member sees only
 * part of the object, so only the schema that combines them can tell which properties are unknown.
 */
export function strictDocument(document: object): object {
  const copy = structuredClone(document) as Record<string, unknown>;
  const memberRefs = new Set<string>();
  const memberPaths: string[] = [];
  for (const root of rootSchemaSites(copy)) {
    for (const site of subschemaSites(root)) {
      if (typeof site.schema === 'boolean') continue;
      for (const keyword of compositionKeywords) {
        const members = site.schema[keyword];
        if (!Array.isArray(members)) continue;
        members.forEach((member, index) => {
          memberPaths.push(JSON.stringify([...site.path, keyword, index]).slice(0, -1));
          const ref = (member as { $ref?: unknown } | null)?.$ref;
          if (typeof ref === 'string') memberRefs.add(ref);
        });
      }
    }
  }
  const isMember = (path: ReadonlyArray<string | number>) => {
    const text = JSON.stringify(path);
    return (
      memberPaths.some((prefix) => text === prefix + ']' || text.startsWith(prefix + ',')) ||
      memberRefs.has('#/' + path.map(String).join('/'))
    );
  };
  for (const root of rootSchemaSites(copy)) {
    for (const site of subschemaSites(root)) {
      if (typeof site.schema === 'boolean' || isMember(site.path)) continue;
      // Sites hold the copy's own objects: setting the keyword here changes the copy.
      const schema = site.schema;
      if (
        describesObject(copy, schema, 0) &&
        !('additionalProperties' in schema) &&
        !('unevaluatedProperties' in schema)
      )
        schema.unevaluatedProperties = false;
    }
  }
  return copy;
}

/**
 * Whether a schema describes an object's properties, itself or through its composition members. A schema that
 * allows any type (an open branch such as insecure_ssl's "further type") is left alone.
 */
function describesObject(document: object, schema: unknown, depth: number): boolean {
  if (depth > 8 || schema === null || typeof schema !== 'object') return false;
  const record = schema as Record<string, unknown>;
  if (typeof record.$ref === 'string')
    return describesObject(document, resolvePointer(document, record.$ref), depth + 1);
  // An object schema without properties (metadata: keys not shown) is open, not strict.
  if ('properties' in record) return true;
  return compositionKeywords.some(
    (keyword) =>
      Array.isArray(record[keyword]) &&
      (record[keyword] as unknown[]).some((member) => describesObject(document, member, depth + 1)),
  );
}
