// contracts-example-valid: every example satisfies its schema, judged by the same compiled ajv validators that
// the conformance suite uses, so lint, mock and conformance never disagree.
import type { IFunctionResult } from '@stoplight/spectral-core';
import type { CompiledSpec } from '../../core/compile-spec.js';
import { exampleSites } from '../../core/example-sites.js';

export function exampleValidResults(compiled: CompiledSpec): IFunctionResult[] {
  const results: IFunctionResult[] = [];
  for (const site of exampleSites(compiled.spec.document)) {
    let errors;
    try {
      errors = compiled.validateAt(site.schemaPath, site.value);
    } catch {
      continue; // A schema that does not compile is reported by contracts-schema-valid.
    }
    const shown = errors.filter(
      (error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf' && error.keyword !== 'if',
    );
    for (const error of shown.length > 0 ? shown : errors) {
      results.push({
        message: `${site.label} does not match its schema: ${error.message.replace(/^body\b/, 'the example')}`,
        path: [...site.examplePath],
      });
    }
  }
  return results;
}
