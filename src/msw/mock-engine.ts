// The engine behind the handlers, as an interface: what turns one request record into one answer. Made in one
// place, makeEngine, so that the stateful engine (src/mock/engine/, the store) replaces the stateless one there
// and nowhere else; the handlers see only `answer`.
import { compileContract } from '../core/compile-contract.js';
import type { RequestRecord } from '../core/check-request.js';
import type { LoadedSpec } from '../core/load-spec.js';
import { answerRequest, type Engine } from '../mock/engine/answer-request.js';
import type { EngineAnswer } from '../mock/engine/engine-answer.js';
import { basePaths } from '../mock/engine/route.js';

export interface MockEngine {
  /** The answer to one request; every answer has passed the spec's checks (engine-answer.ts `guarded`). */
  answer(request: RequestRecord): EngineAnswer | Promise<EngineAnswer>;
}

/**
 * The engine for `spec`: validators compiled per operation when a request first needs one, as `contracts sandbox`
 * does, so a big spec's handlers are ready at once.
 */
export function makeEngine(spec: LoadedSpec): MockEngine {
  const engine: Engine = {
    contract: compileContract(spec, { lazy: true, lazyRequests: true }),
    bases: basePaths(spec.document),
    answers: new Map(),
  };
  return { answer: (request) => answerRequest(engine, request) };
}
