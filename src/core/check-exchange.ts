// The core's entry point: one exchange in, findings out. Pure: no I/O, no exceptions for bad responses.
import type { CompiledOperation, Contract } from './compile-contract.js';
import { exchangeChecks } from './checks/index.js';
import type { CheckContext, ParsedBody } from './checks/check-context.js';
import { headerValue, type Exchange } from './exchange.js';
import { parseMediaType, selectMediaType } from './media-type.js';
import type { CheckName, Finding } from './finding.js';
import { describeJsonSyntaxError } from './json-syntax-error.js';
import { responseFor } from './operation-index.js';
import { matchRequest } from './server-bases.js';
import { checkExchangeInput } from './exchange-input.js';

export interface ExchangeResult {
  /** The operation matched, or undefined when the exchange matched none (then `findings` says so). */
  operationId: string | undefined;
  /** The checks that had something to judge; each passed unless a finding names it. */
  applied: CheckName[];
  /** At most `maxFindings`, in report order; every check that found something keeps at least its first finding. */
  findings: Finding[];
  /** Findings left out past `maxFindings`, per check; absent when none were. */
  omitted?: Partial<Record<CheckName, number>>;
}

/** Findings kept per response: enough to act on, bounded whatever the response. */
export const maxFindings = 100;

export interface CheckOptions {
  /** Report fields the spec does not list (needs a contract compiled with `strict`). */
  strict?: boolean;
  /** Skip path matching: the exchange is known to be this operation. */
  operationId?: string;
}

/** Throws a ContractsError (INVALID_EXCHANGE) when `exchange` is not an Exchange: see exchange-input.ts. */
export function checkExchange(contract: Contract, exchange: Exchange, options: CheckOptions = {}): ExchangeResult {
  checkExchangeInput(exchange);
  const operation = findOperation(contract, exchange, options.operationId);
  if (!operation) {
    return {
      operationId: undefined,
      applied: ['operation_matching'],
      findings: [
        {
          check: 'operation_matching',
          severity: 'error',
          operation: `${exchange.method.toUpperCase()} ${exchange.path}`,
          instancePath: '',
          message: options.operationId
            ? `no operation "${options.operationId}" in the spec`
            : `${exchange.method.toUpperCase()} ${exchange.path} matches no operation of the spec`,
        },
      ],
    };
  }
  const response = responseFor(operation.spec, exchange.status);
  const compiledResponse = response && operation.responses.find((candidate) => candidate.spec === response);
  // The Content-Type is parsed once; the documented keys were parsed at load time.
  const actual = parseMediaType(headerValue(exchange.headers, 'content-type'));
  const json = actual?.json === true;
  const media = compiledResponse && selectMediaType(compiledResponse.mediaTypes, actual);
  const context: CheckContext = {
    contract,
    exchange,
    operation,
    response: compiledResponse,
    media,
    body:
      exchange.bodyTooLarge !== undefined
        ? { kind: 'too-large', limit: exchange.bodyTooLarge }
        : 'json' in exchange && json
          ? { kind: 'json', value: exchange.json }
          : parseBody(exchange.body, json),
    strict: options.strict === true,
  };
  const applied: CheckName[] = [];
  const found: Finding[][] = [];
  for (const check of exchangeChecks) {
    if (!check.applies(context)) continue;
    applied.push(check.name);
    try {
      found.push(check.run(context));
    } catch (error) {
      // A response can be hostile: the check reports that it could not judge it, and the others go on.
      found.push([
        {
          check: check.name,
          severity: 'error',
          operation: operation.spec.operationId,
          instancePath: '',
          message: `could not check this response: ${cannotCheck(error)}`,
        },
      ]);
    }
  }
  return { operationId: operation.spec.operationId, applied, ...capFindings(found) };
}

/** Why a check threw, in words: only a stack overflow means deep nesting; other RangeErrors mean sheer size. */
export function cannotCheck(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof RangeError && /call stack/i.test(error.message)) return 'the body is nested too deeply';
  if (error instanceof RangeError) return `the body is too large to check (${error.message})`;
  return error.message;
}

/**
 * The first `maxFindings` findings in check order, except that each check with findings keeps its first: a check
 * whose findings were all cut would read as passed.
 */
function capFindings(found: readonly Finding[][]): Pick<ExchangeResult, 'findings' | 'omitted'> {
  // Plain loops: this runs once per exchange, and flat() cost more than every other step but validation.
  let total = 0;
  for (const list of found) total += list.length;
  if (total === 0) return { findings: [] };
  if (total <= maxFindings) {
    const findings: Finding[] = [];
    for (const list of found) for (const item of list) findings.push(item);
    return { findings };
  }
  let spare = Math.max(0, maxFindings - found.filter((list) => list.length > 0).length);
  const findings: Finding[] = [];
  const omitted: Partial<Record<CheckName, number>> = {};
  for (const list of found) {
    if (list.length === 0) continue;
    const kept = 1 + Math.min(spare, list.length - 1);
    spare -= kept - 1;
    for (let index = 0; index < kept; index++) findings.push(list[index]!);
    if (kept < list.length) omitted[list[0]!.check] = list.length - kept;
  }
  return { findings, omitted };
}

/** How many findings a result left out, over all checks. */
export function omittedCount(result: Pick<ExchangeResult, 'omitted'>): number {
  return Object.values(result.omitted ?? {}).reduce((sum: number, count) => sum + (count ?? 0), 0);
}

function findOperation(
  contract: Contract,
  exchange: Exchange,
  operationId: string | undefined,
): CompiledOperation | undefined {
  if (operationId !== undefined) return contract.byOperationId.get(operationId);
  const match = matchRequest(contract, exchange.method, exchange.path);
  return match && contract.byOperationId.get(match.operation.operationId);
}

function parseBody(body: string, json: boolean): ParsedBody {
  if (body.length === 0) return { kind: 'empty' };
  if (!json) return { kind: 'other' };
  try {
    return { kind: 'json', value: JSON.parse(body) };
  } catch {
    return { kind: 'invalid-json', reason: describeJsonSyntaxError(body) };
  }
}
