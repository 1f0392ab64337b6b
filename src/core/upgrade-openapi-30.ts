// Upgrades an OpenAPI 3.0.x document (https://spec.openapis.org/oas/v3.0.3#schema-object) to 3.1 in memory, so
// the rest of the toolkit sees one dialect. Only values under Schema Objects change, and every JSON path of the
// user's document stays where it was, except under a wrapped schema (see `nullable` below), whose paths are
// recorded so a message still points at the user's line.
import { rootSchemaSites } from './schema-sites.js';
import type { JsonPath } from './source-locator.js';

/** Maps a path in the upgraded document to the path of the same node in the user's document. */
export type SourcePath = (path: JsonPath) => JsonPath;

export interface Upgraded {
  document: Record<string, unknown>;
  sourcePath: SourcePath;
}

interface Rewrite {
  upgraded: JsonPath;
  original: JsonPath;
}

// 3.0 Schema Object keywords holding subschemas (3.0 has no $defs, prefixItems, if/then/else…).
const schemaMapKeywords = ['properties'];
const schemaKeywords = ['items', 'additionalProperties', 'not'];
const schemaArrayKeywords = ['allOf', 'anyOf', 'oneOf'];

export function isOpenApi30(version: unknown): boolean {
  return typeof version === 'string' && /^3\.0\.\d+$/.test(version);
}

/** A 3.1 copy of a 3.0 document; the input is not changed. */
export function upgradeOpenApi30(document: Record<string, unknown>): Upgraded {
  const upgraded = structuredClone(document);
  upgraded.openapi = '3.1.0';
  const rewrites: Rewrite[] = [];
  for (const site of rootSchemaSites(upgraded)) {
    const parent = site.path
      .slice(0, -1)
      .reduce<Record<string, unknown>>((node, step) => node[step] as Record<string, unknown>, upgraded);
    parent[site.path[site.path.length - 1] as string] = upgradeSchema(
      site.schema,
      [...site.path],
      [...site.path],
      rewrites,
    );
  }
  // Longest prefix first, so the innermost wrapped schema decides.
  rewrites.sort((a, b) => b.upgraded.length - a.upgraded.length);
  const sourcePath: SourcePath = (path) => {
    const rewrite = rewrites.find(
      (r) => r.upgraded.length <= path.length && r.upgraded.every((step, i) => String(step) === String(path[i])),
    );
    return rewrite ? [...rewrite.original, ...path.slice(rewrite.upgraded.length)] : path;
  };
  return { document: upgraded, sourcePath };
}

function upgradeSchema(value: unknown, upgradedPath: JsonPath, originalPath: JsonPath, rewrites: Rewrite[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const schema = { ...(value as Record<string, unknown>) };
  // In 3.0 the siblings of a $ref are ignored: nothing there to upgrade, and the target is upgraded where it is.
  if (typeof schema.$ref === 'string') {
    delete schema.nullable;
    return schema;
  }
  // No `type` beside `nullable: true` (e.g. beside allOf, as openapi-typescript reads it: `T | null`): the schema
  // becomes the first branch of an anyOf with null, so its subschemas sit one level down.
  const wrap = schema.nullable === true && schema.type === undefined;
  const base = wrap ? [...upgradedPath, 'anyOf', 0] : upgradedPath;
  const into = (key: (string | number)[], child: unknown) =>
    upgradeSchema(child, [...base, ...key], [...originalPath, ...key], rewrites);
  for (const keyword of schemaMapKeywords) {
    const map = schema[keyword];
    if (map !== null && typeof map === 'object' && !Array.isArray(map)) {
      schema[keyword] = Object.fromEntries(
        Object.entries(map).map(([name, child]) => [name, into([keyword, name], child)]),
      );
    }
  }
  for (const keyword of schemaKeywords) if (keyword in schema) schema[keyword] = into([keyword], schema[keyword]);
  for (const keyword of schemaArrayKeywords) {
    const list = schema[keyword];
    if (Array.isArray(list)) schema[keyword] = list.map((child, index) => into([keyword, index], child));
  }

  // 3.0: a boolean that makes `minimum`/`maximum` exclusive; 3.1: the exclusive bound itself.
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    } else if (typeof schema[exclusive] === 'boolean') {
      delete schema[exclusive];
    }
  }
  // 3.0 file uploads: a binary string is raw content (3.1: contentMediaType), base64 is an encoding.
  if (schema.type === 'string' && schema.format === 'binary') {
    delete schema.format;
    schema.contentMediaType ??= 'application/octet-stream';
  } else if (schema.type === 'string' && schema.format === 'base64') {
    delete schema.format;
    schema.contentEncoding = 'base64';
  }
  // `example` stays: 3.1 keeps it in the Schema Object (deprecated, not removed), and so its path stays too.

  const nullable = schema.nullable === true;
  delete schema.nullable;
  if (!nullable) return schema;
  // 3.0: `nullable: true` adds null to the types allowed; an `enum` still restricts (3.0.3 clarifies this).
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    return schema;
  }
  if (!wrap) return schema;
  // The rewrite maps the moved paths back to where the user wrote them.
  rewrites.push({ upgraded: base, original: originalPath });
  return { anyOf: [schema, { type: 'null' }] };
}
