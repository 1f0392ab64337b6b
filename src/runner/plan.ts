// What a check run judges, decided before it starts: every operation × check, the same set every run for the
// same --api and mode, so a CI dashboard compares like with like. Per-exchange checks come from the contract (what
// the operation's success response documents); behavioural ones from the API's plug-in (its seed rules).
import type { CompiledOperation, Contract } from '../core/compile-contract.js';
import { exchangeCheckNames, type CheckName } from '../core/finding.js';
import type { PlannedCheck } from '../reports/results.js';
import type { RunMode } from '../reports/check-run.js';
import type { BehaviourCheck } from './check-plugin.js';

const perExchangeChecks = new Set<string>(exchangeCheckNames);

export const statelessReason = 'needs a stateful server; the Prism mock is stateless (use --base-url)';
export const readOnlyReason = '--read-only runs only GET operations';

export interface Plan {
  checks: PlannedCheck[];
  /** Planned checks the user's choice of mode leaves out, with the reason. */
  skipped: (PlannedCheck & { reason: string })[];
}

export interface PlanOptions {
  /** Why the full sequence runs without a receiver (--no-receiver, --hook-url alone): its checks are skipped. */
  noReceiver?: string;
  /** The API's plug-in's behavioural checks (src/runner/check-plugin.ts); an API without one has none. */
  behaviour?: readonly BehaviourCheck[];
}

export function planChecks(api: string, contract: Contract, mode: RunMode, options: PlanOptions = {}): Plan {
  const checks: PlannedCheck[] = [];
  const skipped: Plan['skipped'] = [];
  const behaviour = (options.behaviour ?? []).filter((entry) => !perExchangeChecks.has(entry.check));
  for (const operation of contract.byOperationId.values()) {
    const operationId = operation.spec.operationId;
    const writes = operation.spec.method !== 'get';
    for (const check of exchangeChecksOf(operation)) {
      checks.push({ api, operation: operationId, check });
      if (mode === 'read-only' && writes) skipped.push({ api, operation: operationId, check, reason: readOnlyReason });
    }
    for (const { check, stateless, readOnly, receiver } of behaviour.filter((pair) => pair.operation === operationId)) {
      checks.push({ api, operation: operationId, check });
      if (mode === 'mock' && !stateless) skipped.push({ api, operation: operationId, check, reason: statelessReason });
      if (mode === 'read-only' && (writes || !readOnly))
        skipped.push({ api, operation: operationId, check, reason: readOnlyReason });
      if (mode === 'full' && options.noReceiver !== undefined && receiver)
        skipped.push({ api, operation: operationId, check, reason: options.noReceiver });
    }
  }
  return { checks, skipped };
}

/** The per-exchange checks an operation's success response gives something to judge. */
function exchangeChecksOf(operation: CompiledOperation): CheckName[] {
  const success = operation.responses.filter((response) => /^2/.test(response.spec.status));
  const media = success.flatMap((response) => response.mediaTypes);
  const checks: CheckName[] = ['status_code_conformance'];
  if (success.some((response) => response.spec.noBody || response.mediaTypes.length > 0))
    checks.push('content_type_conformance');
  if (media.some((entry) => entry.validate !== undefined))
    checks.push('response_body_wellformed', 'response_schema_conformance');
  if (success.some((response) => response.headers.length > 0)) checks.push('response_headers_conformance');
  if (media.some((entry) => entry.placement !== undefined)) checks.push('payment_method_placement');
  return checks;
}
