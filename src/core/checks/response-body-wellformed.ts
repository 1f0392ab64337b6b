// response_body_wellformed: the body can be trusted as read: within the size limit, valid UTF-8 (RFC 8259
// section 8.1), and without duplicate object keys, which JSON.parse resolves by silently dropping data.
import { findDuplicateKey } from '../json-duplicate-keys.js';
import type { Finding } from '../finding.js';
import { finding, type ExchangeCheck } from './check-context.js';

export const responseBodyWellformed: ExchangeCheck = {
  name: 'response_body_wellformed',
  applies: (context) => context.body.kind !== 'empty',
  run(context) {
    const { body, exchange } = context;
    const findings: Finding[] = [];
    if (body.kind === 'too-large') {
      // In MB as --max-body takes it, to a tenth; a limit under a tenth of a MB (a library caller's) in bytes.
      const megabytes = Math.round((body.limit / 2 ** 20) * 10) / 10;
      const limit = megabytes > 0 ? `${megabytes} MB` : `${body.limit}-byte`;
      findings.push(
        finding(context, 'response_body_wellformed', {
          message: `the body is over the ${limit} limit (--max-body): it was not read or checked`,
          expected: `at most ${body.limit} bytes`,
        }),
      );
      return findings;
    }
    if (exchange.bodyNotUtf8)
      findings.push(
        finding(context, 'response_body_wellformed', {
          message: 'the body is not valid UTF-8 (JSON must be UTF-8): invalid bytes were replaced before checking',
        }),
      );
    if (body.kind === 'json' && exchange.body.length > 0) {
      const duplicate = findDuplicateKey(exchange.body, body.value);
      if (duplicate) {
        findings.push(
          finding(context, 'response_body_wellformed', {
            instancePath: duplicate.path,
            message: `key "${duplicate.key}" appears twice in ${duplicate.path || 'the body'}: JSON.parse keeps the last, so the first value is lost`,
          }),
        );
      }
    }
    return findings;
  },
};
