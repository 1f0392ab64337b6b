// contracts-schema-valid: every Schema Object is valid 2020-12 and compiles with the shared ajv setup in strict
// mode, so a misspelt keyword (`maxLenght`), an unknown format or a bad pattern is caught here, where it is
// written, and not at conformance time.
import type { IFunctionResult } from '@stoplight/spectral-core';
import type { CompiledSpec } from '../../core/compile-spec.js';
import { rootSchemaSites, subschemaSites, type SchemaSite } from '../../core/schema-sites.js';
import { pointerToPath } from '../../core/source-locator.js';

export function schemaValidResults(compiled: CompiledSpec): IFunctionResult[] {
  const { ajv } = compiled;
  // Component schemas first: a compile error is reported where the schema is written, not where it is used.
  const roots = rootSchemaSites(compiled.spec.document).sort(
    (a, b) => Number(b.path[0] === 'components') - Number(a.path[0] === 'components'),
  );
  const results: IFunctionResult[] = [];

  for (const root of roots) {
    for (const site of subschemaSites(root)) {
      if (typeof site.schema === 'boolean') continue;
      for (const keyword of Object.keys(site.schema)) {
        if (!ajv.RULES.keywords[keyword]) {
          results.push({
            message: `unknown schema keyword "${keyword}" (misspelt? extensions must start with x-)`,
            path: [...site.path, keyword],
          });
        }
      }
    }
    if (!ajv.validateSchema(root.schema as object)) {
      for (const error of ajv.errors ?? []) {
        results.push({
          message: `invalid schema: ${error.instancePath || 'schema'} ${error.message ?? ''}`.trim(),
          path: [...root.path, ...pointerToPath(error.instancePath)],
        });
      }
    }
  }
  // Compiling follows $refs into other schemas: only worth doing once every schema is well-formed on its own.
  if (results.length === 0) results.push(...compileErrors(compiled, roots));
  return results;
}

function compileErrors(compiled: CompiledSpec, roots: SchemaSite[]): IFunctionResult[] {
  const seen = new Set<string>();
  const results: IFunctionResult[] = [];
  // A schema that compiles alike one that compiled already (compile-key.ts) compiles too; one that failed is
  // compiled again, for its own message.
  const compiles = new Set<string>();
  for (const root of roots) {
    const key = compiled.compileKey(root.path);
    if (key !== undefined && compiles.has(key)) continue;
    try {
      compiled.validatorAt(root.path);
      if (key !== undefined) compiles.add(key);
    } catch (error) {
      const message =
        (error as { ajvMessage?: string }).ajvMessage ??
        (error as Error).message.replace(/ in schema at path ".*"$/, '');
      if (seen.has(message)) continue;
      seen.add(message);
      results.push({ message: `schema does not compile: ${message}`, path: [...root.path] });
    }
  }
  return results;
}
