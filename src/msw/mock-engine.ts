// The engine behind the handlers, as an interface: what turns one request record into one answer. Made in one
// place, makeEngine: the stateful engine (src/mock/engine/stateful-engine.ts: what a create stores a read returns),
// one store per handlers() call; the handlers see only `answer`.
import type { RequestRecord } from '../core/check-request.js';
import type { LoadedSpec } from '../core/load-spec.js';
import type { EngineAnswer } from '../mock/engine/engine-answer.js';
import { answerStateful } from '../mock/engine/stateful-answer.js';
import { statefulEngine } from '../mock/engine/stateful-engine.js';

export interface MockEngine {
  /** The answer to one request; every answer has passed the spec's checks (engine-answer.ts `guarded`). */
  answer(request: RequestRecord): EngineAnswer | Promise<EngineAnswer>;
  /** Back to the state it started in (an empty store; ids drawn afresh), as the sandbox's POST /__contracts/reset. */
  reset(): void;
  /** What the store holds, `{ "<collection>": [item, …] }` oldest first, as GET /__contracts/state answers. */
  state(): Record<string, unknown[]>;
}

/**
 * The engine for `spec`: validators compiled per operation when a request first needs one, as `contracts sandbox`
 * does, so a big spec's handlers are ready at once. (The stateless engine instead: answerRequest(engine, request)
 * on an Engine of answer-request.ts.)
 */
export function makeEngine(spec: LoadedSpec): MockEngine {
  const stateful = statefulEngine(spec);
  return {
    answer: (request) => answerStateful(stateful, request),
    // What plant(stateful, []) of seed-data.ts does, which this entry cannot import (it reads files: no browser).
    reset: () => {
      stateful.store.clear();
      stateful.drawn.clear();
    },
    // A copy: a test that changes what it was given must not change what the handlers hold.
    state: () => structuredClone(stateful.store.snapshot()),
  };
}
