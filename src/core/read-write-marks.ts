// Which properties of a Schema Object are marked `readOnly` or `writeOnly` (OpenAPI 3.0.3 §4.7.24.1, Schema Object
// fixed fields; JSON Schema 2020-12 Validation §9.4 for 3.1). A mark counts wherever it applies to the property's
// value: on its schema, on a schema it `$ref`s, or on an `allOf` member (§9.4: "the resulting behavior should be as
// for a true value if any occurrence specifies a true value"). Every walk here is bounded by the document: each
// schema object is visited once per question.
import { resolvePointer } from './source-locator.js';

export type DirectionMark = 'readOnly' | 'writeOnly';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The schema a local `$ref` names, or undefined when it names nothing (the loader has refused dangling ones). */
export function refTarget(document: unknown, schema: Schema): Schema | undefined {
  if (typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#')) return undefined;
  const target = resolvePointer(document, schema.$ref);
  return isSchema(target) ? target : undefined;
}

// Answers per document and mark, so a component named by many properties is looked into once.
const answers = new WeakMap<object, Record<DirectionMark, WeakMap<Schema, boolean>>>();

/** Whether a property's schema carries the mark: itself, through its `$ref`s or in an `allOf` member. */
export function carriesMark(document: unknown, schema: unknown, mark: DirectionMark): boolean {
  if (!isSchema(schema)) return false;
  const key = isSchema(document) ? document : answers;
  let known = answers.get(key);
  if (!known) answers.set(key, (known = { readOnly: new WeakMap(), writeOnly: new WeakMap() }));
  let answer = known[mark].get(schema);
  if (answer === undefined) known[mark].set(schema, (answer = carries(document, schema, mark, new Set())));
  return answer;
}

function carries(document: unknown, schema: unknown, mark: DirectionMark, seen: Set<Schema>): boolean {
  if (!isSchema(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (schema[mark] === true) return true;
  const target = refTarget(document, schema);
  if (target && carries(document, target, mark, seen)) return true;
  return Array.isArray(schema.allOf) && schema.allOf.some((member) => carries(document, member, mark, seen));
}

/**
 * The names of the properties an object schema declares with the mark: in its own `properties`, and in those of the
 * schemas it brings in whole (`$ref`, `allOf` members), since they describe the same object.
 */
export function markedNames(document: unknown, schema: unknown, mark: DirectionMark): Set<string> {
  const names = new Set<string>();
  const seen = new Set<Schema>();
  const visit = (node: unknown): void => {
    if (!isSchema(node) || seen.has(node)) return;
    seen.add(node);
    const properties = node.properties;
    if (isSchema(properties))
      for (const [name, property] of Object.entries(properties))
        if (carriesMark(document, property, mark)) names.add(name);
    const target = refTarget(document, node);
    if (target) visit(target);
    if (Array.isArray(node.allOf)) for (const member of node.allOf) visit(member);
  };
  visit(schema);
  return names;
}
