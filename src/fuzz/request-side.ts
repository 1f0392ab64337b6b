// What a fuzz run makes requests from and judges them by, for one spec: the generation view and the request view
// (src/core/read-write-views.ts). A required readOnly property is not required of a request (OpenAPI 3.0.3
// §4.7.24.1; taken for 3.1 too), and a 3.0 request leaves it out (it SHOULD NOT be sent); the judge, violations(),
// runs the request view's validators, at the same schema paths.
import { compileSpec, type CompiledSpec } from '../core/compile-spec.js';
import type { LoadedSpec } from '../core/load-spec.js';
import { generationSpec, requestSpec } from '../core/read-write-views.js';
import { operationModels, type OperationModel } from './request-model.js';

export interface RequestSide {
  /** The document the generators resolve `$ref`s in. */
  document: unknown;
  models: OperationModel[];
  /** The judge's validators. */
  compiled: CompiledSpec;
}

export function requestSide(spec: LoadedSpec): RequestSide {
  const generation = generationSpec(spec);
  return {
    document: generation.document,
    models: operationModels(generation),
    compiled: compileSpec(requestSpec(spec)),
  };
}
