// Which documented status the engine answers. OpenAPI 3.1 section 4.8.16: a Responses Object maps status codes
// (or ranges `2XX`, or `default`) to responses; the engine serves what a well-behaved server of the spec would.
import type { Finding } from '../../core/finding.js';
import type { OperationSpec } from '../../core/operation-index.js';

/** The success answer: the lowest documented 2xx, else 200 under `2XX` or `default`, else the lowest 3xx. */
export function successStatus(operation: OperationSpec): number | undefined {
  // Asked on every request: worked out once per operation.
  if (successes.has(operation)) return successes.get(operation);
  const found = lowestSuccess(operation);
  successes.set(operation, found);
  return found;
}

const successes = new WeakMap<OperationSpec, number | undefined>();

function lowestSuccess(operation: OperationSpec): number | undefined {
  const codes = operation.responses
    .map((response) => response.status)
    .filter((status) => /^[1-5]\d\d$/.test(status))
    .map(Number)
    .sort((a, b) => a - b);
  const success = codes.find((code) => code >= 200 && code < 300);
  if (success !== undefined) return success;
  if (operation.responses.some((response) => /^(2XX|default)$/i.test(response.status))) return 200;
  return codes.find((code) => code >= 300 && code < 400) ?? codes[0];
}

/**
 * A request the spec refuses: 401 when it lacks the credential its `security` requires (section 4.8.30; any value
 * passes), else the documented 400 or 422 (422 when only the body broke its schema and both are documented), else
 * 400, answered with the engine's problem+json (RFC 9457) unless a documented `4XX` or `default` response covers it.
 */
export function refusalStatus(operation: OperationSpec, errors: readonly Finding[]): number {
  if (errors.some((finding) => finding.check === 'request_security_conformance')) return 401;
  const documented = new Set(operation.responses.map((response) => response.status));
  const bodyOnly = errors.every((finding) => finding.check === 'request_body_conformance');
  if (documented.has('422') && (bodyOnly || !documented.has('400'))) return 422;
  return 400;
}
