// status_code_conformance: the status is documented for the operation, or a range (4XX) or default covers it.
// OpenAPI 3.1 section 4.8.16 (Responses Object).
import { headerValue } from '../exchange.js';
import { finding, type ExchangeCheck } from './check-context.js';

export const statusCodeConformance: ExchangeCheck = {
  name: 'status_code_conformance',
  applies: () => true,
  run(context) {
    if (context.response) return [];
    const documented = context.operation.responses.map((response) => response.spec.status);
    return [
      finding(context, 'status_code_conformance', {
        message: `status ${context.exchange.status} is not documented for ${context.operation.spec.operationId} (documented: ${documented.join(', ')})${redirectedTo(context.exchange)}`,
        expected: documented,
        actual: context.exchange.status,
      }),
    ];
  },
};

/**
 * A redirect is reported, never followed (it would take the credentials elsewhere): say where it pointed. A
 * Location too long to read is not shown, and never cut, since a cut credential could no longer be redacted.
 */
function redirectedTo(exchange: { status: number; headers: Record<string, string | undefined> }): string {
  const location =
    exchange.status >= 300 && exchange.status < 400 ? headerValue(exchange.headers, 'location') : undefined;
  if (location === undefined) return '';
  return location.length <= 2000
    ? `; it redirects to ${location} (not followed)`
    : `; it redirects (a Location of ${location.length} characters, not followed)`;
}
