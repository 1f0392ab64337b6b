// request_body_conformance: a body is sent when the operation requires one and only when it takes one, in a
// documented media type, well-formed, and satisfying that media type's schema. OpenAPI 3.1 section 4.8.13.
import { headerValue } from '../exchange.js';
import { parseMediaType, selectMediaType, shownContentType } from '../media-type.js';
import type { Finding } from '../finding.js';
import { describeJsonSyntaxError } from '../json-syntax-error.js';
import { formBodyFindings } from './form-body-findings.js';
import { requestFinding, type RequestCheck } from './request-check-context.js';

export const requestBodyConformance: RequestCheck = {
  name: 'request_body_conformance',
  applies: (context) => context.compiled.body !== undefined || hasBody(context.request),
  run(context) {
    const { request } = context;
    const body = context.compiled.body;
    const fail = (message: string, fields: Partial<Finding> = {}) => [
      requestFinding(context, 'request_body_conformance', { message, ...fields }),
    ];
    // OpenAPI 3.1 section 4.8.10 (requestBody) is silent about a body sent where none is documented: HTTP allows one
    // on any method, and a spec may simply not say. Worth a word, not a failure.
    if (!body)
      return fail(`${context.operationId} documents no request body, and one was sent`, { severity: 'warning' });
    if (!hasBody(request)) return body.required ? fail('the required request body is missing') : [];
    const contentType = headerValue(request.headers, 'content-type');
    const actual = parseMediaType(contentType);
    const documented = body.mediaTypes.map((media) => media.mediaType);
    const media = selectMediaType(body.mediaTypes, actual);
    if (!media) {
      const mediaType = shownContentType(contentType, actual, body.mediaTypes);
      return fail(
        `the request body's media type ${mediaType ?? '(no Content-Type)'} is not documented (documented: ${documented.join(', ')})`,
        { expected: documented, actual: mediaType ?? null },
      );
    }
    if (request.bodyTooLarge !== undefined) {
      return fail(`the request body is over ${request.bodyTooLarge} bytes: not checked`, { severity: 'warning' });
    }
    if (media.validate && media.form) return formBodyFindings(context, media.form, media.validate, media.mediaType);
    // A JSON body under a wildcard key (`*/*`) is JSON too: the key's schema describes it (OpenAPI 3.1 section 4.8.14).
    if (!media.validate || !(media.json || actual?.json)) return [];
    let value: unknown;
    try {
      value = JSON.parse(request.body);
    } catch {
      return fail(`the request body is not valid JSON: ${describeJsonSyntaxError(request.body)}`);
    }
    const validation = context.contract.check(media.validate, value);
    const findings = validation.errors.map((error) =>
      requestFinding(context, 'request_body_conformance', {
        instancePath: error.instancePath,
        schemaPath: error.schemaPath,
        message: `request ${error.message}`,
      }),
    );
    if (validation.stoppedAfter !== undefined)
      findings.push(
        requestFinding(context, 'request_body_conformance', {
          severity: 'warning',
          message: `listing stopped after ${validation.stoppedAfter} errors`,
        }),
      );
    // OpenAPI 3.0.3 §4.7.24.1: a readOnly property "SHOULD NOT be sent as part of the request" (a warning: SHOULD NOT).
    if (media.readOnlyPresence)
      for (const presence of media.readOnlyPresence(value))
        findings.push(
          requestFinding(context, 'request_body_conformance', {
            severity: 'warning',
            instancePath: presence.instancePath,
            schemaPath: presence.schemaPath,
            message: `request ${presence.instancePath} is readOnly: OpenAPI 3.0 says it SHOULD NOT be sent in a request`,
          }),
        );
    return findings;
  },
};

function hasBody(request: { body: string; bodyTooLarge?: number }): boolean {
  return request.body.length > 0 || request.bodyTooLarge !== undefined;
}
