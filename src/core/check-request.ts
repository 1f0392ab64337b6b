// The core's entry point for the consumer side: one request in, findings out. Pure: no I/O, no exceptions for a
// request that breaks the spec.
import type { Contract } from './compile-contract.js';
import type { CheckName, Finding } from './finding.js';
import type { OperationMatch } from './operation-index.js';
import { matchRequest } from './server-bases.js';
import { requestChecks } from './request-checks/index.js';
import type { RequestCheckContext, RequestRecord } from './request-checks/request-check-context.js';

export type { RequestRecord } from './request-checks/request-check-context.js';

export interface RequestResult {
  /** The operation matched, or undefined when the request matched none (then `findings` says so). */
  operationId: string | undefined;
  /** The checks that had something to judge; each passed unless a finding names it. */
  applied: CheckName[];
  findings: Finding[];
  /** Findings left out past `maxRequestFindings`. */
  omitted?: number;
}

/** Findings kept per request: enough to act on, bounded whatever the request. */
export const maxRequestFindings = 100;

/**
 * `known`: the operation the caller already matched `request` to (a server that routed it), so it is not matched
 * again; it must be what matching `request.method` and `request.path` against `contract` gives.
 */
export function checkRequest(contract: Contract, request: RequestRecord, known?: OperationMatch): RequestResult {
  const match = known ?? matchRequest(contract, request.method, request.path);
  const compiled = match && contract.requests.get(match.operation.operationId);
  if (!match || !compiled) {
    const operation = `${request.method.toUpperCase()} ${request.path}`;
    return {
      operationId: undefined,
      applied: ['operation_matching'],
      findings: [
        {
          check: 'operation_matching',
          severity: 'error',
          operation,
          instancePath: '',
          message: `${operation} matches no operation of the spec`,
        },
      ],
    };
  }
  const context: RequestCheckContext = {
    contract,
    request,
    operationId: match.operation.operationId,
    compiled,
    operation: match.operation,
    pathParams: match.pathParams,
    query: new URLSearchParams(request.query),
  };
  const applied: CheckName[] = [];
  const findings: Finding[] = [];
  for (const check of requestChecks) {
    if (!check.applies(context)) continue;
    applied.push(check.name);
    try {
      findings.push(...check.run(context));
    } catch (error) {
      findings.push({
        check: check.name,
        severity: 'error',
        operation: context.operationId,
        instancePath: '',
        message: `could not check this request: ${(error as Error).message}`,
      });
    }
  }
  if (findings.length <= maxRequestFindings) return { operationId: context.operationId, applied, findings };
  return {
    operationId: context.operationId,
    applied,
    findings: findings.slice(0, maxRequestFindings),
    omitted: findings.length - maxRequestFindings,
  };
}

/** A URL's path and raw query, for building a RequestRecord from a request line or a HAR url. */
export function splitTarget(target: string): { path: string; query: string } {
  const hash = target.indexOf('#');
  const withoutHash = hash < 0 ? target : target.slice(0, hash);
  const mark = withoutHash.indexOf('?');
  return mark < 0
    ? { path: withoutHash, query: '' }
    : { path: withoutHash.slice(0, mark), query: withoutHash.slice(mark + 1) };
}
