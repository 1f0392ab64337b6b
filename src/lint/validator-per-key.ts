// One validator per compile key (core/compile-key.ts) for lint's example checks. Two schema paths with the same key
// compile alike and their validators accept the same values with the same errors (instance paths, keywords,
// parameters: what contracts-example-valid reports; only the schema paths inside differ, and it shows none). GitHub's
// description has 2,802 example schemas, most of them written again and again under each operation: each distinct
// one is compiled once, not once per place (about 2 s of its lint).
import type { CompiledSpec, SchemaError } from '../core/compile-spec.js';
import type { JsonPath } from '../core/source-locator.js';

/** `compiled.validateAt`, with every path of one compile key judged by the validator of the first path asked. */
export function validatorPerKey(compiled: CompiledSpec): (schemaPath: JsonPath, value: unknown) => SchemaError[] {
  const firstPath = new Map<string, JsonPath>();
  return (schemaPath, value) => {
    const key = compiled.compileKey(schemaPath);
    if (key === undefined) return compiled.validateAt(schemaPath, value);
    let path = firstPath.get(key);
    if (path === undefined) firstPath.set(key, (path = schemaPath));
    return compiled.validateAt(path, value);
  };
}
