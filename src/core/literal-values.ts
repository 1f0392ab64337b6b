// Where a spec holds literal data rather than OpenAPI structure: example, default, enum and const values, an Example
// Object's value and a schema's examples array (https://spec.openapis.org/oas/v3.1.0#example-object). A `$ref`,
// `$id` or `$schema` key there is data: it is never resolved or read as a schema keyword.
import type { JsonPath } from './source-locator.js';

const literalKeys = new Set(['example', 'default', 'enum', 'const']);

/** Whether `key` (with value `child`, in the object at `at`) holds literal data rather than OpenAPI structure. */
export function isLiteral(key: string, child: unknown, at: JsonPath): boolean {
  return (
    at[at.length - 1] !== 'properties' &&
    (literalKeys.has(key) ||
      (key === 'value' && at[at.length - 2] === 'examples') ||
      (key === 'examples' && Array.isArray(child)))
  );
}
