// request_body_conformance for a form body (application/x-www-form-urlencoded, multipart/form-data): read back by
// its plan (form-body/decode-form-body.ts), then judged by the media type's schema as a JSON body is. OpenAPI 3.1
// sections 4.8.14.4, 4.8.14.5 and 4.8.15. A body that is not a form at all is one finding; a file's content is not
// judged, only its presence.
import type { ValidateFunction } from 'ajv';
import type { CompiledForm } from '../compile-request.js';
import type { Finding } from '../finding.js';
import { headerValue } from '../exchange.js';
import { decodeFormBody } from '../form-body/decode-form-body.js';
import { requestFinding, type RequestCheckContext } from './request-check-context.js';

export function formBodyFindings(
  context: RequestCheckContext,
  form: CompiledForm,
  validate: ValidateFunction,
  mediaType: string,
): Finding[] {
  const { request, contract } = context;
  const finding = (fields: Omit<Finding, 'check' | 'operation' | 'severity'> & Partial<Pick<Finding, 'severity'>>) =>
    requestFinding(context, 'request_body_conformance', fields);
  const decoded = decodeFormBody(form.plan, request.body, headerValue(request.headers, 'content-type'), {
    ...(request.bodyNotUtf8 ? { notUtf8: true } : {}),
    judgeHeader: (header, value) => {
      const validator = form.headerValidators.get(header);
      if (!validator) return [];
      // The message names the value `body` (compile-spec.ts's describeError): here the header itself.
      return contract.check(validator, value).errors.map((error) => error.message.replace(/^body /, ''));
    },
  });
  if ('malformed' in decoded)
    return [finding({ instancePath: '', message: `the request body is not valid ${mediaType}: ${decoded.malformed}` })];
  if ('tooMany' in decoded)
    return [
      finding({
        instancePath: '',
        severity: 'warning',
        message: `the request body has over ${decoded.tooMany} fields: not checked`,
      }),
    ];
  const findings = decoded.problems.map((problem) => finding(problem));
  const validation = contract.check(validate, decoded.value);
  // A file's bytes (and text not kept as sent) are present, their content unknown: nothing is said about it.
  const judged = (path: string) => !decoded.opaque.some((opaque) => path === opaque || path.startsWith(`${opaque}/`));
  for (const error of validation.errors)
    if (judged(error.instancePath))
      findings.push(
        finding({
          instancePath: error.instancePath,
          schemaPath: error.schemaPath,
          message: `request ${error.message}`,
        }),
      );
  if (validation.stoppedAfter !== undefined)
    findings.push(
      finding({
        instancePath: '',
        severity: 'warning',
        message: `listing stopped after ${validation.stoppedAfter} errors`,
      }),
    );
  return findings;
}
