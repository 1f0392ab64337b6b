// Routing and judging in the sandbox of the APIs with a sandbox plug-in (#47): each request is routed among the
// APIs' stateful engines (the engine's route.ts: also under a server's base path, OpenAPI 3.1 section 4.8.8), and
// every answer a plug-in's hooks make is judged with the core's exchange checks before its state change is
// committed (engine-answer.ts's answerFindings, the one refusal rule of refusal-rule.ts): an answer the spec refuses
// becomes the mock's own 500 naming the finding and changes nothing. The sandbox never serves what its spec refuses.
import type { Contract } from '../core/compile-contract.js';
import { httpMethods, type OperationMatch } from '../core/operation-index.js';
import { mockRefusal } from '../core/mock-refusal.js';
import { answerFindings, type EngineAnswer, type guarded, unable } from '../mock/engine/engine-answer.js';
import { route } from '../mock/engine/route.js';

export interface JudgedApi {
  contract: Contract;
  bases: string[];
}

/** A request routed to an operation of one API: what its answer is judged as. */
export interface Routed {
  match: OperationMatch;
  /** The path without the server's base path. */
  path: string;
}

/** The operation of the first API that has one for `method` and `path`, else the methods the path allows. */
export function routeAmong<T extends { api: JudgedApi }>(
  apis: readonly T[],
  method: string,
  path: string,
): { served: T; routed: Routed } | { allow: string[] } {
  const allow = new Set<string>();
  for (const served of apis) {
    const found = route(served.api.contract.operations, served.api.bases, method, path);
    if (found.kind === 'operation') return { served, routed: { match: found.match, path: found.path } };
    if (found.kind === 'no-method') for (const name of found.allow) allow.add(name);
  }
  // In the order of the Path Item's fields (OpenAPI 3.1 section 4.8.9), as the sandbox always listed them.
  const rank = (name: string) => {
    const index = (httpMethods as readonly string[]).indexOf(name.toLowerCase());
    return index < 0 ? httpMethods.length : index;
  };
  return { allow: [...allow].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)) };
}

/**
 * `answer` when the spec's checks accept it as the answer to the routed request, else the mock's own 500. A 4xx is
 * the plug-in's refusal by its API's rules (an unknown repository, a config.url that is the sandbox itself, a body
 * that is not JSON): its status is not held against it when the spec does not document it, as refusal-rule.ts does
 * not hold it against a refusal of a request that breaks the spec; its body is judged where the status is documented.
 */
export function judgeAnswer(api: JudgedApi, routed: Routed, answer: EngineAnswer): EngineAnswer {
  const { operation } = routed.match;
  const judgedAs = { method: operation.method.toUpperCase(), path: routed.path, operationId: operation.operationId };
  return pluginJudge(api.contract, judgedAs, [], answer);
}

/** How the answers of a plug-in's hooks are judged (the engine's HookRunner.judge): as judgeAnswer says. */
export const pluginJudge: typeof guarded = (contract, judgedAs, requestFindings, answer) => {
  if (mockRefusal(answer) !== undefined) return answer;
  const refusal = answer.status >= 400 && answer.status <= 499;
  const findings = answerFindings(contract, judgedAs, requestFindings, answer).filter(
    (finding) => !(refusal && finding.check === 'status_code_conformance'),
  );
  return findings.length === 0
    ? answer
    : unable(`its ${answer.status} answer fails ${findings[0]!.check}: ${findings[0]!.message}`);
};
