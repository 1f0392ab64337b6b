// contracts-response-example: a response media type with a schema but no example. OpenAPI makes examples optional
// (https://spec.openapis.org/oas/v3.1.0#media-type-object), so this is a warning: without one, a mock (Prism's static
// mode, `contracts mock`, `fuzz` without --base-url) has no real data to serve and makes an answer from the schema
// alone. An example on the media type (`example`, `examples`) or on its schema (`example`, `examples`) counts.
import type { IFunctionResult } from '@stoplight/spectral-core';
import type { CompiledSpec } from '../../core/compile-spec.js';
import { resolvePointer } from '../../core/load-spec.js';
import { indexOperations } from '../../core/operation-index.js';
import { deref } from '../../core/request-model.js';
import { pathToPointer } from '../../core/source-locator.js';

export function responseExampleResults(compiled: CompiledSpec): IFunctionResult[] {
  const document = compiled.spec.document;
  const reported = new Set<string>();
  const results: IFunctionResult[] = [];
  for (const operation of indexOperations(document)) {
    for (const response of operation.responses) {
      for (const media of response.mediaTypes) {
        if (media.schemaPath === undefined) continue;
        // A response shared through components is said once, where it is written.
        const path = [...response.path, 'content', media.mediaType];
        const pointer = pathToPointer(path);
        if (reported.has(pointer)) continue;
        reported.add(pointer);
        const mediaObject = resolvePointer(document, '#' + pointer);
        const schema = deref(document, resolvePointer(document, '#' + pathToPointer(media.schemaPath)));
        if (hasExample(mediaObject) || hasExample(schema)) continue;
        // A shared response is named by where it is written, then by the first operation that uses it.
        const where = response.path[0] === 'paths' ? '' : ` (${pathToPointer(response.path).slice(1)})`;
        results.push({
          message: `response ${response.status} ${media.mediaType} of ${operation.operationId}${where} has a schema but no example: a mock can only make one up from the schema (add \`example\` or \`examples\`)`,
          path,
        });
      }
    }
  }
  return results;
}

function hasExample(node: unknown): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
  const examples = (node as { examples?: unknown }).examples;
  const some =
    (Array.isArray(examples) && examples.length > 0) ||
    (examples !== null && typeof examples === 'object' && Object.keys(examples).length > 0);
  return Object.hasOwn(node, 'example') || some;
}
