// contracts-example-valid: every example satisfies its schema, judged by the same compiled ajv validators that
// the conformance suite uses, so lint, mock and conformance never disagree.
import type { IFunctionResult } from '@stoplight/spectral-core';
import { compileSpec, type CompiledSpec, type SchemaError } from '../../core/compile-spec.js';
import { exampleSites } from '../../core/example-sites.js';
import { directionViews } from '../../core/read-write-views.js';
import type { JsonPath } from '../../core/source-locator.js';
import { validatorPerKey } from '../validator-per-key.js';
import { sharedWithView } from '../view-sharing.js';

export function exampleValidResults(compiled: CompiledSpec): IFunctionResult[] {
  const results: IFunctionResult[] = [];
  const judge = directionJudge(compiled);
  for (const site of exampleSites(compiled.spec.document)) {
    let errors;
    try {
      errors = judge(site.examplePath, site.schemaPath, site.value);
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

/**
 * How an example is judged. A spec with a readOnly or writeOnly property that some `required` names is judged per
 * direction (read-write-views.ts; OpenAPI 3.0.3 §4.7.24.1): a request body's example need not carry a required
 * readOnly `id`, a response's need not carry a required writeOnly `password`. An example whose direction its place
 * does not say (a schema's own, a webhook's or callback's) passes if either direction accepts it.
 */
function directionJudge(compiled: CompiledSpec): (at: JsonPath, schemaPath: JsonPath, value: unknown) => SchemaError[] {
  const views = directionViews(compiled.spec);
  const judge = validatorPerKey(compiled);
  if (!views) return (_at, schemaPath, value) => judge(schemaPath, value);
  const options = { optimize: false, unknownKeywords: 'refuse' } as const;
  let request: CompiledSpec | undefined;
  let response: CompiledSpec | undefined;
  // A schema the view leaves as it is is judged by the spec's own validators (view-sharing.ts): no compile of its own.
  const requestShares = sharedWithView(compiled.spec.document, views.request.document);
  const responseShares = sharedWithView(compiled.spec.document, views.response.document);
  const asRequest = (schemaPath: JsonPath, value: unknown) =>
    requestShares(schemaPath)
      ? judge(schemaPath, value)
      : (request ??= compileSpec(views.request, views.request.document, options)).validateAt(schemaPath, value);
  const asResponse = (schemaPath: JsonPath, value: unknown) =>
    responseShares(schemaPath)
      ? judge(schemaPath, value)
      : (response ??= compileSpec(views.response, views.response.document, options)).validateAt(schemaPath, value);
  return (at, schemaPath, value) => {
    const direction = directionOf(at);
    if (direction === 'request') return asRequest(schemaPath, value);
    if (direction === 'response') return asResponse(schemaPath, value);
    const errors = asResponse(schemaPath, value);
    return errors.length === 0 ? errors : asRequest(schemaPath, value).length === 0 ? [] : errors;
  };
}

/** The direction the OpenAPI structure above the example says (read up to its schema: names below are the user's). */
function directionOf(at: JsonPath): 'request' | 'response' | undefined {
  const schema = at.indexOf('schema');
  const structure = schema < 0 ? at : at.slice(0, schema);
  if (structure[0] === 'webhooks' || structure.includes('callbacks')) return undefined;
  if (structure[0] === 'components' && structure[1] === 'schemas') return undefined;
  for (const step of structure) {
    if (step === 'requestBody' || step === 'requestBodies' || step === 'parameters') return 'request';
    if (step === 'responses' || step === 'headers') return 'response';
  }
  return undefined;
}
