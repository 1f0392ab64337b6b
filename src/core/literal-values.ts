// Where a spec holds literal data rather than OpenAPI structure: example, default, enum and const values, an Example
// Object's value and a schema's examples array (https://spec.openapis.org/oas/v3.1.0#example-object). A `$ref`,
// `$id` or `$schema` key there is data: it is never resolved or read as a schema keyword.
// A key is literal only where it stands as a keyword: in a map of names (a Responses Object's `default` response,
// §4.8.16; a property named `example` under `properties`; a parameter or schema named `enum` in Components) it is a
// name, and what it holds is structure.
import type { JsonPath } from './source-locator.js';

const literalKeys = new Set(['example', 'default', 'enum', 'const']);

// Keywords whose value is a map from names (chosen by the spec's author) to objects of the spec: Paths, Responses,
// Components' sections, Callbacks, a Media Type's examples and encoding, a schema's properties and definitions.
const nameMaps = new Set([
  'paths',
  'webhooks',
  'responses',
  'schemas',
  'parameters',
  'examples',
  'requestBodies',
  'headers',
  'securitySchemes',
  'links',
  'callbacks',
  'pathItems',
  'content',
  'encoding',
  'variables',
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/**
 * Whether the object at `at` is a map of names. Its last key must be a name-map keyword standing as a keyword: in
 * `properties/properties` the second is the name of a property (its object is a schema), in `properties/properties/
 * properties` the third is that schema's keyword again. So an odd run of such keys at the end makes a map of names.
 */
export function isNameMap(at: JsonPath): boolean {
  let run = 0;
  for (let index = at.length - 1; index >= 0; index--) {
    const segment = at[index];
    if (typeof segment !== 'string' || !nameMaps.has(segment)) break;
    run++;
  }
  return run % 2 === 1;
}

/** Whether `key` (with value `child`, in the object at `at`) holds literal data rather than OpenAPI structure. */
export function isLiteral(key: string, child: unknown, at: JsonPath): boolean {
  if (isNameMap(at)) return false;
  return (
    literalKeys.has(key) ||
    (key === 'value' && at[at.length - 2] === 'examples' && isNameMap(at.slice(0, -1))) ||
    (key === 'examples' && Array.isArray(child))
  );
}
