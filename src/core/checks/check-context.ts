// What every per-exchange check is given: the exchange, its operation and documented response, the body parsed once.
import type { CompiledMediaType, CompiledOperation, CompiledResponse, Contract } from '../compile-contract.js';
import type { Exchange } from '../exchange.js';
import type { CheckName, Finding } from '../finding.js';

export type ParsedBody =
  | { kind: 'empty' }
  | { kind: 'too-large'; limit: number }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid-json'; reason: string }
  | { kind: 'other' };

export interface CheckContext {
  contract: Contract;
  exchange: Exchange;
  operation: CompiledOperation;
  /** The documented response for the status (exact, range or default), if any. */
  response: CompiledResponse | undefined;
  /** The documented media type matching the response's Content-Type, if any. */
  media: CompiledMediaType | undefined;
  body: ParsedBody;
  strict: boolean;
}

export interface ExchangeCheck {
  name: CheckName;
  /** Whether the check has anything to judge for this exchange (a check that does not apply neither passes nor fails). */
  applies(context: CheckContext): boolean;
  run(context: CheckContext): Finding[];
}

export function finding(
  context: CheckContext,
  check: CheckName,
  fields: Omit<Finding, 'check' | 'operation' | 'severity' | 'instancePath'> &
    Partial<Pick<Finding, 'severity' | 'instancePath'>>,
): Finding {
  return { check, severity: 'error', operation: context.operation.spec.operationId, instancePath: '', ...fields };
}
