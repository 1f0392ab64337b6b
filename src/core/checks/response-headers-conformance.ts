// response_headers_conformance: documented response headers are present when required and valid against
// their schema. OpenAPI 3.1 section 4.8.21 (Header Object).
import { headerValue } from '../exchange.js';
import type { Finding } from '../finding.js';
import { finding, type ExchangeCheck } from './check-context.js';

export const responseHeadersConformance: ExchangeCheck = {
  name: 'response_headers_conformance',
  applies: (context) => (context.response?.headers.length ?? 0) > 0,
  run(context) {
    const findings: Finding[] = [];
    for (const header of context.response!.headers) {
      const value = headerValue(context.exchange.headers, header.name);
      if (value === undefined) {
        if (header.required)
          findings.push(
            finding(context, 'response_headers_conformance', {
              message: `required response header ${header.name} is missing`,
              expected: header.name,
            }),
          );
        continue;
      }
      if (!header.validate) continue;
      for (const error of context.contract.check(header.validate, coerce(value, header.schemaType)).errors) {
        findings.push(
          finding(context, 'response_headers_conformance', {
            message: `response header ${header.name}: ${error.message.replace(/^body\b/, 'value')}`,
            schemaPath: error.schemaPath,
            actual: value,
          }),
        );
      }
    }
    return findings;
  },
};

/** Header values are text: read them as the schema's type says (simple style, OpenAPI 3.1 section 4.8.12.4). */
function coerce(value: string, type: string | undefined): unknown {
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && !Number.isNaN(Number(value)))
    return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
