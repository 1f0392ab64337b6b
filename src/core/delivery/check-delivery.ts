// The core's entry point for deliveries: one received delivery in, findings out (delivery_signature,
// delivery_headers, delivery_payload_schema). Pure apart from hashing and the clock the timestamped signature
// schemes read: no I/O, no exceptions for a bad delivery.
import type { CheckName, Finding } from '../finding.js';
import type { DeliveryContract } from './delivery-contract.js';
import { deliveryHeaders } from './delivery-headers.js';
import { bodyText, readPayload } from './delivery-payload.js';
import { deliveryPayloadSchema } from './delivery-payload-schema.js';
import { deliverySignature } from './delivery-signature.js';
import { identifiedHow, identifiedOperation, identifyWebhook } from './identify-webhook.js';
import { deliveryHeader, type DeliveryExpectation, type ReceivedDelivery } from './received-delivery.js';

export interface DeliveryResult {
  /** The webhook's operationId in the spec, or `delivery <event>` for an event it does not document. */
  operation: string;
  /** The event header as sent, or the key of the webhook the payload identified. */
  event: string | undefined;
  /** How the webhook was told (identify-webhook.ts), in words. */
  identified: string;
  /** X-Service-Delivery as sent, X-Service-Hook-ID as sent (the repository-webhooks example's headers). */
  guid: string | undefined;
  hookId: string | undefined;
  /** The payload as JSON, when it could be read. */
  payload: unknown;
  /** The checks that judged this delivery; each held unless a finding names it. */
  applied: CheckName[];
  findings: Finding[];
}

export async function checkDelivery(
  contract: DeliveryContract,
  delivery: ReceivedDelivery,
  expectation: DeliveryExpectation = {},
): Promise<DeliveryResult> {
  const text = bodyText(delivery.body);
  const reading = readPayload(delivery, text);
  const identification = identifyWebhook(contract, delivery, reading);
  const operation = identifiedOperation(identification);
  const webhook = 'webhook' in identification ? identification.webhook : undefined;
  const applied: CheckName[] = ['delivery_headers', 'delivery_payload_schema'];
  const findings = [
    ...deliveryHeaders(contract, operation, webhook?.headers ?? contract.commonHeaders, delivery, expectation),
    ...deliveryPayloadSchema(contract, operation, identification, reading),
  ];
  const signatureFindings: Finding[] = [];
  let judged = false;
  for (const scheme of contract.convention.signatures) {
    const secret = expectation.secret !== undefined ? expectation.secret : expectation.secrets?.[scheme.secretEnv];
    if (secret === undefined) continue;
    judged = true;
    signatureFindings.push(...deliverySignature(scheme, operation, delivery, secret, expectation.now ?? Date.now()));
  }
  if (judged) {
    applied.unshift('delivery_signature');
    findings.unshift(...signatureFindings);
  }
  return {
    operation,
    event: identification.how === 'event-header' ? identification.value : webhook?.event,
    identified: identifiedHow(identification),
    guid: deliveryHeader(delivery, 'X-Service-Delivery'),
    hookId: deliveryHeader(delivery, 'X-Service-Hook-ID'),
    payload: reading.kind === 'json' ? reading.value : undefined,
    applied,
    findings,
  };
}
