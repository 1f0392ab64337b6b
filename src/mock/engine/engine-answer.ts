// What the engine serves, and the last word on it: every answer is judged by the core's exchange checks before it
// goes out (a refusal's undocumented 4xx excused by the one rule fuzz and proxy apply, refusal-rule.ts); one they
// refuse is replaced by the mock's own 500 (src/core/mock-refusal.ts), never served as the API's.
import { checkExchange } from '../../core/check-exchange.js';
import type { Contract } from '../../core/compile-contract.js';
import { escapeLine } from '../../core/escape-line.js';
import type { Finding } from '../../core/finding.js';
import { mockRefusalHeader, mockRefusalValue } from '../../core/mock-refusal.js';
import { excuseRefusal } from '../../core/refusal-rule.js';

export interface EngineAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A problem+json answer (RFC 9457) of the engine's own, for a status no documented response covers. */
export function problem(
  status: number,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): EngineAnswer {
  return {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
    body: JSON.stringify({ type: 'about:blank', title, status, detail: escapeLine(detail) }),
  };
}

/** The mock could make no answer its spec accepts: its own 500, which fuzz reads as the tool's limit. */
export function unable(detail: string): EngineAnswer {
  return problem(500, 'contracts mock: no valid answer', `the mock could not make a valid answer: ${detail}`, {
    [mockRefusalHeader]: mockRefusalValue,
  });
}

/** The method and path (without the base path) a request is judged as; its operationId when it was routed to one. */
export interface JudgedAs {
  method: string;
  path: string;
  /** The operation the request was routed to (route.ts): the checks do not match the path again. */
  operationId?: string;
}

/**
 * The findings the core's checks hold against `answer` to a request (on the path without its base path) whose own
 * findings are `requestFindings`: errors only, a refusal's undocumented 4xx excused (refusal-rule.ts).
 */
export function answerFindings(
  contract: Contract,
  request: JudgedAs,
  requestFindings: readonly Finding[],
  answer: EngineAnswer,
): Finding[] {
  const exchange = { method: request.method, path: request.path, ...answer };
  const options = request.operationId === undefined ? {} : { operationId: request.operationId };
  const result = excuseRefusal(
    checkExchange(contract, exchange, options),
    { findings: requestFindings },
    answer.status,
  );
  return result.findings.filter((finding) => finding.severity === 'error');
}

/** `answer`, or the mock's 500 when the checks refuse it. */
export function guarded(
  contract: Contract,
  request: JudgedAs,
  requestFindings: readonly Finding[],
  answer: EngineAnswer,
): EngineAnswer {
  if (answer.headers[mockRefusalHeader] === mockRefusalValue) return answer;
  const findings = answerFindings(contract, request, requestFindings, answer);
  return findings.length === 0
    ? answer
    : unable(`its ${answer.status} answer fails ${findings[0]!.check}: ${findings[0]!.message}`);
}
