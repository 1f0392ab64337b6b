// status_code_conformance: the status is documented for the operation, or a range (4XX) or default covers it.
// OpenAPI 3.1 section 4.8.16 (Responses Object).
import { finding, type ExchangeCheck } from './check-context.js';

export const statusCodeConformance: ExchangeCheck = {
  name: 'status_code_conformance',
  applies: () => true,
  run(context) {
    if (context.response) return [];
    const documented = context.operation.responses.map((response) => response.spec.status);
    return [
      finding(context, 'status_code_conformance', {
        message: `status ${context.exchange.status} is not documented for ${context.operation.spec.operationId} (documented: ${documented.join(', ')})`,
        expected: documented,
        actual: context.exchange.status,
      }),
    ];
  },
};
