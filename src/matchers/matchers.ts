// toSatisfyContract and toMatchSchema, for any test runner: they hand what a test received to the core and turn the
// findings into a verdict { pass, message } that vitest's, jest's and Playwright's expect.extend all take. Usage
// mistakes (unknown API or schema, an ambiguous Response) throw; a response that breaks the contract fails the
// assertion with a message listing each finding.
import { checkExchange } from '../core/check-exchange.js';
import type { Contract } from '../core/compile-contract.js';
import { ContractsError } from '../core/errors.js';
import type { OperationSpec } from '../core/operation-index.js';
import { matchRequest } from '../core/server-bases.js';
import { compiledSpecFor, contractFor } from './contract-cache.js';
import { exchangeOf } from './exchange-of.js';
import { findingLines } from './failure-message.js';

/**
 * An API of contracts.config.yaml by name: any string (checked against the config when the test runs), or, once
 * a project declares its names in an entry's ContractApis interface, one of those, so a misspelt name is a type error.
 */
export type ApiNameOf<Declared> = [keyof Declared] extends [never] ? string : Extract<keyof Declared, string>;

export interface SatisfyContractOptions<Api extends string = string> {
  /** An API of contracts.config.yaml (the one in the test's working directory or the nearest above it). */
  api: Api;
  /** The operation the response answers; without it, the operation is matched from the method and path. */
  operationId?: string;
  /** The request method, for a Response (which does not carry it) whose path several operations share. */
  method?: string;
  /** Also report response fields the spec does not list. */
  strict?: boolean;
  /** Another spec file for the API instead of the shipped one. */
  spec?: string;
  /** Largest body read from a Response, in bytes (10 MB by default); a larger one is a finding. */
  maxBodyBytes?: number;
}

export interface MatchSchemaOptions<Api extends string = string> {
  api: Api;
  /** A name under components/schemas, e.g. `ClientSession`. */
  schema: string;
  spec?: string;
}

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

export async function toSatisfyContract(received: unknown, options: SatisfyContractOptions): Promise<MatcherResult> {
  const { exchange, method, value } = await exchangeOf(received, options.maxBodyBytes);
  const strict = options.strict === true;
  const contract = await contractFor(options, strict);
  const operationId =
    options.operationId ??
    ((options.method ?? method) !== undefined ? undefined : operationByPath(contract, exchange.path, exchange.status));
  exchange.method = (options.method ?? method ?? operationMethod(contract, operationId) ?? '*').toUpperCase();
  const result = checkExchange(contract, exchange, { strict, ...(operationId !== undefined ? { operationId } : {}) });
  const errors = result.findings.filter((finding) => finding.severity === 'error');
  const subject = `${exchange.method} ${exchange.path || '(no URL)'} → ${exchange.status}`;
  const against = `the ${options.api} contract${result.operationId ? ` (${result.operationId})` : ''}`;
  return {
    pass: errors.length === 0,
    message: () =>
      errors.length === 0
        ? `expected ${subject} not to satisfy ${against}, but it did (checked: ${result.applied.join(', ')})`
        : [
            `expected ${subject} to satisfy ${against}; ${count(errors.length, 'finding')}:`,
            ...findingLines(result.findings, value),
          ].join('\n'),
  };
}

export async function toMatchSchema(received: unknown, options: MatchSchemaOptions): Promise<MatcherResult> {
  const compiled = await compiledSpecFor(options);
  const schemas = compiled.spec.document.components?.schemas ?? {};
  if (typeof options.schema !== 'string' || !Object.hasOwn(schemas, options.schema)) {
    const names = Object.keys(schemas);
    throw new ContractsError(
      'USAGE',
      `no schema ${JSON.stringify(options.schema)} under components/schemas of the ${options.api} spec: choose one of ${names.slice(0, 30).join(', ')}${names.length > 30 ? ', …' : ''}`,
    );
  }
  const errors = compiled.validateAt(['components', 'schemas', options.schema], received);
  return {
    pass: errors.length === 0,
    message: () =>
      errors.length === 0
        ? `expected the value not to match ${options.schema} of the ${options.api} spec, but it did`
        : [
            `expected the value to match ${options.schema} of the ${options.api} spec; ${count(errors.length, 'error')}:`,
            ...findingLines(errors, received),
          ].join('\n'),
  };
}

/**
 * A Response says its path but not its method: the one operation of any method whose template matches, or, when
 * several share the path, the one that documents this exact status (a create's 201 beside a list's 200 on one path).
 */
function operationByPath(contract: Contract, path: string, status: number): string | undefined {
  if (path === '')
    throw new ContractsError('USAGE', 'the response carries no URL to match an operation by: pass { operationId }');
  const found = new Map<string, OperationSpec>();
  // Every method some operation has: OpenAPI 3.2's `query` and `additionalOperations` (section 4.10) beside the
  // eight fixed ones.
  for (const method of new Set(contract.operations.map((operation) => operation.method))) {
    const match = matchRequest(contract, method, path);
    if (match) found.set(match.operation.operationId, match.operation);
  }
  if (found.size <= 1) return [...found.keys()][0];
  const byStatus = [...found.values()].filter((operation) =>
    operation.responses.some((response) => response.status === String(status)),
  );
  if (byStatus.length === 1) return byStatus[0]!.operationId;
  throw new ContractsError(
    'USAGE',
    `${path} is the path of ${[...found.keys()].join(', ')}: pass { method } or { operationId } to say which`,
  );
}

function operationMethod(contract: Contract, operationId: string | undefined): string | undefined {
  return operationId === undefined ? undefined : contract.byOperationId.get(operationId)?.spec.method;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
