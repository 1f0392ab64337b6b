// delivery_headers: a delivery is a POST with the headers the spec's webhooks document (X-Service-Delivery a uuid,
// X-Service-Event the event, X-Service-Hook-ID, the installation target, signatures in their form, User-Agent)
// and a content type its hook's content_type calls for (webhooks seed: events 3; config table).
import type { Finding } from '../finding.js';
import { mediaTypeOf } from '../exchange.js';
import { formMediaType, type DeliveryContract, type DeliveryHeaderRule } from './delivery-contract.js';
import { deliveryHeader, type ReceivedDelivery } from './received-delivery.js';
import { signatureHeaderNames } from './delivery-convention.js';
import { ownValue } from '../own-key.js';

export function deliveryHeaders(
  contract: DeliveryContract,
  operation: string,
  rules: DeliveryHeaderRule[],
  delivery: ReceivedDelivery,
  expected: { event?: string; contentType?: string },
): Finding[] {
  const findings: Finding[] = [];
  if (delivery.method.toUpperCase() !== 'POST')
    findings.push(
      finding(operation, `the delivery was sent with ${delivery.method}, not POST`, '', 'POST', delivery.method),
    );
  for (const rule of rules) {
    const raw = ownValue(delivery.headers, rule.name.toLowerCase());
    const where = `/headers/${rule.name}`;
    if (Array.isArray(raw)) {
      findings.push(finding(operation, `${rule.name} is sent ${raw.length} times`, where, 'one value', raw.length));
      continue;
    }
    if (raw === undefined) {
      if (rule.required) findings.push(finding(operation, `${rule.name} is missing`, where, 'present', null));
      continue;
    }
    const errors = rule.validate ? contract.errorsOf(rule.validate, raw) : [];
    if (errors.length > 0) {
      const reason = errors[0]?.message.replace(/^body /, '') ?? 'is invalid';
      // A signature's value is as good as the secret to whoever replays the payload: it is not echoed.
      const actual = isSignature(contract, rule.name) ? 'a malformed signature' : raw;
      findings.push(finding(operation, `${rule.name} ${reason}`, where, undefined, actual));
    }
  }
  const eventHeader = contract.convention.eventHeader;
  const event = eventHeader === undefined ? undefined : deliveryHeader(delivery, eventHeader);
  if (expected.event !== undefined && event !== undefined && event !== expected.event) {
    findings.push(
      finding(
        operation,
        `${eventHeader} is ${JSON.stringify(event)}, expected ${JSON.stringify(expected.event)}`,
        `/headers/${eventHeader}`,
        expected.event,
        event,
      ),
    );
  }
  const mediaType = mediaTypeOf(deliveryHeader(delivery, 'content-type'));
  if (expected.contentType !== undefined) {
    const wanted = expected.contentType === 'form' ? formMediaType : 'application/json';
    if (mediaType !== wanted) {
      findings.push(
        finding(
          operation,
          `content-type is ${mediaType === undefined ? 'missing' : JSON.stringify(mediaType)}, but the hook's content_type ${JSON.stringify(expected.contentType)} calls for ${wanted}`,
          '/headers/content-type',
          wanted,
          mediaType ?? null,
        ),
      );
    }
  } else if (mediaType === undefined) {
    findings.push(
      finding(
        operation,
        'content-type is missing',
        '/headers/content-type',
        `application/json or ${formMediaType}`,
        null,
      ),
    );
  }
  return findings;
}

// Any header a scheme of the API signs in, and the example's, whatever the convention: a signature is never echoed.
const isSignature = (contract: DeliveryContract, name: string) =>
  [...contract.convention.signatures.flatMap(signatureHeaderNames), 'X-Hub-Signature-256', 'X-Hub-Signature'].some(
    (header) => header.toLowerCase() === name.toLowerCase(),
  );

const finding = (
  operation: string,
  message: string,
  instancePath: string,
  expected: unknown,
  actual: unknown,
): Finding => ({
  check: 'delivery_headers',
  severity: 'error',
  operation,
  instancePath,
  message,
  ...(expected === undefined ? {} : { expected }),
  actual,
});
