// request_parameters_conformance for OpenAPI 3.2's `in: querystring` (section 4.12.2): when the form that describes
// the whole query string admits no other field (`additionalProperties: false`, JSON Schema 2020-12 section
// 10.3.2.3), each field the request carries that it does not name is a finding. A query credential of the
// operation's security schemes is no such field: it is the security requirement's, not the parameter's.
import type { Finding } from '../finding.js';
import { unnamedFieldMessage, unnamedFields } from '../oas32/querystring-parameters.js';
import { requestFinding, type RequestCheckContext } from './request-check-context.js';

export function unnamedQuerystringFields(context: RequestCheckContext): Finding[] {
  const closed = context.compiled.closedQuerystring;
  if (closed === undefined) return [];
  const credentials = new Set(
    context.compiled.security.flat().flatMap((credential) => (credential.in === 'query' ? [credential.name] : [])),
  );
  return unnamedFields(closed, context.query.keys(), credentials).map((name) =>
    requestFinding(context, 'request_parameters_conformance', { message: unnamedFieldMessage(closed, name) }),
  );
}
