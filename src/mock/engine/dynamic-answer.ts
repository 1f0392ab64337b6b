// Prism's `Prefer: dynamic=true` (prefer.ts): an answer that does not come from the store (an operation of no
// resource, or a `Prefer: code=` status) gets a body generated from its schema, new each request, where it would
// otherwise get the spec's example. The documented answer's headers are kept; the body is a value the compiled
// validator accepts (valid-body.ts, examples left out), judged again with the rest by guarded() before it is sent. A
// stored item is always answered as stored, a refusal as the engine words it; where no value is found within the
// bound, the example answer stands (undefined here). `dynamic=false` is the default: examples first.
import { checkRequest, type RequestRecord } from '../../core/check-request.js';
import { headerValue } from '../../core/exchange.js';
import { mockRefusal } from '../../core/mock-refusal.js';
import { responseFor } from '../../core/operation-index.js';
import { validBody } from '../valid-body.js';
import { answerRequest } from './answer-request.js';
import { compiledResponse } from './documented-answer.js';
import { guarded, type EngineAnswer } from './engine-answer.js';
import { readPrefer } from './prefer.js';
import { route, type Route } from './route.js';
import { answerStateful } from './stateful-answer.js';
import type { Stateful } from './stateful-engine.js';
import { successStatus } from './statuses.js';

/** Proposals tried per request: a generated body is new each time, so the bound is per request. */
const proposals = 50;

export function dynamicAnswer(stateful: Stateful, request: RequestRecord, routed: Route): EngineAnswer | undefined {
  const prefer = headerValue(request.headers, 'prefer');
  if (prefer === undefined || !/dynamic/i.test(prefer)) return undefined;
  const preferences = readPrefer(prefer);
  if (preferences.dynamic !== true || preferences.example !== undefined) return undefined;
  const { engine } = stateful;
  if (routed.kind !== 'operation') return undefined;
  const { operation } = routed.match;
  if (preferences.code === undefined && stateful.operations.has(operation.operationId)) return undefined;
  const judgedAs = { method: operation.method.toUpperCase(), path: routed.path, operationId: operation.operationId };
  const judged = { ...request, method: judgedAs.method, path: judgedAs.path };
  if (checkRequest(engine.contract, judged, routed.match).findings.some((f) => f.severity === 'error'))
    return undefined;
  const status = preferences.code ?? successStatus(operation);
  if (status === undefined || !responseFor(operation, status)) return undefined;
  const compiled = engine.contract.byOperationId.get(operation.operationId)!;
  const documented = answerRequest(engine, request, routed);
  if (mockRefusal(documented) !== undefined || documented.status !== status) return undefined;
  const type = documented.headers['content-type'];
  const media = compiledResponse(compiled, status)?.mediaTypes.find(
    (candidate) => candidate.json && candidate.validate && (type === undefined || type === candidate.mediaType),
  );
  if (!media) return undefined;
  const seed = Math.floor(Math.random() * 2 ** 31);
  const made = validBody(engine.contract, media, { generatedOnly: true, seed, proposals });
  if (!made) return undefined;
  return guarded(engine.contract, judgedAs, [], { ...documented, body: JSON.stringify(made.value) });
}

/**
 * The stateful engine's answer with `Prefer: dynamic=true` honoured: what the server and the hooks call. The request
 * is routed here once (`routed` when the caller did it already) and the route handed on, not matched again.
 */
export function engineAnswer(
  stateful: Stateful,
  request: RequestRecord,
  routed: Route = route(stateful.engine.contract.operations, stateful.engine.bases, request.method, request.path),
): EngineAnswer {
  return dynamicAnswer(stateful, request, routed) ?? answerStateful(stateful, request, routed);
}
