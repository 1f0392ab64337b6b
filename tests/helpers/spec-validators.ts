// Judges a response against the shipped specs with the core's compiled validators (until the conformance
// suite's checks exist, the mock tests use this).
import { apis, specPath, type ApiName } from '../../src/apis.js';
import { compileSpec, type CompiledSpec } from '../../src/core/compile-spec.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { indexOperations, matchOperation, responseFor, type OperationSpec } from '../../src/core/operation-index.js';

const cache = new Map<ApiName, Promise<{ compiled: CompiledSpec; operations: OperationSpec[] }>>();

function specFor(api: ApiName) {
  let entry = cache.get(api);
  if (!entry) {
    entry = loadSpec(specPath(apis[api])).then((spec) => ({ compiled: compileSpec(spec), operations: indexOperations(spec.document) }));
    cache.set(api, entry);
  }
  return entry;
}

/** Problems with a response, as messages; an empty array when it conforms. */
export async function responseProblems(api: ApiName, method: string, path: string, status: number, contentType: string | null, body: string): Promise<string[]> {
  const { compiled, operations } = await specFor(api);
  const match = matchOperation(operations, method, path);
  if (!match) return [`no operation for ${method} ${path}`];
  const response = responseFor(match.operation, status);
  if (!response) return [`status ${status} is not documented for ${match.operation.operationId}`];
  if (response.noBody || response.mediaTypes.length === 0) return body === '' || !response.noBody ? [] : [`status ${status} must have no body`];
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  const media = response.mediaTypes.find((candidate) => candidate.mediaType === mediaType);
  if (!media) return [`content type ${contentType} is not documented for ${status}`];
  if (!media.schemaPath) return [];
  return compiled.validateAt(media.schemaPath, JSON.parse(body)).map((error) => error.message);
}
