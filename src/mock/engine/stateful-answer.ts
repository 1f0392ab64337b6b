// The stateful engine's answer to one request: transport-free, `{method, path, query, headers, body}` to
// `{status, headers, body}`, so a server (start-stateful.ts) or an in-process adapter (msw) wraps it. An operation the
// resource model gives a role acts on the store (stateful-roles.ts, list-page.ts); a request the spec refuses, a
// `Prefer: code=`/`example=`, and an operation of no resource are the stateless engine's (answer-request.ts).
// Every answer is judged by the core's exchange checks before it is returned (guarded): one they refuse becomes the
// mock's own 500 naming why, never served as the API's.
import { checkRequest, type RequestRecord } from '../../core/check-request.js';
import { headerValue } from '../../core/exchange.js';
import type { Finding } from '../../core/finding.js';
import type { Role } from '../../core/resource-model/types.js';
import { answerRequest } from './answer-request.js';
import { guarded, type EngineAnswer } from './engine-answer.js';
import { list } from './list-page.js';
import { readPrefer } from './prefer.js';
import { route, type Route } from './route.js';
import type { Stateful } from './stateful-engine.js';
import { action, create, read, remove, replace, update } from './stateful-roles.js';
import type { Call } from './stateful-reply.js';

/** The role a request acts in when its operation has several (a PUT that creates or replaces): the first here. */
const byRole: [Role, (call: Call) => EngineAnswer][] = [
  ['create', create],
  ['read', read],
  ['list', list],
  ['update', update],
  ['replace', replace],
  ['delete', remove],
  ['action', action],
];

const noFindings: Finding[] = [];

/** `routed`: the request's route when the caller has it (engineAnswer), so the request is matched once. */
export function answerStateful(
  stateful: Stateful,
  request: RequestRecord,
  routed: Route = route(stateful.engine.contract.operations, stateful.engine.bases, request.method, request.path),
): EngineAnswer {
  const { engine } = stateful;
  const { contract } = engine;
  if (routed.kind !== 'operation') return answerRequest(engine, request, routed);
  const { operation: spec, pathParams } = routed.match;
  const entry = stateful.operations.get(spec.operationId);
  if (!entry) return answerRequest(engine, request, routed);
  const preferences = readPrefer(headerValue(request.headers, 'prefer'));
  if (preferences.code !== undefined || preferences.example !== undefined)
    return answerRequest(engine, request, routed);
  const judgedAs = { method: spec.method.toUpperCase(), path: routed.path, operationId: spec.operationId };
  const checked = checkRequest(contract, { ...request, method: judgedAs.method, path: judgedAs.path }, routed.match);
  if (checked.findings.some((finding) => finding.severity === 'error')) return answerRequest(engine, request, routed);
  const handler = byRole.find(([role]) => entry.operation.roles.includes(role))?.[1];
  if (!handler) return answerRequest(engine, request, routed);
  const call: Call = {
    stateful,
    operation: entry.operation,
    facts: entry.resource,
    compiled: contract.byOperationId.get(spec.operationId)!,
    judgedAs,
    pathParams,
    request,
    base: request.path.slice(0, request.path.length - routed.path.length),
    ...(entry.filtered ? { filtered: true } : {}),
  };
  return guarded(contract, judgedAs, noFindings, handler(call));
}
