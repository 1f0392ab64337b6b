// THE seam where the user's own checks run (apis[].checks, --checks): check, fuzz, proxy and validate each call
// withUserChecks on the exchange result the core's checks made, so a user check is judged the same way by all four.
// A check's failure (a message returned, an assertion thrown) is a finding of its name with `source: 'user check'`;
// a check that throws anything else is reported as that check's error, never as an internal error of ours.
import type { ExchangeResult } from '../check-exchange.js';
import type { Contract } from '../compile-contract.js';
import { headerValue, type Exchange } from '../exchange.js';
import type { CheckName, Finding } from '../finding.js';
import type { OperationSpec } from '../operation-index.js';
import { parseJson } from '../parse-json.js';
import type { UserCheckInput } from './define-checks.js';
import type { LoadedUserCheck, UserCheckSet } from './user-check-set.js';

/** The request as the command saw it (see UserCheckInput.request for what each command knows). */
export type SeenRequest = Omit<UserCheckInput['request'], 'json'>;

/** A message longer than this is cut: it is the user's text, printed in every report. */
const maxMessage = 1000;

/**
 * The exchange's result with the user's checks that apply to its operation added: each in `applied`, its failure in
 * `findings`. The result as it is when there are none (the hot path: one comparison), or when the exchange matched
 * no operation.
 */
export function withUserChecks(
  result: ExchangeResult,
  checks: UserCheckSet | undefined,
  contract: Contract,
  request: SeenRequest,
  response: Exchange,
): ExchangeResult {
  if (checks === undefined || result.operationId === undefined) return result;
  const judged = judgeUserChecks(checks, contract, result.operationId, request, response);
  if (judged.length === 0) return result;
  const findings = [...result.findings];
  for (const [, found] of judged) findings.push(...found);
  return { ...result, applied: [...result.applied, ...judged.map(([name]) => name)], findings };
}

/** The user's checks that apply to the operation `operationId`, each with its findings (none when it held). */
export function judgeUserChecks(
  checks: UserCheckSet,
  contract: Contract,
  operationId: string,
  request: SeenRequest,
  response: Exchange,
): [CheckName, Finding[]][] {
  const operation = contract.byOperationId.get(operationId)?.spec;
  return operation ? runUserChecks(checks, operation, request, response) : [];
}

/** A request as sent on the wire (fuzz's SentRequest, an HTTP client's): what the user's checks see of it. */
export function wireRequest(
  sent: { method: string; url: string; headers: readonly (readonly [string, string])[]; body?: string | undefined },
  path: string,
): SeenRequest {
  const query = sent.url.indexOf('?');
  // No prototype: a header named `constructor` or `__proto__` is a header like any other.
  const headers: Record<string, string> = Object.create(null);
  for (const [name, value] of sent.headers) {
    const key = name.toLowerCase();
    headers[key] = Object.hasOwn(headers, key) ? `${headers[key]}, ${value}` : value;
  }
  return {
    method: sent.method.toUpperCase(),
    path,
    query: query < 0 ? '' : sent.url.slice(query + 1).replace(/#.*$/, ''),
    headers,
    ...(sent.body !== undefined ? { body: sent.body } : {}),
  };
}

/** Each user check that applies to `operation`, with its findings (none when it held). */
export function runUserChecks(
  checks: UserCheckSet,
  operation: OperationSpec,
  request: SeenRequest,
  response: Exchange,
): [CheckName, Finding[]][] {
  const applying = checks.checks.filter((check) => check.operations?.has(operation.operationId) ?? true);
  if (applying.length === 0) return [];
  const input = checkInput(operation, request, response);
  return applying.map((check) => {
    checks.ran.add(check.name);
    const failure = outcome(check, input);
    return [
      check.name,
      failure === undefined
        ? []
        : [
            {
              check: check.name,
              severity: 'error',
              operation: operation.operationId,
              instancePath: '',
              message: failure.length > maxMessage ? `${failure.slice(0, maxMessage)}…` : failure,
              source: 'user check',
            },
          ],
    ];
  });
}

/** The checks that ran on no exchange, with the operations they were for ('*' for a check of every operation). */
export function userChecksNotRun(checks: UserCheckSet | undefined): { check: CheckName; operations: string[] }[] {
  if (checks === undefined) return [];
  return checks.checks
    .filter((check) => !checks.ran.has(check.name))
    .map((check) => ({ check: check.name, operations: check.operations ? [...check.operations] : ['*'] }));
}

/** Why a user check that ran on nothing was not exercised, in the reports' words. */
export const notExercisedReason = 'no exchange of its operations was judged';

/** Undefined when the check held, else its failure in words. */
function outcome(check: LoadedUserCheck, input: UserCheckInput): string | undefined {
  let returned: unknown;
  try {
    returned = check.run(input);
  } catch (error) {
    // An assertion (node:assert, chai, expect) is the check saying no; anything else is a fault of the check.
    if (error instanceof Error && /AssertionError/.test(error.name)) return error.message || 'assertion failed';
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return `the check itself failed: ${what}`;
  }
  if (returned === undefined || returned === null) return undefined;
  if (typeof returned === 'string') return returned === '' ? 'failed (the check returned an empty message)' : returned;
  if (typeof (returned as { then?: unknown }).then === 'function') {
    // Its rejection, if any, is the check's own: swallowed so it is no unhandled rejection of ours.
    (returned as Promise<unknown>).then(undefined, () => undefined);
    return 'the check itself failed: it returned a Promise, and checks are synchronous';
  }
  return `the check itself failed: it returned ${typeof returned}; a check returns a message or nothing`;
}

function checkInput(operation: OperationSpec, request: SeenRequest, response: Exchange): UserCheckInput {
  const requestJson =
    request.body !== undefined && /json/i.test(headerValue(request.headers ?? {}, 'content-type') ?? '')
      ? parseJson(request.body)
      : undefined;
  return {
    operation: {
      method: operation.method.toUpperCase(),
      path: operation.pathTemplate,
      operationId: operation.operationId,
    },
    request: { ...request, ...(requestJson !== undefined ? { json: requestJson } : {}) },
    response: {
      status: response.status,
      headers: response.headers,
      body: response.body,
      // Parsed afresh, not the command's copy: a check that changes it cannot change what the command goes on with.
      json: parseJson(response.body),
    },
  };
}
