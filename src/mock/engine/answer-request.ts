// The engine's answer to one request, stateless: route it (route.ts), check it with the core's request checks
// (check-request.ts), refuse it as the spec documents (refusal-status.ts) or answer the documented success
// (documented-answer.ts), honouring Prism's `Prefer` header; every answer judged before it is served (guarded).
import { checkRequest, type RequestRecord } from '../../core/check-request.js';
import type { Contract } from '../../core/compile-contract.js';
import { headerValue } from '../../core/exchange.js';
import type { Finding } from '../../core/finding.js';
import { responseFor } from '../../core/operation-index.js';
import { documentedAnswer, withReason } from './documented-answer.js';
import { escapeLine } from '../../core/escape-line.js';
import { guarded, problem, unable, type EngineAnswer } from './engine-answer.js';
import { readPrefer } from './prefer.js';
import { refusalStatus, successStatus } from './statuses.js';
import { route, type Route } from './route.js';

export interface Engine {
  contract: Contract;
  /** The servers' base paths (route.ts). */
  bases: string[];
  /** Answers by operation, status, media type and example (a refusal's without its reason): made once. */
  answers: Map<string, EngineAnswer>;
}

/** Answers kept at most; past it the cache starts again (a spec has a bounded number of keys anyway). */
const maxCached = 10_000;

/** `routed`: the request's route when the caller has it, so the request is matched once. */
export function answerRequest(
  engine: Engine,
  request: RequestRecord,
  routed: Route = route(engine.contract.operations, engine.bases, request.method, request.path),
): EngineAnswer {
  const { contract } = engine;
  const shown = `${request.method.toUpperCase()} ${request.path}`;
  if (routed.kind === 'no-path') return problem(404, 'Not Found', `${shown} matches no path of the spec`);
  if (routed.kind === 'no-method')
    return problem(405, 'Method Not Allowed', `${shown}: the spec documents ${routed.allow.join(', ')} for this path`, {
      allow: routed.allow.join(', '),
    });
  const { operation } = routed.match;
  const compiled = contract.byOperationId.get(operation.operationId)!;
  // HEAD routed to its GET twin is checked and answered as that GET, its body dropped by the server.
  const judgedAs = { method: operation.method.toUpperCase(), path: routed.path, operationId: operation.operationId };
  const checked = checkRequest(contract, { ...request, method: judgedAs.method, path: judgedAs.path }, routed.match);
  const errors = checked.findings.filter((finding) => finding.severity === 'error');
  const preferences = readPrefer(headerValue(request.headers, 'prefer'));
  const accept = headerValue(request.headers, 'accept');
  if (errors.length > 0) {
    const status = refusalStatus(operation, errors);
    const detail = errors
      .slice(0, 3)
      .map((finding) => finding.message)
      .join('; ');
    const title = 'Request refused by the spec';
    if (!responseFor(operation, status)) return guarded(contract, judgedAs, errors, problem(status, title, detail));
    // The documented body is made once per operation and status (a big error schema takes seconds to generate
    // for), then given each request's reason where it has a place for one.
    const key = `refusal\n${operation.operationId}\n${status}\n${accept ?? ''}`;
    const made =
      engine.answers.get(key) ??
      remember(
        engine,
        key,
        documentedAnswer(contract, compiled, judgedAs, status, {
          problem: { type: 'about:blank', title, status, detail: '' },
          ...(accept ? { accept } : {}),
        }),
      );
    return guarded(contract, judgedAs, errors, withReason(contract, judgedAs, made, escapeLine(detail)));
  }
  const status = preferences.code ?? successStatus(operation);
  if (status === undefined) return unable(`${operation.operationId} documents no response`);
  if (!responseFor(operation, status))
    return unable(`Prefer: code=${status} is not documented for ${operation.operationId}`);
  const key = `${operation.operationId}\n${status}\n${accept ?? ''}\n${preferences.example ?? ''}`;
  const cached = engine.answers.get(key);
  if (cached) return cached;
  const answer = guarded(
    contract,
    judgedAs,
    noFindings,
    documentedAnswer(contract, compiled, judgedAs, status, {
      ...(preferences.example === undefined ? {} : { example: preferences.example }),
      ...(accept ? { accept } : {}),
    }),
  );
  return remember(engine, key, answer);
}

function remember(engine: Engine, key: string, answer: EngineAnswer): EngineAnswer {
  if (engine.answers.size >= maxCached) engine.answers.clear();
  engine.answers.set(key, answer);
  return answer;
}

const noFindings: Finding[] = [];
